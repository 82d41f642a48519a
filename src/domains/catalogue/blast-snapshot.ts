/**
 * How a blast radius is stored: compact (every key, name and kind once; lists columnar), trimmed in a
 * fixed order when it would exceed 512 KB, and answered in the full shape — completed from the
 * current graph where a trim took the map's infrastructure or the call edges away. Pure.
 */
import { BLAST_FORMAT, mapOf, type Blast, type BlastInfra, type BlastService, type MapCard, type NotSilenced, type ScopeCounts, type SilenceMode, type Side } from './blast.js';
import type { Graph } from './inventory.js';

export const STORED_LIMIT_BYTES = 512 * 1024;
/** Items a trimmed not-silenced group keeps (its count stays whole). */
export const NOT_SILENCED_KEPT = 20;

const SIDES: Side[] = ['component', 'caller', 'callee', 'both'];
const ROLES: MapCard['role'][] = ['component', 'caller', 'callee', 'both', 'infra'];

/** The stored form. Indexes point into `k` (keys), whose names and kinds sit beside them. */
export type CompactBlast = {
  v: typeof BLAST_FORMAT;
  /** Keys; their names ('' = the key without its prefix); the kinds, each once; each key's kind. */
  k: string[]; n: string[]; t: string[]; kt: number[];
  scope: { s: number[]; a: number[]; src: string[]; int: string[] };
  c: ScopeCounts; m: SilenceMode; h: 1 | 2;
  ns: Array<[NotSilenced['kind'], string, string, number, Array<number | Record<string, unknown>>]>;
  sv?: { k: number[]; hop: number[]; side: number[]; r?: number[][] };
  inf?: { k: number[]; s: number[]; sh: number[]; cap: number[]; pods: Array<number | null>; hop: number[]; d: number[]; r?: number[][] };
  e?: number[];
  nd: { k: number[]; role: number[]; hop: number[]; s: number[]; sh: number[]; det?: Array<0 | Omit<NonNullable<MapCard['details']>, 'instance'> & { i?: number }> };
  ln: number[];
  /** The entity each lineage link is bridged through (-1: none), present when any is. */
  lt?: number[];
  rf: string | null; lg: boolean; w: string[];
  mi?: 'live'; ed?: true;
};

/** Most names are their key without its prefix (svc:checkout → checkout): those are stored as ''. */
const suffix = (key: string) => key.slice(key.indexOf(':') + 1);
const shortName = (key: string, name: string) => (name === suffix(key) ? '' : name);

class Keys {
  readonly k: string[] = [];
  readonly n: string[] = [];
  readonly t: string[] = [];
  readonly kt: number[] = [];
  readonly #at = new Map<string, number>();
  readonly #kinds = new Map<string, number>();

  /** The index of a key; its kind and name are recorded the first time they are known. */
  id(key: string, kind = '', name = suffix(key)): number {
    const known = this.#at.get(key);
    if (known !== undefined) {
      if (kind && this.t[this.kt[known]!] === '') {
        this.kt[known] = this.kind(kind);
        this.n[known] = shortName(key, name);
      }
      return known;
    }
    const i = this.k.length;
    this.k.push(key);
    this.n.push(shortName(key, name));
    this.kt.push(this.kind(kind));
    this.#at.set(key, i);
    return i;
  }

  private kind(kind: string): number {
    const known = this.#kinds.get(kind);
    if (known !== undefined) return known;
    this.t.push(kind);
    this.#kinds.set(kind, this.t.length - 1);
    return this.t.length - 1;
  }
}

const flat = (pairs: Array<{ from: number; to: number }>) => pairs.flatMap((p) => [p.from, p.to]);
const isRef = (o: Record<string, unknown>) => Object.keys(o).length === 3 && typeof o.key === 'string' && typeof o.kind === 'string' && typeof o.name === 'string';

