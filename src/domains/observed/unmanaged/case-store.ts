/** SQL of unmanaged_cases and the link of observed changes to their case. */
import { randomBytes } from 'node:crypto';
import type { Queryable, Row, Tx } from '../../../platform/db/database.js';
import { observedOf } from '../observed-store.js';
import type { ObservedChange } from '../observed-types.js';
import type { CaseKind, CaseStatus } from './cases.js';

export type CaseRecord = {
  id: string; displayId: string; orgId: string; kind: CaseKind; correlationKey: string; principal: string; account: string; hour: string; status: CaseStatus;
  rollbackApprovedBy: { id: string; name: string } | null; rollbackApprovedAt: string | null;
  closedBy: { id: string; name: string } | null; closedAt: string | null; note: string | null;
  openedAt: string; updatedAt: string; changes: number;
};

/** case_ + 32 random hex: the display id CASE- and its first 8 (no timestamp, as change ids). */
export const newCaseId = () => `case_${randomBytes(16).toString('hex')}`;
export const caseDisplayId = (id: string) => `CASE-${id.slice(5, 13).toUpperCase()}`;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

type CaseRow = Row & {
  id: string; org_id: string; kind: CaseKind; correlation_key: string; principal: string; account: string; hour: Date; status: CaseStatus;
  rollback_approved_by: string | null; approver_name: string | null; rollback_approved_at: Date | null; closed_by: string | null; closer_name: string | null;
  closed_at: Date | null; note: string | null; opened_at: Date; updated_at: Date; changes: number;
};

const toCase = (r: CaseRow): CaseRecord => ({
  id: r.id, displayId: caseDisplayId(r.id), orgId: r.org_id, kind: r.kind, correlationKey: r.correlation_key, principal: r.principal, account: r.account,
  hour: iso(r.hour)!, status: r.status, rollbackApprovedBy: r.rollback_approved_by ? { id: r.rollback_approved_by, name: r.approver_name ?? '' } : null,
  rollbackApprovedAt: iso(r.rollback_approved_at), closedBy: r.closed_by ? { id: r.closed_by, name: r.closer_name ?? '' } : null, closedAt: iso(r.closed_at),
  note: r.note, openedAt: iso(r.opened_at)!, updatedAt: iso(r.updated_at)!, changes: Number(r.changes),
});

// A person without a display name is named by their e-mail.
const SELECT = `SELECT c.*, COALESCE(NULLIF(a.display_name, ''), a.email) AS approver_name, COALESCE(NULLIF(k.display_name, ''), k.email) AS closer_name,
  (SELECT count(*)::int FROM observed_changes o WHERE o.case_id = c.id) AS changes
  FROM unmanaged_cases c LEFT JOIN users a ON a.id = c.rollback_approved_by LEFT JOIN users k ON k.id = c.closed_by`;

export type CaseOpening = { kind: CaseKind; key: string; principal: string; account: string; hour: string };
export type CaseJoined = { id: string; opened: boolean; reopened: boolean };

/**
 * Opens the case of each key, or joins it, in one statement. Answers by key the case's id and
 * whether it was opened now or reopened (a closed case a new write joins is open again). The keys
 * must differ. The writes name their case as they are inserted.
 */
export async function openOrJoinCases(tx: Tx, orgId: string, cases: readonly CaseOpening[], now: string): Promise<Map<string, CaseJoined>> {
  if (!cases.length) return new Map();
  const r = await tx.query<{ id: string; correlation_key: string; opened: boolean; before: CaseStatus | null }>(
    `WITH prior AS (SELECT correlation_key, status FROM unmanaged_cases WHERE org_id = $1 AND correlation_key = ANY($4::text[]))
     INSERT INTO unmanaged_cases (id, org_id, kind, correlation_key, principal, account, hour, status, opened_at, updated_at)
     SELECT v.id, $1, v.kind, v.key, v.principal, v.account, v.hour, 'open', $8, $8
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[]) AS v(id, kind, key, principal, account, hour)
      ORDER BY v.key
     ON CONFLICT (org_id, correlation_key) DO UPDATE SET updated_at = $8,
       status = CASE WHEN unmanaged_cases.status IN ('open', 'rollback_approved') THEN unmanaged_cases.status ELSE 'open' END
     RETURNING id, correlation_key, (xmax = 0) AS opened, (SELECT p.status FROM prior p WHERE p.correlation_key = unmanaged_cases.correlation_key) AS before`,
    [orgId, cases.map(() => newCaseId()), cases.map((c) => c.kind), cases.map((c) => c.key), cases.map((c) => c.principal), cases.map((c) => c.account), cases.map((c) => c.hour), now]);
  return new Map(r.rows.map((row) => [row.correlation_key, {
    id: row.id, opened: row.opened, reopened: !row.opened && row.before !== null && row.before !== 'open' && row.before !== 'rollback_approved',
  }]));
}

export async function findCase(q: Queryable, orgId: string, id: string, lock = false): Promise<CaseRecord | null> {
  if (lock) await q.query('SELECT 1 FROM unmanaged_cases WHERE org_id = $1 AND id = $2 FOR UPDATE', [orgId, id]);
  const r = await q.query<CaseRow>(`${SELECT} WHERE c.org_id = $1 AND c.id = $2`, [orgId, id]);
  return r.rows[0] ? toCase(r.rows[0]) : null;
}

export async function listCases(q: Queryable, orgId: string, f: { statuses: CaseStatus[]; kinds: CaseKind[]; limit: number }): Promise<CaseRecord[]> {
  const r = await q.query<CaseRow>(
    `${SELECT} WHERE c.org_id = $1 AND (cardinality($2::text[]) = 0 OR c.status = ANY($2::text[])) AND (cardinality($3::text[]) = 0 OR c.kind = ANY($3::text[]))
     ORDER BY c.updated_at DESC, c.id LIMIT $4`, [orgId, f.statuses, f.kinds, f.limit]);
  return r.rows.map(toCase);
}

export async function caseChanges(q: Queryable, caseId: string): Promise<ObservedChange[]> {
  const r = await q.query<Row>('SELECT * FROM observed_changes WHERE case_id = $1 ORDER BY occurred_at, id', [caseId]);
  return r.rows.map(observedOf);
}

export async function setCaseStatus(tx: Tx, id: string, status: CaseStatus, by: string, note: string | null, now: string): Promise<void> {
  if (status === 'rollback_approved') {
    await tx.query('UPDATE unmanaged_cases SET status = $2, rollback_approved_by = $3, rollback_approved_at = $4, note = COALESCE($5, note), updated_at = $4 WHERE id = $1', [id, status, by, now, note]);
  } else {
    await tx.query('UPDATE unmanaged_cases SET status = $2, closed_by = $3, closed_at = $4, note = COALESCE($5, note), updated_at = $4 WHERE id = $1', [id, status, by, now, note]);
  }
}

/** Keeping a case: every unauthorized change of it is authorized, with the note as the reason. */
export async function keepChanges(tx: Tx, caseId: string, note: string): Promise<string[]> {
  const r = await tx.query<{ id: string }>(
    `UPDATE observed_changes SET authorized = true, authorized_reason = $2, reference = 'kept' WHERE case_id = $1 AND authorized = false RETURNING id`,
    [caseId, `kept as legitimate: ${note}`]);
  return r.rows.map((x) => x.id);
}
