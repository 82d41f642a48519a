import { describe, expect, it } from 'vitest';
import { fixtureJson, withValue } from '../../../test/fixtures/catalogue/fixtures.js';
import { fromOtlpTraces, INGRESS, parseOtlpText, PROBE_PATHS, type OtlpResult } from './otlp.js';

const NOW = new Date('2025-05-14T10:00:00Z');
const T0 = 1_747_215_000_000_000_000n; // 2025-05-14T09:30:00Z
const TRACE = '5b8efff798038103d269b633813fc60c';
const ns = (ms: number) => String(T0 + BigInt(Math.round(ms * 1e6)));
const sid = (n: number) => n.toString(16).padStart(16, '0');

type SpanSpec = { id: number; parent?: number; kind: number | string; start?: number; end?: number; attrs?: Record<string, string | number>; code?: number | string; name?: string };
const span = (s: SpanSpec) => ({
  traceId: TRACE, spanId: sid(s.id), parentSpanId: s.parent ? sid(s.parent) : '', name: s.name ?? 'GET', kind: s.kind,
  startTimeUnixNano: ns(s.start ?? 0), endTimeUnixNano: ns(s.end ?? 10),
  attributes: Object.entries(s.attrs ?? {}).map(([key, v]) => ({ key, value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: v } })),
  status: s.code === undefined ? {} : { code: s.code },
});
/** One ExportTraceServiceRequest: a resource per service, its spans in one scope. */
const request = (services: Record<string, SpanSpec[]>) => ({
  resourceSpans: Object.entries(services).map(([name, spans]) => ({
    resource: { attributes: [{ key: 'service.name', value: { stringValue: name } }] },
    scopeSpans: [{ scope: { name: 'test' }, spans: spans.map(span) }],
  })),
});
/** A CLIENT span of the caller (id n) and its SERVER span at the callee (id n + 1). */
const pair = (n: number, server: Partial<SpanSpec> = {}, client: Partial<SpanSpec> = {}): [SpanSpec, SpanSpec] => [
  { id: n, kind: 3, start: server.start ?? 0, end: server.end ?? 10, ...client },
  { id: n + 1, parent: n, kind: 2, attrs: { 'http.request.method': 'GET', 'http.route': '/orders/{id}' }, ...server },
];

function ok(r: OtlpResult) {
  if (!r.ok) throw new Error(`${r.field}: ${r.error}`);
  return r;
}
const linksOf = (r: OtlpResult) => ok(r).estate.links.map((l) => `${l.from} -${l.via}-> ${l.to}`).sort();

