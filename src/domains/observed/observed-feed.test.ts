import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { aConnection, anObserved, aReceipt } from '../../../test/support/observed.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';

// The one change list: planned changes, flag writes and observed changes in one answer, each filter,
// the refusals, the observed change page, a planned change's receipts and what is never captured.
const ESTATE = `
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }
  - { key: "svc:payments", kind: service, name: payments, tier: standard }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const HOUR = 3_600_000;
const T0 = new Date('2026-03-02T09:00:00.000Z');
const at = (h: number) => new Date(T0.getTime() + h * HOUR);

describeEachEngine('the one change list', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: string;
  const ids: Record<string, string> = {};

  const list = async (query: string): Promise<Json> => {
    const r = await t.main.inject({ method: 'GET', url: `/api/changes${query ? `?${query}` : ''}`, headers: owner.headers });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as Json;
  };
  const titles = async (query: string): Promise<string[]> => ((await list(query)).changes as Json[]).map((c) => c.title as string);
  const moveTo = async (h: number) => {
    t.clock.set(at(h));
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
  };
  const register = async (title: string, body: Json, via: 'session' | 'token' = 'session') => {
    const r = via === 'session'
      ? await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title, startNow: true, ...body } })
      : await t.pipeline.inject({ method: 'POST', url: '/api/changes', headers: { authorization: `Bearer ${token}` }, payload: { title, startNow: true, ...body } });
    expect(r.statusCode, r.body).toBe(201);
    ids[title] = (r.json() as Json).change.id as string;
  };

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(at(0)) });
    owner = await signedInOwner(t, 'OneList');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    token = (await createToken(t, owner, ['changes:read', 'changes:write'], 'deployer')).secret;
    const db = engine.db();
    const org = owner.org.id;

    await moveTo(1);
    await register('checkout by hand', { components: [{ key: 'svc:checkout' }] });
    await moveTo(2);
    const flag = await t.main.inject({ method: 'POST', url: '/api/flags', headers: owner.headers, payload: { key: 'pay.switch', type: 'boolean', risk: 'low', ownerService: 'payments', reason: 'introduce the switch' } });
    expect(flag.statusCode, flag.body).toBe(201);
    await moveTo(2.5);
    const on = await t.main.inject({ method: 'PUT', url: '/api/flags/pay.switch/environments/production', headers: owner.headers, payload: { enabled: true, reason: 'turn the switch on' } });
    expect(on.statusCode, on.body).toBe(200);
    await moveTo(3);
    await register('payments pipeline deploy', { kind: 'deploy', components: [{ key: 'svc:payments' }], pipeline: { pipeline: 'release', run: '42' } }, 'token');
    ids.push = await anObserved(db, org, { source: 'github', kind: 'push', title: 'push to main of acme/checkout', occurredAt: at(4).toISOString(), services: ['svc:checkout'], diff: 'M app.ts', link: 'https://github.com/acme/checkout/commit/abc' });
    ids.k8s = await anObserved(db, org, { source: 'kubernetes', kind: 'k8s_write', title: 'patch deployments/payments in prod', occurredAt: at(5).toISOString(), services: ['svc:payments'], authorized: false, action: 'patch', resource: 'deployments/payments', location: { cluster: 'prod', namespace: 'pay' } });
    ids.denied = await anObserved(db, org, { source: 'aws', kind: 'cloud_write', title: 'PutParameter /prod/db refused', occurredAt: at(6).toISOString(), denied: true });
    await moveTo(7);
    await register('checkout config via the API', { kind: 'config', components: [{ key: 'svc:checkout' }] }, 'token');
    // A flag change that waits for a person: production now needs an approval of every change.
    await moveTo(8);
    const policy = await t.main.inject({ method: 'PUT', url: '/api/environments/production', headers: owner.headers, payload: { approvalPolicy: 'all', approvalsNeeded: 1 } });
    expect(policy.statusCode, policy.body).toBe(200);
    const proposed = await t.main.inject({ method: 'PUT', url: '/api/flags/pay.switch/environments/production', headers: owner.headers, payload: { enabled: false, reason: 'turn the switch off again' } });
    expect(proposed.statusCode, proposed.body).toBe(202);
    await moveTo(9);
  });
  afterAll(async () => t.close());

  const DEFAULT = ['checkout config via the API', 'patch deployments/payments in prod', 'push to main of acme/checkout', 'payments pipeline deploy',
    'pay.switch in production: enabled false → true', 'pay.switch created', 'checkout by hand'];

  it('lists planned changes, flag writes and observed changes together, newest first; denied attempts and waiting requests left out', async () => {
    expect(await titles('')).toEqual(DEFAULT);
    expect((await titles('limit=2'))).toEqual(DEFAULT.slice(0, 2));
  });

  it('gives every entry a CHG- id, source, mode, origin, principal, services and diff; a registered one keeps every Change field', async () => {
    const byTitle = new Map(((await list('')).changes as Json[]).map((c) => [c.title as string, c]));
    expect(byTitle.get('checkout by hand')).toMatchObject({
      id: ids['checkout by hand'], origin: 'registered', source: 'changeledger', mode: 'ui', kind: 'other', principal: { kind: 'person', id: owner.user.id },
      service: 'svc:checkout', services: ['svc:checkout'], diff: null, denied: false, authorized: true, windowStart: at(1).toISOString(), at: at(1).toISOString(),
    });
    expect(byTitle.get('payments pipeline deploy')).toMatchObject({ origin: 'registered', mode: 'pipeline', principal: { kind: 'token' }, pipeline: { pipeline: 'release', run: '42' } });
    expect(byTitle.get('checkout config via the API')).toMatchObject({ mode: 'api', principal: { kind: 'token' } });
    const write = byTitle.get('pay.switch in production: enabled false → true')!;
    expect(write).toMatchObject({ origin: 'flag', source: 'flags', mode: 'ui', kind: 'flag', status: 'recorded', link: '/flags/pay.switch', services: ['svc:payments'], authorized: true, diff: 'false → true' });
    expect(write.displayId).toMatch(/^CHG-[0-9A-F]{8}$/);
    const push = byTitle.get('push to main of acme/checkout')!;
    expect(push).toMatchObject({ origin: 'observed', source: 'github', mode: 'push', kind: 'push', status: 'recorded', displayId: `CHG-${ids.push!.slice(4, 12).toUpperCase()}`, diff: 'M app.ts', services: ['svc:checkout'] });
    for (const c of byTitle.values()) expect(c.displayId, c.title).toMatch(/^CHG-[0-9A-F]{8}$/);
  });

  describe('filters', () => {
    it('kind= takes a comma list across planned and observed kinds, and flag', async () => {
      expect(await titles('kind=push,pr_merged,deploy,sync')).toEqual(['push to main of acme/checkout', 'payments pipeline deploy']);
      expect(await titles('kind=flag')).toEqual(['pay.switch in production: enabled false → true', 'pay.switch created']);
      expect(await titles('kind=k8s_write,config')).toEqual(['checkout config via the API', 'patch deployments/payments in prod']);
    });
    it('source= picks registered changes, flag writes or a connection kind', async () => {
      expect(await titles('source=changeledger')).toEqual(['checkout config via the API', 'payments pipeline deploy', 'checkout by hand']);
      expect(await titles('source=kubernetes')).toEqual(['patch deployments/payments in prod']);
      expect(await titles('source=flags')).toEqual(['pay.switch in production: enabled false → true', 'pay.switch created']);
      expect(await titles('source=aws')).toEqual([]);
    });
    it('denied=true lists denied attempts only; without it they are not changes', async () => {
      expect(await titles('denied=true')).toEqual(['PutParameter /prod/db refused']);
      expect(await titles('source=aws&denied=true')).toEqual(['PutParameter /prod/db refused']);
    });
    it('unauthorized=true lists what was judged unauthorized, never a denied attempt', async () => {
      expect(await titles('unauthorized=true')).toEqual(['patch deployments/payments in prod']);
    });
    it('service= matches a service by key or name: components, flag owners, linked services', async () => {
      const payments = ['patch deployments/payments in prod', 'payments pipeline deploy', 'pay.switch in production: enabled false → true', 'pay.switch created'];
      expect(await titles('service=payments')).toEqual(payments);
      expect(await titles('service=svc%3Apayments')).toEqual(payments);
      expect(await titles('service=svc%3Acheckout')).toEqual(['checkout config via the API', 'push to main of acme/checkout', 'checkout by hand']);
      expect(await titles('service=nobody')).toEqual([]);
    });
    it('q= finds a display id, a title or a service', async () => {
      expect(await titles(`q=CHG-${ids.push!.slice(4, 12).toUpperCase()}`)).toEqual(['push to main of acme/checkout']);
      expect(await titles('q=by%20hand')).toEqual(['checkout by hand']);
      expect(await titles('q=payments')).toEqual(['patch deployments/payments in prod', 'payments pipeline deploy', 'pay.switch in production: enabled false → true', 'pay.switch created']);
    });
    it('mode= picks the channel; platform is everything changeledger recorded itself', async () => {
      expect(await titles('mode=pipeline')).toEqual(['payments pipeline deploy']);
      expect(await titles('mode=push')).toEqual(['push to main of acme/checkout']);
      expect(await titles('mode=platform')).toEqual(DEFAULT.filter((x) => !x.includes('patch') && !x.includes('push')));
    });
    it('status=recorded lists flag writes and observed changes; a planned status lists planned changes', async () => {
      expect(await titles('status=recorded')).toEqual(DEFAULT.filter((x) => !['checkout config via the API', 'payments pipeline deploy', 'checkout by hand'].includes(x)));
      const planned = ((await list('source=changeledger')).changes as Json[]);
      const status = planned[0]!.status as string;
      expect(await titles(`status=${status}`)).toEqual(planned.filter((c) => c.status === status).map((c) => c.title));
    });
    it('since and until bound when a flag write or an observed change happened', async () => {
      expect(await titles(`since=${encodeURIComponent(at(4.5).toISOString())}&until=${encodeURIComponent(at(6.5).toISOString())}`)).toEqual(['patch deployments/payments in prod']);
    });
    it('planned-only filters (mine, criticality, component) leave the feed out', async () => {
      expect(await titles('mine=1')).toEqual(['checkout config via the API', 'payments pipeline deploy', 'checkout by hand']);
      expect(await titles('component=svc%3Apayments')).toEqual(['payments pipeline deploy']);
    });
    it('include_proposed=true adds the flag change request waiting on a person; requests=true lists requests only, waiting first', async () => {
      const waiting = 'pay.switch in production: change request waiting for approval';
      expect(await titles('include_proposed=true')).toEqual([waiting, ...DEFAULT]);
      const requests = (await list('requests=true')).changes as Json[];
      expect(requests.map((c) => c.title)).toEqual([waiting, 'checkout config via the API', 'payments pipeline deploy', 'checkout by hand']);
      expect(requests[0]).toMatchObject({ origin: 'flag', status: 'pending_approval', link: '/flags/pay.switch' });
    });
  });

  it('refuses an unknown kind, source, mode or status with a 400 naming the field and the known values, writing nothing', async () => {
    const before = await countRows(engine.db());
    for (const [query, field, mentions] of [['kind=push,teleport', 'kind', /teleport.*push.*flag/], ['source=svn', 'source', /svn.*changeledger.*kubernetes/], ['mode=telepathy', 'mode', /telepathy.*pipeline/], ['status=done', 'status', /done.*recorded/]] as const) {
      const r = await t.main.inject({ method: 'GET', url: `/api/changes?${query}`, headers: owner.headers });
      expect(r.statusCode, query).toBe(400);
      expect(r.json().field, query).toBe(field);
      expect(r.json().error, query).toMatch(mentions);
    }
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('carries what the connected sources cannot see, and the list changes as sources are connected', async () => {
    const first = (await list('')).neverCaptured as string[];
    expect(first.some((l) => l.startsWith('cloud control-plane writes at all'))).toBe(true);
    expect(first.some((l) => l.startsWith('Kubernetes objects edited directly'))).toBe(true);
    await aConnection(engine.db(), owner.org.id, 'aws');
    await aConnection(engine.db(), owner.org.id, 'kubernetes');
    const after = (await list('kind=push')).neverCaptured as string[];
    expect(after.some((l) => l.startsWith('cloud control-plane writes at all'))).toBe(false);
    expect(after.some((l) => l.startsWith('Azure writes at all'))).toBe(true);
    expect(after.some((l) => l.includes('Parameter Store'))).toBe(true);
    expect(after.some((l) => l.startsWith('Kubernetes objects edited on a cluster whose audit webhook'))).toBe(true);
    // Even an answer with nothing in it says what it could not see.
    const empty = await list('service=nobody');
    expect(empty.changes).toEqual([]);
    expect(empty.neverCaptured).toEqual(after);
  });

  it('GET /api/observed-changes/:id answers one observed change with its own fields; another organisation’s or a made-up id is 404', async () => {
    const r = await t.main.inject({ method: 'GET', url: `/api/observed-changes/${ids.k8s!}`, headers: owner.headers });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().change).toMatchObject({ id: ids.k8s, origin: 'observed', source: 'kubernetes', authorized: false, detail: { action: 'patch', resource: 'deployments/payments', location: { cluster: 'prod', namespace: 'pay' }, serviceVia: 'event' } });
    expect(r.json().neverCaptured.length).toBeGreaterThan(0);
    const other = await signedInOwner(t, 'Elsewhere');
    expect((await t.main.inject({ method: 'GET', url: `/api/observed-changes/${ids.k8s!}`, headers: other.headers })).statusCode).toBe(404);
    expect((await t.main.inject({ method: 'GET', url: '/api/observed-changes/obs_nothing', headers: owner.headers })).statusCode).toBe(404);
  });

  it('GET /api/changes/:id lists the change’s receipts, oldest first; a change without one has none', async () => {
    await aReceipt(engine.db(), owner.org.id, ids['checkout by hand']!, { title: 'patch deployments/checkout (second)', occurredAt: at(1.5).toISOString() });
    await aReceipt(engine.db(), owner.org.id, ids['checkout by hand']!, { title: 'patch deployments/checkout (first)', occurredAt: at(1.2).toISOString() });
    const r = await t.main.inject({ method: 'GET', url: `/api/changes/${ids['checkout by hand']!}`, headers: owner.headers });
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json().receipts as Json[]).map((x) => x.title)).toEqual(['patch deployments/checkout (first)', 'patch deployments/checkout (second)']);
    expect(r.json().receipts[0]).toMatchObject({ source: 'kubernetes', action: 'patch', resource: 'deployments/checkout', principal: { kind: 'service', detail: { ciNamespace: 'jenkins' } } });
    const none = await t.main.inject({ method: 'GET', url: `/api/changes/${ids['payments pipeline deploy']!}`, headers: owner.headers });
    expect(none.json().receipts).toEqual([]);
  });

  it('an event the intake records is in the list at its time, its diff scrubbed', async () => {
    const sourceId = await aConnection(engine.db(), owner.org.id, 'webhook', 'admin screen');
    const event = {
      eventId: 'cfg-1', kind: 'change' as const, title: 'feature limits raised in the admin screen', occurredAt: at(8.5).toISOString(),
      principal: { kind: 'person' as const, name: 'erin@example.com', id: null, detail: {} }, action: 'update', resource: 'settings/limits', location: {},
      serviceHint: null, repo: null, diff: 'limit: 10 -> 20\npassword=hunter2', params: null, link: null, denied: false, errorCode: null, outcome: null, changeRef: null, capBucket: null,
    };
    await t.services.intake.record(testCtx, sourceId, { events: [event], ignored: 0, noise: 0, rejected: [] }, 'webhook');
    const [first] = (await list('')).changes as Json[];
    expect(first).toMatchObject({ title: 'feature limits raised in the admin screen', origin: 'observed', source: 'webhook', mode: 'change', at: at(8.5).toISOString(), service: '' });
    expect(first!.diff).toContain('limit: 10 -> 20');
    expect(first!.diff).not.toContain('hunter2');
    expect(await titles('source=webhook')).toEqual(['feature limits raised in the admin screen']);
  });
});
