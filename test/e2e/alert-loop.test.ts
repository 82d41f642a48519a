import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertmanager, type Alertmanager, type AlertmanagerSettings } from '../support/alertmanager.js';
import { startAlertStack, startTap, type AlertStack } from '../support/alert-stack.js';
import { describeEachEngine } from '../support/engines.js';
import { startFlipExporter, type FlipExporter } from '../support/flip-exporter.js';
import { missingPeers, pollUntil, PEER_TEST_TIMEOUT_MS } from '../support/peer-process.js';
import { downRule, startPrometheus, type Prometheus } from '../support/prometheus.js';
import { startReceiver } from '../support/receiver.js';

// The whole loop, once per hold mode, with Debian's Prometheus and Alertmanager on loopback:
// a change to payments (checkout calls it, so both are in its blast radius; search is not) is
// running → Prometheus' rule over the flip exporter fires for all three → payments and checkout
// are held, search is not → checkout recovers → the change completes → after the (test-only
// shortened) release, payments, still firing, is re-sent once with the prefix to the relay
// destination, checkout is not; the change's suppression counts held, resent and recovered.
//
// relay:   Alertmanager routes everything to changeledger, which relays what it does not hold.
// silence: Alertmanager keeps routing to the team's pager (and to changeledger, which records);
//          changeledger's silences hold payments and checkout there, and expire at the release.

const skip = missingPeers('alert-loop', ['prometheus', 'alertmanager']).length > 0;

const ESTATE = `
entities:
  - { key: "svc:payments", kind: service, name: payments, tier: critical }
  - { key: "svc:checkout", kind: service, name: checkout, tier: critical }
  - { key: "svc:search", kind: service, name: search, tier: standard }
links:
  - { from: "svc:checkout", to: "svc:payments", via: calls }
`;
const TITLE = 'Upgrade payments';
const PREFIX = `[held during change "${TITLE}"]`;
/** Test only: the release follows the finish after this, not the product's five minutes. */
const RELEASE_DELAY_MS = 6_000;
const SERVICES = ['payments', 'checkout', 'search'] as const;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The alerts of every webhook a receiver got, each with the webhook's own fields beside it. */
const alertsOf = (r: Receiver): Json[] => r.received.flatMap((x) => ((x.json.alerts ?? []) as Json[]).map((a): Json => ({ ...a, hook: x.json })));
const about = (r: Receiver, service: string) => alertsOf(r).filter((a) => a.labels?.service === service);

