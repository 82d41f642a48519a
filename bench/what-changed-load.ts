/**
 * The data of `npm run bench -- what-changed`: 200 services with call links, and a million change
 * records over 90 days (planned changes with their stored blast radius, observed changes and flag
 * writes), loaded with set-based SQL straight into the tables, then VACUUM ANALYZE.
 */
import type { Database } from '../src/platform/db/database.js';
import { LOG_COLUMNS } from '../src/domains/ledger/ledger-store.js';
import { testCtx, type TestApp } from '../test/support/test-app.js';
import { int, say, seconds, seededRandom } from './bench-support.js';

export const DAY_MS = 86_400_000;
export const SPAN_DAYS = 90;
export const SERVICES = 200;

const WORDS = ['checkout', 'payments', 'search', 'cart', 'auth', 'ledger', 'fraud', 'pricing', 'catalog', 'inventory', 'shipping', 'email', 'push', 'reports', 'billing', 'profile', 'reviews', 'gateway', 'quotes', 'tax'];
const TIERS = ['critical', 'important', 'standard'];

/** 200 services; service i calls 2–4 of the next 40 (a DAG a few hops deep), a few early ones are hubs. */
function estate(): { keys: string[]; names: string[]; from: string[]; to: string[]; tier: string[]; blasts: unknown[] } {
  const rand = seededRandom(20_261_204);
  const names = Array.from({ length: SERVICES }, (_, i) => `${WORDS[i % WORDS.length]}-${String(i).padStart(3, '0')}`);
  const keys = names.map((n) => `svc:${n}`);
  const tier = names.map(() => TIERS[Math.floor(rand() * 3)]!);
  const edges = new Set<string>();
  for (let i = 0; i < SERVICES - 1; i++) {
    const n = 2 + Math.floor(rand() * 3);
    for (let c = 0; c < n; c++) edges.add(`${i} ${Math.min(SERVICES - 1, i + 1 + Math.floor(rand() * 40))}`);
    if (i >= 10) edges.add(`${i} ${Math.floor(rand() * 5)}`); // the first five are called by many: hubs
  }
  const from: string[] = [];
  const to: string[] = [];
  const callers: number[][] = names.map(() => []);
  for (const e of edges) {
    const [a, b] = e.split(' ').map(Number) as [number, number];
    if (a === b) continue;
    from.push(keys[a]!);
    to.push(keys[b]!);
    callers[b]!.push(a);
  }
  // The stored blast radius of a planned change to service i: the service and its callers (at most 30), compact form.
  const blasts = keys.map((k, i) => {
    const kk = [k, ...callers[i]!.slice(0, 30).map((c) => keys[c]!)];
    return { k: kk, scope: { s: kk.map((_, j) => j), a: [] } };
  });
  return { keys, names, from, to, tier, blasts };
}

const PLANNED_SQL = `
WITH r AS MATERIALIZED (
  SELECT g.i, 1 + floor(cardinality($3::text[]) * power(random(), 1.5))::int AS s, random() AS rs, random() AS rk, random() AS rd,
         $7::timestamptz + ((g.i - 1) * $8::float8) * interval '1 millisecond' AS ws
    FROM generate_series($5::bigint, $6::bigint) AS g(i)
)
INSERT INTO changes (id, org_id, title, kind, status, outcome, impact, hops, window_start, window_end, evidence_minutes, components, criticality, criticality_source,
                     gated, quorum, decided_at, owner_id, blast_version, scope_keys, scope_keys_version, reported_at, created_at, updated_at)
SELECT 'chg_' || md5('chg' || r.i), $1, 'Deploy ' || ($4::text[])[r.s] || ' build ' || r.i,
       (ARRAY['deploy', 'config', 'infra', 'other'])[1 + floor(r.rk * 4)::int],
       CASE WHEN r.rs < 0.85 THEN 'reported' WHEN r.rs < 0.9 THEN 'cancelled' WHEN r.rs < 0.95 THEN 'expired' ELSE 'rejected' END,
       CASE WHEN r.rs < 0.85 THEN 'success' END, CASE WHEN r.rs < 0.85 THEN 'none' END,
       1, r.ws, r.ws + (30 + floor(r.rd * 90)::int) * interval '1 minute', 60,
       jsonb_build_array(jsonb_build_object('kind', 'service', 'key', ($3::text[])[r.s], 'name', ($4::text[])[r.s], 'match', 'key', 'seen', true)),
       ($10::text[])[r.s], 'components', r.rs < 0.5, 1, CASE WHEN r.rs < 0.5 THEN r.ws - interval '30 minutes' END, $2,
       1, ARRAY(SELECT jsonb_array_elements_text(($9::jsonb)->(r.s - 1)->'k')), 1,
       CASE WHEN r.rs < 0.85 THEN r.ws + interval '3 hours' END, r.ws - interval '1 hour', r.ws + interval '3 hours'
  FROM r`;

