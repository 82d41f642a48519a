import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

const ESTATE = `
format: changeledger/catalogue/1
entities:
  - { key: "svc:web", kind: service, name: web, tier: important }
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: critical }
  - { key: "svc:payments", kind: service, name: payments }
  - { key: "svc:reports", kind: service, name: reports, tier: standard }
  - { key: "db:pg-1/wallet", kind: database, name: wallet, engine: postgres }
  - { key: "db:pg-2/wallet", kind: database, name: wallet, engine: postgres }
  - { key: "svc:pg-1", kind: instance, name: "Prod (10.4.16.71)" }
  - { key: "vm:vm-1", kind: vm, name: vm-1 }
  - { key: "vm:vm-2", kind: vm, name: vm-2 }
  - { key: "host:h-1", kind: host, name: h-1 }
links:
  - { from: "svc:web", to: "svc:checkout-api", via: calls }
  - { from: "svc:checkout-api", to: "svc:payments", via: calls }
  - { from: "svc:payments", to: "db:pg-1/wallet", via: calls }
  - { from: "db:pg-1/wallet", to: "svc:pg-1", via: runs-on }
  - { from: "svc:checkout-api", to: "vm:vm-1", via: runs-on }
  - { from: "svc:reports", to: "vm:vm-2", via: runs-on }
  - { from: "vm:vm-1", to: "host:h-1", via: runs-on }
  - { from: "vm:vm-2", to: "host:h-1", via: runs-on }
`;

/** checkout-api → payments: two routes, one also reached from outside, one a probe. */
function traces(now: Date) {
  const ns = (ms: number) => String(BigInt(now.getTime() - 60_000 + ms) * 1_000_000n);
  const span = (o: Record<string, unknown>) => ({ traceId: 'a'.repeat(32), startTimeUnixNano: ns(0), endTimeUnixNano: ns(12), status: {}, ...o });
  const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
  const rs = (service: string, spans: unknown[]) => ({ resource: { attributes: [str('service.name', service)] }, scopeSpans: [{ spans }] });
  return {
    resourceSpans: [
      rs('checkout-api', [
        span({ spanId: '1'.repeat(16), kind: 3, name: 'POST', attributes: [str('http.request.method', 'POST')] }),
        span({ spanId: '3'.repeat(16), kind: 3, name: 'GET', attributes: [str('http.request.method', 'GET')] }),
      ]),
      rs('payments', [
        span({ spanId: '2'.repeat(16), parentSpanId: '1'.repeat(16), kind: 2, name: 'POST /charges', attributes: [str('http.request.method', 'POST'), str('http.route', '/charges'), str('url.path', '/charges')] }),
        span({ spanId: '4'.repeat(16), parentSpanId: '3'.repeat(16), kind: 2, name: 'GET /healthz', attributes: [str('http.request.method', 'GET'), str('url.path', '/healthz')] }),
        span({ traceId: 'b'.repeat(32), spanId: '5'.repeat(16), kind: 2, name: 'POST /charges', attributes: [str('http.request.method', 'POST'), str('http.route', '/charges'), str('url.path', '/charges')] }),
      ]),
    ],
  };
}

