import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { SettableClock } from '../../src/platform/clock.js';
import { describeEachEngine } from '../support/engines.js';
import { createToken, PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../support/test-app.js';
import { startRelay, startSpecReceiver, type Captured } from '../support/spec-receiver.js';

/**
 * The spec's own callback receivers, run as they are written (test/fixtures/callbacks, only the
 * header and variable names changed to ours): the Node receiver as a child process, and the bash +
 * openssl signature check; then the Standard Webhooks library on the same bytes. A change goes
 * approved → started → completed → reported, plus a test callback sent from the change page.
 *
 * The server reaches the receiver through a small recording relay: the callback secret exists only
 * once the change is registered (its callbackUrl already set), and the receiver reads the secret at
 * start and only then learns its port (its .listen(8080) becomes port 0), so callbackUrl names the
 * relay, started first. The relay keeps the raw bytes and headers the server sent and passes them
 * on unchanged, answering with the receiver's own status and body — so a delivery is `delivered`
 * only when the spec's receiver accepted it, and the shell check and the library see those bytes.
 */

const FIXTURES = fileURLToPath(new URL('../fixtures/callbacks/', import.meta.url));
const CHECK = join(FIXTURES, 'check-signature.sh');
const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: important }
`;
const MINUTE = 60_000;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const missingTools = ['bash', 'openssl'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
if (missingTools.length) console.warn(`callback-receivers: SKIPPING the spec's bash + openssl signature check: ${missingTools.join(' and ')} not installed (apt-get install ${missingTools.join(' ')})`);

