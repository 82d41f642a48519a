import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBlast, type Blast } from './blast.js';
import { answerBlast, byteSize, compactBlast, expandBlast, storeBlast, TRIM_STEPS } from './blast-snapshot.js';
import type { EntityKind, Via } from './entity.js';
import { buildGraph, type GraphNode } from './inventory.js';

const node = (key: string, kind: EntityKind = 'service', extra: Partial<GraphNode> = {}): GraphNode => ({
  key, kind, name: key.slice(key.indexOf(':') + 1), stale: false, engine: null, tier: null, owner: null, team: null, environment: null, ...extra,
});
const link = (from: string, to: string, via: Via = 'calls') => ({ from, to, via, stale: false });

/**
 * A hub of `callers` services, each on a pod of its own Deployment on one of `nodes` Kubernetes
 * nodes, the nodes on VMs on hosts; long names make the snapshot heavy.
 */
function estate(callers: number, nodes = 40, padding = 60) {
  const ns: GraphNode[] = [node('svc:hub', 'service', { tier: 'critical' }), node('db:pg/orders', 'database'), node('svc:pg', 'instance', { name: 'Prod (10.4.16.71)' })];
  const ls = [link('svc:hub', 'db:pg/orders'), link('db:pg/orders', 'svc:pg', 'runs-on')];
  const pad = 'x'.repeat(padding);
  for (let n = 0; n < nodes; n++) {
    ns.push(node(`node:k8s-${n}-${pad}`, 'node'), node(`vm:vm-${n}-${pad}`, 'vm'), node(`host:h-${n % 10}-${pad}`, 'host'));
    ls.push(link(`node:k8s-${n}-${pad}`, `vm:vm-${n}-${pad}`, 'runs-on'), link(`vm:vm-${n}-${pad}`, `host:h-${n % 10}-${pad}`, 'runs-on'));
  }
  for (let i = 0; i < callers; i++) {
    const s = `svc:caller-${i}-${pad}`;
    const w = `wl:deploy-${i}-${pad}`;
    ns.push(node(s), node(w, 'workload'), node(`pod:${i}-a-${pad}`, 'pod'), node(`pod:${i}-b-${pad}`, 'pod'));
    ls.push(link(s, 'svc:hub'), link(s, `pod:${i}-a-${pad}`, 'runs-on'), link(s, `pod:${i}-b-${pad}`, 'runs-on'));
    for (const p of ['a', 'b']) ls.push(link(`pod:${i}-${p}-${pad}`, w, 'runs-on'), link(`pod:${i}-${p}-${pad}`, `node:k8s-${i % nodes}-${pad}`, 'runs-on'));
    if (i > 0) ls.push(link(s, `svc:caller-${i - 1}-${pad}`));
  }
  return buildGraph(ns, ls);
}
const hubBlast = (callers: number, g = estate(callers)) => computeBlast(g, { components: [{ kind: 'service', key: 'svc:hub', name: 'hub', seen: true }], hops: 1, silenceInfra: 'all' });

describe('the stored form of a blast radius', () => {
  it('answers exactly what was stored (compact → full)', () => {
    const b = hubBlast(30);
    expect(expandBlast(compactBlast(b))).toEqual(b);
  });
  it('holds for any blast of any estate (property)', () => {
    const kinds: EntityKind[] = ['service', 'database', 'instance', 'pod', 'workload', 'node', 'vm', 'host', 'datastore', 'device', 'external'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 25 }), fc.constantFrom<Via>('calls', 'runs-on')), { maxLength: 80 }),
        fc.array(fc.integer({ min: 0, max: 25 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('dedicated', 'all', 'none' as const),
        fc.constantFrom(1 as const, 2 as const),
        (links, comps, mode, hops) => {
          const ns = Array.from({ length: 26 }, (_, i) => node(`k:${i}`, kinds[i % kinds.length]!, { tier: i % 3 === 0 ? 'important' : null, engine: i % 5 === 0 ? 'postgres' : null }));
          const g = buildGraph(ns, links.filter(([a, b]) => a !== b).map(([a, b, via]) => link(`k:${a}`, `k:${b}`, via)));
          const b = computeBlast(g, { components: comps.map((i) => ({ kind: ns[i]!.kind, key: `k:${i}`, name: ns[i]!.name, seen: true })), hops, silenceInfra: mode });
          expect(expandBlast(JSON.parse(JSON.stringify(compactBlast(b))))).toEqual(b);
        },
      ),
      { numRuns: 200 },
    );
  });
  it('writes each key once', () => {
    const stored = compactBlast(hubBlast(50));
    expect(new Set(stored.k).size).toBe(stored.k.length);
    expect(JSON.stringify(stored).split('svc:caller-7-').length - 1).toBe(1);
  });
  it('keeps a blast under the limit untrimmed', () => {
    const r = storeBlast(hubBlast(30));
    expect(r.trimmed).toEqual([]);
    expect(r.bytes).toBeLessThan(512 * 1024);
  });
});

