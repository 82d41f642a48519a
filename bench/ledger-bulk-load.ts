/**
 * Fills one organisation's ledger with N events in SQL (INSERT … SELECT generate_series), which is
 * orders of magnitude faster than N appends. The hashes are md5 filler of the right shape, NOT a
 * valid chain: fine for measuring reads, and the reason this organisation is never verified.
 */
import { systemClock } from '../src/platform/clock.js';
import type { Database } from '../src/platform/db/database.js';
import { LOG_COLUMNS } from '../src/domains/ledger/ledger-store.js';
import { seconds, say } from './bench-support.js';
import { createBenchOrganization } from './ledger-appends.js';

export const DAY_MS = 86_400_000;
export const SPAN_DAYS = 90;
export const ACTORS = 200;

/**
 * 30 actions over 8 prefixes with a rough real-world weight each (events per 1,000): changes and
 * sign-ins dominate, deliveries and flag archiving are rare. The rare prefixes are the interesting
 * ones for the prefix query, because newest-first has to skip many other events to find 50.
 */
export const ACTION_WEIGHTS: Record<string, number> = {
  'change.created': 60, 'change.updated': 90, 'change.submitted': 50, 'change.approved': 40, 'change.rejected': 8,
  'change.scheduled': 35, 'change.started': 35, 'change.completed': 33, 'change.rolled_back': 4,
  'flag.created': 10, 'flag.updated': 40, 'flag.toggled': 45, 'flag.archived': 3,
  'token.created': 6, 'token.revoked': 3, 'token.used': 110,
  'catalogue.service_created': 4, 'catalogue.service_updated': 15, 'catalogue.owner_changed': 3,
  'approval.requested': 40, 'approval.granted': 35, 'approval.denied': 5,
  'session.signed_in': 120, 'session.signed_out': 60, 'session.expired': 40,
  'delivery.sent': 6, 'delivery.failed': 1,
  'harvest.run_started': 30, 'harvest.run_completed': 30, 'harvest.item_imported': 39,
};

export const ACTION_PREFIXES = ['change.', 'flag.', 'token.', 'catalogue.', 'approval.', 'session.', 'delivery.', 'harvest.'] as const;

export type LoadResult = { orgId: string; events: number; loadMs: number; analyzeMs: number; from: Date; to: Date; prefixShare: Record<string, number> };

/** One entry per weight unit: picking a uniform index of this array picks an action by weight. */
function weightedActions(): string[] {
  return Object.entries(ACTION_WEIGHTS).flatMap(([action, w]) => Array<string>(w).fill(action));
}

/** 64 hex characters derived from the row number: what the row's "hash" is in this load (stored as its 32 bytes). */
const fillerHash = (n: string) => `md5(${n}::text || ':a') || md5(${n}::text || ':b')`;

/*
 * Per row: seq i, occurred_at evenly spaced so seq rises with time; actor usr_<k> with k skewed
 * towards small numbers (power(random(), 2): a few busy automation/service users, a long tail of
 * people, as real ledgers look); an action by weight. audit_log stores no prev_hash: it is read as
 * the previous row's filler hash (the genesis hash before row 1), so the rows at least look
 * chained. MATERIALIZED keeps each random() evaluated once per row, even though k and action are
 * each read twice below. $1 is the organisation's org_no.
 */
const LOAD_SQL = `
WITH r AS MATERIALIZED (
  SELECT g.i,
         floor($6::int * power(random(), 2))::int AS k,
         ($7::text[])[1 + floor(random() * cardinality($7::text[]))::int] AS action
    FROM generate_series($4::bigint, $5::bigint) AS g(i)
)
INSERT INTO audit_log (${LOG_COLUMNS})
SELECT $1::int, 1, r.i,
       $2::timestamptz + ((r.i - 1) * $3::float8) * interval '1 millisecond',
       CASE WHEN r.k < 10 THEN 'token' ELSE 'user' END, 'usr_' || r.k, 'Bench user ' || r.k, NULL, NULL,
       r.action, split_part(r.action, '.', 1), split_part(r.action, '.', 1) || '_' || (r.i % 5000),
       CASE WHEN r.i % 3 = 0 THEN 'cor_' || (r.i / 3) END,
       'req_' || substr(md5(r.i::text), 1, 20),
       (ARRAY['ui', 'api', 'cli', 'webhook', 'scheduler'])[1 + (r.i % 5)::int],
       jsonb_build_object('n', r.i, 'field', 'status', 'before', 'draft', 'after', 'submitted'),
       decode(${fillerHash('r.i')}, 'hex')
  FROM r`;

export async function bulkLoadEvents(db: Database, engineLabel: string, opts: { events: number; batch: number }): Promise<LoadResult> {
  const orgId = 'org_bench_query';
  await createBenchOrganization(db, orgId, 'Query benchmark');
  const head = await db.query<{ org_no: number }>('SELECT org_no FROM audit_heads WHERE org_id = $1', [orgId]);
  const orgNo = head.rows[0]!.org_no;
  const to = systemClock.now();
  const from = new Date(to.getTime() - SPAN_DAYS * DAY_MS);
  const stepMs = (SPAN_DAYS * DAY_MS) / opts.events;
  const actions = weightedActions();

  // Same seed on both engines and every run: the same actors and actions land on the same rows.
  await db.query('SELECT setseed(0.4242)');
  say(`  [${engineLabel}] load: ${opts.events.toLocaleString('en-US')} events in statements of ${opts.batch.toLocaleString('en-US')} (filler md5 hashes, not a valid chain)`);
  const t0 = performance.now();
  for (let lo = 1; lo <= opts.events; lo += opts.batch) {
    const hi = Math.min(opts.events, lo + opts.batch - 1);
    await db.query(LOAD_SQL, [orgNo, from.toISOString(), stepMs, lo, hi, ACTORS, actions]);
    const elapsed = performance.now() - t0;
    say(`  [${engineLabel}] load: ${hi.toLocaleString('en-US')} / ${opts.events.toLocaleString('en-US')} after ${seconds(elapsed)} (${Math.round((hi / elapsed) * 1000).toLocaleString('en-US')} rows/s)`);
  }
  const loadMs = performance.now() - t0;
  // The head says where the chain ends, so an append after this would continue at N + 1: its hash
  // is the last row's, as hex.
  await db.query(`UPDATE audit_heads SET seq = $2, hash = ${fillerHash('$2::bigint')} WHERE org_id = $1`, [orgId, opts.events]);

  // VACUUM sets hint bits and the visibility map as autovacuum would long before a ledger has a
  // million rows (PGlite has no autovacuum); ANALYZE gives the planner the real distributions.
  const a0 = performance.now();
  await db.exec('VACUUM (ANALYZE) audit_log');
  const analyzeMs = performance.now() - a0;
  say(`  [${engineLabel}] load: done in ${seconds(loadMs)}, VACUUM ANALYZE ${seconds(analyzeMs)}`);

  const shares = await db.query<{ prefix: string; n: number }>(
    `SELECT split_part(action, '.', 1) || '.' AS prefix, count(*)::int AS n FROM audit_log WHERE org_no = $1 GROUP BY 1`,
    [orgNo],
  );
  const prefixShare = Object.fromEntries(shares.rows.map((r) => [r.prefix, r.n / opts.events]));
  return { orgId, events: opts.events, loadMs, analyzeMs, from, to, prefixShare };
}
