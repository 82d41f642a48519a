import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { resolveWith, startDnsServer, type DnsServer } from '../../../test/support/dns-server.js';
import { describeEachEngine } from '../../../test/support/engines.js';
import { startReceiver } from '../../../test/support/receiver.js';
import { createToken, PASSWORD, signIn, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { startServiceNowServer, type ServiceNowServer } from '../../../test/support/vendors/servicenow-server.js';
import { buildApp } from '../../app.js';
import { compose } from '../../compose.js';
import { SettableClock } from '../../platform/clock.js';
import { createSealer } from '../../platform/crypto/sealed.js';
import type { Database } from '../../platform/db/database.js';
import { createLogger } from '../../platform/logger.js';
import { createOutboundClient, type OutboundClient } from '../../platform/net/outbound.js';
import { MAX_ATTEMPTS, RETRY_AFTER_MS } from './delivery-rule.js';

/**
 * Where callbacks and ticket steps may go, decided before anything is stored and each time one is
 * sent. Two apps on one database, as two servers would be: `lenient` with the tests' loopback
 * switch (receivers listen on loopback), and `strict`, whose client is the production one — no
 * switch. Both resolve names through a real DNS server on loopback, which answers NXDOMAIN for
 * names it does not know.
 */

const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: important }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function appWith(db: Database, clock: SettableClock, dataKey: Buffer, client: OutboundClient): Promise<TestApp> {
  const services = compose({ db, clock, logger: createLogger({ level: 'silent' }), sealer: createSealer(dataKey), outbound: { client, allowPrivate: false }, publicUrl: 'https://changes.acme.dev' });
  const deps = { ...services, secureCookies: false, version: 'test', webDir: null };
  const main = await buildApp(deps, 'main');
  const pipeline = await buildApp(deps, 'pipeline');
  return {
    services, clock, main, pipeline, logs: [], dataKey,
    async close() {
      await main.close();
      await pipeline.close();
      services.mailer.close();
    },
  };
}

