import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import { countRows, signedInOwner, testApp, type SignedIn, type TestApp } from '../support/test-app.js';

type Prop = { type?: string };
type BodySchema = { properties?: Record<string, Prop>; required?: string[] };
type Doc = { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema: BodySchema }> } }>> };

/** Values of another JSON type that a coercing validator would have taken for the declared one. */
const WRONG: Record<string, unknown[]> = {
  string: [true, 5],
  boolean: [null, 'true', 0],
  integer: ['5', true, null],
  number: ['5', false],
  array: [true, 'x'],
};

describeEachEngine('a JSON body is taken as sent: a value of the wrong type is a 400 naming the field', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let sdkKey: string;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Types');
    sdkKey = (await t.main.inject({ method: 'POST', url: '/api/sdk-keys', headers: owner.headers, payload: { name: 'types', env: 'production' } })).json().secret as string;
  });
  afterAll(async () => t.close());
  const post = (url: string, payload: unknown) => t.main.inject({ method: 'POST', url, headers: owner.headers, payload: payload as Record<string, unknown> });

  it('refuses the cases the probe found, in words, writing nothing', async () => {
    const before = await countRows(engine.db());
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['/api/environments', { key: true, name: 'True' }, 'key', 'Key must be text'],
      ['/api/flags', { key: 'ops.typed', type: 'boolean', risk: 'low', tags: true }, 'tags', 'Tags must be a list'],
      ['/api/flags', { key: 'ops.typed', type: 'boolean', risk: 'low', tags: 'a' }, 'tags', 'Tags must be a list'],
      ['/api/changes', { title: 'T', components: [], startNow: null }, 'startNow', 'Start now must be true or false'],
      ['/api/changes', { title: 'T', components: [], evidenceMinutes: '60' }, 'evidenceMinutes', 'Evidence horizon (minutes) must be a whole number'],
      ['/api/changes', { title: 5, components: [] }, 'title', 'Title must be text'],
      ['/api/flags', { key: 'ops.typed', type: 'boolean', risk: 'low', ownerService: 5 }, 'ownerService', 'Owner service must be text or null'],
    ];
    for (const [url, payload, field, error] of cases) {
      const res = await post(url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)} → ${res.body}`).toBe(400);
      expect(res.json()).toEqual({ error, field });
    }
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('refuses 1e400 in a body as not a finite number', async () => {
    const res = t.main.inject({ method: 'POST', url: '/api/changes/chg_x/evaluate', headers: { ...owner.headers, 'content-type': 'application/json' }, payload: '{"evidenceMinutes": 1e400}' });
    expect((await res).json()).toEqual({ error: 'Evidence horizon (minutes) must be a finite number', field: 'evidenceMinutes' });
  });

  it('holds for every property of every JSON body in the OpenAPI document', async () => {
    const doc = (await t.main.inject({ url: '/api/openapi.json' })).json() as Doc;
    const before = await countRows(engine.db());
    let tried = 0;
    const failures: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        const id = path.startsWith('/api/organizations/') ? owner.org.id : path.startsWith('/api/flags/requests/') ? `fcr_${'0'.repeat(32)}` : 'x';
        const url = path.replace('{id}', id).replace(/\{[A-Za-z]+\}/g, 'x');
        const headers = path.startsWith('/ofrep/') ? { 'x-api-key': sdkKey } : owner.headers;
        for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
          for (const wrong of WRONG[prop.type ?? ''] ?? []) {
            tried += 1;
            const res = await t.main.inject({ method: method.toUpperCase() as 'POST', url, headers, payload: { [name]: wrong } });
            const what = `${method.toUpperCase()} ${url} {${name}: ${JSON.stringify(wrong)}} → ${res.body}`;
            // With the other required fields absent, the refusal may name one of them first.
            const others = (schema?.required ?? []).filter((r) => r !== name);
            if (res.statusCode !== 400 || (!others.length && res.json().field !== name)) failures.push(what);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(100);
    expect(await countRows(engine.db())).toEqual(before);
  });
});
