/**
 * What the blast benchmark measures on one loaded estate, each of our answers side by side with a
 * straightforward recursive-CTE computation of the same thing in SQL on the same tables, and the
 * two checked to agree:
 *  - preview-blast (BlastService.preview, hops 2, dedicated) of one component, on a warm snapshot;
 *    the SQL computes the service set, the dedicated infrastructure (uncapped) with the pods of its
 *    workloads, and the shared infrastructure;
 *  - an inventory page (CatalogueService.inventory, limit 500, hops 2); the SQL computes the hop-1 /
 *    hop-2 neighbour key sets of both sides for the same 500 entities.
 */
import { computeBlast, INFRA_KINDS, MAX_SERVICES, SERVICE_CEILING, SERVICE_KINDS, type Blast } from '../src/domains/catalogue/blast.js';
import { BlastService } from '../src/domains/catalogue/blast-service.js';
import { CatalogueService } from '../src/domains/catalogue/catalogue-service.js';
import type { Graph, InventoryEntity } from '../src/domains/catalogue/inventory.js';
import { MappingService } from '../src/domains/catalogue/mapping-service.js';
import { SettableClock } from '../src/platform/clock.js';
import type { Database } from '../src/platform/db/database.js';
import { int, latencyStats, ms, say, seededRandom, type LatencyStats } from './bench-support.js';
import type { EstateLoad } from './blast-estate.js';

export const PAGE_LIMIT = 500;
export const PREVIEW_HOPS = 2;

/**
 * The blast radius in SQL, one statement. Services: the components, then callers and callees up to
 * $3 hops over fresh call edges between fresh entities (an external is reached, never walked, never
 * a service). Infrastructure: everything down the runs-on links of the services; an item is an
 * infrastructure entity ($5) reached that way, a pod that runs on a workload counting through its
 * workload. Dedicated: no service-like entity ($4) outside the service set stands above it, walked
 * up its runs-on links, never past a service-like entity; NOT EXISTS stops each item's walk at the
 * first such entity. The answer: s = service, a = dedicated item or a pod of a dedicated workload,
 * x = shared item.
 *
 * The steps that follow links are LATERAL … OFFSET 0: the planner cannot estimate a recursive
 * term's rows and, left alone, hashes the whole links table in every iteration of the down walk
 * (0.7 s of 1.8 s a component at scale 1 on PostgreSQL); the fence keeps each step an index lookup.
 */