describe('trimming a snapshot over 512 KB', () => {
  it('trims in the fixed order, names each step, stops as soon as it fits, and never touches the scope or the counts', () => {
    const b = hubBlast(250);
    const full = byteSize(compactBlast(b));
    // Walk the limit down: each lower limit takes one more step, in the documented order.
    const sizes: number[] = [];
    let current: Blast = b;
    for (const step of TRIM_STEPS) {
      current = step.apply(current);
      sizes.push(byteSize(compactBlast(current)));
    }
    for (let i = 0; i < TRIM_STEPS.length; i++) {
      const limit = i === 0 ? full - 1 : sizes[i - 1]! - 1;
      const r = storeBlast(b, limit);
      expect(r.trimmed).toEqual(TRIM_STEPS.slice(0, i + 1).map((s) => s.warning));
      const answered = expandBlast(r.stored);
      expect(answered.scope).toEqual(b.scope);
      expect(answered.counts).toEqual(b.counts);
      expect(answered.warnings).toEqual(r.trimmed);
    }
    expect(TRIM_STEPS.map((s) => s.warning)).toEqual([
      "trimmed the infrastructure items' reason chains",
      "trimmed the map cards' details",
      'folded pods into their workloads on the map',
      'dropped the infrastructure cards from the map: they are drawn from the current graph',
      "trimmed the services' reason chains",
      'dropped the service and infrastructure lists, and all but the first 20 items of each not-silenced group (the counts and the scope are whole)',
      'dropped the call edges: they are drawn from the current call graph',
    ]);
  });
  it('trims a real 512 KB overflow to fit', () => {
    // 250 callers on 500 Kubernetes nodes with long names, each node also running a service outside
    // the change: the nodes, VMs and hosts are shared — in the map and the lists, not in the scope.
    const g = estate(250, 500, 400);
    const nodes = [...g.nodes.values()].filter((n) => n.kind === 'node').map((n) => n.key);
    const outsider = buildGraph(
      [...g.nodes.values(), node('svc:outsider'), ...nodes.map((k, i) => node(`pod:outsider-${i}`, 'pod'))],
      [...[...g.out.entries()].flatMap(([from, es]) => es.map((e) => ({ from, to: e.other, via: e.via, stale: e.stale }))),
        ...nodes.flatMap((k, i) => [link('svc:outsider', `pod:outsider-${i}`, 'runs-on'), link(`pod:outsider-${i}`, k, 'runs-on')])],
    );
    const b = computeBlast(outsider, { components: [{ kind: 'service', key: 'svc:hub', name: 'hub', seen: true }], hops: 1, silenceInfra: 'dedicated' });
    expect(b.refused).toBeNull();
    expect(byteSize(compactBlast(b))).toBeGreaterThan(512 * 1024);
    const r = storeBlast(b);
    expect(r.bytes).toBeLessThanOrEqual(512 * 1024);
    expect(r.trimmed.length).toBeGreaterThan(0);
    expect(expandBlast(r.stored).scope).toEqual(b.scope);
  });
  it('says so when even the scope alone is over the limit', () => {
    const r = storeBlast(hubBlast(100), 2_000);
    expect(r.trimmed.at(-1)).toMatch(/^still \d+ KB after every trim step: the scope is never trimmed$/);
    expect(expandBlast(r.stored).scope).toEqual(hubBlast(100).scope);
  });
  it('folds pods into their workloads, bridging the runs-on links', () => {
    const b = hubBlast(3);
    const folded = TRIM_STEPS[2]!.apply(b);
    expect(folded.nodes.some((n) => n.kind === 'pod')).toBe(false);
    const pad = 'x'.repeat(60);
    expect(folded.lineage).toEqual(expect.arrayContaining([
      { from: `svc:caller-0-${pad}`, to: `wl:deploy-0-${pad}` },
      { from: `svc:caller-0-${pad}`, to: `node:k8s-0-${pad}` },
    ]));
  });
});

describe('answering a stored snapshot', () => {
  it('draws trimmed infrastructure cards and call edges from the current graph, and says so', () => {
    const g = estate(250);
    const b = hubBlast(250, g);
    const sizes = TRIM_STEPS.reduce<{ b: Blast; sizes: number[] }>((acc, s) => {
      const next = s.apply(acc.b);
      return { b: next, sizes: [...acc.sizes, byteSize(compactBlast(next))] };
    }, { b, sizes: [] }).sizes;
    const r = storeBlast(b, sizes[5]! - 1);
    expect(r.stored.mi).toBe('live');
    expect(r.stored.ed).toBe(true);
    const answered = answerBlast(r.stored, g);
    expect(answered).toMatchObject({ infraFromLive: true, edgesFromLive: true, derivedFromLive: false });
    expect(new Set(answered.edges!.map((e) => `${e.from}>${e.to}`))).toEqual(new Set(b.edges!.map((e) => `${e.from}>${e.to}`)));
    expect(answered.nodes.filter((n) => n.role === 'infra').length).toBeGreaterThan(0);
    // Tinted by the scope as registered, not by today's graph.
    for (const n of answered.nodes.filter((c) => c.role === 'infra')) expect(n.silenced).toBe(b.scope.assetKeys.includes(n.key));
  });
  it('draws the whole map from the current graph for a snapshot without one', () => {
    const g = estate(5);
    const b = { ...hubBlast(5, g), nodes: [], lineage: [] };
    const answered = answerBlast(compactBlast(b), g);
    expect(answered.derivedFromLive).toBe(true);
    expect(answered.nodes.map((n) => n.key)).toEqual(expect.arrayContaining(['svc:hub']));
  });
  it('answers an untrimmed snapshot as stored, with the read-only flags false', () => {
    const g = estate(5);
    const b = hubBlast(5, g);
    expect(answerBlast(compactBlast(b), g)).toEqual({ ...b, derivedFromLive: false, infraFromLive: false, edgesFromLive: false });
  });
});
