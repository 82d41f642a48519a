import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { startReceiver } from '../../../test/support/receiver.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { listAuditEvents } from '../ledger/index.js';

// Change and freeze windows as a user meets them: refused starts naming the freeze and the next
// opening, conflicts of a planned window, the deferred timer start, the emergency bypass, change
// windows, iCalendar imports and the month calendar. Every instant is the test clock's: the
// tests run in order and the clock only moves forward.

const ESTATE = `
entities:
  - { key: "svc:web", kind: service, name: web, tier: standard }
  - { key: "svc:search", kind: service, name: search, tier: standard }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MIN = 60_000;
const HOUR = 60 * MIN;
/** An instant as the matcher writes it: ISO UTC without zero milliseconds. */
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** A local wall-clock time YYYY-MM-DDTHH:MM (for a schedule in UTC). */
const wall = (ms: number) => new Date(ms).toISOString().slice(0, 16);

/** Every row of the database, the governance tables (which countRows does not know) included. */
async function allRows(db: Database): Promise<Record<string, number>> {
  const out = await countRows(db);
  for (const table of ['change_templates', 'change_windows', 'change_voided_approvals']) {
    out[table] = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n);
  }
  return out;
}

const lines = (...rows: string[]) => `${rows.join('\r\n')}\r\n`;
const BLACK_FRIDAY = ['BEGIN:VEVENT', 'UID:black-friday@ops.test', 'DTSTAMP:20260801T000000Z', 'DTSTART:20261127T000000Z', 'DTEND:20261130T230000Z', 'SUMMARY:Black Friday freeze', 'END:VEVENT'];
const WEEKENDS = [
  'BEGIN:VEVENT', 'UID:weekends@ops.test', 'DTSTAMP:20260801T000000Z', 'DTSTART;TZID=Europe/Berlin:20260905T180000', 'DTEND;TZID=Europe/Berlin:20260907T060000',
  'RRULE:FREQ=WEEKLY;BYDAY=SA', 'SUMMARY:Weekend freeze', 'END:VEVENT',
];
const calendar = (...events: string[][]) => lines('BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//ops//freezes//EN', 'X-WR-CALNAME:Ops freezes', ...events.flat(), 'END:VCALENDAR');

describeEachEngine('governance: change and freeze windows', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock('2026-09-02T10:00:00Z') });
  });
  afterAll(async () => t.close());

  const now = () => t.clock.now().getTime();
  const drain = async () => {
    while ((await t.services.worker.runOnce()) > 0);
  };

  /** A new organisation: its owner, alice and bob (the approvers), and mia's pipeline token. */
  const organisation = async (label: string, approvalRequired: 'none' | 'all') => {
    const owner = await signedInOwner(t, label);
    const p: Record<string, SignedIn> = {};
    for (const name of ['alice', 'bob', 'mia']) {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${name}.${Math.random().toString(36).slice(2, 8)}@x.test`, role: 'member', displayName: name, password: PASSWORD });
      p[name] = await signIn(t, owner.org, user, PASSWORD);
    }
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    const token = (await createToken(t, p.mia!, ['changes:read', 'changes:write'], 'pipeline')).secret;
    const as = (s: SignedIn) => ({
      get: async (url: string) => t.main.inject({ method: 'GET', url, headers: s.headers }),
      post: async (url: string, payload?: unknown) => t.main.inject({ method: 'POST', url, headers: s.headers, ...(payload === undefined ? {} : { payload: payload as Json }) }),
      put: async (url: string, payload: unknown) => t.main.inject({ method: 'PUT', url, headers: s.headers, payload: payload as Json }),
    });
    const pipe = {
      post: async (url: string, payload?: unknown) => t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as Json }) }),
      get: async (url: string) => t.pipeline.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }),
    };
    expect((await as(owner).put(`/api/organizations/${owner.org.id}/change-approvers`, { userIds: [p.alice!.user.id, p.bob!.user.id] })).statusCode).toBe(200);
    expect((await as(owner).put(`/api/organizations/${owner.org.id}/change-settings`, { approvalRequired })).statusCode).toBe(200);
    return {
      owner, alice: p.alice!, bob: p.bob!, as, pipe,
      window: async (body: Json) => {
        const r = await as(owner).post('/api/change-windows', body);
        expect(r.statusCode, r.body).toBe(201);
        return r.json() as Json;
      },
      /** A pipeline deploy to production of `service`, planned [start, end) unless `extra` says otherwise. */
      register: async (service: string, start: number, end: number, extra: Json = {}) => pipe.post('/api/changes', {
        title: `Deploy ${service}`, kind: 'deploy', components: [{ query: service }], windowStart: iso(start), windowEnd: iso(end),
        pipeline: { pipeline: `deploy-${service}`, environment: 'production', commit: 'c0ffee' }, previousCommit: 'feedc0de', ...extra,
      }),
      events: async (action: string, targetId?: string) => (await listAuditEvents(engine.db(), owner.org.id, { action, ...(targetId ? { targetId } : {}) }, 50)).items,
    };
  };

  it('refuses a bad RRULE (schedule.rrule) and an unknown time zone (schedule.timeZone) with 400, writing nothing', async () => {
    const o = await organisation('Validation', 'none');
    const good = { type: 'rrule', rrule: 'FREQ=WEEKLY;BYDAY=SA,SU', start: '2026-09-05T00:00', durationMinutes: 1440, timeZone: 'Europe/Berlin' };
    const before = await allRows(engine.db());
    for (const [schedule, field] of [
      [{ ...good, rrule: 'FREQ=DAYLY' }, 'schedule.rrule'],
      [{ ...good, rrule: 'FREQ=WEEKLY;BYHOUR=25' }, 'schedule.rrule'],
      [{ ...good, timeZone: 'Mars/Olympus_Mons' }, 'schedule.timeZone'],
    ] as const) {
      const r = await o.as(o.owner).post('/api/change-windows', { name: 'Weekend freeze', kind: 'freeze', schedule });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().field, JSON.stringify(schedule)).toBe(field);
    }
    expect(await allRows(engine.db())).toEqual(before);
    const ok = await o.window({ name: 'Weekend freeze', kind: 'freeze', schedule: good });
    expect(ok).toMatchObject({ kind: 'freeze', schedule: good, scope: { type: 'all' }, feed: null });
    expect((await o.events('window.created', ok.id))[0]!.data).toMatchObject({ name: 'Weekend freeze', kind: 'freeze', schedule: good });
  });

  it('a window edit is audited window.updated with exactly the fields that changed', async () => {
    const o = await organisation('Rename', 'none');
    const good = { type: 'rrule', rrule: 'FREQ=WEEKLY;BYDAY=SA,SU', start: '2026-09-05T00:00', durationMinutes: 1440, timeZone: 'Europe/Berlin' };
    const ok = await o.window({ name: 'Weekend freeze', kind: 'freeze', schedule: good });
    const renamed = await o.as(o.owner).put(`/api/change-windows/${ok.id}`, { name: 'Weekend freeze (EU)' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Weekend freeze (EU)', schedule: good });
    expect((await o.events('window.updated', ok.id))[0]!.data).toEqual({ name: { from: 'Weekend freeze', to: 'Weekend freeze (EU)' } });
  });

  describe('a freeze covering now', () => {
    let o: Awaited<ReturnType<typeof organisation>>;
    let t0: number;
    beforeAll(async () => {
      o = await organisation('Freeze', 'none');
      t0 = now();
    });

    it('refuses the start of a scheduled change: 409 naming the freeze, with the next opening; nothing is written', async () => {
      const c = await o.register('web', t0 + 4 * HOUR, t0 + 5 * HOUR);
      expect(c.statusCode, c.body).toBe(201);
      const id = c.json().change.id as string;
      expect(c.json()).toMatchObject({ change: { status: 'scheduled' }, windows: { verdict: { allowed: true, window: null }, conflicts: [] } });
      await o.window({ name: 'Release freeze', kind: 'freeze', schedule: { type: 'once', start: iso(t0 - 30 * MIN), end: iso(t0 + 2 * HOUR) } });
      const before = await allRows(engine.db());
      const r = await o.pipe.post(`/api/changes/${id}/start`);
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json()).toMatchObject({
        error: expect.stringContaining('the freeze “Release freeze” runs until'), blockedOn: 'window', nextOpening: iso(t0 + 2 * HOUR),
        window: { name: 'Release freeze', kind: 'freeze', start: iso(t0 - 30 * MIN), end: iso(t0 + 2 * HOUR) },
      });
      expect(await allRows(engine.db())).toEqual(before);
      expect((await o.pipe.get(`/api/changes/${id}`)).json().change.status).toBe('scheduled');
    });

    it('refuses to register a change that would start now without approval: 409 with the next opening, and no change is written', async () => {
      const before = await allRows(engine.db());
      const r = await o.pipe.post('/api/changes', { title: 'Hotfix web', components: [{ query: 'web' }], startNow: true, maxDurationMinutes: 30 });
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json()).toMatchObject({ error: expect.stringContaining('Release freeze'), nextOpening: iso(t0 + 2 * HOUR) });
      expect(await allRows(engine.db())).toEqual(before);
    });

    it('the check route answers for the server’s clock when no instant is given', async () => {
      const at = await o.pipe.post('/api/change-windows/check', { at: iso(now()), services: ['svc:web'] });
      expect(at.json()).toMatchObject({ allowed: false, window: { name: 'Release freeze' } });
      const implicit = await o.pipe.post('/api/change-windows/check', { services: ['svc:web'] });
      expect(implicit.statusCode, implicit.body).toBe(200);
      expect(implicit.json()).toEqual(at.json());
    });

    it('the check route previews a planned window: with an end it lists the freeze the window overlaps; a bad end is 400 naming it', async () => {
      const r = await o.pipe.post('/api/change-windows/check', { at: iso(now() + 10 * 60_000), end: iso(now() + 70 * 60_000), services: ['svc:web'] });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ allowed: false, window: { name: 'Release freeze' }, conflicts: [{ conflict: 'freeze_overlaps', window: { name: 'Release freeze' } }] });
      const bad = await o.pipe.post('/api/change-windows/check', { at: iso(now() + 10 * 60_000), end: iso(now()), services: ['svc:web'] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().field).toBe('end');
    });
  });

  it('an emergency approved by two people starts during a freeze, stamped and audited once; a normal change with its quorum is still refused', async () => {
    const o = await organisation('Bypass', 'all');
    const t0 = now();
    await o.window({ name: 'Daily deploy freeze', kind: 'freeze', schedule: { type: 'rrule', rrule: 'FREQ=DAILY', start: wall(t0 - HOUR), durationMinutes: 180, timeZone: 'UTC' } });
    const approve = async (id: string) => {
      expect((await o.as(o.alice).post(`/api/changes/${id}/approve`)).statusCode).toBe(200);
      expect((await o.as(o.bob).post(`/api/changes/${id}/approve`)).json()).toMatchObject({ status: 'approved', approvals: 2 });
    };
    const e = await o.pipe.post('/api/changes', {
      title: 'Roll back web', components: [{ query: 'web' }], maxDurationMinutes: 30, emergency: true, emergencyReason: 'checkout errors for every user', incident: 'INC-4711',
    });
    expect(e.statusCode, e.body).toBe(201);
    const id = e.json().change.id as string;
    expect(e.json().change).toMatchObject({ changeClass: 'emergency', riskTier: 'L3', quorum: 2, status: 'pending_approval' });
    await approve(id);
    const started = await o.pipe.post(`/api/changes/${id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().change).toMatchObject({ status: 'active', windowBypassed: { window: 'Daily deploy freeze', kind: 'freeze', approvals: 2, at: new Date(t0).toISOString() } });
    // A second start of the running change changes nothing: one stamp, one event.
    expect((await o.pipe.post(`/api/changes/${id}/start`)).statusCode).toBe(200);
    const bypassed = await o.events('change.window_bypassed', id);
    expect(bypassed).toHaveLength(1);
    expect(bypassed[0]!.data).toMatchObject({ window: 'Daily deploy freeze', kind: 'freeze', approvals: 2, reason: expect.stringContaining('Daily deploy freeze') });
    expect((await o.pipe.get(`/api/changes/${id}/status`)).json()).toMatchObject({ changeClass: 'emergency', windowBypassed: { window: 'Daily deploy freeze' } });

    const n = await o.register('web', t0, t0 + HOUR);
    expect(n.json().change).toMatchObject({ changeClass: 'normal', quorum: 2 });
    await approve(n.json().change.id);
    const before = await allRows(engine.db());
    const refused = await o.pipe.post(`/api/changes/${n.json().change.id}/start`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: expect.stringContaining('Daily deploy freeze'), nextOpening: iso(t0 + 2 * HOUR) });
    expect(await allRows(engine.db())).toEqual(before);
  });

  it('with a change window in scope, a start outside it is 409 "outside every change window"; inside it, 200; a change out of its scope is not held', async () => {
    const o = await organisation('Change window', 'none');
    const t0 = now();
    await o.window({ name: 'Daily web window', kind: 'change', scope: { type: 'services', services: ['web'] }, schedule: { type: 'rrule', rrule: 'FREQ=DAILY', start: wall(t0 + HOUR), durationMinutes: 60, timeZone: 'UTC' } });
    const web = (await o.register('web', t0 + HOUR, t0 + HOUR + 30 * MIN)).json();
    expect(web.windows).toMatchObject({ verdict: { allowed: true, window: { name: 'Daily web window' } }, conflicts: [] });
    const search = (await o.register('search', t0 + HOUR, t0 + HOUR + 30 * MIN)).json();
    const before = await allRows(engine.db());
    const outside = await o.pipe.post(`/api/changes/${web.change.id}/start`);
    expect(outside.statusCode).toBe(409);
    expect(outside.json()).toMatchObject({ error: expect.stringContaining('outside every change window'), nextOpening: iso(t0 + HOUR), window: { name: 'Daily web window', kind: 'change' } });
    expect(await allRows(engine.db())).toEqual(before);
    expect((await o.pipe.post(`/api/changes/${search.change.id}/start`)).json().change.status).toBe('active');
    t.clock.advance(90 * MIN);
    const inside = await o.pipe.post(`/api/changes/${web.change.id}/start`);
    expect(inside.statusCode, inside.body).toBe(200);
    expect(inside.json().change).toMatchObject({ status: 'active', startedAt: new Date(t0 + 90 * MIN).toISOString(), windowBypassed: null });
    expect((await o.events('change.started', web.change.id))[0]!.data).toMatchObject({ from: 'scheduled', to: 'active' });
  });

  describe('iCalendar import', () => {
    it('imports two events, re-imports them unchanged, removes the one the calendar dropped, and refuses garbage (400 ics)', async () => {
      const o = await organisation('Import', 'none');
      const imp = (ics: string) => o.as(o.owner).post('/api/change-windows/import', { ics, feed: 'ops-calendar' });
      const first = await imp(calendar(BLACK_FRIDAY, WEEKENDS));
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual({ feed: 'ops-calendar', calendarName: 'Ops freezes', created: 2, updated: 0, unchanged: 0, removed: 0, skipped: [] });
      const items = (await o.as(o.owner).get('/api/change-windows')).json().items as Json[];
      expect(items.map((w) => [w.name, w.kind, w.feed, w.sourceUid]).sort()).toEqual([
        ['Black Friday freeze', 'freeze', 'ops-calendar', 'black-friday@ops.test'], ['Weekend freeze', 'freeze', 'ops-calendar', 'weekends@ops.test'],
      ]);
      expect(items.find((w) => w.name === 'Weekend freeze')!.schedule).toMatchObject({ type: 'rrule', start: '2026-09-05T18:00', durationMinutes: 2160, timeZone: 'Europe/Berlin' });
      expect((await o.events('window.imported'))[0]).toMatchObject({ target: { type: 'window-feed', id: 'ops-calendar' }, data: { created: 2, calendarName: 'Ops freezes' } });

      const again = await imp(calendar(BLACK_FRIDAY, WEEKENDS));
      expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 2, removed: 0 });
      const dropped = await imp(calendar(BLACK_FRIDAY));
      expect(dropped.json()).toMatchObject({ created: 0, unchanged: 1, removed: 1 });
      expect(((await o.as(o.owner).get('/api/change-windows')).json().items as Json[]).map((w) => w.name)).toEqual(['Black Friday freeze']);
      expect((await o.events('window.imported')).map((e) => e.data.removed)).toEqual([1, 0, 0]);

      const before = await allRows(engine.db());
      const garbage = await imp('this is not a calendar, just words');
      expect(garbage.statusCode).toBe(400);
      expect(garbage.json()).toMatchObject({ field: 'ics', error: expect.stringContaining('ics:') });
      expect(await allRows(engine.db())).toEqual(before);
    });

    it('imports a feed by url from an HTTP server on loopback, the url naming the feed', async () => {
      const o = await organisation('Feed', 'none');
      const server = await startReceiver({ status: 200, body: calendar(BLACK_FRIDAY, WEEKENDS), headers: { 'content-type': 'text/calendar' } });
      try {
        const url = `${server.url}/freezes.ics`;
        const r = await o.as(o.owner).post('/api/change-windows/import', { url });
        expect(r.statusCode, r.body).toBe(200);
        expect(r.json()).toMatchObject({ feed: url, calendarName: 'Ops freezes', created: 2, removed: 0 });
        expect(server.received.map((x) => [x.method, x.path, x.headers.accept])).toEqual([['GET', '/freezes.ics', 'text/calendar']]);
        expect(((await o.as(o.owner).get('/api/change-windows')).json().items as Json[]).every((w) => w.feed === url)).toBe(true);
        expect((await o.events('window.imported'))[0]).toMatchObject({ target: { id: url }, data: { created: 2 } });
      } finally {
        await server.close();
      }
    });

    it('refuses an unknown default time zone with 400 naming timeZone, writing nothing', async () => {
      const o = await organisation('Import zone', 'none');
      const before = await allRows(engine.db());
      const r = await o.as(o.owner).post('/api/change-windows/import', { ics: calendar(BLACK_FRIDAY), feed: 'ops', timeZone: 'Mars/Olympus_Mons' });
      expect(r.statusCode).toBe(400);
      expect(r.json().field).toBe('timeZone');
      expect(await allRows(engine.db())).toEqual(before);
    });
  });

  it('the month calendar lists each occurrence of a weekly window in the month (DST included) and the changes planned inside the month', async () => {
    const o = await organisation('Calendar', 'none');
    const w = await o.window({ name: 'Sunday maintenance', kind: 'change', schedule: { type: 'rrule', rrule: 'FREQ=WEEKLY;BYDAY=SU', start: '2026-09-06T10:00', durationMinutes: 120, timeZone: 'Europe/Berlin' } });
    const october = await o.register('web', Date.parse('2026-10-11T08:30:00Z'), Date.parse('2026-10-11T09:30:00Z'));
    expect(october.statusCode, october.body).toBe(201);
    expect(october.json().windows.verdict).toMatchObject({ allowed: true, window: { name: 'Sunday maintenance' } });
    expect((await o.register('web', Date.parse('2026-09-13T08:30:00Z'), Date.parse('2026-09-13T09:30:00Z'))).statusCode).toBe(201);
    const r = await o.as(o.alice).get('/api/change-calendar?month=2026-10');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ from: '2026-10-01T00:00:00.000Z', to: '2026-11-01T00:00:00.000Z' });
    expect((body.occurrences as Json[]).filter((x) => x.windowId === w.id).map((x) => [x.start, x.end])).toEqual([
      ['2026-10-04T08:00:00Z', '2026-10-04T10:00:00Z'], ['2026-10-11T08:00:00Z', '2026-10-11T10:00:00Z'],
      ['2026-10-18T08:00:00Z', '2026-10-18T10:00:00Z'], ['2026-10-25T09:00:00Z', '2026-10-25T11:00:00Z'],
    ]);
    expect(body.changes).toEqual([{
      id: october.json().change.id, displayId: october.json().change.displayId, title: 'Deploy web', status: 'scheduled', windowStart: '2026-10-11T08:30:00.000Z',
      windowEnd: '2026-10-11T09:30:00.000Z', changeClass: 'normal', riskTier: 'L2', windowBypassed: false,
    }]);
    const bad = await o.as(o.alice).get('/api/change-calendar?month=2026-13');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('month');
  });

  it('a freeze refuses writes to a high-risk flag in production (409 naming it, nothing written); staging, low-risk flags and break glass pass, the last recorded as a bypass', async () => {
    const o = await organisation('Frozen flags', 'none');
    const flag = async (key: string, risk: string) => {
      const r = await o.as(o.owner).post('/api/flags', { key, type: 'boolean', risk, ownerService: 'svc:web', reason: 'OPS-123 introduce the checkout switch' });
      expect(r.statusCode, r.body).toBe(201);
    };
    const write = async (key: string, env: string, body: Json) => o.as(o.owner).put(`/api/flags/${key}/environments/${env}`, { reason: 'OPS-124 launch the new checkout', ...body });
    await flag('shop.checkout', 'high');
    await flag('shop.banner', 'low');
    expect((await write('shop.checkout', 'production', { enabled: true })).statusCode).toBe(200);
    await o.window({ name: 'Launch freeze', kind: 'freeze', schedule: { type: 'once', start: iso(now() - HOUR), end: iso(now() + 2 * HOUR) } });

    const before = (await o.events('flag.updated')).length;
    const refused = await write('shop.checkout', 'production', { enabled: false });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ blockedOn: 'window', window: { name: 'Launch freeze', kind: 'freeze' }, nextOpening: iso(now() + 2 * HOUR) });
    expect(refused.json().error).toContain('shop.checkout is a high-risk flag and production is in the freeze “Launch freeze”');
    expect((await o.events('flag.updated')).length).toBe(before);
    expect((await o.as(o.owner).get('/api/flags/shop.checkout')).json().states.find((x: Json) => x.env === 'production').enabled).toBe(true);

    expect((await write('shop.checkout', 'staging', { enabled: true })).statusCode).toBe(200);
    expect((await write('shop.banner', 'production', { enabled: true })).statusCode).toBe(200);
    const glass = await write('shop.checkout', 'production', { enabled: false, breakGlass: true, reason: 'INC-77 checkout failing, turn it off now' });
    expect(glass.statusCode, glass.body).toBe(200);
    expect(glass.json().record).toMatchObject({ breakGlass: true, freezeBypassed: { window: 'Launch freeze', until: iso(now() + 2 * HOUR) } });
  });

  // Last: it moves the clock twelve hours on.
  it('a planned change overlapping a freeze is registered with the freeze among its conflicts; its window_start timer defers the start, and the next opening starts it', async () => {
    const o = await organisation('Deferred', 'none');
    const t0 = now();
    await o.window({ name: 'Night freeze', kind: 'freeze', schedule: { type: 'once', start: iso(t0 + 9 * HOUR), end: iso(t0 + 12 * HOUR) } });
    const r = await o.register('web', t0 + 10 * HOUR, t0 + 13 * HOUR);
    expect(r.statusCode, r.body).toBe(201);
    const id = r.json().change.id as string;
    expect(r.json().change.status).toBe('scheduled');
    expect(r.json().windows).toMatchObject({
      verdict: { allowed: false, window: { name: 'Night freeze' }, nextOpening: iso(t0 + 12 * HOUR) },
      conflicts: [{ conflict: 'freeze_overlaps', window: { name: 'Night freeze', kind: 'freeze', start: iso(t0 + 9 * HOUR), end: iso(t0 + 12 * HOUR) }, reason: expect.stringContaining('Night freeze') }],
    });

    t.clock.set(new Date(t0 + 10 * HOUR));
    await drain();
    const deferred = await o.events('change.start_deferred', id);
    expect(deferred).toHaveLength(1);
    expect(deferred[0]).toMatchObject({ actor: { kind: 'system' }, data: { window: { name: 'Night freeze' }, nextOpening: iso(t0 + 12 * HOUR) } });
    expect((await o.pipe.get(`/api/changes/${id}`)).json().change).toMatchObject({ status: 'scheduled', startedAt: null });

    t.clock.set(new Date(t0 + 12 * HOUR));
    await drain();
    expect((await o.pipe.get(`/api/changes/${id}`)).json().change).toMatchObject({ status: 'active', startedAt: new Date(t0 + 12 * HOUR).toISOString() });
    expect((await o.events('change.started', id))[0]).toMatchObject({ actor: { kind: 'system' }, data: { from: 'scheduled', to: 'active' } });
    expect(await o.events('change.start_deferred', id)).toHaveLength(1);

    // A freeze that outlasts a change's fixed window: it expires, saying why, instead of starting after its window.
    // (A new organisation: the first one's sessions ended with the twelve hours.)
    const o2 = await organisation('Outlasted', 'none');
    const t1 = now();
    await o2.window({ name: 'Long freeze', kind: 'freeze', schedule: { type: 'once', start: iso(t1 + HOUR), end: iso(t1 + 6 * HOUR) } });
    const late = await o2.register('web', t1 + 2 * HOUR, t1 + 3 * HOUR);
    expect(late.statusCode, late.body).toBe(201);
    const lateId = late.json().change.id as string;
    t.clock.set(new Date(t1 + 2 * HOUR));
    await drain();
    expect((await o2.pipe.get(`/api/changes/${lateId}`)).json().change).toMatchObject({
      status: 'expired', startedAt: null, endReason: expect.stringContaining('the freeze “Long freeze”'),
    });
    expect((await o2.events('change.expired', lateId))[0]).toMatchObject({ data: { reason: expect.stringContaining('outlasts the change’s planned window') } });
    expect(await o2.events('change.start_deferred', lateId)).toHaveLength(0);
  });
});
