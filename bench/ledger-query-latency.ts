/**
 * Latency of the audit log's filtered queries through `listAuditEvents`, exactly as the API runs
 * them, against a baseline page read by primary-key range that filters nothing.
 */
import type { Database, Queryable, Row } from '../src/platform/db/database.js';
import { listAuditEvents } from '../src/domains/ledger/ledger-queries.js';
import { ORG_NO, READ_COLUMNS, toAuditEvent, type AuditRow } from '../src/domains/ledger/ledger-store.js';
import { latencyStats, ms, say, seededRandom, type LatencyStats } from './bench-support.js';
import { ACTION_PREFIXES, ACTORS, DAY_MS, type LoadResult } from './ledger-bulk-load.js';

export const PAGE = 50;
export type QueryKind = 'actorWindow' | 'actionPrefix' | 'baseline';
export const QUERY_LABELS: Record<QueryKind, string> = {
  actorWindow: 'actor + 24 h window',
  actionPrefix: 'action prefix, no window',
  baseline: 'baseline: seq range, no filter',
};

type Sql = { text: string; params: readonly unknown[] };
export type QueryStats = LatencyStats & {
  avgRows: number;
  slowest: Sql & { ms: number; label: string };
  /** Per action prefix for the prefix query: a rare prefix and a common one cost very differently. */
  groups: { name: string; stats: LatencyStats }[];
};
export type QueryResult = { runs: number; warmup: number; stats: Record<QueryKind, QueryStats> };

/** Hands every statement through and remembers the last one, so the slowest run can be EXPLAINed verbatim. */
function recording(db: Queryable): Queryable & { last: Sql | null } {
  const rec = {
    last: null as Sql | null,
    query<R extends Row = Row>(text: string, params?: readonly unknown[]) {
      rec.last = { text, params: params ?? [] };
      return db.query<R>(text, params);
    },
    exec: (text: string) => db.exec(text),
  };
  return rec;
}

type Probe = { label: string; group?: string; run: (q: Queryable) => Promise<number> };

/** The questions, drawn from a seeded generator: both engines are asked the same sequence. */
function probes(load: LoadResult, rand: () => number): Record<QueryKind, () => Probe> {
  const start = load.from.getTime();
  const span = load.to.getTime() - start;
  return {
    actorWindow: () => {
      const actor = `usr_${Math.floor(rand() * ACTORS)}`;
      const since = new Date(start + Math.floor(rand() * (span - DAY_MS)));
      const until = new Date(since.getTime() + DAY_MS);
      return {
        label: `actor ${actor}, ${since.toISOString()} + 24 h`,
        run: async (q) => (await listAuditEvents(q, load.orgId, { actor, since, until }, PAGE)).items.length,
      };
    },
    actionPrefix: () => {
      const action = ACTION_PREFIXES[Math.floor(rand() * ACTION_PREFIXES.length)]!;
      return { label: `action ${action}*`, group: action, run: async (q) => (await listAuditEvents(q, load.orgId, { action }, PAGE)).items.length };
    },
    baseline: () => {
      // The same page size, columns (prev_hash read from the row before) and ordering as
      // listAuditEvents (limit + 1, newest first), decoded the same way, but the rows are found by
      // a primary-key range: what a page costs with no filter.
      const after = Math.floor(rand() * (load.events - PAGE - 1));
      return {
        label: `seq ${after + 1}…${after + PAGE + 1}`,
        run: async (q) => {
          const r = await q.query<AuditRow>(
            `SELECT ${READ_COLUMNS} FROM audit_log e WHERE e.org_no = ${ORG_NO} AND e.seq > $2 AND e.seq <= $3 ORDER BY e.occurred_at DESC, e.seq DESC LIMIT ${PAGE + 1}`,
            [load.orgId, after, after + PAGE + 1],
          );
          return r.rows.slice(0, PAGE).map((row) => toAuditEvent(row, load.orgId)).length;
        },
      };
    },
  };
}

/**
 * `warmup` untimed runs of each kind, then `runs` timed ones. Each round runs the three kinds in a
 * rotating order, so any disturbance (a checkpoint, the other core busy) is shared between them.
 */
export async function benchQueries(db: Database, engineLabel: string, load: LoadResult, opts: { runs: number; warmup: number }): Promise<QueryResult> {
  const q = recording(db);
  const make = probes(load, seededRandom(20_260_101));
  const kinds: QueryKind[] = ['actorWindow', 'actionPrefix', 'baseline'];
  const samples: Record<QueryKind, number[]> = { actorWindow: [], actionPrefix: [], baseline: [] };
  const rows: Record<QueryKind, number> = { actorWindow: 0, actionPrefix: 0, baseline: 0 };
  const slowest = {} as Record<QueryKind, QueryStats['slowest']>;
  const groups: Record<QueryKind, Map<string, number[]>> = { actorWindow: new Map(), actionPrefix: new Map(), baseline: new Map() };

  say(`  [${engineLabel}] queries: warm-up ${opts.warmup} runs of each, then ${opts.runs} timed runs of each`);
  for (let i = 0; i < opts.warmup; i++) for (const k of kinds) await make[k]().run(q);

  for (let i = 0; i < opts.runs; i++) {
    for (let j = 0; j < kinds.length; j++) {
      const k = kinds[(i + j) % kinds.length]!;
      const p = make[k]();
      const t0 = performance.now();
      const n = await p.run(q);
      const elapsed = performance.now() - t0;
      samples[k].push(elapsed);
      rows[k] += n;
      if (p.group !== undefined) groups[k].set(p.group, [...(groups[k].get(p.group) ?? []), elapsed]);
      if (!slowest[k] || elapsed > slowest[k].ms) slowest[k] = { ...q.last!, ms: elapsed, label: p.label };
    }
    if ((i + 1) % 100 === 0 || i + 1 === opts.runs) say(`  [${engineLabel}] queries: ${i + 1} / ${opts.runs}`);
  }
  const stats = Object.fromEntries(
    kinds.map((k) => [
      k,
      {
        ...latencyStats(samples[k]),
        avgRows: rows[k] / opts.runs,
        slowest: slowest[k],
        groups: [...groups[k]].sort(([a], [b]) => a.localeCompare(b)).map(([name, xs]) => ({ name, stats: latencyStats(xs) })),
      },
    ]),
  ) as Record<QueryKind, QueryStats>;
  return { runs: opts.runs, warmup: opts.warmup, stats };
}

/** The plan of a recorded statement, run again under EXPLAIN (ANALYZE, BUFFERS) with its parameters. */
export async function explain(db: Database, sql: Sql): Promise<string[]> {
  const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.params);
  return r.rows.map((row) => row['QUERY PLAN']);
}

export function describeSlowest(s: QueryStats): string {
  return `${s.slowest.label}: ${ms(s.slowest.ms)} ms`;
}