const BLASTS_SQL = `
INSERT INTO change_blasts (change_id, version, stored, bytes, created_at)
SELECT c.id, 1, b.stored, length(b.stored::text), c.created_at
  FROM changes c, LATERAL (SELECT ($2::jsonb)->(array_position($3::text[], c.components->0->>'key') - 1) AS stored) b
 WHERE c.org_id = $1`;

const OBSERVED_SQL = `
WITH r AS MATERIALIZED (
  SELECT g.i, 1 + floor(cardinality($2::text[]) * power(random(), 1.5))::int AS s, 1 + floor(cardinality($2::text[]) * random())::int AS s2,
         1 + floor(random() * 6)::int AS k, random() AS ra, random() AS rb,
         $5::timestamptz + ((g.i - 1) * $6::float8) * interval '1 millisecond' AS at
    FROM generate_series($3::bigint, $4::bigint) AS g(i)
)
INSERT INTO observed_changes (id, org_id, source, kind, event_id, title, occurred_at, received_at, principal, action, resource, location,
                              service, service_via, services, diff, link, denied, outcome, authorized, authorized_reason, principal_class)
SELECT 'obs_' || md5('obs' || r.i), $1,
       (ARRAY['github', 'github', 'argocd', 'argocd', 'kubernetes', 'aws'])[r.k],
       (ARRAY['push', 'pr_merged', 'sync', 'deploy', 'k8s_write', 'cloud_write'])[r.k],
       'ev-' || r.i,
       (ARRAY['push to', 'merged into', 'synced', 'deployed', 'deployment patched:', 'cloud write to'])[r.k] || ' ' || ($2::text[])[r.s],
       r.at, r.at + interval '4 seconds',
       jsonb_build_object('kind', CASE WHEN r.rb < 0.6 THEN 'person' ELSE 'service' END,
                          'name', CASE WHEN r.rb < 0.6 THEN 'dev' || (r.i % 150) || '@acme.example' ELSE 'system:serviceaccount:ci:deployer' END, 'id', NULL, 'detail', '{}'::jsonb),
       (ARRAY['push', 'merge', 'sync', 'deploy', 'patch', 'PutObject'])[r.k], 'apps/' || ($2::text[])[r.s],
       jsonb_build_object('repo', 'acme/' || ($2::text[])[r.s], 'environment', 'production'),
       ($2::text[])[r.s], 'repo_map',
       CASE WHEN r.rb < 0.1 AND r.s2 <> r.s THEN ARRAY[($2::text[])[r.s], ($2::text[])[r.s2]] ELSE ARRAY[($2::text[])[r.s]] END,
       'replicas: 3 -> 4', 'https://git.acme.example/' || ($2::text[])[r.s] || '/' || r.i,
       r.ra < 0.02, 'succeeded', r.ra >= 0.1, CASE WHEN r.ra >= 0.1 THEN 'change_window' ELSE 'no reference' END,
       CASE WHEN r.rb < 0.6 THEN 'human' ELSE 'pipeline' END
  FROM r`;

/** 64 hex characters derived from the seq: what the row's "hash" is in this load (stored as its 32 bytes). */
const fillerHash = (n: string) => `md5(${n}::text || ':a') || md5(${n}::text || ':b')`;

