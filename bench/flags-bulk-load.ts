/**
 * Fills one organisation's ledger with N flag change records (plus one other event per ten, so
 * the flag filters have something to filter out) in SQL, INSERT … SELECT generate_series. The
 * hashes are md5 filler of the right shape, NOT a valid chain: fine for read latency, and the
 * reason this organisation is never verified. Then makes the unindexed copy of its audit_log rows
 * the queries are compared against.
 */
import type { Clock } from '../src/platform/clock.js';
import type { Database } from '../src/platform/db/database.js';
import type { AuditContext } from '../src/domains/ledger/audit-event.js';
import { LOG_COLUMNS } from '../src/domains/ledger/ledger-store.js';
import { seconds, say, seededRandom } from './bench-support.js';
import { benchServices } from './flags-writes.js';

export const DAY_MS = 86_400_000;
export const SPAN_DAYS = 180;
export const FLAG_COUNT = 2_000;
export const ACTOR_COUNT = 150;
export const UNINDEXED_TABLE = 'bench_flag_records_unindexed';

/** 8 areas × 5 = 40 namespaces; ops.payments first, because it gets the most flags. */
const AREAS: Record<string, string[]> = {
  ops: ['payments', 'deploys', 'alerts', 'queues', 'dns'],
  web: ['checkout', 'search', 'home', 'account', 'cart'],
  mobile: ['onboarding', 'checkout', 'push', 'wallet', 'settings'],
  api: ['ratelimit', 'auth', 'graphql', 'webhooks', 'export'],
  data: ['pipeline', 'warehouse', 'ml', 'etl', 'reports'],
  billing: ['invoices', 'tax', 'plans', 'dunning', 'refunds'],
  growth: ['referrals', 'pricing', 'trials', 'emails', 'banners'],
  search: ['ranking', 'suggest', 'index', 'filters', 'synonyms'],
};
export const NAMESPACES = Object.entries(AREAS).flatMap(([area, subs]) => subs.map((s) => `${area}.${s}`));
const WORDS = ['new', 'fast', 'legacy', 'async', 'v2', 'beta', 'retry', 'cache', 'batch', 'strict', 'shadow', 'canary'];
const FIRST = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'nina', 'oscar', 'peggy', 'rupert'];
const LAST = ['adams', 'brown', 'chen', 'diaz', 'evans', 'fischer', 'garcia', 'hughes', 'ito', 'jones'];
/** What else happens in the same organisation, by the same people. */
const OTHER_ACTIONS = ['session.signed_in', 'token.used', 'change.updated', 'change.approved', 'approval.granted', 'environment.policy_updated'];

export type FlagLoad = {
  orgId: string;
  records: number;
  others: number;
  loadMs: number;
  copyMs: number;
  analyzeMs: number;
  from: Date;
  to: Date;
  flags: string[];
  actors: string[];
  /** Share of the flag records per namespace, for reading a namespace query's row counts. */
  namespaceShare: Record<string, number>;
};

/**
 * ~2,000 keys over the 40 namespaces, Zipf-like sizes (ops.payments ≈ 220 flags, the last ≈ 20),
 * then shuffled with a seeded generator: which flags are busy (the load skews towards the front
 * of this list) is independent of which namespace they are in.
 */
function flagKeys(): string[] {
  const w = NAMESPACES.map((_, j) => 1 / (j + 1) ** 0.6);
  const sum = w.reduce((a, b) => a + b, 0);
  const keys = NAMESPACES.flatMap((ns, j) => Array.from({ length: Math.max(5, Math.round((FLAG_COUNT * w[j]!) / sum)) }, (_, i) => `${ns}.${WORDS[i % WORDS.length]}-${i}`));
  const rand = seededRandom(7_777);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  return keys;
}

/** 150 people by e-mail; usr_<k> is the k-th, and small k are the busy ones. */
function actorEmails(): string[] {
  return Array.from({ length: ACTOR_COUNT }, (_, k) => `${FIRST[k % FIRST.length]}.${LAST[Math.floor(k / FIRST.length) % LAST.length]}@acme.example`);
}

/** 64 hex characters derived from the seq: what the row's "hash" is in this load (stored as its 32 bytes). */
const fillerHash = (n: string) => `md5(${n}::text || ':a') || md5(${n}::text || ':b')`;

/*
 * Row i (1-based) of the load: every 11th an other event, the rest flag records. Actor and flag
 * are skewed towards the front of their lists (power(random(), 2)); 2 % flag.created, 5 %
 * flag.unchanged, the rest flag.updated; production 50 %, staging 30 %, dev 20 %; occurred_at
 * evenly spaced from $3, so seq rises with time. MATERIALIZED evaluates each random() once. $1 is
 * the organisation's org_no. audit_log stores no prev_hash: it is read as the row before's hash.
 */
