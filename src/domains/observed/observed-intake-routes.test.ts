import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { addChangeSource, anEvent } from '../../../test/support/observed-intake.js';
import { countRows, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import { badRequest } from '../../platform/errors.js';
import type { IntakeAdapter, ObservedEvent, Parsed } from './observed-types.js';
import { bearerMatches, sameSecret } from './sources/auth.js';
import { INTAKE_ADAPTERS } from './sources/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The route's mechanics with an adapter of this file (the real adapters have their own tests):
 * {type: 'ping'} is ignored, {events: [...]} is read item by item, an item without a title is
 * rejected, a body without `events` is a 400 naming it.
 */
function readEvents(body: unknown): Parsed {
  const b = body as { type?: string; events?: unknown };
  if (b?.type === 'ping') return { events: [], ignored: 1, noise: 0, rejected: [] };
  if (!Array.isArray(b?.events)) throw badRequest('events must be a list of changes', 'events');
  const out: Parsed = { events: [], ignored: 0, noise: 0, rejected: [] };
  b.events.forEach((e: Partial<ObservedEvent>, index: number) => {
    if (typeof e?.title !== 'string') out.rejected.push({ index, field: `events.${index}.title`, message: 'title is required' });
    else out.events.push(anEvent({ kind: 'change', ...e }));
  });
  return out;
}
const testWebhook: IntakeAdapter = { kind: 'webhook', authenticate: bearerMatches, parse: (req) => readEvents(req.body) };
const testPagerDuty: IntakeAdapter = {
  kind: 'pagerduty',
  authenticate: async (req, secret) => sameSecret((req.body as { routing_key?: string }).routing_key, secret),
  parse: (req) => readEvents({ events: [{ eventId: (req.body as Json).dedup_key ?? 'pd-1', title: (req.body as Json).payload?.summary }] }),
};

const T0 = new Date('2026-03-02T10:00:00.000Z');

describeEachEngine('the change-source intake routes on the pipeline listener', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let hook: { id: string; secret: string };
  const saved = { webhook: INTAKE_ADAPTERS.webhook, pagerduty: INTAKE_ADAPTERS.pagerduty };
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.pipeline.inject({ method: 'POST', url, payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers: { 'content-type': 'application/json', ...headers } });
  const bearer = (s: string) => ({ authorization: `Bearer ${s}` });
  const counters = async (id: string) => (await t.services.db.query<Json>('SELECT recorded, duplicate, ignored, rejected FROM change_sources WHERE id = $1', [id])).rows[0]!;

  beforeAll(async () => {
    INTAKE_ADAPTERS.webhook = testWebhook;
    INTAKE_ADAPTERS.pagerduty = testPagerDuty;
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
    owner = await signedInOwner(t, 'Routes');
    hook = await addChangeSource(t, owner.org.id, 'webhook');
  });
  afterAll(async () => {
    Object.assign(INTAKE_ADAPTERS, saved);
    await t.close();
  });

  it('records a batch, answers the counts and the bad item after the commit, audits it, and a retry duplicates nothing', async () => {
    const batch = { events: [{ eventId: 'd-1', title: 'deploy checkout 1.4' }, { eventId: 'd-2' }, { eventId: 'd-3', title: 'flip' }] };
    const r = await post(`/v1/changes/webhook/${hook.id}`, batch, bearer(hook.secret));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ recorded: 2, duplicate: 0, enriched: 0, noise: 0, capped: 0, denied: 0, ignored: 0, receipts: 0, rejected: [{ index: 1, field: 'events.1.title', message: 'title is required' }] });
    const rows = (await t.services.db.query<Json>('SELECT event_id, title FROM observed_changes WHERE source_id = $1 ORDER BY event_id', [hook.id])).rows;
    expect(rows).toEqual([{ event_id: 'd-1', title: 'deploy checkout 1.4' }, { event_id: 'd-3', title: 'flip' }]);
    const audit = (await t.services.db.query<Json>("SELECT actor_kind, actor_name, source, data FROM audit_events WHERE org_id = $1 AND action = 'change_source.received' ORDER BY seq DESC LIMIT 1", [owner.org.id])).rows[0]!;
    expect(audit).toMatchObject({ actor_kind: 'service', source: 'webhook', data: { recorded: 2, rejected: 1, via: 'webhook' } });
    const again = await post(`/v1/changes/webhook/${hook.id}`, batch, bearer(hook.secret));
    expect(again.json()).toMatchObject({ recorded: 0, duplicate: 2 });
    expect(await counters(hook.id)).toMatchObject({ recorded: 2, duplicate: 2, rejected: 2 });
  });

  it('answers 202 with the count for an event type it does not record, and counts it ignored', async () => {
    const before = await counters(hook.id);
    const r = await post(`/v1/changes/webhook/${hook.id}`, { type: 'ping' }, bearer(hook.secret));
    expect(r.statusCode, r.body).toBe(202);
    expect(r.json()).toEqual({ ignored: 1 });
    expect((await counters(hook.id)).ignored).toBe(Number(before.ignored) + 1);
  });

  it('refuses a bad secret with 401 and stores nothing, not even a counter', async () => {
    const before = await countRows(engine.db());
    const counts = await counters(hook.id);
    for (const headers of [bearer('wrong'), {}]) {
      const r = await post(`/v1/changes/webhook/${hook.id}`, { events: [{ eventId: 'x', title: 'sneaky' }] }, headers);
      expect(r.statusCode, r.body).toBe(401);
      expect(r.json().error).toBe('the request does not carry this webhook change source\'s secret');
    }
    expect(await countRows(engine.db())).toEqual(before);
    expect(await counters(hook.id)).toEqual(counts);
  });

  it('answers 404 for no such connection and for another kind\'s connection, in the same words', async () => {
    const before = await countRows(engine.db());
    const none = await post('/v1/changes/webhook/src_nope', { events: [] }, bearer(hook.secret));
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ error: 'no webhook change source src_nope' });
    const foreign = await post(`/v1/changes/github/${hook.id}`, { events: [] }, bearer(hook.secret));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: `no github change source ${hook.id}` });
    // The main listener does not serve the intake at all.
    expect((await t.main.inject({ method: 'POST', url: `/v1/changes/webhook/${hook.id}`, payload: '{}', headers: { 'content-type': 'application/json' } })).statusCode).toBe(404);
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('answers 400 naming the field for a malformed body, and writes nothing', async () => {
    const before = await countRows(engine.db());
    const notJson = await post(`/v1/changes/webhook/${hook.id}`, '{"events": [', bearer(hook.secret));
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ field: 'body', error: expect.stringMatching(/^the body is not valid JSON/) });
    const noEvents = await post(`/v1/changes/webhook/${hook.id}`, { something: 1 }, bearer(hook.secret));
    expect(noEvents.statusCode).toBe(400);
    expect(noEvents.json()).toEqual({ error: 'events must be a list of changes', field: 'events' });
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('takes a body past the listener\'s 64 KiB up to 5 MiB, and refuses a bigger one with 413', async () => {
    const big = { events: [{ eventId: 'big-1', title: 'big', diff: 'x'.repeat(1024 * 1024) }] };
    const ok = await post(`/v1/changes/webhook/${hook.id}`, big, bearer(hook.secret));
    expect(ok.statusCode, ok.body.slice(0, 200)).toBe(200);
    const before = await countRows(engine.db());
    const huge = await post(`/v1/changes/webhook/${hook.id}`, { events: [{ eventId: 'huge', title: 'huge', diff: 'y'.repeat(5 * 1024 * 1024) }] }, bearer(hook.secret));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ error: 'request body is over 5 MiB' });
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('accepts a body of any content type (a binary CloudEvent) as bytes, the adapter reading the headers', async () => {
    const r = await t.pipeline.inject({ method: 'POST', url: `/v1/changes/webhook/${hook.id}`, payload: 'plain words', headers: { 'content-type': 'text/plain', ...bearer(hook.secret) } });
    // The test adapter wants JSON `events`: a non-JSON body reaches it as null, and it says which field is missing.
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({ field: 'events' });
  });

  it('limits each connection to 600 requests a minute (429 with Retry-After), apart from every other connection', async () => {
    t.clock.advance(61_000);
    for (let i = 0; i < 600; i++) expect((await post('/v1/changes/webhook/src_busy', { events: [] })).statusCode).toBe(404);
    const over = await post('/v1/changes/webhook/src_busy', { events: [] });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect(over.json().error).toMatch(/^more than 600 requests a minute for this change source/);
    expect((await post('/v1/changes/webhook/src_quiet', { events: [] })).statusCode).toBe(404);
  });

  it('PagerDuty\'s shared path finds the connection by its routing key and answers as PagerDuty does', async () => {
    const pd = await addChangeSource(t, owner.org.id, 'pagerduty');
    const event = { routing_key: pd.secret, dedup_key: 'pd-42', payload: { summary: 'Build 42 deployed', timestamp: '2026-03-02T09:00:00Z', source: 'ci' } };
    const r = await post('/v2/change/enqueue', event);
    expect(r.statusCode, r.body).toBe(202);
    expect(r.json()).toMatchObject({ status: 'success', message: 'Change event processed', recorded: 1 });
    const before = await countRows(engine.db());
    const bad = await post('/v2/change/enqueue', { ...event, routing_key: hook.secret });
    expect(bad.statusCode).toBe(401);
    const none = await post('/v2/change/enqueue', { payload: {} });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ field: 'routing_key' });
    expect(await countRows(engine.db())).toEqual(before);
  });
});
