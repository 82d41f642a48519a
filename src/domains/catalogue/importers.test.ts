import { describe, expect, it } from 'vitest';
import { CATALOGUE_SCHEMA, parseCatalogue, parseDocument } from './catalogue-format.js';
import { fromKubectl } from './kubernetes.js';

describe('our own catalogue format', () => {
  it('names the field of each problem', () => {
    const bad: Array<[unknown, string]> = [
      [{ entities: [{ key: 'checkout', kind: 'service' }] }, 'entities.0.key'],
      [{ entities: [{ key: 'svc:a', kind: 'microservice' }] }, 'entities.0.kind'],
      [{ entities: [{ key: 'svc:a', kind: 'service', tier: 'gold' }] }, 'entities.0.tier'],
      [{ entities: [{ key: 'svc:a', kind: 'service' }, { key: 'svc:a', kind: 'service' }] }, 'entities.1.key'],
      [{ entities: [{ key: 'svc:a', kind: 'service' }], links: [{ from: 'svc:a', to: 'svc:zzz', via: 'calls' }] }, 'links.0.to'],
      [{ entities: [{ key: 'svc:a', kind: 'service' }, { key: 'svc:b', kind: 'service' }], links: [{ from: 'svc:a', to: 'svc:b', via: 'knows' }] }, 'links.0.via'],
      [{ format: 'other/1' }, 'format'],
      [{ sources: { id: 'a' } }, 'sources'],
      [{ sources: ['job'] }, 'sources.0'],
      [{ sources: [{ name: 'no id' }] }, 'sources.0.id'],
      [{ sources: [{ id: 'x'.repeat(201) }] }, 'sources.0.id'],
      [{ sources: [{ id: 'a' }, { id: 'b' }, { id: 'a' }] }, 'sources.2.id'],
      [{ sources: [{ id: 'a', name: 7 }] }, 'sources.0.name'],
      [{ sources: [{ id: 'a', services: 'svc:a' }] }, 'sources.0.services'],
      [{ sources: [{ id: 'a', services: ['svc:a', 'checkout'] }] }, 'sources.0.services.1'],
      [{ sources: [{ id: 'a', entities: [{ key: 'host:a' }] }] }, 'sources.0.entities.0'],
    ];
    for (const [doc, field] of bad) expect(parseCatalogue(doc)).toMatchObject({ ok: false, field });
  });
  it('reads monitoring sources: name defaults to the id, keys need not be in the file and count once', () => {
    const r = parseCatalogue({
      entities: [{ key: 'svc:checkout', kind: 'service' }],
      sources: [
        { id: 'prometheus/checkout', name: 'checkout job', services: ['svc:checkout', 'svc:checkout'] },
        { id: 'alerts/node', entities: ['host:rack-7', 'vm:web-1'] },
        { id: 'blackbox/payments', services: ['svc:payments'] },
      ],
    });
    expect(r).toMatchObject({ ok: true, sources: [
      { id: 'prometheus/checkout', name: 'checkout job', services: ['svc:checkout'], entities: [] },
      { id: 'alerts/node', name: 'alerts/node', services: [], entities: ['host:rack-7', 'vm:web-1'] },
      { id: 'blackbox/payments', name: 'blackbox/payments', services: ['svc:payments'], entities: [] },
    ] });
    expect(parseCatalogue({ entities: [] })).toMatchObject({ ok: true, sources: [] });
    const bad = parseCatalogue({ sources: [{ id: 'a' }, { id: 'b', services: ['svc:ok', 'nope'] }] });
    expect(bad).toMatchObject({ ok: false, field: 'sources.1.services.1' });
    expect(!bad.ok && bad.error).toMatch(/^sources\.1\.services\.1 /);
  });
  it('publishes a JSON Schema that accepts a valid file and names the kinds', () => {
    expect(CATALOGUE_SCHEMA.properties.entities.items.properties.kind.enum).toContain('business-process');
    const pattern = (t: unknown) => (t as { pattern: string }).pattern;
    expect(pattern(CATALOGUE_SCHEMA.properties.sources.items.properties.services.items)).toBe(pattern(CATALOGUE_SCHEMA.properties.entities.items.properties.key));
    expect(new RegExp((CATALOGUE_SCHEMA.properties.entities.items.properties.key as unknown as { pattern: string }).pattern).test('db:orders-pg/orders')).toBe(true);
  });
  it('reads YAML and JSON alike, and says where YAML is broken', () => {
    const yaml = parseDocument('entities:\n  - key: svc:a\n    kind: service\n');
    expect(yaml.ok && parseCatalogue(yaml.value)).toMatchObject({ ok: true, estate: { entities: [{ key: 'svc:a', name: 'a' }] } });
    expect(parseDocument('entities: [\n  - key')).toMatchObject({ ok: false });
  });
});

describe('a kubectl dump', () => {
  const dump = {
    apiVersion: 'v1', kind: 'List',
    items: [
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1', labels: { 'kubernetes.io/hostname': 'worker-1' } } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'checkout', namespace: 'shop' } },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'checkout-7d9f8', namespace: 'shop', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout', controller: true }] } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'checkout-7d9f8-abcde', namespace: 'shop', labels: { 'app.kubernetes.io/name': 'checkout' }, ownerReferences: [{ kind: 'ReplicaSet', name: 'checkout-7d9f8', controller: true }] }, spec: { nodeName: 'worker-1' }, status: { phase: 'Running' } },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'orders-db', namespace: 'shop' } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orders-db-0', namespace: 'shop', labels: { app: 'orders-db' }, ownerReferences: [{ kind: 'StatefulSet', name: 'orders-db', controller: true }] }, spec: { nodeName: 'worker-2' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'shop' } },
    ],
  };
  it('makes nodes, workloads, pods and services with their runs-on links', () => {
    const r = fromKubectl(dump);
    if (!r.ok) throw new Error(r.error);
    const keys = r.estate.entities.map((e) => `${e.kind} ${e.key}`).sort();
    expect(keys).toEqual([
      'node node:worker-1', 'node node:worker-2', 'pod pod:shop/checkout-7d9f8-abcde', 'pod pod:shop/orders-db-0',
      'service svc:checkout', 'service svc:orders-db', 'workload workload:shop/Deployment/checkout', 'workload workload:shop/StatefulSet/orders-db',
    ]);
    expect(r.estate.links.map((l) => `${l.from} -> ${l.to}`).sort()).toEqual([
      'pod:shop/checkout-7d9f8-abcde -> node:worker-1', 'pod:shop/checkout-7d9f8-abcde -> workload:shop/Deployment/checkout',
      'pod:shop/orders-db-0 -> node:worker-2', 'pod:shop/orders-db-0 -> workload:shop/StatefulSet/orders-db',
      'svc:checkout -> pod:shop/checkout-7d9f8-abcde', 'svc:orders-db -> pod:shop/orders-db-0',
    ]);
    expect(r.estate.links.every((l) => l.via === 'runs-on')).toBe(true);
    expect(r.ignored).toBe(1);
  });
  it('refuses what is not a kubectl list', () => {
    expect(fromKubectl({ kind: 'Pod' })).toMatchObject({ ok: false, field: 'items' });
  });
});
