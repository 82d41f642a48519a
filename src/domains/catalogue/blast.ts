/**
 * The blast radius of a change, computed on the catalogue graph. Pure: the graph, the resolved
 * components and the monitoring sources in, the full snapshot shape out.
 *
 * Services: the components, then their callers and callees one or two hops out over fresh call
 * edges (an external is reached, never walked through). Infrastructure: everything down the runs-on
 * chain of those services (service → pod → node / workload, node → vm → host → device, vm →
 * datastore). Which of it is silenced depends on the mode:
 *  - dedicated: only what every service above it (walked up its runs-on links) is in the change;
 *  - all: all of it;  - none: none of it.
 * Infrastructure named as a component is always silenced. Pods count per workload; each kind has a
 * cap, closest first; the rest is named under notSilenced. Over MAX_SERVICES services the change is
 * refused whatever runs beneath them, so the walk stops at the service that decides it, and the
 * infrastructure, the chains and the call edges are left out.
 */
import type { Graph, GraphNode } from './inventory.js';

export const BLAST_FORMAT = 'changeledger/change-blast/1';
export const SILENCE_MODES = ['dedicated', 'all', 'none'] as const;
export type SilenceMode = (typeof SILENCE_MODES)[number];

/** Per-kind caps on silenced infrastructure, closest first. A bare pod counts as a workload. */
export const INFRA_CAPS = { workload: 200, vm: 200, host: 100, node: 100, datastore: 50, device: 100 } as const;
export type CappedKind = keyof typeof INFRA_CAPS;
export const MAX_SERVICES = 300;
export const MAX_ITEMS = 600;
export const LARGE_SERVICES = 100;
/** The walk stops here: a hub cannot make one preview walk the estate (it is refused long before). */
export const SERVICE_CEILING = 5_000;

/** Kinds that take part in the call graph and can stand above infrastructure. */
export const SERVICE_KINDS: ReadonlySet<string> = new Set(['service', 'instance', 'database', 'schema']);
export const INFRA_KINDS: ReadonlySet<string> = new Set(['pod', 'workload', 'node', 'vm', 'host', 'datastore', 'device', 'volume']);

export type BlastComponent = { kind: string; key: string; name: string; seen: boolean };
export type MonitorSource = { id: string; name: string; services: string[]; entities: string[] };
export type Side = 'component' | 'caller' | 'callee' | 'both';

export type ScopeCounts = {
  services: number; databases: number; schemas: number; items: number; workloads: number; vms: number; hosts: number; nodes: number;
  datastores: number; devices: number; volumes: number; pods: number; shared: number; capped: number; externals: number; sources: number;
};
export type Ref = { key: string; kind: string; name: string };
export type NotSilenced = { kind: 'monitors' | 'multi-service-source' | 'external' | 'unseen' | 'shared-infra' | 'capped' | 'infra-off'; name: string; why: string; items: Array<Record<string, unknown>>; count: number };
export type BlastService = Ref & { hop: number; side: Side; reason?: string[] };
export type BlastInfra = Ref & { silenced: boolean; shared: boolean; capped?: true; pods?: number; hop: number; depth: number; reason?: string[] };
export type MapCard = Ref & {
  role: 'component' | 'caller' | 'callee' | 'both' | 'infra';
  hop: number; silenced: boolean; shared?: true;
  details?: { tier?: string; engine?: string; instance?: Ref; pods?: number };
};
export type Blast = {
  format: typeof BLAST_FORMAT;
  scope: { serviceKeys: string[]; assetKeys: string[]; hvEntityKeys: string[]; sourceIds: string[]; integrationIds: string[] };
  counts: ScopeCounts;
  silenceInfra: SilenceMode;
  hops: 1 | 2;
  notSilenced: NotSilenced[];
  services?: BlastService[];
  infra?: BlastInfra[];
  edges?: Array<{ from: string; to: string }>;
  nodes: MapCard[];
  /** Runs-on links among the cards; `through` names the entity a bridged link passes (an instance). */
  lineage: Array<{ from: string; to: string; through?: string }>;
  refused: string | null;
  large: boolean;
  warnings: string[];
  mapInfra?: 'live';
  edgesDropped?: true;
  derivedFromLive?: boolean;
  infraFromLive?: boolean;
  edgesFromLive?: boolean;
};

