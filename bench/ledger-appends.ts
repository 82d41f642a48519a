/**
 * What the ledger costs a write: a domain INSERT plus `appendAuditEvent` (lock the head row, hash,
 * insert into the indexed, constrained audit_log) against the same domain INSERT plus a plain
 * INSERT of the same event row into an unindexed copy of the table. A third variant inserts into
 * a copy WITH audit_log's indexes, CHECKs and foreign key, which splits the gap into what the
 * table's shape costs and what the chain (head lock, extra statement, hash) costs.
 */
import { systemClock } from '../src/platform/clock.js';
import { prepared, type Database, type Tx } from '../src/platform/db/database.js';
import { fullActor, type AuditContext, type NewAuditEvent } from '../src/domains/ledger/audit-event.js';
import { LOG_COLUMNS, appendAuditEvent, createLedgerHead } from '../src/domains/ledger/ledger-store.js';
import { say } from './bench-support.js';

export type AppendOptions = { transactions: number; rounds: number };

export type AppendResult = {
  transactions: number;
  rounds: number;
  warmup: number;
  appendsPerSec: number;
  plainPerSec: number;
  indexedPerSec: number;
  /** appends/s ÷ plain/s: 1 would mean the ledger is free. */
  ratio: number;
  /** appends/s ÷ indexed/s: the chain alone, with the table's indexes and constraints on both sides. */
  chainRatio: number;
  perRound: Record<Variant, number[]>;
};

export type Variant = 'append' | 'plain' | 'indexed';
export const VARIANTS: Variant[] = ['append', 'plain', 'indexed'];

/** The benchmark's organisation: its id, and its number in audit_log (audit_heads.org_no). */
type BenchOrg = { id: string; no: number };

/** A placeholder where the plain row has no chain: stored as 32 bytes like a real hash, so the row is the same size. */
const NO_HASH = 'f'.repeat(64);
const RISKS = ['low', 'medium', 'high'] as const;

/** An organisation with a ledger head, as AuthService.createOrganization makes one (minus its own audit event). */
export async function createBenchOrganization(db: Database, id: string, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('INSERT INTO organizations (id, name, slug, created_at) VALUES ($1, $2, $3, $4)', [id, name, id.replace(/_/g, '-'), systemClock.now().toISOString()]);
    await createLedgerHead(tx, id);
  });
}

async function createTables(db: Database): Promise<void> {
  // LIKE … INCLUDING DEFAULTS copies the columns and NOT NULLs only: no CHECKs, no foreign key,
  // no secondary index, no trigger. The primary key is the same (org_no, seq) as audit_log.
  await db.exec(`
    CREATE TABLE bench_domain_rows (id text PRIMARY KEY, payload jsonb NOT NULL);
    CREATE TABLE bench_plain_events (LIKE audit_log INCLUDING DEFAULTS);
    ALTER TABLE bench_plain_events ADD PRIMARY KEY (org_no, seq);
    -- INCLUDING ALL brings the indexes and CHECKs; the foreign key has to be added by hand.
    CREATE TABLE bench_indexed_events (LIKE audit_log INCLUDING ALL);
    ALTER TABLE bench_indexed_events ADD FOREIGN KEY (org_no) REFERENCES audit_heads (org_no);
  `);
}

/** The same domain row and the same event for both variants; only the id prefix differs. */
function content(variant: Variant, i: number, orgId: string) {
  const id = `chg_${variant}_${i}`;
  const payload = { title: `Deploy release ${i} of checkout`, service: `svc_${i % 40}`, risk: RISKS[i % 3]!, window: { start: '2026-01-01T10:00:00Z', minutes: 30 } };
  const ctx: AuditContext = { actor: { kind: 'user', id: `usr_${i % 200}`, name: `Bench user ${i % 200}` }, source: 'api', requestId: `req_${variant}_${i}` };
  const ev: NewAuditEvent = { orgId, action: 'change.registered', target: { type: 'change', id }, data: { title: payload.title, service: payload.service, risk: payload.risk } };
  return { id, payload, ctx, ev };
}

/**
 * Every INSERT is marked to keep prepared, as the append's statement is: on PostgreSQL it is then
 * planned once per connection, on PGlite run by SQL's EXECUTE. The last INSERT of each transaction
 * goes with its COMMIT, as a flag write's record does. Both sides get the same machinery, so the
 * ratio is what the ledger's work costs.
 */
const DOMAIN_INSERT = prepared('INSERT INTO bench_domain_rows (id, payload) VALUES ($1, $2)');
const EVENT_INSERT = (variant: 'plain' | 'indexed') =>
  prepared(`INSERT INTO bench_${variant}_events (${LOG_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, decode($17, 'hex'))`);

async function insertDomainRow(tx: Tx, id: string, payload: unknown): Promise<void> {
  await tx.query(DOMAIN_INSERT, [id, JSON.stringify(payload)]);
}

async function appendTx(db: Database, orgId: string, i: number): Promise<void> {
  const c = content('append', i, orgId);
  await db.transaction(async (tx) => {
    await insertDomainRow(tx, c.id, c.payload);
    await appendAuditEvent(tx, systemClock, c.ctx, c.ev, { commit: true });
  });
}

