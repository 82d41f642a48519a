import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAlertmanager, type Alertmanager } from '../support/alertmanager.js';
import { startAlertStack, startTap, type AlertStack } from '../support/alert-stack.js';
import { describeEachEngine } from '../support/engines.js';
import { missingPeers, pollUntil, PEER_TEST_TIMEOUT_MS } from '../support/peer-process.js';

// Debian's Alertmanager routes to changeledger's webhook on the pipeline listener, with a token of
// alerts:write in http_config.authorization. The alerts are posted to Alertmanager's API as
// Prometheus would (the Prometheus test sends through a real rule); the webhook goes through a tap
// that passes it on and keeps intake's answer, so a test knows a repeat was answered.

const skip = missingPeers('alert-alertmanager', ['alertmanager']).length > 0;

const ESTATE = `
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: critical }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('Alertmanager routes to changeledger\'s webhook', (engine) => {
  let stack: AlertStack;
  let am: Alertmanager;
  let tap: Awaited<ReturnType<typeof startTap>>;

  beforeAll(async () => {
    if (skip) return;
    stack = await startAlertStack(engine.db(), { estate: ESTATE });
    tap = await startTap(stack.pipelineUrl);
    am = await startAlertmanager({ receivers: [{ name: 'changeledger', url: `${tap.url}/api/alerts/alertmanager`, bearer: stack.token }] });
  }, PEER_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await am?.stop();
    await tap?.close();
    await stack?.close();
  }, PEER_TEST_TIMEOUT_MS);

  const hooks = (state: string, service: string) => tap.tapped.filter((h) => h.path === '/api/alerts/alertmanager' && (h.json.alerts as Json[] | undefined)?.some((a) => a.status === state && a.labels.service === service));

  it.skipIf(skip)('records the alert with the fingerprint Alertmanager computed, firing then resolved, and a repeat adds no transition', async () => {
    // A short repeat_interval on purpose: this test waits for Alertmanager's own repeat.
    await am.configure({ receivers: [{ name: 'changeledger', url: `${tap.url}/api/alerts/alertmanager`, bearer: stack.token }], repeatInterval: '2s' });
    const labels = { alertname: 'CheckoutErrors', service: 'checkout', severity: 'page' };
    await am.postAlerts([{ labels, annotations: { summary: 'checkout answers 5xx' }, generatorURL: 'http://prometheus.example.test/graph?g0.expr=up' }]);
    const inAm = await am.waitForAlerts('the alert in Alertmanager', (list) => list.find((a) => a.labels.alertname === 'CheckoutErrors'));

    // Alertmanager sent it twice (the first notification, then its repeat), each answered 200.
    const [first, repeat] = await pollUntil('the first notification and its repeat', async () => {
      const h = hooks('firing', 'checkout');
      return h.length >= 2 ? h : undefined;
    }, { details: am.logs });
    expect(first!.headers.authorization).toBe(`Bearer ${stack.token}`);
    expect([first!.status, repeat!.status]).toEqual([200, 200]);
    expect(first!.answer).toMatchObject({ received: 1, transitions: 1, repeats: 0 });
    expect(repeat!.answer).toMatchObject({ received: 1, transitions: 0, repeats: 1 });
    expect((first!.json.alerts as Json[])[0]!.fingerprint).toBe(inAm.fingerprint);

    const one = await stack.session('GET', `/api/alerts/${inAm.fingerprint}`);
    expect(one.status, one.body).toBe(200);
    expect(one.json.alert).toMatchObject({
      fingerprint: inAm.fingerprint, alertname: 'CheckoutErrors', state: 'firing', labels,
      subject: { kind: 'service', key: 'svc:checkout', name: 'checkout' }, heldBy: null,
      generatorURL: 'http://prometheus.example.test/graph?g0.expr=up',
    });
    expect((one.json.transitions as Json[]).map((x) => [x.state, x.via])).toEqual([['firing', 'webhook']]);

    // Resolved as Prometheus resolves it: the same labels with endsAt now (Alertmanager keeps the
    // first startsAt); its resolved notification closes the pair.
    await am.postAlerts([{ labels, endsAt: new Date().toISOString() }]);
    await stack.waitForAlerts('checkout resolved in changeledger', '?state=resolved', (list) => list.find((a) => a.fingerprint === inAm.fingerprint));
    const after = await stack.session('GET', `/api/alerts/${inAm.fingerprint}`);
    expect((after.json.transitions as Json[]).map((x) => [x.state, x.via])).toEqual([['firing', 'webhook'], ['resolved', 'webhook']]);
    const firingAt = (after.json.transitions as Json[])[0]!.at as string;
    expect(new Date(firingAt).getTime()).toBe(new Date(inAm.startsAt).getTime());
    // The tap notes an answer once it has relayed it, which can be after changeledger shows the
    // resolution: wait for the resolved notification's own entry before adding the answers up.
    await pollUntil('the resolved notification tapped with its answer', async () => (hooks('resolved', 'checkout').length >= 1 ? true : undefined), { details: am.logs });
    // Every notification Alertmanager sent was taken, and the ones after the first added nothing.
    expect(tap.tapped.every((h) => h.status === 200)).toBe(true);
    expect(tap.tapped.reduce((n, h) => n + Number(h.answer.transitions ?? 0), 0)).toBe(2);
  }, PEER_TEST_TIMEOUT_MS);
});
