import type { OutboundClient, OutboundResponse } from '../../platform/net/outbound.js';
import { LOG_MAX_RESPONSE_BYTES } from './log-span.js';
import type { LogSource, LogSourceTest } from './log-source-config.js';
import { answered, authHeader, outboundReason } from './log-http.js';

/**
 * Elasticsearch and OpenSearch, which answer the same for what we ask, through the one outbound
 * client. Documented shapes:
 * - GET / → {name, cluster_name, version: {number, distribution?: "opensearch"}, tagline}
 *   (https://www.elastic.co/guide/en/elasticsearch/reference/current/rest-api-root.html,
 *   https://opensearch.org/docs/latest/api-reference/)
 * - POST /<index>/_count {query} → {count, _shards}
 *   (https://www.elastic.co/guide/en/elasticsearch/reference/current/search-count.html)
 * - POST /<index>/_search {size, query, aggs, sort, _source} → {hits: {total: {value, relation},
 *   hits: [{_source}]}, aggregations: {<name>: {buckets: [{key, doc_count}]}}}
 *   (https://www.elastic.co/guide/en/elasticsearch/reference/current/search-search.html)
 * Errors come as {error: {type, reason}, status}.
 */

export type ElasticsearchTarget = Extract<LogSource, { kind: 'elasticsearch' }>;
export type SearchHit = { _source?: Record<string, unknown> };
export type SearchAnswer = {
  hits?: { total?: { value?: number; relation?: string } | number; hits?: SearchHit[] };
  aggregations?: Record<string, { buckets?: Array<{ key: unknown; doc_count: number }> }>;
};

export class ElasticsearchError extends Error {}

export type ElasticsearchClient = {
  info(t: ElasticsearchTarget): Promise<{ distribution: 'Elasticsearch' | 'OpenSearch'; version: string | null }>;
  count(t: ElasticsearchTarget, query: unknown): Promise<number>;
  search(t: ElasticsearchTarget, body: unknown): Promise<SearchAnswer>;
  test(t: ElasticsearchTarget): Promise<LogSourceTest>;
};

/** The index in a path: each name of a comma list encoded, commas and wildcards kept. */
export function indexPath(index: string): string {
  return index.split(',').map((p) => encodeURIComponent(p.trim()).replace(/%2A/gi, '*')).join(',');
}

export function createElasticsearchClient(outbound: OutboundClient): ElasticsearchClient {
  async function call(t: ElasticsearchTarget, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    let res: OutboundResponse;
    try {
      res = await outbound.request({
        method, url: `${t.url.replace(/\/+$/, '')}${path}`, allowPrivate: t.allowPrivate, maxResponseBytes: LOG_MAX_RESPONSE_BYTES,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...authHeader(t.auth) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (err) {
      throw new ElasticsearchError(outboundReason(err));
    }
    if (res.status < 200 || res.status >= 300) throw new ElasticsearchError(answered('Elasticsearch', res));
    if (res.truncated) throw new ElasticsearchError('Elasticsearch answered more than this server reads in one answer');
    try {
      return JSON.parse(res.body) as unknown;
    } catch {
      throw new ElasticsearchError(`Elasticsearch answered ${res.status} with something that is not JSON`);
    }
  }

  const client: ElasticsearchClient = {
    async info(t) {
      const b = (await call(t, 'GET', '/')) as { version?: { number?: unknown; distribution?: unknown } };
      const distribution = b?.version?.distribution === 'opensearch' ? 'OpenSearch' : 'Elasticsearch';
      return { distribution, version: typeof b?.version?.number === 'string' ? b.version.number : null };
    },

    async count(t, query) {
      const b = (await call(t, 'POST', `/${indexPath(t.config.index)}/_count?ignore_unavailable=true`, { query })) as { count?: unknown };
      if (typeof b?.count !== 'number') throw new ElasticsearchError('Elasticsearch answered a count without a number');
      return b.count;
    },

    async search(t, body) {
      return (await call(t, 'POST', `/${indexPath(t.config.index)}/_search?ignore_unavailable=true`, body)) as SearchAnswer;
    },

    async test(t) {
      try {
        const { distribution, version } = await client.info(t);
        const n = await client.count(t, { match_all: {} });
        const who = `${distribution}${version ? ` ${version}` : ''}`;
        const ok = n > 0;
        return {
          ok,
          message: ok ? `${who} answered; ${t.config.index} holds ${n} records` : `${who} answered, but no record matches the index ${t.config.index}`,
          ...(version ? { version } : {}),
        };
      } catch (err) {
        return { ok: false, message: err instanceof Error ? err.message : String(err) };
      }
    },
  };
  return client;
}

/** hits.total is {value, relation} since Elasticsearch 7 and a number before it. */
export function totalHits(a: SearchAnswer): number | null {
  const t = a.hits?.total;
  if (typeof t === 'number') return t;
  return typeof t?.value === 'number' ? t.value : null;
}
