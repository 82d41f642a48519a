import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../platform/net/outbound.js';
import { freePort } from '../../../test/support/postgres-cluster.js';
import { startReceiver } from '../../../test/support/receiver.js';
import { hasAlertmanager, startAlertmanager, type Alertmanager } from '../../../test/support/alertmanager.js';
import { AlertmanagerError, answeredReason, createAlertmanagerClient, matcherText, type AlertmanagerTarget } from './alertmanager-client.js';

const loopback = createAlertmanagerClient(createOutboundClient({ testOnlyAllowLoopback: true, timeoutMs: 1000 }));
const strict = createAlertmanagerClient(createOutboundClient({ timeoutMs: 1000 }));
const target = (url: string, auth: AlertmanagerTarget['auth'] = { kind: 'none' }): AlertmanagerTarget => ({ url, auth, allowPrivate: false });
const reasonOf = async (p: Promise<unknown>) => p.then(() => 'no error', (e: unknown) => (e instanceof AlertmanagerError ? e.message : `not an AlertmanagerError: ${String(e)}`));

describe('Alertmanager client: every failure is a reason a person reads', () => {
  it('a port nobody listens on is "connection refused"', async () => {
    const port = await freePort();
    expect(await reasonOf(loopback.status(target(`http://127.0.0.1:${port}`)))).toBe('connection refused');
  });

  it('an Alertmanager that never answers is "timed out after 1 s" (the client’s own limit)', async () => {
    const r = await startReceiver('hang');
    try {
      expect(await reasonOf(loopback.status(target(r.url)))).toBe('timed out after 1 s');
    } finally {
      await r.close();
    }
  });

  it('the outbound guard’s refusal is passed on as it is, and nothing is sent', async () => {
    const r = await startReceiver({ status: 200, body: '{}' });
    try {
      expect(await reasonOf(strict.status(target(r.url)))).toMatch(/^refused: 127\.0\.0\.1 is a loopback address/);
      expect(r.received).toHaveLength(0);
    } finally {
      await r.close();
    }
  });

  it('a refusal names Alertmanager’s own words, whether it answered a JSON string, an object or text', () => {
    expect(answeredReason(400, '"silence invalid: invalid label matcher 0: invalid label name \\"1x\\""')).toBe('Alertmanager answered 400: silence invalid: invalid label matcher 0: invalid label name "1x"');
    expect(answeredReason(422, '{"code":601,"message":"matchers in body is required"}')).toBe('Alertmanager answered 422: matchers in body is required');
    expect(answeredReason(401, 'Unauthorized\n')).toBe('Alertmanager answered 401: Unauthorized');
    expect(answeredReason(503, '')).toBe('Alertmanager answered 503');
  });

  it('sends the bearer token or the basic credentials it is given, and asks under the URL’s own path', async () => {
    const r = await startReceiver({ status: 200, body: '{"versionInfo":{"version":"0.25.0"},"cluster":{"status":"disabled"},"uptime":"2026-12-01T10:00:00Z"}' });
    try {
      expect(await loopback.status(target(`${r.url}/workspaces/ws-1/alertmanager/`, { kind: 'bearer', token: 'tok-1' }))).toEqual({ version: '0.25.0', cluster: 'disabled', uptime: '2026-12-01T10:00:00Z' });
      await loopback.status(target(r.url, { kind: 'basic', user: 'am', password: 'p:w' }));
      expect(r.received.map((x) => [x.path, x.headers.authorization])).toEqual([
        ['/workspaces/ws-1/alertmanager/api/v2/status', 'Bearer tok-1'],
        ['/api/v2/status', `Basic ${Buffer.from('am:p:w').toString('base64')}`],
      ]);
    } finally {
      await r.close();
    }
  });

  it('writes filter matchers the way Alertmanager parses them', () => {
    expect(matcherText({ name: 'service', value: 'a|b', isRegex: true, isEqual: true })).toBe('service=~"a|b"');
    expect(matcherText({ name: 'pod', value: 'w"1', isRegex: false, isEqual: true })).toBe('pod="w\\"1"');
    expect(matcherText({ name: 'job', value: 'x', isRegex: true, isEqual: false })).toBe('job!~"x"');
    expect(matcherText({ name: 'job', value: 'x', isRegex: false, isEqual: false })).toBe('job!="x"');
  });
});

describe.skipIf(!hasAlertmanager)(`Alertmanager client against Debian's prometheus-alertmanager${hasAlertmanager ? '' : ' (SKIPPED: /usr/bin/prometheus-alertmanager is not installed)'}`, () => {
  let am: Alertmanager;
  beforeAll(async () => {
    am = await startAlertmanager({ receivers: [] });
  }, 90_000);
  afterAll(async () => am?.stop());

  const soon = (ms: number) => new Date(Date.now() + ms).toISOString();

  it('answers its status', async () => {
    const s = await loopback.status(target(am.url));
    expect(s.version).toMatch(/^0\.\d+/);
  });

  it('creates a silence, extends it keeping its id, lists the alerts it silences, and expires it', async () => {
    const t = target(am.url);
    const matchers = [{ name: 'service', value: 'checkout|pay\\.ments', isRegex: true, isEqual: true }];
    const startsAt = new Date().toISOString();
    const id = await loopback.postSilence(t, { matchers, startsAt, endsAt: soon(600_000), createdBy: 'changeledger', comment: 'CHG-1 test' });
    const created = await loopback.getSilence(t, id);
    expect(created?.status.state).toBe('active');

    const endsAt = soon(1_200_000);
    const again = await loopback.postSilence(t, { id, matchers, startsAt: created!.startsAt, endsAt, createdBy: 'changeledger', comment: 'CHG-1 test' });
    expect(again).toBe(id);
    expect(new Date((await loopback.getSilence(t, id))!.endsAt).getTime()).toBe(new Date(endsAt).getTime());

    await am.postAlerts([{ labels: { alertname: 'Down', service: 'checkout' } }, { labels: { alertname: 'Down', service: 'search' } }]);
    const held = await am.waitForAlerts('the checkout alert silenced', (l) => (l.some((a) => a.labels.service === 'checkout' && a.status.state === 'suppressed') ? l : undefined));
    expect(held.length).toBeGreaterThan(0);
    const silenced = await loopback.listAlerts(t, { silenced: true, active: false, inhibited: false, filter: ['service=~"checkout|pay\\\\.ments"'] });
    expect(silenced.map((a) => [a.labels.service, a.status.silencedBy])).toEqual([['checkout', [id]]]);

    await loopback.expireSilence(t, id);
    expect((await loopback.getSilence(t, id))?.status.state).toBe('expired');
    // Expiring twice is not an error: a retried release must not fail on it.
    await loopback.expireSilence(t, id);
  }, 90_000);

  it('a silence Alertmanager refuses shows its reason', async () => {
    const reason = await reasonOf(loopback.postSilence(target(am.url), {
      matchers: [{ name: 'service', value: '(', isRegex: true, isEqual: true }], startsAt: new Date().toISOString(), endsAt: soon(60_000), createdBy: 'changeledger', comment: 'x',
    }));
    expect(reason).toMatch(/^Alertmanager answered 400: .+/);
    expect(reason).toMatch(/regex|parse|matcher|missing/i);
  });
});