const CAP_LABEL: Record<CappedKind, [string, string]> = {
  workload: ['workload', 'workloads'], vm: ['VM', 'VMs'], host: ['host', 'hosts'], node: ['Kubernetes node', 'Kubernetes nodes'],
  datastore: ['datastore', 'datastores'], device: ['device', 'devices'],
};
const plural = (n: number, [one, many]: [string, string]) => `${n} ${n === 1 ? one : many}`;

function capKind(kind: string): CappedKind | null {
  if (kind === 'pod' || kind === 'workload') return 'workload';
  return kind in INFRA_CAPS ? (kind as CappedKind) : null;
}

/**
 * Links of one kind out of (or into) a key, as the inventory walks them: a stale call edge does not
 * count, a stale placement does (a pod last seen on a node a week ago may well still be there).
 * A plain array: this runs in the hottest loops of a preview.
 */
function links(g: Graph, key: string, dir: 'out' | 'in', via: 'calls' | 'runs-on'): string[] {
  const out: string[] = [];
  const list = (dir === 'out' ? g.out : g.in).get(key);
  if (list) for (const e of list) if (e.via === via && !(via === 'calls' && e.stale)) out.push(e.other);
  return out;
}

type Reached = { key: string; hop: number; side: Side; via: string | null };

/** The kinds counted against MAX_SERVICES (databases and schemas are listed, not counted). */
const COUNTED_KINDS: ReadonlySet<string> = new Set(['service', 'instance']);

type Reach = { services: Map<string, Reached>; externals: Map<string, Reached>; truncated: boolean; overServices: boolean };

/**
 * Components, callers and callees: breadth first in each direction on its own (a service that both
 * calls a component and is called by it is walked both ways), the shortest hop winning. The walk
 * ends at the service that puts the change over MAX_SERVICES: it is refused whatever else is found.
 */
function reachServices(g: Graph, roots: string[], hops: 1 | 2): Reach {
  const services = new Map<string, Reached>();
  const externals = new Map<string, Reached>();
  for (const k of roots) services.set(k, { key: k, hop: 0, side: 'component', via: null });
  let counted = roots.filter((k) => COUNTED_KINDS.has(g.nodes.get(k)!.kind)).length;
  if (counted > MAX_SERVICES) return { services, externals, truncated: false, overServices: true };
  for (const dir of ['in', 'out'] as const) {
    const side: Side = dir === 'in' ? 'caller' : 'callee';
    const walked = new Set(roots);
    let frontier = roots.filter((k) => g.nodes.get(k)?.kind !== 'external');
    for (let hop = 1; hop <= hops && frontier.length; hop++) {
      const next: string[] = [];
      for (const from of frontier) {
        for (const k of links(g, from, dir, 'calls')) {
          if (walked.has(k)) continue;
          walked.add(k);
          const kind = g.nodes.get(k)!.kind;
          if (kind === 'external') {
            if (!externals.has(k) && !services.has(k)) externals.set(k, { key: k, hop, side, via: from });
            continue;
          }
          const seen = services.get(k);
          if (seen) {
            if (seen.side !== 'component' && seen.side !== side) {
              if (hop < seen.hop) Object.assign(seen, { hop, side, via: from });
              else if (hop === seen.hop) seen.side = 'both';
            }
          } else if (services.size >= SERVICE_CEILING) {
            return { services, externals, truncated: true, overServices: false };
          } else {
            services.set(k, { key: k, hop, side, via: from });
            if (COUNTED_KINDS.has(kind) && ++counted > MAX_SERVICES) return { services, externals, truncated: false, overServices: true };
          }
          next.push(k);
        }
      }
      frontier = next;
    }
  }
  return { services, externals, truncated: false, overServices: false };
}

