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

export const AUDIT_COLUMNS = `org_id, seq, occurred_at, actor_kind, actor_id, actor_name, actor_automation, actor_trigger,
  action, target_type, target_id, correlation_id, request_id, source, data, schema_version, prev_hash, hash`;

/** The append's one statement (appendAuditEvent), built once: it is run on every write. */
const APPEND_EVENT = prepared(`WITH head AS (
       UPDATE audit_heads
          SET seq = seq + 1, prev_hash = hash,
              hash = encode(sha256(convert_to(hash || E'\\n' || $16::text || (seq + 1)::text || $17::text, 'UTF8')), 'hex')
        WHERE org_id = $1
       RETURNING seq, prev_hash, hash
     )
     INSERT INTO audit_events (${AUDIT_COLUMNS})
     SELECT $1, seq, $2::timestamptz, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15::int, prev_hash, hash FROM head
     RETURNING seq, prev_hash, hash`);

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
 * The only way an audit event is written: inside the caller's transaction, so the domain write
 * and its event commit together or not at all.
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
 * `commit` says the event is the last statement of its transaction: on PostgreSQL the append and
 * the COMMIT then go in one round trip (Tx.queryThenCommit), so the head is not held while this
 * process gets round to sending the COMMIT. The transaction has committed when it returns.
 */
export async function appendAuditEvent(tx: Tx, clock: Clock, ctx: AuditContext, ev: NewAuditEvent, opts: { commit?: boolean } = {}): Promise<AuditEvent> {
  // One registry of actions, so the documented list cannot drift from what is written.
  if (!isAuditAction(ev.action)) throw new Error(`audit action ${ev.action} is not in the registry (src/domains/ledger/audit-actions.ts)`);
  const body = unnumbered(ev, ctx, fullActor(ctx.actor), clock.now().toISOString());
  const { before, after } = hashedBodyAround(body, body.orgId);
  const a = body.actor;
  // One UPDATE locks the head, numbers and hashes the event from the row it locked (the newest
  // version, however long the lock was waited for), and keeps the old hash for RETURNING; the
  // INSERT takes all three from it.
  // The last statement of its transaction (`commit`) goes with the COMMIT in one round trip, on
  // PostgreSQL: the head is then held only inside the server, for this statement and the commit.
  const run = opts.commit && tx.queryThenCommit ? tx.queryThenCommit : tx.query.bind(tx);
  const r = await run<{ seq: string | number; prev_hash: string; hash: string }>(
    APPEND_EVENT,
    [
      body.orgId, body.occurredAt, a.kind, a.id, a.name, a.automation, a.trigger,
      body.action, body.target.type, body.target.id, body.correlationId, body.requestId, body.source,
      JSON.stringify(body.data), body.schemaVersion, before, after,
    ],
  );
  const row = r.rows[0];
  if (!row) throw new Error(`organisation ${ev.orgId} has no ledger head`);
  return { ...body, seq: Number(row.seq), prevHash: row.prev_hash, hash: row.hash };
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
  const head = await tx.query<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_heads WHERE org_id = $1 FOR UPDATE', [orgId]);
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
  // Column arrays through unnest: 18 parameters a statement however many rows, which the server
  // parses far faster than 18 placeholders a row.
  for (let i = 0; i < events.length; i += BATCH_ROWS) {
    const part = events.slice(i, i + BATCH_ROWS);
    const col = <T>(f: (e: AuditEvent) => T) => part.map(f);
    await tx.query(
      `INSERT INTO audit_events (${AUDIT_COLUMNS})
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                            $11::text[], $12::text[], $13::text[], $14::text[], $15::jsonb[], $16::int[], $17::text[], $18::text[])`,
      [col((e) => e.orgId), col((e) => e.seq), col((e) => e.occurredAt), col((e) => e.actor.kind), col((e) => e.actor.id), col((e) => e.actor.name),
        col((e) => e.actor.automation), col((e) => e.actor.trigger), col((e) => e.action), col((e) => e.target.type), col((e) => e.target.id),
        col((e) => e.correlationId), col((e) => e.requestId), col((e) => e.source), col((e) => JSON.stringify(e.data)), col((e) => e.schemaVersion),
        col((e) => e.prevHash), col((e) => e.hash)]);
  }
  const last = events.at(-1)!;
  await tx.query('UPDATE audit_heads SET seq = $2, hash = $3, prev_hash = $4 WHERE org_id = $1', [orgId, last.seq, last.hash, last.prevHash]);
  return events;
}

export type AuditRow = Row & {
  org_id: string; seq: number; occurred_at: Date; actor_kind: AuditEvent['actor']['kind']; actor_id: string | null;
  actor_name: string; actor_automation: string | null; actor_trigger: string | null; action: string;
  target_type: string; target_id: string; correlation_id: string | null; request_id: string | null;
  source: AuditEvent['source']; data: Record<string, unknown>; schema_version: number; prev_hash: string; hash: string;
};

export function toAuditEvent(r: AuditRow): AuditEvent {
  return {
    orgId: r.org_id,
    seq: r.seq,
    occurredAt: new Date(r.occurred_at).toISOString(),
    actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_name, automation: r.actor_automation, trigger: r.actor_trigger },
    action: r.action,
    target: { type: r.target_type, id: r.target_id },
    correlationId: r.correlation_id,
    requestId: r.request_id,
    source: r.source,
    data: r.data,
    schemaVersion: r.schema_version,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

export async function readHead(db: Queryable, orgId: string): Promise<{ seq: number; hash: string } | null> {
  const r = await db.query<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_heads WHERE org_id = $1', [orgId]);
  return r.rows[0] ?? null;
}

/** Events of one organisation in chain order, from `afterSeq` on. */
export async function readChainPage(db: Queryable, orgId: string, afterSeq: number, limit: number): Promise<AuditEvent[]> {
  const r = await db.query<AuditRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE org_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [orgId, afterSeq, limit],
  );
  return r.rows.map(toAuditEvent);
}

/** Events of one organisation newest first, from just below `beforeSeq` down. */
export async function readChainPageDown(db: Queryable, orgId: string, beforeSeq: number, limit: number): Promise<AuditEvent[]> {
  const r = await db.query<AuditRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE org_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
    [orgId, beforeSeq, limit],
  );
  return r.rows.map(toAuditEvent);
}
