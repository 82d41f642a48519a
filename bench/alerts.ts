/**
 * `npm run bench -- alerts`: what alert intake and the hold cost.
 * (a) Intake of Alertmanager webhook batches (100 alerts, 50 changes holding services) through the
 *     real route, against a bare route that parses and inserts the same rows: alerts/s and the
 *     ratio (goal ≥ 0.5), on PGlite and PostgreSQL.
 * (b) The hold decision per alert with 1,000 active scopes: decideHold on the index intake builds,
 *     against walking the scopes per alert: p50/p99 (goal p99 ≤ 50 µs). No database.
 * (c) The release of 1,000 held alerts (goal ≤ 2 s): provided by the holds module as
 *     runReleaseBench in bench/alerts-release.ts, run here when that file exists.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Subject } from '../src/domains/alerts/alert-types.js';
import { decideHold, indexHolds, type HoldEntry } from '../src/domains/alerts/hold-decision.js';
import type { Engine } from '../src/platform/db/database.js';
import { benchIntake, type IntakeResult } from './alerts-intake.js';
import { onEachEngine, type BenchEngine, type Skipped } from './bench-engines.js';
import { busy, int, latencyStats, machine, ms, parseOptions, positiveInt, say, sayWhere, seededRandom, table, UsageError, type LatencyStats } from './bench-support.js';

const USAGE = `usage: npm run bench -- alerts [options]
  --batches N       webhook batches timed on each side (default 60), split into --rounds
  --batch-size N    alerts per batch (default 100)
  --changes N       changes holding services during intake (default 50)
  --rounds N        alternating rounds (default 3)
  --warmup N        batches through each side before timing (default 10)
  --scopes N        active scopes for the decision (default 1000)
  --decisions N     alerts decided, timed one by one (default 100000)
  --engines L       pglite,postgres (default both)
PostgreSQL: CHANGELEDGER_BENCH_DATABASE_URL, or else a throw-away cluster from the installed binaries.`;

type Options = { batches: number; batchSize: number; changes: number; rounds: number; warmup: number; scopes: number; decisions: number; engines: Engine[] };

function options(args: string[]): Options {
  try {
    const { values, flags } = parseOptions(args, { values: ['batches', 'batch-size', 'changes', 'rounds', 'warmup', 'scopes', 'decisions', 'engines'], flags: ['help'] });
    if (flags.has('help')) throw new UsageError('');
    const engines = (values.get('engines') ?? 'pglite,postgres').split(',').map((e) => e.trim());
    for (const e of engines) if (e !== 'pglite' && e !== 'postgres') throw new UsageError(`--engines: unknown engine "${e}"`);
    return {
      batches: positiveInt('batches', values.get('batches')) ?? 60,
      batchSize: positiveInt('batch-size', values.get('batch-size')) ?? 100,
      changes: positiveInt('changes', values.get('changes')) ?? 50,
      rounds: positiveInt('rounds', values.get('rounds')) ?? 3,
      warmup: positiveInt('warmup', values.get('warmup')) ?? 10,
      scopes: positiveInt('scopes', values.get('scopes')) ?? 1_000,
      decisions: positiveInt('decisions', values.get('decisions')) ?? 100_000,
      engines: [...new Set(engines)] as Engine[],
    };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${err.message ? `${err.message}\n\n` : ''}${USAGE}`);
    throw err;
  }
}

// ── (b) the hold decision ───────────────────────────────────────────────────────────────────────

const SUBJECTS_PER_SCOPE = 20;
type DecisionResult = { rows: number; indexMs: number; indexed: LatencyStats; walk: LatencyStats; heldShare: number };
const us = (v: number) => (v * 1000).toFixed(2);

/**
 * 1,000 scopes of 20 subjects each (services, hosts and sources, overlapping as real blast radii
 * do), 100,000 alerts half of which are in some scope. Each decision is timed on its own.
 */
