/**
 * `npm run bench -- what-changed`: the MCP tool what_changed over the Streamable HTTP transport
 * (the SDK client against POST /mcp on the pipeline listener) with a million change records in the
 * organisation: 10 % planned changes, 60 % observed changes, 30 % flag writes over 90 days and
 * 200 services with call links. Goal: p99 ≤ 50 ms on PostgreSQL. Beside it, interleaved in the
 * same run: the transport's floor (tools/list over the same client) and the plain list route for
 * one service (GET /api/changes?service=…&since=…&until= with the same token).
 *
 * Every statement the app sends is timed through a wrapper of the database, so a missed goal says
 * which statement the time went to, with its plan (EXPLAIN ANALYZE of the slowest one).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DEFAULT_POOL_SIZE, type Database, type Engine, type Queryable, type Row } from '../src/platform/db/database.js';
import { SettableClock } from '../src/platform/clock.js';
import { testApp } from '../test/support/test-app.js';
import { BENCH_URL_VAR, openPgliteEngine, openPostgresEngine, type BenchEngine, type Skipped } from './bench-engines.js';
import { busy, Cleanup, int, latencyStats, machine, ms, parseOptions, positiveInt, say, seconds, seededRandom, table, UsageError, type LatencyStats } from './bench-support.js';
import { load, SERVICES, SPAN_DAYS, type Load } from './what-changed-load.js';

export const GOAL_P99_MS = 50;
const WARMUP = 20;

const USAGE = `usage: npm run bench -- what-changed [options]
  --records N   change records loaded (default 1,000,000: 10 % planned, 60 % observed, 30 % flag writes; 100k and 1m work)
  --runs N      timed what_changed calls (default 300, after ${WARMUP} untimed), each interleaved with one of each baseline
  --batch N     rows per bulk-load statement (default 100,000)
  --engine E    postgres (default), pglite or both
PostgreSQL: ${BENCH_URL_VAR}, or else a throw-away cluster from the installed binaries.`;

type Options = { records: number; runs: number; batch: number; engines: Engine[] };

function options(args: string[]): Options {
  try {
    const { values, flags } = parseOptions(args, { values: ['records', 'runs', 'batch', 'engine'], flags: ['help'] });
    if (flags.has('help')) throw new UsageError('');
    const engine = values.get('engine') ?? 'postgres';
    if (!['postgres', 'pglite', 'both'].includes(engine)) throw new UsageError(`--engine must be postgres, pglite or both, got "${engine}"`);
    return {
      records: positiveInt('records', values.get('records')) ?? 1_000_000,
      runs: positiveInt('runs', values.get('runs')) ?? 300,
      batch: positiveInt('batch', values.get('batch')) ?? 100_000,
      engines: engine === 'both' ? ['pglite', 'postgres'] : [engine as Engine],
    };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${err.message ? `${err.message}\n\n` : ''}${USAGE}`);
    throw err;
  }
}

// Engines: as the other benchmarks open them, except that PostgreSQL gets the server's own pool size
// (what_changed runs its list calls and the feed's queries in parallel; one connection would
// serialise them, which `serve` does not).

const openEngine = (name: Engine, cleanup: Cleanup): Promise<BenchEngine | Skipped> =>
  name === 'pglite' ? openPgliteEngine(cleanup) : openPostgresEngine(cleanup, { poolSize: DEFAULT_POOL_SIZE });

// ---------------------------------------------------------------------------------------------
// Statement timing: a wrapper of the app's database that records each statement while recording is on.

type Stmt = { text: string; params: readonly unknown[]; ms: number };

function timed(db: Database): { db: Database; start: () => void; stop: () => Stmt[] } {
  let current: Stmt[] | null = null;
  const wrapQ = (q: Queryable): Queryable => ({
    async query<R extends Row = Row>(text: string, params?: readonly unknown[]) {
      const t0 = performance.now();
      try {
        return await q.query<R>(text, params);
      } finally {
        current?.push({ text, params: params ?? [], ms: performance.now() - t0 });
      }
    },
    exec: (text: string) => q.exec(text),
  });
  const wrapped: Database = {
    engine: db.engine,
    location: db.location,
    ...wrapQ(db),
    transaction: (fn) => db.transaction((tx) => fn({ ...wrapQ(tx), transactional: true })),
    close: () => db.close(),
  };
  return { db: wrapped, start: () => (current = []), stop: () => { const s = current ?? []; current = null; return s; } };
}

/** Which part of what_changed a statement is. */
function statementKind(s: Stmt): string {
  const t = s.text;
  if (/FROM changes c JOIN users/.test(t)) return s.params[9] != null ? 'planned changes (component = entity, via blast)' : 'planned changes (services = entity + neighbours)';
  if (/FROM observed_changes o/.test(t)) return 'observed changes (services)';
  if (/FROM audit_log\b/.test(t)) return 'flag writes (audit_log)';
  if (/FROM flags\b/.test(t) || /flag_states/.test(t)) return 'flags of the organisation';
  if (/catalogue_|manual_services|component_aliases|change_settings/.test(t)) return 'catalogue / blast preview';
  if (/change_sources/.test(t)) return 'connected sources (neverCaptured)';
  if (/api_tokens|memberships|users|organizations/.test(t)) return 'token / principal';
  return 'other';
}

