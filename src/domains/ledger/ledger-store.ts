import type { Clock } from '../../platform/clock.js';
import { prepared, type Queryable, type Row, type Tx } from '../../platform/db/database.js';
import {
  AUDIT_SCHEMA_VERSION,
  fullActor,
  GENESIS_HASH,
  hashEvent,
  hashedBodyAround,
  type AuditContext,
  type AuditEvent,
  type NewAuditEvent,
} from './audit-event.js';
import { isAuditAction } from './audit-actions.js';

/** audit_log's columns in the order of its INSERTs (migration 0040). */
export const LOG_COLUMNS = `org_no, schema_version, seq, occurred_at, actor_kind, actor_id, actor_name, actor_automation, actor_trigger,
  action, target_type, target_id, correlation_id, request_id, source, data, hash`;

/**
 * An event as the product reads it from audit_log `e`: the hash as hex, and prev_hash, which is not
 * stored, from the event before it in the chain (the genesis hash before event 1; null when that
 * event is missing, which verification then reports).
 */
export const READ_COLUMNS = `e.seq, e.occurred_at, e.actor_kind, e.actor_id, e.actor_name, e.actor_automation, e.actor_trigger,
  e.action, e.target_type, e.target_id, e.correlation_id, e.request_id, e.source, e.data, e.schema_version,
  CASE WHEN e.seq = 1 THEN '${GENESIS_HASH}'
       ELSE (SELECT encode(p.hash, 'hex') FROM audit_log p WHERE p.org_no = e.org_no AND p.seq = e.seq - 1) END AS prev_hash,
  encode(e.hash, 'hex') AS hash`;

/** The columns of a chain page (readChainPage): prev_hash comes from the row read before. */
const CHAIN_COLUMNS = `e.seq, e.occurred_at, e.actor_kind, e.actor_id, e.actor_name, e.actor_automation, e.actor_trigger,
  e.action, e.target_type, e.target_id, e.correlation_id, e.request_id, e.source, e.data, e.schema_version, encode(e.hash, 'hex') AS hash`;

/** The organisation's number in audit_log, from its id as $1: `e.org_no = ${ORG_NO}`. */
export const ORG_NO = '(SELECT org_no FROM audit_heads WHERE org_id = $1)';

/**
 * The append's CTEs and final SELECT (appendAuditEvent); $1–$17 are its parameters. Without a head
 * row the INSERT still gets its one row, with no org_no, so the statement fails inside the engine:
 * a COMMIT sent with it is skipped, and a write beside it (AlongsideWrite) is undone.
 */
const APPEND_CTES = `head AS (
       UPDATE audit_heads
          SET seq = seq + 1, prev_hash = hash,
              hash = encode(sha256(convert_to(hash || E'\\n' || $16::text || (seq + 1)::text || $17::text, 'UTF8')), 'hex')
        WHERE org_id = $1
       RETURNING org_no, seq, prev_hash, hash
     ), stored AS (
       INSERT INTO audit_log (${LOG_COLUMNS})
       SELECT org_no, $15::int, seq, $2::timestamptz, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, decode(hash, 'hex')
         FROM (VALUES (1)) AS one (x) LEFT JOIN head ON true
     )
     SELECT seq, prev_hash, hash FROM head`;
const APPEND_PARAMS = 17;

/** The append's one statement, built once: it is run on every write. */
const APPEND_EVENT = prepared(`WITH ${APPEND_CTES}`);

/**
 * A write that an event records, sent in the append's own statement: each of `statements` is one
 * INSERT, UPDATE or DELETE (without a WITH of its own) over `params` as $1, $2, …, and runs as a
 * data-modifying CTE beside the append. The write and its event then cost one round trip, and
 * commit or fail together as they would as two statements of one transaction. Their `$n` are
 * renumbered after the append's own by text, so `$` followed by a digit must not appear inside
 * their string literals: pass such text as a parameter.
 */
