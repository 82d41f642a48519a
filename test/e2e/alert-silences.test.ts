import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAlertmanager, type Alertmanager, type GettableSilence } from '../support/alertmanager.js';
import { startAlertStack, type AlertStack } from '../support/alert-stack.js';
import { describeEachEngine } from '../support/engines.js';
import { missingPeers, pollUntil, PEER_TEST_TIMEOUT_MS } from '../support/peer-process.js';

// Silence mode against Debian's Alertmanager: the silences changeledger keeps for a running change
// are read back from Alertmanager's own API — their matchers, createdBy and comment — extended
// with the window under the same id, and expired at the release (test-only shortened delay).

const skip = missingPeers('alert-silences', ['alertmanager']).length > 0;

const ESTATE = `
entities:
  - { key: "svc:payments", kind: service, name: payments, tier: critical }
  - { key: "svc:checkout", kind: service, name: checkout, tier: critical }
  - { key: "svc:search", kind: service, name: search, tier: standard }
links:
  - { from: "svc:checkout", to: "svc:payments", via: calls }
`;
/** Test only: the release follows the finish after this, not the product's five minutes. */
const RELEASE_DELAY_MS = 6_000;
const HOUR = 3_600_000;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('silence mode keeps its silences on Alertmanager', (engine) => {
  let stack: AlertStack;
  let am: Alertmanager;

  beforeAll(async () => {
    if (skip) return;
    stack = await startAlertStack(engine.db(), { estate: ESTATE, holdReleaseDelayMs: RELEASE_DELAY_MS });
    am = await startAlertmanager({ receivers: [] });
    const mode = await stack.session('PUT', '/api/alert-settings', { holdMode: 'silence' });
    expect(mode.status, mode.body).toBe(200);
    const added = await stack.session('POST', '/api/alertmanagers', { name: 'primary', url: am.url, auth: { kind: 'none' } });
    expect(added.status, added.body).toBe(201);
  }, PEER_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await am?.stop();
    await stack?.close();
  }, PEER_TEST_TIMEOUT_MS);

  const ours = (list: GettableSilence[]) => list.filter((s) => s.createdBy === 'changeledger');

  it.skipIf(skip)('creates the silences with the scope\'s matchers, createdBy changeledger and the CHG id; extends them keeping their ids; expires them at release', async () => {
    const reg = await stack.pipe('POST', '/api/changes', { title: 'Upgrade payments', components: [{ query: 'payments' }], startNow: true, windowEnd: new Date(Date.now() + HOUR).toISOString() });
    expect(reg.status, reg.body).toBe(201);
    const change = reg.json.change as Json;
    expect(change.status).toBe('active');

    // Every service silence names payments and checkout (its caller), never search.
    const set = await am.waitForSilences('changeledger\'s silences', (list) => {
      const mine = ours(list).filter((s) => s.status.state === 'active');
      return mine.length > 0 && mine.some((s) => s.matchers.some((m) => m.name === 'service')) ? mine : undefined;
    });
    for (const s of set) {
      expect(s.comment).toBe(`${change.displayId} Upgrade payments https://changes.example.test/?view=changes&change=${change.id}`);
      expect(new Date(s.endsAt).getTime()).toBe(new Date(change.windowEnd as string).getTime() + RELEASE_DELAY_MS);
    }
    const service = set.find((s) => s.matchers.some((m) => m.name === 'service'))!;
    expect(service.matchers).toEqual([{ name: 'service', value: 'checkout|payments', isRegex: true, isEqual: true }]);
    expect(set.map((s) => s.matchers.map((m) => m.name).join(',')).sort()).toEqual(expect.arrayContaining(['app', 'app_kubernetes_io_name', 'job', 'service']));
    for (const s of set) expect(s.matchers.every((m) => !/search/.test(m.value))).toBe(true);

    // What the change page and /status say: the hold is active, each silence by its Alertmanager id.
    const active = await pollUntil('the suppression to list every silence as active', async () => {
      const r = await stack.session('GET', `/api/changes/${change.id}`);
      const sup = r.json.suppression as Json | undefined;
      return sup && sup.silences.length === set.length && (sup.silences as Json[]).every((x) => x.state === 'active') ? sup : undefined;
    });
    expect(active).toMatchObject({ state: 'active', mode: 'silence', problem: null });
    expect((active.silences as Json[]).map((x) => x.id).sort()).toEqual(set.map((s) => s.id).sort());
    expect((active.silences as Json[]).every((x) => x.alertmanager === 'primary')).toBe(true);

    // Extended with the window: the same ids, the new end.
    const windowEnd = new Date(new Date(change.windowEnd as string).getTime() + 2 * HOUR).toISOString();
    const ext = await stack.pipe('POST', `/api/changes/${change.id}/extend`, { windowEnd });
    expect(ext.status, ext.body).toBe(200);
    const wanted = new Date(windowEnd).getTime() + RELEASE_DELAY_MS;
    const extended = await am.waitForSilences('the silences extended', (list) => {
      const mine = ours(list).filter((s) => s.status.state === 'active');
      return mine.length === set.length && mine.every((s) => new Date(s.endsAt).getTime() === wanted) ? mine : undefined;
    });
    expect(extended.map((s) => s.id).sort()).toEqual(set.map((s) => s.id).sort());
    expect(ours(await am.silences())).toHaveLength(set.length);

    // Completed: after the (test-only) delay the hold is released and every silence expired.
    const done = await stack.pipe('POST', `/api/changes/${change.id}/complete`, { outcome: 'success' });
    expect(done.status, done.body).toBe(200);
    const released = await pollUntil('the hold to be released', async () => {
      const sup = (await stack.session('GET', `/api/changes/${change.id}`)).json.suppression as Json | undefined;
      return sup?.state === 'released' ? sup : undefined;
    }, { details: () => stack.t.logs.slice(-20).join('') });
    expect(released).toMatchObject({ mode: 'silence', held: 0, resent: 0, recovered: 0 });
    expect((released.silences as Json[]).every((x) => x.state === 'expired')).toBe(true);
    const expired = await am.waitForSilences('the silences expired', (list) => {
      const mine = ours(list);
      return mine.length === set.length && mine.every((s) => s.status.state === 'expired') ? mine : undefined;
    });
    expect(expired.map((s) => s.id).sort()).toEqual(set.map((s) => s.id).sort());
  }, PEER_TEST_TIMEOUT_MS);
});
