import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import { SCOPES } from '../../src/domains/auth/index.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../support/test-app.js';

type Schema = {
  type?: string | string[]; enum?: unknown[]; const?: unknown; anyOf?: Schema[]; oneOf?: Schema[]; format?: string; pattern?: string;
  minLength?: number; maxLength?: number; minimum?: number; maximum?: number; items?: Schema; maxItems?: number;
  properties?: Record<string, Schema>; required?: string[]; additionalProperties?: boolean | Schema;
};
type Op = { parameters?: { in: string; name: string; schema?: Schema }[]; requestBody?: { content?: Record<string, { schema: Schema }> } };
type Route = { method: string; path: string; op: Op };
type Doc = { paths: Record<string, Record<string, Op>> };
/** A request body; `wrongType` when a declared field carries a value of another JSON type, which must never be taken. */
type Body = { raw: string; type: string; wrongType?: string } | null;

/** Fixed, so a failure in CI is replayed exactly; printed by fast-check with the counterexample. */
const SEED = 20261101;
const RUNS_PER_ROUTE = 8;
/**
 * Written on purpose by a refused request: failed sign-ins are counted so they can be throttled,
 * and every request of a token or a change source counts against its rate, refused or not.
 */
const WRITTEN_ON_REFUSAL = new Set(['auth_throttles', 'rate_windows']);
/** A value that stands for a number JSON can spell but no double holds: its JSON form becomes 1e400 in the body sent. */
const MARK = '\u0000number\u0000';
const MARK_JSON = JSON.stringify(MARK);

/** What the probe sent: numbers JSON or a query can spell but no column can hold, and text that looks like other types. */
const nonFinite = fc.constantFrom('1e400', '-1e400', 'Infinity', '-Infinity', 'NaN');
const nastyText = fc.oneof(
  { weight: 3, arbitrary: nonFinite },
  { weight: 2, arbitrary: fc.constantFrom('1.5', '-1', '0', '', ' ', 'true', 'null', '[]', '{}', '%00', '\u0000', '../..', "' OR 1=1 --", '9'.repeat(40), 'x'.repeat(600)) },
);
const wrongJson = fc.constantFrom<unknown>(true, false, null, 0, -1, 1.5, '', 'x', 'true', '5', [], {}, [1], { a: 1 }, MARK);