describe('an OTLP/JSON export of four services', () => {
  const r = ok(fromOtlpTraces(fixtureJson('otlp-traces.json'), { now: NOW }));

  it('makes a service per resource and an external per host called without a server span', () => {
    expect(r.estate.entities.map((e) => `${e.kind} ${e.key}`).sort()).toEqual([
      'external ext:api.stripe.com', 'external ext:orders-db.shop.svc.cluster.local', 'service svc:cart', 'service svc:checkout', 'service svc:frontend', 'service svc:payments',
    ]);
    expect(r.estate.entities.find((e) => e.key === 'svc:frontend')).toMatchObject({ environment: 'production', attrs: { namespace: 'shop', version: '2.14.0' } });
    // the older deployment.environment counts too
    expect(r.estate.entities.find((e) => e.key === 'svc:payments')).toMatchObject({ environment: 'production' });
    expect(r.estate.entities.find((e) => e.key === 'ext:orders-db.shop.svc.cluster.local')).toMatchObject({ engine: 'postgresql' });
    expect(r.estate.entities.find((e) => e.key === 'ext:api.stripe.com')).toMatchObject({ attrs: { peerService: 'stripe' } });
  });

  it('links callers to callees once each, seen last at the latest span end', () => {
    expect(r.estate.links.map((l) => `${l.from} -${l.via}-> ${l.to} @${l.lastSeen}`).sort()).toEqual([
      'svc:checkout -calls-> ext:orders-db.shop.svc.cluster.local @2025-05-14T09:30:00.125Z',
      // through peer.service: cart's server span is not in this export
      'svc:checkout -calls-> svc:cart @2025-05-14T09:33:00.015Z',
      'svc:checkout -calls-> svc:payments @2025-05-14T09:31:02.010Z',
      'svc:frontend -calls-> svc:cart @2025-05-14T09:32:30.020Z',
      'svc:frontend -calls-> svc:checkout @2025-05-14T09:31:30.004Z',
      'svc:payments -calls-> ext:api.stripe.com @2025-05-14T09:30:00.095Z',
    ]);
    expect(r.ignored).toBe(0);
  });

  it('groups server spans into routes with calls, error share, p95, a sample path and the probe flag', () => {
    expect(r.routes).toEqual([
      // frontend's root server spans: requests from outside the estate
      { caller: 'ingress', callee: 'svc:frontend', method: 'GET', route: '/cart', calls: 1, errorShare: 0, p95Ms: 35, samplePath: null, lastSeen: '2025-05-14T09:32:00.035Z', probe: false },
      { caller: 'ingress', callee: 'svc:frontend', method: 'POST', route: '/checkout', calls: 2, errorShare: 0.5, p95Ms: 2320, samplePath: '/checkout', lastSeen: '2025-05-14T09:31:02.320Z', probe: false },
      { caller: 'svc:checkout', callee: 'svc:payments', method: 'POST', route: '/v1/charges', calls: 2, errorShare: 0.5, p95Ms: 1990, samplePath: '/v1/charges', lastSeen: '2025-05-14T09:31:02.005Z', probe: false },
      { caller: 'svc:frontend', callee: 'svc:cart', method: 'GET', route: '/api/cart/<cart_id>', calls: 2, errorShare: 0, p95Ms: 24, samplePath: '/api/cart/77', lastSeen: '2025-05-14T09:32:30.018Z', probe: false },
      { caller: 'svc:frontend', callee: 'svc:checkout', method: 'POST', route: '/api/orders', calls: 2, errorShare: 0.5, p95Ms: 2300, samplePath: '/api/orders', lastSeen: '2025-05-14T09:31:02.305Z', probe: false },
      { caller: 'svc:frontend', callee: 'svc:checkout', method: 'GET', route: '/healthz', calls: 1, errorShare: 0, p95Ms: 2, samplePath: '/healthz', lastSeen: '2025-05-14T09:31:30.003Z', probe: true },
    ]);
  });
});

