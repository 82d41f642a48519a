import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import type { MonitorSource } from './blast.js';
import type { MonitorSourceInput } from './catalogue-format.js';
import type { Entity, Link, Via } from './entity.js';
import type { GraphNode } from './inventory.js';

export type Counts = { added: number; changed: number; unchanged: number; stale: number };
/** Told after each chunk written: how many of how many items. */
export type Progress = (done: number, total: number) => void;
const CHUNK = 2_000;

type EntityRow = Row & { key: string; kind: string; name: string; engine: string | null; tier: string | null; owner: string | null; team: string | null; environment: string | null; attrs: Record<string, unknown>; stale: boolean; source: string };

const sig = (e: { kind: string; name: string; engine?: string | null; tier?: string | null; owner?: string | null; team?: string | null; environment?: string | null; attrs?: Record<string, unknown> }) =>
  JSON.stringify([e.kind, e.name, e.engine ?? null, e.tier ?? null, e.owner ?? null, e.team ?? null, e.environment ?? null, sortKeys(e.attrs ?? {})]);

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sortKeys(x)]));
  return v;
}

function* chunks<T>(xs: T[]): Generator<T[]> {
  for (let i = 0; i < xs.length; i += CHUNK) yield xs.slice(i, i + CHUNK);
}

/**
 * Upserts what a source reports and marks stale what that source reported before but no longer
 * does. Unchanged rows are not touched, so importing the same file twice changes nothing.
 */
export async function upsertEntities(tx: Tx, orgId: string, source: string, entities: Entity[], at: string, progress?: Progress): Promise<Counts> {
  const existing = new Map<string, EntityRow>();
  for (const part of chunks(entities.map((e) => e.key))) {
    const r = await tx.query<EntityRow>('SELECT * FROM catalogue_entities WHERE org_id = $1 AND key = ANY($2::text[])', [orgId, part]);
    for (const row of r.rows) existing.set(row.key, row);
  }
  const counts: Counts = { added: 0, changed: 0, unchanged: 0, stale: 0 };
  const write: Array<Entity & { owner_source: string }> = [];
  for (const e of entities) {
    const old = existing.get(e.key);
    if (!old) {
      counts.added += 1;
      write.push({ ...e, owner_source: source });
      continue;
    }
    // Another source's entity is merged into, never overwritten: what this source does not know
    // (a kubectl dump knows no tier) keeps its value, and the entity stays with the source that
    // owns it, whose absence alone marks it stale.
    const merged: Entity = {
      key: e.key, kind: e.kind, name: e.name,
      engine: e.engine ?? old.engine, tier: (e.tier ?? old.tier) as Entity['tier'], owner: e.owner ?? old.owner, team: e.team ?? old.team,
      environment: e.environment ?? old.environment, attrs: { ...old.attrs, ...(e.attrs ?? {}) },
    };
    // A manual service passes to the discovery that reports it.
    const ownerSource = old.source === source || old.stale || old.source === 'manual' ? source : old.source;
    if (old.source === 'manual' && ownerSource !== 'manual') delete merged.attrs!.manual;
    if (old.stale || sig(old) !== sig(merged) || ownerSource !== old.source) {
      counts.changed += 1;
      write.push({ ...merged, owner_source: ownerSource });
    } else counts.unchanged += 1;
  }
  let done = 0;
  for (const part of chunks(write)) {
    const col = <K extends keyof Entity>(k: K) => part.map((e) => (e[k] ?? null) as unknown);
    await tx.query(
      `INSERT INTO catalogue_entities (org_id, key, kind, name, engine, tier, owner, team, environment, attrs, source, stale, first_seen, last_seen)
       SELECT $1, k, kd, n, en, ti, ow, te, env, a::jsonb, src, false, $12, $12
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[]) AS u(k, kd, n, en, ti, ow, te, env, a, src)
       ON CONFLICT (org_id, key) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name, engine = EXCLUDED.engine, tier = EXCLUDED.tier,
         owner = EXCLUDED.owner, team = EXCLUDED.team, environment = EXCLUDED.environment, attrs = EXCLUDED.attrs, source = EXCLUDED.source,
         stale = false, last_seen = EXCLUDED.last_seen`,
      [orgId, col('key'), col('kind'), col('name'), col('engine'), col('tier'), col('owner'), col('team'), col('environment'), part.map((e) => JSON.stringify(e.attrs ?? {})), part.map((e) => e.owner_source), at],
    );
    done += part.length;
    progress?.(done, write.length);
  }
  const keys = entities.map((e) => e.key);
  const gone = await tx.query(
    `UPDATE catalogue_entities SET stale = true WHERE org_id = $1 AND source = $2 AND NOT stale AND NOT (key = ANY($3::text[]))`,
    [orgId, source, keys],
  );
  counts.stale = gone.rowCount;
  return counts;
}