/** The path of keys from a component down to `key`, by the `via` pointers. */
function chain(key: string, by: Map<string, { via: string | null }>): string[] {
  const out = [key];
  let at = by.get(key)?.via ?? null;
  while (at !== null && out.length < 20) {
    out.push(at);
    at = by.get(at)?.via ?? null;
  }
  return out.reverse();
}

type Down = { key: string; hop: number; depth: number; via: string | null };

/** Everything down the runs-on links of the roots, closest first: by the hop of the service, then depth. */
function walkDown(g: Graph, roots: Array<{ key: string; hop: number }>): Map<string, Down> {
  const reached = new Map<string, Down>();
  const sorted = [...roots].sort((a, b) => a.hop - b.hop || (a.key < b.key ? -1 : 1));
  const rootKeys = new Set(roots.map((r) => r.key));
  for (let hop = 0; hop <= 2; hop++) {
    let frontier = sorted.filter((r) => r.hop === hop).map((r) => r.key);
    let depth = 1;
    while (frontier.length) {
      const next: string[] = [];
      for (const from of frontier) {
        for (const k of links(g, from, 'out', 'runs-on')) {
          if (reached.has(k) || rootKeys.has(k)) continue;
          reached.set(k, { key: k, hop, depth, via: from });
          next.push(k);
        }
      }
      frontier = next;
      depth += 1;
      if (depth > 12) break;
    }
  }
  return reached;
}

/**
 * Is every service above `key` (up its runs-on links) in the change? Stops at the first one that is
 * not. What stands above with no service at all (a node's system pods) does not make it shared, and
 * a database instance is walked through: the databases on it decide. Every entity's answer is
 * memoised for the one computation, so a VM under many hosts' lookups is judged once.
 */
function dedicated(g: Graph, key: string, inChange: ReadonlySet<string>, memo: Map<string, boolean>): boolean {
  const known = memo.get(key);
  if (known !== undefined) return known;
  // A cycle of placements (bad data) must not recurse forever: while being judged, it counts as dedicated.
  memo.set(key, true);
  let answer = true;
  for (const e of g.in.get(key) ?? []) {
    if (e.via !== 'runs-on' || inChange.has(e.other)) continue;
    const kind = g.nodes.get(e.other)!.kind;
    // An instance is never a component of its own: what counts is the databases on it.
    if (SERVICE_KINDS.has(kind) && kind !== 'instance') {
      answer = false;
      break;
    }
    if (!dedicated(g, e.other, inChange, memo)) {
      answer = false;
      break;
    }
  }
  memo.set(key, answer);
  return answer;
}

const ref = (n: GraphNode): Ref => ({ key: n.key, kind: n.kind, name: n.name });

function emptyCounts(): ScopeCounts {
  return { services: 0, databases: 0, schemas: 0, items: 0, workloads: 0, vms: 0, hosts: 0, nodes: 0, datastores: 0, devices: 0, volumes: 0, pods: 0, shared: 0, capped: 0, externals: 0, sources: 0 };
}

const COUNT_FIELD: Record<string, keyof ScopeCounts> = { workload: 'workloads', pod: 'workloads', vm: 'vms', host: 'hosts', node: 'nodes', datastore: 'datastores', device: 'devices', volume: 'volumes' };

