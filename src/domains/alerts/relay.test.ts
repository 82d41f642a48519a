import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { startReceiver } from '../../../test/support/receiver.js';
import { startSmtpCapture, type SmtpCapture } from '../../../test/support/smtp-capture.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { startPagerDutyEvents, type PagerDutyEventsServer } from '../../../test/support/vendors/pagerduty-events-server.js';
import { insertHoldSubject, readAlert } from './alert-store.js';
import { labelSetFingerprint } from './fingerprint.js';
import { RELAY_JOB } from './relay-service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ESTATE = `
format: changeledger/catalogue/1
entities:
  - { key: "svc:checkout", kind: service, name: Checkout }
  - { key: "svc:payments", kind: service, name: Payments }
`;
const ZERO = '0001-01-01T00:00:00Z';
const ROUTING_KEY = 'R0UT1NGKEY0123456789abcdefABCDEF';
const checkout = { alertname: 'ErrorRate', service: 'checkout', severity: 'critical' };
const payments = { alertname: 'ErrorRate', service: 'payments', severity: 'warning', instance: 'pay-1:9100' };
const alert = (labels: Record<string, string>, status: 'firing' | 'resolved' = 'firing') => ({
  status, labels, annotations: { summary: `${labels.service} errors above 5 %` }, startsAt: '2026-12-01T10:00:00Z',
  endsAt: status === 'firing' ? ZERO : '2026-12-01T10:20:00Z', generatorURL: 'http://prom.example:9090/graph?g0.expr=errors',
});
const webhook = (alerts: unknown[]) => ({
  version: '4', groupKey: '{}:{alertname="ErrorRate"}', status: 'firing', receiver: 'changeledger', groupLabels: {}, commonLabels: {},
  commonAnnotations: {}, externalURL: 'http://am.example:9093', truncatedAlerts: 0, alerts,
});

describeEachEngine('relay mode forwards what is not held, and re-sends held alerts with the change’s prefix', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: string;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  let chat: Awaited<ReturnType<typeof startReceiver>>;
  let pd: PagerDutyEventsServer;
  let smtp: SmtpCapture;
  let signingSecret: string;
  let change: { id: string; displayId: string; title: string };
  const db = () => engine.db();
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => t.main.inject({ method, url, headers: owner.headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const intake = (alerts: unknown[]) => t.pipeline.inject({ method: 'POST', url: '/api/alerts/alertmanager', headers: { authorization: `Bearer ${token}` }, payload: webhook(alerts) });
  /** Runs the worker until nothing is due: relay jobs, then the mail outbox. */
  const drain = async () => {
    while ((await t.services.worker.runOnce()) > 0) { /* next round */ }
  };
  const webhooks = () => hook.received.filter((r) => r.path === '/relay');
  const slacks = () => chat.received.filter((r) => r.path === '/services/T0/B0/chat');
  const relayJobs = async () => Number((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE kind = $1 AND org_id = $2', [RELAY_JOB, owner.org.id])).rows[0]!.n);

  beforeAll(async () => {
    hook = await startReceiver({ status: 204 });
    chat = await startReceiver({ status: 200, body: 'ok' });
    pd = await startPagerDutyEvents();
    smtp = await startSmtpCapture();
    t = await testApp(engine.db(), { mail: { smtpUrl: smtp.url, from: 'changeledger@acme.dev' }, publicUrl: 'http://changeledger.acme.dev' });
    owner = await signedInOwner(t, 'Relay');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    token = (await createToken(t, owner, ['alerts:write'], 'alertmanager')).secret;
    const made = await api('POST', '/api/alert-destinations', { kind: 'webhook', name: 'Receiver', url: `${hook.url}/relay` });
    signingSecret = made.json().signingSecret as string;
    await api('POST', '/api/alert-destinations', { kind: 'slack', name: 'Chat', url: `${chat.url}/services/T0/B0/chat` });
    await api('POST', '/api/alert-destinations', { kind: 'pagerduty', name: 'Pager', routingKey: ROUTING_KEY, eventsUrl: pd.eventsUrl });
    await api('POST', '/api/alert-destinations', { kind: 'email', name: 'Ops', to: ['ops@acme.dev'] });
    const reg = await api('POST', '/api/changes', { title: 'Deploy checkout 2.1', components: [{ key: 'svc:checkout' }] });
    expect(reg.statusCode, reg.body).toBe(201);
    change = reg.json().change as typeof change;
    await insertHoldSubject(db(), owner.org.id, 'service', 'svc:checkout', change.id);
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
    await chat.close();
    await pd.close();
    await smtp.close();
  });

  it('forwards the alerts it does not hold to every destination, signed, and skips the held one', async () => {
    const res = await intake([alert(checkout), alert(payments)]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ received: 2, held: 1 });
    await drain();
    expect(webhooks()).toHaveLength(1);
    const got = webhooks()[0]!;
    const body = new Webhook(signingSecret, { format: 'raw' }).verify(got.raw.toString('utf8'), got.headers as Record<string, string>) as Json;
    expect(body).toMatchObject({ version: '4', status: 'firing', receiver: 'Receiver', externalURL: 'http://changeledger.acme.dev', truncatedAlerts: 0 });
    expect(body.alerts).toEqual([expect.objectContaining({ status: 'firing', labels: payments, fingerprint: labelSetFingerprint(payments), endsAt: ZERO, annotations: { summary: 'payments errors above 5 %' } })]);
    expect(got.headers['x-changeledger-event']).toBe('alerts.relay');

    expect(slacks()).toHaveLength(1);
    expect(slacks()[0]!.json.text).toContain('payments errors above 5 %');
    expect(slacks()[0]!.json.text).not.toContain('checkout');

    expect(pd.requests.map((r) => r.body)).toEqual([expect.objectContaining({
      routing_key: ROUTING_KEY, event_action: 'trigger', dedup_key: labelSetFingerprint(payments),
      payload: expect.objectContaining({ summary: 'payments errors above 5 %', source: 'pay-1:9100', severity: 'warning' }),
    })]);

    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.mail.subject).toBe('[FIRING] payments errors above 5 %');
    expect(smtp.messages[0]!.mail.text).not.toContain('checkout errors');

    const list = (await api('GET', '/api/alert-destinations')).json().destinations as Json[];
    for (const d of list) expect(d.lastDelivery, d.name as string).toMatchObject({ ok: true, error: null, attempts: 1 });
  });

  it('resolves at PagerDuty by the alert’s fingerprint', async () => {
    pd.requests.length = 0;
    t.clock.advance(60_000);
    await intake([alert(payments, 'resolved')]);
    await drain();
    expect(pd.requests.map((r) => r.body)).toEqual([{ routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: labelSetFingerprint(payments) }]);
  });

  it('queues one batch once: the same batch again adds no job', async () => {
    // The alert as received again later (a new last_seen): intake already relayed it as it was then.
    const stored = await readAlert(db(), owner.org.id, labelSetFingerprint(payments));
    const a = { ...stored!, lastSeen: new Date(Date.parse(stored!.lastSeen) + 60_000).toISOString() };
    const batch = [{ alert: a, heldBy: null, changed: false }];
    const before = await relayJobs();
    // Exactly as intake relayed it: the same message, queued already.
    await db().transaction((tx) => t.services.relay.afterIntake(tx, owner.org.id, [{ alert: stored!, heldBy: null, changed: false }], 'relay'));
    expect(await relayJobs()).toBe(before);
    await db().transaction((tx) => t.services.relay.afterIntake(tx, owner.org.id, batch, 'relay'));
    const once = await relayJobs();
    await db().transaction((tx) => t.services.relay.afterIntake(tx, owner.org.id, batch, 'relay'));
    expect(once).toBe(before + 3);
    expect(await relayJobs()).toBe(once);
    await drain();
  });

  it('re-sends held alerts once at a release, each summary prefixed [held during change "<title>"]', async () => {
    hook.received.length = 0;
    chat.received.length = 0;
    pd.requests.length = 0;
    smtp.messages.length = 0;
    const held = await readAlert(db(), owner.org.id, labelSetFingerprint(checkout));
    const ref = { id: change.id, displayId: change.displayId, title: change.title, link: `http://changeledger.acme.dev/changes/${change.displayId}` };
    await db().transaction((tx) => t.services.relay.resend(tx, owner.org.id, ref, [held!]));
    await db().transaction((tx) => t.services.relay.resend(tx, owner.org.id, ref, [held!]));
    await drain();
    const prefix = '[held during change "Deploy checkout 2.1"]';
    expect(webhooks()).toHaveLength(1);
    const body = new Webhook(signingSecret, { format: 'raw' }).verify(webhooks()[0]!.raw.toString('utf8'), webhooks()[0]!.headers as Record<string, string>) as Json;
    expect(body.alerts[0].annotations.summary).toBe(`${prefix} checkout errors above 5 %`);
    expect(body.heldDuring).toEqual({ change: ref, prefix });
    expect(webhooks()[0]!.headers['x-changeledger-event']).toBe('alerts.held_release');
    expect(slacks()).toHaveLength(1);
    expect(slacks()[0]!.json.text).toMatch(/^\[held during change "Deploy checkout 2\.1"\] checkout errors above 5 %/);
    expect(pd.requests).toHaveLength(1);
    expect(pd.requests[0]!.body).toMatchObject({ event_action: 'trigger', dedup_key: labelSetFingerprint(checkout), payload: { summary: `${prefix} checkout errors above 5 %`, severity: 'critical' } });
    expect(smtp.messages.map((m) => m.mail.subject)).toEqual([`${prefix} [FIRING] checkout errors above 5 %`]);
  });

  it('retries a failing destination with backoff and shows its last error until it is delivered', async () => {
    hook.received.length = 0;
    hook.answers.push({ status: 503, body: 'upstream down' });
    t.clock.advance(60_000);
    await intake([alert({ ...payments, alertname: 'Latency' })]);
    await drain();
    const failing = ((await api('GET', '/api/alert-destinations')).json().destinations as Json[]).find((d) => d.name === 'Receiver')!;
    expect(failing.lastDelivery).toMatchObject({ ok: false, status: 503, error: 'answered 503: upstream down', attempts: 1 });
    expect(failing.lastDelivery.nextAttemptAt).not.toBeNull();
    t.clock.set(new Date(new Date(failing.lastDelivery.nextAttemptAt as string).getTime() + 1000));
    await drain();
    const delivered = ((await api('GET', '/api/alert-destinations')).json().destinations as Json[]).find((d) => d.name === 'Receiver')!;
    expect(delivered.lastDelivery).toMatchObject({ ok: true, status: 204, error: null, attempts: 2, nextAttemptAt: null });
    const tries = webhooks();
    expect(tries).toHaveLength(2);
    // The same message both times: one id, the same bytes.
    expect(tries[1]!.headers['webhook-id']).toBe(tries[0]!.headers['webhook-id']);
    expect(tries[1]!.raw.equals(tries[0]!.raw)).toBe(true);
  });

  it('sends nothing to a disabled destination', async () => {
    const list = (await api('GET', '/api/alert-destinations')).json().destinations as Json[];
    const chatId = list.find((d) => d.name === 'Chat')!.id as string;
    expect((await api('PUT', `/api/alert-destinations/${chatId}`, { enabled: false })).statusCode).toBe(200);
    chat.received.length = 0;
    hook.received.length = 0;
    t.clock.advance(60_000);
    await intake([alert({ ...payments, alertname: 'Saturation' })]);
    await drain();
    expect(slacks()).toHaveLength(0);
    expect(webhooks()).toHaveLength(1);
    expect((await api('PUT', `/api/alert-destinations/${chatId}`, { enabled: true })).statusCode).toBe(200);
  });

  it('shows an e-mail destination’s failing attempt from the mail outbox', async () => {
    smtp.fail({ code: 451, at: 'rcpt', text: 'Greylisted, try again later' });
    t.clock.advance(60_000);
    await intake([alert({ ...payments, alertname: 'QueueDepth' })]);
    await drain();
    smtp.fail(null);
    const mail = ((await api('GET', '/api/alert-destinations')).json().destinations as Json[]).find((d) => d.kind === 'email')!;
    expect(mail.lastDelivery).toMatchObject({ ok: false, attempts: 1 });
    expect(mail.lastDelivery.error).toMatch(/451/);
    expect(mail.lastDelivery.nextAttemptAt).not.toBeNull();
  });

  it('relays nothing from intake in silence mode (Alertmanager routes), but still sends release notices', async () => {
    expect((await api('PUT', '/api/alert-settings', { holdMode: 'silence' })).statusCode).toBe(200);
    hook.received.length = 0;
    const before = await relayJobs();
    t.clock.advance(60_000);
    await intake([alert({ ...payments, alertname: 'DiskFull' })]);
    expect(await relayJobs()).toBe(before);
    const a = await readAlert(db(), owner.org.id, labelSetFingerprint({ ...payments, alertname: 'DiskFull' }));
    const other = (await api('POST', '/api/changes', { title: 'Silenced change', components: [{ key: 'svc:payments' }] })).json().change as typeof change;
    await db().transaction((tx) => t.services.relay.resend(tx, owner.org.id, { ...other, link: 'http://changeledger.acme.dev/changes/x' }, [a!]));
    await drain();
    expect(webhooks().map((r) => r.json.heldDuring?.prefix)).toEqual(['[held during change "Silenced change"]']);
  });
});
