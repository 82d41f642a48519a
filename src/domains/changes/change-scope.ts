import type { Queryable } from '../../platform/db/database.js';
import type { CompactBlast } from '../catalogue/blast-snapshot.js';
import { displayId, latestBlast } from './change-store.js';

/** One entity of a change's scope, with the name and kind it had when the blast radius was stored. */
export type ScopeEntity = { key: string; kind: string; name: string };

/** What a change silences, as stored with its latest blast-radius version: what a hold covers. */
export type ChangeScope = { version: number; services: ScopeEntity[]; assets: ScopeEntity[]; sourceIds: string[] };

const suffix = (key: string) => key.slice(key.indexOf(':') + 1);

/** The scope of a change's latest stored blast radius; null before it has one (unmapped components). */
export async function readChangeScope(db: Queryable, changeId: string): Promise<ChangeScope | null> {
  const b = await latestBlast(db, changeId);
  if (!b) return null;
  const c: CompactBlast = b.stored;
  const entity = (i: number): ScopeEntity => {
    const key = c.k[i]!;
    return { key, kind: c.t[c.kt[i]!] || key.slice(0, Math.max(0, key.indexOf(':'))), name: c.n[i] || suffix(key) };
  };
  return { version: b.version, services: c.scope.s.map(entity), assets: c.scope.a.map(entity), sourceIds: [...c.scope.src] };
}

/** A change that may cover writes seen elsewhere: its window's bounds widened by when it ran, and its scope's keys. */
export type CoveringChange = { id: string; displayId: string; status: string; from: number; until: number; scope: Set<string> };

/** The scope keys of the blast `b`, computed from its blob: for a change whose kept keys are stale. */
const KEYS_OF_BLOB = `ARRAY(SELECT b.stored->'k'->>(i::int) FROM jsonb_array_elements_text(COALESCE(b.stored->'scope'->'s', '[]'::jsonb) || COALESCE(b.stored->'scope'->'a', '[]'::jsonb)) AS i)`;

/**
 * Changes in the statuses whose window (as planned, widened by when they really ran; an active one
 * runs until `now`) meets the span from..until and whose current blast radius's scope holds any of
 * the services, plus those named by display id (CHG-xxxxxxxx) whatever their window and scope, in
 * one statement. The window's bounds come back as epoch milliseconds.
 */
export async function changesCovering(q: Queryable, orgId: string, f: { statuses: readonly string[]; from: string; until: string; services: readonly string[]; displayIds: readonly string[]; now: string }): Promise<CoveringChange[]> {
  const prefixes = [...new Set(f.displayIds.map((d) => d.toUpperCase()).filter((d) => /^CHG-[0-9A-F]{8}$/.test(d)))].map((d) => `chg_${d.slice(4).toLowerCase()}%`);
  if (!f.services.length && !prefixes.length) return [];
  // The keys kept on the change, or computed from its blast when a server of an earlier release stored that.
  const keys = `CASE WHEN c.scope_keys_version = c.blast_version THEN c.scope_keys
    ELSE (SELECT ${KEYS_OF_BLOB} FROM change_blasts b WHERE b.change_id = c.id AND b.version = c.blast_version) END`;
  const columns = `c.id, c.status, ${keys} AS keys,
    (extract(epoch FROM LEAST(c.window_start, COALESCE(c.started_at, c.window_start))) * 1000)::bigint AS from_ms,
    (extract(epoch FROM GREATEST(c.window_end, COALESCE(c.finished_at, CASE WHEN c.status = 'active' THEN $6::timestamptz ELSE c.window_end END))) * 1000)::bigint AS until_ms`;
  const inWindow = `c.org_id = $1 AND c.status = ANY($2::text[])
        AND LEAST(c.window_start, COALESCE(c.started_at, c.window_start)) <= $4
        AND (c.status = 'active' OR GREATEST(c.window_end, COALESCE(c.finished_at, c.window_end)) >= $3)`;
  const r = await q.query<{ id: string; status: string; from_ms: string | number; until_ms: string | number; keys: string[] | null }>(
    // A change met by the window vouches only where its scope holds one of the services (the kept
    // keys through their index; stale ones, rare, from the blob); a named one is judged in full.
    `SELECT ${columns} FROM changes c
      WHERE ${inWindow} AND c.scope_keys && $7::text[] AND c.scope_keys_version = c.blast_version
     UNION ALL
     SELECT ${columns} FROM changes c
      WHERE ${inWindow} AND c.blast_version > 0 AND c.scope_keys_version IS DISTINCT FROM c.blast_version AND (${keys}) && $7::text[]
     UNION ALL
     SELECT ${columns} FROM changes c
      WHERE c.org_id = $1 AND c.status = ANY($2::text[]) AND c.id LIKE ANY($5::text[])`,
    [orgId, f.statuses, f.from, f.until, prefixes, f.now, f.services]);
  const out = new Map<string, CoveringChange>();
  for (const c of r.rows) {
    if (!out.has(c.id)) out.set(c.id, { id: c.id, displayId: displayId(c.id), status: c.status, from: Number(c.from_ms), until: Number(c.until_ms), scope: new Set(c.keys ?? []) });
  }
  return [...out.values()];
}
