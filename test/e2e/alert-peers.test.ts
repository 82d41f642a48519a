import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertmanager, type Alertmanager } from '../support/alertmanager.js';
import { startFlipExporter, type FlipExporter } from '../support/flip-exporter.js';
import { missingPeers, pollUntil, PEER_TEST_TIMEOUT_MS } from '../support/peer-process.js';
import { downRule, startPrometheus, type Prometheus } from '../support/prometheus.js';
import { startReceiver } from '../support/receiver.js';

// The harness itself, before changeledger is in the loop: Debian's Prometheus evaluates the down
// rule over the flip exporter, and Debian's Alertmanager routes what fires to a loopback receiver.
const skip = missingPeers('alert-peers', ['prometheus', 'alertmanager']).length > 0;

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
type Webhook = { version: string; status: string; receiver: string; groupKey: string; alerts: Array<{ status: string; labels: Record<string, string>; fingerprint: string; startsAt: string; endsAt: string; generatorURL: string }> };

describe.skipIf(skip)('Prometheus and Alertmanager on loopback', () => {
  let exporter: FlipExporter;
  let receiver: Receiver;
  let am: Alertmanager;
  let prom: Prometheus;

  beforeAll(async () => {
    exporter = await startFlipExporter();
    exporter.set('up_check', { service: 'checkout' }, 1);
    exporter.set('up_check', { service: 'search' }, 1);
    receiver = await startReceiver({ status: 200 });
    am = await startAlertmanager({ receivers: [{ name: 'pager', url: `${receiver.url}/hook`, bearer: 'peer-secret' }] });
    prom = await startPrometheus({ scrape: [exporter.target], rules: [downRule()], alertmanagers: [{ url: am.url }] });
  }, PEER_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await prom?.stop();
    await am?.stop();
    await receiver?.close();
    await exporter?.close();
  }, PEER_TEST_TIMEOUT_MS);

  const webhooks = () => receiver.received.map((r) => r.json as Webhook);

  it('listens on loopback only, without cluster gossip', async () => {
    expect(am.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(prom.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const status = await (await fetch(`${am.url}/api/v2/status`)).json() as { cluster: { status: string; peers?: unknown[] } };
    expect(status.cluster.status).toBe('disabled');
    const active = await pollUntil('prometheus to discover its alertmanager', async () => {
      const list = (await prom.alertmanagers()).activeAlertmanagers;
      return list.length > 0 ? list : undefined;
    });
    expect(active.map((a) => a.url)).toEqual([`${am.url}/api/v2/alerts`]);
  }, PEER_TEST_TIMEOUT_MS);

  it('a flipped gauge fires the rule; Alertmanager posts webhook v4 with the bearer token; flipping back resolves it', async () => {
    exporter.set('up_check', { service: 'checkout' }, 0);
    const firing = await pollUntil('the firing webhook for checkout', async () =>
      webhooks().find((w) => w.status === 'firing' && w.alerts.some((a) => a.labels.service === 'checkout')), { details: am.logs });
    expect(firing.version).toBe('4');
    expect(firing.receiver).toBe('pager');
    const hook = receiver.received.find((r) => (r.json as Webhook) === firing)!;
    expect(hook.method).toBe('POST');
    expect(hook.path).toBe('/hook');
    expect(hook.headers.authorization).toBe('Bearer peer-secret');
    const alert = firing.alerts.find((a) => a.labels.service === 'checkout')!;
    expect(alert.labels).toMatchObject({ alertname: 'ServiceDown', service: 'checkout', severity: 'page' });
    expect(alert.generatorURL.startsWith(`${prom.url}/graph?`)).toBe(true);
    // search stays up: nothing about it was sent.
    expect(webhooks().some((w) => w.alerts.some((a) => a.labels.service === 'search'))).toBe(false);

    // The same alert as Alertmanager's API shows it: one fingerprint for both views.
    const inAm = await am.waitForAlerts('checkout in Alertmanager', (list) => list.find((a) => a.labels.service === 'checkout'));
    expect(inAm.fingerprint).toBe(alert.fingerprint);
    expect(inAm.status.state).toBe('active');

    exporter.set('up_check', { service: 'checkout' }, 1);
    const resolved = await pollUntil('the resolved webhook for checkout', async () =>
      webhooks().find((w) => w.status === 'resolved' && w.alerts.some((a) => a.labels.service === 'checkout')), { details: am.logs });
    expect(resolved.alerts.find((a) => a.labels.service === 'checkout')!.fingerprint).toBe(alert.fingerprint);
  }, PEER_TEST_TIMEOUT_MS);

  it('a silence read back from the API suppresses the alert it matches and not the other', async () => {
    const now = Date.now();
    const id = await am.postSilence({
      matchers: [{ name: 'service', value: 'search', isRegex: false, isEqual: true }],
      startsAt: new Date(now).toISOString(), endsAt: new Date(now + 3_600_000).toISOString(),
      createdBy: 'alert-peers test', comment: 'hold search',
    });
    const silence = await am.waitForSilences('the silence', (list) => list.find((s) => s.id === id));
    expect(silence).toMatchObject({ createdBy: 'alert-peers test', comment: 'hold search', status: { state: 'active' } });
    exporter.set('up_check', { service: 'search' }, 0);
    exporter.set('up_check', { service: 'checkout' }, 0);
    const held = await am.waitForAlerts('search to be suppressed', (list) => list.find((a) => a.labels.service === 'search' && a.status.state === 'suppressed'), { silenced: true });
    expect(held.status.silencedBy).toEqual([id]);
    const loose = await am.waitForAlerts('checkout active again', (list) => list.find((a) => a.labels.service === 'checkout' && a.status.state === 'active'));
    expect(loose.status.silencedBy).toEqual([]);
    // checkout is notified again; search, silenced, never reaches the receiver.
    const firedAgain = () => webhooks().filter((w) => w.status === 'firing' && w.alerts.some((a) => a.labels.service === 'checkout')).length;
    await pollUntil('checkout to be notified a second time', async () => (firedAgain() >= 2 ? true : undefined), { details: am.logs });
    expect(webhooks().some((w) => w.alerts.some((a) => a.labels.service === 'search'))).toBe(false);
  }, PEER_TEST_TIMEOUT_MS);
});