function benchDecision(o: Options): DecisionResult {
  const rnd = seededRandom(13);
  const kinds = ['service', 'asset', 'source'] as const;
  const keyOf = (kind: (typeof kinds)[number], n: number) => (kind === 'service' ? `svc:s-${n}` : kind === 'asset' ? `host:h-${n}` : `src-${n}`);
  const rows: HoldEntry[] = [];
  const scopes: Array<Set<string>> = [];
  for (let c = 0; c < o.scopes; c++) {
    const id = `chg_${c.toString(16).padStart(32, '0')}`;
    const scope = new Set<string>();
    for (let k = 0; k < SUBJECTS_PER_SCOPE; k++) {
      const kind = kinds[k % 3]!;
      const key = keyOf(kind, Math.floor(rnd() * o.scopes * 10));
      scope.add(`${kind}\u0000${key}`);
      rows.push({ subjectKind: kind, subjectKey: key, changeId: id, displayId: `CHG-${id.slice(4, 12).toUpperCase()}`, title: `change ${c}` });
    }
    scopes.push(scope);
  }
  const inScope = rows.map((r): Subject => ({ kind: r.subjectKind, key: r.subjectKey, name: r.subjectKey }));
  const alerts: Subject[] = Array.from({ length: o.decisions }, (_, i) => (i % 2 === 0
    ? inScope[Math.floor(rnd() * inScope.length)]!
    : { kind: kinds[i % 3]!, key: keyOf(kinds[i % 3]!, o.scopes * 10 + Math.floor(rnd() * 1e6)), name: 'x' }));
  const t0 = performance.now();
  const index = indexHolds(rows);
  const indexMs = performance.now() - t0;
  // Warm both paths, then time each decision alone.
  let held = 0;
  for (let i = 0; i < 10_000; i++) decideHold(alerts[i % alerts.length]!, index);
  const indexed: number[] = [];
  for (const s of alerts) {
    const a = performance.now();
    const d = decideHold(s, index);
    indexed.push(performance.now() - a);
    if (d.held) held++;
  }
  const walkOne = (s: Subject) => (s.kind === 'unmapped' ? [] : scopes.filter((sc) => sc.has(`${s.kind}\u0000${s.key}`)));
  for (let i = 0; i < 1_000; i++) walkOne(alerts[i]!);
  const walk: number[] = [];
  const walkN = Math.min(alerts.length, 10_000);
  for (let i = 0; i < walkN; i++) {
    const a = performance.now();
    walkOne(alerts[i]!);
    walk.push(performance.now() - a);
  }
  return { rows: rows.length, indexMs, indexed: latencyStats(indexed), walk: latencyStats(walk), heldShare: held / alerts.length };
}

// ── (c) the release, from the holds module ───────────────────────────────────────────────────────

type ReleaseBench = { runReleaseBench: (args: string[]) => Promise<void> };
const RELEASE_BENCH = join(dirname(fileURLToPath(import.meta.url)), 'alerts-release.ts');

// ── the run ───────────────────────────────────────────────────────────────────────────────────────

type Done = { name: Engine; version: string; notes: string[]; r: IntakeResult; loadAvg: string };

async function intakeOn(engine: BenchEngine, o: Options): Promise<Done> {
  const before = busy();
  say(`\n== ${engine.version} ==`);
  for (const n of engine.notes) say(`  ${n}`);
  const r = await benchIntake(engine.db, engine.name, o);
  say(`  [${engine.name}] intake ${int(r.intake.perSec)} alerts/s, bare ${int(r.bare.perSec)} alerts/s, intake/bare ${r.ratio.toFixed(3)}`);
  return { name: engine.name, version: engine.version, notes: engine.notes, r, loadAvg: `${before} before, ${busy()} after` };
}

