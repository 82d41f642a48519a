import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../../test/support/engines.js';
import { addChangeSource } from '../../../../test/support/observed-intake.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../../test/support/test-app.js';
import { SettableClock } from '../../../platform/clock.js';
import type { AuditContext } from '../../ledger/index.js';
import { DEFAULT_CI_NAMESPACES, NOT_STORED, type AdapterContext } from '../observed-types.js';
import { kubernetesIntake } from './kubernetes.js';

/**
 * The audit webhook's batches through the real intake on both engines: what the adapter hands over
 * is what the intake caps, dedupes, resolves and folds.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const T0 = new Date('2026-03-02T10:00:00.000Z');
const auditCtx: AuditContext = { actor: { kind: 'service', id: null, name: 'kube-apiserver' }, source: 'webhook' };
const FLUX = 'system:serviceaccount:flux-system:kustomize-controller';
const ESTATE = `
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }
  - { key: "svc:payments", kind: service, name: payments, tier: standard }
links: []
`;

const at = (seconds: number) => new Date(Date.parse('2026-03-02T09:00:00Z') + seconds * 1000).toISOString();
function write(id: string, over: { username?: string; verb?: string; resource?: string; namespace?: string; name?: string; group?: string; code?: number; t?: number; requestObject?: unknown; responseObject?: unknown }) {
  const { username = 'alice@example.com', verb = 'patch', resource = 'deployments', namespace = 'shop', name = 'x', group = 'apps', code = 200, t = 0 } = over;
  return {
    level: 'RequestResponse', auditID: id, stage: 'ResponseComplete', verb, user: { username },
    requestURI: `/apis/${group}/v1/namespaces/${namespace}/${resource}/${name}`,
    objectRef: { resource, namespace, name, apiGroup: group, apiVersion: 'v1' }, responseStatus: { code },
    requestObject: over.requestObject, responseObject: over.responseObject, requestReceivedTimestamp: at(t), stageTimestamp: at(t),
  };
}
const labelled = (labels: Record<string, string>, annotations: Record<string, string> = {}) => ({ metadata: { labels, annotations } });

describeEachEngine('kubernetes audit batches through the intake', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const rows = async (sourceId: string) => (await t.services.db.query<Json>('SELECT * FROM observed_changes WHERE source_id = $1 ORDER BY occurred_at, event_id', [sourceId])).rows;

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
    owner = await signedInOwner(t, 'K8s intake');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('caps a CI account at 50 objects an hour (retries and reordered batches agree on which), records its denied attempt, folds the annotated write into its change, resolves services and never stores a Secret\'s values', async () => {
    const reg = await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: 'roll checkout', components: [{ key: 'svc:checkout' }], startNow: true } });
    expect(reg.statusCode, reg.body).toBe(201);
    const change = (reg.json() as { change: { id: string; displayId: string } }).change;
    const src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'prod-eu' } });
    const ctx: AdapterContext = { sourceId: src.id, config: { cluster: 'prod-eu' }, ciNamespaces: [...DEFAULT_CI_NAMESPACES], now: T0 };

    const items = [
      ...Array.from({ length: 55 }, (_, i) => write(`flux-${String(i).padStart(2, '0')}`, { username: FLUX, verb: 'create', resource: 'configmaps', group: '', name: `cfg-${i}`, t: i })),
      write('flux-denied', { username: FLUX, verb: 'create', resource: 'pods', group: '', namespace: 'kube-system', name: 'miner', code: 403, t: 100 }),
      write('node-lease', { username: 'system:node:w1', verb: 'update', resource: 'leases', group: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'w1', t: 5 }),
      write('alice-checkout', { responseObject: labelled({ 'app.kubernetes.io/name': 'checkout' }, { 'changeledger.io/change-id': change.displayId }), name: 'checkout', t: 200 }),
      write('bob-payments', { username: 'bob@example.com', responseObject: labelled({ app: 'payments' }), name: 'payments-api', t: 300 }),
      write('bob-secret', { username: 'bob@example.com', verb: 'create', resource: 'secrets', group: '', name: 'db', t: 400, requestObject: { kind: 'Secret', metadata: { name: 'db' }, data: { 'settings.json': 'eyJrZXkiOiJ2In0=', password: 'aHVudGVyMg==' } } }),
    ];
    const deliver = (list: unknown[]) => t.services.intake.record(auditCtx, src.id, kubernetesIntake.parse({ headers: {}, rawBody: Buffer.alloc(0), body: { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', items: list } }, ctx), 'webhook');

    const first = await deliver(items);
    expect(first).toMatchObject({ capReached: true, counts: { recorded: 52, denied: 1, capped: 5, noise: 1, receipts: 1, rejected: 0 } });
    const stored = await rows(src.id);
    const fluxRows = stored.filter((r) => r.principal.name === FLUX && !r.denied);
    expect(fluxRows).toHaveLength(50);
    expect(fluxRows.map((r) => r.event_id).at(-1)).toBe('flux-49');
    expect(fluxRows[0]).toMatchObject({ cap_bucket: `prod-eu · ${FLUX} · 2026-03-02T09`, title: 'create configmaps/cfg-0 in shop', location: { cluster: 'prod-eu', namespace: 'shop' } });

    const denied = stored.find((r) => r.event_id === 'flux-denied')!;
    expect(denied).toMatchObject({ denied: true, error_code: '403 Forbidden', title: 'create pods/miner in kube-system', cap_bucket: null });
    expect(stored.find((r) => r.event_id === 'bob-payments')).toMatchObject({ service: 'svc:payments', service_via: 'event' });
    const secret = stored.find((r) => r.event_id === 'bob-secret')!;
    // Which keys changed is kept, never a value (the intake's scrubber then words a password's mask its own way).
    expect(JSON.parse(secret.diff).data).toMatchObject({ 'settings.json': NOT_STORED, password: expect.any(String) });
    for (const value of ['aHVudGVyMg==', 'eyJrZXkiOiJ2In0=']) expect(JSON.stringify(secret)).not.toContain(value);
    // The annotated write is the planned change's receipt, not a row.
    expect(stored.some((r) => r.event_id === 'alice-checkout')).toBe(false);
    const receipts = (await t.services.db.query<Json>('SELECT event_id, source FROM change_receipts WHERE change_id = $1', [change.id])).rows;
    expect(receipts).toEqual([{ event_id: 'alice-checkout', source: 'kubernetes' }]);

    // The apiserver retries a batch it could not confirm, and an overlapping one may come in another order: nothing new, the same 50.
    const again = await deliver([...items].reverse());
    expect(again.counts).toMatchObject({ recorded: 0, denied: 0, receipts: 0, capped: 5 });
    expect((await rows(src.id)).map((r) => r.event_id)).toEqual(stored.map((r) => r.event_id));
  });

  it('takes the apiserver\'s post on the pipeline listener: the kubeconfig\'s bearer token, 400 naming the field, 401 storing nothing', async () => {
    const src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'prod-eu' } });
    const post = (payload: unknown, token: string | null) => t.pipeline.inject({ method: 'POST', url: `/v1/changes/kubernetes/${src.id}`, payload: JSON.stringify(payload),
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    const batch = { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', items: [
      write('route-1', { name: 'checkout', responseObject: labelled({ 'app.kubernetes.io/name': 'checkout' }) }),
      write('route-2', { username: 'system:node:w1', verb: 'patch', resource: 'nodes', group: '', name: 'w1', t: 1 }),
      { ...write('route-3', { t: 2 }), verb: 'get' },
    ] };
    for (const token of ['wrong', null]) expect((await post(batch, token)).statusCode).toBe(401);
    expect(await rows(src.id)).toEqual([]);
    const bad = await post({ kind: 'Policy', apiVersion: 'audit.k8s.io/v1', rules: [] }, src.secret);
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'kind' });
    const ok = await post(batch, src.secret);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ recorded: 1, noise: 1, ignored: 1, rejected: [] });
    expect((await rows(src.id)).map((r) => [r.event_id, r.title, r.service])).toEqual([['route-1', 'patch deployments/checkout in shop', 'svc:checkout']]);
  });
});