export const SCOPE_SQL = `
WITH RECURSIVE
roots AS (
  SELECT e.key, e.kind FROM catalogue_entities e
   WHERE e.org_id = $1 AND e.key = ANY($2::text[]) AND NOT (e.kind = ANY($5::text[]))
),
callers(key, hop) AS (
  SELECT key, 0 FROM roots WHERE kind <> 'external'
  UNION
  SELECT n.key, c.hop + 1
    FROM callers c
   CROSS JOIN LATERAL (
     SELECT l.from_key AS key FROM catalogue_links l
       JOIN catalogue_entities e ON e.org_id = $1 AND e.key = l.from_key AND NOT e.stale AND e.kind <> 'external'
      WHERE l.org_id = $1 AND l.to_key = c.key AND l.via = 'calls' AND NOT l.stale OFFSET 0) n
   WHERE c.hop < $3
),
callees(key, hop) AS (
  SELECT key, 0 FROM roots WHERE kind <> 'external'
  UNION
  SELECT n.key, c.hop + 1
    FROM callees c
   CROSS JOIN LATERAL (
     SELECT l.to_key AS key FROM catalogue_links l
       JOIN catalogue_entities e ON e.org_id = $1 AND e.key = l.to_key AND NOT e.stale AND e.kind <> 'external'
      WHERE l.org_id = $1 AND l.from_key = c.key AND l.via = 'calls' AND NOT l.stale OFFSET 0) n
   WHERE c.hop < $3
),
services AS MATERIALIZED (
  SELECT key FROM roots UNION SELECT key FROM callers UNION SELECT key FROM callees
),
down(key, kind) AS (
  SELECT n.key, n.kind
    FROM services s
   CROSS JOIN LATERAL (
     SELECT l.to_key AS key, e.kind FROM catalogue_links l
       JOIN catalogue_entities e ON e.org_id = $1 AND e.key = l.to_key AND NOT e.stale
      WHERE l.org_id = $1 AND l.from_key = s.key AND l.via = 'runs-on' AND NOT l.stale OFFSET 0) n
  UNION
  SELECT n.key, n.kind
    FROM down d
   CROSS JOIN LATERAL (
     SELECT l.to_key AS key, e.kind FROM catalogue_links l
       JOIN catalogue_entities e ON e.org_id = $1 AND e.key = l.to_key AND NOT e.stale
      WHERE l.org_id = $1 AND l.from_key = d.key AND l.via = 'runs-on' AND NOT l.stale OFFSET 0) n
),
items AS MATERIALIZED (
  SELECT d.key, d.kind
    FROM down d
    LEFT JOIN LATERAL (
      SELECT 1 AS yes FROM catalogue_links l
        JOIN catalogue_entities w ON w.org_id = $1 AND w.key = l.to_key AND w.kind = 'workload' AND NOT w.stale
       WHERE l.org_id = $1 AND l.from_key = d.key AND l.via = 'runs-on' AND NOT l.stale AND d.kind = 'pod' LIMIT 1) pw ON true
   WHERE d.kind = ANY($5::text[]) AND d.key NOT IN (SELECT key FROM services) AND pw.yes IS NULL
),
dedicated AS MATERIALIZED (
  SELECT i.key, i.kind FROM items i
   WHERE NOT EXISTS (
     WITH RECURSIVE up(key, kind) AS (
       SELECT l.from_key, e.kind
         FROM catalogue_links l
         JOIN catalogue_entities e ON e.org_id = $1 AND e.key = l.from_key AND NOT e.stale
        WHERE l.org_id = $1 AND l.to_key = i.key AND l.via = 'runs-on' AND NOT l.stale
       UNION
       SELECT n.key, n.kind
         FROM up u
        CROSS JOIN LATERAL (
          SELECT l.from_key AS key, e.kind FROM catalogue_links l
            JOIN catalogue_entities e ON e.org_id = $1 AND e.key = l.from_key AND NOT e.stale
           WHERE l.org_id = $1 AND l.to_key = u.key AND l.via = 'runs-on' AND NOT l.stale OFFSET 0) n
        WHERE NOT (u.kind = ANY($4::text[]))
     )
     SELECT 1 FROM up WHERE up.kind = ANY($4::text[]) AND up.key NOT IN (SELECT key FROM services))
)
SELECT 's' AS t, key FROM services
UNION ALL
SELECT 'a', key FROM dedicated
UNION ALL
SELECT 'a', l.from_key
  FROM dedicated d
  JOIN catalogue_links l ON l.org_id = $1 AND l.to_key = d.key AND l.via = 'runs-on' AND NOT l.stale
  JOIN catalogue_entities p ON p.org_id = $1 AND p.key = l.from_key AND p.kind = 'pod' AND NOT p.stale
 WHERE d.kind = 'workload'
UNION ALL
SELECT 'x', key FROM items WHERE key NOT IN (SELECT key FROM dedicated)`;

/**
 * The inventory's neighbour lists in SQL for given entities, one statement: both sides walked to
 * $4 hops over every link (stale call edges only with $3, stale placements always), the shortest
 * depth winning, the entity itself never listed, an external not walked through on the uses side.
 * The same LATERAL … OFFSET 0 steps as the blast radius's, for the same reason.
 */
export const INVENTORY_SQL = `
WITH RECURSIVE
uses(root, key, kind, depth) AS (
  SELECT e.key, e.key, e.kind, 0 FROM catalogue_entities e WHERE e.org_id = $1 AND e.key = ANY($2::text[])
  UNION
  SELECT u.root, n.key, n.kind, u.depth + 1
    FROM uses u
   CROSS JOIN LATERAL (
     SELECT l.to_key AS key, e.kind FROM catalogue_links l
       JOIN catalogue_entities e ON e.org_id = $1 AND e.key = l.to_key
      WHERE l.org_id = $1 AND l.from_key = u.key AND ($3 OR NOT (l.via = 'calls' AND l.stale)) OFFSET 0) n
   WHERE u.depth < $4 AND NOT (u.depth > 0 AND u.kind = 'external')
),
used_by(root, key, depth) AS (
  SELECT e.key, e.key, 0 FROM catalogue_entities e WHERE e.org_id = $1 AND e.key = ANY($2::text[])
  UNION
  SELECT b.root, n.key, b.depth + 1
    FROM used_by b
   CROSS JOIN LATERAL (
     SELECT l.from_key AS key FROM catalogue_links l
      WHERE l.org_id = $1 AND l.to_key = b.key AND ($3 OR NOT (l.via = 'calls' AND l.stale)) OFFSET 0) n
   WHERE b.depth < $4
)
SELECT 'uses' AS side, root, key, min(depth) AS hop FROM uses WHERE key <> root GROUP BY root, key
UNION ALL
SELECT 'usedBy', root, key, min(depth) FROM used_by WHERE key <> root GROUP BY root, key`;

