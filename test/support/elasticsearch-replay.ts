import { createServer, type Server } from 'node:http';

/**
 * A loopback stand-in for Elasticsearch or OpenSearch, which cannot be installed here. It answers
 * the endpoints our client calls in their documented shapes:
 * - GET / → {name, cluster_name, cluster_uuid, version: {number, distribution?, build_flavor, …}, tagline}
 *   (https://www.elastic.co/guide/en/elasticsearch/reference/current/rest-api-root.html; OpenSearch adds
 *   version.distribution "opensearch", https://opensearch.org/docs/latest/api-reference/)
 * - POST /<index>/_count {query} → {count, _shards: {total, successful, skipped, failed}}
 *   (https://www.elastic.co/guide/en/elasticsearch/reference/current/search-count.html)
 * - POST /<index>/_search {size, query, sort, _source, track_total_hits} → {took, timed_out, _shards,
 *   hits: {total: {value, relation}, max_score, hits: [{_index, _id, _score, _source, sort}]}}
 *   (https://www.elastic.co/guide/en/elasticsearch/reference/current/search-search.html)
 * - errors: {error: {root_cause, type, reason}, status}.
 * It evaluates the query DSL our adapter writes (bool filter / should with minimum_should_match,
 * range with gte/lt, term with case_insensitive, terms, match_all) over the documents a test gave
 * it, and records every request so a test asserts what was asked.
 */

export type EsDoc = Record<string, unknown>;
export type EsRequest = { method: string; path: string; body: Record<string, unknown> | null; authorization: string | null };

export type ElasticsearchReplay = {
  url: string;
  requests: EsRequest[];
  /** Documents of an index (the replay matches an index pattern's `*` against these names). */
  index(name: string, ...docs: EsDoc[]): void;
  fail(status: number | null, type?: string, reason?: string): void;
  close(): Promise<void>;
};

type Q = Record<string, unknown>;

