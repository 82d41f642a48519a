import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { drain, holdsApi, prepareHoldsOrg, relayTo } from '../../../test/support/holds.js';
import { startReceiver } from '../../../test/support/receiver.js';
import { createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { JobWorker } from '../../platform/jobs/job-worker.js';
import { readChangeScope } from '../changes/index.js';
import { labelSetFingerprint } from './fingerprint.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const FIVE_MIN = 5 * 60_000;
const PREFIX = (title: string) => `[held during change \\"${title}\\"]`;

describeEachEngine('alert holds in relay mode: start, extend, release, and the suppression summary', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const api = holdsApi(() => t, () => owner, () => token);
  const db = () => engine.db();
  const audit = async (changeId: string, action: string) => (await db().query<{ data: Json }>(
    'SELECT data FROM audit_events WHERE target_type = $1 AND target_id = $2 AND action = $3 ORDER BY seq', [action.startsWith('alerts.') ? 'alert_hold' : 'change', changeId, action])).rows.map((r) => r.data);
  const register = async (title: string, extra: Json = {}) => {
    const r = await api.post('/api/changes', { title, components: [{ key: 'svc:checkout' }], startNow: true, ...extra });
    expect(r.statusCode, r.body).toBe(201);
    return (r.json() as Json).change as { id: string; displayId: string; windowEnd: string; status: string };
  };
  const suppression = async (id: string) => ((await api.get(`/api/changes/${id}`)).json() as Json).suppression as Json;
  const status = async (id: string) => ((await api.get(`/api/changes/${id}/status`)).json() as Json).suppression as Json;
  /** A day of timers later sessions are over: sign in again after moving the clock. */
  const later = async (ms: number) => {
    t.clock.advance(ms);
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
  };
  const now = () => t.clock.now().toISOString();
  /** Ends every hold a test left releasing, so the next test's alerts are held by its own change alone. */
  const releaseAll = async () => {
    await later(FIVE_MIN);
    await drain(t.services.worker);
  };
  /** The release notices the destination got (relay mode also forwards the alerts nobody holds). */
  const notices = () => receiver.received.map((r) => r.raw.toString('utf8')).filter((b) => b.includes('[held during change'));

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Holds');
    token = await prepareHoldsOrg(t, owner, createToken);
    receiver = await startReceiver({ status: 204 });
    await relayTo(t, owner, receiver.url);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('a change that never ran has suppression none, on GET /api/changes/{id} and on /status', async () => {
    const r = await api.post('/api/changes', { title: 'Later', components: [{ key: 'svc:checkout' }], windowStart: new Date(Date.now() + 86_400_000).toISOString() });
    expect(r.statusCode, r.body).toBe(201);
    const id = (r.json() as Json).change.id as string;
    const none = { state: 'none', mode: null, since: null, until: null, held: 0, resent: 0, recovered: 0, silences: [], problem: null };
    expect(await suppression(id)).toEqual(none);
    expect(await status(id)).toEqual(none);
  });

  it('a started change holds its scope: subjects written, audited with counts, the summary active until window end + 5 min', async () => {
    const c = await register('Upgrade checkout');
    const scope = (await readChangeScope(db(), c.id))!;
    const subjects = (await db().query<{ subject_kind: string; subject_key: string }>('SELECT subject_kind, subject_key FROM hold_subjects WHERE change_id = $1 ORDER BY 1, 2', [c.id])).rows;
    expect(subjects).toEqual([
      ...scope.assets.map((a) => ({ subject_kind: 'asset', subject_key: a.key })),
      ...scope.services.map((s) => ({ subject_kind: 'service', subject_key: s.key })),
      ...scope.sourceIds.map((s) => ({ subject_kind: 'source', subject_key: s })),
    ].sort((a, b) => `${a.subject_kind}${a.subject_key}`.localeCompare(`${b.subject_kind}${b.subject_key}`)));
    expect(subjects).toContainEqual({ subject_kind: 'service', subject_key: 'svc:checkout' });
    expect(subjects).toContainEqual({ subject_kind: 'asset', subject_key: 'host:db-1' });
    const until = new Date(new Date(c.windowEnd).getTime() + FIVE_MIN).toISOString();
    expect(await suppression(c.id)).toEqual({ state: 'active', mode: 'relay', since: expect.any(String), until, held: 0, resent: 0, recovered: 0, silences: [], problem: null });
    expect(await status(c.id)).toEqual(await suppression(c.id));
    expect(await audit(c.id, 'alerts.hold_started')).toEqual([expect.objectContaining({
      mode: 'relay', until, releaseHeld: true, subjects: { services: scope.services.length, assets: scope.assets.length, sources: scope.sourceIds.length },
    })]);
    await api.post(`/api/changes/${c.id}/complete`);
    await releaseAll();
  });

  it('at release, 5 min after the finish, the still-firing held alert is re-sent once with the prefix, the recovered one is not; audited with counts', async () => {
    const c = await register('Resize db-1');
    const stillDown = { alertname: 'Down', service: 'checkout', case: 'still' };
    const recovers = { alertname: 'SlowDisk', instance: 'db-1:9100', case: 'recovers' };
    const elsewhere = { alertname: 'Down', service: 'search' };
    const r1 = await api.webhook([{ status: 'firing', labels: stillDown, startsAt: now() }, { status: 'firing', labels: recovers, startsAt: now() }, { status: 'firing', labels: elsewhere, startsAt: now() }]);
    expect(r1.json()).toMatchObject({ received: 3, held: 2 });
    await api.webhook([{ status: 'resolved', labels: recovers, startsAt: now(), endsAt: now() }]);
    expect(await suppression(c.id)).toMatchObject({ state: 'active', held: 2 });

    const done = await api.post(`/api/changes/${c.id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    const finished = (done.json() as Json).change.finishedAt as string;
    const releaseAt = new Date(new Date(finished).getTime() + FIVE_MIN).toISOString();
    expect(await suppression(c.id)).toMatchObject({ state: 'releasing', until: releaseAt, held: 2 });
    // Still held while releasing: an alert of the scope that fires now is held too.
    await drain(t.services.worker);
    expect(await suppression(c.id)).toMatchObject({ state: 'releasing' });

    await later(FIVE_MIN);
    receiver.received.length = 0;
    await drain(t.services.worker);
    expect(await suppression(c.id)).toEqual({ state: 'released', mode: 'relay', since: expect.any(String), until: releaseAt, held: 2, resent: 1, recovered: 1, silences: [], problem: null });
    expect(await audit(c.id, 'alerts.hold_released')).toEqual([expect.objectContaining({ mode: 'relay', held: 2, resent: 1, recovered: 1, kept: 0, releaseHeld: true })]);
    const outcomes = (await db().query<{ fingerprint: string; outcome: string; outcome_reason: string }>('SELECT fingerprint, outcome, outcome_reason FROM held_alerts WHERE change_id = $1 ORDER BY outcome', [c.id])).rows;
    expect(outcomes).toEqual([
      { fingerprint: labelSetFingerprint(recovers), outcome: 'recovered', outcome_reason: expect.stringMatching(/^resolved/) },
      { fingerprint: labelSetFingerprint(stillDown), outcome: 'resent', outcome_reason: 'still firing at release: re-sent once' },
    ]);
    expect(Number((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM hold_subjects WHERE change_id = $1', [c.id])).rows[0]!.n)).toBe(0);
    // Exactly one notice reached the destination, with the prefix and only the still-failing alert.
    expect(notices()).toHaveLength(1);
    const body = notices()[0]!;
    expect(body).toContain(PREFIX('Resize db-1'));
    expect(body).toContain('"case":"still"');
    expect(body).not.toContain('"case":"recovers"');
    expect(body).not.toContain('"service":"search"');

    // A later run of the same timers re-sends nothing.
    await later(60_000);
    await drain(t.services.worker);
    expect(notices()).toHaveLength(1);
    expect(await audit(c.id, 'alerts.hold_released')).toHaveLength(1);
  });

  it('releaseHeld: false re-sends nothing: the still-firing alert is kept, recorded', async () => {
    const c = await register('Quiet change', { releaseHeld: false });
    await api.webhook([{ status: 'firing', labels: { alertname: 'Down', service: 'checkout', case: 'quiet' }, startsAt: now() }]);
    await api.post(`/api/changes/${c.id}/complete`);
    await later(FIVE_MIN);
    receiver.received.length = 0;
    await drain(t.services.worker);
    expect(await suppression(c.id)).toMatchObject({ state: 'released', held: 1, resent: 0, recovered: 0 });
    expect(notices()).toHaveLength(0);
    expect((await db().query<{ outcome: string }>('SELECT outcome FROM held_alerts WHERE change_id = $1', [c.id])).rows).toEqual([{ outcome: 'kept' }]);
    expect(await audit(c.id, 'alerts.hold_released')).toEqual([expect.objectContaining({ held: 1, resent: 0, kept: 1, releaseHeld: false })]);
  });

  it('every callback carries the same summary: started active, completed releasing', async () => {
    const cb = await startReceiver({ status: 204 });
    try {
      await api.put(`/api/organizations/${owner.org.id}/change-settings`, { allowPrivateCallbacks: false });
      const c = await register('Called back', { callbackUrl: `${cb.url}/hook` });
      await drain(t.services.worker);
      await api.post(`/api/changes/${c.id}/complete`);
      await drain(t.services.worker);
      const byEvent = Object.fromEntries(cb.received.map((r) => [r.json.event, r.json.change.suppression]));
      expect(byEvent['change.started']).toMatchObject({ state: 'active', mode: 'relay' });
      expect(byEvent['change.completed']).toMatchObject({ state: 'releasing', mode: 'relay' });
      await releaseAll();
    } finally {
      await cb.close();
    }
  });

  describe('POST /api/changes/{id}/extend', () => {
    it('pushes the window out, audited; the hold’s end follows; the old window_end timer does nothing, the new one ends the change', async () => {
      const c = await register('Long migration');
      const to = new Date(new Date(c.windowEnd).getTime() + 30 * 60_000).toISOString();
      const r = await api.post(`/api/changes/${c.id}/extend`, { windowEnd: to });
      expect(r.statusCode, r.body).toBe(200);
      expect((r.json() as Json).change.windowEnd).toBe(to);
      expect(await audit(c.id, 'change.window_extended')).toEqual([{ windowEnd: { from: c.windowEnd, to } }]);
      expect(await suppression(c.id)).toMatchObject({ state: 'active', until: new Date(new Date(to).getTime() + FIVE_MIN).toISOString() });

      t.clock.set(new Date(new Date(c.windowEnd).getTime() + 1000));
      owner = await signIn(t, owner.org, owner.user, PASSWORD);
      await drain(t.services.worker);
      expect(((await api.get(`/api/changes/${c.id}`)).json() as Json).change.status).toBe('active');
      t.clock.set(new Date(new Date(to).getTime() + 1000));
      owner = await signIn(t, owner.org, owner.user, PASSWORD);
      await drain(t.services.worker);
      expect(((await api.get(`/api/changes/${c.id}`)).json() as Json).change.status).toBe('evaluating');
      expect(await suppression(c.id)).toMatchObject({ state: 'releasing' });
      await releaseAll();
    });

    it('refuses an end that is not later (400 naming windowEnd), a change that is not running (409), another member (403) — writing nothing', async () => {
      const c = await register('Refusals');
      const count = async () => Number((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events WHERE org_id = $1', [owner.org.id])).rows[0]!.n);
      const before = await count();
      for (const windowEnd of [c.windowEnd, new Date(new Date(c.windowEnd).getTime() - 60_000).toISOString(), 'tomorrow', new Date(Date.parse(c.windowEnd) + 8 * 86_400_000).toISOString()]) {
        const r = await api.post(`/api/changes/${c.id}/extend`, { windowEnd });
        expect(r.statusCode, windowEnd).toBe(400);
        expect((r.json() as Json).field).toBe('windowEnd');
      }
      const missing = await api.post(`/api/changes/${c.id}/extend`, {});
      expect(missing.statusCode).toBe(400);
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `m.${Math.random().toString(36).slice(2, 8)}@x.test`, role: 'member', displayName: 'm', password: PASSWORD });
      const member = await signIn(t, owner.org, user, PASSWORD);
      const other = await t.main.inject({ method: 'POST', url: `/api/changes/${c.id}/extend`, headers: member.headers, payload: { windowEnd: new Date(Date.parse(c.windowEnd) + 60_000).toISOString() } });
      expect(other.statusCode).toBe(403);
      await api.post(`/api/changes/${c.id}/complete`);
      const after = await count();
      const done = await api.post(`/api/changes/${c.id}/extend`, { windowEnd: new Date(Date.parse(c.windowEnd) + 60_000).toISOString() });
      expect(done.statusCode).toBe(409);
      expect((done.json() as Json).error).toMatch(/only a running change's window can be extended; this change is evaluating/);
      // Only the completion wrote anything (plus the membership above).
      expect(await count()).toBe(after);
      expect(after).toBeGreaterThan(before);
      expect(await audit(c.id, 'change.window_extended')).toEqual([]);
      await releaseAll();
    });
  });

  it('the release is a jobs row: scheduled, the worker dropped, a new app on the same database releases it', async () => {
    const c = await register('Survives a restart');
    await api.webhook([{ status: 'firing', labels: { alertname: 'Down', service: 'checkout', case: 'restart' }, startsAt: now() }]);
    await api.post(`/api/changes/${c.id}/complete`);
    const clock = t.clock;
    const dataKey = t.dataKey;
    await t.close();
    t = await testApp(engine.db(), { clock, dataKey });
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
    await db().query('DELETE FROM alert_destinations WHERE org_id = $1', [owner.org.id]);
    await relayTo(t, owner, receiver.url);
    await later(FIVE_MIN);
    receiver.received.length = 0;
    await drain(t.services.worker);
    expect(await suppression(c.id)).toMatchObject({ state: 'released', held: 1, resent: 1 });
    expect(notices()).toHaveLength(1);
    expect(notices()[0]).toContain(PREFIX('Survives a restart'));
  });

  if (engine.name === 'postgres') {
    it('two server processes on one PostgreSQL release once: two workers at once, even with a second release job for the change', async () => {
      const c = await register('Two workers');
      await api.webhook([{ status: 'firing', labels: { alertname: 'Down', service: 'checkout', case: 'two' }, startsAt: now() }]);
      await api.post(`/api/changes/${c.id}/complete`);
      // A stray copy of the release job (another dedupe key): only the row lock and the state check stand between it and a second release.
      await db().query(`INSERT INTO jobs (id, org_id, kind, dedupe_key, payload, run_at, status, max_attempts, created_at, updated_at)
        SELECT 'job_copy_' || id, org_id, kind, dedupe_key || ':copy', payload, run_at, 'pending', max_attempts, created_at, updated_at FROM jobs WHERE dedupe_key = $1`, [`alerts.hold_release:${c.id}`]);
      await later(FIVE_MIN);
      const { openDatabase } = await import('../../platform/db/database.js');
      const second = await openDatabase({ engine: 'postgres', url: engine.url() });
      try {
        const handlers = t.services.holds.jobHandlers();
        const a = new JobWorker({ db: db(), clock: t.clock, handlers, batchSize: 1 });
        const b = new JobWorker({ db: second, clock: t.clock, handlers, batchSize: 1 });
        await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
      } finally {
        await second.close();
      }
      expect(await audit(c.id, 'alerts.hold_released')).toHaveLength(1);
      expect(await suppression(c.id)).toMatchObject({ state: 'released', held: 1, resent: 1 });
      const notices = (await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'alert.relay' AND org_id = $1 AND payload->>'event' = 'alerts.held_release' AND payload::text LIKE $2`, [owner.org.id, '%Two workers%'])).rows[0]!.n;
      expect(notices).toBe(1);
    });
  }
});