/** Values shaped by a schema: mostly acceptable, so a request gets past validation into the handler and the SQL. */
function valueOf(s: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 4) return fc.jsonValue({ maxDepth: 1 });
  if (s.enum) return fc.constantFrom(...s.enum);
  if ('const' in s) return fc.constant(s.const);
  const alts = s.anyOf ?? s.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((a) => valueOf(a, depth + 1)));
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((type) => valueOf({ ...s, type }, depth)));
  switch (s.type) {
    case 'string':
      if (s.format === 'date-time') return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 1000));
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.max(s.minLength ?? 0, Math.min(s.maxLength ?? 40, 40)) });
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -5, -1e9), max: Math.min(s.maximum ?? 1000, 1e9) });
    case 'number':
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueOf(s.items, depth + 1), { maxLength: Math.min(s.maxItems ?? 3, 3) });
    case 'object': {
      const props = Object.entries(s.properties ?? {});
      if (!props.length) return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      return fc.record(Object.fromEntries(props.map(([k, p]) => [k, valueOf(p, depth + 1)])), { requiredKeys: (s.required ?? []).filter((r) => s.properties?.[r]) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const typeOf = (v: unknown): string[] =>
  v === MARK ? ['non-finite number'] : v === null ? ['null'] : Array.isArray(v) ? ['array'] : typeof v === 'number' ? (Number.isInteger(v) ? ['integer', 'number'] : ['number']) : [typeof v];

/** Whether a value cannot be of the schema's declared type(s); only judged where the schema says plainly. */
function mismatched(s: Schema | undefined, v: unknown): boolean {
  if (!s?.type || s.anyOf || s.oneOf) return false;
  const declared = Array.isArray(s.type) ? s.type : [s.type];
  return !typeOf(v).some((t) => declared.includes(t));
}

/** A body from the route's schema, then spoiled: one field of the wrong type, a number no column holds, no body at all, not JSON. */
function bodyOf(schema: Schema | undefined): fc.Arbitrary<Body> {
  const json = (v: unknown, type = 'application/json') => ({ raw: JSON.stringify(v).replaceAll(MARK_JSON, '1e400'), type });
  const keys = Object.keys(schema?.properties ?? {});
  const shaped = valueOf(schema);
  const spoiled = keys.length
    ? fc.tuple(shaped, fc.constantFrom(...keys), wrongJson).map(([o, k, w]) => ({
      ...json({ ...(o && typeof o === 'object' ? o : {}), [k]: w }),
      ...(mismatched(schema?.properties?.[k], w) ? { wrongType: `${k}: ${typeOf(w)[0]}` } : {}),
    }))
    : fc.jsonValue({ maxDepth: 2 }).map((v) => json(v));
  return fc.oneof(
    { weight: 3, arbitrary: shaped.map((v) => json(v)) },
    { weight: 4, arbitrary: spoiled },
    { weight: 1, arbitrary: fc.constantFrom('', '   ', 'null', '[]', '1e400', '"x"', '{', '{"a":1e400}').map((raw) => ({ raw, type: 'application/json' })) },
    { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 50 }), fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1')).map(([raw, type]) => ({ raw, type })) },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

const numeric = (s: Schema | undefined): boolean =>
  !!s && (s.type === 'integer' || s.type === 'number' || !!s.anyOf?.some(numeric));

/**
 * A query from the route's declared parameters. A number is sent more often, and more often spoiled,
 * than text: a text filter that fails its own check would hide what the number reaches.
 */
function queryOf(op: Op): fc.Arbitrary<Record<string, string>> {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  const shaped = (s: Schema | undefined) => valueOf(s).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  const value = (s: Schema | undefined) => numeric(s)
    ? fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: shaped(s) }, { weight: 3, arbitrary: nastyText })
    : fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.oneof(shaped(s), nastyText) });
  const declared = fc.record(Object.fromEntries(params.map((p) => [p.name, value(p.schema)])));
  return fc.tuple(declared, fc.option(fc.tuple(fc.constantFrom('x', 'limit', 'offset', 'cursor'), nastyText), { nil: undefined, freq: 4 }))
    .map(([q, extra]) => {
      const out = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string>;
      return extra && !(extra[0] in out) ? { ...out, [extra[0]]: extra[1] } : out;
    });
}

