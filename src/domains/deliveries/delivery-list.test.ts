import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { startReceiver } from '../../../test/support/receiver.js';
import { countRows, createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ESTATE = `
entities:
  - { key: "svc:web", kind: service, name: web, tier: standard }
`;

// What the home page's "needs attention" reads: the callbacks and ticket steps that gave up.
describeEachEngine('deliveries of the organisation by state', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  const get = (s: SignedIn, url: string) => t.main.inject({ method: 'GET', url, headers: s.headers });
  const register = async (s: SignedIn, title: string, callbackUrl: string) => {
    const r = await t.main.inject({ method: 'POST', url: '/api/changes', headers: s.headers, payload: { title, components: [{ key: 'svc:web' }], startNow: true, callbackUrl } });
    expect(r.statusCode, r.body).toBe(201);
    return (r.json() as { change: { id: string; displayId: string } }).change;
  };

  beforeAll(async () => {
    t = await testApp(engine.db());
    hook = await startReceiver();
    owner = await signedInOwner(t, 'Deliveries');
    other = await signedInOwner(t, 'Elsewhere');
    for (const s of [owner, other]) {
      const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...s.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
      expect(imp.statusCode, imp.body).toBe(200);
      expect((await t.main.inject({ method: 'PUT', url: `/api/organizations/${s.org.id}/change-settings`, headers: s.headers, payload: { approvalRequired: 'none' } })).statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  it('starts empty, then lists a callback that gave up with its change; a delivered one and another organisation’s are left out', async () => {
    expect((await get(owner, '/api/deliveries')).json()).toEqual({ deliveries: [] });
    hook.answers.push({ status: 401, body: 'bad signature', headers: { 'content-type': 'text/plain' } });
    const failing = await register(owner, 'deploy with a strict receiver', `${hook.url}/strict`);
    await t.services.worker.runOnce();
    hook.answers.push({ status: 204 });
    await register(owner, 'deploy with a happy receiver', `${hook.url}/ok`);
    hook.answers.push({ status: 401 });
    await register(other, 'another organisation', `${hook.url}/theirs`);
    while ((await t.services.worker.runOnce()) > 0);

    const r = await get(owner, '/api/deliveries');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json() as { deliveries: Json[] };
    expect(body.deliveries).toHaveLength(1);
    expect(body.deliveries[0]).toMatchObject({
      channel: 'callback', event: 'change.started', state: 'failed', attempts: 1, httpStatus: 401, error: 'answered 401: bad signature',
      change: { id: failing.id, displayId: failing.displayId, title: 'deploy with a strict receiver' },
    });
    expect((await get(owner, '/api/deliveries?state=retrying')).json()).toEqual({ deliveries: [] });
  });

  it('serves a token holding changes:read on the pipeline listener', async () => {
    const { secret } = await createToken(t, owner, ['changes:read'], 'reader');
    const r = await t.pipeline.inject({ method: 'GET', url: '/api/deliveries', headers: { authorization: `Bearer ${secret}` } });
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json() as { deliveries: unknown[] }).deliveries).toHaveLength(1);
  });

  it('refuses an unknown state naming the field, writing nothing', async () => {
    const before = await countRows(engine.db());
    const r = await get(owner, '/api/deliveries?state=lost');
    expect(r.statusCode).toBe(400);
    expect(r.json().field).toBe('state');
    expect(await countRows(engine.db())).toEqual(before);
  });
});
