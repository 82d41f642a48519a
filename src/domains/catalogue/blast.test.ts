import { describe, expect, it } from 'vitest';
import { computeBlast, INFRA_CAPS, scopeBreakdown, scopeLine, type BlastComponent, type SilenceMode } from './blast.js';
import type { EntityKind, Tier, Via } from './entity.js';
import { buildGraph, type GraphNode } from './inventory.js';

const node = (key: string, kind: EntityKind = 'service', extra: Partial<GraphNode> = {}): GraphNode => ({
  key, kind, name: key.slice(key.indexOf(':') + 1), stale: false, engine: null, tier: null, owner: null, team: null, environment: null, ...extra,
});
const link = (from: string, to: string, via: Via = 'calls', stale = false) => ({ from, to, via, stale });
const comp = (key: string, kind = 'service', seen = true): BlastComponent => ({ key, kind, name: key.slice(key.indexOf(':') + 1), seen });
const keys = (xs: Array<{ key: string }> | undefined) => (xs ?? []).map((x) => x.key).sort();

/**
 * web → checkout → payments → ledger; checkout → stripe (external); reports → ledger.
 * checkout runs on a Deployment (2 pods) on node n1 (shared with reports' pod) on vm-1 on host-1;
 * payments runs on vm-2 alone (→ host-1 shared, datastore ds-1 dedicated to vm-2) ; host-1 → device sw-1.
 */
function estate(extra: { nodes?: GraphNode[]; links?: ReturnType<typeof link>[] } = {}) {
  return buildGraph(
    [
      node('svc:web'), node('svc:checkout', 'service', { tier: 'critical' }), node('svc:payments', 'service', { tier: 'important' }), node('svc:ledger'), node('svc:reports'),
      node('ext:stripe.com', 'external'), node('svc:behind-stripe'),
      node('pod:checkout-1', 'pod'), node('pod:checkout-2', 'pod'), node('wl:checkout', 'workload'), node('pod:reports-1', 'pod'),
      node('node:n1', 'node'), node('vm:vm-1', 'vm'), node('vm:vm-2', 'vm'), node('host:host-1', 'host'), node('ds:ds-1', 'datastore'), node('dev:sw-1', 'device'),
      node('svc:old-caller'),
      ...(extra.nodes ?? []),
    ],
    [
      link('svc:web', 'svc:checkout'), link('svc:checkout', 'svc:payments'), link('svc:payments', 'svc:ledger'), link('svc:reports', 'svc:ledger'),
      link('svc:checkout', 'ext:stripe.com'), link('ext:stripe.com', 'svc:behind-stripe'), link('svc:old-caller', 'svc:checkout', 'calls', true),
      link('svc:checkout', 'pod:checkout-1', 'runs-on'), link('svc:checkout', 'pod:checkout-2', 'runs-on'),
      link('pod:checkout-1', 'wl:checkout', 'runs-on'), link('pod:checkout-2', 'wl:checkout', 'runs-on'),
      link('pod:checkout-1', 'node:n1', 'runs-on'), link('pod:checkout-2', 'node:n1', 'runs-on'),
      link('svc:reports', 'pod:reports-1', 'runs-on'), link('pod:reports-1', 'node:n1', 'runs-on'),
      link('node:n1', 'vm:vm-1', 'runs-on'), link('vm:vm-1', 'host:host-1', 'runs-on'),
      link('svc:payments', 'vm:vm-2', 'runs-on'), link('vm:vm-2', 'host:host-1', 'runs-on'), link('vm:vm-2', 'ds:ds-1', 'runs-on'),
      link('host:host-1', 'dev:sw-1', 'runs-on'),
      ...(extra.links ?? []),
    ],
  );
}
const blast = (components: BlastComponent[], hops: 1 | 2 = 1, silenceInfra: SilenceMode = 'dedicated', g = estate()) => computeBlast(g, { components, hops, silenceInfra });