function routesOf(doc: Doc): Route[] {
  const out: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      // Signing out rightly writes whatever it is sent; it is not an input case.
      if (method === 'delete' && path === '/api/session') continue;
      out.push({ method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

describeEachEngine('fuzz: every OpenAPI route, with inputs shaped by its own schema, never answers 5xx and never writes on a 4xx', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let secret: string;
  let sdkKey: string;
  let changeId: string;
  let countSql: string;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Fuzz');
    secret = (await createToken(t, owner, [...SCOPES])).secret;
    sdkKey = (await t.main.inject({ method: 'POST', url: '/api/sdk-keys', headers: owner.headers, payload: { name: 'fuzz', env: 'production' } })).json().secret as string;
    await t.main.inject({ method: 'POST', url: '/api/flags', headers: owner.headers, payload: { key: 'ops.fuzz', type: 'boolean', risk: 'low' } });
    await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: 'entities:\n  - { key: "svc:web", kind: service, name: web }\n' });
    changeId = (await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: 'Fuzzed', components: [{ query: 'web' }] } })).json().change.id as string;
    const tables = (await engine.db().query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).rows.map((r) => r.name).filter((n) => !WRITTEN_ON_REFUSAL.has(n));
    // json_build_object takes at most 100 arguments (50 tables): one object per 40 tables, joined.
    const chunks = Array.from({ length: Math.ceil(tables.length / 40) }, (_, i) => tables.slice(i * 40, i * 40 + 40));
    countSql = `SELECT (${chunks.map((c) => `jsonb_build_object(${c.map((n) => `'${n}', (SELECT count(*) FROM ${n})`).join(', ')})`).join(' || ')}) AS counts`;
  });
  afterAll(async () => t.close());

  const counts = async () => (await engine.db().query<{ counts: Record<string, number> }>(countSql)).rows[0]!.counts;

  /** A real id for the route's path parameter (so the handler runs), the schema's shape, or junk. */
  function pathOf(route: Route): fc.Arbitrary<string> {
    const names = [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
    const real = (name: string): string | null => {
      if (name === 'id' && route.path.startsWith('/api/organizations/')) return owner.org.id;
      if (name === 'id' && route.path.startsWith('/api/changes/')) return changeId;
      if (name === 'key' && route.path.startsWith('/api/flags/')) return 'ops.fuzz';
      if (name === 'key' && route.path.startsWith('/ofrep/')) return 'ops.fuzz';
      if (name === 'env') return 'production';
      if (name === 'key' && route.path.startsWith('/api/environments/')) return 'staging';
      if (name === 'key' && route.path.startsWith('/api/catalog/')) return 'svc:web';
      return null;
    };
    const one = (name: string) => {
      const schema = route.op.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema;
      const r = real(name);
      return fc.oneof(...(r ? [fc.constant(r), fc.constant(r)] : []), valueOf(schema).map(String), nastyText).map((v) => encodeURIComponent(v || 'x'));
    };
    return fc.tuple(...names.map(one)).map((values) => names.reduce((p, n, i) => p.replace(`{${n}}`, values[i]!), route.path));
  }

  it(`runs ${RUNS_PER_ROUTE} seeded cases on each route of the document, on both listeners`, async () => {
    const routes = routesOf((await t.main.inject({ url: '/api/openapi.json' })).json() as Doc);
    expect(routes.length).toBeGreaterThan(60);
    const statuses = new Map<number, number>();
    for (const [i, route] of routes.entries()) {
      const schema = route.op.requestBody?.content?.['application/json']?.schema;
      const body = route.method === 'GET' ? fc.constant<Body>(null) : bodyOf(schema);
      await fc.assert(
        fc.asyncProperty(pathOf(route), queryOf(route.op), body, fc.constantFrom<'main' | 'pipeline'>('main', 'pipeline'), async (path, query, b, listener) => {
          // Keep the token under its rate limit: this is about input, not pace.
          t.clock.advance(2_000);
          const qs = new URLSearchParams(query).toString();
          const url = qs ? `${path}?${qs}` : path;
          const auth = route.path.startsWith('/ofrep/') ? { 'x-api-key': sdkKey } : listener === 'main' ? owner.headers : { authorization: `Bearer ${secret}` };
          const before = await counts();
          const res = await (listener === 'main' ? t.main : t.pipeline).inject({
            method: route.method as 'GET', url, headers: { ...auth, ...(b ? { 'content-type': b.type } : {}) }, ...(b ? { payload: b.raw } : {}),
          });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const what = `${route.method} ${url} on ${listener} ${b ? `${b.type} ${b.raw.slice(0, 200)}` : ''} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          // A JSON body is taken as sent: `{"key": true}` is not the text "true".
          if (b?.wrongType) expect(res.statusCode, `${what} (${b.wrongType})`).toBeGreaterThanOrEqual(400);
          // Pipelines send the JSON header with no body: that is `{}`, never "Body cannot be empty".
          expect(res.body, what).not.toMatch(/body cannot be empty/i);
          if (res.statusCode >= 400) {
            expect(typeof (res.json() as { error?: unknown }).error, what).toBe('string');
            expect(await counts(), `${what}: a refused request wrote`).toEqual(before);
          }
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED + i, endOnFailure: true },
      );
    }
    // The cases reach handlers as well as validation: some succeed, some are refused.
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
    expect([...statuses.keys()].some((s) => s === 400)).toBe(true);
  }, 120_000);
});
