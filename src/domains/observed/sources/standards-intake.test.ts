import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CloudEvent, HTTP } from 'cloudevents';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { docsNotificationsConfig, renderArgoBody } from '../../../../test/support/argocd-notifications.js';
import { describeEachEngine } from '../../../../test/support/engines.js';
import { addChangeSource } from '../../../../test/support/observed-intake.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../../test/support/test-app.js';
import { SettableClock } from '../../../platform/clock.js';

/**
 * Argo CD, PagerDuty, CloudEvents and the generic webhook through the pipeline listener and the
 * real intake, on both engines: what the sender is answered, what is stored (rows, receipts,
 * audit), and nothing on a 4xx.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const T0 = new Date('2026-12-01T12:00:00.000Z');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

describeEachEngine('the standard change intakes (Argo CD, PagerDuty, CloudEvents, generic webhook)', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const rows = async (sourceId: string) => (await t.services.db.query<Json>('SELECT event_id, kind, title, service, outcome, change_ref FROM observed_changes WHERE source_id = $1 ORDER BY event_id', [sourceId])).rows;
  const post = (url: string, payload: string, headers: Record<string, string>) => t.pipeline.inject({ method: 'POST', url, payload, headers });
  const json = (url: string, body: unknown, headers: Record<string, string> = {}) => post(url, JSON.stringify(body), { 'content-type': 'application/json', ...headers });

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
    owner = await signedInOwner(t, 'Standards intake');
    const estate = 'entities:\n  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }\nlinks: []\n';
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: estate });
    expect(imp.statusCode, imp.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('Argo CD: the docs\' template, rendered for an app annotated with a planned change\'s id, makes that change\'s receipt; a degraded health is a row', async () => {
    const reg = await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: 'ship checkout', components: [{ key: 'svc:checkout' }], startNow: true } });
    expect(reg.statusCode, reg.body).toBe(201);
    const change = (reg.json() as { change: { id: string; displayId: string } }).change;
    const app = parseYaml(readFileSync(join(ROOT, 'test', 'fixtures', 'observed', 'argocd-application-checkout.yaml'), 'utf8')) as Json;
    app.metadata.annotations['changeledger.io/change-id'] = change.displayId;
    const cfg = docsNotificationsConfig(join(ROOT, 'docs', 'observed.md'));
    const src = await addChangeSource(t, owner.org.id, 'argocd');
    const url = `/v1/changes/argocd/${src.id}`;
    const body = (template: string) => renderArgoBody(cfg.bodies[template]!, { app, context: cfg.context });

    expect((await post(url, body('changeledger-sync-succeeded'), { 'content-type': 'application/json', authorization: 'Bearer wrong' })).statusCode).toBe(401);
    const sync = await post(url, body('changeledger-sync-succeeded'), { 'content-type': 'application/json', authorization: `Bearer ${src.secret}` });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json()).toMatchObject({ recorded: 0, receipts: 1 });
    const receipts = (await t.services.db.query<Json>('SELECT source, kind FROM change_receipts WHERE change_id = $1', [change.id])).rows;
    expect(receipts).toEqual([{ source: 'argocd', kind: 'sync' }]);

    const health = await post(url, body('changeledger-health-degraded'), { 'content-type': 'application/json', authorization: `Bearer ${src.secret}` });
    expect(health.json()).toMatchObject({ recorded: 1 });
    expect(await rows(src.id)).toEqual([expect.objectContaining({ kind: 'health', outcome: 'degraded', service: 'svc:checkout', change_ref: null })]);
  });

  it('PagerDuty: answered as PagerDuty answers, recorded once, a bad summary or key stores nothing', async () => {
    const src = await addChangeSource(t, owner.org.id, 'pagerduty');
    const event = { routing_key: src.secret, payload: { summary: 'Build 7 deployed', timestamp: '2026-12-01T11:58:00Z', source: 'jenkins', custom_details: { service: 'checkout' } }, links: [{ href: 'https://ci.example.com/7', text: 'Build 7' }] };
    const ok = await json('/v2/change/enqueue', event);
    expect(ok.statusCode, ok.body).toBe(202);
    expect(ok.json()).toMatchObject({ status: 'success', message: 'Change event processed', recorded: 1 });
    expect((await json('/v2/change/enqueue', event)).json()).toMatchObject({ status: 'success', recorded: 0, duplicate: 1 });
    expect(await rows(src.id)).toEqual([expect.objectContaining({ kind: 'change', title: 'Build 7 deployed', service: 'svc:checkout' })]);

    const bad = await json('/v2/change/enqueue', { ...event, payload: { ...event.payload, summary: '' } });
    expect([bad.statusCode, bad.json().field]).toEqual([400, 'payload.summary']);
    const stranger = await json('/v2/change/enqueue', { ...event, routing_key: 'not-a-key', payload: { ...event.payload, summary: 'other' } });
    expect(stranger.statusCode).toBe(401);
    expect(await rows(src.id)).toHaveLength(1);
  });

  it('CloudEvents: binary and structured from the SDK are one row; another type is 202 ignored; a missing id is a 400 naming it', async () => {
    const src = await addChangeSource(t, owner.org.id, 'cloudevents');
    const url = `/v1/changes/cloudevents/${src.id}`;
    const auth = { authorization: `Bearer ${src.secret}` };
    const ev = new CloudEvent({
      id: 'ce-1', source: '/ci/deployer', type: 'dev.cdevents.service.deployed.0.2.0', time: '2026-12-01T11:50:00Z',
      data: { context: { version: '0.4.1', id: 'ce-1', source: '/ci/deployer', type: 'dev.cdevents.service.deployed.0.2.0', timestamp: '2026-12-01T11:50:00Z' }, subject: { id: 'service/checkout', content: { environment: { id: 'production' }, artifactId: 'pkg:oci/checkout@sha256%3Aabc' } } },
    });
    const bin = HTTP.binary(ev);
    const a = await post(url, bin.body as string, { ...(bin.headers as Record<string, string>), ...auth });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json()).toMatchObject({ recorded: 1 });
    const st = HTTP.structured(ev);
    expect((await post(url, st.body as string, { ...(st.headers as Record<string, string>), ...auth })).json()).toMatchObject({ recorded: 0, duplicate: 1 });
    expect(await rows(src.id)).toEqual([expect.objectContaining({ event_id: '/ci/deployer#ce-1', kind: 'deploy', service: 'svc:checkout', outcome: 'succeeded' })]);

    const other = HTTP.structured(ev.cloneWith({ id: 'ce-2', type: 'dev.cdevents.pipelinerun.finished.0.2.0' }));
    const ignored = await post(url, other.body as string, { ...(other.headers as Record<string, string>), ...auth });
    expect([ignored.statusCode, ignored.json()]).toEqual([202, { ignored: 1 }]);
    const noId = await post(url, JSON.stringify({ ...ev.toJSON(), id: undefined }), { 'content-type': 'application/cloudevents+json', ...auth });
    expect([noId.statusCode, noId.json().field]).toEqual([400, 'id']);
    expect(await rows(src.id)).toHaveLength(1);
  });

  it('generic webhook: a batch records the good changes and reports the bad one; no sender can make a receipt', async () => {
    const src = await addChangeSource(t, owner.org.id, 'webhook');
    const url = `/v1/changes/webhook/${src.id}`;
    const batch = { changes: [{ id: 'c-1', title: 'Raise pool to 40', kind: 'config', service: 'checkout', changeRef: 'CHG-00000000' }, { id: 'c-2' }] };
    const r = await json(url, batch, { authorization: `Bearer ${src.secret}` });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ recorded: 1, receipts: 0, rejected: [{ index: 1, field: 'changes.1.title', message: 'Change 2 › Title is required' }] });
    expect(await rows(src.id)).toEqual([{ event_id: `${src.id}/c-1`, kind: 'change', title: 'Raise pool to 40', service: 'svc:checkout', outcome: null, change_ref: null }]);
    const bad = await json(url, { id: 'c-3', title: 'x', occurredAt: 'soon' }, { authorization: `Bearer ${src.secret}` });
    expect([bad.statusCode, bad.json().field]).toEqual([400, 'occurredAt']);
    expect(await rows(src.id)).toHaveLength(1);
  });
});
