import { createHash } from 'node:crypto';
import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import { DEFAULT_OBSERVED_SETTINGS, type ObservedSettings } from './observed-settings.js';
import { PULL_KINDS, type IntakeCounts, type SourceKind } from './observed-types.js';

/**
 * SQL of change_sources (the connections), change_source_markers (where each pull got to) and
 * observed_settings. Secrets stay sealed; reads for pages answer hasCredential, never a secret.
 */

/** How a connection's secret is found without being stored: PagerDuty's routing key is looked up by it. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export type MarkerName = 'scheduled' | 'manual';
export type Marker = { position: string; note: string | null; updatedAt: string };

export type SourceRecord = {
  id: string; orgId: string; kind: SourceKind; name: string; config: Record<string, unknown>;
  hasCredential: boolean; pullEnabled: boolean; counts: IntakeCounts;
  lastEventAt: string | null; lastPullAt: string | null; lastPullError: string | null;
  markers: Record<MarkerName, Marker | null>;
  createdAt: string; updatedAt: string;
};

/** A connection with its sealed parts: what the service opens for a pull or a test. */
export type SealedSource = SourceRecord & { secretSealed: string; credentialSealed: string | null };

type SourceRow = Row & {
  id: string; org_id: string; kind: SourceKind; name: string; secret_sealed: string; config: Record<string, unknown> | null;
  credential_sealed: string | null; pull_enabled: boolean; last_event_at: Date | null; last_pull_at: Date | null; last_pull_error: string | null;
  created_at: Date; updated_at: Date; markers: Array<{ name: MarkerName; position: string; note: string | null; updated_at: string }> | null;
} & Record<keyof IntakeCounts, string | number>;

const COUNTS: Array<keyof IntakeCounts> = ['recorded', 'duplicate', 'enriched', 'noise', 'capped', 'denied', 'ignored', 'rejected', 'receipts'];
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const toRecord = (r: SourceRow): SealedSource => {
  const markers: Record<MarkerName, Marker | null> = { scheduled: null, manual: null };
  for (const m of r.markers ?? []) markers[m.name] = { position: iso(m.position)!, note: m.note, updatedAt: iso(m.updated_at)! };
  return {
    id: r.id, orgId: r.org_id, kind: r.kind, name: r.name, config: r.config ?? {}, hasCredential: r.credential_sealed !== null,
    pullEnabled: r.pull_enabled, counts: Object.fromEntries(COUNTS.map((k) => [k, Number(r[k])])) as IntakeCounts,
    lastEventAt: iso(r.last_event_at), lastPullAt: iso(r.last_pull_at), lastPullError: r.last_pull_error, markers,
    createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!, secretSealed: r.secret_sealed, credentialSealed: r.credential_sealed,
  };
};

const SELECT = `SELECT s.*, (SELECT json_agg(json_build_object('name', m.name, 'position', m.position, 'note', m.note, 'updated_at', m.updated_at))
  FROM change_source_markers m WHERE m.source_id = s.id) AS markers FROM change_sources s`;

/** A page's view: the sealed parts left out. */
export function withoutSeals(s: SealedSource): SourceRecord {
  const { secretSealed: _s, credentialSealed: _c, ...rest } = s;
  return rest;
}

export async function listSources(db: Queryable, orgId: string): Promise<SealedSource[]> {
  const r = await db.query<SourceRow>(`${SELECT} WHERE s.org_id = $1 ORDER BY s.created_at, s.id`, [orgId]);
  return r.rows.map(toRecord);
}

export async function readSource(db: Queryable, orgId: string, id: string, lock = false): Promise<SealedSource | null> {
  if (lock) await db.query('SELECT 1 FROM change_sources WHERE org_id = $1 AND id = $2 FOR UPDATE', [orgId, id]);
  const r = await db.query<SourceRow>(`${SELECT} WHERE s.org_id = $1 AND s.id = $2`, [orgId, id]);
  return r.rows[0] ? toRecord(r.rows[0]) : null;
}

/** Any organisation's connection by id: what a pull job starts from. */
export async function readSourceById(db: Queryable, id: string, lock = false): Promise<SealedSource | null> {
  const r = await db.query<SourceRow>(`${SELECT} WHERE s.id = $1${lock ? ' FOR UPDATE OF s' : ''}`, [id]);
  return r.rows[0] ? toRecord(r.rows[0]) : null;
}

export type SourceWrite = {
  id: string; orgId: string; kind: SourceKind; name: string; config: Record<string, unknown>;
  secretSealed: string; secretHash: string; credentialSealed: string | null; pullEnabled: boolean; at: string;
};

