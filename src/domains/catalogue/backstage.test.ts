import { describe, expect, it } from 'vitest';
import { fixtureText, withValue } from '../../../test/fixtures/catalogue/fixtures.js';
import { fromBackstage, parseBackstageText, type BackstageResult } from './backstage.js';

const V = 'backstage.io/v1alpha1';
const component = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({ apiVersion: V, kind: 'Component', metadata: { name, ...metadata }, spec: { type: 'service', lifecycle: 'production', owner: 'group:default/payments', ...spec } });
const resource = (name: string, type: string, metadata: Record<string, unknown> = {}) => ({ apiVersion: V, kind: 'Resource', metadata: { name, ...metadata }, spec: { type, owner: 'payments' } });

function ok(r: BackstageResult) {
  if (!r.ok) throw new Error(`${r.field}: ${r.error}`);
  return r;
}
const linksOf = (r: BackstageResult) => ok(r).estate.links.map((l) => `${l.from} -${l.via}-> ${l.to}`).sort();
const entity = (r: BackstageResult, key: string) => ok(r).estate.entities.find((e) => e.key === key);

function fixtureDocs() {
  const docs: unknown[] = [];
  for (const f of ['backstage-shop.yaml', 'backstage-platform.yaml']) {
    const p = parseBackstageText(fixtureText(f));
    if (!p.ok) throw new Error(p.error);
    docs.push(...p.docs);
  }
  return docs;
}

describe('the catalog-info.yaml of two repositories', () => {
  const r = ok(fromBackstage(fixtureDocs()));

  it('makes a service per Component, a database, an external and a business process, keyed by name', () => {
    expect(r.estate.entities.map((e) => `${e.kind} ${e.key}`).sort()).toEqual([
      'business-process bp:shop', 'database db:orders-db', 'external ext:stripe', 'service svc:checkout', 'service svc:payments', 'service svc:storefront',
    ]);
  });

  it('reads owner, tier, environment, engine and keeps type, lifecycle and system', () => {
    expect(entity(r, 'svc:checkout')).toMatchObject({
      name: 'checkout', owner: 'payments', tier: 'critical', environment: 'production',
      attrs: { type: 'service', lifecycle: 'production', system: 'shop', backstageRef: 'component:default/checkout' },
    });
    expect(entity(r, 'svc:storefront')).toMatchObject({ owner: 'web', tier: 'important', environment: null, attrs: { type: 'website', system: 'shop' } });
    expect(entity(r, 'db:orders-db')).toMatchObject({ kind: 'database', engine: 'postgresql', tier: 'critical', owner: 'payments', attrs: { type: 'database', system: 'shop' } });
    expect(entity(r, 'ext:stripe')).toMatchObject({ kind: 'external', owner: 'payments', tier: null, attrs: { type: 'external-api' } });
    expect(entity(r, 'bp:shop')).toMatchObject({ kind: 'business-process', owner: 'commerce', tier: 'critical' });
  });

  it('links the system to its members, consumers to providers, and dependencies both ways, once each', () => {
    expect(linksOf(r)).toEqual([
      'bp:shop -member-> db:orders-db',
      'bp:shop -member-> svc:checkout',
      'bp:shop -member-> svc:storefront',
      'svc:checkout -calls-> db:orders-db',
      // from dependsOn `payments` and from consuming payments-api: one link
      'svc:checkout -calls-> svc:payments',
      // stripe says it is a dependencyOf payments
      'svc:payments -calls-> ext:stripe',
      // storefront consumes checkout-api, which checkout provides
      'svc:storefront -calls-> svc:checkout',
    ]);
  });

  it('counts Location, Group and Template as ignored and warns of what the set does not declare', () => {
    expect(r.ignored).toBe(3);
    expect(r.warnings).toEqual([
      expect.stringMatching(/^documents\.1\.spec\.consumesApis\.1: .*api:default\/catalog-api/),
      expect.stringMatching(/^documents\.2\.spec\.dependsOn\.2: .*resource:default\/redis-sessions/),
      expect.stringMatching(/^documents\.7\.spec\.system: .*system:default\/payments-platform/),
    ]);
  });
});

