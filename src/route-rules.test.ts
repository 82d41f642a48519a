import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../test/support/engines.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../test/support/test-app.js';
import { SCOPES, type Role } from './domains/auth/index.js';
import { registeredRoutes } from './platform/http/guards.js';
import { isUiFile, renderRouteTable, ROUTE_RULES, ruleOf, type RouteRule } from './route-rules.js';

const API_DOC = new URL('../docs/api.md', import.meta.url);
const keyOf = (method: string, path: string) => `${method === 'HEAD' ? 'GET' : method} ${path}`;

describe('the route rules table', () => {
  it('names each method and path once', () => {
    const keys = ROUTE_RULES.map((r) => keyOf(r.method, r.path));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('is what docs/api.md lists under "Who may call what"', () => {
    const text = readFileSync(API_DOC, 'utf8');
    const block = /<!-- route-rules:start[^>]*-->\n([\s\S]*?)\n<!-- route-rules:end -->/.exec(text);
    expect(block, 'docs/api.md needs the block <!-- route-rules:start --> … <!-- route-rules:end -->').not.toBeNull();
    expect(block![1]).toBe(renderRouteTable());
  });
});

describeEachEngine('every route against the route rules', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const people: Partial<Record<Role, SignedIn>> = {};
  let allScopes: string;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Rules');
    people.owner = owner;
    for (const role of ['admin', 'member'] as const) {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${role}.${Math.random().toString(36).slice(2, 8)}@rules.test`, role, password: PASSWORD });
      people[role] = await signIn(t, owner.org, user, PASSWORD);
    }
    allScopes = (await createToken(t, owner, [...SCOPES], 'everything')).secret;
  });
  afterAll(async () => t.close());

  /** A concrete URL for a rule: the caller's own organisation, a well-formed id elsewhere. */
  const urlOf = (r: RouteRule) => r.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'id' && r.path.startsWith('/api/organizations/') ? owner.org.id : 'AAAAAAAA'));

  it('every route Fastify registered on either listener has its rule, and every rule a route', () => {
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const app of [t.main, t.pipeline]) {
      for (const route of registeredRoutes(app)) {
        const exact = ROUTE_RULES.some((r) => keyOf(r.method, r.path) === keyOf(route.method, route.url));
        if (!exact && isUiFile(route.url) && (route.method === 'GET' || route.method === 'HEAD')) continue;
        seen.add(keyOf(route.method, route.url));
        if (!ruleOf(route.method, route.url)) missing.push(`${route.method} ${route.url}`);
      }
    }
    expect(missing, 'add these routes to ROUTE_RULES in src/route-rules.ts').toEqual([]);
    expect(ROUTE_RULES.map((r) => keyOf(r.method, r.path)).filter((k) => !seen.has(k)), 'rules without a route').toEqual([]);
    expect(seen.size).toBeGreaterThan(70);
  });

  it('the access each route file declares is the one in the table', () => {
    const differ = registeredRoutes(t.main)
      .filter((r) => r.declared !== undefined && r.method !== 'HEAD')
      .map((r) => ({ route: `${r.method} ${r.url}`, declared: r.declared, table: ruleOf(r.method, r.url)?.access }))
      .filter((d) => JSON.stringify(d.declared) !== JSON.stringify(d.table));
    expect(differ).toEqual([]);
  });

  it('the pipeline listener answers 404 for every route it does not serve, with or without a token', async () => {
    const notServed = ROUTE_RULES.filter((r) => !r.listeners.includes('pipeline') && r.path.startsWith('/api/'));
    expect(notServed.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['POST /api/session', 'POST /api/tokens', 'PUT /api/me/password', 'GET /api/organizations/:id/members', 'PUT /api/settings/flags', 'GET /api/sdk-keys']));
    for (const r of notServed) {
      const url = urlOf(r);
      for (const headers of [{ authorization: `Bearer ${allScopes}` }, {}]) {
        const res = await t.pipeline.inject({ method: r.method, url, headers });
        expect(res.statusCode, `${r.method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ error: `${r.method} ${url} is not a pipeline route` });
      }
    }
  });

  it('on the pipeline listener a token gets 403 on the change decisions people make, and passes the guard on every token route', async () => {
    const byGuard = /not a pipeline route|signed-in person|lacks the scope|only owners|API token|requests a minute/;
    const routes = ROUTE_RULES.filter((x) => x.listeners.includes('pipeline') && x.access !== 'public' && x.access !== 'sdk' && x.access !== 'source');
    expect(routes.length).toBeGreaterThan(50);
    for (const [i, r] of routes.entries()) {
      // One token, kept within its 60 a minute: a new minute every 50 routes.
      if (i % 50 === 0) t.clock.advance(61_000);
      const res = await t.pipeline.inject({ method: r.method, url: urlOf(r), headers: { authorization: `Bearer ${allScopes}` } });
      if (r.access === 'session') {
        expect(res.statusCode, `${r.method} ${r.path}`).toBe(403);
        expect(res.json().error).toMatch(/signed-in person/);
      } else {
        expect(res.statusCode, `${r.method} ${r.path}: ${res.body}`).toBeLessThan(500);
        expect(res.body, `${r.method} ${r.path}`).not.toMatch(byGuard);
      }
    }
  });

  it('a member gets 403 on every owner-or-admin route and nothing is written; an admin and an owner pass that check', async () => {
    const managed = ROUTE_RULES.filter((r) => r.role === 'admin');
    expect(managed.length).toBeGreaterThan(10);
    const before = await countRows(engine.db());
    for (const r of managed) {
      const res = await t.main.inject({ method: r.method, url: urlOf(r), headers: people.member!.headers });
      expect(res.statusCode, `${r.method} ${r.path}`).toBe(403);
      expect(res.json().error).toBe(`only owners and admins may call ${r.method} ${r.path}`);
    }
    expect(await countRows(engine.db())).toEqual(before);
    for (const role of ['admin', 'owner'] as const) {
      for (const r of managed.filter((x) => x.method === 'GET')) {
        const res = await t.main.inject({ method: r.method, url: urlOf(r), headers: people[role]!.headers });
        expect(res.statusCode, `${role} ${r.method} ${r.path}: ${res.body}`).toBe(200);
      }
    }
  });

  it('SDK keys: an owner and an admin list and create them; a member can neither list nor create', async () => {
    for (const role of ['owner', 'admin'] as const) {
      const created = await t.main.inject({ method: 'POST', url: '/api/sdk-keys', headers: people[role]!.headers, payload: { name: `app-of-${role}`, env: 'production' } });
      expect(created.statusCode, created.body).toBe(201);
      const list = await t.main.inject({ url: '/api/sdk-keys', headers: people[role]!.headers });
      expect(list.statusCode).toBe(200);
      expect((list.json() as { items: Array<{ name: string }> }).items.map((k) => k.name)).toContain(`app-of-${role}`);
    }
    const before = await countRows(engine.db());
    const list = await t.main.inject({ url: '/api/sdk-keys', headers: people.member!.headers });
    expect(list.statusCode).toBe(403);
    expect(list.body).not.toContain('app-of-');
    const create = await t.main.inject({ method: 'POST', url: '/api/sdk-keys', headers: people.member!.headers, payload: { name: 'mine', env: 'production' } });
    expect(create.statusCode).toBe(403);
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('API tokens: an owner and an admin create them; a member cannot, but lists and revokes their own', async () => {
    for (const role of ['owner', 'admin'] as const) {
      const res = await t.main.inject({ method: 'POST', url: '/api/tokens', headers: people[role]!.headers, payload: { name: `ci-${role}`, scopes: ['audit:read'] } });
      expect(res.statusCode, res.body).toBe(201);
    }
    const before = await countRows(engine.db());
    const refused = await t.main.inject({ method: 'POST', url: '/api/tokens', headers: people.member!.headers, payload: { name: 'ci-member', scopes: ['audit:read'] } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'only owners and admins may call POST /api/tokens' });
    expect(await countRows(engine.db())).toEqual(before);
    // A member's token exists only when an operator made one (changeledger tokens create --user).
    const made = await t.services.auth.createToken(testCtx, { org: owner.org, user: people.member!.user }, { name: 'made-for-member', scopes: ['audit:read'] });
    const mine = (await t.main.inject({ url: '/api/tokens', headers: people.member!.headers })).json() as { items: Array<{ id: string }> };
    expect(mine.items.map((x) => x.id)).toEqual([made.token.id]);
    expect((await t.main.inject({ method: 'DELETE', url: `/api/tokens/${made.token.id}`, headers: people.member!.headers })).statusCode).toBe(200);
  });
});