describe('the services of a blast radius', () => {
  it('takes callers and callees one hop out, or two', () => {
    const one = blast([comp('svc:checkout')], 1);
    expect(keys(one.services)).toEqual(['svc:checkout', 'svc:payments', 'svc:web']);
    const two = blast([comp('svc:checkout')], 2);
    expect(keys(two.services)).toEqual(['svc:checkout', 'svc:ledger', 'svc:payments', 'svc:web']);
    expect(two.services!.find((s) => s.key === 'svc:ledger')).toMatchObject({ hop: 2, side: 'callee', reason: ['svc:checkout', 'svc:payments', 'svc:ledger'] });
    expect(two.services!.find((s) => s.key === 'svc:web')).toMatchObject({ hop: 1, side: 'caller' });
  });
  it('walks a service that is both a caller and a callee in both directions', () => {
    const g = buildGraph([node('svc:a'), node('svc:b'), node('svc:c'), node('svc:d')], [link('svc:a', 'svc:b'), link('svc:b', 'svc:a'), link('svc:a', 'svc:c'), link('svc:d', 'svc:a')]);
    const b = computeBlast(g, { components: [comp('svc:b')], hops: 2, silenceInfra: 'dedicated' });
    expect(keys(b.services)).toEqual(['svc:a', 'svc:b', 'svc:c', 'svc:d']);
    expect(b.services!.find((s) => s.key === 'svc:a')).toMatchObject({ hop: 1, side: 'both' });
    expect(b.services!.find((s) => s.key === 'svc:c')).toMatchObject({ hop: 2, side: 'callee' });
    expect(b.services!.find((s) => s.key === 'svc:d')).toMatchObject({ hop: 2, side: 'caller' });
  });
  it('does not walk a callee’s other callers (reports calls ledger, not the change)', () => {
    expect(keys(blast([comp('svc:checkout')], 2).services)).not.toContain('svc:reports');
  });
  it('reaches an external but never walks through it, and names it under notSilenced', () => {
    const b = blast([comp('svc:checkout')], 2);
    expect(keys(b.services)).not.toContain('svc:behind-stripe');
    expect(b.scope.serviceKeys).not.toContain('ext:stripe.com');
    expect(b.notSilenced.find((n) => n.kind === 'external')).toMatchObject({ count: 1, items: [{ key: 'ext:stripe.com' }] });
    expect(b.counts.externals).toBe(1);
  });
  it('ignores stale call edges but follows stale placements, as the inventory does', () => {
    expect(keys(blast([comp('svc:checkout')], 1).services)).not.toContain('svc:old-caller');
    const g = estate({ nodes: [node('vm:old-vm', 'vm')], links: [link('svc:ledger', 'vm:old-vm', 'runs-on', true)] });
    expect(blast([comp('svc:ledger')], 1, 'dedicated', g).scope.assetKeys).toContain('vm:old-vm');
  });
  it('keeps an unseen key on the change and names it, silencing nothing for it', () => {
    const b = blast([comp('svc:checkout'), comp('svc:not-yet', 'service', false)]);
    expect(b.scope.serviceKeys).not.toContain('svc:not-yet');
    expect(b.notSilenced.find((n) => n.kind === 'unseen')).toMatchObject({ count: 1, items: [{ key: 'svc:not-yet' }] });
  });
});