/** The blast radius of the components under a mode. */
export function computeBlast(g: Graph, input: { components: BlastComponent[]; hops: 1 | 2; silenceInfra: SilenceMode; sources?: MonitorSource[] }): Blast {
  const { hops, silenceInfra: mode } = input;
  const counts = emptyCounts();
  const notSilenced: NotSilenced[] = [];
  const warnings: string[] = [];
  const unseen = input.components.filter((c) => !c.seen || !g.nodes.has(c.key));
  const present = input.components.filter((c) => c.seen && g.nodes.has(c.key));
  const infraComponents = new Set(present.filter((c) => INFRA_KINDS.has(g.nodes.get(c.key)!.kind)).map((c) => c.key));
  const serviceRoots = present.filter((c) => !infraComponents.has(c.key)).map((c) => c.key);

  const reach = reachServices(g, serviceRoots, hops);
  if (reach.truncated) warnings.push(`the walk stopped at ${SERVICE_CEILING} services: the change reaches more than that`);
  const services = [...reach.services.values()].sort((a, b) => a.hop - b.hop || (a.key < b.key ? -1 : 1));
  const inChange = new Set(services.map((s) => s.key));
  for (const s of services) {
    const kind = g.nodes.get(s.key)!.kind;
    if (kind === 'database') counts.databases += 1;
    else if (kind === 'schema') counts.schemas += 1;
    else if (COUNTED_KINDS.has(kind)) counts.services += 1;
  }

  // Once the services refuse the change, nothing below them can change the answer, and a hub's
  // thousands of services would cost the walk of their infrastructure: only named infrastructure
  // is kept. Down the runs-on chain otherwise; a pod is counted (and silenced) through its workload.
  const overServices = reach.overServices;
  const down = overServices ? new Map<string, Down>() : walkDown(g, [...services.map((s) => ({ key: s.key, hop: s.hop })), ...[...infraComponents].map((key) => ({ key, hop: 0 }))]);
  if (overServices) warnings.push(`over ${MAX_SERVICES} services refuse the change: the walk stopped there, the infrastructure beneath them was not looked at, and the map shows the components only`);
  const memo = new Map<string, boolean>();
  const infra: BlastInfra[] = [];
  const workloadOf = (pod: string) => links(g, pod, 'out', 'runs-on').find((k) => g.nodes.get(k)!.kind === 'workload') ?? null;
  const podsOf = (workload: string) => links(g, workload, 'in', 'runs-on').filter((k) => g.nodes.get(k)!.kind === 'pod');
  const items: Array<BlastInfra & { component: boolean }> = [];
  const pushItem = (key: string, hop: number, depth: number, component: boolean) => {
    const n = g.nodes.get(key)!;
    const isDedicated = component || dedicated(g, key, inChange, memo);
    const silenced = component || (mode === 'all' ? true : mode === 'dedicated' ? isDedicated : false);
    const item: BlastInfra & { component: boolean } = { key: n.key, kind: n.kind, name: n.name, silenced, shared: !component && !isDedicated, hop, depth, component };
    if (n.kind === 'workload') item.pods = podsOf(key).length;
    items.push(item);
  };
  for (const key of infraComponents) pushItem(key, 0, 0, true);
  const downs = [...down.values()].sort((a, b) => a.hop - b.hop || a.depth - b.depth || (a.key < b.key ? -1 : 1));
  for (const d of downs) {
    const n = g.nodes.get(d.key)!;
    if (!INFRA_KINDS.has(n.kind)) continue;
    // A pod of a workload is the workload's replica: the workload is the item.
    if (n.kind === 'pod' && workloadOf(d.key) !== null) continue;
    pushItem(d.key, d.hop, d.depth, false);
  }
  // Caps, closest first (components are never capped).
  const capped: BlastInfra[] = [];
  const perKind = new Map<CappedKind, number>();
  for (const it of items) {
    if (!it.silenced || it.component) continue;
    const ck = capKind(it.kind);
    if (ck === null) continue;
    const used = perKind.get(ck) ?? 0;
    if (used >= INFRA_CAPS[ck]) {
      it.silenced = false;
      it.capped = true;
      capped.push(it);
    } else perKind.set(ck, used + 1);
  }
  // A change refused for its services is not drawn: its chains and map would only cost time.
  for (const it of items) {
    const entry: BlastInfra = { key: it.key, kind: it.kind, name: it.name, silenced: it.silenced, shared: it.shared, hop: it.hop, depth: it.depth };
    if (it.capped) entry.capped = true;
    if (it.pods !== undefined) entry.pods = it.pods;
    if (!overServices) entry.reason = chain(it.key, down);
    infra.push(entry);
    if (it.silenced) {
      counts.items += 1;
      const field = COUNT_FIELD[it.kind];
      if (field) counts[field] += 1;
      if (it.kind === 'workload') counts.pods += it.pods ?? 0;
      if (it.kind === 'pod') counts.pods += 1;
    } else if (it.shared && mode === 'dedicated' && !it.capped) counts.shared += 1;
  }
  counts.capped = capped.length;
  counts.externals = reach.externals.size;

  if (mode === 'dedicated' && counts.shared > 0) {
    const shared = infra.filter((i) => i.shared && !i.silenced && !i.capped);
    notSilenced.push({ kind: 'shared-infra', name: `Shared infrastructure — ${kindBreakdown(shared)}`, why: 'other services run on it, so it keeps alerting', items: shared.map(({ key, kind, name }) => ({ key, kind, name })), count: shared.length });
  }
  if (mode === 'none') {
    const off = infra.filter((i) => !i.silenced);
    if (off.length) notSilenced.push({ kind: 'infra-off', name: `Infrastructure — ${kindBreakdown(off)}`, why: 'the change silences services only (silenceInfra: none)', items: off.map(({ key, kind, name }) => ({ key, kind, name })), count: off.length });
  }
  for (const ck of Object.keys(INFRA_CAPS) as CappedKind[]) {
    const left = capped.filter((c) => capKind(c.kind) === ck);
    if (left.length) notSilenced.push({ kind: 'capped', name: `${plural(left.length, CAP_LABEL[ck])} over the cap of ${INFRA_CAPS[ck]}`, why: 'farthest from the components first; they keep alerting', items: left.map(({ key, kind, name }) => ({ key, kind, name })), count: left.length });
  }
  if (reach.externals.size) {
    const ext = [...reach.externals.values()].map((e) => ref(g.nodes.get(e.key)!));
    notSilenced.push({ kind: 'external', name: `External services — ${ext.length}`, why: 'outside the estate: reached, never silenced nor walked through', items: ext, count: ext.length });
  }
  if (unseen.length) {
    notSilenced.push({ kind: 'unseen', name: `Not in the catalogue — ${unseen.length}`, why: 'kept on the change; nothing is silenced for a key the catalogue has not seen', items: unseen.map(({ key, kind, name }) => ({ key, kind, name })), count: unseen.length });
  }

  // Monitoring sources: one that stands for a single service of the change is held with it.
  const sourceIds: string[] = [];
  const multi: Array<Record<string, unknown>> = [];
  const anonymous: Array<Record<string, unknown>> = [];
  const touched = new Set([...inChange, ...infra.map((i) => i.key)]);
  for (const s of input.sources ?? []) {
    const mine = s.services.filter((k) => inChange.has(k));
    if (s.services.length === 1 && mine.length === 1) sourceIds.push(s.id);
    else if (s.services.length > 1 && mine.length > 0) multi.push({ id: s.id, name: s.name, services: s.services.length, inChange: mine.length });
    else if (s.services.length === 0 && s.entities.some((k) => touched.has(k))) anonymous.push({ id: s.id, name: s.name, entities: s.entities.filter((k) => touched.has(k)) });
  }
  counts.sources = sourceIds.length;
  if (multi.length) notSilenced.push({ kind: 'multi-service-source', name: `Sources of several services — ${multi.length}`, why: 'they also stand for services outside the change', items: multi, count: multi.length });
  if (anonymous.length) notSilenced.push({ kind: 'monitors', name: `Monitors without a service — ${anonymous.length}`, why: 'they watch the blast radius but name no service, so a change cannot hold them', items: anonymous, count: anonymous.length });

  const serviceList: BlastService[] = services.map((s) => {
    const n = g.nodes.get(s.key)!;
    return { key: n.key, kind: n.kind, name: n.name, hop: s.hop, side: s.side, ...(overServices ? {} : { reason: chain(s.key, reach.services) }) };
  });
  // Its call edges neither: they feed the map and the contracts, and a hub's run to tens of thousands.
  const edges: Array<{ from: string; to: string }> = [];
  if (!overServices) for (const s of services) for (const k of links(g, s.key, 'out', 'calls')) if (inChange.has(k)) edges.push({ from: s.key, to: k });

  const map = overServices
    ? mapOf(g, serviceList.filter((x) => x.side === 'component'), infra.filter((i) => i.hop === 0 && i.depth === 0))
    : mapOf(g, serviceList, infra);
  const assetKeys = infra.filter((i) => i.silenced).map((i) => i.key);
  // All replicas of a silenced workload are held with it.
  for (const i of infra) if (i.silenced && i.kind === 'workload') for (const p of podsOf(i.key)) assetKeys.push(p);
  const serviceKeys = services.map((s) => s.key);

  const refused = overServices
    ? `over ${MAX_SERVICES} services (counting stopped at ${counts.services})`
    : counts.items > MAX_ITEMS ? `over ${MAX_ITEMS} silenced infrastructure items after the per-kind caps (${counts.items})` : null;
  return {
    format: BLAST_FORMAT,
    scope: { serviceKeys, assetKeys, hvEntityKeys: assetKeys, sourceIds, integrationIds: [] },
    counts, silenceInfra: mode, hops, notSilenced, services: serviceList, infra, edges, nodes: map.nodes, lineage: map.lineage,
    refused, large: counts.services >= LARGE_SERVICES, warnings,
  };
}