/** `servicesOnly`: refused for its services, so our walk stopped there: our services are checked as a subset of the SQL's, which must be over the limit too. */
export type Check = { compared: number; equal: number; subset: number; servicesOnly: number; mismatches: string[] };
export type PreviewGroup = {
  label: string;
  hops: 1 | 2;
  components: number;
  ours: LatencyStats;
  baseline: LatencyStats;
  match: LatencyStats;
  compute: LatencyStats;
  check: Check;
  ceilingHit: number;
  refused: number;
  /** Means over the timed runs of our answer, and of the baseline's service count. */
  avg: { services: number; dedicated: number; shared: number; assets: number; baselineServices: number };
};
export type InventoryResult = { pages: number; ours: LatencyStats; baseline: LatencyStats; check: Check; truncated: number; slowest: { offset: number; kinds: string; ms: number }; bytes: number };
export type SnapshotLoad = { runs: number[]; nodes: number; edges: number };
export type BlastResult = { snapshot: SnapshotLoad; groups: PreviewGroup[]; inventory: InventoryResult };

type Scope = { services: Set<string>; assets: Set<string>; shared: Set<string> };

function emptyCheck(): Check {
  return { compared: 0, equal: 0, subset: 0, servicesOnly: 0, mismatches: [] };
}

function diff(a: Set<string>, b: Set<string>): { onlyA: string[]; onlyB: string[] } {
  return { onlyA: [...a].filter((k) => !b.has(k)), onlyB: [...b].filter((k) => !a.has(k)) };
}

function describe(what: string, a: Set<string>, b: Set<string>): string | null {
  const d = diff(a, b);
  if (!d.onlyA.length && !d.onlyB.length) return null;
  const few = (xs: string[]) => `${xs.length}${xs.length ? ` (${xs.slice(0, 5).join(', ')}${xs.length > 5 ? ', …' : ''})` : ''}`;
  return `${what}: ours ${a.size}, SQL ${b.size}; only ours ${few(d.onlyA)}; only SQL ${few(d.onlyB)}`;
}

/** Pods of a workload, as the blast radius holds them: fresh runs-on links from fresh pods. */
function podsOf(g: Graph, workload: string): string[] {
  return (g.in.get(workload) ?? []).filter((e) => e.via === 'runs-on' && !e.stale && g.nodes.get(e.other)?.kind === 'pod' && !g.nodes.get(e.other)!.stale).map((e) => e.other);
}

/** Our scope: the service set, the uncapped dedicated items (silenced or capped) with the pods of their workloads, the shared items. */
function ourScope(g: Graph, blast: Blast): Scope {
  const infra = blast.infra ?? [];
  const dedicated = infra.filter((i) => i.silenced || i.capped);
  const assets = new Set(dedicated.map((i) => i.key));
  for (const i of dedicated) if (i.kind === 'workload') for (const p of podsOf(g, i.key)) assets.add(p);
  return { services: new Set(blast.scope.serviceKeys), assets, shared: new Set(infra.filter((i) => i.shared).map((i) => i.key)) };
}

async function sqlScope(db: Database, orgId: string, keys: string[], hops: 1 | 2): Promise<Scope> {
  const r = await db.query<{ t: string; key: string }>(SCOPE_SQL, [orgId, keys, hops, [...SERVICE_KINDS], [...INFRA_KINDS]]);
  const s: Scope = { services: new Set(), assets: new Set(), shared: new Set() };
  for (const row of r.rows) (row.t === 's' ? s.services : row.t === 'a' ? s.assets : s.shared).add(row.key);
  return s;
}

