import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { pipelineOrganization } from '../../../test/support/pipeline-org.js';
import { startReceiver, type Received } from '../../../test/support/receiver.js';
import { PASSWORD, signIn, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import { JobWorker } from '../../platform/jobs/job-worker.js';
import { MAX_ATTEMPTS, RETRY_AFTER_MS } from './delivery-rule.js';
import { startJiraServer } from '../../../test/support/vendors/jira-server.js';
import { startServiceNowServer } from '../../../test/support/vendors/servicenow-server.js';

const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: important }
  - { key: "svc:web", kind: service, name: web, tier: standard }
links:
  - { from: "svc:web", to: "svc:checkout-api", via: calls }
`;
const PUBLIC_URL = 'https://changes.acme.dev';
const MINUTE = 60_000;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

describeEachEngine('deliveries: signed callbacks and ticket steps through one outbox', (engine) => {
  const clock = new SettableClock(new Date());
  let t: TestApp;
  let owner: SignedIn;
  let alice: SignedIn;
  let mia: SignedIn;
  let token: string;
  let hook: Receiver;
  let tickets: Receiver;
  let n = 0;

  const inject = (s: SignedIn | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.main.inject({ method, url, headers: s ? s.headers : {}, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const pipe = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.pipeline.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const drain = async (app = t) => {
    while ((await app.services.worker.runOnce()) > 0);
  };
  const register = async (body: Json = {}) => {
    const r = await pipe('POST', '/api/changes', { components: [{ query: 'checkout-api' }], surveillanceMinutes: 15, ...body, title: `Deploy #${++n}` });
    expect(r.statusCode, r.body).toBe(201);
    return r.json() as { change: Json; callbackSecret?: string };
  };
  const approve = async (id: string) => {
    const r = await inject(alice, 'POST', `/api/changes/${id}/approve`, {});
    expect(r.statusCode, r.body).toBe(200);
  };
  const status = async (id: string) => (await pipe('GET', `/api/changes/${id}/status`)).json() as Json;
  const rows = async (changeId: string) =>
    (await engine.db().query<{ id: string; channel: string; event: string; state: string; attempts: number }>('SELECT id, channel, event, state, attempts, last_error FROM deliveries WHERE change_id = $1 ORDER BY created_at, seq', [changeId])).rows;
  const hmac = (secret: string, raw: Buffer) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  const forChange = (r: Receiver, id: string): Received[] => r.received.filter((x) => x.json.change?.id === id);
  const setTicketing = async (ticketing: Json | null) => {
    const r = await inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { ticketing });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as Json;
  };

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock, publicUrl: PUBLIC_URL, outboundTimeoutMs: 400 });
    ({ owner, alice, mia, token } = await pipelineOrganization(t, 'Deliveries', ESTATE));
    hook = await startReceiver();
    tickets = await startReceiver();
  });
  // Sessions last 12 hours and the tests move the clock by days: everybody signs in afresh.
  beforeEach(async () => {
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
    alice = await signIn(t, alice.org, alice.user, PASSWORD);
    mia = await signIn(t, mia.org, mia.user, PASSWORD);
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
    await tickets.close();
  });

  it('calls the pipeline back at each step, signed two ways over the raw body, with the /status body', async () => {
    const { change, callbackSecret } = await register({ callbackUrl: `${hook.url}/ci` });
    expect(callbackSecret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(await rows(change.id)).toEqual([]);
    await approve(change.id);
    // Written with the approval, before any worker ran.
    expect((await rows(change.id)).map((r) => [r.event, r.state])).toEqual([['change.approved', 'pending']]);
    await drain();
    const [first] = forChange(hook, change.id);
    expect(first!.method).toBe('POST');
    expect(first!.path).toBe('/ci');
    expect(first!.headers['content-type']).toBe('application/json');
    expect(first!.headers['user-agent']).toBe('changeledger-callbacks/1');
    expect(first!.headers['x-changeledger-event']).toBe('change.approved');
    expect(first!.headers['x-changeledger-delivery']).toBe(first!.json.deliveryId);
    expect(first!.headers['x-changeledger-signature']).toBe(hmac(callbackSecret!, first!.raw));
    // The Standard Webhooks library verifies the second signature (and the timestamp) itself.
    const verified = new Webhook(callbackSecret!, { format: 'raw' }).verify(first!.raw.toString('utf8'), first!.headers as Record<string, string>) as Json;
    expect(verified.event).toBe('change.approved');
    expect(first!.headers['webhook-id']).toBe(first!.json.deliveryId);
    expect(Object.keys(first!.json)).toEqual(['event', 'deliveryId', 'occurredAt', 'change']);
    expect(first!.json.deliveryId).toMatch(/^dlv_/);
    expect(first!.json.change).toMatchObject({ id: change.id, displayId: change.displayId, status: 'approved', approval: { state: 'approved', approvals: 1, required: 1 } });

    expect((await pipe('POST', `/api/changes/${change.id}/start`)).statusCode).toBe(200);
    expect((await pipe('POST', `/api/changes/${change.id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
    await drain();
    clock.advance(16 * MINUTE);
    await drain();
    const all = forChange(hook, change.id);
    expect(all.map((r) => r.headers['x-changeledger-event'])).toEqual(['change.approved', 'change.started', 'change.completed', 'change.reported']);
    expect(new Set(all.map((r) => r.json.deliveryId)).size).toBe(4);
    for (const r of all) expect(r.headers['x-changeledger-signature']).toBe(hmac(callbackSecret!, r.raw));
    expect(all[3]!.json.change).toMatchObject({ status: 'reported', surveillance: { impact: 'unknown' }, deployment: { outcome: 'success' } });
    const s = await status(change.id);
    expect(s.callback).toMatchObject({ event: 'change.reported', state: 'delivered', httpStatus: 204, attempts: 1, via: 'server', error: null, nextAttemptAt: null });
    expect(s.ticket).toBeNull();
  });

  it('tells a pipeline of a rejection and of an expiry', async () => {
    const rejected = await register({ callbackUrl: `${hook.url}/ci` });
    expect((await inject(alice, 'POST', `/api/changes/${rejected.change.id}/reject`, { reason: 'not during the sale' })).statusCode).toBe(200);
    const expired = await register({ callbackUrl: `${hook.url}/ci` });
    clock.advance(1441 * MINUTE);
    await drain();
    expect(forChange(hook, rejected.change.id).map((r) => [r.json.event, r.json.change.status, r.json.change.statusReason])).toEqual([['change.rejected', 'rejected', 'not during the sale']]);
    expect(forChange(hook, expired.change.id).map((r) => [r.json.event, r.json.change.approval.state])).toEqual([['change.expired', 'expired']]);
  });

  it('tells a pipeline when the names it sent have been mapped', async () => {
    const { change } = await register({ components: [{ query: 'checkout' }], callbackUrl: `${hook.url}/ci` });
    expect(change.status).toBe('pending_mapping');
    const mapped = await inject(owner, 'POST', `/api/changes/${change.id}/mappings`, { entries: [{ input: 'checkout', kind: 'service', key: 'svc:checkout-api' }] });
    expect(mapped.statusCode, mapped.body).toBe(200);
    await drain();
    expect(forChange(hook, change.id).map((r) => [r.json.event, r.json.change.status])).toEqual([['change.mapped', 'pending_approval']]);
  });

  it('retries 408, 429, 5xx and no answer after 1, 5 and 15 minutes, 1 hour, then every 4 hours, with the same delivery id, and gives up after 8 attempts', async () => {
    const { change } = await register({ callbackUrl: `${hook.url}/flaky` });
    hook.answers.push({ status: 503 }, { status: 429 }, { status: 408 }, 'hang', { status: 500 }, { status: 502 }, { status: 504 }, { status: 503 });
    await approve(change.id);
    await drain();
    const waits: number[] = [];
    for (const wait of RETRY_AFTER_MS) {
      const s = await status(change.id);
      expect(s.callback.state).toBe('retrying');
      waits.push(new Date(s.callback.nextAttemptAt).getTime() - clock.now().getTime());
      clock.advance(wait - 1_000);
      await drain();
      expect(forChange(hook, change.id)).toHaveLength(waits.length); // not a second early
      clock.advance(1_000);
      await drain();
    }
    expect(waits).toEqual([...RETRY_AFTER_MS]);
    const got = forChange(hook, change.id);
    expect(got).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(got.map((r) => r.headers['x-changeledger-delivery'])).size).toBe(1);
    expect(new Set(got.map((r) => r.raw.toString())).size).toBe(1);
    expect(new Set(got.map((r) => r.headers['webhook-timestamp'])).size).toBe(MAX_ATTEMPTS);
    const s = await status(change.id);
    expect(s.callback).toMatchObject({ state: 'failed', attempts: 8, httpStatus: 503, nextAttemptAt: null });
    expect(s.callback.error).toMatch(/gave up after 8 attempts/);
    const log = ((await pipe('GET', `/api/changes/${change.id}/deliveries`)).json() as Json).deliveries[0].attemptLog as Json[];
    expect(log.map((a) => a.httpStatus)).toEqual([503, 429, 408, null, 500, 502, 504, 503]);
    expect(log[3]!.error).toMatch(/no answer .* within 0.4 s/);
  });

  it('ends at any other 4xx or a 3xx, never following the redirect', async () => {
    const a = await register({ callbackUrl: `${hook.url}/moved` });
    hook.answers.push({ status: 302, headers: { location: `${hook.url}/elsewhere` } });
    await approve(a.change.id);
    const b = await register({ callbackUrl: `${hook.url}/strict` });
    hook.answers.push({ status: 401, body: 'bad signature', headers: { 'content-type': 'text/plain' } });
    await approve(b.change.id);
    await drain();
    clock.advance(5 * MINUTE);
    await drain();
    expect(hook.received.filter((r) => r.path === '/elsewhere')).toEqual([]);
    expect((await status(a.change.id)).callback).toMatchObject({ state: 'failed', attempts: 1, httpStatus: 302 });
    expect((await status(a.change.id)).callback.error).toBe('answered 302 (redirects are not followed)');
    expect((await status(b.change.id)).callback).toMatchObject({ state: 'failed', attempts: 1, httpStatus: 401, error: 'answered 401: bad signature' });
  });

  it('refuses private callback addresses unless allowPrivateCallbacks; metadata ones are refused at registration', async () => {
    const priv = await register({ callbackUrl: 'http://10.255.255.1:9/hook' });
    expect((priv as Json).warnings).toEqual([expect.stringContaining('allowPrivateCallbacks')]);
    const meta = await pipe('POST', '/api/changes', { components: [{ query: 'checkout-api' }], title: 'Metadata', callbackUrl: 'http://169.254.169.254/latest/meta-data' });
    expect(meta.statusCode).toBe(400);
    expect(meta.json()).toMatchObject({ field: 'callbackUrl', error: expect.stringContaining('169.254.169.254 is a cloud metadata address') });
    await approve(priv.change.id);
    await drain();
    expect((await status(priv.change.id)).callback).toMatchObject({ state: 'failed', attempts: 1, httpStatus: null });
    expect((await status(priv.change.id)).callback.error).toMatch(/10\.255\.255\.1 is a private address .*allowPrivateCallbacks/);
    expect((await inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { allowPrivateCallbacks: true })).statusCode).toBe(200);
    const allowed = await register({ callbackUrl: 'http://10.255.255.1:9/hook' });
    await approve(allowed.change.id);
    await drain();
    // Allowed, the private address is tried (whatever answers there, or nothing): no refusal.
    const d = await t.main.inject({ method: 'GET', url: `/api/changes/${allowed.change.id}/deliveries`, headers: owner.headers });
    const tried = (d.json() as Json).deliveries[0].attemptLog[0] as Json;
    expect(tried.address).toBe('10.255.255.1');
    expect(String(tried.error)).not.toMatch(/refused/);
    expect((await inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { allowPrivateCallbacks: false })).statusCode).toBe(200);
  });

  it('sends a test callback now from the change page: people with write access only', async () => {
    const { change, callbackSecret } = await register({ callbackUrl: `${hook.url}/ci` });
    const viaToken = await t.pipeline.inject({ method: 'POST', url: `/api/changes/${change.id}/callback-test`, headers: { authorization: `Bearer ${token}` } });
    expect(viaToken.statusCode).toBe(403);
    expect((await inject(alice, 'POST', `/api/changes/${change.id}/callback-test`)).statusCode).toBe(403);
    const r = await inject(mia, 'POST', `/api/changes/${change.id}/callback-test`);
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json() as Json).delivery).toMatchObject({ event: 'change.test', state: 'delivered', httpStatus: 204, attempts: 1, attemptLog: [{ attempt: 1, httpStatus: 204, via: 'server', address: '127.0.0.1' }] });
    const got = forChange(hook, change.id).at(-1)!;
    expect(got.headers['x-changeledger-event']).toBe('change.test');
    expect(got.headers['x-changeledger-signature']).toBe(hmac(callbackSecret!, got.raw));
    // The fallback job of the attempt finds it made and sends nothing twice.
    clock.advance(2 * MINUTE);
    await drain();
    expect(forChange(hook, change.id)).toHaveLength(1);
    const none = await register();
    const bad = await inject(mia, 'POST', `/api/changes/${none.change.id}/callback-test`);
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as Json).field).toBe('callbackUrl');
  });

  it('keeps one ticket destination, its secret sealed and shown as ••••; blank or •••• keeps it, of the same kind only', async () => {
    const put = (ticketing: Json | null) => inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { ticketing });
    const refusals: Array<[Json, string]> = [
      [{ kind: 'webhook', url: `${tickets.url}/t`, secret: 'too short' }, 'ticketing.secret'],
      [{ kind: 'webhook', url: 'ftp://tickets.acme.dev', secret: 'a-long-enough-secret' }, 'ticketing.url'],
      [{ kind: 'jira', baseUrl: 'https://acme.atlassian.net', apiToken: 'tok', projectKey: 'OPS' }, 'ticketing.email'],
      [{ kind: 'jira', baseUrl: 'https://acme.atlassian.net', email: 'ops@acme.dev', apiToken: 'tok', projectKey: 'ops team' }, 'ticketing.projectKey'],
      [{ kind: 'asana', token: 't', workspaceGid: 'abc', projectGid: '1' }, 'ticketing.workspaceGid'],
      [{ kind: 'servicenow', instanceUrl: 'https://acme.service-now.com', username: 'svc', password: 'pw', changeType: 'emergency' }, 'ticketing.changeType'],
      [{ kind: 'webhook', url: `${tickets.url}/t` }, 'ticketing.secret'],
    ];
    for (const [body, field] of refusals) {
      const r = await put(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect((r.json() as Json).field, r.body).toBe(field);
    }
    const secret = 'whsec-tickets-0123456789';
    const saved = (await setTicketing({ kind: 'webhook', url: `${tickets.url}/t`, secret })).settings;
    expect(saved).toMatchObject({ ticketingKind: 'webhook', ticketingUnreadable: false, ticketing: { kind: 'webhook', url: `${tickets.url}/t`, secret: '••••', hasSecret: true } });
    const stored = await engine.db().query<{ ticketing: Json; ticketing_secret_sealed: string }>('SELECT ticketing, ticketing_secret_sealed FROM change_settings WHERE org_id = $1', [owner.org.id]);
    expect(JSON.stringify(stored.rows[0])).not.toContain(secret);
    expect(stored.rows[0]!.ticketing_secret_sealed).toMatch(/^v1\./);
    // Kept when sent masked, or blank; not across kinds.
    await setTicketing({ kind: 'webhook', url: `${tickets.url}/t2`, secret: '••••' });
    await setTicketing({ kind: 'webhook', url: `${tickets.url}/t`, secret: '' });
    const other = await put({ kind: 'asana', workspaceGid: '1', projectGid: '2', token: '••••' });
    expect(other.statusCode).toBe(400);
    expect((other.json() as Json).field).toBe('ticketing.token');
    const test = await inject(owner, 'POST', `/api/organizations/${owner.org.id}/change-settings/ticketing-test`);
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json()).toMatchObject({ kind: 'webhook', ok: true });
    const probe = tickets.received.at(-1)!;
    expect(probe.headers['x-changeledger-event']).toBe('change.ticket.test');
    expect(probe.headers['x-changeledger-signature']).toBe(hmac(secret, probe.raw));
    // A draft is probed without being saved: here a receiver that does not answer 2xx.
    tickets.answers.push({ status: 500 });
    const draft = await inject(owner, 'POST', `/api/organizations/${owner.org.id}/change-settings/ticketing-test`, { ticketing: { kind: 'webhook', url: `${tickets.url}/draft`, secret: '••••' } });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({ ok: false, steps: [{ ok: false, status: 500 }] });
    expect(tickets.received.at(-1)!.path).toBe('/draft');
    expect((await inject(owner, 'GET', `/api/organizations/${owner.org.id}/change-settings`)).json()).toMatchObject({ settings: { ticketing: { url: `${tickets.url}/t` } } });
    expect((await inject(alice, 'POST', `/api/organizations/${owner.org.id}/change-settings/ticketing-test`)).statusCode).toBe(403);
    const audit = await engine.db().query<{ action: string; data: Json }>(`SELECT action, data FROM audit_events WHERE org_id = $1 AND action LIKE 'org_change.%' ORDER BY seq`, [owner.org.id]);
    expect(audit.rows.map((r) => r.action)).toEqual(['org_change.ticketing', 'org_change.ticketing', 'org_change.ticketing', 'org_change.ticketing_test', 'org_change.ticketing_test']);
    expect(audit.rows[0]!.data).toMatchObject({ from: 'none', to: 'webhook', secretChanged: true });
    expect(audit.rows[1]!.data).toMatchObject({ secretChanged: false });
    expect(JSON.stringify(audit.rows)).not.toContain(secret);
  });

  it('opens the ticket at approval and updates it in order: started, completed, reported with the close', async () => {
    await setTicketing({ kind: 'webhook', url: `${tickets.url}/t`, secret: 'whsec-tickets-0123456789' });
    const { change } = await register({ autoStart: true });
    // The ticket system is down at first: the update waits behind the opening step.
    tickets.answers.push({ status: 503 }, { status: 201, body: JSON.stringify({ ticket: { id: '10042', key: 'OPS-42', url: 'https://tickets.acme.dev/OPS-42' } }) });
    await approve(change.id);
    await drain();
    expect(forChange(tickets, change.id).map((r) => r.json.event)).toEqual(['change.ticket.created']);
    expect((await status(change.id)).ticket.steps.map((s: Json) => [s.event, s.state])).toEqual([['change.approved', 'retrying'], ['change.started', 'pending']]);
    clock.advance(MINUTE);
    await drain();
    const sent = forChange(tickets, change.id);
    expect(sent.map((r) => r.json.event)).toEqual(['change.ticket.created', 'change.ticket.created', 'change.ticket.updated']);
    expect(sent[2]!.json.ticket).toEqual({ kind: 'webhook', id: '10042', key: 'OPS-42', url: 'https://tickets.acme.dev/OPS-42' });
    expect(sent[2]!.json.update).toMatchObject({ event: 'change.started', close: null });
    expect((await pipe('POST', `/api/changes/${change.id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
    clock.advance(16 * MINUTE);
    await drain();
    const updates = forChange(tickets, change.id).slice(3);
    expect(updates.map((r) => r.json.update.event)).toEqual(['change.completed', 'change.reported']);
    expect(updates[1]!.json.update.close).toEqual({ reason: 'reported', outcome: 'success', impact: 'unknown' });
    expect(updates[1]!.json.update.text).toContain(`${PUBLIC_URL}/?view=changes&change=${change.id}`);
    const s = await status(change.id);
    expect(s.ticket).toMatchObject({ kind: 'webhook', key: 'OPS-42', url: 'https://tickets.acme.dev/OPS-42' });
    expect(s.ticket.steps.map((x: Json) => [x.event, x.state])).toEqual([
      ['change.approved', 'delivered'], ['change.started', 'delivered'], ['change.completed', 'delivered'], ['change.reported', 'delivered'],
    ]);
    expect((await t.main.inject({ method: 'GET', url: `/api/changes/${change.id}`, headers: owner.headers })).json().change.ticket).toMatchObject({ key: 'OPS-42' });
    expect((await pipe('GET', `/api/changes/${change.id}/report.json`)).json().ticket).toMatchObject({ key: 'OPS-42' });
    const log = ((await pipe('GET', `/api/changes/${change.id}/deliveries`)).json() as Json).deliveries.filter((d: Json) => d.channel === 'ticket')[0].attemptLog as Json[];
    expect(log.map((a) => [a.httpStatus, a.address])).toEqual([[503, '127.0.0.1'], [201, '127.0.0.1']]);
  });

  it('closes the ticket of an approved change cancelled before it starts; a change never approved gets none', async () => {
    await setTicketing({ kind: 'webhook', url: `${tickets.url}/t`, secret: '••••' });
    const approved = await register();
    await approve(approved.change.id);
    expect((await pipe('POST', `/api/changes/${approved.change.id}/cancel`, { reason: 'freeze' })).statusCode).toBe(200);
    const waiting = await register();
    expect((await pipe('POST', `/api/changes/${waiting.change.id}/cancel`, {})).statusCode).toBe(200);
    await drain();
    const got = forChange(tickets, approved.change.id);
    expect(got.map((r) => r.json.event)).toEqual(['change.ticket.created', 'change.ticket.updated']);
    expect(got[1]!.json.update).toMatchObject({ event: 'change.cancelled', close: { reason: 'cancelled' } });
    // Answered without a ticket: the change's id is the reference, with no link.
    expect(got[1]!.json.ticket).toEqual({ kind: 'webhook', id: approved.change.id, key: approved.change.displayId, url: null });
    expect(forChange(tickets, waiting.change.id)).toEqual([]);
    expect((await status(waiting.change.id)).ticket).toBeNull();
  });

  it('opens the ticket when it starts for a change that never needed approval', async () => {
    expect((await inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'none' })).statusCode).toBe(200);
    try {
      const { change } = await register({ startNow: true });
      await drain();
      const got = forChange(tickets, change.id);
      expect(got.map((r) => r.json.event)).toEqual(['change.ticket.created']);
      expect(got[0]!.json.change.status).toBe('active');
    } finally {
      expect((await inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'all' })).statusCode).toBe(200);
      await setTicketing(null);
    }
  });

  it('opens a ServiceNow change at approval; a normal change awaiting CAB keeps its state and the step says so', async () => {
    const sn = await startServiceNowServer({ username: 'svc.changeledger', password: 'sn-pass' });
    try {
      await setTicketing({ kind: 'servicenow', instanceUrl: sn.url, username: 'svc.changeledger', password: 'sn-pass', changeType: 'normal' });
      const { change } = await register();
      await approve(change.id);
      await drain();
      expect(sn.records).toHaveLength(1);
      const rec = sn.records[0]!;
      expect(rec).toMatchObject({ correlation_id: change.id, type: 'normal', impact: '2', state: '-5' });
      expect((await pipe('POST', `/api/changes/${change.id}/start`)).statusCode).toBe(200);
      await drain();
      // ServiceNow's model refused Implement: the work note went in alone and the change went on.
      expect(rec.state).toBe('-5');
      expect(rec.workNotes.at(-1)).toMatch(/^Started /);
      const s = await status(change.id);
      expect(s.status).toBe('active');
      expect(s.ticket).toMatchObject({ kind: 'servicenow', id: rec.sys_id, key: rec.number, url: `${sn.url}/nav_to.do?uri=change_request.do?sys_id=${rec.sys_id}` });
      expect(s.ticket.steps.map((x: Json) => [x.event, x.state, x.httpStatus])).toEqual([['change.approved', 'delivered', 201], ['change.started', 'delivered', 200]]);
      expect(s.ticket.steps[1].note).toMatch(/^state not changed: ServiceNow kept New/);
      // Once CAB has scheduled it in ServiceNow, the next steps move it.
      sn.setState(rec.sys_id, '-2');
      expect((await pipe('POST', `/api/changes/${change.id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
      clock.advance(16 * MINUTE);
      await drain();
      expect(rec).toMatchObject({ state: '3', close_code: 'successful' });
    } finally {
      await setTicketing(null);
      await sn.close();
    }
  });

  it('fails a Jira step for good on bad credentials, and opens the ticket with the right token', async () => {
    const jira = await startJiraServer({ deployment: 'cloud', email: 'ops@acme.dev', token: 'right-token', projects: [{ key: 'OPS', name: 'Operations', issueTypes: ['Task'] }] });
    try {
      await setTicketing({ kind: 'jira', baseUrl: jira.url, email: 'ops@acme.dev', apiToken: 'wrong-token', projectKey: 'OPS' });
      const refused = await register();
      await approve(refused.change.id);
      await drain();
      clock.advance(5 * MINUTE);
      await drain();
      const failed = (await status(refused.change.id)).ticket;
      expect(failed.steps).toMatchObject([{ event: 'change.approved', state: 'failed', httpStatus: 401, attempts: 1 }]);
      expect(failed.steps[0].error).toMatch(/^Jira answered 401/);
      expect(failed.key).toBeNull();

      await setTicketing({ kind: 'jira', baseUrl: jira.url, email: 'ops@acme.dev', apiToken: 'right-token', projectKey: 'OPS' });
      const { change } = await register();
      await approve(change.id);
      expect((await pipe('POST', `/api/changes/${change.id}/start`)).statusCode).toBe(200);
      await drain();
      expect(jira.issues).toHaveLength(1);
      const issue = jira.issues[0]!;
      expect(issue.fields).toMatchObject({ project: { key: 'OPS' }, summary: `[${change.displayId}] ${change.title}`, issuetype: { name: 'Task' } });
      expect(issue.comments).toHaveLength(1);
      expect((await status(change.id)).ticket).toMatchObject({ kind: 'jira', key: issue.key, url: `${jira.url}/browse/${issue.key}` });
    } finally {
      await setTicketing(null);
      await jira.close();
    }
  });

  // Plugs its own reporter into the app's change service; the next test starts a new app.
  it('puts the AI tier beside the impact in the ticket update of a report, and in its close', async () => {
    t.services.changes.setReporter({
      horizonReached: async (tx, ctx, ch) => {
        await t.services.changes.recordReport(tx, ctx, ch.id, ch.evaluateAt!, {
          impact: 'significant', aiImpact: 'minor', rule: 'component_moved', summary: 'Impact significant.', body: {}, verdict: null, ai: null, html: null, textBody: null, csv: null,
        });
      },
    });
    await setTicketing({ kind: 'webhook', url: `${tickets.url}/t`, secret: 'whsec-tickets-0123456789' });
    const { change } = await register({ autoStart: true });
    tickets.answers.push({ status: 201, body: JSON.stringify({ ticket: { id: '10077', key: 'OPS-77', url: 'https://tickets.acme.dev/OPS-77' } }) });
    await approve(change.id);
    await drain();
    expect((await pipe('POST', `/api/changes/${change.id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
    clock.advance(16 * MINUTE);
    await drain();
    const update = forChange(tickets, change.id).map((r) => r.json.update).filter((u: Json | undefined) => u?.event === 'change.reported')[0] as Json;
    expect(update.text).toBe(`Surveillance report: impact significant, AI minor, outcome success. ${PUBLIC_URL}/?view=changes&change=${change.id}`);
    expect(update.close).toEqual({ reason: 'reported', outcome: 'success', impact: 'significant', aiImpact: 'minor' });
  });

  it('sends a delivery once when two workers race for it, and after a restart', async () => {
    const { change } = await register({ callbackUrl: `${hook.url}/race` });
    await approve(change.id);
    const workers = [1, 2].map((i) => new JobWorker({ db: engine.db(), clock, handlers: t.services.deliveries.jobHandlers(), workerId: `race-${i}` }));
    await Promise.all(workers.map((w) => w.runOnce()));
    await Promise.all(workers.map((w) => w.runOnce()));
    expect(forChange(hook, change.id)).toHaveLength(1);

    const later = await register({ callbackUrl: `${hook.url}/restart` });
    await approve(later.change.id);
    await t.close();
    t = await testApp(engine.db(), { clock, publicUrl: PUBLIC_URL, outboundTimeoutMs: 400, dataKey: t.dataKey });
    await drain();
    expect(forChange(hook, later.change.id).map((r) => r.json.event)).toEqual(['change.approved']);
  });
});