// ---------------------------------------------------------------------------------------------
// The measurement.

type Kind = 'what_changed' | 'tools/list' | 'GET /api/changes';
const KINDS: Kind[] = ['what_changed', 'tools/list', 'GET /api/changes'];
type Answer = { changes: Array<{ origin: string }>; searched: string[] };
type Slow = { ms: number; args: Record<string, unknown>; stmts: Stmt[] };

type Done = {
  name: Engine; version: string; notes: string[]; load: Load; stats: Record<Kind, LatencyStats>;
  avgChanges: number; avgSearched: number; byOrigin: Record<string, number>; apiRows: number; empty: number;
  perStatement: Array<{ kind: string; perCall: number; stats: LatencyStats }>; serverStats: Map<string, LatencyStats>; slowest: Slow; loadAvg: string; plan: string[];
};

async function measure(name: Engine, db0: Database, version: string, notes: string[], opts: Options, cleanup: Cleanup): Promise<Done> {
  const loadBefore = busy();
  say(`\n== ${version} ==`);
  for (const n of notes) say(`  ${n}`);
  const tdb = timed(db0);
  const t = await testApp(tdb.db, { clock: new SettableClock(new Date()), publicUrl: 'https://changes.bench.example' });
  cleanup.add('close the app', () => t.close());
  const ld = await load(t, db0, name, opts);
  const base = await t.pipeline.listen({ host: '127.0.0.1', port: 0 });
  const auth = { authorization: `Bearer ${ld.token}` };
  const client = new Client({ name: 'changeledger-bench', version: '1.0.0' });
  t.clock.set(new Date(t.clock.now().getTime() + 61_000));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } }));
  cleanup.add('close the MCP client', () => client.close());

  // The app counts each token's requests on a one-minute window of its clock (60 a minute): the
  // clock steps 1.05 s before each request, so the calls stay under it as an assistant at that rate
  // would (and, as for one, the token's last-used time is written about once a minute: one call in ~57).
  const tick = () => t.clock.set(new Date(t.clock.now().getTime() + 1050));
  const whatChanged = async (args: Record<string, unknown>): Promise<Answer> => {
    tick();
    const r = (await client.callTool({ name: 'what_changed', arguments: args })) as { isError?: boolean; structuredContent?: Answer; content: Array<{ text?: string }> };
    if (r.isError || !r.structuredContent) throw new Error(`what_changed failed: ${JSON.stringify(r.content).slice(0, 500)}`);
    return r.structuredContent;
  };
  const listTools = async () => {
    tick();
    await client.listTools();
  };
  const listRoute = async (key: string, since: Date, until: Date): Promise<number> => {
    tick();
    const res = await fetch(`${base}/api/changes?service=${encodeURIComponent(key)}&since=${since.toISOString()}&until=${until.toISOString()}`, { headers: auth });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET /api/changes answered ${res.status}: ${body.slice(0, 300)}`);
    return (JSON.parse(body) as { changes: unknown[] }).changes.length;
  };

  // Not the empty path: an answer around an observed change of the busiest service has changes in it.
  const probe = await db0.query<{ at: Date }>('SELECT occurred_at AS at FROM observed_changes WHERE org_id = $1 AND $2 = ANY(services) AND NOT denied ORDER BY occurred_at LIMIT 1 OFFSET 100', [ld.orgId, ld.names[0]]);
  const probeAt = new Date(probe.rows[0]!.at);
  const check = await whatChanged({ entity: ld.keys[0], around: probeAt.toISOString(), before: '60m', after: '15m', hops: 1 });
  if (check.changes.length === 0) throw new Error(`what_changed answered no changes around ${probeAt.toISOString()} for ${ld.keys[0]}, where an observed change is: the benchmark would measure the empty path`);
  say(`  [${name}] check: what_changed ${ld.keys[0]} around ${probeAt.toISOString()} answered ${check.changes.length} changes (${[...new Set(check.changes.map((c) => c.origin))].join(', ')}), ${check.searched.length} entities searched`);

  const rand = seededRandom(4_242);
  const lo = ld.from.getTime() + 2 * 3600_000;
  const hi = ld.to.getTime() - 2 * 3600_000;
  const question = () => {
    const s = Math.floor(rand() * SERVICES);
    const around = new Date(lo + Math.floor(rand() * (hi - lo) / 1000) * 1000);
    const entity = rand() < 0.5 ? ld.keys[s]! : ld.names[s]!;
    return { s, around, args: { entity, around: around.toISOString(), before: '60m', after: '15m', hops: 1 } };
  };
  for (let i = 0; i < WARMUP; i++) {
    const q = question();
    await whatChanged(q.args);
    await listTools();
    await listRoute(ld.keys[q.s]!, new Date(q.around.getTime() - 3600_000), new Date(q.around.getTime() + 900_000));
  }

  const samples: Record<Kind, number[]> = { what_changed: [], 'tools/list': [], 'GET /api/changes': [] };
  const stmtMs = new Map<string, number[]>();
  const stmtCount = new Map<string, number>();
  let slowest: Slow = { ms: -1, args: {}, stmts: [] };
  const allStmts: Stmt[] = [];
  let changes = 0;
  let searched = 0;
  let apiRows = 0;
  let empty = 0;
  const byOrigin: Record<string, number> = {};
  for (let i = 0; i < opts.runs; i++) {
    const q = question();
    // Rotating order, so none of the three always runs first after the other two.
    for (let j = 0; j < KINDS.length; j++) {
      const kind = KINDS[(i + j) % KINDS.length]!;
      if (kind === 'what_changed') {
        tdb.start();
        const t0 = performance.now();
        const a = await whatChanged(q.args);
        const el = performance.now() - t0;
        const stmts = tdb.stop();
        allStmts.push(...stmts);
        samples[kind].push(el);
        changes += a.changes.length;
        searched += a.searched.length;
        if (a.changes.length === 0) empty++;
        for (const c of a.changes) byOrigin[c.origin] = (byOrigin[c.origin] ?? 0) + 1;
        const per = new Map<string, number>();
        for (const s of stmts) per.set(statementKind(s), (per.get(statementKind(s)) ?? 0) + s.ms);
        for (const s of stmts) stmtCount.set(statementKind(s), (stmtCount.get(statementKind(s)) ?? 0) + 1);
        for (const [k, v] of per) stmtMs.set(k, [...(stmtMs.get(k) ?? []), v]);
        if (el > slowest.ms) slowest = { ms: el, args: q.args, stmts };
      } else if (kind === 'tools/list') {
        const t0 = performance.now();
        await listTools();
        samples[kind].push(performance.now() - t0);
      } else {
        const t0 = performance.now();
        apiRows += await listRoute(ld.keys[q.s]!, new Date(q.around.getTime() - 3600_000), new Date(q.around.getTime() + 900_000));
        samples[kind].push(performance.now() - t0);
      }
    }
  }
  const stats = Object.fromEntries(KINDS.map((k) => [k, latencyStats(samples[k])])) as Record<Kind, LatencyStats>;
  const perStatement = [...stmtMs].map(([kind, v]) => ({ kind, perCall: (stmtCount.get(kind) ?? 0) / opts.runs, stats: latencyStats(v) })).sort((a, b) => b.stats.p99 - a.stats.p99);

  // Server-side: each read of the lists the timed calls sent, re-run under EXPLAIN (ANALYZE, TIMING OFF): the
  // database's own execution time, without the pool, the event loop or a busy machine. Then the plan of the worst.
  const server = new Map<string, number[]>();
  let worst: { stmt: Stmt; exec: number } | null = null;
  for (const st of allStmts) {
    const kind = statementKind(st);
    if (!/^planned|^observed|^flag writes|^flags of/.test(kind)) continue;
    const r = await db0.query<Record<string, unknown>>(`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${st.text}`, st.params);
    const raw = Object.values(r.rows[0]!)[0];
    const exec = Number((((typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ 'Execution Time': number }>)[0]!)['Execution Time']);
    server.set(kind, [...(server.get(kind) ?? []), exec]);
    if (!worst || exec > worst.exec) worst = { stmt: st, exec };
  }
  const serverStats = new Map([...server].map(([k, v]) => [k, latencyStats(v)]));
  let plan: string[] = [];
  if (worst) {
    const r = await db0.query<Record<string, string>>(`EXPLAIN (ANALYZE, BUFFERS) ${worst.stmt.text}`, worst.stmt.params);
    plan = [`the list read with the longest server-side time (${statementKind(worst.stmt)}, ${ms(worst.exec)} ms; params ${JSON.stringify(worst.stmt.params)}):`,
      ...r.rows.map((x) => Object.values(x)[0]!)];
  }
  return {
    name, version, notes, load: ld, stats, avgChanges: changes / opts.runs, avgSearched: searched / opts.runs, byOrigin, apiRows: apiRows / opts.runs, empty,
    perStatement, serverStats, slowest, loadAvg: `${loadBefore} before, ${busy()} after`, plan,
  };
}

function report(done: Done[], skipped: Array<{ name: Engine; skipped: string }>, opts: Options): void {
  say('\n================ changeledger what_changed benchmark ================');
  for (const line of machine()) say(line);
  for (const s of skipped) say(`${s.name}: SKIPPED - ${s.skipped}`);
  for (const d of done) {
    say(`${d.name}: ${d.version}; ${d.notes.join('; ')}`);
    say(`load average (1, 5, 15 min) around the ${d.name} run: ${d.loadAvg}`);
  }
  say(`\nwhat_changed over Streamable HTTP (SDK client → POST /mcp on the pipeline listener, stateless, JSON), ${int(opts.records)} change records in one organisation:`);
  say(`  ${SERVICES} services with call links; ${SPAN_DAYS} days; ${opts.runs} timed calls after ${WARMUP} warm-up; a random service (by key or name, seeded), a random moment, before 60m, after 15m, hops 1.`);
  say('  Baselines, interleaved with each call in rotating order: tools/list over the same client (the transport\'s floor), and GET /api/changes?service=<key>&since&until (the same window) with the same token.');
  for (const d of done) {
    const w = d.stats.what_changed;
    say(`\n[${d.name}] loaded ${int(d.load.planned)} planned + ${int(d.load.observed)} observed + ${int(d.load.flagWrites)} flag writes in ${seconds(d.load.loadMs)} (VACUUM ANALYZE ${seconds(d.load.analyzeMs)})`);
    say(`[${d.name}] what_changed answered ${d.avgChanges.toFixed(1)} changes on average (${Object.entries(d.byOrigin).map(([k, v]) => `${k} ${(v / opts.runs).toFixed(1)}`).join(', ')}), ${d.empty} of ${opts.runs} empty, ${d.avgSearched.toFixed(1)} entities searched; the list route ${d.apiRows.toFixed(1)} rows`);
    say(table(['engine', 'call', 'n', 'p50 ms', 'p99 ms', 'mean ms', 'max ms', 'what_changed p99 / this p99'],
      KINDS.map((k) => {
        const s = d.stats[k];
        return [d.name, k, String(s.n), ms(s.p50), ms(s.p99), ms(s.mean), ms(s.max), k === 'what_changed' ? '-' : `${(w.p99 / s.p99).toFixed(2)}x`];
      })));
    say(`\n[${d.name}] where a what_changed call's time goes: per part, the app's wait for its statements in one call (wall time in the app's database wrapper, pool and event-loop waits included;`);
    say('  parts run in parallel, so they do not add up to the call), and the database\'s own execution time of the same statements re-run under EXPLAIN (ANALYZE, TIMING OFF):');
    say(table(['part', 'statements per call', 'app wait p50 ms', 'p99 ms', 'max ms', 'server p50 ms', 'server p99 ms', 'server max ms'], d.perStatement.map((p) => {
      const sv = d.serverStats.get(p.kind);
      return [p.kind, p.perCall.toFixed(1), ms(p.stats.p50), ms(p.stats.p99), ms(p.stats.max), sv ? ms(sv.p50) : '', sv ? ms(sv.p99) : '', sv ? ms(sv.max) : ''];
    })));
    say(`  slowest call ${ms(d.slowest.ms)} ms: ${JSON.stringify(d.slowest.args)}`);
    for (const s of [...d.slowest.stmts].sort((a, b) => b.ms - a.ms).slice(0, 5)) say(`    ${ms(s.ms).padStart(6)} ms  ${statementKind(s)}`);
    if ((d.name === 'postgres' && w.p99 > GOAL_P99_MS) || process.env.WC_EXPLAIN) for (const l of d.plan) say(`    ${l}`);
  }
  say('\nVerdict:');
  for (const d of done) {
    const w = d.stats.what_changed;
    const goal = d.name === 'postgres' ? (w.p99 <= GOAL_P99_MS ? 'met' : 'missed') : `${w.p99 <= GOAL_P99_MS ? 'met' : 'missed'} (the goal is PostgreSQL's)`;
    say(`  [${d.name}] what_changed p99 ${ms(w.p99)} ms — goal ≤ ${GOAL_P99_MS} ms: ${goal}; p50 ${ms(w.p50)} ms; ${(w.p99 / d.stats['tools/list'].p99).toFixed(1)}x the tools/list p99, ${(w.p99 / d.stats['GET /api/changes'].p99).toFixed(1)}x the list route's p99`);
  }
  for (const s of skipped) say(`  [${s.name}] skipped: ${s.skipped}`);
}

export async function run(args: string[]): Promise<void> {
  const opts = options(args);
  for (const line of machine()) say(line);
  const done: Done[] = [];
  const skipped: Array<{ name: Engine; skipped: string }> = [];
  for (const name of opts.engines) {
    const cleanup = new Cleanup();
    try {
      const e = await openEngine(name, cleanup);
      if ('skipped' in e) {
        say(`\n== ${name}: SKIPPED - ${e.skipped} ==`);
        skipped.push(e);
        continue;
      }
      done.push(await measure(name, e.db, e.version, e.notes, opts, cleanup));
    } finally {
      await cleanup.run();
    }
  }
  report(done, skipped, opts);
}