describe('databases on an instance', () => {
  // wallet and ledger live on one instance on vm-db; orders on another instance on vm-db too.
  const g = () => buildGraph(
    [node('svc:pay'), node('db:i1/wallet', 'database'), node('db:i1/ledger', 'database'), node('db:i2/orders', 'database'), node('svc:i1', 'instance'), node('svc:i2', 'instance'), node('vm:vm-db', 'vm'), node('vm:vm-db2', 'vm'), node('host:h', 'host')],
    [link('svc:pay', 'db:i1/wallet'), link('db:i1/wallet', 'svc:i1', 'runs-on'), link('db:i1/ledger', 'svc:i1', 'runs-on'), link('svc:i1', 'vm:vm-db', 'runs-on'),
      link('db:i2/orders', 'svc:i2', 'runs-on'), link('svc:i2', 'vm:vm-db2', 'runs-on'), link('vm:vm-db', 'host:h', 'runs-on'), link('vm:vm-db2', 'host:h', 'runs-on')],
  );
  it('walks through the instance: what runs under it is dedicated when every database on it is in the change', () => {
    const one = computeBlast(g(), { components: [comp('db:i1/wallet', 'database')], hops: 1, silenceInfra: 'dedicated' });
    expect(one.scope.assetKeys).toEqual([]);
    const both = computeBlast(g(), { components: [comp('db:i1/wallet', 'database'), comp('db:i1/ledger', 'database')], hops: 1, silenceInfra: 'dedicated' });
    expect(both.scope.assetKeys).toEqual(['vm:vm-db']);
    expect(both.notSilenced.find((n) => n.kind === 'shared-infra')?.items).toEqual([{ key: 'host:h', kind: 'host', name: 'h' }]);
  });
  it('bridges the map through the instance, which is no card', () => {
    const b = computeBlast(g(), { components: [comp('db:i1/wallet', 'database')], hops: 1, silenceInfra: 'dedicated' });
    expect(b.nodes.map((n) => n.key)).not.toContain('svc:i1');
    expect(b.lineage).toContainEqual({ from: 'db:i1/wallet', to: 'vm:vm-db', through: 'svc:i1' });
  });
});

describe('the infrastructure a change silences', () => {
  it('dedicated: silences only what every service above is in the change; the rest is shared, listed once', () => {
    const b = blast([comp('svc:payments')], 1);
    // payments + checkout (caller) + ledger (callee): vm-2 and ds-1 carry only payments; the workload only checkout.
    expect(b.scope.assetKeys.sort()).toEqual(['ds:ds-1', 'pod:checkout-1', 'pod:checkout-2', 'vm:vm-2', 'wl:checkout']);
    // n1 also runs reports → vm-1 → host-1 → sw-1 are shared.
    const shared = b.notSilenced.filter((n) => n.kind === 'shared-infra');
    expect(shared).toHaveLength(1);
    expect(keys(shared[0]!.items as Array<{ key: string }>)).toEqual(['dev:sw-1', 'host:host-1', 'node:n1', 'vm:vm-1']);
    expect(shared[0]!.name).toBe('Shared infrastructure — 1 Kubernetes node, 1 VM, 1 host, 1 device');
    expect(b.counts).toMatchObject({ services: 3, items: 3, workloads: 1, pods: 2, vms: 1, datastores: 1, shared: 4, hosts: 0 });
  });
  it('dedicated: shared infrastructure becomes dedicated once every service on it is in the change', () => {
    const b = blast([comp('svc:checkout'), comp('svc:reports'), comp('svc:payments')], 1);
    expect(b.scope.assetKeys).toEqual(expect.arrayContaining(['node:n1', 'vm:vm-1', 'host:host-1', 'dev:sw-1']));
    expect(b.notSilenced.find((n) => n.kind === 'shared-infra')).toBeUndefined();
  });
  it('all: silences everything under the services, shared included', () => {
    const b = blast([comp('svc:payments')], 1, 'all');
    expect(b.scope.assetKeys).toEqual(expect.arrayContaining(['node:n1', 'vm:vm-1', 'host:host-1', 'dev:sw-1', 'vm:vm-2', 'ds:ds-1', 'wl:checkout']));
    expect(b.counts.shared).toBe(0);
    expect(b.notSilenced.find((n) => n.kind === 'shared-infra')).toBeUndefined();
  });
  it('none: silences services only and says what keeps alerting', () => {
    const b = blast([comp('svc:payments')], 1, 'none');
    expect(b.scope.assetKeys).toEqual([]);
    expect(b.notSilenced.find((n) => n.kind === 'infra-off')).toMatchObject({ count: 7 });
  });
  it('always silences infrastructure named as a component, whatever the mode', () => {
    for (const mode of ['none', 'dedicated', 'all'] as const) {
      const b = blast([comp('svc:payments'), comp('host:host-1', 'host')], 1, mode);
      expect(b.scope.assetKeys, mode).toContain('host:host-1');
    }
  });
  it('counts pods per workload: one Deployment is one item, all its replicas silenced', () => {
    const b = blast([comp('svc:checkout')], 1);
    expect(b.counts.workloads).toBe(1);
    expect(b.counts.pods).toBe(2);
    expect(b.scope.assetKeys).toEqual(expect.arrayContaining(['pod:checkout-1', 'pod:checkout-2']));
    expect(b.infra!.filter((i) => i.kind === 'pod')).toEqual([]);
  });
  it('draws a database card naming its instance', () => {
    const g = estate({
      nodes: [node('db:pg-1/orders', 'database'), node('db:pg-2/orders', 'database'), node('svc:pg-1', 'instance', { name: 'Prod (10.4.16.71)' }), node('svc:pg-2', 'instance', { name: 'Replica (10.4.16.72)' })],
      links: [link('svc:payments', 'db:pg-1/orders'), link('db:pg-1/orders', 'svc:pg-1', 'runs-on'), link('db:pg-2/orders', 'svc:pg-2', 'runs-on')],
    });
    const b = blast([comp('svc:payments')], 1, 'dedicated', g);
    expect(b.nodes.find((n) => n.key === 'db:pg-1/orders')?.details?.instance).toEqual({ key: 'svc:pg-1', kind: 'instance', name: 'Prod (10.4.16.71)' });
    expect(b.counts.databases).toBe(1);
  });
  it('tints silenced cards and badges shared ones on the map, with the runs-on links among them', () => {
    const b = blast([comp('svc:payments')], 1);
    expect(b.nodes.find((n) => n.key === 'vm:vm-2')).toMatchObject({ role: 'infra', silenced: true });
    expect(b.nodes.find((n) => n.key === 'host:host-1')).toMatchObject({ silenced: false, shared: true });
    expect(b.nodes.find((n) => n.key === 'svc:payments')).toMatchObject({ role: 'component', hop: 0 });
    expect(b.lineage).toEqual(expect.arrayContaining([{ from: 'svc:payments', to: 'vm:vm-2' }, { from: 'vm:vm-2', to: 'host:host-1' }, { from: 'pod:checkout-1', to: 'wl:checkout' }]));
    expect(b.edges).toEqual(expect.arrayContaining([{ from: 'svc:checkout', to: 'svc:payments' }, { from: 'svc:payments', to: 'svc:ledger' }]));
  });
});

