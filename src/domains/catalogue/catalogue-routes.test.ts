import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../platform/paths.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';
import { loadSources } from './catalogue-store.js';

const ESTATE = `
format: changeledger/catalogue/1
source: cmdb
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: critical, owner: alice, team: shop, environment: production }
  - { key: "svc:payments", kind: service, name: payments, tier: important }
  - { key: "svc:search", kind: service, name: search }
  - { key: "db:orders-pg/orders", kind: database, name: orders, engine: postgres }
  - { key: "instance:orders-pg", kind: instance, name: orders-pg, engine: postgres }
  - { key: "vm:web-1", kind: vm, name: web-1 }
  - { key: "host:rack-7", kind: host, name: rack-7 }
  - { key: "ext:stripe.com", kind: external, name: stripe.com }
links:
  - { from: "svc:checkout", to: "svc:payments", via: calls }
  - { from: "svc:payments", to: "ext:stripe.com", via: calls }
  - { from: "svc:checkout", to: "db:orders-pg/orders", via: calls }
  - { from: "db:orders-pg/orders", to: "instance:orders-pg", via: runs-on }
  - { from: "svc:checkout", to: "vm:web-1", via: runs-on }
  - { from: "vm:web-1", to: "host:rack-7", via: runs-on }
  - { from: "svc:search", to: "vm:web-1", via: runs-on }
`;