describeEachEngine('the whole loop: held during the change, re-sent once after it', (engine) => {
  for (const mode of ['relay', 'silence'] as const) describe(`${mode} mode`, () => {
    let stack: AlertStack;
    let exporter: FlipExporter;
    let am: Alertmanager;
    let prom: Prometheus;
    let tap: Awaited<ReturnType<typeof startTap>>;
    /** The organisation's relay destination (a signed webhook in Alertmanager's shape). */
    let destination: Receiver;
    /** silence mode: the team's own receiver, routed to by Alertmanager. */
    let pager: Receiver;

    beforeAll(async () => {
      if (skip) return;
      stack = await startAlertStack(engine.db(), { estate: ESTATE, holdReleaseDelayMs: RELEASE_DELAY_MS, name: `Loop ${mode}` });
      destination = await startReceiver({ status: 200 });
      pager = await startReceiver({ status: 200 });
      exporter = await startFlipExporter();
      for (const s of SERVICES) exporter.set('up_check', { service: s }, 1);
      tap = await startTap(stack.pipelineUrl);
      const changeledger = { name: 'changeledger', url: `${tap.url}/api/alerts/alertmanager`, bearer: stack.token };
      const routing: AlertmanagerSettings = mode === 'relay'
        ? { receivers: [changeledger] }
        : { receivers: [{ name: 'pager', url: `${pager.url}/pager` }, changeledger], receiver: 'pager', routes: [{ receiver: 'changeledger', continue: true }, { receiver: 'pager' }] };
      am = await startAlertmanager(routing);
      prom = await startPrometheus({ scrape: [exporter.target], rules: [downRule()], alertmanagers: [{ url: am.url }] });

      expect((await stack.session('PUT', '/api/alert-settings', { holdMode: mode })).status).toBe(200);
      if (mode === 'silence') expect((await stack.session('POST', '/api/alertmanagers', { name: 'primary', url: am.url, auth: { kind: 'none' } })).status).toBe(201);
      const dest = await stack.session('POST', '/api/alert-destinations', { kind: 'webhook', name: 'on-call relay', url: `${destination.url}/relay` });
      expect(dest.status, dest.body).toBe(201);
    }, PEER_TEST_TIMEOUT_MS);
    afterAll(async () => {
      await prom?.stop();
      await am?.stop();
      await tap?.close();
      await exporter?.close();
      await destination?.close();
      await pager?.close();
      await stack?.close();
    }, PEER_TEST_TIMEOUT_MS);

    it.skipIf(skip)(`${mode} mode: both alerts of the blast radius are held, the outside one is not; after the release the still-firing one is re-sent once with the prefix, the recovered one is not`, async () => {
      const details = () => `${am.logs().slice(-2000)}\n${stack.t.logs.slice(-15).join('')}`;
      const reg = await stack.pipe('POST', '/api/changes', { title: TITLE, components: [{ query: 'payments' }], startNow: true, windowEnd: new Date(Date.now() + 3_600_000).toISOString() });
      expect(reg.status, reg.body).toBe(201);
      const change = reg.json.change as Json;
      expect(change.status).toBe('active');
      const shown = await stack.session('GET', `/api/changes/${change.id}?include=blast`);
      expect(shown.json.blast.scope.serviceKeys).toEqual(expect.arrayContaining(['svc:payments', 'svc:checkout']));
      expect(shown.json.blast.scope.serviceKeys).not.toContain('svc:search');
      expect(shown.json.suppression).toMatchObject({ state: 'active', mode });

      let silenceIds: string[] = [];
      if (mode === 'silence') {
        // The hold is in place at Alertmanager before anything fires.
        silenceIds = await am.waitForSilences('changeledger\'s silences', (list) => {
          const mine = list.filter((s) => s.createdBy === 'changeledger' && s.status.state === 'active');
          return mine.some((s) => s.matchers.some((m) => m.name === 'service')) ? mine.map((s) => s.id) : undefined;
        });
      }

      for (const s of SERVICES) exporter.set('up_check', { service: s }, 0);
      const held = await stack.waitForAlerts('payments and checkout held by the change', '?held=true', (list) => {
        const mine = list.filter((a) => a.heldBy?.changeId === change.id);
        return mine.length === 2 ? mine : undefined;
      });
      expect(held.map((a) => a.subject.name).sort()).toEqual(['checkout', 'payments']);
      const search = await stack.waitForAlerts('search recorded, not held', '?state=firing', (list) => list.find((a) => a.labels.service === 'search'));
      expect(search.heldBy).toBeNull();
      const fp = Object.fromEntries(held.map((a) => [a.labels.service as string, a.fingerprint as string]));

      if (mode === 'relay') {
        // The outside alert reaches the relay destination at once, as it is.
        const relayed = await pollUntil('search at the relay destination', async () => about(destination, 'search').find((a) => a.status === 'firing'), { details });
        expect(relayed.annotations.summary.startsWith('[held')).toBe(false);
      } else {
        // Alertmanager holds payments and checkout under our silences and pages search.
        for (const s of ['payments', 'checkout']) {
          const a = await am.waitForAlerts(`${s} silenced in Alertmanager`, (list) => list.find((x) => x.labels.service === s && x.status.state === 'suppressed'));
          expect(a.status.silencedBy.every((id) => silenceIds.includes(id))).toBe(true);
        }
        await pollUntil('search at the pager', async () => about(pager, 'search').find((a) => a.status === 'firing'), { details });
      }

      // checkout recovers during the change.
      exporter.set('up_check', { service: 'checkout' }, 1);
      if (mode === 'relay') await stack.waitForAlerts('checkout resolved in changeledger', '?state=resolved', (list) => list.find((a) => a.fingerprint === fp.checkout));
      else await am.waitForAlerts('checkout resolved in Alertmanager', (list) => (list.some((a) => a.labels.service === 'checkout') ? undefined : true));
      // Held: nothing of payments or checkout was notified anywhere.
      for (const r of [destination, pager]) {
        expect(about(r, 'payments')).toEqual([]);
        expect(about(r, 'checkout')).toEqual([]);
      }

      const done = await stack.pipe('POST', `/api/changes/${change.id}/complete`, { outcome: 'success' });
      expect(done.status, done.body).toBe(200);
      expect(done.json.change.status).not.toBe('active');
      const released = await pollUntil('the hold to be released', async () => {
        const sup = (await stack.session('GET', `/api/changes/${change.id}`)).json.suppression as Json | undefined;
        return sup?.state === 'released' ? sup : undefined;
      }, { details });
      expect(released).toMatchObject({ mode, held: 2, resent: 1, recovered: 1, problem: null });

      // The still-firing one is re-sent with the prefix, naming the change.
      const resent = await pollUntil('payments re-sent to the relay destination', async () => about(destination, 'payments').find((a) => a.status === 'firing'), { details });
      expect(resent.annotations.summary).toBe(`${PREFIX} the check of payments fails`);
      expect(resent.fingerprint).toBe(fp.payments);
      expect(resent.hook.heldDuring).toMatchObject({ prefix: PREFIX, change: { id: change.id, displayId: change.displayId, title: TITLE } });

      if (mode === 'silence') {
        // Expired at Alertmanager, which now notifies the team of what still fires (and changeledger records it).
        await am.waitForSilences('the silences expired', (list) => (silenceIds.every((id) => list.find((s) => s.id === id)?.status.state === 'expired') ? true : undefined));
        expect((released.silences as Json[]).every((x) => x.state === 'expired')).toBe(true);
        await pollUntil('payments at the pager after the silence', async () => about(pager, 'payments').find((a) => a.status === 'firing'), { details });
        await pollUntil('Alertmanager\'s notice of payments taken by changeledger', async () =>
          tap.tapped.find((h) => h.status === 200 && ((h.json.alerts ?? []) as Json[]).some((a) => a.labels.service === 'payments')), { details });
      }

      // Once: every relay send the release queued has run, and payments went to the destination one time.
      await pollUntil('the relay sends to be done', async () => {
        const r = await stack.t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE org_id = $1 AND kind = 'alert.relay' AND status IN ('pending', 'running')`, [stack.owner.org.id]);
        return r.rows[0]!.n === 0 ? true : undefined;
      }, { details });
      expect(about(destination, 'payments').filter((a) => a.annotations.summary.startsWith(PREFIX))).toHaveLength(1);
      expect(about(destination, 'checkout')).toEqual([]);
      expect(about(pager, 'checkout')).toEqual([]);
      // payments is still one firing episode, however many ways it was heard of.
      const history = await stack.session('GET', `/api/alerts/${fp.payments}`);
      expect(history.status, history.body).toBe(200);
      expect((history.json.transitions as Json[]).map((x) => x.state)).toEqual(['firing']);

      // The change's evidence says what became of each.
      const evidence = await stack.session('GET', `/api/changes/${change.id}/alerts`);
      expect(evidence.status, evidence.body).toBe(200);
      const outcome = Object.fromEntries((evidence.json.alerts as Json[]).map((a) => [a.labels.service as string, a.outcome]));
      expect(outcome).toEqual({ payments: 'resent', checkout: 'recovered', search: null });
    }, PEER_TEST_TIMEOUT_MS);
  });
});