/** “1 Kubernetes node, 24 VMs, 17 hosts”: in the order of the runs-on chain. */
function kindBreakdown(items: Ref[]): string {
  const by = new Map<string, number>();
  for (const i of items) {
    const k = capKind(i.kind) ?? i.kind;
    by.set(k, (by.get(k) ?? 0) + 1);
  }
  const order = ['workload', 'node', 'vm', 'host', 'datastore', 'device'];
  return [...by.entries()]
    .sort(([a], [b]) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b))
    .map(([k, n]) => plural(n, k in CAP_LABEL ? CAP_LABEL[k as CappedKind] : [k, `${k}s`]))
    .join(', ');
}

/** The map's cards and the runs-on links among them. A database card names its instance. */
export function mapOf(g: Graph, services: BlastService[], infra: BlastInfra[]): { nodes: MapCard[]; lineage: Blast['lineage'] } {
  const nodes: MapCard[] = [];
  const onMap = new Set<string>();
  for (const s of services) {
    const n = g.nodes.get(s.key);
    if (!n) continue;
    const card: MapCard = { key: n.key, kind: n.kind, name: n.name, role: s.side, hop: s.hop, silenced: true };
    const d = details(g, n);
    if (d) card.details = d;
    nodes.push(card);
    onMap.add(s.key);
  }
  for (const i of infra) {
    const n = g.nodes.get(i.key);
    if (!n || onMap.has(i.key)) continue;
    const card: MapCard = { key: n.key, kind: n.kind, name: n.name, role: 'infra', hop: i.hop, silenced: i.silenced };
    if (i.shared && !i.silenced) card.shared = true;
    const d = details(g, n, i.pods);
    if (d) card.details = d;
    nodes.push(card);
    onMap.add(i.key);
  }
  // A pod under a workload is drawn too (folded away only when a large snapshot is trimmed).
  for (const i of infra) {
    if (i.kind !== 'workload') continue;
    for (const p of g.in.get(i.key) ?? []) {
      if (p.via !== 'runs-on' || onMap.has(p.other) || g.nodes.get(p.other)?.kind !== 'pod') continue;
      const pod = g.nodes.get(p.other)!;
      const placedUnderChange = links(g, pod.key, 'in', 'runs-on').some((k) => onMap.has(k));
      if (!placedUnderChange) continue;
      nodes.push({ ...ref(pod), role: 'infra', hop: i.hop, silenced: i.silenced, ...(i.shared && !i.silenced ? { shared: true as const } : {}) });
      onMap.add(pod.key);
    }
  }
  // Runs-on links among the cards; through an entity that is no card (a database's instance) the
  // link is bridged, so a host under an instance still hangs from the database above it.
  const lineage: Array<{ from: string; to: string; through?: string }> = [];
  const seen = new Set<string>();
  for (const k of onMap) {
    const stack: Array<{ at: string; through?: string; depth: number }> = [{ at: k, depth: 0 }];
    while (stack.length) {
      const { at, through, depth } = stack.pop()!;
      for (const to of links(g, at, 'out', 'runs-on')) {
        if (onMap.has(to)) {
          const id = `${k}\u0000${to}`;
          if (!seen.has(id)) {
            seen.add(id);
            lineage.push({ from: k, to, ...(through ? { through } : {}) });
          }
        } else if (depth < 3) stack.push({ at: to, through: through ?? to, depth: depth + 1 });
      }
    }
  }
  return { nodes, lineage };
}