export function compactBlast(b: Blast): CompactBlast {
  const keys = new Keys();
  // Named things first, so a bare key met later finds its kind and name.
  for (const s of b.services ?? []) keys.id(s.key, s.kind, s.name);
  for (const i of b.infra ?? []) keys.id(i.key, i.kind, i.name);
  for (const c of b.nodes) keys.id(c.key, c.kind, c.name);
  const ref = (key: string) => keys.id(key);
  const c: CompactBlast = {
    v: BLAST_FORMAT, k: keys.k, n: keys.n, t: keys.t, kt: keys.kt,
    scope: { s: b.scope.serviceKeys.map(ref), a: b.scope.assetKeys.map(ref), src: b.scope.sourceIds, int: b.scope.integrationIds },
    c: b.counts, m: b.silenceInfra, h: b.hops,
    ns: b.notSilenced.map((x) => [x.kind, x.name, x.why, x.count, x.items.map((it) => (isRef(it) ? keys.id(it.key as string, it.kind as string, it.name as string) : it))]),
    nd: {
      k: b.nodes.map((x) => ref(x.key)), role: b.nodes.map((x) => ROLES.indexOf(x.role)), hop: b.nodes.map((x) => x.hop),
      s: b.nodes.map((x) => (x.silenced ? 1 : 0)), sh: b.nodes.map((x) => (x.shared ? 1 : 0)),
    },
    ln: flat(b.lineage.map((l) => ({ from: ref(l.from), to: ref(l.to) }))),
    rf: b.refused, lg: b.large, w: b.warnings,
  };
  if (b.lineage.some((l) => l.through)) c.lt = b.lineage.map((l) => (l.through ? keys.id(l.through) : -1));
  if (b.nodes.some((x) => x.details)) {
    c.nd.det = b.nodes.map((x) => {
      if (!x.details) return 0;
      const { instance, ...rest } = x.details;
      return instance ? { ...rest, i: keys.id(instance.key, instance.kind, instance.name) } : rest;
    });
  }
  if (b.services) {
    c.sv = { k: b.services.map((s) => ref(s.key)), hop: b.services.map((s) => s.hop), side: b.services.map((s) => SIDES.indexOf(s.side)) };
    if (b.services.some((s) => s.reason)) c.sv.r = b.services.map((s) => (s.reason ?? []).map(ref));
  }
  if (b.infra) {
    const inf = b.infra;
    c.inf = {
      k: inf.map((i) => ref(i.key)), s: inf.map((i) => (i.silenced ? 1 : 0)), sh: inf.map((i) => (i.shared ? 1 : 0)), cap: inf.map((i) => (i.capped ? 1 : 0)),
      pods: inf.map((i) => i.pods ?? null), hop: inf.map((i) => i.hop), d: inf.map((i) => i.depth),
    };
    if (inf.some((i) => i.reason)) c.inf.r = inf.map((i) => (i.reason ?? []).map(ref));
  }
  if (b.edges) c.e = flat(b.edges.map((e) => ({ from: ref(e.from), to: ref(e.to) })));
  if (b.mapInfra) c.mi = b.mapInfra;
  if (b.edgesDropped) c.ed = true;
  return c;
}

const pairs = (xs: number[], key: (i: number) => string) => {
  const out: Array<{ from: string; to: string }> = [];
  for (let i = 0; i + 1 < xs.length; i += 2) out.push({ from: key(xs[i]!), to: key(xs[i + 1]!) });
  return out;
};

export function expandBlast(c: CompactBlast): Blast {
  const key = (i: number) => c.k[i]!;
  const refOf = (i: number) => ({ key: c.k[i]!, kind: c.t[c.kt[i]!]!, name: c.n[i] || suffix(c.k[i]!) });
  const b: Blast = {
    format: BLAST_FORMAT,
    scope: { serviceKeys: c.scope.s.map(key), assetKeys: c.scope.a.map(key), hvEntityKeys: c.scope.a.map(key), sourceIds: c.scope.src, integrationIds: c.scope.int },
    counts: c.c, silenceInfra: c.m, hops: c.h,
    notSilenced: c.ns.map(([kind, name, why, count, items]) => ({ kind, name, why, count, items: items.map((it) => (typeof it === 'number' ? refOf(it) : it)) })),
    nodes: c.nd.k.map((k, i) => {
      const det = c.nd.det?.[i];
      const card: MapCard = { ...refOf(k), role: ROLES[c.nd.role[i]!]!, hop: c.nd.hop[i]!, silenced: c.nd.s[i] === 1 };
      if (c.nd.sh[i] === 1) card.shared = true;
      if (det) {
        const { i: inst, ...rest } = det;
        card.details = inst === undefined ? rest : { ...rest, instance: refOf(inst) };
      }
      return card;
    }),
    lineage: pairs(c.ln, key).map((l, i) => (c.lt && c.lt[i]! >= 0 ? { ...l, through: key(c.lt[i]!) } : l)),
    refused: c.rf, large: c.lg, warnings: c.w,
  };
  if (c.sv) {
    const sv = c.sv;
    b.services = sv.k.map((k, i): BlastService => ({ ...refOf(k), hop: sv.hop[i]!, side: SIDES[sv.side[i]!]!, ...(sv.r ? { reason: sv.r[i]!.map(key) } : {}) }));
  }
  if (c.inf) {
    const f = c.inf;
    b.infra = f.k.map((k, i): BlastInfra => ({
      ...refOf(k), silenced: f.s[i] === 1, shared: f.sh[i] === 1, ...(f.cap[i] === 1 ? { capped: true as const } : {}),
      ...(f.pods[i] !== null && f.pods[i] !== undefined ? { pods: f.pods[i]! } : {}), hop: f.hop[i]!, depth: f.d[i]!,
      ...(f.r ? { reason: f.r[i]!.map(key) } : {}),
    }));
  }
  if (c.e) b.edges = pairs(c.e, key);
  if (c.mi) b.mapInfra = c.mi;
  if (c.ed) b.edgesDropped = true;
  return b;
}