export async function upsertLinks(tx: Tx, orgId: string, source: string, links: Link[], at: string, progress?: Progress, observed = false): Promise<Counts> {
  const id = (l: { from: string; to: string; via: string }) => `${l.from}\u0000${l.to}\u0000${l.via}`;
  const existing = new Map<string, { stale: boolean }>();
  const froms = [...new Set(links.map((l) => l.from))];
  for (const part of chunks(froms)) {
    const r = await tx.query<Row & { from_key: string; to_key: string; via: string; stale: boolean }>(
      'SELECT from_key, to_key, via, stale FROM catalogue_links WHERE org_id = $1 AND from_key = ANY($2::text[])',
      [orgId, part],
    );
    for (const row of r.rows) existing.set(id({ from: row.from_key, to: row.to_key, via: row.via }), { stale: row.stale });
  }
  const counts: Counts = { added: 0, changed: 0, unchanged: 0, stale: 0 };
  const write: Link[] = [];
  for (const l of links) {
    const old = existing.get(id(l));
    if (!old) counts.added += 1;
    else if (old.stale) counts.changed += 1;
    else {
      counts.unchanged += 1;
      continue;
    }
    write.push(l);
  }
  let done = 0;
  for (const part of chunks(write)) {
    await tx.query(
      `INSERT INTO catalogue_links (org_id, from_key, to_key, via, source, stale, first_seen, last_seen)
       SELECT $1, f, t, v, $5, false, coalesce(ls::timestamptz, $6), coalesce(ls::timestamptz, $6)
       FROM unnest($2::text[], $3::text[], $4::text[], $7::text[]) AS u(f, t, v, ls)
       ON CONFLICT (org_id, from_key, to_key, via) DO UPDATE SET source = EXCLUDED.source, stale = false, last_seen = EXCLUDED.last_seen`,
      [orgId, part.map((l) => l.from), part.map((l) => l.to), part.map((l) => l.via), source, at, part.map((l) => l.lastSeen ?? null)],
    );
    done += part.length;
    progress?.(done, write.length);
  }
  // An observation seen again is fresh again, even when nothing else about it changed.
  if (observed && links.length > 0) {
    const again = links.filter((l) => existing.get(id(l)) && !existing.get(id(l))!.stale);
    for (const part of chunks(again)) {
      await tx.query(
        `UPDATE catalogue_links SET last_seen = GREATEST(last_seen, coalesce(g.ls::timestamptz, $5)) FROM unnest($2::text[], $3::text[], $4::text[], $6::text[]) AS g(f, t, v, ls)
         WHERE org_id = $1 AND from_key = g.f AND to_key = g.t AND via = g.v`,
        [orgId, part.map((l) => l.from), part.map((l) => l.to), part.map((l) => l.via), at, part.map((l) => l.lastSeen ?? null)],
      );
    }
  }
  const present = new Set(links.map(id));
  const mine = await tx.query<Row & { from_key: string; to_key: string; via: string }>(
    'SELECT from_key, to_key, via FROM catalogue_links WHERE org_id = $1 AND source = $2 AND NOT stale',
    [orgId, source],
  );
  const goneLinks = mine.rows.filter((r) => !present.has(id({ from: r.from_key, to: r.to_key, via: r.via })));
  for (const part of chunks(goneLinks)) {
    await tx.query(
      `UPDATE catalogue_links SET stale = true FROM unnest($2::text[], $3::text[], $4::text[]) AS g(f, t, v)
       WHERE org_id = $1 AND from_key = g.f AND to_key = g.t AND via = g.v`,
      [orgId, part.map((r) => r.from_key), part.map((r) => r.to_key), part.map((r) => r.via)],
    );
  }
  counts.stale = goneLinks.length;
  return counts;
}

