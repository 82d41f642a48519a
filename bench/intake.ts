/**
 * `npm run bench -- intake`: what the observed-change intake costs.
 * (a) A 1,000-event Kubernetes audit EventList and a 100-record CloudTrail batch, read by the real
 *     adapters (kubernetesIntake, awsIntake: the noise rules, folding, [not stored]) and recorded by
 *     IntakeService (dedupe, the 50-an-hour cap, scrub + cut, services, counters, the audit event),
 *     against a plain multi-row INSERT of the very rows the intake recorded: events/s and the ratio
 *     (goal ≥ 0.3 on PostgreSQL).
 * (b) The same batches sent again, every event a duplicate, against the first time (goal ≥ 5× faster).
 * (c) The reference rule on (500 active planned changes, 1,000 authorized-principal globs) against
 *     the rule off, the same batches into two organisations with identical data (goal: the rule
 *     costs at most 20 % of the throughput); see intake-rule.ts.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { compose, type Services } from '../src/compose.js';
import type { AuditContext } from '../src/domains/ledger/index.js';
import type { IntakeCounts } from '../src/domains/observed/observed-types.js';
import { systemClock } from '../src/platform/clock.js';
import { createSealer } from '../src/platform/crypto/sealed.js';
import type { Database, Engine } from '../src/platform/db/database.js';
import { createLogger } from '../src/platform/logger.js';
import { createOutboundClient } from '../src/platform/net/outbound.js';
import { onEachEngine, type BenchEngine, type Skipped } from './bench-engines.js';
import { busy, int, machine, ms, parseOptions, positiveInt, say, sayWhere, table, UsageError } from './bench-support.js';
import { addSource, auditEventList, cloudTrailBatch, read, type Source } from './intake-batches.js';
import { ruleOnEngine, sayRule, type RuleDone, type RuleOptions } from './intake-rule.js';

const USAGE = `usage: npm run bench -- intake [options]
  --audit N      audit events in the EventList (default 1000)
  --trail N      CloudTrail records in the batch (default 100)
  --rounds N     timed rounds, each with fresh event ids (default 5)
  --changes N    (c) active planned changes in each organisation (default 500)
  --globs N      (c) authorized-principal globs (default 1000, the most the settings take)
  --engines L    pglite,postgres (default both)
PostgreSQL: CHANGELEDGER_BENCH_DATABASE_URL, or else a throw-away cluster from the installed binaries.`;

type Options = RuleOptions & { engines: Engine[] };

function options(args: string[]): Options {
  try {
    const { values, flags } = parseOptions(args, { values: ['audit', 'trail', 'rounds', 'engines', 'changes', 'globs'], flags: ['help'] });
    if (flags.has('help')) throw new UsageError('');
    const engines = (values.get('engines') ?? 'pglite,postgres').split(',').map((e) => e.trim());
    for (const e of engines) if (e !== 'pglite' && e !== 'postgres') throw new UsageError(`--engines: unknown engine "${e}"`);
    return {
      audit: positiveInt('audit', values.get('audit')) ?? 1_000, trail: positiveInt('trail', values.get('trail')) ?? 100,
      rounds: positiveInt('rounds', values.get('rounds')) ?? 5, engines: [...new Set(engines)] as Engine[],
      changes: positiveInt('changes', values.get('changes')) ?? 500, globs: positiveInt('globs', values.get('globs')) ?? 1_000,
    };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${err.message ? `${err.message}\n\n` : ''}${USAGE}`);
    throw err;
  }
}

const ctx: AuditContext = { actor: { kind: 'service', id: null, name: 'bench sender' }, source: 'webhook' };
const add = (a: IntakeCounts, b: IntakeCounts): IntakeCounts => Object.fromEntries(Object.keys(a).map((k) => [k, a[k as keyof IntakeCounts] + b[k as keyof IntakeCounts]])) as IntakeCounts;

/** The baseline: the rows the intake recorded this round, copied as they are with new ids, in one multi-row INSERT per 200 rows. */
async function plainInsert(db: Database, fromIds: Set<string>, orgId: string): Promise<{ ms: number; rows: number }> {
  const src = await db.query<Record<string, unknown>>('SELECT * FROM observed_changes WHERE source_id = ANY($1::text[]) AND received_at >= $2', [[...fromIds], new Date(Date.now() - 3_600_000).toISOString()]);
  const cols = ['id', 'org_id', 'source', 'kind', 'event_id', 'title', 'occurred_at', 'received_at', 'principal', 'action', 'resource', 'location', 'service', 'service_via', 'services', 'diff', 'params', 'link', 'denied', 'error_code', 'outcome', 'cap_bucket', 'change_ref'];
  const rows = src.rows.filter((r) => !(r.event_id as string).startsWith('copied-')).slice(-plainInsert.take);
  const t0 = performance.now();
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200);
      const params: unknown[] = [];
      const tuples = chunk.map((r) => {
        const vals = cols.map((c) => (c === 'id' ? `obs_${randomBytes(16).toString('hex')}` : c === 'org_id' ? orgId : c === 'event_id' ? `copied-${randomBytes(8).toString('hex')}` : c === 'principal' || c === 'location' || c === 'params' ? (r[c] === null ? null : JSON.stringify(r[c])) : r[c]));
        const base = params.length;
        params.push(...vals);
        return `(${vals.map((_, j) => `$${base + j + 1}`).join(', ')})`;
      });
      await tx.query(`INSERT INTO observed_changes (${cols.join(', ')}) VALUES ${tuples.join(', ')}`, params);
    }
  });
  return { ms: performance.now() - t0, rows: rows.length };
}
plainInsert.take = 0;