export const byteSize = (c: CompactBlast) => Buffer.byteLength(JSON.stringify(c));

/** The trim steps, in order; each names itself in the warnings. Counts and scope are never touched. */
export const TRIM_STEPS: Array<{ warning: string; apply: (b: Blast) => Blast }> = [
  {
    warning: "trimmed the infrastructure items' reason chains",
    apply: (b) => ({ ...b, infra: b.infra?.map(({ reason: _r, ...i }) => i) }),
  },
  {
    warning: "trimmed the map cards' details",
    apply: (b) => ({ ...b, nodes: b.nodes.map(({ details: _d, ...n }) => n) }),
  },
  { warning: 'folded pods into their workloads on the map', apply: foldPods },
  {
    warning: 'dropped the infrastructure cards from the map: they are drawn from the current graph',
    apply: (b) => {
      const infra = new Set(b.nodes.filter((n) => n.role === 'infra').map((n) => n.key));
      return { ...b, nodes: b.nodes.filter((n) => !infra.has(n.key)), lineage: b.lineage.filter((l) => !infra.has(l.from) && !infra.has(l.to)), mapInfra: 'live' };
    },
  },
  {
    warning: "trimmed the services' reason chains",
    apply: (b) => ({ ...b, services: b.services?.map(({ reason: _r, ...s }) => s) }),
  },
  {
    warning: 'dropped the service and infrastructure lists, and all but the first 20 items of each not-silenced group (the counts and the scope are whole)',
    apply: ({ services: _s, infra: _i, ...b }) => ({ ...b, notSilenced: b.notSilenced.map((n) => ({ ...n, items: n.items.slice(0, NOT_SILENCED_KEPT) })) }),
  },
  {
    warning: 'dropped the call edges: they are drawn from the current call graph',
    apply: ({ edges: _e, ...b }) => ({ ...b, edgesDropped: true }),
  },
];

/** Pod cards leave the map; their runs-on links are bridged through to what they connected. */
function foldPods(b: Blast): Blast {
  const pods = new Set(b.nodes.filter((n) => n.kind === 'pod').map((n) => n.key));
  if (!pods.size) return b;
  const ins = new Map<string, string[]>();
  const outs = new Map<string, string[]>();
  for (const l of b.lineage) {
    if (pods.has(l.to)) (ins.get(l.to) ?? ins.set(l.to, []).get(l.to)!).push(l.from);
    if (pods.has(l.from)) (outs.get(l.from) ?? outs.set(l.from, []).get(l.from)!).push(l.to);
  }
  const seen = new Set<string>();
  const lineage: Blast['lineage'] = [];
  const add = (from: string, to: string, through?: string) => {
    const id = `${from}\u0000${to}`;
    if (from === to || seen.has(id)) return;
    seen.add(id);
    lineage.push({ from, to, ...(through ? { through } : {}) });
  };
  for (const l of b.lineage) if (!pods.has(l.from) && !pods.has(l.to)) add(l.from, l.to, l.through);
  for (const p of pods) for (const from of ins.get(p) ?? []) for (const to of outs.get(p) ?? []) if (!pods.has(from) && !pods.has(to)) add(from, to);
  return { ...b, nodes: b.nodes.filter((n) => !pods.has(n.key)), lineage };
}