export async function insertSource(tx: Tx, s: SourceWrite): Promise<void> {
  await tx.query(
    `INSERT INTO change_sources (id, org_id, kind, name, secret_sealed, secret_hash, config, credential_sealed, pull_enabled, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
    [s.id, s.orgId, s.kind, s.name, s.secretSealed, s.secretHash, JSON.stringify(s.config), s.credentialSealed, s.pullEnabled, s.at],
  );
}

export async function updateSource(tx: Tx, s: { id: string; orgId: string; name: string; config: Record<string, unknown>; credentialSealed: string | null; pullEnabled: boolean; at: string }): Promise<void> {
  await tx.query(
    `UPDATE change_sources SET name = $3, config = $4, credential_sealed = $5, pull_enabled = $6, updated_at = $7 WHERE org_id = $1 AND id = $2`,
    [s.orgId, s.id, s.name, JSON.stringify(s.config), s.credentialSealed, s.pullEnabled, s.at],
  );
}

export async function replaceSecret(tx: Tx, orgId: string, id: string, sealed: string, hash: string, at: string): Promise<void> {
  await tx.query('UPDATE change_sources SET secret_sealed = $3, secret_hash = $4, updated_at = $5 WHERE org_id = $1 AND id = $2', [orgId, id, sealed, hash, at]);
}

export async function deleteSource(tx: Tx, orgId: string, id: string): Promise<void> {
  await tx.query('DELETE FROM change_sources WHERE org_id = $1 AND id = $2', [orgId, id]);
}

export async function writeMarker(tx: Tx, sourceId: string, name: MarkerName, position: Date, note: string | null, at: Date): Promise<void> {
  await tx.query(
    `INSERT INTO change_source_markers (source_id, name, position, note, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (source_id, name) DO UPDATE SET position = EXCLUDED.position, note = EXCLUDED.note, updated_at = EXCLUDED.updated_at`,
    [sourceId, name, position.toISOString(), note, at.toISOString()],
  );
}

/** After a scheduled pull: when it ran and, when it failed, why (cleared by the next success). */
export async function writePullResult(db: Queryable, sourceId: string, at: Date, error: string | null): Promise<void> {
  await db.query('UPDATE change_sources SET last_pull_at = $2, last_pull_error = $3 WHERE id = $1', [sourceId, at.toISOString(), error]);
}

/**
 * Connections a scheduled pull may read now: a pull kind, a credential, not opted out, in an
 * organisation whose interval is not 0. Each with its organisation's interval.
 */
export async function pullableSources(db: Queryable): Promise<Array<{ id: string; orgId: string; intervalSeconds: number }>> {
  const r = await db.query<{ id: string; org_id: string; interval: number }>(
    `SELECT s.id, s.org_id, COALESCE(o.pull_interval_seconds, $2) AS interval
     FROM change_sources s LEFT JOIN observed_settings o ON o.org_id = s.org_id
     WHERE s.kind = ANY($1::text[]) AND s.credential_sealed IS NOT NULL AND s.pull_enabled
       AND COALESCE(o.pull_interval_seconds, $2) > 0
     ORDER BY s.id`,
    [[...PULL_KINDS], DEFAULT_OBSERVED_SETTINGS.pullIntervalSeconds],
  );
  return r.rows.map((x) => ({ id: x.id, orgId: x.org_id, intervalSeconds: Number(x.interval) }));
}

type SettingsRow = Row & { pull_interval_seconds: number; ci_namespaces: string[]; service_map: Record<string, string>; resource_map: Record<string, string | string[]>; updated_at: Date };

/** The organisation's settings, the defaults while none are saved; updatedAt null then. */
export async function readObservedSettings(db: Queryable, orgId: string, lock = false): Promise<ObservedSettings & { updatedAt: string | null }> {
  // Before the first save there is no settings row to lock: the organisation's row stands in, so two
  // first PUTs cannot both start from the defaults and lose one.
  if (lock) await db.query('SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [orgId]);
  const r = await db.query<SettingsRow>(`SELECT * FROM observed_settings WHERE org_id = $1${lock ? ' FOR UPDATE' : ''}`, [orgId]);
  const row = r.rows[0];
  if (!row) return { ...DEFAULT_OBSERVED_SETTINGS, ciNamespaces: [...DEFAULT_OBSERVED_SETTINGS.ciNamespaces], updatedAt: null };
  return {
    pullIntervalSeconds: Number(row.pull_interval_seconds), ciNamespaces: row.ci_namespaces, serviceMap: row.service_map ?? {},
    resourceMap: row.resource_map ?? {}, updatedAt: iso(row.updated_at),
  };
}

export async function writeObservedSettings(tx: Tx, orgId: string, s: ObservedSettings, at: string): Promise<void> {
  await tx.query(
    `INSERT INTO observed_settings (org_id, pull_interval_seconds, ci_namespaces, service_map, resource_map, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (org_id) DO UPDATE SET pull_interval_seconds = EXCLUDED.pull_interval_seconds, ci_namespaces = EXCLUDED.ci_namespaces,
       service_map = EXCLUDED.service_map, resource_map = EXCLUDED.resource_map, updated_at = EXCLUDED.updated_at`,
    [orgId, s.pullIntervalSeconds, s.ciNamespaces, JSON.stringify(s.serviceMap), JSON.stringify(s.resourceMap), at],
  );
}