export async function run(args: string[]): Promise<void> {
  const o = options(args);
  for (const line of machine()) say(line);
  const outcomes: Array<Done | Skipped> = await onEachEngine(o.engines, (e) => intakeOn(e, o));
  const done = outcomes.filter((x): x is Done => !('skipped' in x));
  say('\n== the hold decision (no database) ==');
  const d = benchDecision(o);

  say('\n================ changeledger alerts benchmark ================');
  sayWhere(outcomes, { notes: true });
  for (const x of done) say(`load average (1, 5, 15 min) around the ${x.name} run: ${x.loadAvg}`);
  say(`\n(a) Intake: ${int(o.batches)} webhook batches of ${o.batchSize} new alerts on each side (${o.warmup} of each untimed first; the sides alternate batch by batch, in ${o.rounds} rounds), ${o.changes} changes holding 4 services each`);
  say('    intake = POST /api/alerts/alertmanager (session, CSRF, schema, parse, fingerprints, one catalogue query for the subjects, one hold_subjects query, alerts upsert,');
  say('             transitions, held_alerts, one alerts.received audit event) in one transaction; 2 of 3 alerts are held.');
  say('    bare   = a Fastify route with no auth or schema that parses the same body, computes the same fingerprints and inserts the same alerts and transitions rows.');
  say(table(
    ['engine', 'alerts', 'intake alerts/s', 'bare alerts/s', 'intake/bare (goal ≥ 0.5)', 'intake by round', 'bare by round', 'verified'],
    done.map((x) => [x.name, int(x.r.intake.alerts), int(x.r.intake.perSec), int(x.r.bare.perSec), x.r.ratio.toFixed(3), x.r.intake.perRound.map(int).join(' '), x.r.bare.perRound.map(int).join(' '),
      `${int(x.r.verified.alerts)} rows, ${int(x.r.verified.transitions)} transitions, ${int(x.r.verified.held)} held, ${int(x.r.verified.audits)} audit events`]),
  ));
  say(`\n(b) The hold decision: ${int(o.scopes)} active scopes of ${SUBJECTS_PER_SCOPE} subjects (${int(d.rows)} hold rows, index built in ${ms(d.indexMs)} ms), ${int(o.decisions)} alerts, ${(d.heldShare * 100).toFixed(0)} % held, each decision timed alone`);
  say(table(
    ['decision', 'p50 µs', 'p99 µs', 'max µs', 'goal'],
    [['decideHold on the index', us(d.indexed.p50), us(d.indexed.p99), us(d.indexed.max), `p99 ≤ 50 µs: ${d.indexed.p99 * 1000 <= 50 ? 'met' : 'NOT met'}`],
      ['walking the scopes (baseline)', us(d.walk.p50), us(d.walk.p99), us(d.walk.max), `walk/index p50 ${(d.walk.p50 / Math.max(d.indexed.p50, 1e-6)).toFixed(0)}x`]],
  ));

  // ── (c) release of 1,000 held alerts ≤ 2 s: the holds module's part ──────────────────────────
  say('\n(c) Release of 1,000 held alerts (goal ≤ 2 s)');
  if (existsSync(RELEASE_BENCH)) {
    const mod = (await import(pathToFileURL(RELEASE_BENCH).href)) as ReleaseBench;
    await mod.runReleaseBench(o.engines.length ? [`--engines=${o.engines.join(',')}`] : []);
  } else say('    not measured: bench/alerts-release.ts (runReleaseBench, from the holds module) is not there yet.');

  say('\nSummary');
  say(table(
    ['engine', 'intake alerts/s', 'bare alerts/s', 'intake/bare', 'decision p50 / p99 µs'],
    outcomes.map((x) => ('skipped' in x ? [x.name, 'skipped', '', '', ''] : [x.name, int(x.r.intake.perSec), int(x.r.bare.perSec), x.r.ratio.toFixed(3), `${us(d.indexed.p50)} / ${us(d.indexed.p99)}`])),
  ));
  sayWhere(outcomes, { notes: false });
}
