import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { anObserved } from '../../../test/support/observed.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import type { RecordPrincipal } from '../changes/change-feed.js';
import { SettableClock } from '../../platform/clock.js';
import { changeStats, type ChangeStats } from './change-stats.js';
import { changeStatsRoutes } from './change-stats-routes.js';

/**
 * Statistics of the one change list, on both engines: planned changes registered through the real
 * API, flag writes through the real flags API, observed rows written by the builders. Denied
 * attempts are counted apart and nowhere else; the range is [since, until).
 */
const S = '2026-11-01T00:00:00.000Z';
const U = '2026-11-08T00:00:00.000Z';
const at = (base: string, ms: number) => new Date(Date.parse(base) + ms).toISOString();
const DAY = 86_400_000;
const ESTATE = `
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }
  - { key: "svc:payments", kind: service, name: payments, tier: standard }
  - { key: "db:orders", kind: database, name: orders }
links: []
`;
const who = (name: string): RecordPrincipal => ({ kind: 'person', name, id: null, detail: {} });

describeEachEngine('change statistics', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  const db = () => t.services.db;
  const stats = (since = S, until = U, orgId = owner.org.id) => changeStats(db(), orgId, new Date(since), new Date(until));

  const plan = async (when: string, keys: string[]) => {
    t.clock.set(when);
    const r = await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: `work at ${when}`, components: keys.map((key) => ({ key })) } });
    expect(r.statusCode, r.body).toBe(201);
  };
  const flagApi = async (when: string, method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>, status: number) => {
    t.clock.set(when);
    const r = await t.main.inject({ method, url, headers: owner.headers, payload });
    expect(r.statusCode, r.body).toBe(status);
    return r.json() as { result?: string };
  };

  beforeAll(async () => {
    // Signed in at the latest time any write is made: the session (12 h) holds while the clock is set back.
    t = await testApp(engine.db(), { clock: new SettableClock(U) });
    // Until app.ts wires the route: registered here, before the first request, behind the real main-listener guard.
    if (!t.main.hasRoute({ method: 'GET', url: '/api/changes/stats' })) await t.main.register(changeStatsRoutes, { db: t.services.db, clock: t.clock });
    owner = await signedInOwner(t, 'Stats');
    other = await signedInOwner(t, 'Stats other');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);

    // Planned changes, counted by window start.
    await plan(at(S, -2 * DAY), ['svc:checkout']); // before the range
    await plan(S, ['svc:checkout']); // at since: counted
    await plan(at(S, DAY), ['db:orders', 'svc:payments']); // its first service component
    await plan(at(S, DAY), ['db:orders']); // no service
    await plan(U, ['svc:payments']); // at until: not counted

    // Flag writes, counted by their time; an unchanged write is no change.
    await flagApi(at(S, -DAY), 'POST', '/api/flags', { key: 'old.flag', type: 'boolean', risk: 'low', ownerService: 'checkout' }, 201);
    await flagApi(at(S, 2 * DAY), 'POST', '/api/flags', { key: 'pay.flag', type: 'boolean', risk: 'low', ownerService: 'payments' }, 201);
    expect((await flagApi(at(S, 2 * DAY), 'PUT', '/api/flags/pay.flag/environments/production', { enabled: true }, 200)).result).toBe('changed');
    expect((await flagApi(at(S, 2 * DAY), 'PUT', '/api/flags/pay.flag/environments/production', { enabled: true }, 200)).result).toBe('unchanged');
    await flagApi(at(S, 2 * DAY), 'POST', '/api/flags', { key: 'loose.flag', type: 'boolean', risk: 'low' }, 201);
    await flagApi(U, 'PUT', '/api/flags/loose.flag/environments/production', { enabled: true }, 200);

    // Observed changes, counted by occurred_at.
    const o = owner.org.id;
    await anObserved(db(), o, { source: 'github', occurredAt: S, services: ['svc:checkout'] });
    await anObserved(db(), o, { source: 'kubernetes', kind: 'k8s_write', occurredAt: at(S, 3 * DAY), services: ['svc:checkout'], authorized: false });
    await anObserved(db(), o, { source: 'aws', kind: 'cloud_write', occurredAt: at(S, 3 * DAY), authorized: false });
    await anObserved(db(), o, { source: 'aws', kind: 'cloud_write', occurredAt: at(S, 3 * DAY), services: ['svc:payments'], authorized: true });
    await anObserved(db(), o, { source: 'github', occurredAt: at(U, -1), services: ['svc:search'] });
    await anObserved(db(), o, { source: 'github', occurredAt: U, services: ['svc:search'] });
    await anObserved(db(), o, { source: 'github', occurredAt: at(S, -1), services: ['svc:search'], authorized: false });

    // Denied attempts: access attempts, never changes (one of them even judged unauthorized and on a service).
    const denied = (principal: string, location: Record<string, string>, occurredAt = at(S, 4 * DAY), extra: Partial<Parameters<typeof anObserved>[2]> = {}) =>
      anObserved(db(), o, { source: 'aws', kind: 'cloud_write', occurredAt, principal: who(principal), location, denied: true, ...extra });
    await denied('mallory', { account: '111111111111', region: 'eu-west-1' }, undefined, { services: ['svc:checkout'], authorized: false });
    await denied('mallory', { account: '111111111111' });
    await denied('mallory', { account: '111111111111' });
    await denied('mallory', { account: '222222222222' });
    await denied('eve', { account: '', subscription: 'sub-1', resourceGroup: 'rg-shop', cluster: 'aks-1' }, undefined, { source: 'azure' });
    await denied('eve', { subscription: 'sub-1' }, undefined, { source: 'azure' });
    await denied('system:serviceaccount:shop:intruder', { cluster: 'prod-eu', namespace: 'shop' }, undefined, { source: 'kubernetes', kind: 'k8s_write' });
    await denied('nobody', {}, undefined, { source: 'webhook', kind: 'change' });
    await denied('mallory', { account: '111111111111' }, U);
    await denied('mallory', { account: '111111111111' }, at(S, -1));

    // Another organisation's rows are not ours.
    await anObserved(db(), other.org.id, { source: 'github', occurredAt: at(S, DAY), services: ['svc:checkout'], authorized: false });
    await anObserved(db(), other.org.id, { source: 'aws', occurredAt: at(S, DAY), denied: true, principal: who('mallory'), location: { account: '111111111111' } });
    t.clock.set(U);
  });
  afterAll(async () => t.close());

  it('counts planned changes, flag writes and observed changes in [since, until), never a denied attempt', async () => {
    const s = await stats();
    expect(s).toMatchObject({ since: S, until: U });
    expect(s.bySource).toEqual({ aws: 2, changeledger: 3, flags: 3, github: 2, kubernetes: 1 });
    expect(s.total).toBe(11);
  });

  it('counts each change under its main service, most first then by key, unmapped as "", denied attempts left out', async () => {
    expect((await stats()).byService).toEqual([
      { service: 'svc:payments', count: 4 }, // a planned change, a flag write's creation and toggle, an AWS write
      { service: '', count: 3 }, // a change on a database alone, a flag with no owner, an unmapped AWS write
      { service: 'svc:checkout', count: 3 }, // the planned change at since, the push at since, the Kubernetes write (not the denied one)
      { service: 'svc:search', count: 1 }, // the push a millisecond before until
    ]);
  });

  it('counts unauthorized changes (authorized = false) without the denied attempts judged so', async () => {
    expect((await stats()).unauthorized).toBe(2);
  });

  it('counts denied attempts apart, per principal and account (account, else subscription, else cluster, else "")', async () => {
    expect((await stats()).denied).toEqual({
      total: 8,
      byPrincipal: [
        { principal: 'mallory', account: '111111111111', count: 3 },
        { principal: 'eve', account: 'sub-1', count: 2 },
        { principal: 'mallory', account: '222222222222', count: 1 },
        { principal: 'nobody', account: '', count: 1 },
        { principal: 'system:serviceaccount:shop:intruder', account: 'prod-eu', count: 1 },
      ],
    });
  });

  it('agrees with the one change list over the same range: its entries, their sources and services, and its denied attempts', async () => {
    const s = await stats();
    const list = async (extra = '') => {
      const r = await t.main.inject({ url: `/api/changes?since=${S}&until=${at(U, -1)}${extra}`, headers: owner.headers });
      expect(r.statusCode, r.body).toBe(200);
      return (r.json() as { changes: Array<{ source: string; service: string }> }).changes;
    };
    const entries = await list();
    const tally = (keys: string[]) => keys.reduce<Record<string, number>>((m, k) => ({ ...m, [k]: (m[k] ?? 0) + 1 }), {});
    expect(entries).toHaveLength(s.total);
    expect(tally(entries.map((e) => e.source))).toEqual(s.bySource);
    expect(tally(entries.map((e) => e.service))).toEqual(Object.fromEntries(s.byService.map((x) => [x.service, x.count])));
    expect(await list('&denied=true')).toHaveLength(s.denied.total);
    expect(await list('&unauthorized=true')).toHaveLength(s.unauthorized);
  });

  it('a row just outside the range is not counted; widening the range by a millisecond each side takes them in', async () => {
    const wider = await stats(at(S, -1), at(U, 1));
    // At until: a planned change, a flag write, a push, a denied attempt. Before since: a push (unauthorized) and a denied attempt.
    expect(wider.bySource).toEqual({ aws: 2, changeledger: 4, flags: 4, github: 4, kubernetes: 1 });
    expect(wider.total).toBe(15);
    expect(wider.unauthorized).toBe(3);
    expect(wider.denied.total).toBe(10);
    const narrower = await stats(at(S, 1), at(U, -1));
    // Without the planned change and the push at since, and the push a millisecond before until.
    expect(narrower.bySource).toEqual({ aws: 2, changeledger: 2, flags: 3, kubernetes: 1 });
    expect(narrower.total).toBe(8);
  });

  it('an empty range or an organisation with nothing answers zeros', async () => {
    const none = await stats(S, S);
    expect(none).toEqual({ since: S, until: S, total: 0, bySource: {}, byService: [], unauthorized: 0, denied: { total: 0, byPrincipal: [] } } satisfies ChangeStats);
    const theirs = await stats(S, U, other.org.id);
    expect(theirs).toMatchObject({ total: 1, bySource: { github: 1 }, byService: [{ service: 'svc:checkout', count: 1 }], unauthorized: 1, denied: { total: 1, byPrincipal: [{ principal: 'mallory', account: '111111111111', count: 1 }] } });
  });

  it('names the top 20 services and the top 10 principal · account pairs; the totals still count every one', async () => {
    const cut = await signedInOwner(t, 'Stats cut');
    const when = at(S, DAY);
    for (let i = 0; i < 25; i++) {
      const service = `svc:s${String(i).padStart(2, '0')}`;
      for (let n = 0; n <= i % 3; n++) await anObserved(db(), cut.org.id, { source: 'gitlab', occurredAt: when, services: [service] });
    }
    for (let i = 0; i < 12; i++) {
      for (let n = 0; n <= (i === 11 ? 2 : 0); n++) await anObserved(db(), cut.org.id, { source: 'aws', occurredAt: when, denied: true, principal: who(`p${String(i).padStart(2, '0')}`), location: { account: 'acct' } });
    }
    const s = await stats(S, U, cut.org.id);
    expect(s.total).toBe(49); // 9 services × 1 … 8 × 2 … 8 × 3
    expect(s.byService).toHaveLength(20);
    expect(s.byService.slice(0, 3)).toEqual([{ service: 'svc:s02', count: 3 }, { service: 'svc:s05', count: 3 }, { service: 'svc:s08', count: 3 }]);
    expect(s.byService.map((x) => x.count)).toEqual([...Array(8).fill(3), ...Array(8).fill(2), ...Array(4).fill(1)]);
    expect(s.byService.slice(16).map((x) => x.service)).toEqual(['svc:s00', 'svc:s03', 'svc:s06', 'svc:s09']);
    expect(s.denied.total).toBe(14);
    expect(s.denied.byPrincipal).toHaveLength(10);
    expect(s.denied.byPrincipal[0]).toEqual({ principal: 'p11', account: 'acct', count: 3 });
    expect(s.denied.byPrincipal.slice(1).map((x) => x.principal)).toEqual(['p00', 'p01', 'p02', 'p03', 'p04', 'p05', 'p06', 'p07', 'p08']);
  });

  it('GET /api/changes/stats answers the same counts for the range asked, and the last 7 days until now by default', async () => {
    const asked = await t.main.inject({ url: `/api/changes/stats?since=${S}&until=${U}`, headers: owner.headers });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual(await stats());
    const offset = await t.main.inject({ url: `/api/changes/stats?since=${encodeURIComponent('2026-11-01T01:00:00+01:00')}&until=${U}`, headers: owner.headers });
    expect(offset.json()).toMatchObject({ since: S, total: 11 });

    t.clock.set(at(U, 3_600_000));
    const byDefault = await t.main.inject({ url: '/api/changes/stats', headers: owner.headers });
    expect(byDefault.statusCode, byDefault.body).toBe(200);
    expect(byDefault.json()).toEqual(await stats(at(S, 3_600_000), at(U, 3_600_000)));
    const onlyUntil = await t.main.inject({ url: `/api/changes/stats?until=${U}`, headers: owner.headers });
    expect(onlyUntil.json()).toMatchObject({ since: at(U, -7 * DAY), until: U });
    t.clock.set(U);
  });

  it('GET /api/changes/stats refuses a bad time, since after until and a range over 366 days with 400 naming the field; no session 401', async () => {
    const get = (query: string, headers: Record<string, string> = owner.headers) => t.main.inject({ url: `/api/changes/stats?${query}`, headers });
    for (const [query, field, words] of [
      ['since=yesterday', 'since', /^Since must be a date and time/],
      ['until=2026-11-08', 'until', /^Until must be a date and time/],
      [`since=${U}&until=${S}`, 'since', /^Since must not be after until$/],
      [`since=${at(U, -367 * DAY)}&until=${U}`, 'since', /^Since must be at most 366 days before until$/],
      [`since=${at(U, -366 * DAY - 1)}&until=${U}`, 'since', /366 days/],
      ['limit=5', 'limit', /not a known field/],
    ] as const) {
      const r = await get(query);
      expect(r.statusCode, `${query} → ${r.body}`).toBe(400);
      expect(r.json()).toMatchObject({ field });
      expect(r.json().error, query).toMatch(words);
    }
    expect((await get(`since=${at(U, -366 * DAY)}&until=${U}`)).statusCode).toBe(200);
    expect((await get(`since=${S}&until=${S}`)).json()).toMatchObject({ total: 0 });
    expect((await get('', {})).statusCode).toBe(401);
  });
});