describe('OTLP rules', () => {
  it('reads both encodings of kind, status code and intValue alike', () => {
    const rows: Array<[number | string, number | string, number | string, 'string' | 'number']> = [
      [3, 2, 2, 'string'], ['SPAN_KIND_CLIENT', 'SPAN_KIND_SERVER', 'STATUS_CODE_ERROR', 'number'], [3, 'SPAN_KIND_SERVER', 0, 'number'],
    ];
    for (const [clientKind, serverKind, code, intAs] of rows) {
      const [c, s] = pair(1, { kind: serverKind, code });
      const doc = request({ a: [{ ...c, kind: clientKind }], b: [s] });
      const attrs = doc.resourceSpans[1]!.scopeSpans[0]!.spans[0]!.attributes;
      attrs.push({ key: 'http.response.status_code', value: { intValue: (intAs === 'string' ? '503' : 503) as string } });
      const r = ok(fromOtlpTraces(doc, { now: NOW }));
      expect(linksOf(r)).toEqual(['svc:a -calls-> svc:b']);
      expect(r.routes[0]?.errorShare).toBe(1);
    }
  });

  it('matches ids case-insensitively', () => {
    const [c, s] = pair(0xabc);
    const doc = request({ a: [c], b: [s] });
    const server = doc.resourceSpans[1]!.scopeSpans[0]!.spans[0]!;
    server.parentSpanId = server.parentSpanId.toUpperCase();
    server.traceId = server.traceId.toUpperCase();
    expect(linksOf(fromOtlpTraces(doc, { now: NOW }))).toEqual(['svc:a -calls-> svc:b']);
  });

  it('names the callee of a client span without a server span by peer.service, else by its address', () => {
    const rows: Array<[Record<string, string | number>, string | null, Record<string, unknown>?]> = [
      [{ 'peer.service': 'b', 'server.address': 'b.shop.svc.cluster.local' }, 'svc:b'],
      [{ 'peer.service': 'stripe', 'server.address': 'api.stripe.com' }, 'ext:api.stripe.com', { kind: 'external', name: 'api.stripe.com', attrs: { peerService: 'stripe' } }],
      [{ 'net.peer.name': 'legacy.internal', 'net.peer.port': 8080 }, 'ext:legacy.internal'],
      [{ 'url.full': 'https://hooks.slack.com/services/T000/B000' }, 'ext:hooks.slack.com'],
      [{ 'http.url': 'http://10.0.0.7:8080/v1/rates' }, 'ext:10.0.0.7'],
      [{ 'peer.service': 'geo-api' }, 'ext:geo-api'],
      [{ 'db.system': 'redis', 'server.address': 'sessions-redis' }, 'ext:sessions-redis', { engine: 'redis' }],
      [{ 'url.full': 'not a url' }, null],
      [{}, null],
      [{ 'peer.service': 'a' }, null],
    ];
    for (const [attrs, to, entity] of rows) {
      const r = ok(fromOtlpTraces(request({ a: [{ id: 1, kind: 3, attrs }], b: [] }), { now: NOW }));
      expect(linksOf(r), JSON.stringify(attrs)).toEqual(to ? [`svc:a -calls-> ${to}`] : []);
      expect(r.ignored).toBe(to ? 0 : 1);
      expect(r.routes).toEqual([]);
      if (entity) expect(r.estate.entities.find((e) => e.key === to)).toMatchObject(entity);
    }
  });

  it('makes no link for a service calling itself or a server span under a span that is not a CLIENT', () => {
    const [c, s] = pair(1);
    const self = ok(fromOtlpTraces(request({ a: [c, s] }), { now: NOW }));
    expect(self).toMatchObject({ estate: { links: [] }, routes: [], ignored: 1 });
    const internal = ok(fromOtlpTraces(request({ a: [{ ...c, kind: 1 }], b: [s] }), { now: NOW }));
    expect(internal).toMatchObject({ estate: { links: [] }, routes: [], ignored: 0 });
  });

  it('records a root SERVER span as a route from ingress, with no entity and no link', () => {
    const root = { id: 1, kind: 2, start: 0, end: 40, code: 2, attrs: { 'http.request.method': 'post', 'http.route': '/checkout', 'url.path': '/checkout' } };
    const r = ok(fromOtlpTraces(request({ web: [root, { ...root, id: 2, end: 20, code: 0 }] }), { now: NOW }));
    expect(INGRESS).not.toContain(':');
    expect(r.routes).toEqual([
      { caller: 'ingress', callee: 'svc:web', method: 'POST', route: '/checkout', calls: 2, errorShare: 0.5, p95Ms: 40, samplePath: '/checkout', lastSeen: '2025-05-14T09:30:00.040Z', probe: false },
    ]);
    expect(r.estate.links).toEqual([]);
    expect(r.estate.entities.map((e) => e.key)).toEqual(['svc:web']);
    expect(r.ignored).toBe(0);
    // a server span under a parent that is not in the export is not a request from outside
    const orphan = ok(fromOtlpTraces(request({ web: [{ ...root, parent: 9 }] }), { now: NOW }));
    expect(orphan.routes).toEqual([]);
  });

  it('counts a span delivered twice once, across a list of requests', () => {
    const [c, s] = pair(1);
    const doc = request({ a: [c], b: [s] });
    const r = ok(fromOtlpTraces([doc, doc], { now: NOW }));
    expect(r.estate.links).toHaveLength(1);
    expect(r.routes).toMatchObject([{ calls: 1 }]);
  });

  it('takes the nearest-rank 95th percentile of durations', () => {
    const rows: Array<[number[], number]> = [[[12.5], 12.5], [[5, 7, 100], 100], [Array.from({ length: 20 }, (_, i) => i + 1), 19], [Array.from({ length: 100 }, (_, i) => 100 - i), 95]];
    for (const [durations, p95] of rows) {
      const pairs = durations.map((d, i) => pair(10 * (i + 1), { start: 0, end: d }));
      const r = ok(fromOtlpTraces(request({ a: pairs.map((p) => p[0]), b: pairs.map((p) => p[1]) }), { now: NOW }));
      expect(r.routes).toMatchObject([{ calls: durations.length, p95Ms: p95 }]);
    }
  });

  it('counts an error by status ERROR or an HTTP status of 500 or more', () => {
    const rows: Array<[Partial<SpanSpec>, number]> = [
      [{ code: 2 }, 1], [{ code: 'STATUS_CODE_ERROR' }, 1], [{ code: 1 }, 0],
      [{ attrs: { 'http.route': '/x', 'http.response.status_code': 500 } }, 1], [{ attrs: { 'http.route': '/x', 'http.status_code': 503 } }, 1],
      [{ attrs: { 'http.route': '/x', 'http.response.status_code': 499 } }, 0], [{ attrs: { 'http.route': '/x', 'http.response.status_code': 404 } }, 0],
    ];
    for (const [server, errors] of rows) {
      const [c, s] = pair(1, server);
      expect(ok(fromOtlpTraces(request({ a: [c], b: [s] }), { now: NOW })).routes, JSON.stringify(server)).toMatchObject([{ calls: 1, errorShare: errors }]);
    }
  });

  it('flags health and metrics routes as probes, by route or, without one, by path', () => {
    const rows: Array<[Record<string, string>, string, boolean]> = [
      ...PROBE_PATHS.map((p): [Record<string, string>, string, boolean] => [{ 'http.route': p }, p, true]),
      [{ 'http.route': '/healthz/' }, '/healthz/', true],
      [{ 'http.route': '/api/health-check' }, '/api/health-check', false],
      [{ 'http.route': '/metrics/{name}' }, '/metrics/{name}', false],
      [{ 'url.path': '/readyz' }, '/readyz', true],
      [{ 'http.target': '/livez?verbose' }, '/livez', true],
      [{ 'url.path': '/orders/7' }, 'GET', false],
    ];
    for (const [attrs, route, probe] of rows) {
      const [c, s] = pair(1, { attrs: { 'http.request.method': 'GET', ...attrs } });
      expect(ok(fromOtlpTraces(request({ a: [c], b: [s] }), { now: NOW })).routes, JSON.stringify(attrs)).toMatchObject([{ route, probe }]);
    }
  });

  it('reads method and route from old HTTP and RPC conventions, else the span name', () => {
    const rows: Array<[Record<string, string>, string | null, string]> = [
      [{ 'http.method': 'get', 'http.route': '/a' }, 'GET', '/a'],
      [{ 'rpc.system': 'grpc', 'rpc.service': 'shop.Cart', 'rpc.method': 'GetCart' }, 'GRPC', 'shop.Cart/GetCart'],
      [{}, null, 'process order'],
    ];
    for (const [attrs, method, route] of rows) {
      const [c, s] = pair(1, { attrs, name: 'process order' });
      expect(ok(fromOtlpTraces(request({ a: [c], b: [s] }), { now: NOW })).routes).toMatchObject([{ method, route }]);
    }
  });

  it('keeps the path of the latest call without its query, and never dates anything after now', () => {
    const [c1, s1] = pair(1, { start: 50, end: 60, attrs: { 'http.route': '/o/{id}', 'url.path': '/o/2', 'url.query': 'x=1' } });
    const [c2, s2] = pair(3, { start: 0, end: 10, attrs: { 'http.route': '/o/{id}', 'http.target': '/o/1?token=secret' } });
    const doc = request({ a: [c1, c2], b: [s1, s2] });
    expect(ok(fromOtlpTraces(doc, { now: NOW })).routes).toMatchObject([{ samplePath: '/o/2', lastSeen: '2025-05-14T09:30:00.060Z' }]);
    const early = new Date('2025-05-14T09:30:00.005Z');
    const r = ok(fromOtlpTraces(doc, { now: early }));
    expect(r.routes[0]?.lastSeen).toBe(early.toISOString());
    expect(r.estate.links[0]?.lastSeen).toBe(early.toISOString());
  });
});

