import type { Clock } from '../../platform/clock.js';
import type { Database, Queryable, Row } from '../../platform/db/database.js';
import { badRequest, invalid } from '../../platform/errors.js';
import { computeBlast, scopeBreakdown, scopeLine, type Blast, type MonitorSource, type SilenceMode } from './blast.js';
import { answerBlast, storeBlast, type CompactBlast } from './blast-snapshot.js';
import { loadSources, type RouteRow } from './catalogue-store.js';
import { ROUTE_FRESH_DAYS, type CatalogueService } from './catalogue-service.js';
import { contractsOf, INGRESS, type Contracts } from './contracts.js';
import { criticalityOf, type Criticality } from './criticality.js';
import type { ComponentInput, MatchResult, Resolved } from './matching.js';
import type { MappingService } from './mapping-service.js';

export type BlastRequest = { components?: ComponentInput[]; lines?: string; hops?: 1 | 2; silenceInfra?: SilenceMode | null; title?: string };
export type Preview = MatchResult & Criticality & {
  blast: Blast; refused: string | null; large: boolean; counts: Blast['counts']; silenceInfra: SilenceMode; scopeLine: string; scopeBreakdown: string;
};

/** Components named at most, as a registration allows. */
export const MAX_COMPONENTS = 100;

/** Blast radius, criticality and contracts of a set of components, over the organisation's catalogue. */
export class BlastService {
  constructor(private readonly deps: { db: Database; clock: Clock; catalogue: CatalogueService; mappings: MappingService }) {}

  async settings(orgId: string, db: Queryable = this.deps.db): Promise<{ silenceInfra: SilenceMode }> {
    const r = await db.query<{ silence_infra: SilenceMode }>('SELECT silence_infra FROM change_settings WHERE org_id = $1', [orgId]);
    return { silenceInfra: r.rows[0]?.silence_infra ?? 'dedicated' };
  }

  /** The blast radius of components already resolved (a registration's, once nothing is left to map). */
  async blastOf(
    orgId: string, resolved: Array<Pick<Resolved, 'kind' | 'key' | 'name' | 'seen'>>, hops: 1 | 2, override: SilenceMode | null | undefined,
    sourcesRead?: Promise<MonitorSource[]>,
  ): Promise<{ blast: Blast; criticality: Criticality; silenceInfra: SilenceMode }> {
    const snap = await this.deps.catalogue.snapshot(orgId);
    const [settings, sources] = await Promise.all([override != null ? null : this.settings(orgId), sourcesRead ?? this.sources(orgId)]);
    const silenceInfra = override ?? settings!.silenceInfra;
    const blast = computeBlast(snap.graph, { components: resolved, hops, silenceInfra, sources });
    return { blast, criticality: criticalityOf(snap.graph, resolved, blast.scope.serviceKeys), silenceInfra };
  }

  /**
   * The organisation's monitoring sources, which every blast reads. A caller that will compute a
   * blast can start this read beside its own and hand it to blastOf: one round trip fewer in series.
   */
  sources(orgId: string): Promise<MonitorSource[]> {
    return loadSources(this.deps.db, orgId);
  }

  /** What a registration of these components would answer, computed and never stored. */
  async preview(orgId: string, input: BlastRequest): Promise<Preview> {
    const lines = (input.lines ?? '').split('\n').filter((l) => l.trim()).length;
    if ((input.components?.length ?? 0) + lines > MAX_COMPONENTS) throw badRequest(`at most ${MAX_COMPONENTS} components (components and lines together)`, 'components');
    for (const [i, c] of (input.components ?? []).entries()) {
      if (!c.key && !c.query) throw invalid(`components.${i}`, 'needs a key or a query');
    }
    const match = await this.deps.mappings.match(orgId, input);
    const { blast, criticality, silenceInfra } = await this.blastOf(orgId, match.resolved, input.hops ?? 1, input.silenceInfra);
    return {
      ...match, ...criticality, blast, refused: blast.refused, large: blast.large, counts: blast.counts, silenceInfra,
      scopeLine: scopeLine(blast.counts), scopeBreakdown: scopeBreakdown(blast.counts),
    };
  }

  /** The stored form of a blast (trimmed to 512 KB), for a change's snapshot. */
  store(blast: Blast): ReturnType<typeof storeBlast> {
    return storeBlast(blast);
  }

  /** A stored snapshot as answered: completed from the current graph where it was trimmed. */
  async answer(orgId: string, stored: CompactBlast): Promise<Blast> {
    const snap = await this.deps.catalogue.snapshot(orgId);
    return answerBlast(stored, snap.graph);
  }

  /** The contract of every service → service call edge among these edges. */
  async contracts(orgId: string, edges: Array<{ from: string; to: string }>, o: { includeStale?: boolean; includeProbes?: boolean } = {}): Promise<Contracts> {
    const snap = await this.deps.catalogue.snapshot(orgId);
    const callees = [...new Set(edges.map((e) => e.to))];
    const since = o.includeStale ? null : new Date(this.deps.clock.now().getTime() - ROUTE_FRESH_DAYS * 86_400_000).toISOString();
    const rows = callees.length ? await routesOf(this.deps.db, orgId, callees, [...new Set([...edges.map((e) => e.from), INGRESS])], since, o.includeProbes ?? false) : [];
    return contractsOf(snap.graph, edges, rows);
  }

  /** The contracts of what a registration would cover. */
  async previewContracts(orgId: string, input: BlastRequest & { edges?: Array<{ from: string; to: string }>; includeStale?: boolean; includeProbes?: boolean }): Promise<Contracts> {
    // The editor already has the call edges from its preview: no second walk for them.
    if (input.edges) return this.contracts(orgId, input.edges, input);
    const p = await this.preview(orgId, input);
    return this.contracts(orgId, p.blast.edges ?? [], input);
  }
}

async function routesOf(db: Queryable, orgId: string, callees: string[], callers: string[], since: string | null, probes: boolean): Promise<RouteRow[]> {
  const r = await db.query<Row & { caller_key: string; callee_key: string; method: string; route: string; calls: string | number; error_share: number; p95_ms: number; sample_path: string | null; probe: boolean; last_seen: Date }>(
    `SELECT * FROM catalogue_routes WHERE org_id = $1 AND callee_key = ANY($2::text[]) AND caller_key = ANY($3::text[])
       AND ($4::timestamptz IS NULL OR last_seen >= $4) AND ($5 OR NOT probe)`,
    [orgId, callees, callers, since, probes],
  );
  return r.rows.map((x) => ({ caller: x.caller_key, callee: x.callee_key, method: x.method || null, route: x.route, calls: Number(x.calls), errorShare: x.error_share, p95Ms: x.p95_ms, samplePath: x.sample_path, lastSeen: new Date(x.last_seen).toISOString(), probe: x.probe }));
}