/** A service on `n` VMs of its own, each on its own host. */
function wide(vms: number, kind: 'vm' | 'host' | 'datastore' | 'device' | 'node' = 'vm') {
  const nodes = [node('svc:big')];
  const links = [];
  for (let i = 0; i < vms; i++) {
    const k = `${kind}:${String(i).padStart(4, '0')}`;
    nodes.push(node(k, kind));
    links.push(link('svc:big', k, 'runs-on'));
  }
  return buildGraph(nodes, links);
}

describe('caps and refusals', () => {
  for (const [kind, cap] of [['vm', INFRA_CAPS.vm], ['host', INFRA_CAPS.host], ['node', INFRA_CAPS.node], ['datastore', INFRA_CAPS.datastore], ['device', INFRA_CAPS.device]] as const) {
    it(`caps ${kind}s at ${cap} and names the rest under notSilenced`, () => {
      const b = computeBlast(wide(cap + 7, kind), { components: [comp('svc:big')], hops: 1, silenceInfra: 'dedicated' });
      expect(b.scope.assetKeys).toHaveLength(cap);
      expect(b.counts.capped).toBe(7);
      const capped = b.notSilenced.find((n) => n.kind === 'capped')!;
      expect(capped.count).toBe(7);
      // Closest first, then by key: the last seven keys are the ones left out.
      expect(keys(capped.items as Array<{ key: string }>)[0]).toBe(`${kind}:${String(cap).padStart(4, '0')}`);
    });
  }
  it('caps workloads at 200, a bare pod counting as one', () => {
    const nodes = [node('svc:big')];
    const links = [];
    for (let i = 0; i < 210; i++) {
      nodes.push(node(`pod:${i}`, 'pod'));
      links.push(link('svc:big', `pod:${i}`, 'runs-on'));
    }
    const b = computeBlast(buildGraph(nodes, links), { components: [comp('svc:big')], hops: 1, silenceInfra: 'all' });
    expect(b.counts.workloads).toBe(INFRA_CAPS.workload);
    expect(b.counts.capped).toBe(10);
  });
  it('never caps infrastructure named as a component', () => {
    const g = wide(210);
    const named = Array.from({ length: 20 }, (_, i) => comp(`vm:${String(200 + i % 10).padStart(4, '0')}`, 'vm'));
    const b = computeBlast(g, { components: [comp('svc:big'), ...named.slice(0, 10)], hops: 1, silenceInfra: 'dedicated' });
    for (const c of named.slice(0, 10)) expect(b.scope.assetKeys).toContain(c.key);
  });
  it('refuses over 600 silenced items after the caps', () => {
    const nodes = [node('svc:big')];
    const links = [];
    for (const [kind, n] of [['vm', 200], ['host', 100], ['node', 100], ['datastore', 50], ['device', 100], ['workload', 60]] as const) {
      for (let i = 0; i < n; i++) {
        nodes.push(node(`${kind}:${i}`, kind));
        links.push(link('svc:big', `${kind}:${i}`, 'runs-on'));
      }
    }
    const b = computeBlast(buildGraph(nodes, links), { components: [comp('svc:big')], hops: 1, silenceInfra: 'dedicated' });
    expect(b.counts.items).toBe(610);
    expect(b.refused).toBe('over 600 silenced infrastructure items after the per-kind caps (610)');
  });
  it('marks 100 services as large and refuses over 300', () => {
    const star = (n: number) => buildGraph([node('svc:hub'), ...Array.from({ length: n }, (_, i) => node(`svc:c${i}`))], Array.from({ length: n }, (_, i) => link(`svc:c${i}`, 'svc:hub')));
    expect(computeBlast(star(98), { components: [comp('svc:hub')], hops: 1, silenceInfra: 'dedicated' })).toMatchObject({ large: false, refused: null });
    expect(computeBlast(star(99), { components: [comp('svc:hub')], hops: 1, silenceInfra: 'dedicated' })).toMatchObject({ large: true, refused: null });
    expect(computeBlast(star(300), { components: [comp('svc:hub')], hops: 1, silenceInfra: 'dedicated' }).refused).toBe('over 300 services (counting stopped at 301)');
  });
  it('stops at the service that refuses the change: no infrastructure walked, no call edges', () => {
    // Callers of a hub, each on its own pod on a shared node; the hub runs on a VM, and a host is named too.
    const hub = (callers: number) => buildGraph(
      [node('svc:hub'), node('vm:hub', 'vm'), node('node:shared', 'node'), node('host:named', 'host'),
        ...Array.from({ length: callers }, (_, i) => node(`svc:c${i}`)), ...Array.from({ length: callers }, (_, i) => node(`pod:c${i}`, 'pod'))],
      [link('svc:hub', 'vm:hub', 'runs-on'),
        ...Array.from({ length: callers }, (_, i) => [link(`svc:c${i}`, 'svc:hub'), link(`svc:c${i}`, `pod:c${i}`, 'runs-on'), link(`pod:c${i}`, 'node:shared', 'runs-on')]).flat()],
    );
    const components = [comp('svc:hub'), comp('host:named', 'host')];
    const refused = computeBlast(hub(2_000), { components, hops: 1, silenceInfra: 'all' });
    expect(refused.refused).toBe('over 300 services (counting stopped at 301)');
    expect(refused.counts).toMatchObject({ services: 301, items: 1, hosts: 1, vms: 0, nodes: 0, workloads: 0, pods: 0, shared: 0, capped: 0 });
    expect(refused.scope.serviceKeys).toHaveLength(301);
    expect(refused.scope.assetKeys).toEqual(['host:named']);
    expect(keys(refused.infra)).toEqual(['host:named']);
    expect(refused.edges).toEqual([]);
    expect(keys(refused.nodes)).toEqual(['host:named', 'svc:hub']);
    expect(refused.warnings).toEqual(['over 300 services refuse the change: the walk stopped there, the infrastructure beneath them was not looked at, and the map shows the components only']);
    // At 300 services the same estate is walked in full: the VM, the node, the pods up to their cap, the edges.
    const walked = computeBlast(hub(299), { components, hops: 1, silenceInfra: 'all' });
    expect(walked.refused).toBeNull();
    expect(walked.counts).toMatchObject({ services: 300, hosts: 1, vms: 1, nodes: 1, workloads: 200, capped: 99 });
    expect(walked.edges).toHaveLength(299);
    expect(walked.warnings).toEqual([]);
  });
  it('counts databases and schemas apart: they neither stop the walk nor refuse the change', () => {
    const g = buildGraph([node('svc:app'), ...Array.from({ length: 400 }, (_, i) => node(`db:d${i}`, 'database'))], Array.from({ length: 400 }, (_, i) => link('svc:app', `db:d${i}`)));
    const b = computeBlast(g, { components: [comp('svc:app')], hops: 1, silenceInfra: 'dedicated' });
    expect(b.counts).toMatchObject({ services: 1, databases: 400 });
    expect(b.refused).toBeNull();
  });
});