/**
 * flag.updated (and 2 % flag.created) of the services' flags into audit_log ($1 the organisation's
 * org_no), schema 2, md5 filler hashes (NOT a valid chain, as the flags bench loads them; prev_hash,
 * not stored, reads as the row before's).
 */
const FLAGS_SQL = `
WITH r AS MATERIALIZED (
  SELECT g.i, floor(cardinality($7::text[]) / 2 * power(random(), 1.5))::int AS s, random() < 0.5 AS second, random() AS ra, random() < 0.6 AS prod, random() < 0.5 AS b
    FROM generate_series($5::bigint, $6::bigint) AS g(i)
), e AS (
  SELECT r.*, ($7::text[])[1 + 2 * r.s + CASE WHEN r.second THEN 1 ELSE 0 END] AS flag,
         CASE WHEN r.ra < 0.02 THEN 'flag.created' ELSE 'flag.updated' END AS action,
         CASE WHEN r.prod THEN 'production' ELSE 'staging' END AS env
    FROM r
)
INSERT INTO audit_log (${LOG_COLUMNS})
SELECT $1::int, 2, $2::bigint + e.i,
       $3::timestamptz + ((e.i - 1) * $4::float8) * interval '1 millisecond',
       'user', 'usr_' || (e.i % 150), 'dev' || (e.i % 150) || '@acme.example', NULL, NULL,
       e.action, 'flag', e.flag, NULL, 'req_' || substr(md5(e.i::text), 1, 20), 'ui',
       CASE WHEN e.action = 'flag.created' THEN jsonb_build_object('flag', e.flag, 'env', NULL, 'from', NULL,
              'to', jsonb_build_object('type', 'boolean', 'risk', 'low', 'offValue', false, 'value', true), 'fields', jsonb_build_array('type', 'risk', 'offValue', 'value'),
              'reason', '', 'approvers', '[]'::jsonb, 'source', 'ui', 'gitops', NULL)
            ELSE jsonb_build_object('flag', e.flag, 'env', e.env, 'from', e.b, 'to', NOT e.b, 'fields', '["enabled"]'::jsonb,
              'reason', 'OPS-' || (100 + e.i % 9000) || ' roll ' || e.flag, 'approvers', '[]'::jsonb, 'source', 'ui', 'gitops', NULL)
       END,
       decode(${fillerHash('($2::bigint + e.i)')}, 'hex')
  FROM e`;

export type Load = { orgId: string; token: string; names: string[]; keys: string[]; from: Date; to: Date; planned: number; observed: number; flagWrites: number; loadMs: number; analyzeMs: number };

async function batches(label: string, what: string, total: number, batch: number, fn: (lo: number, hi: number) => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  for (let lo = 1; lo <= total; lo += batch) {
    const hi = Math.min(total, lo + batch - 1);
    await fn(lo, hi);
    const el = performance.now() - t0;
    say(`  [${label}] load ${what}: ${int(hi)} / ${int(total)} after ${seconds(el)} (${int((hi / el) * 1000)} rows/s)`);
  }
}