type SourceRow = Row & { id: string; name: string; services: string[]; entities: string[]; source: string; stale: boolean };
const sourceSig = (s: { name: string; services: string[]; entities: string[] }) => JSON.stringify([s.name, s.services, s.entities]);

/**
 * Upserts the monitoring sources an import source lists and marks stale those it listed before but
 * no longer does. Unchanged rows are not touched. A source id listed by two imports belongs to the
 * one that listed it last (unlike entities there is nothing to merge: the keys are the whole row).
 */
export async function upsertSources(tx: Tx, orgId: string, source: string, sources: MonitorSourceInput[], at: string): Promise<Counts> {
  const existing = new Map<string, SourceRow>();
  for (const part of chunks(sources.map((s) => s.id))) {
    const r = await tx.query<SourceRow>('SELECT id, name, services, entities, source, stale FROM catalogue_sources WHERE org_id = $1 AND id = ANY($2::text[])', [orgId, part]);
    for (const row of r.rows) existing.set(row.id, row);
  }
  const counts: Counts = { added: 0, changed: 0, unchanged: 0, stale: 0 };
  const write: MonitorSourceInput[] = [];
  for (const s of sources) {
    const old = existing.get(s.id);
    if (!old) counts.added += 1;
    else if (old.stale || old.source !== source || sourceSig(old) !== sourceSig(s)) counts.changed += 1;
    else {
      counts.unchanged += 1;
      continue;
    }
    write.push(s);
  }
  // The key lists travel as JSON: unnest would flatten a two-dimensional text[] into one list.
  const keys = (col: string) => `ARRAY(SELECT k FROM jsonb_array_elements_text(x.${col}) WITH ORDINALITY AS e(k, n) ORDER BY n)`;
  for (const part of chunks(write)) {
    await tx.query(
      `INSERT INTO catalogue_sources (org_id, id, name, services, entities, source, stale, first_seen, last_seen)
       SELECT $1, x.id, x.name, ${keys('services')}, ${keys('entities')}, $3, false, $4, $4
       FROM jsonb_to_recordset($2::jsonb) AS x(id text, name text, services jsonb, entities jsonb)
       ON CONFLICT (org_id, id) DO UPDATE SET name = EXCLUDED.name, services = EXCLUDED.services, entities = EXCLUDED.entities,
         source = EXCLUDED.source, stale = false, last_seen = EXCLUDED.last_seen`,
      [orgId, JSON.stringify(part.map(({ id, name, services, entities }) => ({ id, name, services, entities }))), source, at],
    );
  }
  const gone = await tx.query(
    'UPDATE catalogue_sources SET stale = true WHERE org_id = $1 AND source = $2 AND NOT stale AND NOT (id = ANY($3::text[]))',
    [orgId, source, sources.map((s) => s.id)],
  );
  counts.stale = gone.rowCount;
  return counts;
}

/** The organisation's monitoring sources no import source has dropped, for blast radii. */
export async function loadSources(db: Queryable, orgId: string): Promise<MonitorSource[]> {
  const r = await db.query<SourceRow>('SELECT id, name, services, entities FROM catalogue_sources WHERE org_id = $1 AND NOT stale ORDER BY id COLLATE "C"', [orgId]);
  return r.rows.map((x) => ({ id: x.id, name: x.name, services: x.services, entities: x.entities }));
}

/** The whole graph of an organisation, for the inventory snapshot. */
export async function loadGraphRows(db: Queryable, orgId: string): Promise<{ nodes: GraphNode[]; links: Array<{ from: string; to: string; via: Via; stale: boolean }> }> {
  const n = await db.query<Row & GraphNode>(
    'SELECT key, kind, name, stale, engine, tier, owner, team, environment FROM catalogue_entities WHERE org_id = $1',
    [orgId],
  );
  const l = await db.query<Row & { from_key: string; to_key: string; via: Via; stale: boolean }>(
    'SELECT from_key, to_key, via, stale FROM catalogue_links WHERE org_id = $1',
    [orgId],
  );
  return { nodes: n.rows, links: l.rows.map((r) => ({ from: r.from_key, to: r.to_key, via: r.via, stale: r.stale })) };
}