type Round = { first: number; again: number; plain: number; rows: number; counts: IntakeCounts; againCounts: IntakeCounts; firstRecord: number; againRecord: number; parse: number };
type Done = { name: Engine; version: string; notes: string[]; rounds: Round[]; rule: RuleDone; loadAvg: string };

async function onEngine(engine: BenchEngine, o: Options): Promise<Done> {
  const before = busy();
  say(`\n== ${engine.version} ==`);
  for (const n of engine.notes) say(`  ${n}`);
  const services: Services = compose({
    db: engine.db, clock: systemClock, logger: createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) }), sealer: createSealer(randomBytes(32)),
    outbound: { client: createOutboundClient(), allowPrivate: false },
  });
  const setup: AuditContext = { actor: { kind: 'system', id: null, name: 'bench setup' }, source: 'cli' };
  const { org } = await services.auth.createOrganizationWithOwner(setup, { name: 'Intake benchmark', email: 'owner@intake.bench' });
  const plainOrg = await services.auth.createOrganizationWithOwner(setup, { name: 'Plain baseline', email: 'owner@plain.bench' });
  const k8s = await addSource(engine.db, org.id, 'kubernetes', { cluster: 'prod-eu' });
  const aws = await addSource(engine.db, org.id, 'aws', {});
  const events = o.audit + o.trail;
  const rounds: Round[] = [];
  // Round 0 is a warm-up (JIT, plan caches), not reported.
  for (let r = 0; r <= o.rounds; r++) {
    // Each round its own hour of writes: the cap buckets of one round do not fill another's.
    const k8sRaw = Buffer.from(JSON.stringify(auditEventList(o.audit, `r${r}`)).replaceAll('2026-03-02T', `2026-03-${String(2 + r).padStart(2, '0')}T`));
    const awsRaw = Buffer.from(JSON.stringify(cloudTrailBatch(o.trail, `r${r}`)));
    // What a request does once authenticated: IntakeService.receive, which reads the body with the
    // adapter (JSON.parse + the rules) unless it is a byte-identical resend, then records it.
    const once = async () => {
      let parse = 0;
      const timedRead = (s: Source, raw: Buffer) => (ciNamespaces: string[]) => {
        const p0 = performance.now();
        const parsed = read(s, raw, ciNamespaces);
        parse += performance.now() - p0;
        return parsed;
      };
      const t0 = performance.now();
      const a = await services.intake.receive(ctx, k8s, k8sRaw, timedRead(k8s, k8sRaw));
      const b = await services.intake.receive(ctx, aws, awsRaw, timedRead(aws, awsRaw));
      const t2 = performance.now();
      return { ms: t2 - t0, parse, record: t2 - t0 - parse, counts: add(a.counts, b.counts) };
    };
    const first = await once();
    const again = await once();
    plainInsert.take = first.counts.recorded + first.counts.denied;
    const plain = await plainInsert(engine.db, new Set([k8s.id, aws.id]), plainOrg.org.id);
    if (again.counts.recorded + again.counts.denied + again.counts.enriched !== 0) throw new Error(`intake benchmark: the second sending recorded something: ${JSON.stringify(again.counts)}`);
    if (plain.rows !== plainInsert.take) throw new Error(`intake benchmark: the baseline copied ${plain.rows} rows, the intake recorded ${plainInsert.take}`);
    if (r > 0) rounds.push({ first: first.ms, again: again.ms, plain: plain.ms, rows: plain.rows, counts: first.counts, againCounts: again.counts, firstRecord: first.record, againRecord: again.record, parse: (first.parse + again.parse) / 2 });
    if (r > 0) say(`  [${engine.name}] round ${r}: intake ${ms(first.ms)} ms (${int((events / first.ms) * 1000)} events/s; parse ${ms(first.parse)}, record ${ms(first.record)}), again ${ms(again.ms)} ms (record ${ms(again.record)}), plain INSERT of the ${plain.rows} rows ${ms(plain.ms)} ms`);
  }
  services.mailer.close();
  const rule = await ruleOnEngine(engine, o);
  return { name: engine.name, version: engine.version, notes: engine.notes, rounds, rule, loadAvg: `${before} before, ${busy()} after` };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(args: string[]): Promise<void> {
  const o = options(args);
  for (const line of machine()) say(line);
  const outcomes: Array<Done | Skipped> = await onEachEngine(o.engines, (e) => onEngine(e, o));
  const done = outcomes.filter((x): x is Done => !('skipped' in x));
  const events = o.audit + o.trail;

  say('\n================ changeledger intake benchmark ================');
  sayWhere(outcomes, { notes: true });
  for (const x of done) say(`load average (1, 5, 15 min) around the ${x.name} run: ${x.loadAvg}`);
  const c = done[0]?.rounds[0]?.counts;
  if (c) say(`\nEach round: a ${o.audit}-event audit EventList and a ${o.trail}-record CloudTrail batch (${events} events) became ${c.recorded} changes and ${c.denied} denied attempts; ${c.noise} noise, ${c.capped} capped, ${c.ignored} ignored (medians of ${o.rounds} rounds; fresh ids each round).`);
  say('  intake = IntakeService.receive: JSON.parse + kubernetesIntake / awsIntake (noise rules, folding, [not stored]) + the record (dedupe, cap, scrub + cut, services, counters, audit), one transaction per batch.');
  say('  plain  = one multi-row INSERT per 200 of the very rows the intake recorded, in one transaction: no parse, no rule, no dedupe, no audit.');
  say('  again  = the same two batches sent a second time, byte for byte (a sender\'s retry): answered from the first delivery\'s digest, every event a duplicate.');
  say('  parse  = JSON.parse + the adapters alone (none on a retry); record = the rest of receive.');
  say(table(
    ['engine', 'intake events/s', 'plain events/s', 'intake/plain (goal ≥ 0.3)', 'first ms', 'again ms', 'first/again (goal ≥ 5)', 'parse ms', 'record first/again ms', 'record first/again'],
    done.map((x) => {
      const first = median(x.rounds.map((r) => r.first));
      const plain = median(x.rounds.map((r) => r.plain));
      const again = median(x.rounds.map((r) => r.again));
      const rf = median(x.rounds.map((r) => r.firstRecord));
      const ra = median(x.rounds.map((r) => r.againRecord));
      return [x.name, int((events / first) * 1000), int((events / plain) * 1000), (plain / first).toFixed(3), ms(first), ms(again), `${(first / again).toFixed(1)}x`,
        ms(median(x.rounds.map((r) => r.parse))), `${ms(rf)} / ${ms(ra)}`, `${(rf / ra).toFixed(1)}x`];
    }),
  ));
  sayRule(outcomes.map((x) => ('skipped' in x ? x : { name: x.name, rule: x.rule })), o);
  sayWhere(outcomes, { notes: false });
}