describe('Backstage rules', () => {
  it('makes a Resource a database, VM, host or external by its type', () => {
    const rows: Array<[string, string, string]> = [
      ['database', 'database', 'db:x'], ['Database', 'database', 'db:x'], ['vm', 'vm', 'vm:x'], ['host', 'host', 'host:x'],
      ['s3-bucket', 'external', 'ext:x'], ['kafka-topic', 'external', 'ext:x'],
    ];
    for (const [type, kind, key] of rows) expect(ok(fromBackstage([resource('x', type)])).estate.entities).toMatchObject([{ key, kind, name: 'x' }]);
  });

  it('strips the kind and namespace of an owner', () => {
    const rows: Array<[string, string]> = [['group:default/payments', 'payments'], ['user:jdoe', 'jdoe'], ['payments', 'payments'], ['team-a/payments', 'payments'], ['Group:Default/Payments', 'Payments']];
    for (const [owner, want] of rows) expect(entity(fromBackstage([component('a', { owner })]), 'svc:a')?.owner).toBe(want);
  });

  it('takes the tier from our annotation first, then from a tier label it knows', () => {
    const rows: Array<[Record<string, unknown>, string | null, number]> = [
      [{ annotations: { 'changeledger.io/tier': 'standard' } }, 'standard', 0],
      [{ annotations: { 'changeledger.io/tier': 'important' }, labels: { tier: 'critical' } }, 'important', 0],
      [{ labels: { tier: 'critical' } }, 'critical', 0],
      [{ labels: { tier: 'backend' } }, null, 1],
      [{}, null, 0],
    ];
    for (const [metadata, tier, warnings] of rows) {
      const r = ok(fromBackstage([component('a', {}, metadata)]));
      expect(r.estate.entities[0]?.tier).toBe(tier);
      expect(r.warnings).toHaveLength(warnings);
    }
  });

  it('keeps the GitHub and GitLab project-slug annotations, so an observed push finds its service', () => {
    const r = ok(fromBackstage([component('a', {}, { annotations: { 'github.com/project-slug': 'acme/checkout', 'gitlab.com/project-slug': 'shop/checkout' } }), component('b')]));
    expect(entity(r, 'svc:a')?.attrs).toMatchObject({ githubSlug: 'acme/checkout', gitlabSlug: 'shop/checkout' });
    expect(entity(r, 'svc:b')?.attrs).not.toHaveProperty('githubSlug');
  });

  it('resolves dependsOn with component as the default kind and the referring namespace as the default namespace', () => {
    const docs = [
      component('api', { dependsOn: ['worker', 'resource:cache', 'resource:default/orders-db'] }, { namespace: 'team-a' }),
      component('worker', {}, { namespace: 'team-a' }),
      resource('cache', 'redis', { namespace: 'team-a' }),
      resource('orders-db', 'database'),
      component('billing', { dependsOn: ['Component:Team-A/Worker', 'orders-db'] }),
    ];
    const r = ok(fromBackstage(docs));
    expect(linksOf(r)).toEqual(['svc:api -calls-> db:orders-db', 'svc:api -calls-> ext:cache', 'svc:api -calls-> svc:worker', 'svc:billing -calls-> svc:worker']);
    // billing's bare `orders-db` is component:default/orders-db, which is not declared
    expect(r.warnings).toEqual([expect.stringMatching(/^documents\.4\.spec\.dependsOn\.1: .*component:default\/orders-db/)]);
  });

  it('makes running on a VM or host runs-on, not calls', () => {
    const r = fromBackstage([component('batch', { dependsOn: ['resource:batch-vm', 'resource:rack-7'] }), resource('batch-vm', 'vm'), resource('rack-7', 'host')]);
    expect(linksOf(r)).toEqual(['svc:batch -runs-on-> host:rack-7', 'svc:batch -runs-on-> vm:batch-vm']);
  });

  it('joins every provider of a consumed API, never a component to itself', () => {
    const docs = [
      component('a', { consumesApis: ['orders'], providesApis: ['orders'] }),
      component('b', { providesApis: ['api:default/orders'] }),
      component('c', { consumesApis: ['orders', 'missing'] }),
      component('lonely', { consumesApis: ['only-mine'], providesApis: ['only-mine'] }),
    ];
    const r = ok(fromBackstage(docs));
    expect(linksOf(r)).toEqual(['svc:a -calls-> svc:b', 'svc:c -calls-> svc:a', 'svc:c -calls-> svc:b']);
    expect(r.warnings).toEqual([expect.stringContaining('api:default/missing'), expect.stringContaining('api:default/only-mine')]);
  });

  it('warns of a dependency on something that is not a component or resource, and skips a dependency on itself', () => {
    const docs = [component('a', { dependsOn: ['api:orders', 'a'], dependencyOf: ['system:shop'] }), { apiVersion: V, kind: 'API', metadata: { name: 'orders' }, spec: {} }, { apiVersion: V, kind: 'System', metadata: { name: 'shop' }, spec: {} }];
    const r = ok(fromBackstage(docs));
    expect(linksOf(r)).toEqual([]);
    expect(r.warnings).toHaveLength(2);
  });

  it('keeps the first of two entities with the same key and says so', () => {
    const r = ok(fromBackstage([component('checkout', { owner: 'a' }), component('checkout', { owner: 'b' }, { namespace: 'team-b' })]));
    expect(r.estate.entities).toMatchObject([{ key: 'svc:checkout', owner: 'a' }]);
    expect(r.warnings).toEqual([expect.stringMatching(/^documents\.1: .*svc:checkout/)]);
  });

  it('skips empty documents, keeping the numbering of the others', () => {
    const r = fromBackstage([null, component('a'), undefined, { apiVersion: V, kind: 'Component', metadata: {} }]);
    expect(r).toMatchObject({ ok: false, field: 'documents.3.metadata.name' });
  });

  it('ignores kinds it does not keep, any backstage.io apiVersion group included', () => {
    const docs = ['Group', 'User', 'Location', 'Domain', 'Template', 'CustomThing'].map((kind) => ({ apiVersion: kind === 'Template' ? 'scaffolder.backstage.io/v1beta3' : V, kind, metadata: { name: kind.toLowerCase() } }));
    expect(fromBackstage(docs)).toMatchObject({ ok: true, ignored: 6, estate: { entities: [], links: [] } });
  });
});

