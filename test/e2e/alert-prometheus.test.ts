import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAlertmanager, type Alertmanager } from '../support/alertmanager.js';
import { startAlertStack, startTap, type AlertStack } from '../support/alert-stack.js';
import { describeEachEngine } from '../support/engines.js';
import { startFlipExporter, type FlipExporter } from '../support/flip-exporter.js';
import { missingPeers, pollUntil, PEER_TEST_TIMEOUT_MS } from '../support/peer-process.js';
import { downRule, startPrometheus, type Prometheus } from '../support/prometheus.js';

// Debian's Prometheus lists changeledger's pipeline listener among its alertmanagers (api_version
// v2, a bearer token of alerts:write) beside a real Alertmanager, and sends to both what its rule
// over the flip exporter fires: changeledger records the alert Alertmanager holds, by the same
// fingerprint, without Alertmanager in between.

const skip = missingPeers('alert-prometheus', ['prometheus', 'alertmanager']).length > 0;

const ESTATE = `
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: critical }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('Prometheus sends its alerts straight to changeledger', (engine) => {
  let stack: AlertStack;
  let exporter: FlipExporter;
  let am: Alertmanager;
  let prom: Prometheus;
  let tap: Awaited<ReturnType<typeof startTap>>;

  beforeAll(async () => {
    if (skip) return;
    stack = await startAlertStack(engine.db(), { estate: ESTATE });
    exporter = await startFlipExporter();
    exporter.set('up_check', { service: 'checkout' }, 1);
    am = await startAlertmanager({ receivers: [] });
    // The tap passes Prometheus' posts on unchanged and keeps intake's answers.
    tap = await startTap(stack.pipelineUrl);
    prom = await startPrometheus({
      scrape: [exporter.target], rules: [downRule()],
      alertmanagers: [{ url: am.url }, { url: tap.url, bearer: stack.token }],
    });
  }, PEER_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await prom?.stop();
    await am?.stop();
    await tap?.close();
    await exporter?.close();
    await stack?.close();
  }, PEER_TEST_TIMEOUT_MS);

  it.skipIf(skip)('lists changeledger as an API v2 alertmanager and records the fired alert by Alertmanager\'s fingerprint, then its resolution', async () => {
    const active = await pollUntil('prometheus to list both alertmanagers', async () => {
      const list = (await prom.alertmanagers()).activeAlertmanagers.map((a) => a.url).sort();
      return list.length === 2 ? list : undefined;
    }, { details: prom.logs });
    expect(active).toEqual([`${am.url}/api/v2/alerts`, `${tap.url}/api/v2/alerts`].sort());

    exporter.set('up_check', { service: 'checkout' }, 0);
    const inAm = await am.waitForAlerts('ServiceDown in Alertmanager', (list) => list.find((a) => a.labels.alertname === 'ServiceDown' && a.labels.service === 'checkout'));
    const recorded = await stack.waitForAlerts('ServiceDown in changeledger', '?state=firing', (list) => list.find((a) => a.alertname === 'ServiceDown'));
    expect(recorded).toMatchObject({
      fingerprint: inAm.fingerprint, state: 'firing', labels: inAm.labels,
      subject: { kind: 'service', key: 'svc:checkout', name: 'checkout' },
    });
    expect(new Date(recorded.startsAt as string).getTime()).toBe(new Date(inAm.startsAt).getTime());
    expect(recorded.generatorURL).toBe(inAm.generatorURL);
    expect((recorded.generatorURL as string).startsWith(`${prom.url}/graph?`)).toBe(true);

    // The app commits the alert before the tap has read its answer: wait for the tap's record too.
    const posted = await pollUntil('the post through the tap', async () => tap.tapped.find((h) => h.path === '/api/v2/alerts'));
    expect(posted.headers.authorization).toBe(`Bearer ${stack.token}`);
    expect(posted.status).toBe(200);

    exporter.set('up_check', { service: 'checkout' }, 1);
    await stack.waitForAlerts('ServiceDown resolved in changeledger', '?state=resolved', (list) => list.find((a) => a.fingerprint === inAm.fingerprint));
    // Prometheus keeps sending a resolved alert (every resend delay, for 15 minutes): wait for one
    // such repeat to be answered, then the history still has one transition each way.
    // (A firing alert's endsAt lies ahead of the post; a resolved one's is its resolution, before it.)
    const resolvedPosts = () => tap.tapped.filter((h) => h.list.some((a) => a.labels?.alertname === 'ServiceDown' && a.endsAt && new Date(a.endsAt as string) <= h.at));
    await pollUntil('a repeated resolved alert from Prometheus', async () => (resolvedPosts().length >= 2 ? true : undefined), { details: prom.logs });
    expect(resolvedPosts().every((h) => h.status === 200)).toBe(true);
    expect(resolvedPosts().slice(1).map((h) => h.answer.transitions)).toEqual(resolvedPosts().slice(1).map(() => 0));
    const one = await stack.session('GET', `/api/alerts/${inAm.fingerprint}`);
    expect(one.status, one.body).toBe(200);
    expect((one.json.transitions as Json[]).map((x) => [x.state, x.via])).toEqual([['firing', 'api'], ['resolved', 'api']]);
    // Alertmanager saw the same resolution: the alert it holds is no longer active.
    await am.waitForAlerts('ServiceDown resolved in Alertmanager', (list) => (list.some((a) => a.fingerprint === inAm.fingerprint) ? undefined : true), { active: true });
  }, PEER_TEST_TIMEOUT_MS);
});
