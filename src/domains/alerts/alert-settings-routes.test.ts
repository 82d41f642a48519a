import { createServer } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { startReceiver } from '../../../test/support/receiver.js';
import { startSmtpCapture, type SmtpCapture } from '../../../test/support/smtp-capture.js';
import { PASSWORD, signIn, signedInOwner, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { startPagerDutyEvents, type PagerDutyEventsServer } from '../../../test/support/vendors/pagerduty-events-server.js';
import { json, startVendorServer, type VendorControls } from '../../../test/support/vendors/vendor-server.js';
import { listAuditEvents } from '../ledger/index.js';
import { createSealer } from '../../platform/crypto/sealed.js';
import { createOutboundClient } from '../../platform/net/outbound.js';
import { AlertSettingsService } from './alert-settings.js';
import { DEFAULT_LABEL_MAPPING } from './label-mapping.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROUTING_KEY = 'R0UT1NGKEY0123456789abcdefABCDEF';

/** A port nothing listens on: bound, read, closed. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Alertmanager's GET /api/v2/status as 0.25 answers it, behind a bearer token. */
async function fakeAlertmanager(token: string): Promise<VendorControls> {
  return startVendorServer((r) => {
    if (r.headers.authorization !== `Bearer ${token}`) return json(401, 'Unauthorized');
    if (r.path !== '/api/v2/status') return json(404, 'not found');
    return json(200, { cluster: { name: '01HX', peers: [], status: 'ready' }, config: { original: '' }, uptime: '2026-12-01T10:00:00.000Z', versionInfo: { version: '0.25.0', branch: 'debian/sid' } });
  }, (status) => json(status, 'boom'));
}

describeEachEngine('Settings → Alert sources API', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let member: SignedIn;
  let smtp: SmtpCapture;
  /** The audit events of one action, oldest first. */
  const audit = async (action: string) => (await listAuditEvents(engine.db(), owner.org.id, { action }, 200)).items.filter((e) => e.action === action).reverse();
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who: SignedIn = owner) =>
    t.main.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const count = async (table: string) => Number((await engine.db().query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n);

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await testApp(engine.db(), { mail: { smtpUrl: smtp.url, from: 'changeledger@example.test' } });
    owner = await signedInOwner(t, 'Alert sources');
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `m${Math.random().toString(36).slice(2)}@x.test`, role: 'member', password: PASSWORD });
    member = await signIn(t, owner.org, user, PASSWORD);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  describe('hold mode and label mapping', () => {
    it('answers relay mode and the documented default mapping while nothing is saved', async () => {
      const res = await api('GET', '/api/alert-settings', undefined, member);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ holdMode: 'relay', labelMappingIsDefault: true, labelMapping: DEFAULT_LABEL_MAPPING, defaultLabelMapping: DEFAULT_LABEL_MAPPING, updatedAt: null });
    });

    it('refuses a bad mapping with 400 naming the rule and field in words, and writes nothing', async () => {
      const before = { rows: await count('alert_settings'), audit: (await audit('settings.alerts_updated')).length };
      const res = await api('PUT', '/api/alert-settings', { holdMode: 'silence', labelMapping: [{ labels: ['service'], as: 'service' }, { labels: ['job'], as: 'source' }, { labels: ['9lives'], as: 'service' }] });
      expect(res.statusCode).toBe(400);
      const body = res.json() as Json;
      expect(body.field).toBe('labelMapping.2.labels.0');
      expect(body.error).toMatch(/Prometheus label name/);
      expect(body.error).not.toMatch(/labelMapping\.2/);
      const unknownKind = await api('PUT', '/api/alert-settings', { labelMapping: [{ labels: ['host'], as: 'machine' }] });
      expect(unknownKind.statusCode).toBe(400);
      expect(unknownKind.json()).toMatchObject({ field: 'labelMapping.0.as' });
      expect(await count('alert_settings')).toBe(before.rows);
      expect((await audit('settings.alerts_updated')).length).toBe(before.audit);
    });

    it('lets a member read but not write', async () => {
      const res = await api('PUT', '/api/alert-settings', { holdMode: 'silence' }, member);
      expect(res.statusCode).toBe(403);
      expect(await count('alert_settings')).toBe(0);
    });

    it('saves the hold mode and a mapping, audited with what changed; null goes back to the defaults', async () => {
      const mapping = [{ labels: ['service'], as: 'service' }, { labels: ['instance'], as: 'asset', kinds: ['host'] }];
      const res = await api('PUT', '/api/alert-settings', { holdMode: 'silence', labelMapping: mapping });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ holdMode: 'silence', labelMapping: mapping, labelMappingIsDefault: false });
      const [ev] = await audit('settings.alerts_updated');
      expect(ev!.data).toMatchObject({ changed: { holdMode: { from: 'relay', to: 'silence' }, labelMapping: { from: 'defaults', to: mapping } } });
      const back = await api('PUT', '/api/alert-settings', { holdMode: 'relay', labelMapping: null });
      expect(back.json()).toMatchObject({ holdMode: 'relay', labelMappingIsDefault: true, labelMapping: DEFAULT_LABEL_MAPPING });
    });

    it('writes nothing when an update changes nothing (an empty body, or the values already set)', async () => {
      const events = (await audit('settings.alerts_updated')).length;
      for (const body of [{}, { holdMode: 'relay' }, { labelMapping: null }]) {
        const res = await api('PUT', '/api/alert-settings', body);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ holdMode: 'relay', labelMappingIsDefault: true });
      }
      expect((await audit('settings.alerts_updated')).length).toBe(events);
    });
  });

  describe('Alertmanagers', () => {
    let am: VendorControls;
    beforeAll(async () => {
      am = await fakeAlertmanager('am-token-s3cret');
    });
    afterAll(() => am.close());

    it('refuses a URL that can never be reached with 400 naming url, and writes nothing', async () => {
      for (const url of ['http://169.254.169.254/', 'http://user:pw@alertmanager:9093', 'ftp://alertmanager']) {
        const res = await api('POST', '/api/alertmanagers', { name: 'AM', url });
        expect(res.statusCode, url).toBe(400);
        expect((res.json() as Json).field).toBe('url');
      }
      expect(await count('alertmanagers')).toBe(0);
      expect(await audit('alertmanager.created')).toHaveLength(0);
    });

    it('takes a private address (Alertmanagers live on the organisation’s network) and never answers the credentials', async () => {
      const res = await api('POST', '/api/alertmanagers', { name: 'Office AM', url: 'http://10.1.2.3:9093/', auth: { kind: 'basic', username: 'alice', password: 'pa55word-s3cret' } });
      expect(res.statusCode).toBe(201);
      expect(res.json().alertmanager).toMatchObject({ name: 'Office AM', url: 'http://10.1.2.3:9093', authKind: 'basic', hasAuth: true, authHint: 'basic auth as alice' });
      expect(res.body).not.toContain('pa55word-s3cret');
      const stored = await engine.db().query<{ auth_sealed: string }>('SELECT auth_sealed FROM alertmanagers');
      expect(stored.rows[0]!.auth_sealed).not.toContain('pa55word');
      const [ev] = await audit('alertmanager.created');
      expect(JSON.stringify(ev!.data)).not.toContain('pa55word');
    });

    it('tests an Alertmanager: its version and cluster, in words', async () => {
      const made = await api('POST', '/api/alertmanagers', { name: 'Loopback AM', url: am.url, auth: { kind: 'bearer', token: 'am-token-s3cret' } });
      const id = made.json().alertmanager.id as string;
      const list = await api('GET', '/api/alertmanagers', undefined, member);
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain('am-token-s3cret');
      const res = await api('POST', `/api/alertmanagers/${id}/test`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, version: '0.25.0', cluster: 'ready', problem: null });
      expect(am.requests.at(-1)!.headers.authorization).toBe('Bearer am-token-s3cret');
      // A wrong token: Alertmanager's own refusal, in words.
      await api('PUT', `/api/alertmanagers/${id}`, { auth: { kind: 'bearer', token: 'wrong' } });
      const refused = await api('POST', `/api/alertmanagers/${id}/test`);
      expect(refused.json()).toMatchObject({ ok: false, problem: 'Alertmanager answered 401: Unauthorized' });
      expect((await audit('alertmanager.tested')).map((e) => e.data.ok)).toEqual([true, false]);
      const member403 = await api('POST', `/api/alertmanagers/${id}/test`, undefined, member);
      expect(member403.statusCode).toBe(403);
    });

    it('refuses a loopback Alertmanager outside tests (only the tests’ client reaches loopback)', async () => {
      const real = new AlertSettingsService({ db: engine.db(), clock: t.clock, sealer: createSealer(t.dataKey), client: createOutboundClient(), relay: t.services.relay });
      await expect(real.createAlertmanager(testCtx, { org: owner.org, role: 'owner' }, { name: 'Local', url: 'http://127.0.0.1:9093' })).rejects.toMatchObject({ status: 400, field: 'url' });
      await expect(real.createAlertmanager(testCtx, { org: owner.org, role: 'owner' }, { name: 'LAN', url: 'http://192.168.1.20:9093' })).resolves.toMatchObject({ url: 'http://192.168.1.20:9093' });
    });

    it('says an unreachable Alertmanager is unreachable', async () => {
      const made = await api('POST', '/api/alertmanagers', { name: 'Gone AM', url: `http://127.0.0.1:${await closedPort()}` });
      const res = await api('POST', `/api/alertmanagers/${made.json().alertmanager.id as string}/test`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: false, version: null, cluster: null, problem: 'connection refused' });
    });

    it('keeps the stored credentials when an update leaves them out, and deletes with an audit event', async () => {
      const made = await api('POST', '/api/alertmanagers', { name: 'Keep', url: `${am.url}/keep`, auth: { kind: 'bearer', token: 'am-token-s3cret' } });
      const id = made.json().alertmanager.id as string;
      const renamed = await api('PUT', `/api/alertmanagers/${id}`, { name: 'Kept', url: am.url.replace('127.0.0.1', '127.0.0.2') });
      expect(renamed.json().alertmanager).toMatchObject({ name: 'Kept', authKind: 'bearer', hasAuth: true });
      const dup = await api('POST', '/api/alertmanagers', { name: 'Again', url: am.url });
      expect(dup.statusCode).toBe(409);
      const del = await api('DELETE', `/api/alertmanagers/${id}`);
      expect(del.statusCode).toBe(204);
      expect((await audit('alertmanager.deleted')).map((e) => e.data.name)).toEqual(['Kept']);
      expect((await api('DELETE', `/api/alertmanagers/${id}`)).statusCode).toBe(404);
    });
  });

  describe('relay destinations', () => {
    let hook: Awaited<ReturnType<typeof startReceiver>>;
    let pd: PagerDutyEventsServer;
    beforeAll(async () => {
      hook = await startReceiver({ status: 200, body: '{"ok":true}' });
      pd = await startPagerDutyEvents();
    });
    afterAll(async () => {
      await hook.close();
      await pd.close();
    });

    it('refuses bad destinations with 400 naming the field, and writes nothing', async () => {
      const cases: Array<[Json, string]> = [
        [{ kind: 'webhook', name: 'Meta', url: 'http://169.254.169.254/latest' }, 'url'],
        [{ kind: 'webhook', name: 'No URL' }, 'url'],
        [{ kind: 'email', name: 'Ops', to: ['ops@acme.dev', 'not-an-address'] }, 'to.1'],
        [{ kind: 'pagerduty', name: 'PD', routingKey: 'has spaces in it' }, 'routingKey'],
        [{ kind: 'slack', name: 'Chat', url: 'https://hooks.slack.example/x', to: ['a@b.test'] }, 'to'],
        [{ kind: 'email', name: 'nul\u0000inside', to: ['ops@acme.dev'] }, 'name'],
      ];
      for (const [payload, field] of cases) {
        const res = await api('POST', '/api/alert-destinations', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect((res.json() as Json).field).toBe(field);
      }
      expect(await count('alert_destinations')).toBe(0);
      expect(await audit('alert_destination.created')).toHaveLength(0);
    });

    it('answers a webhook’s signing secret once; never its URL path or secret again', async () => {
      const res = await api('POST', '/api/alert-destinations', { kind: 'webhook', name: 'Receiver', url: `${hook.url}/hooks/t0ps3cret-path` });
      expect(res.statusCode).toBe(201);
      const body = res.json() as Json;
      expect(body.signingSecret).toMatch(/^whsec_/);
      expect(body.destination).toMatchObject({ kind: 'webhook', name: 'Receiver', hasSecret: true, host: new URL(hook.url).host, lastDelivery: null });
      expect(res.body).not.toContain('t0ps3cret-path');
      const list = await api('GET', '/api/alert-destinations', undefined, member);
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(body.signingSecret as string);
      expect(list.body).not.toContain('t0ps3cret-path');
      const [ev] = await audit('alert_destination.created');
      expect(JSON.stringify(ev!.data)).not.toContain('t0ps3cret');
      expect(JSON.stringify(ev!.data)).not.toContain(body.signingSecret as string);
    });

    it('tests a webhook: a signed sample in Alertmanager’s webhook shape that Standard Webhooks verifies', async () => {
      const made = await api('POST', '/api/alert-destinations', { kind: 'webhook', name: 'Signed', url: `${hook.url}/signed` });
      const { destination, signingSecret } = made.json() as Json;
      const res = await api('POST', `/api/alert-destinations/${destination.id as string}/test`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ ok: true, status: 200, message: `Delivered: ${new URL(hook.url).host} answered 200` });
      expect(res.json().destination.lastDelivery).toMatchObject({ ok: true, status: 200, error: null });
      const got = hook.received.at(-1)!;
      expect(got.path).toBe('/signed');
      const verified = new Webhook(signingSecret as string, { format: 'raw' }).verify(got.raw.toString('utf8'), got.headers as Record<string, string>) as Json;
      expect(verified).toMatchObject({ version: '4', status: 'firing', receiver: 'Signed', test: true, alerts: [{ labels: { alertname: 'ChangeledgerTest' }, fingerprint: 'changeledger-test' }] });
      expect(got.headers['x-changeledger-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect((await audit('alert_destination.tested')).at(-1)!.data).toMatchObject({ kind: 'webhook', ok: true, httpStatus: 200 });
    });

    it('tests PagerDuty against its replayed Events API: a trigger and its resolve, or its refusal in words', async () => {
      const made = await api('POST', '/api/alert-destinations', { kind: 'pagerduty', name: 'Pager', routingKey: ROUTING_KEY, eventsUrl: pd.eventsUrl });
      expect(made.statusCode).toBe(201);
      expect(made.json().destination).toMatchObject({ eventsUrl: pd.eventsUrl, secretHint: 'routing key ••••CDEF' });
      expect(made.body).not.toContain(ROUTING_KEY);
      const res = await api('POST', `/api/alert-destinations/${made.json().destination.id as string}/test`);
      expect(res.json()).toMatchObject({ ok: true, status: 202 });
      expect(pd.requests.map((r) => (r.body as Json).event_action)).toEqual(['trigger', 'resolve']);
      expect(pd.requests[0]!.body).toMatchObject({ routing_key: ROUTING_KEY, dedup_key: 'changeledger-test', payload: { severity: 'info', source: 'changeledger' } });
      // PagerDuty refuses a routing key that is not 32 characters: its own words come back.
      const bad = await api('POST', '/api/alert-destinations', { kind: 'pagerduty', name: 'Short key', routingKey: 'shortkey123', eventsUrl: pd.eventsUrl });
      const refused = await api('POST', `/api/alert-destinations/${bad.json().destination.id as string}/test`);
      expect(refused.json()).toMatchObject({ ok: false, status: 400 });
      expect(refused.json().message).toBe("Not delivered: PagerDuty answered 400: invalid event: Event object is invalid — 'routing_key' must be 32 characters");
      expect(refused.json().destination.lastDelivery).toMatchObject({ ok: false, status: 400 });
    });

    it('tests Slack and e-mail destinations', async () => {
      const slack = await api('POST', '/api/alert-destinations', { kind: 'slack', name: 'Chat', url: `${hook.url}/services/T0/B0/XYZ` });
      const s = await api('POST', `/api/alert-destinations/${slack.json().destination.id as string}/test`);
      expect(s.json()).toMatchObject({ ok: true });
      expect(hook.received.at(-1)!.json.text).toMatch(/A test from changeledger/);
      const mail = await api('POST', '/api/alert-destinations', { kind: 'email', name: 'Ops mail', to: ['ops@acme.dev', 'sre@acme.dev'] });
      expect(mail.json().destination).toMatchObject({ to: ['ops@acme.dev', 'sre@acme.dev'], hasSecret: false });
      const m = await api('POST', `/api/alert-destinations/${mail.json().destination.id as string}/test`);
      expect(m.json()).toMatchObject({ ok: true, message: 'Sent to ops@acme.dev, sre@acme.dev' });
      expect(smtp.messages.map((x) => x.envelope.to).flat()).toEqual(expect.arrayContaining(['ops@acme.dev', 'sre@acme.dev']));
    });

    it('refuses a private destination at send time unless the organisation allows private callbacks', async () => {
      const made = await api('POST', '/api/alert-destinations', { kind: 'webhook', name: 'Private', url: 'http://10.255.255.1/hook' });
      expect(made.statusCode).toBe(201);
      const res = await api('POST', `/api/alert-destinations/${made.json().destination.id as string}/test`);
      expect(res.json()).toMatchObject({ ok: false, status: null });
      expect(res.json().message).toBe('Not delivered: refused: 10.255.255.1 is a private address (RFC 1918, CGNAT or unique-local) — the organisation’s change settings can allow private addresses (allowPrivateCallbacks)');
    });

    it('says an unreachable destination is unreachable', async () => {
      const made = await api('POST', '/api/alert-destinations', { kind: 'webhook', name: 'Gone', url: `http://127.0.0.1:${await closedPort()}/x` });
      const res = await api('POST', `/api/alert-destinations/${made.json().destination.id as string}/test`);
      expect(res.json()).toMatchObject({ ok: false, status: null });
      expect(res.json().message).toMatch(/^Not delivered: .*unreachable \(ECONNREFUSED\)/);
    });

    it('updates keep the secret, cannot change the kind, and members may not write', async () => {
      const made = await api('POST', '/api/alert-destinations', { kind: 'webhook', name: 'Edit me', url: `${hook.url}/edit` });
      const id = made.json().destination.id as string;
      const renamed = await api('PUT', `/api/alert-destinations/${id}`, { name: 'Edited', enabled: false });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().destination).toMatchObject({ name: 'Edited', enabled: false, hasSecret: true });
      expect((await audit('alert_destination.updated')).at(-1)!.data).toMatchObject({ changed: ['name', 'enabled'] });
      const kind = await api('PUT', `/api/alert-destinations/${id}`, { kind: 'slack' } as Json);
      expect(kind.statusCode).toBe(400);
      expect((await api('PUT', `/api/alert-destinations/${id}`, { name: 'Mine' }, member)).statusCode).toBe(403);
      expect((await api('DELETE', `/api/alert-destinations/${id}`, undefined, member)).statusCode).toBe(403);
      expect((await api('DELETE', `/api/alert-destinations/${id}`)).statusCode).toBe(204);
      expect((await audit('alert_destination.deleted')).at(-1)!.data).toMatchObject({ name: 'Edited' });
    });
  });
});