describe('monitoring sources', () => {
  it('holds a source of one service of the change; names multi-service sources and monitors without a service', () => {
    const b = computeBlast(estate(), {
      components: [comp('svc:payments')], hops: 1, silenceInfra: 'dedicated',
      sources: [
        { id: 'prom/payments', name: 'payments job', services: ['svc:payments'], entities: [] },
        { id: 'prom/shop', name: 'shop dashboard', services: ['svc:payments', 'svc:reports'], entities: [] },
        { id: 'ping/host-1', name: 'host-1 ping', services: [], entities: ['host:host-1'] },
        { id: 'prom/reports', name: 'reports job', services: ['svc:reports'], entities: [] },
        { id: 'ping/far', name: 'elsewhere', services: [], entities: ['host:elsewhere'] },
      ],
    });
    expect(b.scope.sourceIds).toEqual(['prom/payments']);
    expect(b.counts.sources).toBe(1);
    expect(b.notSilenced.find((n) => n.kind === 'multi-service-source')).toMatchObject({ count: 1, items: [{ id: 'prom/shop' }] });
    expect(b.notSilenced.find((n) => n.kind === 'monitors')).toMatchObject({ count: 1, items: [{ id: 'ping/host-1' }] });
  });
});

describe('the scope line', () => {
  it('reads like the spec’s example, with the per-kind breakdown for its tooltip', () => {
    const c = { services: 12, databases: 2, schemas: 0, items: 3, workloads: 2, vms: 1, hosts: 0, nodes: 0, datastores: 0, devices: 0, volumes: 0, pods: 6, shared: 51, capped: 0, externals: 0, sources: 0 };
    expect(scopeLine(c)).toBe('Silence scope: 12 services · 2 databases · +54 infrastructure (3 held, 51 shared)');
    expect(scopeBreakdown(c)).toBe('2 workloads · 6 pods · 1 VM');
    expect(scopeLine({ ...c, services: 1, databases: 0, items: 0, shared: 0 })).toBe('Silence scope: 1 service');
  });
  it('is what a computed blast says', () => {
    expect(scopeLine(blast([comp('svc:payments')]).counts)).toBe('Silence scope: 3 services · +7 infrastructure (3 held, 4 shared)');
  });
});

describe('criticality inputs', () => {
  it('keeps tiers on the cards for the map', () => {
    const b = blast([comp('svc:checkout')]);
    expect(b.nodes.find((n) => n.key === 'svc:checkout')?.details?.tier as Tier).toBe('critical');
  });
});
