/**
 * SQL of the observed tables: observed changes, receipts, the counters of a connection. Dedupe is
 * on (org, source, event id) across observed_changes AND change_receipts, so a write folded into a
 * receipt is never recorded again as a row, nor the reverse.
 */
import { randomBytes } from 'node:crypto';
import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import { displayId } from '../changes/index.js';
import type { RecordPrincipal } from '../changes/change-feed.js';
import type { IntakeCounts, Location, ObservedChange, Rejected, SourceKind } from './observed-types.js';

export const newObservedId = () => `obs_${randomBytes(16).toString('hex')}`;

/** What was stored before of an event: a row (and whether it has a diff / params) or a receipt. */
export type Seen = { table: 'row'; id: string; hasDiff: boolean; hasParams: boolean } | { table: 'receipt'; hasDiff: boolean };

export async function findSeen(q: Queryable, orgId: string, source: string, eventIds: string[]): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  if (!eventIds.length) return seen;
  const rows = await q.query<{ event_id: string; id: string; has_diff: boolean; has_params: boolean }>(
    `SELECT event_id, id, diff IS NOT NULL AS has_diff, params IS NOT NULL AS has_params
       FROM observed_changes WHERE org_id = $1 AND source = $2 AND event_id = ANY($3::text[])`, [orgId, source, eventIds]);
  for (const r of rows.rows) seen.set(r.event_id, { table: 'row', id: r.id, hasDiff: r.has_diff, hasParams: r.has_params });
  const receipts = await q.query<{ event_id: string; has_diff: boolean }>(
    'SELECT event_id, diff IS NOT NULL AS has_diff FROM change_receipts WHERE org_id = $1 AND source = $2 AND event_id = ANY($3::text[])', [orgId, source, eventIds]);
  for (const r of receipts.rows) if (!seen.has(r.event_id)) seen.set(r.event_id, { table: 'receipt', hasDiff: r.has_diff });
  return seen;
}

/** Rows already recorded in each cap bucket (counted first, so overlapping deliveries agree). */
export async function bucketCounts(q: Queryable, orgId: string, buckets: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!buckets.length) return out;
  const r = await q.query<{ cap_bucket: string; n: number }>(
    'SELECT cap_bucket, count(*)::int AS n FROM observed_changes WHERE org_id = $1 AND cap_bucket = ANY($2::text[]) AND NOT denied GROUP BY cap_bucket', [orgId, buckets]);
  for (const x of r.rows) out.set(x.cap_bucket, x.n);
  return out;
}

/** A row as written (the service resolved, the diff and params scrubbed and cut). */
export type NewObserved = Omit<ObservedChange, 'displayId' | 'status' | 'caseId'> & {
  /** The case it opens or joins, decided before the insert (cases.ts). */
  caseId?: string | null;
  /** Kept for a relink (migration 0028): what resolution read of the event. */
  serviceHint: string | null; resourceName: string | null;
};

const COLUMNS = ['id', 'org_id', 'source_id', 'source', 'kind', 'event_id', 'title', 'occurred_at', 'received_at', 'principal', 'action', 'resource', 'location',
  'service', 'service_via', 'services', 'diff', 'params', 'link', 'denied', 'error_code', 'outcome', 'cap_bucket', 'change_ref', 'service_hint', 'resource_name',
  'principal_class', 'principal_class_reason', 'authorized', 'authorized_reason', 'reference', 'revert', 'case_id'] as const;
const valuesOf = (o: NewObserved): unknown[] => [o.id, o.orgId, o.sourceId, o.source, o.kind, o.eventId, o.title, o.occurredAt, o.receivedAt, JSON.stringify(o.principal),
  o.action, o.resource, JSON.stringify(o.location), o.service, o.serviceVia, o.services, o.diff, o.params === null || o.params === undefined ? null : JSON.stringify(o.params),
  o.link, o.denied, o.errorCode, o.outcome, o.capBucket, o.changeRef, o.serviceHint, o.resourceName,
  o.principalClass, o.principalClassReason, o.authorized, o.authorizedReason, o.reference, o.revert === null ? null : JSON.stringify(o.revert), o.caseId ?? null];

/**
 * Many rows in one statement (a 1,000-event audit batch is one round trip per 200 rows, not 1,000).
 * ON CONFLICT DO NOTHING: a concurrent delivery of the same event that committed first wins; the
 * ids actually written come back, so the counts say what this call stored.
 */