/** A field of a document, nested or dotted. */
function get(doc: EsDoc, path: string): unknown {
  if (path in doc) return doc[path];
  const parts = path.split('.');
  for (let i = parts.length - 1; i > 0; i -= 1) {
    const inner = doc[parts.slice(0, i).join('.')];
    if (inner && typeof inner === 'object') {
      const v = get(inner as EsDoc, parts.slice(i).join('.'));
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

function evaluate(q: Q, doc: EsDoc): boolean {
  const [kind, arg] = Object.entries(q)[0] ?? ['match_all', {}];
  const a = arg as Q;
  switch (kind) {
    case 'match_all': return true;
    case 'bool': {
      const list = (k: string) => (Array.isArray(a[k]) ? (a[k] as Q[]) : a[k] ? [a[k] as Q] : []);
      if (![...list('filter'), ...list('must')].every((x) => evaluate(x, doc))) return false;
      if (list('must_not').some((x) => evaluate(x, doc))) return false;
      const should = list('should');
      const min = typeof a.minimum_should_match === 'number' ? a.minimum_should_match : should.length && !list('filter').length && !list('must').length ? 1 : 0;
      return should.filter((x) => evaluate(x, doc)).length >= min;
    }
    case 'range': {
      const [field, r] = Object.entries(a)[0]! as [string, Q];
      const v = Date.parse(String(get(doc, field)));
      if (r.gte !== undefined && !(v >= Date.parse(String(r.gte)))) return false;
      if (r.gt !== undefined && !(v > Date.parse(String(r.gt)))) return false;
      if (r.lt !== undefined && !(v < Date.parse(String(r.lt)))) return false;
      if (r.lte !== undefined && !(v <= Date.parse(String(r.lte)))) return false;
      return true;
    }
    case 'term': {
      const [field, t] = Object.entries(a)[0]! as [string, unknown];
      const spec = t && typeof t === 'object' ? (t as Q) : { value: t };
      const v = String(get(doc, field) ?? '');
      return spec.case_insensitive ? v.toLowerCase() === String(spec.value).toLowerCase() : v === String(spec.value);
    }
    case 'terms': {
      const [field, values] = Object.entries(a)[0]! as [string, unknown[]];
      return values.map(String).includes(String(get(doc, field) ?? ''));
    }
    default: throw Object.assign(new Error(`unknown query [${kind}]`), { type: 'parsing_exception' });
  }
}

const patternRe = (p: string) => new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

export async function startElasticsearchReplay(opts: { distribution?: 'elasticsearch' | 'opensearch'; version?: string } = {}): Promise<ElasticsearchReplay> {
  const indices = new Map<string, EsDoc[]>();
  const requests: EsRequest[] = [];
  let failing: { status: number; type: string; reason: string } | null = null;
  const shards = { total: 1, successful: 1, skipped: 0, failed: 0 };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://es');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Q | null = null;
      try {
        body = text ? (JSON.parse(text) as Q) : null;
      } catch {
        body = null;
      }
      requests.push({ method: req.method ?? 'GET', path: u.pathname, body, authorization: req.headers.authorization ?? null });
      const send = (status: number, b: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(b));
      const error = (status: number, type: string, reason: string) => send(status, { error: { root_cause: [{ type, reason }], type, reason }, status });
      if (failing) return error(failing.status, failing.type, failing.reason);
      if (u.pathname === '/') {
        const os = opts.distribution === 'opensearch';
        return send(200, {
          name: 'node-1', cluster_name: os ? 'opensearch' : 'elasticsearch', cluster_uuid: 'k2Yz1gQbQ0u1', tagline: os ? 'The OpenSearch Project: https://opensearch.org/' : 'You Know, for Search',
          version: { number: opts.version ?? (os ? '2.15.0' : '8.14.1'), ...(os ? { distribution: 'opensearch' } : { build_flavor: 'default' }), build_type: 'docker', lucene_version: '9.10.0' },
        });
      }
      const m = /^\/([^/]+)\/(_count|_search)$/.exec(u.pathname);
      if (!m) return error(400, 'illegal_argument_exception', `no handler found for uri [${u.pathname}] and method [${req.method}]`);
      const patterns = decodeURIComponent(m[1]!).split(',');
      const docs = [...indices.entries()].filter(([name]) => patterns.some((p) => patternRe(p).test(name))).flatMap(([, d]) => d);
      let matched: EsDoc[];
      try {
        matched = docs.filter((d) => evaluate((body?.query as Q) ?? { match_all: {} }, d));
      } catch (err) {
        return error(400, (err as { type?: string }).type ?? 'parsing_exception', err instanceof Error ? err.message : String(err));
      }
      if (m[2] === '_count') return send(200, { count: matched.length, _shards: shards });
      const sort = (body?.sort as Array<Record<string, { order: string }>> | undefined)?.[0];
      if (sort) {
        const [field, { order }] = Object.entries(sort)[0]!;
        matched = [...matched].sort((a, b) => (order === 'desc' ? -1 : 1) * (Date.parse(String(get(a, field))) - Date.parse(String(get(b, field)))));
      }
      const size = typeof body?.size === 'number' ? body.size : 10;
      const fields = Array.isArray(body?._source) ? (body._source as string[]) : null;
      const hits = matched.slice(0, size).map((d, i) => ({
        _index: 'logs', _id: String(i), _score: null,
        _source: fields ? Object.fromEntries(fields.map((f) => [f, get(d, f)]).filter(([, v]) => v !== undefined)) : d,
      }));
      // Without track_total_hits the total stops at 10,000 with relation "gte".
      const total = body?.track_total_hits === true || matched.length <= 10_000 ? { value: matched.length, relation: 'eq' } : { value: 10_000, relation: 'gte' };
      return send(200, { took: 1, timed_out: false, _shards: shards, hits: { total, max_score: null, hits } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    index: (name, ...docs) => indices.set(name, [...(indices.get(name) ?? []), ...docs]),
    fail: (status, type = 'search_phase_execution_exception', reason = 'all shards failed') => {
      failing = status === null ? null : { status, type, reason };
    },
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
