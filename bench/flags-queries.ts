/**
 * Latency of the flag audit's questions through `FlagService.audit`, exactly as the API asks them,
 * on the indexed audit_log and, with the very same statement text and parameters, on an
 * unindexed copy of the organisation's rows: how much the indexes buy.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Database, type OpenOptions, type Queryable, type Row } from '../src/platform/db/database.js';
import { packageRoot } from '../src/platform/paths.js';
import { systemClock } from '../src/platform/clock.js';
import { FlagService } from '../src/domains/flags/flag-service.js';
import { latencyStats, pausesDuring, say, seededRandom, watchGc, type LatencyStats } from './bench-support.js';
import { DAY_MS, NAMESPACES, UNINDEXED_TABLE, type FlagLoad } from './flags-bulk-load.js';

export const PAGE = 100;
export type FlagQueryKind = 'namespaceWindow' | 'actorWindow' | 'flagHistory';
export const FLAG_QUERY_KINDS: FlagQueryKind[] = ['namespaceWindow', 'actorWindow', 'flagHistory'];
export const FLAG_QUERY_LABELS: Record<FlagQueryKind, string> = {
  namespaceWindow: 'namespace.* + 24 h window',
  actorWindow: 'actor (e-mail) + 24 h window',
  flagHistory: 'one flag, newest 100',
};

export type Sql = { text: string; params: readonly unknown[] };
export type Slowest = Sql & { ms: number; label: string };
/**
 * The benchmark's own garbage collector against its slowest runs: the runs at and above the p99
 * rank, how many of them overlapped a pause, and those pauses' total.
 */
export type TailGc = { tailRuns: number; inPause: number; pauseMs: number };
export type KindStats = LatencyStats & { avgRows: number; slowest: Slowest; gc: TailGc };
/** Every pause of the collector during the timed runs (all kinds): count, those over 5 ms, the longest. */
export type GcSummary = { pauses: number; over5ms: number; longestMs: number; totalMs: number };
export type Side = { runs: number; warmup: number; stats: Record<FlagQueryKind, KindStats>; gc: GcSummary };
/** Server-side execution time of every timed indexed question, re-run under EXPLAIN ANALYZE. */
export type ServerSide = LatencyStats & { worst: Slowest };
export type FlagQueryResult = { indexed: Side; unindexed: Side; indexedSeqs: Map<string, string>; sameRows: number; server: Record<FlagQueryKind, ServerSide> };

type AuditArgs = Parameters<FlagService['audit']>[1];
type Probe = { label: string; filter: AuditArgs };

/**
 * The database as FlagService sees it, with every statement remembered (so the slowest run can be
 * EXPLAINed verbatim) and, for the unindexed side, audit_log swapped for the copy: the page's
 * `FROM audit_log e WHERE`, and the `FROM audit_log p WHERE` of READ_COLUMNS that reads each row's
 * prev_hash from the row before. Both read the copy, so the unindexed side touches no index of
 * audit_log; the copy keeps only the primary key that prev_hash read needs (flags-bulk-load.ts).
 * Each swap must happen exactly once and leave no audit_log behind: if listAuditEvents ever reads
 * differently, this fails loudly rather than quietly timing the indexed table twice.
 */
function routed(db: Database, table: string | null): Database & { last: Sql | null } {
  const once = (text: string, from: string, to: string) => {
    const parts = text.split(from);
    if (parts.length !== 2) throw new Error(`flag query benchmark: expected one "${from}" in the audit query, got:\n${text}`);
    return parts.join(to);
  };
  const swap = (text: string) => {
    // The namespace's keys come from the flags table first; only the audit read is swapped. The
    // organisation's number still comes from audit_heads (ORG_NO), as on the indexed side.
    if (!table || !text.includes('audit_log')) return text;
    const swapped = once(once(text, 'FROM audit_log e WHERE', `FROM ${table} e WHERE`), 'FROM audit_log p WHERE', `FROM ${table} p WHERE`);
    if (/\baudit_log\b/.test(swapped)) throw new Error(`flag query benchmark: the audit query still reads audit_log after the swap:\n${swapped}`);
    return swapped;
  };
  const r: Database & { last: Sql | null } = {
    last: null,
    engine: db.engine,
    location: db.location,
    query<R extends Row = Row>(text: string, params?: readonly unknown[]) {
      const sql = { text: swap(text), params: params ?? [] };
      if (text.includes('audit_log')) r.last = sql;
      return db.query<R>(sql.text, sql.params);
    },
    exec: (text: string) => db.exec(text),
    transaction: (fn) => db.transaction(fn),
    close: () => db.close(),
  };
  return r;
}

