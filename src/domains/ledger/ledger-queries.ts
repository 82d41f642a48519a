import { invalid } from '../../platform/errors.js';
import type { Queryable } from '../../platform/db/database.js';
import type { AuditEvent } from './audit-event.js';
import { ORG_NO, READ_COLUMNS, readChainPage, readHead, toAuditEvent, type AuditRow } from './ledger-store.js';
import { checkChain, GENESIS_HASH } from './audit-event.js';

export type AuditFilter = {
  /** A prefix: `token.` matches `token.created` and `token.revoked`. */
  action?: string;
  actor?: string;
  /** The actor's display name (an e-mail for people). */
  actorName?: string;
  targetType?: string;
  targetId?: string;
  /** Any of these target ids. */
  targetIds?: string[];
  /** Every target whose id starts with this: a flag namespace such as `ops.payments.`. */
  targetIdPrefix?: string;
  /** Only these actions (exact), e.g. the actions of flag change records. */
  actions?: string[];
  /** One of these top-level fields of the event's data equals the value (e.g. env = production). */
  dataField?: { keys: string[]; value: string };
  correlationId?: string;
  since?: Date;
  until?: Date;
  q?: string;
};

export type AuditPage = { items: AuditEvent[]; nextCursor: string | null };

export const AUDIT_PAGE_MAX = 500;

type Cursor = { t: string; s: number };

