import { createHmac } from 'node:crypto';
import { CloudEvent, HTTP } from 'cloudevents';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { pipelineOrganization } from '../../../test/support/pipeline-org.js';
import { startReceiver, type Received } from '../../../test/support/receiver.js';
import { PASSWORD, signIn, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import { listAuditEvents } from '../ledger/index.js';
import { CDEVENTS_SERVICE_DEPLOYED } from './cloud-event.js';
import { RETRY_AFTER_MS } from './delivery-rule.js';

const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: important }
`;
const PUBLIC_URL = 'https://changes.acme.dev';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** What a receiver using the cloudevents SDK makes of a request. */
const asEvent = (r: Received) => HTTP.toEvent({ headers: r.headers, body: r.raw.toString('utf8') }) as CloudEvent<Json>;

describeEachEngine('callbacks as CloudEvents 1.0 (structured mode), per change', (engine) => {
  const clock = new SettableClock(new Date());
  let t: TestApp;
  let owner: SignedIn;
  let alice: SignedIn;
  let mia: SignedIn;
  let token: string;
  let hook: Receiver;
  let n = 0;

  const inject = (s: SignedIn, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.main.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const pipe = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.pipeline.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const drain = async () => {
    while ((await t.services.worker.runOnce()) > 0);
  };
  const register = async (body: Json = {}) => {
    const r = await pipe('POST', '/api/changes', { components: [{ query: 'checkout-api' }], surveillanceMinutes: 15, callbackUrl: `${hook.url}/ci`, ...body, title: `Deploy #${++n}` });
    expect(r.statusCode, r.body).toBe(201);
    return r.json() as { change: Json; callbackSecret: string };
  };
  const approve = async (id: string) => expect((await inject(alice, 'POST', `/api/changes/${id}/approve`, {})).statusCode).toBe(200);
  const forChange = (id: string) => hook.received.filter((x) => x.headers['x-changeledger-delivery'] && (x.json.change?.id === id || x.json.data?.change?.id === id || x.json.data?.customData?.change?.id === id));
  const audit = async (id: string) => (await listAuditEvents(engine.db(), owner.org.id, { targetType: 'change', targetId: id }, 100)).items;
  const counts = async () => {
    const r = await engine.db().query<{ changes: number; events: number }>(
      'SELECT (SELECT count(*)::int FROM changes WHERE org_id = $1) AS changes, (SELECT count(*)::int FROM audit_events WHERE org_id = $1) AS events', [owner.org.id],
    );
    return r.rows[0]!;
  };

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock, publicUrl: PUBLIC_URL, outboundTimeoutMs: 400 });
    ({ owner, alice, mia, token } = await pipelineOrganization(t, 'CloudEvents', ESTATE));
    hook = await startReceiver();
  });
  beforeEach(async () => {
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
    alice = await signIn(t, alice.org, alice.user, PASSWORD);
    mia = await signIn(t, mia.org, mia.user, PASSWORD);
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  it('keeps the old format by default: application/json {event, deliveryId, occurredAt, change}', async () => {
    const { change } = await register();
    expect(change.callbackFormat).toBe('changeledger');
    await approve(change.id);
    await drain();
    const [got] = forChange(change.id);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(Object.keys(got!.json)).toEqual(['event', 'deliveryId', 'occurredAt', 'change']);
    expect(HTTP.isEvent({ headers: got!.headers, body: got!.raw.toString('utf8') })).toBe(false);
  });

  it('sends a structured CloudEvent the SDK reads back, signed like any callback, with the plain payload as data', async () => {
    const { change, callbackSecret } = await register({ callbackFormat: 'cloudevents' });
    expect(change.callbackFormat).toBe('cloudevents');
    const shown = await pipe('GET', `/api/changes/${change.id}/deliveries`);
    expect(shown.json()).toMatchObject({ callbackUrl: `${hook.url}/ci`, callbackFormat: 'cloudevents' });
    const registered = (await audit(change.id)).find((e) => e.action === 'change.registered');
    expect(registered?.data).toMatchObject({ callbackFormat: 'cloudevents' });

    await approve(change.id);
    await drain();
    const [got] = forChange(change.id);
    expect(got!.headers['content-type']).toBe('application/cloudevents+json; charset=utf-8');
    const e = asEvent(got!);
    const deliveryId = got!.headers['x-changeledger-delivery'];
    expect(e).toMatchObject({
      specversion: '1.0', id: deliveryId, type: 'dev.changeledger.change.approved', subject: change.displayId, changeid: change.displayId,
      source: `${PUBLIC_URL}/organizations/${owner.org.slug}`, datacontenttype: 'application/json',
    });
    expect(e.time).toBe(e.data!.occurredAt);
    expect(e.data).toMatchObject({ event: 'change.approved', deliveryId, change: { id: change.id, status: 'approved' } });
    // The same two signatures over the raw bytes, and the same delivery headers.
    expect(got!.headers['x-changeledger-signature']).toBe(`sha256=${createHmac('sha256', callbackSecret).update(got!.raw).digest('hex')}`);
    expect(got!.headers['x-changeledger-event']).toBe('change.approved');
    expect(got!.headers['webhook-id']).toBe(deliveryId);
    expect(new Webhook(callbackSecret, { format: 'raw' }).verify(got!.raw.toString('utf8'), got!.headers as Record<string, string>)).toMatchObject({ specversion: '1.0', id: deliveryId });
  });

  it('sends a retried CloudEvent byte for byte, under the same id', async () => {
    const { change } = await register({ callbackFormat: 'cloudevents' });
    hook.answers.push({ status: 503 });
    await approve(change.id);
    await drain();
    expect(forChange(change.id)).toHaveLength(1);
    clock.advance(RETRY_AFTER_MS[0]!);
    await drain();
    const [first, second] = forChange(change.id);
    expect(second).toBeDefined();
    expect(second!.raw.equals(first!.raw)).toBe(true);
    expect(asEvent(second!).id).toBe(asEvent(first!).id);
    expect(asEvent(second!).id).toBe(second!.headers['x-changeledger-delivery']);
    const status = (await pipe('GET', `/api/changes/${change.id}/status`)).json() as Json;
    expect(status.callback).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  it('sends a deploy completed with success as the CDEvents service.deployed event; other events stay ours', async () => {
    const { change } = await register({ callbackFormat: 'cloudevents', kind: 'deploy', previousVersion: '1.4.1', pipeline: { environment: 'production', version: '1.4.2', pipeline: 'checkout' } });
    await approve(change.id);
    const started = await pipe('POST', `/api/changes/${change.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect((await pipe('POST', `/api/changes/${change.id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
    await drain();
    const events = forChange(change.id).map(asEvent);
    expect(events.map((e) => e.type)).toEqual(['dev.changeledger.change.approved', 'dev.changeledger.change.started', CDEVENTS_SERVICE_DEPLOYED]);
    const deployed = events[2]!;
    const source = `${PUBLIC_URL}/organizations/${owner.org.slug}`;
    // The CDEvents binding: the CloudEvent's subject is the CDEvent subject's id; the change rides in changeid.
    expect(deployed).toMatchObject({ subject: 'svc:checkout-api', changeid: change.displayId, source });
    expect(deployed.data).toEqual({
      context: { version: '0.4.1', id: deployed.id, source, type: CDEVENTS_SERVICE_DEPLOYED, timestamp: deployed.time },
      subject: { id: 'svc:checkout-api', source, type: 'service', content: { environment: { id: 'production' }, artifactId: 'pkg:generic/checkout-api@1.4.2' } },
      customData: expect.objectContaining({ event: 'change.completed', deliveryId: deployed.id, change: expect.objectContaining({ id: change.id, deployment: expect.objectContaining({ outcome: 'success' }) }) }),
      customDataContentType: 'application/json',
    });

    const config = await register({ callbackFormat: 'cloudevents', kind: 'config' });
    await approve(config.change.id);
    expect((await pipe('POST', `/api/changes/${config.change.id}/start`)).statusCode).toBe(200);
    expect((await pipe('POST', `/api/changes/${config.change.id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
    await drain();
    expect(forChange(config.change.id).map((r) => asEvent(r).type).at(-1)).toBe('dev.changeledger.change.completed');
  });

  it('sends the test callback as dev.changeledger.change.test', async () => {
    const { change } = await register({ callbackFormat: 'cloudevents' });
    const r = await inject(mia, 'POST', `/api/changes/${change.id}/callback-test`);
    expect(r.statusCode, r.body).toBe(200);
    const got = forChange(change.id).at(-1)!;
    expect(asEvent(got)).toMatchObject({ type: 'dev.changeledger.change.test', id: r.json().delivery.deliveryId, subject: change.displayId });
    expect((await audit(change.id)).find((e) => e.action === 'change.callback_test')?.data).toMatchObject({ format: 'cloudevents' });
  });

  it('refuses a bad callbackFormat with 400 naming the field, and writes nothing', async () => {
    const before = await counts();
    const bad = await pipe('POST', '/api/changes', { title: 'Bad format', components: [{ query: 'checkout-api' }], callbackUrl: `${hook.url}/ci`, callbackFormat: 'xml' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'callbackFormat' });
    expect(await counts()).toEqual(before);

    const { change } = await register();
    const mid = await counts();
    const badEdit = await pipe('PUT', `/api/changes/${change.id}`, { callbackFormat: 'CloudEvents' });
    expect(badEdit.statusCode).toBe(400);
    expect(badEdit.json()).toMatchObject({ field: 'callbackFormat' });
    expect(await counts()).toEqual(mid);
  });

  it('changes the format with an edit, audited from and to', async () => {
    const { change } = await register({ windowStart: new Date(clock.now().getTime() + 3_600_000).toISOString(), windowEnd: new Date(clock.now().getTime() + 7_200_000).toISOString() });
    const r = await pipe('PUT', `/api/changes/${change.id}`, { callbackFormat: 'cloudevents' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().change.callbackFormat).toBe('cloudevents');
    const edited = (await audit(change.id)).find((e) => e.action === 'change.edited');
    expect(edited?.data).toMatchObject({ fields: expect.arrayContaining(['callbackFormat']), callbackFormat: { from: 'changeledger', to: 'cloudevents' } });
    expect((await inject(owner, 'GET', `/api/changes/${change.id}`)).json().change.callbackFormat).toBe('cloudevents');
    // An edit that does not name it keeps it.
    const retitled = await pipe('PUT', `/api/changes/${change.id}`, { title: 'Renamed' });
    expect(retitled.statusCode, retitled.body).toBe(200);
    expect(retitled.json().change.callbackFormat).toBe('cloudevents');
  });
});