describeEachEngine('where deliveries may go: never-deliverable addresses refused up front, unresolvable names retried, secrets kept only for their destination', (engine) => {
  const clock = new SettableClock(new Date());
  let dns: DnsServer;
  let lenient: TestApp;
  let strict: TestApp;
  let owner: SignedIn;
  let token: string;
  let hook: Receiver;
  let elsewhere: Receiver;
  let sn: ServiceNowServer;
  let n = 0;

  const port = (r: Receiver) => new URL(r.url).port;
  const settingsUrl = () => `/api/organizations/${owner.org.id}/change-settings`;
  const put = (app: TestApp, payload: Json) => app.main.inject({ method: 'PUT', url: settingsUrl(), headers: owner.headers, payload });
  const probe = (app: TestApp, payload: Json) => app.main.inject({ method: 'POST', url: `${settingsUrl()}/ticketing-test`, headers: owner.headers, payload });
  const register = (app: TestApp, body: Json) =>
    app.pipeline.inject({ method: 'POST', url: '/api/changes', headers: { authorization: `Bearer ${token}` }, payload: { components: [{ query: 'checkout-api' }], title: `Deploy #${++n}`, ...body } });
  const pipe = (method: 'GET' | 'POST', url: string) => lenient.pipeline.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
  const drain = async () => {
    while ((await lenient.services.worker.runOnce()) > 0);
  };
  /** What an organisation has written: its changes, its audit events and its stored settings. */
  const written = async () => {
    const db = engine.db();
    const changes = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM changes WHERE org_id = $1', [owner.org.id]);
    const audit = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events WHERE org_id = $1', [owner.org.id]);
    const settings = await db.query('SELECT ticketing, ticketing_secret_sealed, allow_private_callbacks FROM change_settings WHERE org_id = $1', [owner.org.id]);
    return { changes: changes.rows[0]!.n, audit: audit.rows[0]!.n, settings: JSON.stringify(settings.rows) };
  };
  const auditActions = async (like: string) =>
    (await engine.db().query<{ action: string; data: Json }>('SELECT action, data FROM audit_events WHERE org_id = $1 AND action LIKE $2 ORDER BY seq', [owner.org.id, like])).rows;

  beforeAll(async () => {
    dns = await startDnsServer({
      // NXDOMAIN for the first three questions of each family, then the receiver's address.
      'late.ci-hooks.test': ({ index }) => (index < 3 ? undefined : ['127.0.0.1']),
    });
    const dataKey = randomBytes(32);
    lenient = await appWith(engine.db(), clock, dataKey, createOutboundClient({ resolve: resolveWith(dns), testOnlyAllowLoopback: true, timeoutMs: 2000 }));
    strict = await appWith(engine.db(), clock, dataKey, createOutboundClient({ resolve: resolveWith(dns), timeoutMs: 2000 }));
    const created = await lenient.services.auth.createOrganizationWithOwner(testCtx, { name: 'Destinations', email: `olivia-${Math.random().toString(36).slice(2, 8)}@acme.dev`, password: PASSWORD });
    owner = await signIn(lenient, created.org, created.owner, PASSWORD);
    const imp = await lenient.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    expect((await put(lenient, { approvalRequired: 'none' })).statusCode).toBe(200);
    token = (await createToken(lenient, owner, ['changes:read', 'changes:write'], 'pipeline')).secret;
    hook = await startReceiver();
    elsewhere = await startReceiver();
    sn = await startServiceNowServer({ username: 'svc.changeledger', password: 'sn-pass' });
  });
  beforeEach(async () => {
    owner = await signIn(lenient, owner.org, owner.user, PASSWORD);
  });
  afterAll(async () => {
    await lenient?.close();
    await strict?.close();
    await dns?.close();
    await hook?.close();
    await elsewhere?.close();
    await sn?.close();
  });

  // ── item: a DNS failure is an unreachable receiver, retried ────────────────────────────────

  it('retries a callback whose host does not resolve (NXDOMAIN) after 1, 5 and 15 minutes, and delivers it once the name resolves', async () => {
    const r = await register(lenient, { callbackUrl: `http://late.ci-hooks.test:${port(hook)}/ci` });
    expect(r.statusCode, r.body).toBe(201);
    const { change } = r.json() as { change: Json };
    expect((await pipe('POST', `/api/changes/${change.id}/start`)).statusCode).toBe(200);
    await drain();
    const first = ((await pipe('GET', `/api/changes/${change.id}/status`)).json() as Json).callback as Json;
    expect(first).toMatchObject({ event: 'change.started', state: 'retrying', attempts: 1, httpStatus: null, error: 'late.ci-hooks.test does not resolve (ENOTFOUND)' });
    expect(Date.parse(first.nextAttemptAt) - clock.now().getTime()).toBe(RETRY_AFTER_MS[0]);
    for (const wait of RETRY_AFTER_MS.slice(0, 3)) {
      clock.advance(wait);
      await drain();
    }
    const d = ((await pipe('GET', `/api/changes/${change.id}/deliveries`)).json() as Json).deliveries[0] as Json;
    expect([d.state, d.attempts, d.httpStatus]).toEqual(['delivered', 4, 204]);
    expect((d.attemptLog as Json[]).map((a) => [a.httpStatus, a.error])).toEqual([
      ...Array.from({ length: 3 }, () => [null, 'late.ci-hooks.test does not resolve (ENOTFOUND)']), [204, null],
    ]);
    expect(hook.received.filter((x) => x.json.change?.id === change.id).map((x) => x.headers.host)).toEqual([`late.ci-hooks.test:${port(hook)}`]);
    expect((await auditActions('change.callback_%')).filter((a) => a.data.deliveryId === d.deliveryId).map((a) => [a.action, a.data.attempts])).toEqual([['change.callback_delivered', 4]]);
  });

  it('gives up on the spec\'s ci-hooks.lan, which never resolves, only after the eighth attempt', async () => {
    const r = await register(lenient, { callbackUrl: 'https://ci-hooks.lan/topologix' });
    expect(r.statusCode, r.body).toBe(201);
    const { change } = r.json() as { change: Json };
    expect((await pipe('POST', `/api/changes/${change.id}/start`)).statusCode).toBe(200);
    await drain();
    // The window ends on the way (another callback follows): follow the started one by its event.
    const started = async () => (((await pipe('GET', `/api/changes/${change.id}/deliveries`)).json() as Json).deliveries as Json[]).find((d) => d.event === 'change.started')!;
    for (const wait of RETRY_AFTER_MS) {
      expect((await started()).state).toBe('retrying');
      clock.advance(wait);
      await drain();
    }
    const callback = await started();
    expect(callback).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, httpStatus: null, nextAttemptAt: null });
    expect(callback.error).toBe('ci-hooks.lan does not resolve (ENOTFOUND); gave up after 8 attempts');
    expect((callback.attemptLog as Json[]).map((a) => a.error)).toEqual(Array.from({ length: MAX_ATTEMPTS }, () => 'ci-hooks.lan does not resolve (ENOTFOUND)'));
    const ended = (await auditActions('change.callback_%')).filter((a) => a.data.deliveryId === callback.deliveryId);
    expect(ended.map((a) => [a.action, a.data.attempts])).toEqual([['change.callback_failed', MAX_ATTEMPTS]]);
  });

  // ── item: a callback or ticket URL that can never be delivered is refused when it is saved ──

  it.each([
    'http://127.0.0.1:9/hook', 'http://2130706433/hook', 'http://0x7f000001/', 'http://127.1/', 'http://[::1]:8080/ci', 'http://[::ffff:127.0.0.1]/',
    'http://169.254.169.254/latest/meta-data', 'http://[fd00:ec2::254]/', 'http://169.254.7.7/', 'http://[fe80::1]/', 'http://0.0.0.0:8080/', 'http://[::]/',
  ])('refuses callbackUrl %s at registration with 400 naming the field, writing nothing (no test switch)', async (callbackUrl) => {
    const before = await written();
    const r = await register(strict, { callbackUrl });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({ field: 'callbackUrl', error: expect.stringMatching(/^callbackUrl: \S+ is an? (loopback|cloud metadata|link-local|unspecified) address, where no callback is ever delivered$/) });
    expect(await written()).toEqual(before);
  });

  it('registers a loopback callbackUrl only where the client\'s test switch opens loopback', async () => {
    const viaSwitch = await register(lenient, { callbackUrl: `${hook.url}/ci` });
    expect(viaSwitch.statusCode, viaSwitch.body).toBe(201);
    expect(viaSwitch.json()).not.toHaveProperty('warnings');
    expect((await register(strict, { callbackUrl: `${hook.url}/ci` })).statusCode).toBe(400);
    // Metadata stays refused with the switch too.
    expect((await register(lenient, { callbackUrl: 'http://169.254.169.254/' })).json()).toMatchObject({ field: 'callbackUrl' });
  });

  it('registers a private callbackUrl with a warning until the organisation allows private callbacks; a name is judged when sent', async () => {
    for (const callbackUrl of ['http://10.1.2.3:8080/ci', 'http://[fd12::7]/ci', 'http://167772161/ci']) {
      const r = await register(strict, { callbackUrl });
      expect(r.statusCode, r.body).toBe(201);
      const body = r.json() as Json;
      expect(body.callbackSecret).toMatch(/^cs_/);
      expect(body.warnings).toEqual([expect.stringMatching(/^callbackUrl: \S+ is a private address .*allowPrivateCallbacks/)]);
    }
    expect((await register(strict, { callbackUrl: 'https://ci-hooks.lan/topologix' })).json()).not.toHaveProperty('warnings');
    expect((await put(strict, { allowPrivateCallbacks: true })).statusCode).toBe(200);
    try {
      const allowed = await register(strict, { callbackUrl: 'http://10.1.2.3:8080/ci' });
      expect(allowed.statusCode).toBe(201);
      expect(allowed.json()).not.toHaveProperty('warnings');
      expect((await register(strict, { callbackUrl: 'http://127.0.0.1/ci' })).statusCode).toBe(400);
    } finally {
      expect((await put(strict, { allowPrivateCallbacks: false })).statusCode).toBe(200);
    }
  });

  it('refuses a ticket destination URL that can never be reached, at save and in a draft test, writing nothing', async () => {
    const refusals: Array<[Json, string]> = [
      [{ kind: 'webhook', url: 'http://169.254.169.254/hook', secret: 'a-long-enough-secret' }, 'ticketing.url'],
      [{ kind: 'servicenow', instanceUrl: 'http://[::ffff:127.0.0.1]:8080', username: 'svc', password: 'pw' }, 'ticketing.instanceUrl'],
      [{ kind: 'jira', baseUrl: 'http://2130706433', email: 'ops@acme.dev', apiToken: 'tok', projectKey: 'OPS' }, 'ticketing.baseUrl'],
      [{ kind: 'asana', apiUrl: 'http://0.0.0.0', token: 'tok', workspaceGid: '1', projectGid: '2' }, 'ticketing.apiUrl'],
    ];
    const before = await written();
    for (const [ticketing, field] of refusals) {
      const saved = await put(strict, { ticketing });
      expect(saved.statusCode, saved.body).toBe(400);
      expect(saved.json()).toMatchObject({ field, error: expect.stringContaining('where nothing is ever sent') });
      const tested = await probe(strict, { ticketing });
      expect(tested.statusCode, tested.body).toBe(400);
      expect((tested.json() as Json).field).toBe(field);
    }
    expect(await written()).toEqual(before);
  });

  // ── item: a stored ticket secret stays with the destination it was entered for ────────────

  it('keeps a stored ServiceNow password only for the same instance and user; a new host or user must bring its own, on save and in a draft test', async () => {
    const stored = { kind: 'servicenow', instanceUrl: sn.url, username: 'svc.changeledger', changeType: 'normal' };
    expect((await put(lenient, { ticketing: { ...stored, password: 'sn-pass' } })).statusCode).toBe(200);
    const before = await written();
    const moved: Json[] = [
      { ...stored, instanceUrl: elsewhere.url, password: '••••' },
      { ...stored, instanceUrl: `${elsewhere.url}/`, password: '' },
      { ...stored, instanceUrl: sn.url.replace('127.0.0.1', 'localhost') },
      { ...stored, instanceUrl: sn.url.replace('http:', 'https:'), password: '••••' },
      { ...stored, username: 'admin', password: '••••' },
    ];
    for (const ticketing of moved) {
      const saved = await put(lenient, { ticketing });
      expect(saved.statusCode, JSON.stringify(ticketing)).toBe(400);
      expect(saved.json()).toMatchObject({ field: 'ticketing.password', error: expect.stringContaining('re-enter the secret for the new destination') });
      const tested = await probe(lenient, { ticketing });
      expect(tested.statusCode, tested.body).toBe(400);
      expect((tested.json() as Json).field).toBe('ticketing.password');
    }
    // Nothing reached the other host, so the stored password never left for it; nothing was written.
    expect(elsewhere.received).toEqual([]);
    expect(await written()).toEqual(before);
    expect(JSON.stringify(await written())).not.toContain('sn-pass');

    // The same instance (a path or a trailing slash aside) and the same user keep it.
    const kept = await put(lenient, { ticketing: { ...stored, instanceUrl: `${sn.url}/`, assignmentGroup: 'CAB', password: '••••' } });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await probe(lenient, { ticketing: { ...stored, password: '••••' } })).json()).toMatchObject({ kind: 'servicenow', ok: true });
    // A new host with its own password is a new destination, saved.
    const fresh = await put(lenient, { ticketing: { ...stored, instanceUrl: elsewhere.url, password: 'other-pass' } });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const audit = (await auditActions('org_change.ticketing')).slice(-2).map((a) => a.data);
    expect(audit.map((a) => [a.secretChanged, a.host])).toEqual([[false, new URL(sn.url).host], [true, new URL(elsewhere.url).host]]);
  });

  it.each<[string, Json, Json, string]>([
    ['the Jira e-mail', { kind: 'jira', baseUrl: 'https://acme.atlassian.net', email: 'ops@acme.dev', projectKey: 'OPS' }, { email: 'someone@else.dev' }, 'ticketing.apiToken'],
    ['the Jira port', { kind: 'jira', baseUrl: 'https://acme.atlassian.net', email: 'ops@acme.dev', projectKey: 'OPS' }, { baseUrl: 'https://acme.atlassian.net:8443' }, 'ticketing.apiToken'],
    ['the Jira deployment (no e-mail any more)', { kind: 'jira', baseUrl: 'https://acme.atlassian.net', email: 'ops@acme.dev', projectKey: 'OPS' }, { deployment: 'datacenter', email: '' }, 'ticketing.apiToken'],
    ['the Asana API URL', { kind: 'asana', workspaceGid: '1', projectGid: '2' }, { apiUrl: 'https://asana.evil.dev' }, 'ticketing.token'],
    ['the webhook host', { kind: 'webhook', url: 'https://tickets.acme.dev/in' }, { url: 'https://tickets.acme.dev.evil.dev/in' }, 'ticketing.secret'],
  ])('asks for the secret again when %s changes', async (_what, base, change, field) => {
    const secretField = field.slice('ticketing.'.length);
    expect((await put(lenient, { ticketing: { ...base, [secretField]: 'a-secret-of-sixteen+' } })).statusCode).toBe(200);
    const before = await written();
    const r = await put(lenient, { ticketing: { ...base, ...change, [secretField]: '••••' } });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({ field, error: expect.stringContaining('re-enter the secret for the new destination') });
    expect(await written()).toEqual(before);
    // Unchanged, or with only its case changed (the same host), it is kept.
    const host = new URL(String(base.baseUrl ?? base.url ?? 'https://app.asana.com')).host;
    const sameHost = JSON.parse(JSON.stringify(base).replace(host, host.toUpperCase())) as Json;
    expect((await put(lenient, { ticketing: { ...sameHost, [secretField]: '' } })).statusCode).toBe(200);
  });
});