type Services = { catalogue: CatalogueService; mappings: MappingService; blast: BlastService };

export function blastServices(db: Database, clock: SettableClock): Services {
  const catalogue = new CatalogueService({ db, clock });
  const mappings = new MappingService({ db, clock, catalogue });
  return { catalogue, mappings, blast: new BlastService({ db, clock, catalogue, mappings }) };
}

/**
 * Runs each component once through preview (timed), the same preview's two halves separately
 * (matching, computeBlast: where the time goes), and, where asked, the SQL (timed) and compares.
 */
async function previewGroup(
  db: Database, s: Services, orgId: string, engineLabel: string,
  o: { label: string; hops: 1 | 2; runs: Array<{ key: string; baseline: boolean }>; warmup: string[] },
): Promise<PreviewGroup> {
  const snap = await s.catalogue.snapshot(orgId);
  const input = (key: string) => ({ components: [{ key }], hops: o.hops, silenceInfra: 'dedicated' as const });
  for (const key of o.warmup) {
    await s.blast.preview(orgId, input(key));
    await sqlScope(db, orgId, [key], o.hops);
  }
  const ours: number[] = [];
  const base: number[] = [];
  const match: number[] = [];
  const compute: number[] = [];
  const check = emptyCheck();
  const avg = { services: 0, dedicated: 0, shared: 0, assets: 0, baselineServices: 0 };
  let ceilingHit = 0;
  let refused = 0;
  const compared = new Set<string>();
  for (const [i, run] of o.runs.entries()) {
    const t0 = performance.now();
    const p = await s.blast.preview(orgId, input(run.key));
    ours.push(performance.now() - t0);

    const m0 = performance.now();
    const m = await s.mappings.match(orgId, input(run.key));
    match.push(performance.now() - m0);
    const c0 = performance.now();
    computeBlast(snap.graph, { components: m.resolved, hops: o.hops, silenceInfra: 'dedicated' });
    compute.push(performance.now() - c0);

    const mine = ourScope(snap.graph, p.blast);
    const hit = mine.services.size >= SERVICE_CEILING;
    if (hit) ceilingHit++;
    if (p.refused) refused++;
    avg.services += mine.services.size;
    avg.assets += mine.assets.size;
    avg.dedicated += (p.blast.infra ?? []).filter((x) => x.silenced || x.capped).length;
    avg.shared += mine.shared.size;
    if (run.baseline) {
      const b0 = performance.now();
      const sql = await sqlScope(db, orgId, [run.key], o.hops);
      base.push(performance.now() - b0);
      avg.baselineServices += sql.services.size;
      if (!compared.has(run.key)) {
        compared.add(run.key);
        check.compared++;
        if (hit) {
          // Our walk stopped at the ceiling: our services must be some of the SQL's, and nothing else can be compared.
          const extra = [...mine.services].filter((k) => !sql.services.has(k));
          if (extra.length || sql.services.size < mine.services.size) check.mismatches.push(`${o.label} ${run.key}: at the ceiling, ${extra.length} of our ${mine.services.size} services are not among the SQL's ${sql.services.size} (${extra.slice(0, 5).join(', ')})`);
          else check.subset++;
        } else if (p.blast.counts.services > MAX_SERVICES) {
          // Refused for its services: our walk stopped at the service that decided it, above the
          // infrastructure. Our services must be some of the SQL's, and the SQL's over the limit too.
          const extra = [...mine.services].filter((k) => !sql.services.has(k));
          if (extra.length || sql.services.size <= MAX_SERVICES) check.mismatches.push(`${o.label} ${run.key}: refused at ${mine.services.size} services, ${extra.length} of them not among the SQL's ${sql.services.size} (${extra.slice(0, 5).join(', ')})`);
          else check.servicesOnly++;
        } else {
          const bad = [describe('services', mine.services, sql.services), describe('dedicated infrastructure + pods', mine.assets, sql.assets), describe('shared infrastructure', mine.shared, sql.shared)].filter((x) => x !== null);
          if (bad.length) check.mismatches.push(`${o.label} ${run.key}: ${bad.join('; ')}`);
          else check.equal++;
        }
      }
    }
    if ((i + 1) % 50 === 0 || i + 1 === o.runs.length) {
      say(`  [${engineLabel}] ${o.label}: ${i + 1} / ${o.runs.length}; ours p50 ${ms(latencyStats(ours).p50)} ms, SQL p50 ${ms(latencyStats(base).p50)} ms; ${check.equal} equal, ${check.subset} subset-checked, ${check.servicesOnly} refused and subset-checked, ${check.mismatches.length} DIFFERENT`);
    }
  }
  const n = o.runs.length;
  return {
    label: o.label, hops: o.hops, components: new Set(o.runs.map((r) => r.key)).size,
    ours: latencyStats(ours), baseline: latencyStats(base), match: latencyStats(match), compute: latencyStats(compute), check, ceilingHit, refused,
    avg: { services: avg.services / n, dedicated: avg.dedicated / n, shared: avg.shared / n, assets: avg.assets / n, baselineServices: base.length ? avg.baselineServices / base.length : NaN },
  };
}

