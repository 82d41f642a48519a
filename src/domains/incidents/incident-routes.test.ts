import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

/** A Slack-compatible incoming webhook on loopback that records what it is sent. */
async function channel(): Promise<{ url: string; posts: Array<{ text: string }>; failNext: (n: number) => void; close: () => Promise<void> }> {
  const posts: Array<{ text: string }> = [];
  let failures = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (failures > 0) {
        failures -= 1;
        res.writeHead(503).end('try later');
        return;
      }
      posts.push(JSON.parse(body) as { text: string });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/services/T000/B000/XXXX`,
    posts, failNext: (n) => (failures = n), close: () => new Promise((r) => server.close(() => r())),
  };
}

describeEachEngine('incidents see the recent flag changes of their services', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let ch: Awaited<ReturnType<typeof channel>>;
  let secret: string;
  const start = new Date('2026-07-22T14:00:00.000Z');
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Incidents');
    ch = await channel();
    secret = (await createToken(t, owner, ['flags:read'], 'pagerduty')).secret;
    const api = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) => t.main.inject({ method, url, headers: owner.headers, payload });
    t.clock.set('2026-07-22T11:00:00.000Z');
    await api('POST', '/api/flags', { key: 'ops.payments.new-processor', type: 'boolean', risk: 'low', ownerService: 'payments' });
    await api('POST', '/api/flags', { key: 'ops.payments.retry', type: 'boolean', risk: 'low', ownerService: 'payments' });
    await api('POST', '/api/flags', { key: 'ops.search.ranking', type: 'boolean', risk: 'low', ownerService: 'search' });
    t.clock.set('2026-07-22T12:30:00.000Z');
    await api('PUT', '/api/flags/ops.payments.retry/environments/production', { enabled: true, reason: 'too early to matter' });
    t.clock.set('2026-07-22T13:56:00.000Z');
    await api('PUT', '/api/flags/ops.payments.new-processor/environments/production', { enabled: true, reason: 'GA of the new processor' });
    await api('PUT', '/api/flags/ops.search.ranking/environments/production', { enabled: true, reason: 'other service' });
    t.clock.set('2026-07-22T14:01:00.000Z');
    owner = await (await import('../../../test/support/test-app.js')).signIn(t, owner.org, owner.user, 'correct horse battery staple');
  });
  afterAll(async () => {
    await ch.close();
    await t.close();
  });

  const pd = { event: { id: 'evt-1', event_type: 'incident.triggered', resource_type: 'incident', occurred_at: start.toISOString(), data: { id: 'PT4KHLK', type: 'incident', title: 'Checkout errors', html_url: 'https://acme.pagerduty.com/incidents/PT4KHLK', created_at: start.toISOString(), service: { id: 'PIJ90N7', summary: 'payments', type: 'service_reference' } } } };
  const hook = (source: string, body: unknown, headers: Record<string, string> = {}) => {
    const raw = JSON.stringify(body);
    return t.pipeline.inject({ method: 'POST', url: `/api/incidents/hooks/${source}`, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...headers }, payload: raw });
  };
  const sign = (body: unknown, key: string) => `v1=${createHmac('sha256', key).update(JSON.stringify(body)).digest('hex')}`;

  it('without a channel, answers the changes and says nothing was posted', async () => {
    const res = await hook('generic', { title: 'Search slow', services: ['search'], startedAt: start.toISOString() });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ delivery: 'no channel configured' });
    expect(res.json().flagChanges.map((r: { flag: string }) => r.flag)).toEqual(['ops.search.ranking']);
  });

  it('a signed PagerDuty incident posts one line per change of its services in the hour before, once', async () => {
    const settings = await t.main.inject({ method: 'PUT', url: '/api/settings/incidents', headers: owner.headers, payload: { channelUrl: ch.url, pagerdutySecret: 'whsec-test-123' } });
    expect(settings.json()).toEqual({ channelConfigured: true, channelHost: new URL(ch.url).host, pagerdutySigning: true });
    const bad = await hook('pagerduty', pd, { 'x-pagerduty-signature': sign(pd, 'wrong') });
    expect(bad.statusCode).toBe(401);
    const res = await hook('pagerduty', pd, { 'x-pagerduty-signature': sign(pd, 'whsec-test-123') });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ delivery: 'queued', incident: { title: 'Checkout errors', services: ['payments'] } });
    expect(res.json().flagChanges.map((r: { flag: string }) => r.flag)).toEqual(['ops.payments.new-processor']);
    expect(await t.services.worker.runOnce()).toBe(1);
    expect(ch.posts).toHaveLength(1);
    const lines = ch.posts[0]!.text.split('\n');
    expect(lines[0]).toMatch(/^Flag changes in the hour before "Checkout errors" \(payments\)/);
    expect(lines[1]).toBe(`2026-07-22T13:56:00.000Z ${owner.user.email} ops.payments.new-processor [production]: false->true (GA of the new processor)`);
    expect(lines).toHaveLength(2);
    const again = await hook('pagerduty', pd, { 'x-pagerduty-signature': sign(pd, 'whsec-test-123') });
    expect(again.json().delivery).toBe('duplicate');
    await t.services.worker.runOnce();
    expect(ch.posts).toHaveLength(1);
    const ev = (await listAuditEvents(engine.db(), owner.org.id, { action: 'incident.' }, 5)).items.map((e) => e.action);
    expect(ev).toEqual(expect.arrayContaining(['incident.opened', 'incident.posted']));
    const stored = JSON.stringify((await engine.db().query('SELECT * FROM incident_settings')).rows) + JSON.stringify((await engine.db().query('SELECT data FROM audit_events')).rows);
    expect(stored).not.toContain('/services/T000/B000/XXXX');
    expect(stored).not.toContain('whsec-test-123');
  });

  it('ignores PagerDuty events other than a trigger', async () => {
    const ack = { event: { ...pd.event, event_type: 'incident.acknowledged' } };
    const res = await hook('pagerduty', ack, { 'x-pagerduty-signature': sign(ack, 'whsec-test-123') });
    expect(res.json()).toMatchObject({ delivery: 'ignored', incident: null });
  });

  it('retries a post the channel refused, on the durable job table', async () => {
    ch.failNext(1);
    const body = { title: 'Payments retry storm', services: ['payments'], startedAt: start.toISOString(), id: 'storm-1' };
    expect((await hook('generic', body)).json().delivery).toBe('queued');
    expect(await t.services.worker.runOnce()).toBe(1);
    expect(ch.posts).toHaveLength(1);
    t.clock.advance(60_000);
    expect(await t.services.worker.runOnce()).toBe(1);
    expect(ch.posts).toHaveLength(2);
    expect(ch.posts[1]!.text).toMatch(/Payments retry storm/);
  });

  it('refuses a notice without services with 400 naming the field, writing nothing', async () => {
    const res = await hook('generic', { title: 'x', startedAt: start.toISOString() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'services' });
  });

  it('lists the same changes at /api/flags/recent', async () => {
    const res = await t.pipeline.inject({ url: `/api/flags/recent?services=payments&since=${encodeURIComponent('2026-07-22T13:00:00Z')}&until=${encodeURIComponent(start.toISOString())}`, headers: { authorization: `Bearer ${secret}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((r: { flag: string; reason: string }) => [r.flag, r.reason])).toEqual([['ops.payments.new-processor', 'GA of the new processor']]);
  });
});
