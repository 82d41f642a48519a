import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import { countRows, createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../support/test-app.js';

type Param = { name: string; in: string; schema?: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, { parameters?: Param[] }>> };

/** Every (route, query parameter) of the OpenAPI document whose value is a number. */
function numericQueryParams(doc: Doc): { path: string; name: string }[] {
  const out: { path: string; name: string }[] = [];
  const numeric = (s: Record<string, unknown> | undefined): boolean =>
    !!s && (s.type === 'integer' || s.type === 'number' || (Array.isArray(s.anyOf) && (s.anyOf as Record<string, unknown>[]).some(numeric)));
  for (const [path, ops] of Object.entries(doc.paths)) {
    const get = ops.get;
    for (const p of get?.parameters ?? []) if (p.in === 'query' && numeric(p.schema)) out.push({ path, name: p.name });
  }
  return out;
}

const NOT_FINITE = ['1e400', 'Infinity', '-1e400', '-Infinity', 'NaN'];

describeEachEngine('integer query parameters refuse values that are not finite numbers', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let secret: string;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Numbers');
    secret = (await createToken(t, owner, ['audit:read', 'flags:read', 'catalogue:read', 'changes:read'])).secret;
    await t.main.inject({ method: 'POST', url: '/api/flags', headers: owner.headers, payload: { key: 'ops.x', type: 'boolean', risk: 'low' } });
  });
  afterAll(async () => t.close());

  it('answers 400 naming limit or offset on the routes the probe found (both listeners)', async () => {
    const cases = ['/api/audit?limit=', '/api/flags/audit?limit=', '/api/flags/ops.x/history?limit=', '/api/catalog/inventory?limit=', '/api/catalog/inventory?offset='];
    for (const prefix of cases) {
      for (const v of NOT_FINITE) {
        const field = prefix.endsWith('offset=') ? 'offset' : 'limit';
        for (const [app, headers] of [[t.main, owner.headers], [t.pipeline, { authorization: `Bearer ${secret}` }]] as const) {
          const res = await app.inject({ method: 'GET', url: prefix + v, headers });
          expect(res.statusCode, `${prefix}${v} → ${res.body}`).toBe(400);
          expect(res.json()).toMatchObject({ field });
          expect(res.json().error).toMatch(new RegExp(`^${field === 'limit' ? 'Limit' : 'Offset'} must be `));
        }
      }
    }
  });

  it('says in words what a number may be', async () => {
    const res = await t.main.inject({ method: 'GET', url: '/api/audit?limit=1e400', headers: owner.headers });
    expect(res.json()).toEqual({ error: 'Limit must be a finite number', field: 'limit' });
  });

  it('holds for every numeric query parameter of every route in the OpenAPI document, writing nothing', async () => {
    const params = numericQueryParams((await t.main.inject({ url: '/api/openapi.json' })).json() as Doc);
    expect(params.map((p) => `${p.path}?${p.name}`)).toEqual(expect.arrayContaining(['/api/audit?limit', '/api/catalog/inventory?offset', '/api/changes?limit']));
    const before = await countRows(engine.db());
    for (const { path, name } of params) {
      const url = path.replace(/\{[A-Za-z]+\}/g, path.includes('/organizations/') ? owner.org.id : 'x');
      for (const v of NOT_FINITE) {
        const res = await t.main.inject({ method: 'GET', url: `${url}?${name}=${v}`, headers: owner.headers });
        expect(res.statusCode, `${url}?${name}=${v} → ${res.body}`).toBe(400);
        expect(res.json().field, `${url}?${name}=${v}`).toBe(name);
      }
    }
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('still takes ordinary numbers from a query string', async () => {
    const res = await t.main.inject({ method: 'GET', url: '/api/audit?limit=2', headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.length).toBeLessThanOrEqual(2);
    const inv = await t.main.inject({ method: 'GET', url: '/api/catalog/inventory?offset=0&limit=10&hops=1', headers: owner.headers });
    expect(inv.statusCode, inv.body).toBe(200);
  });
});
