import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';

// The filters the home page and the catalogue entity page read the changes list with.
const ESTATE = `
entities:
  - { key: "svc:web", kind: service, name: web, tier: standard }
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: standard }
  - { key: "svc:payments", kind: service, name: payments, tier: standard }
  - { key: "svc:lonely", kind: service, name: lonely, tier: standard }
links:
  - { from: "svc:web", to: "svc:checkout-api", via: calls }
  - { from: "svc:checkout-api", to: "svc:payments", via: calls }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const HOUR = 3_600_000;
const T0 = new Date('2026-03-02T09:00:00.000Z');

describeEachEngine('changes list: window, awaiting-me and component filters', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const people: Record<string, SignedIn> = {};
  let token: string;
  const ids: Record<string, string> = {};

  const get = async (s: SignedIn, url: string) => t.main.inject({ method: 'GET', url, headers: s.headers });
  const listed = async (s: SignedIn, query: string): Promise<string[]> => {
    const r = await get(s, `/api/changes?${query}`);
    expect(r.statusCode, r.body).toBe(200);
    return (r.json() as { changes: Json[] }).changes.map((c) => c.title as string).sort();
  };
  const register = async (s: SignedIn, title: string, body: Json) => {
    const r = await t.main.inject({ method: 'POST', url: '/api/changes', headers: s.headers, payload: { title, ...body } });
    expect(r.statusCode, r.body).toBe(201);
    ids[title] = (r.json() as { change: { id: string } }).change.id;
  };
  const signEveryoneIn = async () => {
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
    for (const [name, s] of Object.entries(people)) people[name] = await signIn(t, s.org, s.user, PASSWORD);
  };

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
    owner = await signedInOwner(t, 'Filters');
    for (const name of ['alice', 'bob', 'carol']) {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${name}.${Math.random().toString(36).slice(2, 6)}@x.test`, role: 'member', displayName: name, password: PASSWORD });
      people[name] = await signIn(t, owner.org, user, PASSWORD);
    }
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    // Quorum 2 with two approvers: one approval leaves a change waiting for the other.
    const ap = await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-approvers`, headers: owner.headers, payload: { userIds: [people.alice!.user.id, people.bob!.user.id] } });
    expect(ap.statusCode, ap.body).toBe(200);
    token = (await createToken(t, owner, ['changes:read', 'changes:write'], 'reader')).secret;

    // Two days ago: a change on web (one hop: checkout-api is in its scope, payments is not).
    await register(owner, 'old web deploy', { components: [{ key: 'svc:web' }], hops: 1, windowStart: T0.toISOString(), windowEnd: new Date(T0.getTime() + HOUR).toISOString() });
    t.clock.set(new Date(T0.getTime() + 48 * HOUR));
    await signEveryoneIn();
    await register(owner, 'owner payments fix', { components: [{ key: 'svc:payments' }], startNow: true });
    await register(people.alice!, 'alice lonely deploy', { components: [{ key: 'svc:lonely' }], startNow: true });
    const later = t.clock.now().getTime() + 30 * HOUR;
    await register(owner, 'owner next week', { components: [{ key: 'svc:checkout-api' }], windowStart: new Date(later).toISOString(), windowEnd: new Date(later + HOUR).toISOString() });
    // Alice has decided on one of the owner's changes; it still waits for Bob.
    const ok = await t.main.inject({ method: 'POST', url: `/api/changes/${ids['owner payments fix']!}/approve`, headers: people.alice!.headers, payload: {} });
    expect(ok.statusCode, ok.body).toBe(200);
  });
  afterAll(async () => t.close());

  describe('since and until: the window reaches into the span', () => {
    it('since=24h leaves out a change whose window ended two days ago', async () => {
      expect(await listed(owner, 'since=24h')).toEqual(['alice lonely deploy', 'owner next week', 'owner payments fix']);
    });
    it('since=24h with until=now leaves out a window that starts tomorrow', async () => {
      const now = t.clock.now().toISOString();
      expect(await listed(owner, `since=24h&until=${encodeURIComponent(now)}`)).toEqual(['alice lonely deploy', 'owner payments fix']);
    });
    it('until alone, as an ISO time, keeps only what had started by then', async () => {
      expect(await listed(owner, `until=${encodeURIComponent(new Date(T0.getTime() + 2 * HOUR).toISOString())}`)).toEqual(['old web deploy']);
    });
    it('refuses an unreadable bound, or since after until, naming the field and writing nothing', async () => {
      const before = await countRows(engine.db());
      for (const [query, field] of [['since=yesterday', 'since'], ['until=soon', 'until'], ['since=1h&until=2h', 'since']] as const) {
        const r = await get(owner, `/api/changes?${query}`);
        expect(r.statusCode, query).toBe(400);
        expect(r.json().field, query).toBe(field);
        expect(r.json().error, query).toMatch(/since|until/);
      }
      expect(await countRows(engine.db())).toEqual(before);
    });
  });

  describe('awaiting=me: waiting for the caller’s decision', () => {
    it('lists for each approver what they may still decide: never their own change, never one they decided', async () => {
      expect(await listed(people.alice!, 'awaiting=me')).toEqual(['old web deploy', 'owner next week']);
      expect(await listed(people.bob!, 'awaiting=me')).toEqual(['alice lonely deploy', 'old web deploy', 'owner next week', 'owner payments fix']);
      // Not a designated approver: nothing waits for them, nor for the owner.
      expect(await listed(people.carol!, 'awaiting=me')).toEqual([]);
      expect(await listed(owner, 'awaiting=me')).toEqual([]);
    });
    it('agrees with the approval panel’s canApprove for every person and change', async () => {
      for (const s of [owner, people.alice!, people.bob!, people.carol!]) {
        const awaiting = new Set(await listed(s, 'awaiting=me'));
        for (const [title, id] of Object.entries(ids)) {
          const view = await get(s, `/api/changes/${id}/approvals`);
          expect(view.statusCode).toBe(200);
          expect(awaiting.has(title), `${s.user.email} · ${title}`).toBe((view.json() as { canApprove: boolean }).canApprove);
        }
      }
    });
    it('answers an API token an empty list: approvals are for people, signed in', async () => {
      const r = await t.pipeline.inject({ method: 'GET', url: '/api/changes?awaiting=me', headers: { authorization: `Bearer ${token}` } });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().changes).toEqual([]);
      // Even an empty answer says what the connected sources cannot see.
      expect(r.json().neverCaptured.length).toBeGreaterThan(0);
    });
    it('refuses any other value, naming the field', async () => {
      const r = await get(people.bob!, '/api/changes?awaiting=alice');
      expect(r.statusCode).toBe(400);
      expect(r.json().field).toBe('awaiting');
    });
  });

  describe('component: a change touches an entity it names or holds in its blast radius scope', () => {
    it('finds a change by its component and by a service in its scope, not by one outside it', async () => {
      // web calls checkout-api: a change on checkout-api holds its callers one hop out.
      expect(await listed(owner, 'component=svc%3Aweb')).toEqual(['old web deploy', 'owner next week']);
      // checkout-api: a component of one change, a callee of web and a caller of payments.
      expect(await listed(owner, 'component=svc%3Acheckout-api')).toEqual(['old web deploy', 'owner next week', 'owner payments fix']);
      expect(await listed(owner, 'component=svc%3Alonely')).toEqual(['alice lonely deploy']);
      expect(await listed(owner, 'component=svc%3Anobody')).toEqual([]);
      // payments is a callee of checkout-api, two hops from web: the web deploy does not hold it.
      expect(await listed(owner, 'component=svc%3Apayments')).toEqual(['owner next week', 'owner payments fix']);
    });
    it('combines with the other filters', async () => {
      expect(await listed(owner, 'component=svc%3Acheckout-api&since=24h')).toEqual(['owner next week', 'owner payments fix']);
      expect(await listed(people.alice!, 'component=svc%3Acheckout-api&awaiting=me')).toEqual(['old web deploy', 'owner next week']);
    });
  });
});
