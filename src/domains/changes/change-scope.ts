import type { Queryable } from '../../platform/db/database.js';
import type { CompactBlast } from '../catalogue/blast-snapshot.js';
import { latestBlast } from './change-store.js';

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

/**
 * The catalogue keys in the scope (services and assets) of many changes' latest blast radius, in
 * one statement: what tells whether a change covers a write seen elsewhere.
 */
export async function readScopeKeys(db: Queryable, changeIds: readonly string[]): Promise<Map<string, { version: number; keys: Set<string> }>> {
  const out = new Map<string, { version: number; keys: Set<string> }>();
  if (!changeIds.length) return out;
  const r = await db.query<{ change_id: string; version: number; stored: CompactBlast }>(
    'SELECT DISTINCT ON (change_id) change_id, version, stored FROM change_blasts WHERE change_id = ANY($1::text[]) ORDER BY change_id, version DESC', [changeIds]);
  for (const b of r.rows) out.set(b.change_id, { version: b.version, keys: new Set([...b.stored.scope.s, ...b.stored.scope.a].map((i) => b.stored.k[i]!)) });
  return out;
}