/** Observed formats: what they report ages, unlike a declaration in a file. */
export const OBSERVED_SOURCE_PREFIXES = ['kubernetes:', 'jaeger:', 'otlp:'];

/** Marks observed call edges and placements not seen for `days` stale; answers how many. */
export async function sweepStale(tx: Tx, orgId: string, cutoff: string): Promise<number> {
  const r = await tx.query(
    `UPDATE catalogue_links SET stale = true
     WHERE org_id = $1 AND NOT stale AND via IN ('calls', 'runs-on') AND last_seen < $2 AND split_part(source, ':', 1) || ':' = ANY($3::text[])`,
    [orgId, cutoff, OBSERVED_SOURCE_PREFIXES],
  );
  return r.rowCount;
}

export async function catalogueSettings(db: Queryable, orgId: string): Promise<{ staleAfterDays: number; lastSweepAt: string | null }> {
  const r = await db.query<Row & { stale_after_days: number; last_sweep_at: Date | null }>('SELECT * FROM catalogue_settings WHERE org_id = $1', [orgId]);
  const row = r.rows[0];
  return { staleAfterDays: row?.stale_after_days ?? 7, lastSweepAt: row?.last_sweep_at ? new Date(row.last_sweep_at).toISOString() : null };
}

export type RouteRow = { caller: string; callee: string; method: string | null; route: string; calls: number; errorShare: number; p95Ms: number; samplePath: string | null; lastSeen: string; probe: boolean };

/** The latest observation of a route replaces the one before (so importing the same traces twice changes nothing). */
export async function upsertRoutes(tx: Tx, orgId: string, routes: RouteRow[]): Promise<number> {
  for (const part of chunks(routes)) {
    await tx.query(
      `INSERT INTO catalogue_routes (org_id, caller_key, callee_key, method, route, calls, error_share, p95_ms, sample_path, probe, last_seen)
       SELECT $1, c, e, m, r, n, es, p, sp, pr, ls::timestamptz
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::float8[], $8::float8[], $9::text[], $10::boolean[], $11::text[]) AS u(c, e, m, r, n, es, p, sp, pr, ls)
       ON CONFLICT (org_id, caller_key, callee_key, method, route) DO UPDATE SET calls = EXCLUDED.calls, error_share = EXCLUDED.error_share,
         p95_ms = EXCLUDED.p95_ms, sample_path = EXCLUDED.sample_path, probe = EXCLUDED.probe, last_seen = GREATEST(catalogue_routes.last_seen, EXCLUDED.last_seen)`,
      [orgId, part.map((r) => r.caller), part.map((r) => r.callee), part.map((r) => r.method ?? ''), part.map((r) => r.route), part.map((r) => r.calls),
        part.map((r) => r.errorShare), part.map((r) => r.p95Ms), part.map((r) => r.samplePath), part.map((r) => r.probe), part.map((r) => r.lastSeen)],
    );
  }
  return routes.length;
}

export async function listRoutes(db: Queryable, orgId: string, f: { caller?: string; callee?: string; since?: string | null; probes: boolean }): Promise<RouteRow[]> {
  const r = await db.query<Row & { caller_key: string; callee_key: string; method: string; route: string; calls: number; error_share: number; p95_ms: number; sample_path: string | null; probe: boolean; last_seen: Date }>(
    `SELECT * FROM catalogue_routes WHERE org_id = $1 AND ($2::text IS NULL OR caller_key = $2) AND ($3::text IS NULL OR callee_key = $3)
       AND ($4::timestamptz IS NULL OR last_seen >= $4) AND ($5 OR NOT probe)
     ORDER BY caller_key, callee_key, calls DESC, route LIMIT 2000`,
    [orgId, f.caller ?? null, f.callee ?? null, f.since ?? null, f.probes],
  );
  return r.rows.map((x) => ({ caller: x.caller_key, callee: x.callee_key, method: x.method || null, route: x.route, calls: Number(x.calls), errorShare: x.error_share, p95Ms: x.p95_ms, samplePath: x.sample_path, lastSeen: new Date(x.last_seen).toISOString(), probe: x.probe }));
}