const LOAD_SQL = `
WITH r AS MATERIALIZED (
  SELECT g.i, g.i % 11 = 0 AS other,
         floor(cardinality($8::text[]) * power(random(), 2))::int AS a,
         ($7::text[])[1 + floor(cardinality($7::text[]) * power(random(), 2))::int] AS flag,
         random() AS ra, random() AS re, random() < 0.5 AS b,
         (ARRAY['ui', 'api', 'cli', 'gitops'])[1 + floor(random() * 4)::int] AS fsource
    FROM generate_series($5::bigint, $6::bigint) AS g(i)
), e AS (
  SELECT r.*,
         CASE WHEN other THEN ($9::text[])[1 + ((i / 11) % cardinality($9::text[]))::int]
              WHEN ra < 0.02 THEN 'flag.created' WHEN ra < 0.07 THEN 'flag.unchanged' ELSE 'flag.updated' END AS action,
         CASE WHEN re < 0.5 THEN 'production' WHEN re < 0.8 THEN 'staging' ELSE 'dev' END AS env
    FROM r
)
INSERT INTO audit_log (${LOG_COLUMNS})
SELECT $1::int, CASE WHEN e.other THEN 1 ELSE 2 END, $2::bigint + e.i,
       $3::timestamptz + ((e.i - 1) * $4::float8) * interval '1 millisecond',
       'user', 'usr_' || e.a, ($8::text[])[1 + e.a], NULL, NULL,
       e.action,
       CASE WHEN e.other THEN split_part(e.action, '.', 1) ELSE 'flag' END,
       CASE WHEN e.other THEN split_part(e.action, '.', 1) || '_' || (e.i % 5000) ELSE e.flag END,
       NULL, 'req_' || substr(md5(e.i::text), 1, 20),
       CASE WHEN e.fsource = 'gitops' THEN 'api' ELSE e.fsource END,
       CASE WHEN e.other THEN jsonb_build_object('n', e.i)
            WHEN e.action = 'flag.created' THEN jsonb_build_object('flag', e.flag, 'env', NULL, 'from', NULL,
              'to', jsonb_build_object('type', 'boolean', 'risk', 'low', 'offValue', false, 'value', true), 'fields', jsonb_build_array('type', 'risk', 'offValue', 'value'),
              'reason', '', 'approvers', '[]'::jsonb, 'source', e.fsource, 'gitops', NULL)
            ELSE jsonb_build_object('flag', e.flag, 'env', e.env, 'from', e.b, 'to', CASE WHEN e.action = 'flag.updated' THEN NOT e.b ELSE e.b END,
              'fields', CASE WHEN e.action = 'flag.updated' THEN '["enabled"]'::jsonb ELSE '[]'::jsonb END,
              'reason', 'OPS-' || (100 + e.i % 9000) || ' roll ' || e.flag, 'approvers', '[]'::jsonb, 'source', e.fsource,
              'gitops', CASE WHEN e.fsource = 'gitops' THEN jsonb_build_object('commitSha', substr(md5(e.i::text || ':c'), 1, 40), 'deployRun', NULL) END)
       END,
       decode(${fillerHash('($2::bigint + e.i)')}, 'hex')
  FROM e`;