function details(g: Graph, n: GraphNode, pods?: number): MapCard['details'] | undefined {
  const d: NonNullable<MapCard['details']> = {};
  if (n.tier) d.tier = n.tier;
  if (n.engine) d.engine = n.engine;
  if (n.kind === 'database' || n.kind === 'schema') {
    // schema → database → instance: the card names the instance it lives on.
    let at: string | undefined = n.key;
    for (let i = 0; i < 2 && at; i++) {
      const below = links(g, at, 'out', 'runs-on');
      const inst = below.find((k) => g.nodes.get(k)!.kind === 'instance');
      if (inst) {
        d.instance = ref(g.nodes.get(inst)!);
        break;
      }
      at = below.find((k) => g.nodes.get(k)!.kind === 'database');
    }
  }
  if (pods !== undefined) d.pods = pods;
  return Object.keys(d).length ? d : undefined;
}

/** “Silence scope: 12 services · 2 databases · +54 infrastructure (3 held, 51 shared)”. */
export function scopeLine(c: ScopeCounts): string {
  const parts = [plural(c.services, ['service', 'services'])];
  if (c.databases) parts.push(plural(c.databases, ['database', 'databases']));
  if (c.schemas) parts.push(plural(c.schemas, ['schema', 'schemas']));
  const total = c.items + c.shared + c.capped;
  if (total) {
    const held = [`${c.items} held`, ...(c.shared ? [`${c.shared} shared`] : []), ...(c.capped ? [`${c.capped} over the caps`] : [])];
    parts.push(`+${total} infrastructure (${held.join(', ')})`);
  }
  return `Silence scope: ${parts.join(' · ')}`;
}

/** The tooltip of the scope line: silenced infrastructure per kind. */
export function scopeBreakdown(c: ScopeCounts): string {
  const rows: Array<[number, [string, string]]> = [
    [c.workloads, CAP_LABEL.workload], [c.pods, ['pod', 'pods']], [c.nodes, CAP_LABEL.node], [c.vms, CAP_LABEL.vm], [c.hosts, CAP_LABEL.host],
    [c.datastores, CAP_LABEL.datastore], [c.devices, CAP_LABEL.device], [c.volumes, ['volume', 'volumes']], [c.sources, ['monitoring source', 'monitoring sources']],
  ];
  return rows.filter(([n]) => n > 0).map(([n, l]) => plural(n, l)).join(' · ') || 'no infrastructure silenced';
}