describeEachEngine('the service catalogue and its inventory', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Catalogue');
    other = await signedInOwner(t, 'Elsewhere');
  });
  afterAll(async () => t.close());
  const importYaml = (s: SignedIn, body: string, format = 'changeledger') =>
    t.main.inject({ method: 'POST', url: `/api/catalog/imports?format=${format}`, headers: { ...s.headers, 'content-type': 'application/yaml' }, payload: body });
  const inv = async (qs: string, s: SignedIn = owner) => t.main.inject({ url: `/api/catalog/inventory${qs}`, headers: s.headers });

  it('imports our format in one audited transaction, and importing it again changes nothing', async () => {
    const first = await importYaml(owner, ESTATE);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ format: 'changeledger', source: 'cmdb', entities: { added: 8, changed: 0, unchanged: 0, stale: 0 }, links: { added: 7, stale: 0 } });
    const again = await importYaml(owner, ESTATE);
    expect(again.json()).toMatchObject({ entities: { added: 0, changed: 0, unchanged: 8, stale: 0 }, links: { added: 0, changed: 0, unchanged: 7, stale: 0 } });
    const events = await listAuditEvents(engine.db(), owner.org.id, { action: 'catalogue.imported' }, 10);
    expect(events.items).toHaveLength(2);
    expect(events.items[0]!.data).toMatchObject({ entities: { unchanged: 8 } });
  });

  it('answers hop-1 and hop-2 both ways with via, meta and engine', async () => {
    const res = await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('svc:checkout')}`, headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    const e = res.json().entity;
    expect(e).toMatchObject({ key: 'svc:checkout', kind: 'service', stale: false, meta: { tier: 'critical', owner: 'alice', team: 'shop', environment: 'production' } });
    expect(e.uses.hop1.map((n: { key: string; via: string }) => `${n.key} ${n.via}`)).toEqual(['db:orders-pg/orders calls', 'svc:payments calls', 'vm:web-1 runs-on']);
    expect(e.uses.hop2.map((n: { key: string }) => n.key)).toEqual(['instance:orders-pg', 'ext:stripe.com', 'host:rack-7']);
    const vm = (await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('vm:web-1')}`, headers: owner.headers })).json().entity;
    expect(vm.usedBy.hop1.map((n: { key: string }) => n.key)).toEqual(['svc:checkout', 'svc:search']);
    const db = (await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('db:orders-pg/orders')}?hops=1`, headers: owner.headers })).json().entity;
    expect(db).toMatchObject({ engine: 'postgres', uses: { hop2: [] } });
  });

  it('pages by kind and text from one snapshot, with totals and per-kind counts', async () => {
    const page = (await inv('?kind=service,database&limit=2')).json();
    expect(page).toMatchObject({ format: 'changeledger/catalogue-inventory/1', total: 4, offset: 0, limit: 2 });
    expect(page.entities.map((e: { key: string }) => e.key)).toEqual(['db:orders-pg/orders', 'svc:checkout']);
    expect(page.meta.kinds).toMatchObject({ service: 3, database: 1, vm: 1, host: 1, external: 1, instance: 1 });
    const next = (await inv('?kind=service,database&limit=2&offset=2')).json();
    expect(next.entities.map((e: { key: string }) => e.key)).toEqual(['svc:payments', 'svc:search']);
    expect(next.snapshotAt).toBe(page.snapshotAt);
    expect((await inv('?q=PAY')).json().entities.map((e: { key: string }) => e.key)).toEqual(['svc:payments']);
    t.clock.advance(61_000);
    expect((await inv('?limit=1')).json().snapshotAt).not.toBe(page.snapshotAt);
  });

  it('refuses bad parameters, writes to the inventory, and entities outside the caller’s organisation', async () => {
    const unknown = await inv('?kind=service,cluster');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ field: 'kind' });
    expect(unknown.json().error).toMatch(/unknown kind "cluster"; kinds are service, instance, database/);
    for (const qs of ['?limit=0', '?limit=2001', '?hops=3', '?includeStale=2', '?offset=-1']) expect((await inv(qs)).statusCode, qs).toBe(400);
    const post = await t.main.inject({ method: 'POST', url: '/api/catalog/inventory', headers: owner.headers, payload: {} });
    expect(post.statusCode).toBe(400);
    expect(post.json().error).toMatch(/read-only/);
    expect((await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('svc:checkout')}`, headers: other.headers })).statusCode).toBe(404);
  });

  it('marks what a source no longer reports as stale, keeps it, and shows stale call edges only when asked', async () => {
    const smaller = ESTATE.replace('  - { key: "svc:search", kind: service, name: search }\n', '').replace('  - { from: "svc:search", to: "vm:web-1", via: runs-on }\n', '').replace('  - { from: "svc:checkout", to: "svc:payments", via: calls }\n', '');
    const res = await importYaml(owner, smaller);
    expect(res.json()).toMatchObject({ entities: { stale: 1, unchanged: 7 }, links: { stale: 2, unchanged: 5 } });
    const search = (await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('svc:search')}`, headers: owner.headers })).json().entity;
    expect(search.stale).toBe(true);
    expect(search.uses.hop1).toEqual([{ key: 'vm:web-1', kind: 'vm', name: 'web-1', via: 'runs-on', stale: true }]);
    const checkout = (await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('svc:checkout')}`, headers: owner.headers })).json().entity;
    expect(checkout.uses.hop1.map((n: { key: string }) => n.key)).not.toContain('svc:payments');
    const withStale = (await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('svc:checkout')}?includeStale=1`, headers: owner.headers })).json().entity;
    expect(withStale.uses.hop1).toContainEqual({ key: 'svc:payments', kind: 'service', name: 'payments', via: 'calls', stale: true });
    const back = await importYaml(owner, ESTATE);
    expect(back.json()).toMatchObject({ entities: { changed: 1 }, links: { changed: 2 } });
  });

  it('imports a kubectl dump, and names the field of a broken file without writing anything', async () => {
    const dump = JSON.stringify({ kind: 'List', items: [
      { kind: 'Node', metadata: { name: 'worker-1' } },
      { kind: 'Pod', metadata: { name: 'checkout-1', namespace: 'shop', labels: { app: 'checkout' } }, spec: { nodeName: 'worker-1' } },
    ] });
    const res = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=kubernetes', headers: { ...owner.headers, 'content-type': 'application/json' }, payload: dump });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ format: 'kubernetes', entities: { added: 2, changed: 0, unchanged: 1 }, links: { added: 2 } });
    // The dump knows no tier or owner: the catalogue's own metadata of svc:checkout is kept.
    const svc = (await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('svc:checkout')}`, headers: owner.headers })).json().entity;
    expect(svc.meta).toEqual({ tier: 'critical', owner: 'alice', team: 'shop', environment: 'production' });
    const pod = (await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('pod:shop/checkout-1')}`, headers: owner.headers })).json().entity;
    expect(pod.usedBy.hop1.map((n: { key: string }) => n.key)).toEqual(['svc:checkout']);
    const before = (await inv('?limit=1')).json().total;
    const broken = await importYaml(owner, 'entities:\n  - key: svc:x\n    kind: galaxy\n');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ field: 'entities.0.kind' });
    t.clock.advance(61_000);
    expect((await inv('?limit=1')).json().total).toBe(before);
  });

  it('imports monitoring sources idempotently, marks the dropped ones stale and loads only the others', async () => {
    const MONITORS = `