export async function bulkLoadFlagRecords(db: Database, engineLabel: string, opts: { records: number; batch: number; now: Date }): Promise<FlagLoad> {
  const to = opts.now;
  const from = new Date(to.getTime() - SPAN_DAYS * DAY_MS);
  // The organisation is made through the real services a minute before the first record, so its
  // own few events (created, environments, owner) come first in both seq and time.
  const clock: Clock = { now: () => new Date(from.getTime() - 60_000) };
  const services = benchServices(db, clock);
  const setup: AuditContext = { actor: { kind: 'system', id: null, name: 'bench setup' }, source: 'cli' };
  const { org } = await services.auth.createOrganizationWithOwner(setup, { name: 'Flag query benchmark', email: 'owner@query-bench.example' });
  await services.flags.createEnvironment(setup, org.id, { key: 'dev', name: 'Dev' });
  const flags = flagKeys();
  const actors = actorEmails();
  // The flags themselves and their three states, so the organisation looks like one that wrote these records.
  await db.query(
    `INSERT INTO flags (org_id, key, type, description, owner_service, risk, tags, off_value, approvals_needed, created_at, updated_at)
     SELECT $1, k, 'boolean', '', split_part(k, '.', 2), 'low', '{}', 'false', 0, $2, $3 FROM unnest($4::text[]) AS k`,
    [org.id, from.toISOString(), to.toISOString(), flags],
  );
  await db.query(
    `INSERT INTO flag_states (org_id, flag_key, env_key, enabled, value, rules, rollout, version, updated_at)
     SELECT $1, k, env, false, 'true', '[]', NULL, 1, $2 FROM unnest($3::text[]) AS k CROSS JOIN unnest(ARRAY['production', 'staging', 'dev']) AS env`,
    [org.id, to.toISOString(), flags],
  );

  // Every 11th row is an other event: rows = records × 1.1 makes exactly `records` flag records for a multiple of 10.
  const rows = Math.floor((opts.records * 11) / 10);
  const head = await db.query<{ org_no: number; seq: number }>('SELECT org_no, seq FROM audit_heads WHERE org_id = $1', [org.id]);
  const orgNo = head.rows[0]!.org_no;
  const seq0 = head.rows[0]!.seq;
  const stepMs = (SPAN_DAYS * DAY_MS) / rows;
  // Same seed on both engines and every run: the same flags and actors land on the same rows.
  await db.query('SELECT setseed(0.2718)');
  say(`  [${engineLabel}] load: ${rows.toLocaleString('en-US')} rows (every 11th not a flag record) in statements of ${opts.batch.toLocaleString('en-US')} (filler md5 hashes, not a valid chain)`);
  const t0 = performance.now();
  for (let lo = 1; lo <= rows; lo += opts.batch) {
    const hi = Math.min(rows, lo + opts.batch - 1);
    await db.query(LOAD_SQL, [orgNo, seq0, from.toISOString(), stepMs, lo, hi, flags, actors, OTHER_ACTIONS]);
    const elapsed = performance.now() - t0;
    say(`  [${engineLabel}] load: ${hi.toLocaleString('en-US')} / ${rows.toLocaleString('en-US')} after ${seconds(elapsed)} (${Math.round((hi / elapsed) * 1000).toLocaleString('en-US')} rows/s)`);
  }
  const loadMs = performance.now() - t0;
  // The head says where the chain ends, so a later append would continue after the load: its hash
  // is the last row's, as hex.
  await db.query(`UPDATE audit_heads SET seq = $2, hash = ${fillerHash('$2::bigint')} WHERE org_id = $1`, [org.id, seq0 + rows]);

  // The copy has the same rows and none of audit_log's secondary indexes: what the same SQL costs
  // without them. It keeps the primary key (org_no, seq), because the product's statement reads
  // each row's prev_hash as the row before it by that key, and the unindexed side reads that from
  // the copy too (flags-queries.ts): without the key every row of the page would scan the whole
  // copy once more, which measures the missing key, not what the filters' indexes buy. With one
  // organisation in the copy the key narrows no filter: the pages are still found by a full scan.
  // CREATE TABLE AS takes no parameters; org_no is an integer of the head row.
  const c0 = performance.now();
  await db.exec(`CREATE TABLE ${UNINDEXED_TABLE} AS SELECT * FROM audit_log WHERE org_no = ${Number(orgNo)}`);
  await db.exec(`ALTER TABLE ${UNINDEXED_TABLE} ADD PRIMARY KEY (org_no, seq)`);
  const copyMs = performance.now() - c0;
  // VACUUM sets hint bits and the visibility map as autovacuum would long before a ledger has a
  // million rows (PGlite has no autovacuum); ANALYZE gives the planner the real distributions.
  const a0 = performance.now();
  await db.exec('VACUUM (ANALYZE) audit_log');
  await db.exec(`VACUUM (ANALYZE) ${UNINDEXED_TABLE}`);
  const analyzeMs = performance.now() - a0;
  say(`  [${engineLabel}] load: done in ${seconds(loadMs)}, unindexed copy ${seconds(copyMs)}, VACUUM ANALYZE of both ${seconds(analyzeMs)}`);

  const counts = await db.query<{ ns: string | null; n: number }>(
    `SELECT CASE WHEN target_type = 'flag' THEN split_part(target_id, '.', 1) || '.' || split_part(target_id, '.', 2) END AS ns, count(*)::int AS n
       FROM audit_log WHERE org_no = $1 AND seq > $2 GROUP BY 1`,
    [orgNo, seq0],
  );
  const records = counts.rows.filter((r) => r.ns !== null).reduce((a, r) => a + r.n, 0);
  const others = counts.rows.find((r) => r.ns === null)?.n ?? 0;
  const namespaceShare = Object.fromEntries(counts.rows.filter((r) => r.ns !== null).map((r) => [r.ns!, r.n / records]));
  return { orgId: org.id, records, others, loadMs, copyMs, analyzeMs, from, to, flags, actors, namespaceShare };
}
