import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasAlertmanager, startAlertmanager, type Alertmanager } from '../../../test/support/alertmanager.js';
import { describeEachEngine } from '../../../test/support/engines.js';
import { drain, holdsApi, prepareHoldsOrg, relayTo, silenceModeWith } from '../../../test/support/holds.js';
import { freePort } from '../../../test/support/postgres-cluster.js';
import { startReceiver } from '../../../test/support/receiver.js';
import { createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { labelSetFingerprint } from './fingerprint.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const FIVE_MIN = 5 * 60_000;
const SKIP = hasAlertmanager ? '' : ' (SKIPPED: /usr/bin/prometheus-alertmanager is not installed)';

describeEachEngine(`alert holds in silence mode, against Debian's Alertmanager${SKIP}`, (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: string;
  let am: Alertmanager;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const api = holdsApi(() => t, () => owner, () => token);
  const db = () => engine.db();
  const suppression = async (id: string) => ((await api.get(`/api/changes/${id}`)).json() as Json).suppression as Json;
  const later = async (ms: number) => {
    t.clock.advance(ms);
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
  };
  const audit = async (changeId: string, action: string) => (await db().query<{ data: Json }>(
    'SELECT data FROM audit_events WHERE target_type = $1 AND target_id = $2 AND action = $3 ORDER BY seq', ['alert_hold', changeId, action])).rows.map((r) => r.data);
  const register = async (title: string) => {
    const r = await api.post('/api/changes', { title, components: [{ key: 'svc:checkout' }], startNow: true });
    expect(r.statusCode, r.body).toBe(201);
    return (r.json() as Json).change as { id: string; displayId: string; windowEnd: string };
  };

  beforeAll(async () => {
    if (!hasAlertmanager) return;
    am = await startAlertmanager({ receivers: [] });
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Silences');
    token = await prepareHoldsOrg(t, owner, createToken);
    receiver = await startReceiver({ status: 204 });
    await relayTo(t, owner, receiver.url);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await am?.stop();
    await receiver?.close();
  });

  it.skipIf(!hasAlertmanager)('sets one silence per label name, records what it holds, follows the window, and at release expires them and sends the prefixed notice once', async () => {
    await silenceModeWith(t, owner, am.url, 'primary');
    const c = await register('Upgrade checkout');
    expect(await suppression(c.id)).toMatchObject({ state: 'active', mode: 'silence', problem: null });
    expect((await suppression(c.id)).silences.every((s: Json) => s.state === 'pending' && s.alertmanager === 'primary')).toBe(true);
    await drain(t.services.worker);
    const s1 = await suppression(c.id);
    expect(s1.silences.length).toBeGreaterThan(1);
    expect(s1.silences.every((s: Json) => s.state === 'active' && typeof s.id === 'string')).toBe(true);
    const onAm = (await am.silences()).filter((s) => s.createdBy === 'changeledger' && s.comment.startsWith(c.displayId));
    expect(onAm.map((s) => s.id).sort()).toEqual(s1.silences.map((s: Json) => s.id).sort());
    expect(onAm.find((s) => s.matchers[0]!.name === 'service')!.matchers).toEqual([{ name: 'service', value: 'checkout', isRegex: true, isEqual: true }]);
    expect(onAm.find((s) => s.matchers[0]!.name === 'instance')!.matchers).toEqual([{ name: 'instance', value: '(db-1)(:[0-9]+)?', isRegex: true, isEqual: true }]);
    expect(onAm[0]!.comment).toBe(`${c.displayId} Upgrade checkout http://localhost:8080/?view=changes&change=${c.id}`);
    expect(await audit(c.id, 'alerts.silence_set')).toEqual([expect.objectContaining({ alertmanager: 'primary' })]);

    // Alertmanager silences the alert; the poll records it as held by this change.
    const labels = { alertname: 'Down', service: 'checkout', case: 'silenced' };
    await am.postAlerts([{ labels }]);
    await am.waitForAlerts('the alert silenced', (l) => l.find((a) => a.labels.case === 'silenced' && a.status.state === 'suppressed'));
    await later(30_000);
    await drain(t.services.worker);
    expect(await suppression(c.id)).toMatchObject({ state: 'active', held: 1 });
    const held = (await db().query<{ fingerprint: string }>('SELECT fingerprint FROM held_alerts WHERE change_id = $1', [c.id])).rows;
    expect(held).toEqual([{ fingerprint: labelSetFingerprint(labels) }]);

    // The window grows: the same silences, a later end.
    const to = new Date(Date.parse(c.windowEnd) + 20 * 60_000).toISOString();
    expect((await api.post(`/api/changes/${c.id}/extend`, { windowEnd: to })).statusCode).toBe(200);
    await drain(t.services.worker);
    const until = new Date(Date.parse(to) + FIVE_MIN).toISOString();
    expect(await suppression(c.id)).toMatchObject({ until, silences: s1.silences });
    for (const id of s1.silences.map((s: Json) => s.id as string)) {
      const s = (await am.silences()).find((x) => x.id === id)!;
      expect(new Date(s.endsAt).toISOString()).toBe(until);
      expect(s.status.state).toBe('active');
    }

    // Finish; five minutes later Alertmanager is asked, the silences expire, the notice goes out once.
    await api.post(`/api/changes/${c.id}/complete`);
    await drain(t.services.worker);
    await later(FIVE_MIN);
    receiver.received.length = 0;
    await drain(t.services.worker);
    const done = await suppression(c.id);
    expect(done).toMatchObject({ state: 'released', mode: 'silence', held: 1, resent: 1, recovered: 0, problem: null });
    expect(done.silences.every((s: Json) => s.state === 'expired')).toBe(true);
    for (const id of s1.silences.map((s: Json) => s.id as string)) expect((await am.silences()).find((x) => x.id === id)!.status.state).toBe('expired');
    expect(await audit(c.id, 'alerts.hold_released')).toEqual([expect.objectContaining({ mode: 'silence', held: 1, resent: 1, recovered: 0, expired: 1, alertmanagerNotifies: expect.stringContaining('from now on') })]);
    const notices = receiver.received.map((r) => r.raw.toString('utf8')).filter((b) => b.includes('[held during change'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('"case":"silenced"');
  }, 120_000);

  it.skipIf(!hasAlertmanager)('an Alertmanager that cannot be reached, or refuses, is never silent: "hold not in place: <reason>", audited, retried with backoff', async () => {
    const refuses = await startReceiver({ status: 400, body: '"silence invalid: invalid label matcher 0: bad matcher format"' });
    try {
      owner = await signedInOwner(t, 'Unreachable');
      token = await prepareHoldsOrg(t, owner, createToken);
      await silenceModeWith(t, owner, `http://127.0.0.1:${await freePort()}`, 'down');
      const c = await register('Nobody answers');
      await drain(t.services.worker);
      expect(await suppression(c.id)).toMatchObject({ state: 'active', problem: 'hold not in place: down: connection refused' });
      expect((await suppression(c.id)).silences.every((s: Json) => s.state === 'failed' && s.id === null)).toBe(true);
      expect(await audit(c.id, 'alerts.silence_failed')).toEqual([expect.objectContaining({ alertmanager: 'down', attempt: 1, reason: 'connection refused' })]);
      const retry = (await db().query<{ run_at: Date; payload: Json }>(`SELECT run_at, payload FROM jobs WHERE kind = 'alerts.silence' AND status = 'pending' AND payload->>'changeId' = $1`, [c.id])).rows;
      expect(retry.map((r) => r.payload.attempt)).toEqual([2]);
      expect(new Date(retry[0]!.run_at).getTime()).toBeGreaterThan(t.clock.now().getTime());
      expect(((await api.get(`/api/changes/${c.id}/status`)).json() as Json).suppression.problem).toBe('hold not in place: down: connection refused');

      owner = await signedInOwner(t, 'Refuses');
      token = await prepareHoldsOrg(t, owner, createToken);
      await silenceModeWith(t, owner, refuses.url, 'strict');
      const d = await register('Refused');
      await drain(t.services.worker);
      expect((await suppression(d.id)).problem).toBe('hold not in place: strict: Alertmanager answered 400: silence invalid: invalid label matcher 0: bad matcher format');

      // Silence mode with no Alertmanager at all holds nothing on any: said, not silent.
      owner = await signedInOwner(t, 'None configured');
      token = await prepareHoldsOrg(t, owner, createToken);
      await t.services.alertSettings.updateSettings(testCtx, { org: owner.org, role: 'owner' }, { holdMode: 'silence' });
      const e = await register('No Alertmanager');
      expect(await suppression(e.id)).toMatchObject({ state: 'active', mode: 'silence', silences: [], problem: 'hold not in place: no Alertmanager is configured (the Alert sources page)' });
    } finally {
      await refuses.close();
    }
  }, 120_000);
});