format: changeledger/catalogue/1
source: prometheus
sources:
  - { id: "job/payments", name: payments, services: ["svc:payments"] }
  - { id: "job/checkout", services: ["svc:checkout"], entities: ["db:orders-pg/orders"] }
  - { id: "rules/node", name: node alerts, entities: ["host:rack-7"] }
`;
    const first = await importYaml(owner, MONITORS);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ source: 'prometheus', sources: { added: 3, changed: 0, unchanged: 0, stale: 0 }, entities: { added: 0 } });
    const expected = [
      { id: 'job/checkout', name: 'job/checkout', services: ['svc:checkout'], entities: ['db:orders-pg/orders'] },
      { id: 'job/payments', name: 'payments', services: ['svc:payments'], entities: [] },
      { id: 'rules/node', name: 'node alerts', services: [], entities: ['host:rack-7'] },
    ];
    expect(await loadSources(engine.db(), owner.org.id)).toEqual(expected);
    expect((await importYaml(owner, MONITORS)).json()).toMatchObject({ sources: { added: 0, changed: 0, unchanged: 3, stale: 0 } });
    const audit = await listAuditEvents(engine.db(), owner.org.id, { action: 'catalogue.imported' }, 1);
    expect(audit.items[0]!.data).toMatchObject({ source: 'prometheus', sources: { unchanged: 3 } });
    expect(await loadSources(engine.db(), owner.org.id)).toEqual(expected);
    // Another import source and other formats leave them alone; other organisations do not see them.
    expect((await importYaml(owner, ESTATE)).json()).toMatchObject({ sources: { added: 0, changed: 0, unchanged: 0, stale: 0 } });
    expect(await loadSources(engine.db(), other.org.id)).toEqual([]);

    const dropped = MONITORS.replace('  - { id: "job/payments", name: payments, services: ["svc:payments"] }\n', '').replace('node alerts', 'node and disk alerts');
    expect((await importYaml(owner, dropped)).json()).toMatchObject({ sources: { added: 0, changed: 1, unchanged: 1, stale: 1 } });
    expect((await importYaml(owner, dropped)).json()).toMatchObject({ sources: { added: 0, changed: 0, unchanged: 2, stale: 0 } });
    expect((await loadSources(engine.db(), owner.org.id)).map((x) => `${x.id} ${x.name}`)).toEqual(['job/checkout job/checkout', 'rules/node node and disk alerts']);
    const kept = await engine.db().query<{ id: string; stale: boolean }>('SELECT id, stale FROM catalogue_sources WHERE org_id = $1 ORDER BY id COLLATE "C"', [owner.org.id]);
    expect(kept.rows).toEqual([{ id: 'job/checkout', stale: false }, { id: 'job/payments', stale: true }, { id: 'rules/node', stale: false }]);
    expect((await importYaml(owner, MONITORS)).json()).toMatchObject({ sources: { added: 0, changed: 2, unchanged: 1, stale: 0 } });
    expect((await loadSources(engine.db(), owner.org.id)).map((x) => x.id)).toEqual(['job/checkout', 'job/payments', 'rules/node']);

    const broken = await importYaml(owner, `${MONITORS}  - { id: "job/payments" }\n`);
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ field: 'sources.3.id' });
    const badKey = await importYaml(owner, MONITORS.replace('"svc:payments"', 'payments'));
    expect(badKey.json()).toMatchObject({ field: 'sources.0.services.0' });
    expect(await loadSources(engine.db(), owner.org.id)).toHaveLength(3);
  });

  it('on the pipeline listener: catalogue:read reads, catalogue:write imports', async () => {
    const reader = await createToken(t, owner, ['catalogue:read'], 'inventory-reader');
    const as = (s: string) => ({ authorization: `Bearer ${s}` });
    const page = await t.pipeline.inject({ url: '/api/catalog/inventory?kind=service&hops=1', headers: as(reader.secret) });
    expect(page.statusCode).toBe(200);
    expect(page.json().entities.every((e: { kind: string }) => e.kind === 'service')).toBe(true);
    const denied = await t.pipeline.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger', headers: { ...as(reader.secret), 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(denied.statusCode).toBe(403);
    const writer = await createToken(t, owner, ['catalogue:write'], 'cmdb-sync');
    const ok = await t.pipeline.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger', headers: { ...as(writer.secret), 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});


describeEachEngine('imports of Backstage descriptors, Jaeger dependencies and OTLP traces', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Formats');
  });
  afterAll(async () => t.close());
  const fixture = (name: string) => readFileSync(join(packageRoot, 'test', 'fixtures', 'catalogue', name), 'utf8');
  const imp = (format: string, body: string, type = 'application/yaml') =>
    t.main.inject({ method: 'POST', url: `/api/catalog/imports?format=${format}`, headers: { ...owner.headers, 'content-type': type }, payload: body });

  it('imports a Backstage descriptor set, idempotently', async () => {
    const body = `${fixture('backstage-shop.yaml')}\n---\n${fixture('backstage-platform.yaml')}`;
    const first = await imp('backstage', body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().entities.added).toBeGreaterThan(3);
    expect(first.json().ignored).toBeGreaterThan(0);
    expect((await imp('backstage', body)).json()).toMatchObject({ entities: { added: 0, changed: 0, stale: 0 }, links: { added: 0, changed: 0 } });
  });

  it('imports a Jaeger dependencies answer as call edges', async () => {
    const res = await imp('jaeger', fixture('jaeger-dependencies.json'), 'application/json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().links.added).toBeGreaterThan(2);
    expect(res.json().sources).toEqual({ added: 0, changed: 0, unchanged: 0, stale: 0 });
  });

  it('imports OTLP traces as call edges and the routes each caller uses', async () => {
    const res = await imp('otlp', fixture('otlp-traces.json'), 'application/json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().routes).toBeGreaterThan(0);
    const routes = (await t.main.inject({ url: '/api/catalog/routes?includeStale=1', headers: owner.headers })).json().items as Array<{ probe: boolean; calls: number }>;
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.every((r) => !r.probe && r.calls > 0)).toBe(true);
    const ingress = (await t.main.inject({ url: '/api/catalog/routes?includeStale=1&caller=ingress', headers: owner.headers })).json().items as Array<{ caller: string; callee: string }>;
    expect(ingress.length).toBeGreaterThan(0);
    expect(ingress.every((r) => r.caller === 'ingress' && r.callee === 'svc:frontend')).toBe(true);
    const withProbes = (await t.main.inject({ url: '/api/catalog/routes?includeStale=1&includeProbes=1', headers: owner.headers })).json().items as unknown[];
    expect(withProbes.length).toBeGreaterThanOrEqual(routes.length);
    expect((await imp('otlp', fixture('otlp-traces.json'), 'application/json')).json()).toMatchObject({ entities: { added: 0 }, links: { added: 0 } });
  });

  it('names the field of a broken OTLP payload', async () => {
    const res = await imp('otlp', JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [] }] }), 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toMatch(/^resourceSpans\.0/);
  });
});