/** The questions, from a seeded generator: both engines, both tables and every run ask the same ones. */
function makeProbes(load: FlagLoad, seed: number, n: number): Record<FlagQueryKind, Probe[]> {
  const rand = seededRandom(seed);
  const start = load.from.getTime();
  const span = load.to.getTime() - start;
  const window = () => {
    const since = new Date(start + Math.floor(rand() * (span - DAY_MS)));
    return { since, until: new Date(since.getTime() + DAY_MS) };
  };
  const out: Record<FlagQueryKind, Probe[]> = { namespaceWindow: [], actorWindow: [], flagHistory: [] };
  for (let i = 0; i < n; i++) {
    const ns = `${NAMESPACES[Math.floor(rand() * NAMESPACES.length)]!}.*`;
    const w1 = window();
    out.namespaceWindow.push({ label: `${ns}, ${w1.since.toISOString()} + 24 h`, filter: { namespace: ns, ...w1 } });
    const actor = load.actors[Math.floor(rand() * load.actors.length)]!;
    const w2 = window();
    out.actorWindow.push({ label: `${actor}, ${w2.since.toISOString()} + 24 h`, filter: { actor, ...w2 } });
    const key = load.flags[Math.floor(rand() * load.flags.length)]!;
    out.flagHistory.push({ label: key, filter: { namespace: key } });
  }
  return out;
}

/** Runs `runs` rounds, each asking every kind once in a rotating order, after `warmup` untimed rounds. */
async function measure(
  service: FlagService, db: { last: Sql | null }, load: FlagLoad, probes: Record<FlagQueryKind, Probe[]>, warm: Record<FlagQueryKind, Probe[]>,
  opts: { runs: number; warmup: number; engineLabel: string; side: string },
): Promise<Side & { seqs: Map<string, string>; sqls: Record<FlagQueryKind, (Sql & { label: string })[]> }> {
  const ask = async (p: Probe) => (await service.audit(load.orgId, p.filter, PAGE)).items;
  for (let i = 0; i < opts.warmup; i++) for (const k of FLAG_QUERY_KINDS) await ask(warm[k][i % warm[k].length]!);
  const samples: Record<FlagQueryKind, number[]> = { namespaceWindow: [], actorWindow: [], flagHistory: [] };
  const rows: Record<FlagQueryKind, number> = { namespaceWindow: 0, actorWindow: 0, flagHistory: 0 };
  const slowest = {} as Record<FlagQueryKind, Slowest>;
  // What each question answered (its records' seqs), so the two tables can be checked to agree.
  const seqs = new Map<string, string>();
  const sqls: Record<FlagQueryKind, (Sql & { label: string })[]> = { namespaceWindow: [], actorWindow: [], flagHistory: [] };
  const spans: Record<FlagQueryKind, { t0: number; t1: number }[]> = { namespaceWindow: [], actorWindow: [], flagHistory: [] };
  const gc = watchGc();
  for (let i = 0; i < opts.runs; i++) {
    for (let j = 0; j < FLAG_QUERY_KINDS.length; j++) {
      const k = FLAG_QUERY_KINDS[(i + j) % FLAG_QUERY_KINDS.length]!;
      const p = probes[k][i]!;
      const t0 = performance.now();
      const items = await ask(p);
      const elapsed = performance.now() - t0;
      samples[k].push(elapsed);
      spans[k].push({ t0, t1: t0 + elapsed });
      rows[k] += items.length;
      seqs.set(`${k}:${i}`, items.map((r) => r.seq).join(','));
      sqls[k].push({ ...db.last!, label: p.label });
      if (!slowest[k] || elapsed > slowest[k].ms) slowest[k] = { ...db.last!, ms: elapsed, label: p.label };
    }
    if ((i + 1) % (opts.runs >= 100 ? 100 : 5) === 0 || i + 1 === opts.runs) say(`  [${opts.engineLabel}] queries, ${opts.side}: ${i + 1} / ${opts.runs}`);
  }
  const pauses = await gc.stop();
  const lengths = pauses.map((p) => p.end - p.start);
  const summary: GcSummary = { pauses: pauses.length, over5ms: lengths.filter((l) => l > 5).length, longestMs: Math.max(0, ...lengths), totalMs: lengths.reduce((a, b) => a + b, 0) };
  const tailGc = (k: FlagQueryKind): TailGc => {
    // The runs from the p99 rank up (latencyStats' nearest rank): 4 of 300.
    const n = spans[k].length;
    const tail = [...spans[k]].sort((a, b) => (b.t1 - b.t0) - (a.t1 - a.t0)).slice(0, n - Math.ceil(0.99 * n) + 1);
    const hit = tail.map((r) => pausesDuring(pauses, r.t0, r.t1));
    return { tailRuns: tail.length, inPause: hit.filter((h) => h.length > 0).length, pauseMs: hit.flat().reduce((a, p) => a + p.end - p.start, 0) };
  };
  const stats = Object.fromEntries(
    FLAG_QUERY_KINDS.map((k) => [k, { ...latencyStats(samples[k]), avgRows: rows[k] / opts.runs, slowest: slowest[k], gc: tailGc(k) }]),
  ) as Record<FlagQueryKind, KindStats>;
  return { runs: opts.runs, warmup: opts.warmup, stats, gc: summary, seqs, sqls };
}