describeEachEngine('the blast radius preview', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let member: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Blast');
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `m${Math.random().toString(36).slice(2, 7)}@x.test`, role: 'member', password: PASSWORD });
    member = await signIn(t, owner.org, user, PASSWORD);
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    const tr = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=otlp&source=collector', headers: owner.headers, payload: traces(t.clock.now()) });
    expect(tr.statusCode, tr.body).toBe(200);
  });
  afterAll(async () => t.close());
  const preview = (body: Record<string, unknown>, s: SignedIn = owner) => t.main.inject({ method: 'POST', url: '/api/changes/preview-blast', headers: s.headers, payload: body });

  it('answers what a save would: blast, match, counts, mode, criticality and the scope line', async () => {
    const r = await preview({ lines: 'checkout-api', hops: 2 });
    expect(r.statusCode, r.body).toBe(200);
    const p = r.json();
    expect(p.resolved).toEqual([expect.objectContaining({ key: 'svc:checkout-api', match: 'exact' })]);
    expect(p.blast.scope.serviceKeys.sort()).toEqual(['db:pg-1/wallet', 'svc:checkout-api', 'svc:payments', 'svc:web']);
    expect(p.blast.scope.assetKeys).toEqual(['vm:vm-1']);
    expect(p).toMatchObject({ refused: null, large: false, silenceInfra: 'dedicated', criticality: 'critical', criticalitySource: 'components', componentTiers: { 'svc:checkout-api': 'critical' }, unknownTierComponents: [] });
    expect(p.scopeLine).toBe('Silence scope: 3 services · 1 database · +2 infrastructure (1 held, 1 shared)');
    expect(p.blast.nodes.find((n: { key: string }) => n.key === 'db:pg-1/wallet').details.instance.name).toBe('Prod (10.4.16.71)');
  });

  it('says criticality is pending while a service component has no tier, and comes from the blast without one', async () => {
    expect((await preview({ lines: 'payments\ncheckout-api' })).json()).toMatchObject({
      criticality: 'critical', criticalitySource: 'pending', unknownTierComponents: [{ key: 'svc:payments', name: 'payments' }],
    });
    expect((await preview({ components: [{ key: 'vm:vm-1' }] })).json()).toMatchObject({ criticality: 'standard', criticalitySource: 'none' });
    expect((await preview({ components: [{ key: 'db:pg-1/wallet' }], hops: 2 })).json()).toMatchObject({ criticality: 'critical', criticalitySource: 'blast' });
  });

  it('lists a name that is not exactly one thing with its candidates', async () => {
    const p = (await preview({ lines: 'wallet' })).json();
    expect(p.unresolved).toEqual([{ query: 'wallet', candidates: [expect.objectContaining({ key: 'db:pg-1/wallet' }), expect.objectContaining({ key: 'db:pg-2/wallet' })] }]);
    expect(p.match.unresolved).toEqual(['wallet']);
  });

  it('takes the organisation default, changed by owners and admins only and audited, and a per-change override', async () => {
    const url = `/api/organizations/${owner.org.id}/change-settings`;
    expect((await t.main.inject({ url, headers: owner.headers })).json().settings.silenceInfra).toBe('dedicated');
    expect((await t.main.inject({ method: 'PUT', url, headers: member.headers, payload: { silenceInfra: 'all' } })).statusCode).toBe(403);
    const bad = await t.main.inject({ method: 'PUT', url, headers: owner.headers, payload: { silenceInfra: 'some' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('silenceInfra');
    expect((await t.main.inject({ method: 'PUT', url, headers: owner.headers, payload: { silenceInfra: 'all' } })).json().settings.silenceInfra).toBe('all');
    expect((await listAuditEvents(engine.db(), owner.org.id, { action: 'settings.changes_updated' }, 5)).items[0]).toMatchObject({ data: { changed: { silenceInfra: { from: 'dedicated', to: 'all' } } } });
    const all = (await preview({ lines: 'checkout-api' })).json();
    expect(all.silenceInfra).toBe('all');
    expect(all.blast.scope.assetKeys.sort()).toEqual(['host:h-1', 'vm:vm-1']);
    const override = (await preview({ lines: 'checkout-api', silenceInfra: 'dedicated' })).json();
    expect(override).toMatchObject({ silenceInfra: 'dedicated', blast: { scope: { assetKeys: ['vm:vm-1'] } } });
    expect((await preview({ lines: 'checkout-api', silenceInfra: null })).json().silenceInfra).toBe('all');
    await t.main.inject({ method: 'PUT', url, headers: owner.headers, payload: { silenceInfra: 'dedicated' } });
    expect((await t.main.inject({ url: '/api/organizations/other/change-settings', headers: owner.headers })).statusCode).toBe(404);
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const before = await engine.db().query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events');
    for (const [body, field] of [
      [{ hops: 3 }, 'hops'],
      [{ silenceInfra: 'some' }, 'silenceInfra'],
      [{ components: [{ kind: 'planet', key: 'x:y' }] }, 'components.0.kind'],
      [{ components: [{ kind: 'service' }] }, 'components.0'],
      [{ components: Array.from({ length: 101 }, (_, i) => ({ key: `svc:${i}` })) }, 'components'],
      [{ lines: Array.from({ length: 101 }, (_, i) => `s${i}`).join('\n') }, 'components'],
    ] as const) {
      const r = await preview(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().field, JSON.stringify(body)).toBe(field);
    }
    expect((await engine.db().query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events')).rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('answers a pipeline token with changes:read on the pipeline listener, and refuses one without', async () => {
    const ok = await createToken(t, owner, ['changes:read']);
    const r = await t.pipeline.inject({ method: 'POST', url: '/api/changes/preview-blast', headers: { authorization: `Bearer ${ok.secret}` }, payload: { components: [{ key: 'svc:checkout-api' }] } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().blast.scope.serviceKeys).toContain('svc:checkout-api');
    const no = await createToken(t, owner, ['catalogue:read'], 'other');
    expect((await t.pipeline.inject({ method: 'POST', url: '/api/changes/preview-blast', headers: { authorization: `Bearer ${no.secret}` }, payload: {} })).statusCode).toBe(403);
  });

  it('gives each service → service call edge its contract, with the ingress marker and without probes or stale routes', async () => {
    const r = await t.main.inject({ method: 'POST', url: '/api/changes/preview-contracts', headers: owner.headers, payload: { lines: 'checkout-api' } });
    expect(r.statusCode, r.body).toBe(200);
    const c = r.json();
    expect(c.header).toBe('1 of 2 call edges have a contract · 1 route');
    const charge = c.edges.find((e: { callee: { key: string } }) => e.callee.key === 'svc:payments');
    expect(charge.routes).toEqual([expect.objectContaining({ method: 'POST', route: '/charges', calls: 1, samplePath: '/charges', externalIngress: true, probe: false })]);
    expect(c.edges.find((e: { caller: { key: string } }) => e.caller.key === 'svc:web')).toMatchObject({ routes: [], note: 'no traces seen for this edge' });
    const byEdges = (await t.main.inject({ method: 'POST', url: '/api/changes/preview-contracts', headers: owner.headers, payload: { edges: [{ from: 'svc:checkout-api', to: 'svc:payments' }] } })).json();
    expect(byEdges).toMatchObject({ header: '1 of 1 call edge has a contract · 1 route' });
    const withProbes = (await t.main.inject({ method: 'POST', url: '/api/changes/preview-contracts', headers: owner.headers, payload: { lines: 'checkout-api', includeProbes: true } })).json();
    expect(withProbes.routes).toBe(2);
    // Eight days on (a token: the session would have expired), the route is no longer fresh.
    const token = await createToken(t, owner, ['changes:read'], 'later');
    const later = (body: Record<string, unknown>) => t.pipeline.inject({ method: 'POST', url: '/api/changes/preview-contracts', headers: { authorization: `Bearer ${token.secret}` }, payload: body });
    t.clock.advance(8 * 86_400_000);
    try {
      expect((await later({ lines: 'checkout-api' })).json().routes).toBe(0);
      expect((await later({ lines: 'checkout-api', includeStale: true })).json().routes).toBe(1);
    } finally {
      t.clock.advance(-8 * 86_400_000);
    }
  });
});
