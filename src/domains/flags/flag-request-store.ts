import type { Clock } from '../../platform/clock.js';
import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import { appendAtCommit, type Actor, type AuditContext } from '../ledger/index.js';
import type { Json } from './flag.js';

export const REQUEST_EXPIRY_HOURS = 24;
export const EXPIRE_JOB = 'flag-request.expire';

export type RequestStatus = 'proposed' | 'applied' | 'rejected' | 'expired';
export type ChangeRequest = {
  id: string;
  flag: string;
  env: string;
  patch: Record<string, Json>;
  reason: string;
  status: RequestStatus;
  approvalsNeeded: number;
  approvals: Array<{ user: { id: string; email: string }; at: string }>;
  proposer: Actor;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  rejection: { by: string; comment: string } | null;
  recordSeq: number | null;
};
export type StoredRequest = ChangeRequest & { orgId: string; proposerUserId: string; meta: Record<string, Json>; correlationId: string | null };

const iso = (d: unknown) => new Date(d as string).toISOString();

type RequestRow = Row & {
  id: string; org_id: string; flag_key: string; env_key: string; patch: Record<string, Json>; reason: string; meta: Record<string, Json>;
  proposer: Actor; proposer_user_id: string; correlation_id: string | null; status: RequestStatus; approvals_needed: number;
  created_at: Date; expires_at: Date; decided_at: Date | null; rejection: ChangeRequest['rejection']; record_seq: number | null;
};

async function approvalsOf(db: Queryable, ids: string[]): Promise<Map<string, ChangeRequest['approvals']>> {
  const out = new Map<string, ChangeRequest['approvals']>();
  if (ids.length === 0) return out;
  const r = await db.query<Row & { request_id: string; user_id: string; email: string; approved_at: Date }>(
    'SELECT * FROM flag_approvals WHERE request_id = ANY($1::text[]) ORDER BY approved_at',
    [ids],
  );
  for (const a of r.rows) out.set(a.request_id, [...(out.get(a.request_id) ?? []), { user: { id: a.user_id, email: a.email }, at: iso(a.approved_at) }]);
  return out;
}

function toRequest(r: RequestRow, approvals: ChangeRequest['approvals']): StoredRequest {
  return {
    id: r.id, orgId: r.org_id, flag: r.flag_key, env: r.env_key, patch: r.patch, reason: r.reason, meta: r.meta, status: r.status,
    approvalsNeeded: r.approvals_needed, approvals, proposer: r.proposer, proposerUserId: r.proposer_user_id, correlationId: r.correlation_id,
    createdAt: iso(r.created_at), expiresAt: iso(r.expires_at), decidedAt: r.decided_at ? iso(r.decided_at) : null,
    rejection: r.rejection, recordSeq: r.record_seq,
  };
}

export function publicRequest(r: StoredRequest): ChangeRequest {
  const { orgId: _o, proposerUserId: _p, meta: _m, correlationId: _c, ...rest } = r;
  return rest;
}

/** A write that needs approval becomes a proposal, with its expiry set on the durable job table. */
export async function proposeInTx(
  tx: Tx, clock: Clock, ctx: AuditContext,
  p: { orgId: string; flag: string; env: string; patch: Record<string, Json>; reason: string; meta: Record<string, Json>; proposerUserId: string; needed: number; why: string },
): Promise<StoredRequest> {
  const id = newId('fcr');
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + REQUEST_EXPIRY_HOURS * 3_600_000);
  await tx.query(
    `INSERT INTO flag_change_requests (id, org_id, flag_key, env_key, patch, reason, meta, proposer, proposer_user_id, correlation_id, status, approvals_needed, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'proposed', $11, $12, $13)`,
    [id, p.orgId, p.flag, p.env, JSON.stringify(p.patch), p.reason, JSON.stringify(p.meta), JSON.stringify(ctx.actor), p.proposerUserId, ctx.correlationId ?? null, p.needed, now.toISOString(), expiresAt.toISOString()],
  );
  await scheduleJob(tx, clock, { kind: EXPIRE_JOB, runAt: expiresAt, orgId: p.orgId, dedupeKey: `${EXPIRE_JOB}:${id}`, payload: { requestId: id } });
  await appendAtCommit(tx, clock, ctx, {
    orgId: p.orgId, action: 'flag_request.proposed', target: { type: 'flag_request', id },
    data: { flag: p.flag, env: p.env, patch: p.patch, reason: p.reason, approvalsNeeded: p.needed, why: p.why, expiresAt: expiresAt.toISOString() },
  });
  return (await findRequest(tx, p.orgId, id, false))!;
}

export async function findRequest(db: Queryable, orgId: string, id: string, lock: boolean): Promise<StoredRequest | null> {
  const r = await db.query<RequestRow>(`SELECT * FROM flag_change_requests WHERE org_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [orgId, id]);
  const row = r.rows[0];
  return row ? toRequest(row, (await approvalsOf(db, [row.id])).get(row.id) ?? []) : null;
}

export async function listRequests(db: Queryable, orgId: string, f: { status?: RequestStatus; flag?: string }, limit = 200): Promise<StoredRequest[]> {
  const r = await db.query<RequestRow>(
    `SELECT * FROM flag_change_requests WHERE org_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR flag_key = $3)
     ORDER BY created_at DESC LIMIT $4`,
    [orgId, f.status ?? null, f.flag ?? null, limit],
  );
  const approvals = await approvalsOf(db, r.rows.map((x) => x.id));
  return r.rows.map((row) => toRequest(row, approvals.get(row.id) ?? []));
}

export async function insertApproval(tx: Tx, requestId: string, user: { id: string; email: string }, at: string): Promise<void> {
  await tx.query('INSERT INTO flag_approvals (request_id, user_id, email, approved_at) VALUES ($1, $2, $3, $4)', [requestId, user.id, user.email, at]);
}

export async function closeRequest(tx: Tx, id: string, status: Exclude<RequestStatus, 'proposed'>, at: string, extra: { rejection?: ChangeRequest['rejection']; recordSeq?: number } = {}): Promise<boolean> {
  const r = await tx.query(
    `UPDATE flag_change_requests SET status = $2, decided_at = $3, rejection = $4, record_seq = $5 WHERE id = $1 AND status = 'proposed'`,
    [id, status, at, extra.rejection ? JSON.stringify(extra.rejection) : null, extra.recordSeq ?? null],
  );
  return r.rowCount > 0;
}
