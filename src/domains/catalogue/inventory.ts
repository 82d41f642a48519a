import type { EntityKind, Via } from './entity.js';

export const NEIGHBOURS_CAP = 200;
export const EDGES_PER_WALK = 2_000;

export type GraphNode = {
  key: string; kind: EntityKind; name: string; stale: boolean; engine: string | null;
  tier: string | null; owner: string | null; team: string | null; environment: string | null;
};
export type GraphEdge = { other: string; via: Via; stale: boolean };
export type Graph = { nodes: Map<string, GraphNode>; out: Map<string, GraphEdge[]>; in: Map<string, GraphEdge[]>; keys: string[] };

export type Neighbour = { key: string; kind: string; name: string; via?: Via; stale?: true };
export type Side = { hop1: Neighbour[]; hop2: Neighbour[] };
export type WalkOptions = { hops: 1 | 2; includeStale: boolean };

export function buildGraph(nodes: GraphNode[], links: Array<{ from: string; to: string; via: Via; stale: boolean }>): Graph {
  const g: Graph = { nodes: new Map(nodes.map((n) => [n.key, n])), out: new Map(), in: new Map(), keys: nodes.map((n) => n.key).sort() };
  for (const l of links) {
    if (!g.nodes.has(l.from) || !g.nodes.has(l.to)) continue;
    (g.out.get(l.from) ?? g.out.set(l.from, []).get(l.from)!).push({ other: l.to, via: l.via, stale: l.stale });
    (g.in.get(l.to) ?? g.in.set(l.to, []).get(l.to)!).push({ other: l.from, via: l.via, stale: l.stale });
  }
  // Walks read neighbours in key order, so a truncated list is the same list every time.
  for (const list of [...g.out.values(), ...g.in.values()]) list.sort((a, b) => (a.other < b.other ? -1 : a.other > b.other ? 1 : 0));
  return g;
}

/**
 * One side of an entity's neighbourhood, breadth first so the shortest depth wins: a key is never
 * in both lists, the entity never in either. Stale call edges count only when asked; stale
 * placements and memberships always. On the uses side an external is reached but not walked
 * through. A list stops at 200 neighbours and the walk at 2,000 edges: then `truncated`.
 */
export function walk(g: Graph, key: string, side: 'uses' | 'usedBy', o: WalkOptions): Side & { truncated: boolean } {
  const adj = side === 'uses' ? g.out : g.in;
  const seen = new Set([key]);
  const out: Side = { hop1: [], hop2: [] };
  let examined = 0;
  let truncated = false;
  const counts = (e: GraphEdge) => o.includeStale || !(e.via === 'calls' && e.stale);
  const frontier: string[] = [];
  for (const e of adj.get(key) ?? []) {
    if (++examined > EDGES_PER_WALK) return { ...out, truncated: true };
    if (!counts(e) || seen.has(e.other)) continue;
    seen.add(e.other);
    if (out.hop1.length >= NEIGHBOURS_CAP) {
      truncated = true;
      continue;
    }
    const n = g.nodes.get(e.other)!;
    out.hop1.push({ key: n.key, kind: n.kind, name: n.name, via: e.via, ...(e.stale ? { stale: true as const } : {}) });
    frontier.push(n.key);
  }
  if (o.hops === 1) return { ...out, truncated };
  for (const k of frontier) {
    if (side === 'uses' && g.nodes.get(k)!.kind === 'external') continue;
    for (const e of adj.get(k) ?? []) {
      if (++examined > EDGES_PER_WALK) return { ...out, truncated: true };
      if (!counts(e) || seen.has(e.other)) continue;
      seen.add(e.other);
      if (out.hop2.length >= NEIGHBOURS_CAP) {
        truncated = true;
        continue;
      }
      const n = g.nodes.get(e.other)!;
      out.hop2.push({ key: n.key, kind: n.kind, name: n.name });
    }
  }
  return { ...out, truncated };
}

export type InventoryEntity = {
  key: string; kind: string; name: string; stale: boolean; engine?: string;
  meta?: { tier: string | null; owner: string | null; team: string | null; environment: string | null };
  uses: Side; usedBy: Side; truncated?: true;
};

export function inventoryEntity(g: Graph, key: string, o: WalkOptions): InventoryEntity {
  const n = g.nodes.get(key)!;
  const uses = walk(g, key, 'uses', o);
  const usedBy = walk(g, key, 'usedBy', o);
  const hasMeta = n.kind === 'service' && (n.tier || n.owner || n.team || n.environment);
  return {
    key: n.key, kind: n.kind, name: n.name, stale: n.stale,
    ...(n.engine && ['instance', 'database', 'schema'].includes(n.kind) ? { engine: n.engine } : {}),
    ...(hasMeta ? { meta: { tier: n.tier, owner: n.owner, team: n.team, environment: n.environment } } : {}),
    uses: { hop1: uses.hop1, hop2: uses.hop2 }, usedBy: { hop1: usedBy.hop1, hop2: usedBy.hop2 },
    ...(uses.truncated || usedBy.truncated ? { truncated: true as const } : {}),
  };
}
