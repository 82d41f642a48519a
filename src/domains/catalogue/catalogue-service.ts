import type { Clock } from '../../platform/clock.js';
import type { Database, Tx } from '../../platform/db/database.js';
import type { JobHandler } from '../../platform/jobs/job.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { parseCatalogue, parseDocument, type MonitorSourceInput } from './catalogue-format.js';
import * as store from './catalogue-store.js';
import { ENTITY_KINDS, isKind, type Estate } from './entity.js';
import { buildGraph, inventoryEntity, type Graph, type InventoryEntity, type WalkOptions } from './inventory.js';
import { fromKubectl } from './kubernetes.js';
import { fromBackstage, parseBackstageText } from './backstage.js';
import { fromJaegerDependencies } from './jaeger.js';
import { fromOtlpTraces, parseOtlpText } from './otlp.js';

export const IMPORT_FORMATS = ['changeledger', 'backstage', 'kubernetes', 'jaeger', 'otlp'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
/** `sources` counts monitoring sources, which only our own format lists (zeros for the others). */
export type ImportSummary = { format: ImportFormat; source: string; entities: store.Counts; links: store.Counts; sources: store.Counts; routes: number; ignored: number; warnings: string[] };
/** Routes not seen for this long are left out of a contract unless asked for. */
export const ROUTE_FRESH_DAYS = 7;

export const INVENTORY_FORMAT = 'changeledger/catalogue-inventory/1';
export const SNAPSHOT_TTL_MS = 60_000;
export const MAX_PAGE_BYTES = 12 * 1024 * 1024;

type Snapshot = { at: Date; graph: Graph; settings: { staleAfterDays: number; lastSweepAt: string | null } };
export const SWEEP_JOB = 'catalogue.sweep';

export class CatalogueService {
  readonly #snapshots = new Map<string, Snapshot>();
  constructor(private readonly deps: { db: Database; clock: Clock }) {}

  /** Parses a file of a format and imports it as one audited transaction. */
  async importText(ctx: AuditContext, orgId: string, format: ImportFormat, text: string, sourceName?: string, progress?: (phase: 'entities' | 'links', done: number, total: number) => void): Promise<ImportSummary> {
    const parsed = this.parse(format, text);
    const { estate, ignored, warnings, routes, sources: monitorSources } = parsed;
    const source = sourceName ?? parsed.source ?? (format === 'changeledger' ? 'file' : format);
    if (!/^[\w.:@/-]{1,100}$/.test(source)) throw badRequest('source must be 1 to 100 letters, digits or . : @ / - _', 'source');
    const at = this.deps.clock.now().toISOString();
    const summary = await this.deps.db.transaction(async (tx) => {
      const entities = await store.upsertEntities(tx, orgId, `${format}:${source}`, estate.entities, at, (d, n) => progress?.('entities', d, n));
      const links = await store.upsertLinks(tx, orgId, `${format}:${source}`, estate.links, at, (d, n) => progress?.('links', d, n), store.OBSERVED_SOURCE_PREFIXES.includes(`${format}:`));
      // Discovery reporting a manually added service merges it.
      await tx.query('UPDATE manual_services SET merged_at = $3 WHERE org_id = $1 AND merged_at IS NULL AND key = ANY($2::text[])', [orgId, estate.entities.map((e) => e.key), at]);
      const routeCount = routes.length ? await store.upsertRoutes(tx, orgId, routes) : 0;
      // A file of our format is the whole truth of its source: no sources listed leaves earlier ones stale.
      const sources = format === 'changeledger' ? await store.upsertSources(tx, orgId, `${format}:${source}`, monitorSources, at) : { added: 0, changed: 0, unchanged: 0, stale: 0 };
      const s: ImportSummary = { format, source, entities, links, sources, routes: routeCount, ignored, warnings: warnings.slice(0, 50) };
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId, action: 'catalogue.imported', target: { type: 'catalogue', id: `${format}:${source}` }, data: s });
      return s;
    });
    this.#snapshots.delete(orgId);
    return summary;
  }

  /** Text of a format → what it reports; every problem names its field. */
  private parse(format: ImportFormat, text: string): { estate: Estate; source: string | null; ignored: number; warnings: string[]; routes: store.RouteRow[]; sources: MonitorSourceInput[] } {
    const none = { source: null, ignored: 0, warnings: [] as string[], routes: [] as store.RouteRow[], sources: [] as MonitorSourceInput[] };
    if (format === 'backstage') {
      const docs = parseBackstageText(text);
      if (!docs.ok) throw badRequest(docs.error, docs.field);
      const r = fromBackstage(docs.docs);
      if (!r.ok) throw badRequest(r.error, r.field);
      return { ...none, estate: r.estate, ignored: r.ignored, warnings: r.warnings };
    }
    if (format === 'otlp') {
      const doc = parseOtlpText(text);
      if (!doc.ok) throw badRequest(doc.error, doc.field);
      const r = fromOtlpTraces(doc.value, { now: this.deps.clock.now() });
      if (!r.ok) throw badRequest(r.error, r.field);
      return { ...none, estate: r.estate, ignored: r.ignored, routes: r.routes };
    }
    const doc = parseDocument(text);
    if (!doc.ok) throw badRequest(doc.error, 'body');
    if (format === 'changeledger') {
      const r = parseCatalogue(doc.value);
      if (!r.ok) throw badRequest(r.error, r.field);
      return { ...none, estate: r.estate, source: r.source, sources: r.sources };
    }
    const r = format === 'kubernetes' ? fromKubectl(doc.value) : fromJaegerDependencies(doc.value);
    if (!r.ok) throw badRequest(r.error, r.field);
    return { ...none, estate: r.estate, ignored: r.ignored };
  }

  /** The routes each caller uses on a callee (a call edge's contract), fresh ones unless asked. */
  routes(orgId: string, f: { caller?: string; callee?: string; includeStale: boolean; includeProbes: boolean }) {
    const since = f.includeStale ? null : new Date(this.deps.clock.now().getTime() - ROUTE_FRESH_DAYS * 86_400_000).toISOString();
    return store.listRoutes(this.deps.db, orgId, { caller: f.caller, callee: f.callee, since, probes: f.includeProbes });
  }

  invalidate(orgId: string): void {
    this.#snapshots.delete(orgId);
  }

  /** The graph as of at most 60 seconds ago: pages of one listing are cut from the same snapshot. */
  async snapshot(orgId: string): Promise<Snapshot> {
    const now = this.deps.clock.now();
    const cached = this.#snapshots.get(orgId);
    if (cached && now.getTime() - cached.at.getTime() < SNAPSHOT_TTL_MS) return cached;
    const rows = await store.loadGraphRows(this.deps.db, orgId);
    const snap = { at: now, graph: buildGraph(rows.nodes, rows.links), settings: await store.catalogueSettings(this.deps.db, orgId) };
    this.#snapshots.set(orgId, snap);
    return snap;
  }

  private meta(snap: Snapshot, o: WalkOptions, truncatedEntities: number) {
    const kinds: Record<string, number> = {};
    for (const n of snap.graph.nodes.values()) kinds[n.kind] = (kinds[n.kind] ?? 0) + 1;
    return { hops: o.hops, includeStale: o.includeStale, staleAfterDays: snap.settings.staleAfterDays, lastSweepAt: snap.settings.lastSweepAt, truncatedEntities, kinds };
  }

  settings(orgId: string) {
    return store.catalogueSettings(this.deps.db, orgId);
  }

  async updateSettings(ctx: AuditContext, m: { org: { id: string }; role: string }, staleAfterDays: number) {
    if (m.role === 'member') throw forbidden('only owners and admins change catalogue settings');
    await this.deps.db.transaction(async (tx) => {
      const before = await store.catalogueSettings(tx, m.org.id);
      await tx.query(
        `INSERT INTO catalogue_settings (org_id, stale_after_days) VALUES ($1, $2) ON CONFLICT (org_id) DO UPDATE SET stale_after_days = $2`,
        [m.org.id, staleAfterDays],
      );
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'settings.catalogue_updated', target: { type: 'settings', id: 'catalogue' }, data: { from: { staleAfterDays: before.staleAfterDays }, to: { staleAfterDays } } });
    });
    this.invalidate(m.org.id);
    return this.settings(m.org.id);
  }

  /**
   * Every organisation's observed call edges and placements not seen within its window go stale
   * (kept, never deleted); runs on the durable job table and schedules its next run.
   */
  async sweepAll(tx: Tx): Promise<number> {
    const now = this.deps.clock.now();
    const orgs = await tx.query<{ org_id: string }>('SELECT DISTINCT org_id FROM catalogue_links');
    let total = 0;
    for (const { org_id: orgId } of orgs.rows) {
      const { staleAfterDays } = await store.catalogueSettings(tx, orgId);
      const n = await store.sweepStale(tx, orgId, new Date(now.getTime() - staleAfterDays * 86_400_000).toISOString());
      await tx.query(
        `INSERT INTO catalogue_settings (org_id, last_sweep_at) VALUES ($1, $2) ON CONFLICT (org_id) DO UPDATE SET last_sweep_at = $2`,
        [orgId, now.toISOString()],
      );
      if (n > 0) {
        await appendAtCommit(tx, this.deps.clock, { actor: { kind: 'system', id: null, name: 'changeledger scheduler' }, source: 'scheduler' }, {
          orgId, action: 'catalogue.swept', target: { type: 'catalogue', id: 'links' }, data: { leftStale: n, staleAfterDays },
        });
      }
      this.invalidate(orgId);
      total += n;
    }
    return total;
  }

  /** The sweep job: runs hourly; each run schedules the next (a dedupe key per hour keeps one). */
  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [SWEEP_JOB]: {
        commit: async (tx: Tx) => {
          await this.sweepAll(tx);
          await this.scheduleSweep(tx);
        },
      },
    };
  }

  async scheduleSweep(tx: Tx): Promise<void> {
    const next = new Date(Math.floor(this.deps.clock.now().getTime() / 3_600_000) * 3_600_000 + 3_600_000);
    await scheduleJob(tx, this.deps.clock, { kind: SWEEP_JOB, runAt: next, dedupeKey: `${SWEEP_JOB}:${next.toISOString()}` });
  }

  async inventory(orgId: string, q: { kind?: string; q?: string; hops: 1 | 2; includeStale: boolean; offset: number; limit: number }) {
    const kinds = q.kind ? q.kind.split(',').map((k) => k.trim()).filter(Boolean) : [];
    const unknown = kinds.find((k) => !isKind(k));
    if (unknown !== undefined) throw badRequest(`unknown kind "${unknown}"; kinds are ${ENTITY_KINDS.join(', ')}`, 'kind');
    const snap = await this.snapshot(orgId);
    const needle = q.q?.toLowerCase();
    const matching = snap.graph.keys.filter((k) => {
      const n = snap.graph.nodes.get(k)!;
      if (kinds.length && !kinds.includes(n.kind)) return false;
      return !needle || n.name.toLowerCase().includes(needle) || n.key.toLowerCase().includes(needle);
    });
    const o: WalkOptions = { hops: q.hops, includeStale: q.includeStale };
    const entities: InventoryEntity[] = matching.slice(q.offset, q.offset + q.limit).map((k) => inventoryEntity(snap.graph, k, o));
    const page = {
      format: INVENTORY_FORMAT, snapshotAt: snap.at.toISOString(), total: matching.length, offset: q.offset, limit: q.limit,
      entities, meta: this.meta(snap, o, entities.filter((e) => e.truncated).length),
    };
    if (Buffer.byteLength(JSON.stringify(page)) > MAX_PAGE_BYTES) throw new AppError(413, 'the page is over 12 MiB: lower limit, or ask hops=1');
    return page;
  }

  async entity(orgId: string, key: string, o: WalkOptions) {
    const snap = await this.snapshot(orgId);
    if (!snap.graph.nodes.has(key)) throw notFound(`no entity ${key} in the catalogue`);
    const entity = inventoryEntity(snap.graph, key, o);
    return { format: INVENTORY_FORMAT, snapshotAt: snap.at.toISOString(), entity, meta: this.meta(snap, o, entity.truncated ? 1 : 0) };
  }
}
