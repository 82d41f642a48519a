/** Small shared pieces of the benchmarks: options, a seeded random source, statistics, tables, cleanup. */
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import type { Database, Queryable, QueryResult, Row, Tx } from '../src/platform/db/database.js';

/** What the figures ran on, for the summary. */
export function machine(): string[] {
  const cpu = cpus();
  return [
    `machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${platform()} ${release()}`,
    `node ${process.version}`,
  ];
}

/** Other work on the machine shows up as noise in every figure (p99 most of all): say how busy it was. */
export function busy(): string {
  return loadavg().map((l) => l.toFixed(2)).join(' ');
}

type EngineOutcome = { name: string; skipped: string } | { name: string; version: string; notes: string[] };

/** What ran where: the machine, then each engine as measured (with its notes in the details) or why it was skipped. */
export function sayWhere(outcomes: readonly EngineOutcome[], o: { notes: boolean }): void {
  for (const line of machine()) say(line);
  for (const e of outcomes) {
    if ('skipped' in e) say(o.notes ? `${e.name}: SKIPPED - ${e.skipped}` : `${e.name}: skipped (${e.skipped})`);
    else say(o.notes ? `${e.name}: ${e.version}; ${e.notes.join('; ')}` : `${e.name}: ${e.version}`);
  }
}

/** Counts statements (BEGIN and COMMIT included) sent through a database, to say what a step costs in round trips. */
export function counting(db: Database): { db: Database; count: () => number; reset: () => void } {
  let n = 0;
  const wrapQ = (q: Queryable): Queryable => ({
    query<R extends Row = Row>(text: string, params?: readonly unknown[]) {
      n++;
      return q.query<R>(text, params);
    },
    exec(text: string) {
      n++;
      return q.exec(text);
    },
  });
  const wrapped: Database = {
    engine: db.engine,
    location: db.location,
    ...wrapQ(db),
    transaction: (fn) => {
      n += 2;
      // The statement that goes with the COMMIT keeps doing so (appendAuditEvent's `commit`): the
      // COMMIT is one of the two counted above.
      return db.transaction((tx) => {
        const thenCommit = tx.queryThenCommit;
        const wrappedTx: Tx = { ...wrapQ(tx), transactional: true };
        if (!thenCommit) return fn(wrappedTx);
        return fn({
          ...wrappedTx,
          queryThenCommit<R extends Row = Row>(text: string, params: readonly unknown[]) {
            n++;
            return thenCommit.call(tx, text, params) as Promise<QueryResult<R>>;
          },
        });
      });
    },
    close: () => db.close(),
  };
  return { db: wrapped, count: () => n, reset: () => (n = 0) };
}

/** A bad command line: run.ts prints it with the usage and exits 2 rather than 1. */
export class UsageError extends Error {}

/** Parses `--name value` / `--flag` options against the known names; anything else is a UsageError. */
export function parseOptions(args: string[], known: { values: string[]; flags: string[] }): { values: Map<string, string>; flags: Set<string> } {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const [key = '', inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (known.flags.includes(key) && inline === undefined) flags.add(key);
    else if (known.values.includes(key)) {
      const v = inline ?? args[++i];
      if (v === undefined) throw new UsageError(`--${key} needs a value`);
      values.set(key, v);
    } else throw new UsageError(`unknown option "${arg}"`);
  }
  return { values, flags };
}

/** A positive integer option; `1_000_000`, `1e6` and `1m`/`100k` are accepted for event counts. */
export function positiveInt(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d[\d_]*(?:\.\d+)?(?:e\d+)?)([km]?)$/i.exec(text.trim());
  const n = m ? Number(m[1]!.replace(/_/g, '')) * (m[2]?.toLowerCase() === 'k' ? 1e3 : m[2]?.toLowerCase() === 'm' ? 1e6 : 1) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got "${text}"`);
  return n;
}

/**
 * mulberry32: a seeded generator, so both engines get the same sequence of actors, windows and
 * prefixes, and two runs of the benchmark ask the same questions.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type LatencyStats = { n: number; p50: number; p99: number; mean: number; max: number };

/** Nearest-rank percentiles: p99 of 300 samples is the 297th, i.e. the third-worst run. */
export function latencyStats(samplesMs: readonly number[]): LatencyStats {
  if (samplesMs.length === 0) return { n: 0, p50: NaN, p99: NaN, mean: NaN, max: NaN };
  const s = [...samplesMs].sort((a, b) => a - b);
  const rank = (p: number) => s[Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length))) - 1]!;
  return { n: s.length, p50: rank(50), p99: rank(99), mean: s.reduce((a, b) => a + b, 0) / s.length, max: s[s.length - 1]! };
}

export function ms(v: number): string {
  if (!Number.isFinite(v)) return '-';
  return v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0);
}

export function int(v: number): string {
  return Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '-';
}

export function seconds(msValue: number): string {
  return `${(msValue / 1000).toFixed(1)} s`;
}

/** A plain-text table with `|` separators, so it pastes into a Markdown README unchanged. */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** One pause of V8's garbage collector in this process, in performance.now() time. */
export type GcPause = { start: number; end: number };

/**
 * Watches this process's garbage-collector pauses from now until `stop()`. A latency measured in
 * the benchmark's own process includes them, as a request's latency includes the server's.
 */
export function watchGc(): { stop: () => Promise<GcPause[]> } {
  const pauses: GcPause[] = [];
  const keep = (list: readonly PerformanceEntry[]) => {
    for (const e of list) pauses.push({ start: e.startTime, end: e.startTime + e.duration });
  };
  const observer = new PerformanceObserver((list) => keep(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop: async () => {
      // The entries reach the observer a turn of the event loop after the pause.
      await new Promise((resolve) => setTimeout(resolve, 20));
      keep(observer.takeRecords());
      observer.disconnect();
      return pauses.sort((a, b) => a.start - b.start);
    },
  };
}

/** The pauses that overlap a timed span (a run from t0 to t1). */
export function pausesDuring(pauses: readonly GcPause[], t0: number, t1: number): GcPause[] {
  return pauses.filter((p) => p.end > t0 && p.start < t1);
}

export function say(text = ''): void {
  process.stdout.write(`${text}\n`);
}

/**
 * Undo steps run newest first, each even if an earlier one failed: a temp directory is removed
 * after the PGlite that holds it is closed, the cluster stops after its pool is ended. Ctrl-C and
 * SIGTERM run them too, so an interrupted run leaves no postgres process or 1 GB directory behind.
 */
export class Cleanup {
  #steps: { what: string; fn: () => Promise<void> | void }[] = [];
  #onSignal = (sig: NodeJS.Signals) => {
    process.stderr.write(`\n${sig}: cleaning up before exit\n`);
    void this.run().finally(() => process.exit(130));
  };

  constructor() {
    process.once('SIGINT', this.#onSignal);
    process.once('SIGTERM', this.#onSignal);
  }

  add(what: string, fn: () => Promise<void> | void): void {
    this.#steps.push({ what, fn });
  }

  async run(): Promise<void> {
    while (this.#steps.length > 0) {
      const step = this.#steps.pop()!;
      try {
        await step.fn();
      } catch (err) {
        process.stderr.write(`cleanup: ${step.what} failed: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
    process.off('SIGINT', this.#onSignal);
    process.off('SIGTERM', this.#onSignal);
  }
}