/** The same bytes with one changed: the first letter of the event name (c → b), still valid JSON. */
function tamper(raw: Buffer): Buffer {
  const copy = Buffer.from(raw);
  const at = copy.indexOf('"event":"') + '"event":"'.length;
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

const header = (c: Captured, name: string) => String(c.headers[name]);

describeEachEngine('the spec\'s callback receivers accept every callback changeledger sends', (engine) => {
  const clock = new SettableClock(new Date());
  let t: TestApp;
  let owner: SignedIn;
  let alice: SignedIn;
  let token: string;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let receiver: Awaited<ReturnType<typeof startSpecReceiver>> | null = null;
  let change: Json;
  let secret: string;

  const pipe = (method: 'GET' | 'POST', url: string, payload?: Json) =>
    t.pipeline.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload }) });
  const drain = async () => {
    while ((await t.services.worker.runOnce()) > 0);
  };

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock, publicUrl: 'https://changes.acme.dev' });
    const created = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Callbacks', email: `olivia-${Math.random().toString(36).slice(2, 8)}@acme.dev`, password: PASSWORD });
    owner = await signIn(t, created.org, created.owner, PASSWORD);
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `alice-${owner.org.slug}@acme.dev`, role: 'member', displayName: 'alice', password: PASSWORD });
    alice = await signIn(t, owner.org, user, PASSWORD);
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    expect((await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-approvers`, headers: owner.headers, payload: { userIds: [alice.user.id] } })).statusCode).toBe(200);
    expect((await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { quorum: 1 } })).statusCode).toBe(200);
    token = (await createToken(t, owner, ['changes:read', 'changes:write'], 'pipeline')).secret;
    relay = await startRelay(clock);
  });
  afterAll(async () => {
    receiver?.stop();
    await relay?.close();
    await t?.close();
  });

  it('the Node receiver accepts every callback and prints it, refuses a tampered body with 401 and drops a replay', async () => {
    const r = await pipe('POST', '/api/changes', { title: 'Deploy checkout-api', components: [{ query: 'checkout-api' }], surveillanceMinutes: 15, callbackUrl: `${relay.url}/changeledger` });
    expect(r.statusCode, r.body).toBe(201);
    ({ change, callbackSecret: secret } = r.json() as { change: Json; callbackSecret: string });
    expect(secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    receiver = await startSpecReceiver(secret);
    relay.target = receiver.port;

    expect((await t.main.inject({ method: 'POST', url: `/api/changes/${change.id}/approve`, headers: alice.headers, payload: {} })).statusCode).toBe(200);
    await drain();
    expect((await pipe('POST', `/api/changes/${change.id}/start`)).statusCode).toBe(200);
    await drain();
    expect((await pipe('POST', `/api/changes/${change.id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
    await drain();
    clock.advance(16 * MINUTE); // past the surveillance horizon: the report follows
    await drain();
    const test = await t.main.inject({ method: 'POST', url: `/api/changes/${change.id}/callback-test`, headers: owner.headers });
    expect(test.statusCode, test.body).toBe(200);
    expect((test.json() as Json).delivery).toMatchObject({ event: 'change.test', state: 'delivered', httpStatus: 204, attempts: 1 });
    clock.advance(2 * MINUTE); // the test callback's fallback job finds it sent
    await drain();

    const events = ['change.approved', 'change.started', 'change.completed', 'change.reported', 'change.test'];
    const d = await pipe('GET', `/api/changes/${change.id}/deliveries`);
    expect(d.statusCode, d.body).toBe(200);
    const deliveries = (d.json() as Json).deliveries as Json[];
    expect(deliveries.map((x) => [x.channel, x.event, x.state, x.httpStatus, x.attempts, x.error])).toEqual(events.map((e) => ['callback', e, 'delivered', 204, 1, null]));

    // Sent once each, straight through, and answered 204 by the spec's receiver itself.
    expect(relay.received.map((c) => [c.path, header(c, 'x-changeledger-event'), c.answered])).toEqual(events.map((e) => ['/changeledger', e, 204]));
    expect(relay.received.map((c) => header(c, 'x-changeledger-delivery'))).toEqual(deliveries.map((x) => x.deliveryId));
    const states = [['approved', 'approved'], ['active', 'approved'], ['evaluating', 'approved'], ['reported', 'approved'], ['reported', 'approved']];
    expect(await receiver.waitForLines(5)).toEqual(events.map((e, i) => `${e} ${change.id} ${states[i]![0]} ${states[i]![1]}`));

    // Straight to the receiver, with the signature and delivery headers the server sent.
    const post = (body: Buffer, h: { event: string; delivery: string; signature: string }) => fetch(`http://127.0.0.1:${receiver!.port}/`, {
      method: 'POST', body,
      headers: { 'content-type': 'application/json', 'x-changeledger-event': h.event, 'x-changeledger-delivery': h.delivery, 'x-changeledger-signature': h.signature },
    });
    const sent = (c: Captured) => ({ event: header(c, 'x-changeledger-event'), delivery: header(c, 'x-changeledger-delivery'), signature: header(c, 'x-changeledger-signature') });
    const tampered = await post(tamper(relay.received[0]!.raw), sent(relay.received[0]!));
    expect([tampered.status, await tampered.text()]).toEqual([401, 'bad signature']);
    const replay = await post(relay.received[1]!.raw, sent(relay.received[1]!));
    expect(replay.status).toBe(204);
    // A new delivery signed with the same secret is printed next: neither the tampered body nor the replay printed a line.
    const fresh = Buffer.from(JSON.stringify({ event: 'change.fresh', deliveryId: 'dlv_fresh', occurredAt: clock.now().toISOString(), change: { id: change.id, status: 'reported', approval: { state: 'approved' } } }));
    const ok = await post(fresh, { event: 'change.fresh', delivery: 'dlv_fresh', signature: `sha256=${createHmac('sha256', secret).update(fresh).digest('hex')}` });
    expect(ok.status).toBe(204);
    const lines = await receiver.waitForLines(6);
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe(`change.fresh ${change.id} reported approved`);
  });

  it.skipIf(missingTools.length > 0)('the bash + openssl check says "signature ok" for every callback sent and "bad signature" for a tampered body', () => {
    expect(relay.received).toHaveLength(5);
    const dir = mkdtempSync(join(tmpdir(), 'changeledger-callback-check-'));
    const check = (body: Buffer, sig: string) => {
      writeFileSync(join(dir, 'body.json'), body);
      const r = spawnSync('bash', [CHECK], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SIG: sig, CHANGELEDGER_CALLBACK_SECRET: secret } });
      return [r.status, r.stdout, r.stderr];
    };
    try {
      for (const c of relay.received) expect(check(c.raw, header(c, 'x-changeledger-signature')), header(c, 'x-changeledger-event')).toEqual([0, 'signature ok\n', '']);
      for (const c of relay.received) expect(check(tamper(c.raw), header(c, 'x-changeledger-signature'))).toEqual([1, 'bad signature\n', '']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the Standard Webhooks signature of every callback verifies with the standardwebhooks package, and not once a byte is changed', () => {
    expect(relay.received).toHaveLength(5);
    const wh = new Webhook(secret, { format: 'raw' });
    // The library checks webhook-timestamp against Date.now() (± 5 minutes) and the test moved the
    // app's clock on by 18 minutes: each callback is verified at the time it arrived, by that clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const c of relay.received) {
        vi.setSystemTime(c.at);
        const headers = c.headers as Record<string, string>;
        expect(header(c, 'webhook-id')).toBe(header(c, 'x-changeledger-delivery'));
        expect(() => wh.verify(c.raw, headers), header(c, 'x-changeledger-event')).not.toThrow();
        expect((wh.verify(c.raw, headers) as Json).deliveryId).toBe(header(c, 'webhook-id'));
        expect(() => wh.verify(tamper(c.raw), headers)).toThrow('No matching signature found');
      }
    } finally {
      vi.useRealTimers();
    }
  });
});