export function encodeCursor(e: Pick<AuditEvent, 'occurredAt' | 'seq'>): string {
  return Buffer.from(`${e.occurredAt}|${e.seq}`).toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  const raw = Buffer.from(text, 'base64url').toString('utf8');
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|(\d{1,15})$/.exec(raw);
  if (!m || Number.isNaN(Date.parse(m[1]!))) throw invalid('cursor', 'is not one this server gave out');
  return { t: m[1]!, s: Number(m[2]) };
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The category index's key (migration 0041): a 4-byte hash of the action's first word. */
const CATEGORY_KEY = `hashtext(split_part(e.action, '.', 1))`;

/** Builds the WHERE clause over audit_log `e`; every filter maps onto a leading index column after org_no. */
function where(orgId: string, f: AuditFilter, cursor: Cursor | null): { sql: string; params: unknown[] } {
  const params: unknown[] = [orgId];
  const parts = [`e.org_no = ${ORG_NO}`];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    parts.push(clause(`$${params.length}`));
  };
  if (f.action) {
    // A prefix such as `delivery.` names a category: its equality can walk the category index newest
    // first, where LIKE alone would scan the time index backwards past every other category. The
    // index holds the category's hash (migration 0041); the LIKE on the row drops another category
    // with the same hash, as the exact actions below do.
    const dot = f.action.indexOf('.');
    if (dot > 0) add((p) => `${CATEGORY_KEY} = hashtext(${p}::text)`, f.action.slice(0, dot));
    add((p) => `e.action LIKE ${p}`, `${escapeLike(f.action)}%`);
  }
  // The actor indexes hold the hash of the id or name (migration 0040): the hash finds the range,
  // the text drops another actor with the same hash.
  if (f.actor) add((p) => `hashtext(e.actor_id) = hashtext(${p}::text) AND e.actor_id = ${p}`, f.actor);
  if (f.actorName) add((p) => `hashtext(e.actor_name) = hashtext(${p}::text) AND e.actor_name = ${p}`, f.actorName);
  if (f.targetType) add((p) => `e.target_type = ${p}`, f.targetType);
  if (f.targetId) add((p) => `e.target_id = ${p}`, f.targetId);
  if (f.targetIds) add((p) => `e.target_id = ANY(${p}::text[])`, f.targetIds);
  if (f.targetIdPrefix) add((p) => `e.target_id LIKE ${p}`, `${escapeLike(f.targetIdPrefix)}%`);
  if (f.actions) {
    // The categories of the listed actions lead the category index, which then reads them newest first.
    const categories = [...new Set(f.actions.map((a) => a.split('.', 1)[0]!))];
    // A parameter each, so that the planner folds each hash to a constant it can estimate. IN with
    // one element is read as `=`.
    const hashes = categories.map((c) => {
      params.push(c);
      return `hashtext($${params.length}::text)`;
    });
    parts.push(`${CATEGORY_KEY} IN (${hashes.join(', ')})`);
    add((p) => `e.action = ANY(${p}::text[])`, f.actions);
  }
  if (f.dataField) {
    params.push(f.dataField.value);
    const valueParam = `$${params.length}`;
    const alternatives = f.dataField.keys.map((k) => {
      params.push(k);
      return `e.data ->> $${params.length} = ${valueParam}`;
    });
    parts.push(`(${alternatives.join(' OR ')})`);
  }
  if (f.correlationId) add((p) => `e.correlation_id = ${p}`, f.correlationId);
  if (f.since) add((p) => `e.occurred_at >= ${p}`, f.since.toISOString());
  if (f.until) add((p) => `e.occurred_at < ${p}`, f.until.toISOString());
  if (f.q) {
    add(
      (p) => `(e.action ILIKE ${p} OR e.actor_name ILIKE ${p} OR e.target_id ILIKE ${p} OR coalesce(e.correlation_id, '') ILIKE ${p} OR e.data::text ILIKE ${p})`,
      `%${escapeLike(f.q)}%`,
    );
  }
  if (cursor) {
    params.push(cursor.t, cursor.s);
    parts.push(`(e.occurred_at, e.seq) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  return { sql: parts.join(' AND '), params };
}

/** Newest first, keyset pagination on (time, seq). */
export async function listAuditEvents(db: Queryable, orgId: string, f: AuditFilter, limit: number, cursorText?: string): Promise<AuditPage> {
  const cursor = cursorText ? decodeCursor(cursorText) : null;
  const w = where(orgId, f, cursor);
  const r = await db.query<AuditRow>(
    `SELECT ${READ_COLUMNS} FROM audit_log e WHERE ${w.sql} ORDER BY e.occurred_at DESC, e.seq DESC LIMIT ${Number(limit) + 1}`,
    w.params,
  );
  const items = r.rows.slice(0, limit).map((row) => toAuditEvent(row, orgId));
  const last = items[items.length - 1];
  return { items, nextCursor: r.rows.length > limit && last ? encodeCursor(last) : null };
}

/** One event of the organisation by its sequence number, or null. */
export async function findAuditEvent(db: Queryable, orgId: string, seq: number): Promise<AuditEvent | null> {
  const r = await db.query<AuditRow>(`SELECT ${READ_COLUMNS} FROM audit_log e WHERE e.org_no = ${ORG_NO} AND e.seq = $2`, [orgId, seq]);
  return r.rows[0] ? toAuditEvent(r.rows[0], orgId) : null;
}

/** Every matching event, newest first, a page at a time, for NDJSON export. */
export async function* iterateAuditEvents(db: Queryable, orgId: string, f: AuditFilter, pageSize = 1000): AsyncGenerator<AuditEvent> {
  let cursor: string | undefined;
  for (;;) {
    const page = await listAuditEvents(db, orgId, f, pageSize, cursor);
    yield* page.items;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}

export type VerifyResult = {
  orgId: string;
  ok: boolean;
  checked: number;
  head: { seq: number; hash: string } | null;
  firstBrokenSeq: number | null;
  reason: string | null;
};

/** Walks the whole chain of one organisation and names the first event that breaks it. */
export async function verifyLedger(db: Queryable, orgId: string, pageSize = 2000): Promise<VerifyResult> {
  const head = await readHead(db, orgId);
  let at = { seq: 0, hash: GENESIS_HASH };
  let checked = 0;
  for (;;) {
    const page = await readChainPage(db, orgId, at.seq, pageSize);
    const res = checkChain(page, at);
    // Events, not pages: the page with the break counts up to the broken event.
    checked += res.checked;
    if (!res.ok) return { orgId, ok: false, checked, head, firstBrokenSeq: res.broken.seq, reason: res.broken.reason };
    at = res.next;
    if (page.length < pageSize) break;
  }
  if (head && head.seq > at.seq) {
    return { orgId, ok: false, checked, head, firstBrokenSeq: at.seq + 1, reason: `events ${at.seq + 1}…${head.seq} are missing from the end of the chain` };
  }
  if (head && head.hash !== at.hash) {
    return { orgId, ok: false, checked, head, firstBrokenSeq: at.seq, reason: `the recorded head does not match event ${at.seq}` };
  }
  return { orgId, ok: true, checked, head: at.seq > 0 ? at : null, firstBrokenSeq: null, reason: null };
}

export type LedgerDigest = { orgId: string; seq: number; hash: string; occurredAt: string | null };

export async function ledgerDigest(db: Queryable, orgId: string): Promise<LedgerDigest> {
  const r = await db.query<AuditRow>(`SELECT ${READ_COLUMNS} FROM audit_log e WHERE e.org_no = ${ORG_NO} ORDER BY e.seq DESC LIMIT 1`, [orgId]);
  const last = r.rows[0];
  if (!last) return { orgId, seq: 0, hash: GENESIS_HASH, occurredAt: null };
  const e = toAuditEvent(last, orgId);
  return { orgId, seq: e.seq, hash: e.hash, occurredAt: e.occurredAt };
}