export async function load(t: TestApp, db: Database, label: string, opts: { records: number; batch: number }): Promise<Load> {
  const { org, owner } = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'What changed benchmark', email: 'owner@what-changed-bench.example' });
  const made = await t.services.auth.createToken(testCtx, { org, user: owner }, { name: 'assistant', scopes: ['changes:read'] });
  const e = estate();
  const to = new Date(Math.floor(t.clock.now().getTime() / 60_000) * 60_000 - DAY_MS);
  const from = new Date(to.getTime() - SPAN_DAYS * DAY_MS);
  const iso = from.toISOString();
  const planned = Math.round(opts.records * 0.1);
  const observed = Math.round(opts.records * 0.6);
  const flagWrites = opts.records - planned - observed;

  const t0 = performance.now();
  await db.query(
    `INSERT INTO catalogue_entities (org_id, key, kind, name, source, stale, tier, team, attrs, first_seen, last_seen)
     SELECT $1, k, 'service', n, 'bench:what-changed', false, ti, 'team-' || (o % 30), '{}'::jsonb, $2, $2 FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS u(k, n, ti, o)`,
    [org.id, iso, e.keys, e.names, e.tier]);
  await db.query(
    `INSERT INTO catalogue_links (org_id, from_key, to_key, via, source, stale, first_seen, last_seen)
     SELECT $1, f, t, 'calls', 'bench:what-changed', false, $2, $2 FROM unnest($3::text[], $4::text[]) AS u(f, t)`,
    [org.id, iso, e.from, e.to]);
  // Two flags per service, owned by it, with their two states.
  const flags = e.names.flatMap((n) => [`${n}.new-flow`, `${n}.kill-switch`]);
  const owners = e.keys.flatMap((k) => [k, k]);
  await db.query(
    `INSERT INTO flags (org_id, key, type, description, owner_service, risk, tags, off_value, approvals_needed, created_at, updated_at)
     SELECT $1, k, 'boolean', '', o, 'low', '{}', 'false', 0, $2, $2 FROM unnest($3::text[], $4::text[]) AS u(k, o)`,
    [org.id, iso, flags, owners]);
  await db.query(
    `INSERT INTO flag_states (org_id, flag_key, env_key, enabled, value, rules, rollout, version, updated_at)
     SELECT $1, k, env, false, 'true', '[]', NULL, 1, $2 FROM unnest($3::text[]) AS k CROSS JOIN unnest(ARRAY['production', 'staging']) AS env`,
    [org.id, to.toISOString(), flags]);
  say(`  [${label}] estate: ${SERVICES} services, ${int(e.from.length)} call links, ${flags.length} flags (2 per service)`);

  await db.query('SELECT setseed(0.1204)');
  say(`  [${label}] load: ${int(planned)} planned, ${int(observed)} observed, ${int(flagWrites)} flag writes over ${SPAN_DAYS} days, statements of ${int(opts.batch)} (flag writes: md5 filler hashes, not a valid chain)`);
  const span = SPAN_DAYS * DAY_MS;
  await batches(label, 'planned', planned, opts.batch, (lo, hi) =>
    db.query(PLANNED_SQL, [org.id, owner.id, e.keys, e.names, lo, hi, iso, span / planned, JSON.stringify(e.blasts), e.tier]));
  await db.query(BLASTS_SQL, [org.id, JSON.stringify(e.blasts), e.keys]);
  await batches(label, 'observed', observed, opts.batch, (lo, hi) => db.query(OBSERVED_SQL, [org.id, e.names, lo, hi, iso, span / observed]));
  const head = await db.query<{ org_no: number; seq: number }>('SELECT org_no, seq FROM audit_heads WHERE org_id = $1', [org.id]);
  const orgNo = head.rows[0]!.org_no;
  const seq0 = Number(head.rows[0]!.seq);
  await batches(label, 'flag writes', flagWrites, opts.batch, (lo, hi) => db.query(FLAGS_SQL, [orgNo, seq0, iso, span / flagWrites, lo, hi, flags]));
  // The head says where the chain ends, so an append after the load (a token's use) continues after
  // it: its hash is the last row's, as hex.
  await db.query(`UPDATE audit_heads SET seq = $2, hash = ${fillerHash('$2::bigint')} WHERE org_id = $1`, [org.id, seq0 + flagWrites]);
  const loadMs = performance.now() - t0;
  const a0 = performance.now();
  for (const tbl of ['changes', 'change_blasts', 'observed_changes', 'audit_log', 'flags', 'flag_states', 'catalogue_entities', 'catalogue_links']) await db.exec(`VACUUM (ANALYZE) ${tbl}`);
  const analyzeMs = performance.now() - a0;
  say(`  [${label}] load: done in ${seconds(loadMs)}, VACUUM ANALYZE ${seconds(analyzeMs)}`);
  return { orgId: org.id, token: made.secret, names: e.names, keys: e.keys, from, to, planned, observed, flagWrites, loadMs, analyzeMs };
}