describe('Backstage validation', () => {
  const base = () => [
    component('checkout', { system: 'shop', dependsOn: ['resource:orders-db'], dependencyOf: [], providesApis: ['checkout-api'], consumesApis: [] }, { annotations: {}, labels: {} }),
    resource('orders-db', 'database'),
    { apiVersion: V, kind: 'Group', metadata: { name: 'payments' }, spec: { type: 'team' } },
  ];

  it('accepts the base set', () => {
    expect(fromBackstage(base())).toMatchObject({ ok: true, ignored: 1 });
  });

  it('names the field of each problem', () => {
    const rows: Array<[string, unknown, string]> = [
      ['0', 'just a string', 'documents.0'],
      ['1', [1, 2], 'documents.1'],
      ['0.apiVersion', undefined, 'documents.0.apiVersion'],
      ['0.apiVersion', 'v1', 'documents.0.apiVersion'],
      ['0.apiVersion', 'notbackstage.io/v1', 'documents.0.apiVersion'],
      ['0.apiVersion', 'backstage.io.example.com/v1', 'documents.0.apiVersion'],
      ['0.kind', undefined, 'documents.0.kind'],
      ['0.kind', ' ', 'documents.0.kind'],
      ['0.metadata', undefined, 'documents.0.metadata'],
      ['0.metadata.name', undefined, 'documents.0.metadata.name'],
      ['0.metadata.name', 'Checkout Service', 'documents.0.metadata.name'],
      ['0.metadata.name', 'a'.repeat(64), 'documents.0.metadata.name'],
      ['0.metadata.name', '-checkout', 'documents.0.metadata.name'],
      ['2.metadata.name', undefined, 'documents.2.metadata.name'],
      ['0.metadata.namespace', 'Team_A', 'documents.0.metadata.namespace'],
      ['0.metadata.annotations', ['a'], 'documents.0.metadata.annotations'],
      ['0.metadata.labels', 'tier=critical', 'documents.0.metadata.labels'],
      ['0.metadata.annotations', { 'changeledger.io/tier': 'gold' }, 'documents.0.metadata.annotations.changeledger.io/tier'],
      ['0.metadata.annotations', { 'changeledger.io/tier': 1 }, 'documents.0.metadata.annotations.changeledger.io/tier'],
      ['0.metadata.annotations', { 'changeledger.io/environment': '' }, 'documents.0.metadata.annotations.changeledger.io/environment'],
      ['1.metadata.annotations', { 'changeledger.io/engine': true }, 'documents.1.metadata.annotations.changeledger.io/engine'],
      ['0.spec', 'service', 'documents.0.spec'],
      ['0.spec.owner', 42, 'documents.0.spec.owner'],
      ['0.spec.owner', 'group:', 'documents.0.spec.owner'],
      ['0.spec.system', ['shop'], 'documents.0.spec.system'],
      ['0.spec.system', 'system:a/b/c', 'documents.0.spec.system'],
      ['0.spec.type', 3, 'documents.0.spec.type'],
      ['0.spec.lifecycle', false, 'documents.0.spec.lifecycle'],
      ['1.spec.type', undefined, 'documents.1.spec.type'],
      ['0.spec.dependsOn', 'resource:orders-db', 'documents.0.spec.dependsOn'],
      ['0.spec.dependsOn', ['resource:orders-db', 7], 'documents.0.spec.dependsOn.1'],
      ['0.spec.dependsOn', ['component:'], 'documents.0.spec.dependsOn.0'],
      ['0.spec.dependencyOf', ['a/'], 'documents.0.spec.dependencyOf.0'],
      ['0.spec.providesApis', { api: 'x' }, 'documents.0.spec.providesApis'],
      ['0.spec.consumesApis', [null], 'documents.0.spec.consumesApis.0'],
    ];
    for (const [path, value, field] of rows) expect(fromBackstage(withValue(base(), path, value)), `${path} = ${JSON.stringify(value)}`).toMatchObject({ ok: false, field });
    expect(fromBackstage('apiVersion: backstage.io/v1alpha1' as unknown as unknown[])).toMatchObject({ ok: false, field: 'documents' });
  });
});

describe('reading catalog-info.yaml text', () => {
  it('keeps every document, empty ones as null', () => {
    expect(parseBackstageText(`apiVersion: ${V}\nkind: Group\nmetadata:\n  name: a\n---\n---\nkind: B\n`)).toEqual({ ok: true, docs: [{ apiVersion: V, kind: 'Group', metadata: { name: 'a' } }, null, { kind: 'B' }] });
    expect(parseBackstageText('')).toEqual({ ok: true, docs: [] });
  });

  it('names the document and line of a syntax error', () => {
    expect(parseBackstageText('kind: A\n---\nkind: B\nspec: [\n')).toMatchObject({ ok: false, field: 'documents.1', line: 5 });
    expect(parseBackstageText('kind: A\nmetadata:\n  name: a\n  name: b\n')).toMatchObject({ ok: false, field: 'documents.0', line: 4, error: expect.stringContaining('line 4') });
  });

  it('refuses an alias to no anchor and an alias bomb', () => {
    expect(parseBackstageText('a: *nothing\n')).toMatchObject({ ok: false, field: 'documents.0' });
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
    expect(parseBackstageText(bomb)).toMatchObject({ ok: false, field: 'documents.0' });
  });
});
