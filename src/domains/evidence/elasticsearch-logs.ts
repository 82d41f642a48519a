import type { ElasticsearchClient, ElasticsearchTarget } from './elasticsearch-client.js';
import { totalHits } from './elasticsearch-client.js';
import type { ServiceRef, Span } from './evidence-types.js';
import { maskMessage } from './log-fingerprint.js';
import { MAX_LOG_LINES, serviceNames, type SpanFingerprint, type SpanReader } from './log-span.js';

/**
 * The logs of a span from Elasticsearch or OpenSearch, in two requests:
 * - `_count` of the blast radius's records in the span;
 * - `_search` of its error records with `track_total_hits` (their exact number), newest first, at
 *   most MAX_LOG_LINES with only the message and service fields, which we mask into templates
 *   (a message is text, which a terms aggregation cannot group).
 * Services and levels match case-insensitively (term queries' `case_insensitive`, Elasticsearch
 * 7.10+ and OpenSearch), since a service may log as "Checkout" or "checkout".
 */

const anyOf = (field: string, values: string[]) => ({
  bool: { should: values.map((value) => ({ term: { [field]: { value, case_insensitive: true } } })), minimum_should_match: 1 },
});

export function elasticsearchQueries(t: ElasticsearchTarget, names: string[], span: Span) {
  const c = t.config;
  const all = {
    bool: { filter: [{ range: { [c.timeField]: { gte: span.start, lt: span.end, format: 'strict_date_optional_time' } } }, anyOf(c.serviceField, names)] },
  };
  const errors = { bool: { filter: [...all.bool.filter, anyOf(c.levelField, c.errorLevels)] } };
  return { all, errors };
}

/** A field of a document, written nested ({service: {name}}) or flat ({"service.name"}), as ECS documents come both ways. */
export function fieldOf(doc: Record<string, unknown> | undefined, path: string): unknown {
  if (!doc) return undefined;
  if (path in doc) return doc[path];
  const parts = path.split('.');
  for (let i = parts.length - 1; i > 0; i -= 1) {
    const inner = doc[parts.slice(0, i).join('.')];
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      const v = fieldOf(inner as Record<string, unknown>, parts.slice(i).join('.'));
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.map(text).join(' ') : v === undefined || v === null ? '' : JSON.stringify(v));

export function elasticsearchSpanReader(client: ElasticsearchClient, t: ElasticsearchTarget, services: ServiceRef[]): SpanReader {
  const names = serviceNames(services);
  const c = t.config;
  return async (span) => {
    const q = elasticsearchQueries(t, names, span);
    const volume = await client.count(t, q.all);
    const found = await client.search(t, {
      size: MAX_LOG_LINES, track_total_hits: true, query: q.errors,
      sort: [{ [c.timeField]: { order: 'desc' } }], _source: [c.messageField, c.serviceField],
    });
    const errors = totalHits(found);
    if (errors === null) throw new Error('Elasticsearch answered a search without hits.total');
    const hits = found.hits?.hits ?? [];
    const fingerprints = new Map<string, SpanFingerprint>();
    for (const h of hits) {
      const message = text(fieldOf(h._source, c.messageField));
      const service = text(fieldOf(h._source, c.serviceField));
      const template = maskMessage(message);
      const f = fingerprints.get(template) ?? { count: 0, services: [], sample: message };
      f.count += 1;
      if (service && !f.services.includes(service)) f.services = [...f.services, service].sort();
      fingerprints.set(template, f);
    }
    return { volume, errors, fingerprints, complete: hits.length >= errors };
  };
}