type Lists = Map<string, Set<string>>;

function ourLists(entities: InventoryEntity[]): Lists {
  const out: Lists = new Map();
  for (const e of entities) {
    for (const side of ['uses', 'usedBy'] as const) {
      out.set(`${e.key} ${side} 1`, new Set(e[side].hop1.map((n) => n.key)));
      out.set(`${e.key} ${side} 2`, new Set(e[side].hop2.map((n) => n.key)));
    }
  }
  return out;
}

async function sqlLists(db: Database, orgId: string, keys: string[], hops: 1 | 2): Promise<Lists> {
  const r = await db.query<{ side: string; root: string; key: string; hop: number }>(INVENTORY_SQL, [orgId, keys, false, hops]);
  const out: Lists = new Map();
  for (const k of keys) for (const side of ['uses', 'usedBy']) for (const hop of [1, 2]) out.set(`${k} ${side} ${hop}`, new Set());
  for (const row of r.rows) out.get(`${row.root} ${row.side} ${row.hop}`)!.add(row.key);
  return out;
}

async function inventoryPages(db: Database, s: Services, orgId: string, engineLabel: string, o: { pages: number; warmup: number }): Promise<InventoryResult> {
  const snap = await s.catalogue.snapshot(orgId);
  const total = snap.graph.keys.length;
  const rand = seededRandom(4_242);
  const offsets = Array.from({ length: o.pages + o.warmup }, () => Math.floor(rand() * Math.max(1, total - PAGE_LIMIT)));
  const ours: number[] = [];
  const base: number[] = [];
  const check = emptyCheck();
  let truncated = 0;
  let bytes = 0;
  let slowest = { offset: 0, kinds: '', ms: -1 };
  for (const [i, offset] of offsets.entries()) {
    const timed = i >= o.warmup;
    const t0 = performance.now();
    const page = await s.catalogue.inventory(orgId, { hops: PREVIEW_HOPS, includeStale: false, offset, limit: PAGE_LIMIT });
    const oursMs = performance.now() - t0;
    const keys = page.entities.map((e) => e.key);
    const b0 = performance.now();
    const sql = await sqlLists(db, orgId, keys, PREVIEW_HOPS);
    const baseMs = performance.now() - b0;
    if (!timed) continue;
    ours.push(oursMs);
    base.push(baseMs);
    bytes += Buffer.byteLength(JSON.stringify(page));
    if (oursMs > slowest.ms) {
      const kinds = new Map<string, number>();
      for (const e of page.entities) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
      slowest = { offset, ms: oursMs, kinds: [...kinds].map(([k, n]) => `${n} ${k}`).join(', ') };
    }
    const mine = ourLists(page.entities);
    for (const e of page.entities) {
      check.compared++;
      const lists = ['uses 1', 'uses 2', 'usedBy 1', 'usedBy 2'];
      if (e.truncated) {
        // A list over its cap (or a walk over its edge budget) is a prefix: ours must be within the SQL's.
        truncated++;
        const over = lists.filter((l) => [...mine.get(`${e.key} ${l}`)!].some((k) => !sql.get(`${e.key} ${l}`)!.has(k)));
        if (over.length) check.mismatches.push(`inventory ${e.key} (truncated): ${over.join(', ')} hold keys the SQL does not`);
        else check.subset++;
        continue;
      }
      const bad = lists.map((l) => describe(l, mine.get(`${e.key} ${l}`)!, sql.get(`${e.key} ${l}`)!)).filter((x) => x !== null);
      if (bad.length) check.mismatches.push(`inventory ${e.key}: ${bad.join('; ')}`);
      else check.equal++;
    }
    const done = i - o.warmup + 1;
    if (done % 25 === 0 || done === o.pages) say(`  [${engineLabel}] inventory pages: ${done} / ${o.pages}; ours p50 ${ms(latencyStats(ours).p50)} ms, SQL p50 ${ms(latencyStats(base).p50)} ms; ${check.mismatches.length} entities DIFFERENT`);
  }
  return { pages: ours.length, ours: latencyStats(ours), baseline: latencyStats(base), check, truncated, slowest, bytes: bytes / Math.max(1, ours.length) };
}