export type AlongsideWrite = { statements: readonly string[]; params: readonly unknown[] };

/** The append's statement with a caller's writes in front, by their texts: built once each. */
const appendWithWrites = new Map<string, string>();
const MAX_ALONGSIDE_TEXTS = 100;

function appendStatement(alongside: AlongsideWrite | undefined): string {
  if (!alongside) return APPEND_EVENT;
  const key = alongside.statements.join('\u0000');
  let text = appendWithWrites.get(key);
  if (!text) {
    // The caller's $n follow the append's 17 parameters.
    const ctes = alongside.statements.map((st, i) => `w${i} AS (${st.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + APPEND_PARAMS}`)})`);
    text = prepared(`WITH ${ctes.join(', ')}, ${APPEND_CTES}`);
    // A handful of texts are in use (one per kind of write); the bound keeps a mistake from growing it.
    if (appendWithWrites.size < MAX_ALONGSIDE_TEXTS) appendWithWrites.set(key, text);
  }
  return text;
}

/** Starts the chain of a new organisation; in the transaction that creates it. */
export async function createLedgerHead(tx: Tx, orgId: string): Promise<void> {
  await tx.query('INSERT INTO audit_heads (org_id, seq, hash) VALUES ($1, 0, $2)', [orgId, GENESIS_HASH]);
}

/** The next event of an organisation's chain: its sequence number, the hash before it, and its own hash over both. */
function chained(ev: NewAuditEvent, ctx: AuditContext, actor: AuditEvent['actor'], occurredAt: string, seq: number, prevHash: string): AuditEvent {
  const unhashed: Omit<AuditEvent, 'hash'> = { ...unnumbered(ev, ctx, actor, occurredAt), seq, prevHash };
  return { ...unhashed, hash: hashEvent(unhashed) };
}

function unnumbered(ev: NewAuditEvent, ctx: AuditContext, actor: AuditEvent['actor'], occurredAt: string): Omit<AuditEvent, 'hash' | 'seq' | 'prevHash'> {
  return {
    orgId: ev.orgId, occurredAt, actor, action: ev.action, target: ev.target, correlationId: ctx.correlationId ?? null,
    requestId: ctx.requestId ?? null, source: ctx.source, data: ev.data ?? {}, schemaVersion: ev.schemaVersion ?? AUDIT_SCHEMA_VERSION,
  };
}

/**
 * How an audit event is written at once (appendAtCommit writes one with the COMMIT): inside the
 * caller's transaction, so the domain write and its event commit together or not at all.
 *
 * One statement numbers, hashes and stores the event. Its UPDATE of the organisation's head row
 * takes the row's lock, which serialises appends of one organisation and keeps its sequence
 * gap-free and its chain linear, and the engine computes the hash there with its own sha256() over
 * the text Node wrote out on either side of the number. So the head is held for this statement and
 * the COMMIT after it, not across a round trip to Node and back as when Node hashed. The hash is
 * the one hashEvent computes, so verification is unchanged. The event's time is taken before the
 * lock: under concurrent writers, two neighbours in the chain can be out of time order by the time
 * one waited for the other.
 *
 * `alongside` is the write the event records, when it can go in the same statement (AlongsideWrite).
 *
 * `commit` says the event is the last statement of its transaction: the append and the COMMIT
 * then go in one call to the engine (Tx.queryThenCommit; one round trip on PostgreSQL), so the head
 * is not held while this process gets round to sending the COMMIT. The transaction has committed when it returns.
 */
export async function appendAuditEvent(
  tx: Tx, clock: Clock, ctx: AuditContext, ev: NewAuditEvent, opts: { commit?: boolean; alongside?: AlongsideWrite } = {},
): Promise<AuditEvent> {
  const body = eventBody(clock, ctx, ev);
  // Events kept for the commit (appendAtCommit) come first in the chain, as they were recorded first.
  // The COMMIT then goes on its own: the work kept for the end has nothing left to write, yet it
  // must run before any COMMIT.
  const kept = await writeKept(tx);
  return runAppend(tx, body, { ...opts, commit: opts.commit === true && !kept });
}

/** The event as it will be stored, but for its place in the chain; its time is taken now. */
function eventBody(clock: Clock, ctx: AuditContext, ev: NewAuditEvent): EventBody {
  // One registry of actions, so the documented list cannot drift from what is written.
  if (!isAuditAction(ev.action)) throw new Error(`audit action ${ev.action} is not in the registry (src/domains/ledger/audit-actions.ts)`);
  return unnumbered(ev, ctx, fullActor(ctx.actor), clock.now().toISOString());
}

type EventBody = ReturnType<typeof unnumbered>;

async function runAppend(tx: Tx, body: EventBody, opts: { commit?: boolean; alongside?: AlongsideWrite }): Promise<AuditEvent> {
  const { before, after } = hashedBodyAround(body, body.orgId);
  const a = body.actor;
  // One UPDATE locks the head, numbers and hashes the event from the row it locked (the newest
  // version, however long the lock was waited for), and keeps the old hash for RETURNING; the
  // INSERT takes all three from it.
  // The last statement of its transaction (`commit`) goes with the COMMIT in one call: the head is
  // then held only inside the engine, for this statement and the commit.
  const run = opts.commit && tx.queryThenCommit ? tx.queryThenCommit : tx.query.bind(tx);
  const r = await run<{ seq: string | number; prev_hash: string; hash: string }>(
    appendStatement(opts.alongside),
    [
      body.orgId, body.occurredAt, a.kind, a.id, a.name, a.automation, a.trigger,
      body.action, body.target.type, body.target.id, body.correlationId, body.requestId, body.source,
      JSON.stringify(body.data), body.schemaVersion, before, after,
      ...(opts.alongside?.params ?? []),
    ],
  ).catch((err: unknown) => {
    throw headless(err, body.orgId);
  });
  const row = r.rows[0];
  if (!row) throw new Error(`organisation ${body.orgId} has no ledger head`);
  return { ...body, seq: Number(row.seq), prevHash: row.prev_hash, hash: row.hash };
}

/** The error of an append to an organisation without a ledger head (APPEND_CTES), said as such. */
function headless(err: unknown, orgId: string): unknown {
  const e = err as { code?: string; column?: string; message?: string };
  return e.code === '23502' && (e.column === 'org_no' || /"org_no"/.test(e.message ?? '')) ? new Error(`organisation ${orgId} has no ledger head`, { cause: err }) : err;
}

/** Events recorded with appendAtCommit that their transaction has not written yet, in order. */
const keptForCommit = new WeakMap<Tx, EventBody[]>();

/**
 * Records an event that is written at the end of its transaction, just before the COMMIT and
 * with it (Tx.beforeCommit), for a caller that does more after recording it and needs nothing
 * back from the chain. The organisation's head is then locked for the append and the commit only,
 * not across the round trips of the rest of the transaction, during which every other write of
 * the organisation would wait. The guarantees are appendAuditEvent's: the write and its event
 * commit together or not at all (a callback that throws writes neither), the event's time is taken
 * now, and the chain keeps the order events were recorded in, whichever way (an appendAuditEvent
 * after it writes the kept ones first). Where the transaction cannot keep work for its end, the
 * event is written at once.
 */
export async function appendAtCommit(tx: Tx, clock: Clock, ctx: AuditContext, ev: NewAuditEvent): Promise<void> {
  const body = eventBody(clock, ctx, ev);
  if (!tx.beforeCommit) {
    await runAppend(tx, body, {});
    return;
  }
  const kept = keptForCommit.get(tx);
  if (kept) {
    kept.push(body);
    return;
  }
  keptForCommit.set(tx, [body]);
  tx.beforeCommit(async (last) => {
    const events = keptForCommit.get(tx) ?? [];
    keptForCommit.delete(tx);
    // The last event goes with the COMMIT, unless other work is kept for the end after this.
    for (const [i, e] of events.entries()) await runAppend(tx, e, { commit: last && i === events.length - 1 });
  });
}

/**
 * Writes the events kept for the commit now, in order. True when the transaction has work kept for
 * its end (even with nothing left to write): its last statement cannot carry the COMMIT.
 */
async function writeKept(tx: Tx): Promise<boolean> {
  const kept = keptForCommit.get(tx);
  if (!kept) return false;
  keptForCommit.set(tx, []);
  for (const e of kept) await runAppend(tx, e, {});
  return true;
}

/** Rows of one INSERT of a batch: 18 parameters each, well under PostgreSQL's 65,535. */
const BATCH_ROWS = 500;

/**
 * Many events of one organisation, one after the other in the chain, as one append: the head is
 * locked and written once and the rows go in one statement per 500. The chain is the one
 * appendAuditEvent makes event by event (same seq, prev_hash and hash rules), so verification
 * cannot tell the two apart. What a delivery of a hundred flagged writes needs.
 */
export async function appendAuditEvents(tx: Tx, clock: Clock, ctx: AuditContext, evs: readonly NewAuditEvent[]): Promise<AuditEvent[]> {
  if (evs.length <= 1) return evs.length ? [await appendAuditEvent(tx, clock, ctx, evs[0]!)] : [];
  const orgId = evs[0]!.orgId;
  for (const ev of evs) {
    if (!isAuditAction(ev.action)) throw new Error(`audit action ${ev.action} is not in the registry (src/domains/ledger/audit-actions.ts)`);
    if (ev.orgId !== orgId) throw new Error('one batch of audit events belongs to one organisation');
  }
  await writeKept(tx);
  const head = await tx.query<{ org_no: number; seq: number; hash: string }>('SELECT org_no, seq, hash FROM audit_heads WHERE org_id = $1 FOR UPDATE', [orgId]);
  const h = head.rows[0];
  if (!h) throw new Error(`organisation ${orgId} has no ledger head`);
  const occurredAt = clock.now().toISOString();
  const actor = fullActor(ctx.actor);
  let prev = { seq: Number(h.seq), hash: h.hash };
  const events = evs.map((ev): AuditEvent => {
    const event = chained(ev, ctx, actor, occurredAt, prev.seq + 1, prev.hash);
    prev = event;
    return event;
  });
  // Column arrays through unnest: 17 parameters a statement however many rows, which the server
  // parses far faster than 17 placeholders a row.
  for (let i = 0; i < events.length; i += BATCH_ROWS) {
    const part = events.slice(i, i + BATCH_ROWS);
    const col = <T>(f: (e: AuditEvent) => T) => part.map(f);
    await tx.query(
      `INSERT INTO audit_log (${LOG_COLUMNS})
       SELECT $1::int, v, s, t, ak, ai, an, aa, at, a, tt, ti, ci, ri, so, d, decode(h, 'hex')
         FROM unnest($2::int[], $3::bigint[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                     $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::jsonb[], $17::text[])
              AS u(v, s, t, ak, ai, an, aa, at, a, tt, ti, ci, ri, so, d, h)`,
      [h.org_no, col((e) => e.schemaVersion), col((e) => e.seq), col((e) => e.occurredAt), col((e) => e.actor.kind), col((e) => e.actor.id),
        col((e) => e.actor.name), col((e) => e.actor.automation), col((e) => e.actor.trigger), col((e) => e.action), col((e) => e.target.type),
        col((e) => e.target.id), col((e) => e.correlationId), col((e) => e.requestId), col((e) => e.source), col((e) => JSON.stringify(e.data)),
        col((e) => e.hash)]);
  }
  const last = events.at(-1)!;
  await tx.query('UPDATE audit_heads SET seq = $2, hash = $3, prev_hash = $4 WHERE org_id = $1', [orgId, last.seq, last.hash, last.prevHash]);
  return events;
}

/** A row of READ_COLUMNS; the organisation is the one the query named. */
export type AuditRow = Row & AuditFields;
/** A row of CHAIN_COLUMNS. */
type ChainRow = Row & Omit<AuditFields, 'prev_hash'>;
type AuditFields = {
  seq: number; occurred_at: Date; actor_kind: AuditEvent['actor']['kind']; actor_id: string | null;
  actor_name: string; actor_automation: string | null; actor_trigger: string | null; action: string;
  target_type: string; target_id: string; correlation_id: string | null; request_id: string | null;
  source: AuditEvent['source']; data: Record<string, unknown>; schema_version: number; prev_hash: string | null; hash: string;
};

export function toAuditEvent(r: AuditRow, orgId: string): AuditEvent {
  return {
    orgId,
    seq: Number(r.seq),
    occurredAt: new Date(r.occurred_at).toISOString(),
    actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_name, automation: r.actor_automation, trigger: r.actor_trigger },
    action: r.action,
    target: { type: r.target_type, id: r.target_id },
    correlationId: r.correlation_id,
    requestId: r.request_id,
    source: r.source,
    data: r.data,
    schemaVersion: r.schema_version,
    // The event before is missing (an edit of the store): no hash links to it, and verification says so.
    prevHash: r.prev_hash ?? '',
    hash: r.hash,
  };
}

export async function readHead(db: Queryable, orgId: string): Promise<{ seq: number; hash: string } | null> {
  const r = await db.query<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_heads WHERE org_id = $1', [orgId]);
  return r.rows[0] ?? null;
}

/**
 * Rows of a chain page, ascending by seq, made events: each takes its prev_hash from the row before
 * it when that row is its predecessor, event 1 the genesis hash. The pages read one row before
 * their first event for it; `dropFirst` leaves that row out.
 */
function chainEvents(rows: readonly ChainRow[], orgId: string, dropFirst: boolean): AuditEvent[] {
  const out: AuditEvent[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const seq = Number(r.seq);
    const before = rows[i - 1];
    const prev = seq === 1 ? GENESIS_HASH : before && Number(before.seq) === seq - 1 ? before.hash : null;
    if (i === 0 && dropFirst) continue;
    out.push(toAuditEvent({ ...r, prev_hash: prev }, orgId));
  }
  return out;
}

/** Events of one organisation in chain order, from `afterSeq` on. */
export async function readChainPage(db: Queryable, orgId: string, afterSeq: number, limit: number): Promise<AuditEvent[]> {
  // From afterSeq itself, which gives the first event its prev_hash (there is no event 0).
  const r = await db.query<ChainRow>(
    `SELECT ${CHAIN_COLUMNS} FROM audit_log e WHERE e.org_no = ${ORG_NO} AND e.seq >= $2 ORDER BY e.seq LIMIT $3`,
    [orgId, afterSeq, limit + 1],
  );
  const first = r.rows[0];
  return chainEvents(r.rows, orgId, first !== undefined && Number(first.seq) === afterSeq).slice(0, limit);
}

/** Events of one organisation newest first, from just below `beforeSeq` down. */
export async function readChainPageDown(db: Queryable, orgId: string, beforeSeq: number, limit: number): Promise<AuditEvent[]> {
  // One more below the page, which gives its lowest event its prev_hash.
  const r = await db.query<ChainRow>(
    `SELECT ${CHAIN_COLUMNS} FROM audit_log e WHERE e.org_no = ${ORG_NO} AND e.seq < $2 ORDER BY e.seq DESC LIMIT $3`,
    [orgId, beforeSeq, limit + 1],
  );
  const rows = r.rows.slice().reverse();
  return chainEvents(rows, orgId, r.rows.length > limit).reverse();
}