/**
 * The row appendAuditEvent would write, built the same way (the hash decoded from hex in SQL, as
 * the append does), but no head lock, no hash, no chain. The organisation's number is looked up
 * once, before the run: the append has it from the head row it updates anyway.
 */
async function plainTx(db: Database, org: BenchOrg, i: number, variant: 'plain' | 'indexed'): Promise<void> {
  const c = content(variant, i, org.id);
  const a = fullActor(c.ctx.actor);
  await db.transaction(async (tx) => {
    await insertDomainRow(tx, c.id, c.payload);
    await (tx.queryThenCommit ?? tx.query.bind(tx))(EVENT_INSERT(variant), [
      org.no, 1, i, systemClock.now().toISOString(), a.kind, a.id, a.name, a.automation, a.trigger,
      c.ev.action, c.ev.target.type, c.ev.target.id, c.ctx.correlationId ?? null, c.ctx.requestId ?? null, c.ctx.source,
      JSON.stringify(c.ev.data ?? {}), NO_HASH,
    ]);
  });
}

/** Runs `count` transactions of one variant back to back; answers the elapsed milliseconds. */
async function batch(db: Database, org: BenchOrg, variant: Variant, from: number, count: number): Promise<number> {
  const t0 = performance.now();
  for (let i = from; i < from + count; i++) await (variant === 'append' ? appendTx(db, org.id, i) : plainTx(db, org, i, variant));
  return performance.now() - t0;
}

/**
 * Warm-up, then `rounds` rounds of every variant. The order rotates every round (A B C, B C A, …)
 * so a slow patch of the machine, a checkpoint or autovacuum lands on all of them, and none
 * always runs first on a colder cache.
 */
export async function benchAppends(db: Database, engineLabel: string, opts: AppendOptions): Promise<AppendResult> {
  const orgId = 'org_bench_append';
  await createBenchOrganization(db, orgId, 'Append benchmark');
  const head = await db.query<{ org_no: number }>('SELECT org_no FROM audit_heads WHERE org_id = $1', [orgId]);
  const org: BenchOrg = { id: orgId, no: head.rows[0]!.org_no };
  await createTables(db);

  // PGlite's WebAssembly is still speeding up after a hundred transactions: warm up generously.
  const warmup = Math.min(500, Math.max(100, Math.round(opts.transactions / 5)));
  const next: Record<Variant, number> = { append: 1, plain: 1, indexed: 1 };
  const run = async (variant: Variant, count: number) => {
    const elapsed = await batch(db, org, variant, next[variant], count);
    next[variant] += count;
    return elapsed;
  };
  say(`  [${engineLabel}] appends: warm-up ${warmup} transactions of each variant`);
  for (const v of VARIANTS) await run(v, warmup);

  const rounds = Math.min(opts.rounds, opts.transactions);
  const totals: Record<Variant, { n: number; ms: number }> = { append: { n: 0, ms: 0 }, plain: { n: 0, ms: 0 }, indexed: { n: 0, ms: 0 } };
  const perRound: Record<Variant, number[]> = { append: [], plain: [], indexed: [] };
  for (let r = 0; r < rounds; r++) {
    // Spread the remainder over the first rounds so the total is exactly `transactions`.
    const count = Math.floor(opts.transactions / rounds) + (r < opts.transactions % rounds ? 1 : 0);
    const order = VARIANTS.map((_, j) => VARIANTS[(r + j) % VARIANTS.length]!);
    for (const v of order) {
      const elapsed = await run(v, count);
      totals[v].n += count;
      totals[v].ms += elapsed;
      perRound[v].push((count / elapsed) * 1000);
    }
    const rates = VARIANTS.map((v) => `${v} ${perRound[v].at(-1)!.toFixed(0)}/s`).join(', ');
    say(`  [${engineLabel}] appends: round ${r + 1}/${rounds} (${order.join(', ')}): ${count} each: ${rates}`);
  }

  // The chain must still be whole after the run, or the figures measured something broken.
  const check = await db.query<{ seq: number; n: number }>(
    'SELECT h.seq, (SELECT count(*) FROM audit_log e WHERE e.org_no = h.org_no)::int AS n FROM audit_heads h WHERE h.org_id = $1',
    [orgId],
  );
  const expected = warmup + opts.transactions;
  if (check.rows[0]?.seq !== expected || check.rows[0]?.n !== expected) {
    throw new Error(`append benchmark: expected ${expected} events, the head says ${check.rows[0]?.seq} and the table holds ${check.rows[0]?.n}`);
  }

  const rate = (v: Variant) => (totals[v].n / totals[v].ms) * 1000;
  return {
    transactions: opts.transactions,
    rounds,
    warmup,
    appendsPerSec: rate('append'),
    plainPerSec: rate('plain'),
    indexedPerSec: rate('indexed'),
    ratio: rate('append') / rate('plain'),
    chainRatio: rate('append') / rate('indexed'),
    perRound,
  };
}
