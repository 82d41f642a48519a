import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { addChangeSource, anEvent, parsedOf } from '../../../test/support/observed-intake.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import { CUT_MARK } from '../../platform/scrub.js';
import type { AuditContext } from '../ledger/index.js';
import { relink } from './intake-service.js';
import { LIMITS } from './observed-types.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const T0 = new Date('2026-03-02T10:00:00.000Z');
const ctx: AuditContext = { actor: { kind: 'service', id: null, name: 'test sender' }, source: 'webhook' };
const ESTATE = `
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }
  - { key: "svc:payments", kind: service, name: payments, tier: standard }
links: []
`;

describeEachEngine('the intake: dedupe, enrichment, caps, scrubbing, services, receipts, counters and the audit event', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const rows = async (sourceId: string) => (await t.services.db.query<Json>('SELECT * FROM observed_changes WHERE source_id = $1 ORDER BY occurred_at, event_id', [sourceId])).rows;
  const audits = async (orgId: string, action: string) => (await t.services.db.query<Json>('SELECT * FROM audit_events WHERE org_id = $1 AND action = $2 ORDER BY seq', [orgId, action])).rows;
  const counters = async (id: string) => (await t.services.db.query<Json>('SELECT recorded, duplicate, enriched, noise, capped, denied, ignored, rejected, receipts, last_event_at FROM change_sources WHERE id = $1', [id])).rows[0]!;

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
    owner = await signedInOwner(t, 'Intake');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('records new events once: a retry is a duplicate, a re-seen event with the diff it lacked enriches its row', async () => {
    const src = await addChangeSource(t, owner.org.id, 'webhook');
    const a = anEvent({ eventId: 'a', occurredAt: '2026-03-02T09:00:00Z' });
    const b = anEvent({ eventId: 'b', occurredAt: '2026-03-02T09:05:00Z' });
    const first = await t.services.intake.record(ctx, src.id, parsedOf([b, a], { ignored: 2, noise: 1 }), 'webhook');
    expect(first.counts).toMatchObject({ recorded: 2, duplicate: 0, enriched: 0, ignored: 2, noise: 1 });
    const again = await t.services.intake.record(ctx, src.id, parsedOf([a, b]), 'webhook');
    expect(again.counts).toMatchObject({ recorded: 0, duplicate: 2, enriched: 0 });
    const richer = await t.services.intake.record(ctx, src.id, parsedOf([{ ...a, diff: '- replicas: 2\n+ replicas: 3' }, b]), 'webhook');
    expect(richer.counts).toMatchObject({ recorded: 0, duplicate: 1, enriched: 1 });
    const stored = await rows(src.id);
    expect(stored.map((r) => [r.event_id, r.diff, r.status])).toEqual([['a', '- replicas: 2\n+ replicas: 3', 'recorded'], ['b', null, 'recorded']]);
    expect(stored[0]!.id).toMatch(/^obs_[0-9a-f]{32}$/);
    expect(await counters(src.id)).toMatchObject({ recorded: 2, duplicate: 3, enriched: 1, ignored: 2, noise: 1 });
    // One audit event per call that wrote something: the retry wrote nothing and left none.
    const received = (await audits(owner.org.id, 'change_source.received')).filter((e) => e.target_id === src.id);
    expect(received.map((e) => [e.data.recorded, e.data.enriched, e.data.via])).toEqual([[2, 0, 'webhook'], [0, 1, 'webhook']]);
  });

  it('keeps one of the same event twice in one delivery', async () => {
    const src = await addChangeSource(t, owner.org.id, 'webhook');
    const e = anEvent({ eventId: 'same' });
    const r = await t.services.intake.record(ctx, src.id, parsedOf([e, { ...e, diff: 'x' }]), 'webhook');
    expect(r.counts).toMatchObject({ recorded: 1, duplicate: 1 });
    expect((await rows(src.id)).map((x) => x.diff)).toEqual(['x']);
  });

  it('scrubs diffs and parameters of secrets, then cuts them at 2,048 characters', async () => {
    const src = await addChangeSource(t, owner.org.id, 'webhook');
    const long = `password=hunter2 ${'y'.repeat(5000)}`;
    await t.services.intake.record(ctx, src.id, parsedOf([anEvent({ diff: long, params: { name: '/app/db', value: '[not stored]', token: 'abc123', note: 'x'.repeat(10) } }), anEvent({ params: { blob: 'z'.repeat(3000) } })]), 'webhook');
    const [one, two] = await rows(src.id);
    expect(one!.diff).toHaveLength(LIMITS.diffChars);
    expect(one!.diff.startsWith('password=[redacted] yyy')).toBe(true);
    expect(one!.diff.endsWith(CUT_MARK)).toBe(true);
    expect(one!.params).toEqual({ name: '/app/db', value: '[not stored]', token: '[redacted]', note: 'xxxxxxxxxx' });
    // Parameters too long as JSON are kept as their cut JSON text.
    expect(typeof two!.params).toBe('string');
    expect((two!.params as string).length).toBe(LIMITS.diffChars);
    expect((two!.params as string).endsWith(CUT_MARK)).toBe(true);
  });

  it('records at most 50 objects per cluster · account · hour, counting stored rows first; denied writes are never capped', async () => {
    const src = await addChangeSource(t, owner.org.id, 'kubernetes');
    const bucket = 'prod-eu · system:serviceaccount:jenkins:deployer · 2026-03-02T09';
    const at = (i: number) => new Date(Date.parse('2026-03-02T09:00:00Z') + i * 1000).toISOString();
    const sa = (i: number) => anEvent({ eventId: `sa-${i}`, occurredAt: at(i), capBucket: bucket, principal: { kind: 'service', name: 'system:serviceaccount:jenkins:deployer', id: null, detail: {} } });
    const first = await t.services.intake.record(ctx, src.id, parsedOf(Array.from({ length: 30 }, (_, i) => sa(i))), 'webhook');
    expect(first).toMatchObject({ counts: { recorded: 30, capped: 0 }, capReached: false });
    // An overlapping delivery: 10 already seen, 30 new; only 20 fit; a denied write rides past the cap.
    const denied = { ...sa(100), eventId: 'sa-denied', denied: true, errorCode: '403' };
    const second = await t.services.intake.record(ctx, src.id, parsedOf([...Array.from({ length: 40 }, (_, i) => sa(20 + i)), denied]), 'webhook');
    expect(second).toMatchObject({ counts: { recorded: 20, duplicate: 10, capped: 10, denied: 1 }, capReached: true });
    const stored = await rows(src.id);
    expect(stored.filter((r) => !r.denied)).toHaveLength(50);
    // The 50 are the first 50 in time order; the later ten were left out.
    expect(stored.filter((r) => !r.denied).map((r) => r.event_id).at(-1)).toBe('sa-49');
    expect(stored.find((r) => r.denied)!.event_id).toBe('sa-denied');
    // Another hour is another bucket.
    const next = await t.services.intake.record(ctx, src.id, parsedOf([anEvent({ capBucket: bucket.replace('T09', 'T10'), occurredAt: '2026-03-02T10:00:00Z' })]), 'webhook');
    expect(next.counts).toMatchObject({ recorded: 1, capped: 0 });
  });

  it('records at most 500 rows per call, the rest counted capped', async () => {
    const src = await addChangeSource(t, owner.org.id, 'webhook');
    const r = await t.services.intake.record(ctx, src.id, parsedOf(Array.from({ length: LIMITS.rowsPerTick + 7 }, () => anEvent())), 'pull');
    expect(r).toMatchObject({ counts: { recorded: LIMITS.rowsPerTick, capped: 7 }, capReached: true });
    expect(await rows(src.id)).toHaveLength(LIMITS.rowsPerTick);
  });

  it('resolves services: the event\'s own, the repo map, else unmapped; the resource map adds links; relink re-resolves after a map edit', async () => {
    const src = await addChangeSource(t, owner.org.id, 'github');
    await t.services.intake.record(ctx, src.id, parsedOf([
      anEvent({ eventId: 'hint', serviceHint: 'checkout', resource: 'deployments/checkout', kind: 'deploy' }),
      anEvent({ eventId: 'repo', repo: 'acme/pay-api', kind: 'push', resource: null, location: {} }),
    ]), 'webhook');
    const before = Object.fromEntries((await rows(src.id)).map((r) => [r.event_id, [r.service, r.service_via, r.services, r.location.repo ?? null]]));
    expect(before).toEqual({ hint: ['svc:checkout', 'event', ['svc:checkout'], null], repo: ['', 'unmapped', [], 'acme/pay-api'] });
    await t.services.db.query(
      `INSERT INTO observed_settings (org_id, service_map, resource_map, updated_at) VALUES ($1, $2::jsonb, $3::jsonb, now())
       ON CONFLICT (org_id) DO UPDATE SET service_map = $2::jsonb, resource_map = $3::jsonb`,
      [owner.org.id, JSON.stringify({ 'acme/pay-*': 'payments' }), JSON.stringify({ 'deployments/checkout': ['payments'] })]);
    const changed = await t.services.db.transaction((tx) => relink(tx, owner.org.id, new Date(T0.getTime() - LIMITS.relinkHours * 3_600_000)));
    expect(changed).toBe(2);
    const after = Object.fromEntries((await rows(src.id)).map((r) => [r.event_id, [r.service, r.service_via, r.services]]));
    expect(after).toEqual({ hint: ['svc:checkout', 'event', ['svc:checkout', 'svc:payments']], repo: ['svc:payments', 'repo_map', ['svc:payments']] });
    // Nothing to change the second time.
    expect(await t.services.db.transaction((tx) => relink(tx, owner.org.id, new Date(0)))).toBe(0);
    await t.services.db.query('DELETE FROM observed_settings WHERE org_id = $1', [owner.org.id]);
  });

  it('folds a harvested write carrying a planned change\'s id into that change\'s receipt, audited; a webhook sender keeps its reference on its row', async () => {
    const reg = await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: 'scale checkout', components: [{ key: 'svc:checkout' }], startNow: true } });
    expect(reg.statusCode, reg.body).toBe(201);
    const change = (reg.json() as { change: { id: string; displayId: string } }).change;
    const k8s = await addChangeSource(t, owner.org.id, 'kubernetes');
    const hook = await addChangeSource(t, owner.org.id, 'webhook');
    const carried = anEvent({ eventId: 'carried', changeRef: change.displayId.toLowerCase().replace('chg-', 'CHG-') });
    const r = await t.services.intake.record(ctx, k8s.id, parsedOf([carried, anEvent({ eventId: 'stray', changeRef: 'CHG-00000000' })]), 'webhook');
    expect(r.counts).toMatchObject({ recorded: 1, receipts: 1 });
    const receipts = (await t.services.db.query<Json>('SELECT * FROM change_receipts WHERE change_id = $1', [change.id])).rows;
    expect(receipts.map((x) => [x.event_id, x.source])).toEqual([['carried', 'kubernetes']]);
    expect((await rows(k8s.id)).map((x) => [x.event_id, x.change_ref])).toEqual([['stray', 'CHG-00000000']]);
    const confirmed = await audits(owner.org.id, 'change.confirmed_by_audit_log');
    expect(confirmed.map((e) => [e.target_type, e.target_id, e.data.eventId])).toEqual([['change', change.id, 'carried']]);
    // The same write again is a duplicate of the receipt, never a row.
    expect((await t.services.intake.record(ctx, k8s.id, parsedOf([carried]), 'webhook')).counts).toMatchObject({ duplicate: 1, recorded: 0, receipts: 0 });
    // A generic webhook cannot stamp a receipt: its write is a row that keeps the reference.
    const w = await t.services.intake.record(ctx, hook.id, parsedOf([anEvent({ eventId: 'from-hook', changeRef: change.displayId })]), 'webhook');
    expect(w.counts).toMatchObject({ recorded: 1, receipts: 0 });
    expect((await rows(hook.id)).map((x) => x.change_ref)).toEqual([change.displayId]);
    expect(await counters(k8s.id)).toMatchObject({ recorded: 1, receipts: 1, duplicate: 1 });
  });

  it('refuses an unknown connection with a 404 and writes nothing', async () => {
    const n = Number((await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM observed_changes')).rows[0]!.n);
    await expect(t.services.intake.record(ctx, 'src_nope', parsedOf([anEvent()]), 'webhook')).rejects.toMatchObject({ status: 404 });
    expect(Number((await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM observed_changes')).rows[0]!.n)).toBe(n);
  });

  it('writes nothing and audits nothing for a call with nothing new; the last event time moves forward only', async () => {
    const src = await addChangeSource(t, owner.org.id, 'webhook');
    await t.services.intake.record(ctx, src.id, parsedOf([anEvent({ eventId: 'late', occurredAt: '2026-03-02T09:30:00Z' })]), 'webhook');
    await t.services.intake.record(ctx, src.id, parsedOf([anEvent({ eventId: 'early', occurredAt: '2026-03-02T08:00:00Z' })]), 'webhook');
    expect(new Date((await counters(src.id)).last_event_at).toISOString()).toBe('2026-03-02T09:30:00.000Z');
    const n = (await audits(owner.org.id, 'change_source.received')).length;
    const r = await t.services.intake.record(ctx, src.id, parsedOf([], { ignored: 1 }), 'webhook');
    expect(r.counts).toMatchObject({ recorded: 0, ignored: 1 });
    expect((await audits(owner.org.id, 'change_source.received')).length).toBe(n);
    expect(await counters(src.id)).toMatchObject({ recorded: 2, ignored: 1 });
  });
});