export type BlastOptions = { components: number; hubRuns: number; hubBaselineRuns: number; pages: number };

export async function benchBlast(db: Database, engineLabel: string, load: EstateLoad, opts: BlastOptions): Promise<BlastResult> {
  // A frozen clock: the snapshot is memoised for 60 s of the clock, and a reload in the middle of
  // the timed previews would time a cold load, which is reported on its own line instead.
  const clock = new SettableClock(new Date());
  const s = blastServices(db, clock);
  const { orgId, estate } = load;

  say(`  [${engineLabel}] snapshot: loading the graph cold, 3 times`);
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    s.catalogue.invalidate(orgId);
    const t0 = performance.now();
    await s.catalogue.snapshot(orgId);
    runs.push(performance.now() - t0);
  }
  const snap = await s.catalogue.snapshot(orgId);
  let edges = 0;
  for (const list of snap.graph.out.values()) edges += list.length;
  say(`  [${engineLabel}] snapshot: ${runs.map((r) => `${ms(r)} ms`).join(', ')} for ${int(snap.graph.nodes.size)} entities and ${int(edges)} links`);

  // Ordinary components: random services (hubs excluded), a seeded choice shared by both engines.
  const hubs = new Set(estate.hubKeys);
  const rand = seededRandom(77);
  const ordinary: string[] = [];
  const chosen = new Set<string>();
  while (ordinary.length < Math.min(opts.components + 10, estate.serviceKeys.length - hubs.size)) {
    const k = estate.serviceKeys[Math.floor(rand() * estate.serviceKeys.length)]!;
    if (hubs.has(k) || chosen.has(k)) continue;
    chosen.add(k);
    ordinary.push(k);
  }
  const warm = ordinary.slice(0, 10);
  const groups: PreviewGroup[] = [];
  say(`  [${engineLabel}] preview: ${ordinary.length - 10} ordinary components, hops ${PREVIEW_HOPS}, dedicated (after 10 untimed), each also as SQL`);
  groups.push(await previewGroup(db, s, orgId, engineLabel, { label: 'ordinary', hops: PREVIEW_HOPS, runs: ordinary.slice(10).map((key) => ({ key, baseline: true })), warmup: warm }));

  const hubRuns = (hops: 1 | 2, label: string) => {
    const r: Array<{ key: string; baseline: boolean }> = [];
    for (let round = 0; round < opts.hubRuns; round++) for (const key of estate.hubKeys) r.push({ key, baseline: round < opts.hubBaselineRuns });
    say(`  [${engineLabel}] preview: ${label}: ${estate.hubKeys.length} hubs × ${opts.hubRuns} runs, hops ${hops}, dedicated; SQL in the first ${opts.hubBaselineRuns} rounds`);
    return previewGroup(db, s, orgId, engineLabel, { label, hops, runs: r, warmup: [estate.hubKeys[0]!] });
  };
  groups.push(await hubRuns(PREVIEW_HOPS, 'hub'));
  groups.push(await hubRuns(1, 'hub, hops 1'));

  say(`  [${engineLabel}] inventory: ${opts.pages} pages of ${PAGE_LIMIT} at random offsets, hops ${PREVIEW_HOPS} (after 3 untimed), each also as SQL`);
  const inventory = await inventoryPages(db, s, orgId, engineLabel, { pages: opts.pages, warmup: 3 });
  return { snapshot: { runs, nodes: snap.graph.nodes.size, edges }, groups, inventory };
}