const PROBE_SEED = 20_260_202;
const WARM_SEED = 99;

export async function benchFlagQueries(db: Database, engineLabel: string, load: FlagLoad, opts: { runs: number; unindexedRuns: number; warmup: number }): Promise<FlagQueryResult> {
  const indexedDb = routed(db, null);
  const unindexedDb = routed(db, UNINDEXED_TABLE);
  const indexedService = new FlagService({ db: indexedDb, clock: systemClock });
  const unindexedService = new FlagService({ db: unindexedDb, clock: systemClock });
  const probes = makeProbes(load, PROBE_SEED, Math.max(opts.runs, opts.unindexedRuns));
  const warm = makeProbes(load, WARM_SEED, opts.warmup);

  say(`  [${engineLabel}] queries: indexed audit_log, warm-up ${opts.warmup} of each, then ${opts.runs} timed runs of each`);
  const indexed = await measure(indexedService, indexedDb, load, probes, warm, { runs: opts.runs, warmup: opts.warmup, engineLabel, side: 'indexed' });
  // Two untimed rounds first, so the timed runs find the copy cached as they found the indexed table.
  const uWarm = Math.min(2, opts.unindexedRuns);
  say(`  [${engineLabel}] queries: unindexed ${UNINDEXED_TABLE}, same statements, warm-up ${uWarm} of each, then ${opts.unindexedRuns} timed runs of each (the first ${opts.unindexedRuns} questions of the indexed run)`);
  const unindexed = await measure(unindexedService, unindexedDb, load, probes, warm, { runs: opts.unindexedRuns, warmup: uWarm, engineLabel, side: 'unindexed' });

  // Same SQL, same rows: the two tables must answer every shared question identically.
  let sameRows = 0;
  for (const [key, seqs] of unindexed.seqs) {
    const expected = indexed.seqs.get(key);
    if (expected === undefined) continue;
    if (expected !== seqs) throw new Error(`flag query benchmark: ${key} answered differently on the unindexed copy:\n  indexed   ${expected}\n  unindexed ${seqs}`);
    sameRows++;
  }
  say(`  [${engineLabel}] queries: the ${opts.runs} timed questions of each kind again under EXPLAIN (ANALYZE, BUFFERS, TIMING OFF), for the server's own time`);
  const server = {} as Record<FlagQueryKind, ServerSide>;
  for (const k of FLAG_QUERY_KINDS) server[k] = await serverTimes(db, indexed.sqls[k]);
  return {
    indexed: { runs: indexed.runs, warmup: indexed.warmup, stats: indexed.stats, gc: indexed.gc },
    unindexed: { runs: unindexed.runs, warmup: unindexed.warmup, stats: unindexed.stats, gc: unindexed.gc },
    indexedSeqs: indexed.seqs, sameRows, server,
  };
}

