import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../../test/support/engines.js';
import { auditEventList, auditWrite, type AuditWrite } from '../../../../test/support/k8s-audit.js';
import { addChangeSource } from '../../../../test/support/observed-intake.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../../test/support/test-app.js';
import { SettableClock } from '../../../platform/clock.js';
import { NO_REFERENCE } from './reference-rule.js';

/**
 * The reference rule at the intake, on both engines: audit batches posted to the real pipeline
 * route are classed, judged in the reference order and audited; denied attempts are never judged.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'kubernetes-audit');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`unauthorized intake: SKIPPING the real Kubernetes audit payload tests: ${SHARED} is absent`);

const T0 = new Date('2026-12-03T10:00:00.000Z');
const ESTATE = `
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }
  - { key: "svc:payments", kind: service, name: payments, tier: standard }
  - { key: "svc:search", kind: service, name: search, tier: standard }
  - { key: "svc:billing", kind: service, name: billing, tier: standard }
links: []
`;
const minutes = (m: number) => new Date(T0.getTime() + m * 60_000).toISOString();

const write = (id: string, o: Omit<AuditWrite, 'at'> & { minute: number }) => auditWrite(id, { ...o, at: minutes(o.minute) });
const eventList = auditEventList;

describeEachEngine('the reference rule at the intake', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const post = (sourceId: string, secret: string, body: unknown) => t.pipeline.inject({
    method: 'POST', url: `/v1/changes/kubernetes/${sourceId}`, payload: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
  });
  const rows = async (sourceId: string) => (await t.services.db.query<Json>('SELECT * FROM observed_changes WHERE source_id = $1', [sourceId])).rows;
  const byEvent = async (sourceId: string) => new Map((await rows(sourceId)).map((r) => [r.event_id as string, r]));
  const audits = async (action: string) => (await t.services.db.query<Json>('SELECT * FROM audit_events WHERE org_id = $1 AND action = $2 ORDER BY seq', [owner.org.id, action])).rows;

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
    owner = await signedInOwner(t, 'Unmanaged intake');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    // No approval needed: a change registered with startNow runs at once.
    const cs = await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { approvalRequired: 'none' } });
    expect(cs.statusCode, cs.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('classes every write but judges none while the rule is off', async () => {
    const src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'prod-eu' } });
    const r = await post(src.id, src.secret, eventList([
      write('off-human', { username: 'alice@example.com', app: 'search', minute: 1 }),
      write('off-ci', { username: 'system:serviceaccount:jenkins:deployer', app: 'search', minute: 2 }),
    ]));
    expect(r.statusCode, r.body).toBe(200);
    const m = await byEvent(src.id);
    expect(m.get('off-human')).toMatchObject({ principal_class: 'human', authorized: null, reference: null });
    expect(m.get('off-human')!.principal_class_reason).toBe('a person: the Kubernetes user alice@example.com');
    expect(m.get('off-ci')).toMatchObject({ principal_class: 'pipeline', authorized: null });
    expect(await audits('change.unauthorized_detected')).toHaveLength(0);
  });

  it('with the rule on, vouches by change window, ticket or authorized principal, flags the rest and audits it, and never judges a denied attempt', async () => {
    const reg = await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: 'roll checkout', components: [{ key: 'svc:checkout' }], startNow: true } });
    expect(reg.statusCode, reg.body).toBe(201);
    const change = (reg.json() as { change: { id: string; displayId: string; status: string } }).change;
    expect(change.status).toBe('active');

    const put = await t.main.inject({ method: 'PUT', url: '/api/unmanaged-settings', headers: owner.headers, payload: { referenceRule: true, authorizedPrincipals: ['system:serviceaccount:jenkins:*'] } });
    expect(put.statusCode, put.body).toBe(200);
    const minted = await t.main.inject({ method: 'POST', url: `/api/organizations/${owner.org.id}/itsm-webhook-token`, headers: owner.headers });
    expect(minted.statusCode, minted.body).toBe(201);
    const token = (minted.json() as { token: string }).token;
    const ticket = { number: 'CHG0030001', short_description: 'rotate payments keys', state: '-1', approval: 'approved', start_date: '2026-12-03 09:00:00', end_date: '2026-12-03 12:00:00', cmdb_ci: 'payments' };
    const sent = await t.pipeline.inject({ method: 'POST', url: '/api/itsm/servicenow', headers: { authorization: `Bearer ${token}` }, payload: ticket });
    expect(sent.statusCode, sent.body).toBe(201);
    // The same ticket for search, but without the token: kept, never a reference.
    const unsigned = await t.pipeline.inject({ method: 'POST', url: `/api/itsm/servicenow?org=${owner.org.slug}`, payload: { ...ticket, number: 'CHG0030002', cmdb_ci: 'search' } });
    expect(unsigned.statusCode, unsigned.body).toBe(201);
    expect(unsigned.json()).toMatchObject({ counts: false });

    const src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'prod-eu' } });
    const r = await post(src.id, src.secret, eventList([
      write('in-window', { username: 'alice@example.com', app: 'checkout', minute: 5 }),
      write('ticketed', { username: 'bob@example.com', app: 'payments', minute: 6 }),
      write('ci', { username: 'system:serviceaccount:jenkins:deployer', app: 'search', minute: 7 }),
      write('nobody', { username: 'mallory@example.com', app: 'search', minute: 8 }),
      write('refused', { username: 'mallory@example.com', app: 'payments', minute: 9, code: 403 }),
      write('folded', { username: 'carol@example.com', app: 'checkout', minute: 10, annotations: { 'changeledger.io/change-id': change.displayId } }),
    ]));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ recorded: 4, denied: 1, receipts: 1 });

    const m = await byEvent(src.id);
    expect(m.get('in-window')).toMatchObject({ authorized: true, reference: 'change_window' });
    expect(m.get('in-window')!.authorized_reason).toMatch(new RegExp(`^${change.displayId} covers svc:checkout in its blast radius and 2026-12-03 10:05 UTC in its window$`));
    expect(m.get('ticketed')).toMatchObject({ authorized: true, reference: 'itsm_ticket' });
    expect(m.get('ticketed')!.authorized_reason).toContain('CHG0030001');
    expect(m.get('ci')).toMatchObject({ authorized: true, reference: 'authorized_principal', principal_class: 'pipeline' });
    // The ticket for search arrived without the token: the record says it would have matched.
    const wouldMatch = `${NO_REFERENCE}; ticket CHG0030002 would match, but it arrived without the ITSM webhook token, so it is no reference`;
    expect(m.get('nobody')).toMatchObject({ authorized: false, reference: null, authorized_reason: wouldMatch, principal_class: 'human' });
    expect(m.get('refused')).toMatchObject({ denied: true, authorized: null, revert: null });
    expect(m.has('folded')).toBe(false);

    const flagged = await audits('change.unauthorized_detected');
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({ target_type: 'observed_change', target_id: m.get('nobody')!.id });
    expect(flagged[0]!.data).toMatchObject({ principal: 'mallory@example.com', principalClass: 'human', reason: wouldMatch, account: 'prod-eu' });
    const denied = await audits('change.denied_attempt');
    expect(denied.map((a) => a.target_id)).toContain(m.get('refused')!.id);

    // The one list's Unauthorized filter finds exactly the flagged write.
    const list = await t.main.inject({ method: 'GET', url: '/api/changes?unauthorized=true', headers: owner.headers });
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { changes: Json[] }).changes.map((c) => c.id)).toEqual([m.get('nobody')!.id]);
    const one = await t.main.inject({ method: 'GET', url: `/api/observed-changes/${m.get('nobody')!.id}`, headers: owner.headers });
    expect(one.statusCode, one.body).toBe(200);
    expect(JSON.stringify(one.json())).toContain(NO_REFERENCE);

    // The dry run judges the same writes with other settings, and writes nothing.
    const before = (await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events')).rows[0]!.n;
    const dry = await t.main.inject({ method: 'POST', url: '/api/unmanaged-settings/dry-run', headers: owner.headers, payload: { authorizedPrincipals: ['mallory@*', 'system:serviceaccount:jenkins:*'] } });
    expect(dry.statusCode, dry.body).toBe(200);
    const d = dry.json() as Json;
    expect(d.flagged).toBeLessThan(d.judged);
    expect(d.examples.map((e: Json) => e.id)).not.toContain(m.get('nobody')!.id);
    const strict = (await t.main.inject({ method: 'POST', url: '/api/unmanaged-settings/dry-run', headers: owner.headers, payload: { authorizedPrincipals: [] } })).json() as Json;
    expect(strict.examples.map((e: Json) => e.id)).toContain(m.get('nobody')!.id);
    expect(strict.examples.map((e: Json) => e.id)).toContain(m.get('ci')!.id);
    expect((await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events')).rows[0]!.n).toBe(before);
    const bad = await t.main.inject({ method: 'POST', url: '/api/unmanaged-settings/dry-run', headers: owner.headers, payload: { authorizedPrincipals: ['[abc'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'authorizedPrincipals.0' });
  });

  it('takes a carried change id only from a change that vouches: another id leaves the write a flagged row that says so', async () => {
    const put = await t.main.inject({ method: 'PUT', url: '/api/unmanaged-settings', headers: owner.headers, payload: { referenceRule: true } });
    expect(put.statusCode, put.body).toBe(200);
    const src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'prod-eu' } });
    const r = await post(src.id, src.secret, eventList([
      write('stray-id', { username: 'carol@example.com', app: 'search', minute: 12, annotations: { 'changeledger.io/change-id': 'CHG-0BADF00D' } }),
    ]));
    expect(r.statusCode, r.body).toBe(200);
    const row = (await byEvent(src.id)).get('stray-id')!;
    expect(row.authorized).toBe(false);
    expect(row.authorized_reason).toBe(`${NO_REFERENCE}; it carries CHG-0BADF00D, which is no approved planned change; ticket CHG0030002 would match, but it arrived without the ITSM webhook token, so it is no reference`);
  });

  it('a planned window vouches only between its bounds, for the services in scope, whichever release stored its scope', async () => {
    const reg = await t.main.inject({
      method: 'POST', url: '/api/changes', headers: owner.headers,
      payload: { title: 'reindex search', components: [{ key: 'svc:search' }], hops: 1, windowStart: minutes(30), windowEnd: minutes(40) },
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const planned = (reg.json() as { change: { id: string; displayId: string; status: string } }).change;
    // No approval asked for by the organisation: scheduled is cleared to run, and vouches as approved would.
    expect(planned.status).toBe('scheduled');
    // As a server of the release before the kept scope keys would leave it: the keys are read from the stored blast.
    await t.services.db.query('UPDATE changes SET scope_keys = NULL, scope_keys_version = NULL WHERE id = $1', [planned.id]);
    // The writes are sent after the window has closed (the change was never started: it stays scheduled).
    t.clock.set(new Date(minutes(45)));
    const src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'prod-eu' } });
    // One delivery each: the intake folds a batch's repeated writes of one object into the last.
    for (const [id, app, minute] of [['before-window', 'search', 29], ['in-window-stale', 'search', 35], ['other-service', 'billing', 36], ['after-window', 'search', 41]] as const) {
      const r = await post(src.id, src.secret, eventList([write(id, { username: 'erin@example.com', app, minute })]));
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json(), id).toMatchObject({ recorded: 1 });
    }
    const m = await byEvent(src.id);
    expect(m.get('in-window-stale')).toMatchObject({ authorized: true, reference: 'change_window' });
    expect(m.get('in-window-stale')!.authorized_reason).toBe(`${planned.displayId} covers svc:search in its blast radius and 2026-12-03 10:35 UTC in its window`);
    for (const id of ['before-window', 'other-service', 'after-window']) expect(m.get(id), id).toMatchObject({ authorized: false });
  });

  describe.skipIf(!hasShared)('real Kubernetes audit events', () => {
    it('every real write is classed; people\'s writes are flagged, refusals are denied attempts and never judged', async () => {
      const src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'minikube' } });
      const files = readdirSync(SHARED).filter((f) => f.endsWith('.json'));
      for (const [i, f] of files.entries()) {
        const raw = JSON.parse(readFileSync(join(SHARED, f), 'utf8')) as Json;
        // Panther's cases are partial events: they lack the envelope the apiserver always writes.
        const event = f.startsWith('panther-') ? { auditID: `panther-${i}`, stage: 'ResponseComplete', requestReceivedTimestamp: '2024-05-06T07:08:09Z', ...raw } : raw;
        const r = await post(src.id, src.secret, event);
        expect(r.statusCode, `${f}: ${r.body}`).toBeLessThan(300);
      }
      const all = await rows(src.id);
      expect(all.length).toBeGreaterThan(5);
      for (const row of all) {
        expect(row.principal_class, row.title).toBe('human');
        expect(row.authorized, row.title).toBe(row.denied ? null : false);
      }
      expect(all.filter((x) => x.principal.name === 'attacker@example.com' && x.denied)).toHaveLength(2);
      expect(all.find((x) => x.principal.name === 'developer@example.com')).toMatchObject({ authorized: false, authorized_reason: NO_REFERENCE });
    });
  });
});
