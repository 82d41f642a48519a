import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { addChangeSource } from '../../../test/support/observed-intake.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';

/**
 * A batch sender that missed our answer resends the batch byte for byte: the retry is answered
 * from the first reading (nothing recorded twice, the same noise and bad items reported), except
 * when the first reading stopped at the 500 rows of one call: then the retry records the rest.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const T0 = new Date('2026-03-02T10:00:00.000Z');
const at = (s: number) => new Date(Date.parse('2026-03-02T09:00:00Z') + s * 1000).toISOString();
const patch = (id: string, name: string, s: number, username = 'alice@example.com') => ({
  level: 'Request', auditID: id, stage: 'ResponseComplete', verb: 'patch', user: { username },
  requestURI: `/apis/apps/v1/namespaces/shop/deployments/${name}`, objectRef: { resource: 'deployments', namespace: 'shop', name, apiGroup: 'apps', apiVersion: 'v1' },
  responseStatus: { code: 200 }, requestObject: { spec: { replicas: 3 } }, requestReceivedTimestamp: at(s), stageTimestamp: at(s),
});
const lease = { ...patch('lease-1', 'w1', 3, 'system:node:w1'), verb: 'update', objectRef: { resource: 'leases', namespace: 'kube-node-lease', name: 'w1', apiGroup: 'coordination.k8s.io' } };
const eventList = (items: unknown[]) => JSON.stringify({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', items });

describeEachEngine('a batch resent byte for byte', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const post = (id: string, secret: string, body: string) =>
    t.pipeline.inject({ method: 'POST', url: `/v1/changes/kubernetes/${id}`, payload: body, headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` } });
  const stored = async (id: string) => Number((await t.services.db.query<{ n: string }>('SELECT count(*) AS n FROM observed_changes WHERE source_id = $1', [id])).rows[0]!.n);
  const counters = async (id: string) => Object.fromEntries(Object.entries((await t.services.db.query<Json>('SELECT recorded, duplicate, noise, rejected FROM change_sources WHERE id = $1', [id])).rows[0]!).map(([k, v]) => [k, Number(v)]));

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
    owner = await signedInOwner(t, 'Replay');
  });
  afterAll(async () => t.close());

  it('answers the retry with every event a duplicate and the first reading\'s noise and bad items, and records nothing twice', async () => {
    const src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'prod-eu' } });
    const body = eventList([patch('a-1', 'checkout', 1), patch('a-2', 'payments', 2), lease, { stage: 'ResponseComplete' }]);
    const first = await post(src.id, src.secret, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ recorded: 2, duplicate: 0, noise: 1 });
    const bad = (first.json() as { rejected: unknown[] }).rejected;
    expect(bad).toHaveLength(1);

    const again = await post(src.id, src.secret, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ recorded: 0, duplicate: 2, enriched: 0, noise: 1, capped: 0, denied: 0, ignored: 0, receipts: 0, rejected: bad });
    expect(await stored(src.id)).toBe(2);
    expect(await counters(src.id)).toEqual({ recorded: 2, duplicate: 2, noise: 2, rejected: 2 });
    // Nothing new was written, so nothing more is audited.
    const audited = await t.services.db.query<{ n: string }>("SELECT count(*) AS n FROM audit_events WHERE org_id = $1 AND action = 'change_source.received'", [owner.org.id]);
    expect(Number(audited.rows[0]!.n)).toBe(1);
  });

  it('reads a retry again when the first reading stopped at 500 rows, so the rest is recorded', async () => {
    const src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'prod-eu' } });
    const body = eventList(Array.from({ length: 503 }, (_, i) => patch(`b-${i}`, `app-${i}`, i)));
    const first = await post(src.id, src.secret, body);
    expect(first.json()).toMatchObject({ recorded: 500, capped: 3 });
    const again = await post(src.id, src.secret, body);
    expect(again.json()).toMatchObject({ recorded: 3, duplicate: 500, capped: 0 });
    expect(await stored(src.id)).toBe(503);
  });

  it('reads a changed body as a new delivery (a re-seen event with a diff enriches its row)', async () => {
    const src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'prod-eu' } });
    const bare = { ...patch('c-1', 'checkout', 1), requestObject: undefined };
    expect((await post(src.id, src.secret, eventList([bare]))).json()).toMatchObject({ recorded: 1 });
    expect((await post(src.id, src.secret, eventList([patch('c-1', 'checkout', 1)]))).json()).toMatchObject({ recorded: 0, enriched: 1 });
  });
});
