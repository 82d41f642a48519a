import type { ServiceRef, Span } from './evidence-types.js';
import { maskMessage } from './log-fingerprint.js';
import { MAX_LOG_LINES, serviceNames, type SpanFingerprint, type SpanReader } from './log-span.js';
import type { LokiClient, LokiTarget } from './loki-client.js';

/**
 * The logs of a span from Grafana Loki, in three LogQL queries:
 * - `sum(count_over_time(<selector> [<span>s]))` at the span's end: every line;
 * - the same with the error filter: error lines;
 * - the error lines themselves (query_range, newest first, at most MAX_LOG_LINES), which we mask
 *   into templates, since LogQL cannot group by a template of ours.
 */

/** RE2 (Loki's regex engine) metacharacters, escaped so a service name matches only itself. */
const escapeRe2 = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The stream selector of the blast radius: the service label matching any of its names, case
 * insensitive (Loki anchors a regex matcher to the whole value), plus the source's own matchers.
 */
export function lokiSelector(t: LokiTarget, names: string[]): string {
  const re = `(?i)(${names.map(escapeRe2).join('|')})`;
  const matchers = [`${t.config.serviceLabel}=~${JSON.stringify(re)}`, ...(t.config.selector ? [t.config.selector] : [])];
  return `{${matchers.join(', ')}}`;
}

const toNs = (iso: string) => `${BigInt(Date.parse(iso)) * 1_000_000n}`;
const spanSeconds = (s: Span) => Math.max(1, Math.round((Date.parse(s.end) - Date.parse(s.start)) / 1000));

export function lokiSpanReader(client: LokiClient, t: LokiTarget, services: ServiceRef[]): SpanReader {
  const selector = lokiSelector(t, serviceNames(services));
  const errors = `${selector} ${t.config.errorFilter}`;
  return async (span) => {
    const at = Date.parse(span.end) / 1000;
    const range = `[${spanSeconds(span)}s]`;
    const sum = (xs: Array<{ value: number }>) => xs.reduce((n, x) => n + x.value, 0);
    const volume = sum(await client.query(t, `sum(count_over_time(${selector} ${range}))`, at));
    const errorCount = sum(await client.query(t, `sum(count_over_time(${errors} ${range}))`, at));
    const lines = await client.lines(t, errors, toNs(span.start), toNs(span.end), MAX_LOG_LINES);
    const fingerprints = new Map<string, SpanFingerprint & { seen: Set<string> }>();
    // Newest first: the first line of a template is its sample.
    for (const l of lines) {
      const template = maskMessage(l.line);
      const service = l.labels[t.config.serviceLabel] ?? '';
      const f = fingerprints.get(template) ?? { count: 0, services: [], sample: l.line, seen: new Set<string>() };
      f.count += 1;
      if (service && !f.seen.has(service)) {
        f.seen.add(service);
        f.services = [...f.seen].sort();
      }
      fingerprints.set(template, f);
    }
    const plain = new Map([...fingerprints].map(([k, { count, services: s, sample }]) => [k, { count, services: s, sample }]));
    return { volume, errors: errorCount, fingerprints: plain, complete: lines.length < MAX_LOG_LINES && lines.length >= errorCount };
  };
}