describe('OTLP validation', () => {
  const base = () => request({ a: [{ id: 1, kind: 3, attrs: { 'peer.service': 'b' } }], b: [{ id: 2, parent: 1, kind: 2, attrs: { 'http.route': '/x' } }] });
  const S = 'resourceSpans.0.scopeSpans.0.spans.0';

  it('accepts the base request', () => {
    expect(fromOtlpTraces(base(), { now: NOW })).toMatchObject({ ok: true, routes: [{ route: '/x' }] });
  });

  it('names the field of each problem', () => {
    const rows: Array<[string, unknown, string]> = [
      ['resourceSpans', undefined, 'resourceSpans'],
      ['resourceSpans', { a: 1 }, 'resourceSpans'],
      ['resourceSpans.0', 'a', 'resourceSpans.0'],
      ['resourceSpans.0.resource.attributes', { 'service.name': 'a' }, 'resourceSpans.0.resource.attributes'],
      ['resourceSpans.0.resource.attributes', [], 'resourceSpans.0.resource.attributes'],
      ['resourceSpans.0.resource.attributes.0.value', { stringValue: 'x'.repeat(301) }, 'resourceSpans.0.resource.attributes'],
      ['resourceSpans.0.resource.attributes.0.key', 5, 'resourceSpans.0.resource.attributes.0.key'],
      ['resourceSpans.0.scopeSpans', { spans: [] }, 'resourceSpans.0.scopeSpans'],
      ['resourceSpans.0.scopeSpans.0', 3, 'resourceSpans.0.scopeSpans.0'],
      ['resourceSpans.0.scopeSpans.0.spans', 'none', 'resourceSpans.0.scopeSpans.0.spans'],
      [S, null, S],
      [`${S}.traceId`, undefined, `${S}.traceId`],
      [`${S}.traceId`, 'abc', `${S}.traceId`],
      [`${S}.traceId`, 'z'.repeat(32), `${S}.traceId`],
      [`${S}.traceId`, '0'.repeat(32), `${S}.traceId`],
      [`${S}.traceId`, 'W46PN5eAOBDSabYzgT/GDA==', `${S}.traceId`],
      [`${S}.spanId`, undefined, `${S}.spanId`],
      [`${S}.spanId`, '123', `${S}.spanId`],
      [`${S}.spanId`, '0'.repeat(16), `${S}.spanId`],
      [`${S}.parentSpanId`, 'parent', `${S}.parentSpanId`],
      [`${S}.name`, 5, `${S}.name`],
      [`${S}.kind`, 6, `${S}.kind`],
      [`${S}.kind`, 2.5, `${S}.kind`],
      [`${S}.kind`, 'SERVER', `${S}.kind`],
      [`${S}.kind`, true, `${S}.kind`],
      [`${S}.startTimeUnixNano`, undefined, `${S}.startTimeUnixNano`],
      [`${S}.startTimeUnixNano`, 'soon', `${S}.startTimeUnixNano`],
      [`${S}.startTimeUnixNano`, 1.5, `${S}.startTimeUnixNano`],
      [`${S}.startTimeUnixNano`, '-5', `${S}.startTimeUnixNano`],
      [`${S}.endTimeUnixNano`, undefined, `${S}.endTimeUnixNano`],
      [`${S}.endTimeUnixNano`, ns(-1), `${S}.endTimeUnixNano`],
      [`${S}.status`, 'ERROR', `${S}.status`],
      [`${S}.status.code`, 3, `${S}.status.code`],
      [`${S}.status.code`, 'ERROR', `${S}.status.code`],
      [`${S}.attributes`, { 'peer.service': 'b' }, `${S}.attributes`],
      [`${S}.attributes.0.key`, null, `${S}.attributes.0.key`],
      [`${S}.attributes.0.value`, { intValue: 'many' }, `${S}.attributes.0.value.intValue`],
      [`${S}.attributes.0.value`, { intValue: 1.5 }, `${S}.attributes.0.value.intValue`],
    ];
    for (const [path, value, field] of rows) expect(fromOtlpTraces(withValue(base(), path, value), { now: NOW }), `${path} = ${JSON.stringify(value)}`).toMatchObject({ ok: false, field });
    for (const doc of [null, 'spans', {}]) expect(fromOtlpTraces(doc, { now: NOW })).toMatchObject({ ok: false, field: 'resourceSpans' });
  });

  it('names the field deep in an export, in a list of requests, and under the pre-0.15 name of scopeSpans', () => {
    const fixture = fixtureJson('otlp-traces.json');
    expect(fromOtlpTraces(withValue(fixture, 'resourceSpans.1.scopeSpans.1.spans.1.spanId', 'nope'), { now: NOW })).toMatchObject({ ok: false, field: 'resourceSpans.1.scopeSpans.1.spans.1.spanId' });
    expect(fromOtlpTraces([base(), withValue(base(), `${S}.spanId`, 'x')], { now: NOW })).toMatchObject({ ok: false, field: `1.${S}.spanId` });
    expect(fromOtlpTraces([base(), {}], { now: NOW })).toMatchObject({ ok: false, field: '1.resourceSpans' });
    const old = base();
    const rs = old.resourceSpans[0]! as Record<string, unknown>;
    rs.instrumentationLibrarySpans = rs.scopeSpans;
    delete rs.scopeSpans;
    expect(fromOtlpTraces(old, { now: NOW })).toMatchObject({ ok: true, estate: { links: [{ from: 'svc:a', to: 'svc:b' }] } });
    expect(fromOtlpTraces(withValue(old, 'resourceSpans.0.instrumentationLibrarySpans.0.spans.0.kind', 9), { now: NOW })).toMatchObject({ ok: false, field: 'resourceSpans.0.instrumentationLibrarySpans.0.spans.0.kind' });
  });
});

describe('reading OTLP/JSON text', () => {
  it('reads one request, or JSON lines as a list of requests', () => {
    const one = JSON.stringify(request({ a: [pair(1)[0]], b: [pair(1)[1]] }));
    expect(parseOtlpText(JSON.stringify(JSON.parse(one), null, 2))).toMatchObject({ ok: true, value: { resourceSpans: [{}, {}] } });
    const lines = parseOtlpText(`${one}\n${one}\n`);
    expect(lines).toMatchObject({ ok: true, value: [{ resourceSpans: [{}, {}] }, { resourceSpans: [{}, {}] }] });
    expect(lines.ok && fromOtlpTraces(lines.value, { now: NOW })).toMatchObject({ ok: true, routes: [{ calls: 1 }] });
  });

  it('names the line of a syntax error', () => {
    expect(parseOtlpText('{"resourceSpans": []}\n{"resourceSpans": [}\n')).toMatchObject({ ok: false, line: 2 });
    expect(parseOtlpText('{\n  "resourceSpans": [\n    }\n')).toMatchObject({ ok: false, line: 3 });
    expect(parseOtlpText('{\n  "resourceSpans": [1,\n  2\n')).toMatchObject({ ok: false, line: 4 });
  });
});