export async function insertObserved(tx: Tx, rows: NewObserved[]): Promise<Set<string>> {
  const written = new Set<string>();
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    const params: unknown[] = [];
    const tuples = chunk.map((o) => {
      const vals = valuesOf(o);
      const base = params.length;
      params.push(...vals);
      return `(${vals.map((_, j) => `$${base + j + 1}${COLUMNS[j] === 'principal' || COLUMNS[j] === 'location' || COLUMNS[j] === 'params' || COLUMNS[j] === 'revert' ? '::jsonb' : COLUMNS[j] === 'services' ? '::text[]' : ''}`).join(', ')})`;
    });
    const r = await tx.query<{ id: string }>(
      `INSERT INTO observed_changes (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (org_id, source, event_id) DO NOTHING RETURNING id`, params);
    for (const x of r.rows) written.add(x.id);
  }
  return written;
}

/** A re-seen event brings the diff or params the first sighting lacked: fill only what is missing. */
export async function enrichObserved(tx: Tx, id: string, diff: string | null, params: unknown): Promise<boolean> {
  const r = await tx.query(
    `UPDATE observed_changes SET diff = COALESCE(diff, $2), params = COALESCE(params, $3::jsonb)
      WHERE id = $1 AND ((diff IS NULL AND $2::text IS NOT NULL) OR (params IS NULL AND $3::jsonb IS NOT NULL))`,
    [id, diff, params === null || params === undefined ? null : JSON.stringify(params)]);
  return r.rowCount > 0;
}

export type NewReceipt = {
  orgId: string; changeId: string; sourceId: string; source: SourceKind; kind: string; eventId: string; title: string; occurredAt: string; receivedAt: string;
  principal: RecordPrincipal; action: string | null; resource: string | null; location: Location; diff: string | null; link: string | null;
};

export async function insertReceipt(tx: Tx, r: NewReceipt): Promise<boolean> {
  const res = await tx.query(
    `INSERT INTO change_receipts (org_id, change_id, source_id, source, kind, event_id, title, occurred_at, received_at, principal, action, resource, location, diff, link)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13::jsonb, $14, $15) ON CONFLICT (org_id, source, event_id) DO NOTHING`,
    [r.orgId, r.changeId, r.sourceId, r.source, r.kind, r.eventId, r.title, r.occurredAt, r.receivedAt, JSON.stringify(r.principal), r.action, r.resource, JSON.stringify(r.location), r.diff, r.link]);
  return res.rowCount > 0;
}

export async function enrichReceipt(tx: Tx, orgId: string, source: string, eventId: string, diff: string | null): Promise<boolean> {
  if (diff === null) return false;
  const r = await tx.query('UPDATE change_receipts SET diff = $4 WHERE org_id = $1 AND source = $2 AND event_id = $3 AND diff IS NULL', [orgId, source, eventId, diff]);
  return r.rowCount > 0;
}

/** Planned changes of the organisation by display id (CHG- and the first 8 hex of the id). */
export async function plannedByDisplayId(q: Queryable, orgId: string, displayIds: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const prefixes = [...new Set(displayIds.map((d) => d.toUpperCase()).filter((d) => /^CHG-[0-9A-F]{8}$/.test(d)))].map((d) => `chg_${d.slice(4).toLowerCase()}%`);
  if (!prefixes.length) return out;
  const r = await q.query<{ id: string }>('SELECT id FROM changes WHERE org_id = $1 AND id LIKE ANY($2::text[])', [orgId, prefixes]);
  const byDisplay = new Map<string, string[]>();
  for (const { id } of r.rows) byDisplay.set(displayId(id), [...(byDisplay.get(displayId(id)) ?? []), id]);
  // Two planned changes sharing 8 hex (one in four billion) name neither: the write stays a row.
  for (const [d, ids] of byDisplay) if (ids.length === 1) out.set(d, ids[0]!);
  return out;
}