/** The stored form, trimmed step by step until it fits; what was trimmed is named in its warnings. */
export function storeBlast(b: Blast, limit = STORED_LIMIT_BYTES): { stored: CompactBlast; bytes: number; trimmed: string[] } {
  const { derivedFromLive: _d, infraFromLive: _i, edgesFromLive: _e, ...clean } = b;
  let current: Blast = clean;
  let stored = compactBlast(current);
  let bytes = byteSize(stored);
  const trimmed: string[] = [];
  for (const step of TRIM_STEPS) {
    if (bytes <= limit) break;
    current = step.apply(current);
    trimmed.push(step.warning);
    current = { ...current, warnings: [...clean.warnings, ...trimmed] };
    stored = compactBlast(current);
    bytes = byteSize(stored);
  }
  if (bytes > limit) {
    const w = `still ${Math.ceil(bytes / 1024)} KB after every trim step: the scope is never trimmed`;
    current = { ...current, warnings: [...current.warnings, w] };
    trimmed.push(w);
    stored = compactBlast(current);
    bytes = byteSize(stored);
  }
  return { stored, bytes, trimmed };
}

/**
 * The stored snapshot as answered: the scope and counts exactly as registered; the map's
 * infrastructure and the call edges redrawn from the current graph when a trim took them.
 */
export function answerBlast(c: CompactBlast, live: Graph | null): Blast {
  const b = expandBlast(c);
  b.derivedFromLive = false;
  b.infraFromLive = false;
  b.edgesFromLive = false;
  if (!live) return b;
  const inScope = new Set(b.scope.serviceKeys);
  if (b.edgesDropped) {
    b.edges = [];
    for (const k of b.scope.serviceKeys) for (const e of live.out.get(k) ?? []) if (e.via === 'calls' && !e.stale && inScope.has(e.other)) b.edges.push({ from: k, to: e.other });
    b.edgesFromLive = true;
  }
  const services: BlastService[] = b.nodes.filter((n) => n.role !== 'infra').map((n) => ({ key: n.key, kind: n.kind, name: n.name, hop: n.hop, side: n.role as Side }));
  if (b.nodes.length === 0 && b.scope.serviceKeys.length > 0) {
    // A snapshot without a map: every card comes from the current graph.
    const listed = b.scope.serviceKeys.filter((k) => live.nodes.has(k)).map((k): BlastService => ({ key: k, kind: live.nodes.get(k)!.kind, name: live.nodes.get(k)!.name, hop: 0, side: 'component' }));
    const m = mapOf(live, listed, liveInfra(b, live, listed));
    b.nodes = m.nodes;
    b.lineage = m.lineage;
    b.derivedFromLive = true;
  } else if (b.mapInfra === 'live') {
    const m = mapOf(live, services, liveInfra(b, live, services));
    const infraCards = m.nodes.filter((n) => n.role === 'infra');
    const present = new Set([...b.nodes.map((n) => n.key), ...infraCards.map((n) => n.key)]);
    b.nodes = [...b.nodes, ...infraCards];
    const seen = new Set(b.lineage.map((l) => `${l.from}\u0000${l.to}`));
    for (const l of m.lineage) if (present.has(l.from) && present.has(l.to) && !seen.has(`${l.from}\u0000${l.to}`)) b.lineage.push(l);
    b.infraFromLive = true;
  }
  return b;
}

/** Infrastructure under the services in the current graph, tinted by the registered scope. */
function liveInfra(b: Blast, g: Graph, services: BlastService[]): BlastInfra[] {
  const silenced = new Set(b.scope.assetKeys);
  const out: BlastInfra[] = [];
  const seen = new Set(services.map((s) => s.key));
  let frontier = services.map((s) => ({ key: s.key, hop: s.hop }));
  for (let depth = 1; frontier.length && depth <= 12; depth++) {
    const next: typeof frontier = [];
    for (const f of frontier) {
      for (const e of g.out.get(f.key) ?? []) {
        if (e.via !== 'runs-on' || seen.has(e.other)) continue;
        seen.add(e.other);
        const n = g.nodes.get(e.other)!;
        next.push({ key: n.key, hop: f.hop });
        if (n.kind === 'pod') continue;
        out.push({ key: n.key, kind: n.kind, name: n.name, silenced: silenced.has(n.key), shared: b.silenceInfra === 'dedicated' && !silenced.has(n.key), hop: f.hop, depth });
      }
    }
    frontier = next;
  }
  return out;
}