/** What the questions asked by a process of its own found: its figures, and whether it read what the benchmark's process read. */
export type FreshResult = Side & { sameRows: number };
type FreshJob = { open: OpenOptions; load: FlagLoad; runs: number; unindexedRuns: number; warmup: number; engineLabel: string; out: string };

/**
 * The indexed questions again, asked by a new Node process that opens the same database and does
 * nothing else, as a server's process would. The benchmark's own process bulk-loaded the records
 * first, and after that V8 may keep allocating node-postgres's rows straight into the old
 * generation (allocation-site pretenuring), which makes every scavenge copy megabytes: its p99 is
 * then its own collector's (docs/performance.md, Flags). PGlite lives inside one process, so the
 * caller closes its copy first.
 */
export async function askInFreshProcess(open: OpenOptions, load: FlagLoad, indexedSeqs: ReadonlyMap<string, string>, opts: { runs: number; unindexedRuns: number; warmup: number; engineLabel: string }): Promise<FreshResult> {
  const dir = mkdtempSync(join(tmpdir(), 'changeledger-bench-fresh-'));
  try {
    const job: FreshJob = { open, load, ...opts, out: join(dir, 'result.json') };
    writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), join(dir, 'job.json')], { cwd: packageRoot, stdio: ['ignore', 'inherit', 'inherit'] });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    if (code !== 0) throw new Error(`flag query benchmark: the process that asks the questions on its own exited with ${code}`);
    const got = JSON.parse(readFileSync(job.out, 'utf8')) as Side & { seqs: [string, string][] };
    let sameRows = 0;
    for (const [key, seqs] of got.seqs) {
      if (indexedSeqs.get(key) !== seqs) throw new Error(`flag query benchmark: ${key} answered differently in the process of its own:\n  first   ${indexedSeqs.get(key)}\n  own     ${seqs}`);
      sameRows++;
    }
    return { runs: got.runs, warmup: got.warmup, stats: got.stats, gc: got.gc, sameRows };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The process of its own: opens the database, asks the indexed questions, writes what it measured. */
async function freshProcess(jobFile: string): Promise<void> {
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as FreshJob;
  const load: FlagLoad = { ...job.load, from: new Date(job.load.from), to: new Date(job.load.to) };
  const db = await openDatabase(job.open);
  try {
    const routedDb = routed(db, null);
    const service = new FlagService({ db: routedDb, clock: systemClock });
    const probes = makeProbes(load, PROBE_SEED, Math.max(job.runs, job.unindexedRuns));
    const warm = makeProbes(load, WARM_SEED, job.warmup);
    say(`  [${job.engineLabel}] queries: indexed audit_log again, from a Node process of its own (pid ${process.pid}), warm-up ${job.warmup} of each, then ${job.runs} timed runs of each`);
    const side = await measure(service, routedDb, load, probes, warm, { runs: job.runs, warmup: job.warmup, engineLabel: job.engineLabel, side: 'own process' });
    writeFileSync(job.out, JSON.stringify({ runs: side.runs, warmup: side.warmup, stats: side.stats, gc: side.gc, seqs: [...side.seqs] }));
  } finally {
    await db.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await freshProcess(process.argv[2]!);

/**
 * A wall-clock p99 mixes the plan's cost with everything else on the machine (a busy core, a
 * page evicted from shared_buffers, a GC pause in Node). The server's own execution time of every
 * question tells the two apart: if the slowest run re-runs fast, the plan was not what was slow.
 */
async function serverTimes(db: Queryable, sqls: (Sql & { label: string })[]): Promise<ServerSide> {
  const times: number[] = [];
  let worst: Slowest | null = null;
  for (const sql of sqls) {
    const r = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ${sql.text}`, sql.params);
    const raw = r.rows[0]?.['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { 'Execution Time': number }[];
    const t = plan[0]!['Execution Time'];
    times.push(t);
    if (!worst || t > worst.ms) worst = { ...sql, ms: t };
  }
  return { ...latencyStats(times), worst: worst! };
}

/** The plan of a recorded statement, run again under EXPLAIN (ANALYZE, BUFFERS) with its parameters. */
export async function explainSql(db: Queryable, sql: Sql): Promise<string[]> {
  const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.params);
  return r.rows.map((row) => row['QUERY PLAN']);
}
