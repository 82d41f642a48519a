import type { Queryable, Row } from '../../platform/db/database.js';
import { openOrNull, type Sealer } from '../../platform/crypto/sealed.js';

/**
 * SQL of evidence_sources: where an organisation's metrics and logs come from. The credentials
 * stay sealed in auth_sealed; reads for pages answer `hasSecret`, and only collection and the Test
 * button open them (listEvidenceSources with a sealer, readSourceForUse).
 */

export type EvidenceSourceKind = 'prometheus' | 'loki' | 'elasticsearch' | 'otlp';
export type SourceAuthKind = 'none' | 'bearer' | 'basic';

/** Credentials opened from their seal, ready for a request. */
export type SourceAuth = { kind: 'none' } | { kind: 'bearer'; token: string } | { kind: 'basic'; user: string; password: string };

/** What a page may see of a source: never its credentials. */
export type EvidenceSourceRecord = {
  id: string; orgId: string; kind: EvidenceSourceKind; name: string; url: string | null;
  authKind: SourceAuthKind; hasSecret: boolean; config: Record<string, unknown>; enabled: boolean;
  createdAt: string; updatedAt: string;
};

/**
 * Evidence sources usually live on the organisation's own network (a Prometheus behind the
 * firewall), as Alertmanagers do: private addresses are allowed; loopback, link-local and cloud
 * metadata never are (the outbound guard).
 */
export const EVIDENCE_ALLOW_PRIVATE = true;

/** A source with its credentials opened: what collection and the Test button use. */
export type ReadySource = EvidenceSourceRecord & {
  auth: SourceAuth; allowPrivate: boolean;
  /** Set when the sealed credentials could not be opened (another data key): the part says so instead of asking without them. */
  authProblem: string | null;
};

export type PrometheusSource = { id: string; name: string; kind: 'prometheus'; url: string; auth: SourceAuth; allowPrivate: boolean };

type SourceRow = Row & {
  id: string; org_id: string; kind: EvidenceSourceKind; name: string; url: string | null; auth_kind: SourceAuthKind;
  auth_sealed: string | null; config: Record<string, unknown> | null; enabled: boolean; created_at: Date; updated_at: Date;
};

const iso = (d: Date | string) => new Date(d).toISOString();

const toRecord = (r: SourceRow): EvidenceSourceRecord => ({
  id: r.id, orgId: r.org_id, kind: r.kind, name: r.name, url: r.url, authKind: r.auth_kind, hasSecret: r.auth_sealed !== null,
  config: r.config ?? {}, enabled: r.enabled, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
});

/** The sealed secret is the bearer token, or "user:password" (a user name has no colon, RFC 7617). */
export function openAuth(sealer: Sealer, kind: SourceAuthKind, sealed: string | null): { auth: SourceAuth; problem: string | null } {
  if (kind === 'none') return { auth: { kind: 'none' }, problem: null };
  const plain = openOrNull(sealer, sealed);
  if (plain === null) return { auth: { kind: 'none' }, problem: 'its credentials cannot be opened (sealed under another data key): enter them again' };
  if (kind === 'bearer') return { auth: { kind: 'bearer', token: plain }, problem: null };
  const at = plain.indexOf(':');
  return { auth: { kind: 'basic', user: plain.slice(0, at), password: plain.slice(at + 1) }, problem: null };
}

function ready(sealer: Sealer, r: SourceRow): ReadySource {
  const { auth, problem } = openAuth(sealer, r.auth_kind, r.auth_sealed);
  return { ...toRecord(r), auth, allowPrivate: EVIDENCE_ALLOW_PRIVATE, authProblem: problem };
}

export async function listSourceRecords(db: Queryable, orgId: string, opts: { enabledOnly?: boolean } = {}): Promise<EvidenceSourceRecord[]> {
  const r = await db.query<SourceRow>(
    `SELECT * FROM evidence_sources WHERE org_id = $1 ${opts.enabledOnly ? 'AND enabled' : ''} ORDER BY kind, lower(name), id`, [orgId],
  );
  return r.rows.map(toRecord);
}

/**
 * An organisation's evidence sources for collection, with their credentials opened by the sealer.
 * Kinds first in a fixed order, then by name, so that a report lists its parts alike every time.
 */
export async function listEvidenceSources(db: Queryable, orgId: string, opts: { enabledOnly?: boolean; sealer: Sealer }): Promise<ReadySource[]> {
  const r = await db.query<SourceRow>(
    `SELECT * FROM evidence_sources WHERE org_id = $1 ${opts.enabledOnly ? 'AND enabled' : ''} ORDER BY kind, lower(name), id`, [orgId],
  );
  return r.rows.map((x) => ready(opts.sealer, x));
}

export async function readSourceRecord(db: Queryable, orgId: string, id: string, forUpdate = false): Promise<(EvidenceSourceRecord & { authSealed: string | null }) | null> {
  const r = await db.query<SourceRow>(`SELECT * FROM evidence_sources WHERE org_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [orgId, id]);
  const x = r.rows[0];
  return x ? { ...toRecord(x), authSealed: x.auth_sealed } : null;
}

export async function readSourceForUse(db: Queryable, sealer: Sealer, orgId: string, id: string): Promise<ReadySource | null> {
  const r = await db.query<SourceRow>('SELECT * FROM evidence_sources WHERE org_id = $1 AND id = $2', [orgId, id]);
  const x = r.rows[0];
  return x ? ready(sealer, x) : null;
}

/** A Prometheus source as collectMetrics takes it. */
export function asPrometheus(s: ReadySource): PrometheusSource {
  return { id: s.id, name: s.name, kind: 'prometheus', url: s.url ?? '', auth: s.auth, allowPrivate: s.allowPrivate };
}

export type SourceWrite = {
  id: string; orgId: string; kind: EvidenceSourceKind; name: string; url: string | null; authKind: SourceAuthKind;
  authSealed: string | null; config: Record<string, unknown>; enabled: boolean; at: string;
};

export async function insertSource(db: Queryable, s: SourceWrite): Promise<void> {
  await db.query(
    `INSERT INTO evidence_sources (id, org_id, kind, name, url, auth_kind, auth_sealed, config, enabled, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
    [s.id, s.orgId, s.kind, s.name, s.url, s.authKind, s.authSealed, JSON.stringify(s.config), s.enabled, s.at],
  );
}

export async function updateSource(db: Queryable, s: SourceWrite): Promise<void> {
  await db.query(
    `UPDATE evidence_sources SET name = $3, url = $4, auth_kind = $5, auth_sealed = $6, config = $7, enabled = $8, updated_at = $9
     WHERE org_id = $1 AND id = $2`,
    [s.orgId, s.id, s.name, s.url, s.authKind, s.authSealed, JSON.stringify(s.config), s.enabled, s.at],
  );
}

export async function deleteSource(db: Queryable, orgId: string, id: string): Promise<void> {
  await db.query('DELETE FROM evidence_sources WHERE org_id = $1 AND id = $2', [orgId, id]);
}
