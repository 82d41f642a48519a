import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { PASSWORD, signedInOwner, signIn, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

const DUMP = JSON.stringify({ kind: 'List', items: [
  { kind: 'Node', metadata: { name: 'worker-1' } },
  { kind: 'Pod', metadata: { name: 'checkout-1', namespace: 'shop', labels: { app: 'checkout' } }, spec: { nodeName: 'worker-1' } },
] });
const DECLARED = 'entities:\n  - { key: "svc:checkout", kind: service }\n  - { key: "svc:payments", kind: service }\nlinks:\n  - { from: "svc:checkout", to: "svc:payments", via: calls }\n';

describeEachEngine('the stale sweep of observed links', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    t.clock.set('2026-05-01T10:30:00.000Z');
    owner = await signedInOwner(t, 'Sweep');
    const imp = (format: string, body: string, type: string) => t.main.inject({ method: 'POST', url: `/api/catalog/imports?format=${format}`, headers: { ...owner.headers, 'content-type': type }, payload: body });
    expect((await imp('kubernetes', DUMP, 'application/json')).statusCode).toBe(200);
    expect((await imp('changeledger', DECLARED, 'application/yaml')).statusCode).toBe(200);
  });
  afterAll(async () => t.close());
  const entity = async (key: string) => (await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent(key)}`, headers: owner.headers })).json();

  it('after the window, marks observed placements stale on the hourly job, keeps declared links, and audits it', async () => {
    await engine.db().transaction((tx) => t.services.catalogue.scheduleSweep(tx));
    t.clock.set('2026-05-01T11:00:00.000Z');
    expect(await t.services.worker.runOnce()).toBe(1);
    expect((await entity('pod:shop/checkout-1')).entity.uses.hop1).toEqual([{ key: 'node:worker-1', kind: 'node', name: 'worker-1', via: 'runs-on' }]);
    // Eight days on, the overdue hourly run catches up once (not once per missed hour).
    t.clock.set('2026-05-09T12:00:00.000Z');
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
    expect(await t.services.worker.runOnce()).toBe(1);
    expect(await t.services.worker.runOnce()).toBe(0);
    const pod = await entity('pod:shop/checkout-1');
    expect(pod.entity.uses.hop1).toEqual([{ key: 'node:worker-1', kind: 'node', name: 'worker-1', via: 'runs-on', stale: true }]);
    expect(pod.meta).toMatchObject({ staleAfterDays: 7, lastSweepAt: '2026-05-09T12:00:00.000Z' });
    const checkout = await entity('svc:checkout');
    expect(checkout.entity.uses.hop1.find((n: { key: string }) => n.key === 'svc:payments')).toEqual({ key: 'svc:payments', kind: 'service', name: 'payments', via: 'calls' });
    const ev = (await listAuditEvents(engine.db(), owner.org.id, { action: 'catalogue.swept' }, 1)).items[0];
    expect(ev).toMatchObject({ actor: { kind: 'system' }, source: 'scheduler', data: { leftStale: 2, staleAfterDays: 7 } });
  });

  it('seeing an observation again makes it fresh', async () => {
    const res = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=kubernetes', headers: { ...owner.headers, 'content-type': 'application/json' }, payload: DUMP });
    expect(res.json()).toMatchObject({ links: { changed: 2 } });
    expect((await entity('pod:shop/checkout-1')).entity.uses.hop1[0].stale).toBeUndefined();
  });

  it('owners set the window; members may not', async () => {
    const set = await t.main.inject({ method: 'PUT', url: '/api/settings/catalogue', headers: owner.headers, payload: { staleAfterDays: 30 } });
    expect(set.json()).toMatchObject({ staleAfterDays: 30 });
    expect((await t.main.inject({ method: 'PUT', url: '/api/settings/catalogue', headers: owner.headers, payload: { staleAfterDays: 0 } })).json()).toMatchObject({ field: 'staleAfterDays' });
  });
});