/** The connection's totals move by this call's counts; the last event time only forward. */
export async function addCounts(tx: Tx, sourceId: string, c: IntakeCounts, lastEventAt: string | null, now: string): Promise<void> {
  await tx.query(
    `UPDATE change_sources SET recorded = recorded + $2, duplicate = duplicate + $3, enriched = enriched + $4, noise = noise + $5, capped = capped + $6,
       denied = denied + $7, ignored = ignored + $8, rejected = rejected + $9, receipts = receipts + $10,
       last_event_at = CASE WHEN $11::timestamptz IS NULL THEN last_event_at ELSE GREATEST(COALESCE(last_event_at, $11::timestamptz), $11::timestamptz) END,
       updated_at = $12
     WHERE id = $1`,
    [sourceId, c.recorded, c.duplicate, c.enriched, c.noise, c.capped, c.denied, c.ignored, c.rejected, c.receipts, lastEventAt, now]);
}

/** A connection as the intake needs it. */
export type SourceRow = { id: string; orgId: string; kind: SourceKind; name: string; secretSealed: string; config: Record<string, unknown> };

const sourceOf = (r: Row): SourceRow => ({ id: r.id as string, orgId: r.org_id as string, kind: r.kind as SourceKind, name: r.name as string, secretSealed: r.secret_sealed as string, config: (r.config ?? {}) as Record<string, unknown> });

export async function findSource(q: Queryable, id: string): Promise<SourceRow | null> {
  const r = await q.query('SELECT id, org_id, kind, name, secret_sealed, config FROM change_sources WHERE id = $1', [id]);
  return r.rows[0] ? sourceOf(r.rows[0]) : null;
}

export async function findSourceBySecretHash(q: Queryable, hash: string): Promise<SourceRow | null> {
  const r = await q.query('SELECT id, org_id, kind, name, secret_sealed, config FROM change_sources WHERE secret_hash = $1', [hash]);
  return r.rows[0] ? sourceOf(r.rows[0]) : null;
}


const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : new Date(d as string).toISOString());

/** A stored row as the API answers it. */
export function observedOf(r: Row): ObservedChange {
  return {
    id: r.id as string, displayId: displayId(r.id as string), orgId: r.org_id as string, sourceId: (r.source_id ?? null) as string | null, source: r.source as SourceKind,
    kind: r.kind as ObservedChange['kind'], eventId: r.event_id as string, title: r.title as string, occurredAt: iso(r.occurred_at), receivedAt: iso(r.received_at),
    principal: r.principal as RecordPrincipal, action: (r.action ?? null) as string | null, resource: (r.resource ?? null) as string | null, location: (r.location ?? {}) as Location,
    service: r.service as string, serviceVia: r.service_via as ObservedChange['serviceVia'], services: (r.services ?? []) as string[], diff: (r.diff ?? null) as string | null,
    params: r.params ?? null, link: (r.link ?? null) as string | null, denied: r.denied as boolean, errorCode: (r.error_code ?? null) as string | null,
    outcome: (r.outcome ?? null) as ObservedChange['outcome'], authorized: (r.authorized ?? null) as boolean | null, authorizedReason: (r.authorized_reason ?? null) as string | null,
    capBucket: (r.cap_bucket ?? null) as string | null, changeRef: (r.change_ref ?? null) as string | null, status: 'recorded',
    principalClass: (r.principal_class ?? null) as ObservedChange['principalClass'], principalClassReason: (r.principal_class_reason ?? null) as string | null,
    reference: (r.reference ?? null) as ObservedChange['reference'], revert: (r.revert ?? null) as ObservedChange['revert'], caseId: (r.case_id ?? null) as string | null,
  };
}

/** What a remembered delivery was read as the first time: enough to answer its byte-identical retry. */
export type DeliveryAnswer = { events: number; noise: number; ignored: number; capped: number; rejected: Rejected[] };

export async function findDelivery(q: Queryable, sourceId: string, digest: string): Promise<DeliveryAnswer | null> {
  const r = await q.query<{ answer: DeliveryAnswer }>('SELECT answer FROM change_source_deliveries WHERE source_id = $1 AND digest = $2', [sourceId, digest]);
  return r.rows[0]?.answer ?? null;
}

/** Remembers a delivery (a concurrent twin may have done it first) and forgets the connection's older than `before`. */
export async function rememberDelivery(tx: Tx, sourceId: string, digest: string, answer: DeliveryAnswer, now: string, before: string): Promise<void> {
  await tx.query('DELETE FROM change_source_deliveries WHERE source_id = $1 AND received_at < $2', [sourceId, before]);
  await tx.query('INSERT INTO change_source_deliveries (source_id, digest, answer, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT (source_id, digest) DO NOTHING',
    [sourceId, digest, JSON.stringify(answer), now]);
}
