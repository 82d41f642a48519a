/**
 * `npm run bench -- vs-unleash`: flag toggles over HTTP, changeledger against Unleash 8.2.0, on the
 * same machine and ONE throw-away PostgreSQL server (a database each), in one run.
 *
 * Unleash is installed from the npm registry on first use, as any package, into a cache directory
 * (install scripts off: one of its dependencies would report the install to a third party), and
 * started with its version check and telemetry off, so everything stays on loopback.
 *
 * Both products get the same flags, the same closed-loop load (each virtual user turns the next
 * flag of production on or off, the opposite of its last state) and the same database pool. They
 * take turns in short windows, the order swapped each round, so other work on the machine falls on
 * both alike. changeledger's toggles carry a reason and a signed-in session with its CSRF token, as
 * a person's do; Unleash's carry an admin API token. Reported side by side: toggles/s and its ratio
 * (goal ≥ 5×), p50/p99 (goal: p99 ≤ Unleash's), CPU per toggle, RSS idle and after the load, that
 * every changeledger toggle is in its ledger, and the audit table's bytes per record beside
 * Unleash's events table (goal ≤ 1.5×). With --floor, two bare servers on changeledger's database
 * take turns with them (bench/toggle-floor-server.ts), to show what a toggle costs at the least
 * with and without its record, and so the ratio any server keeping the record could reach.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findPostgresBin, freePort, startCluster } from '../test/support/postgres-cluster.js';
import { busy, Cleanup, int, latencyStats, machine, ms, parseOptions, positiveInt, say, table, UsageError } from './bench-support.js';
import { send } from './http-send.js';
import { machineCpu, Probe, rssKb, statusKb } from './load-probes.js';
import { packageRoot } from '../src/platform/paths.js';
import { api, cli, ensureBuilt, inParallel, OWNER, PASSWORD, postmasterPid, startReplica, withDb } from './load-servers.js';

const UNLEASH_VERSION = '8.2.0';
const GOAL_RATIO = 5;
const GOAL_STORAGE_RATIO = 1.5;

const USAGE = `usage: npm run bench -- vs-unleash [options]
  --concurrency N   toggles in flight against each product (closed loop; default 8)
  --seconds N       measured seconds per product (default 20)
  --rounds N        windows each product's seconds are split into, the products taking turns (default 4)
  --warmup N        seconds of load before each window, not counted (default 3)
  --first-warmup N  seconds of load on each product before the first round, not counted (default 15)
  --flags N         flags made in each product (default 1000)
  --pool N          database connections of each product's process (default 10; Unleash's own default is 4)
  --records N       before measuring storage, toggle on (not timed) until each audit table holds N records
                    (default 0: measure what the load wrote; 200000 is the issue's size and takes ~15 min)
  --engine pglite   run changeledger on its embedded engine (PGlite, inside its own process, in a
                    temporary data directory) instead of on the shared PostgreSQL; Unleash stays on
                    PostgreSQL. Its RSS then includes its database. Not with --records or --profile
  --fsync off       run PostgreSQL with fsync off (default on: commits cost what they cost users)
  --cache DIR       where Unleash is installed (default $XDG_CACHE_HOME or ~/.cache, /changeledger-bench)
  --profile         where a toggle's time goes: load pg_stat_statements into the cluster and print, for
                    each product, transactions, statements (round trips), execution time and WAL a
                    toggle, its busiest statements, and what its sessions were waiting on
  --floor           also run two bare node:http servers on changeledger's database, taking turns with
                    the products (bench/toggle-floor-server.ts): one that reads the session and only
                    UPDATEs the state, and one that reads the session and writes the toggle with its
                    audit record through the product's own store functions, with no framework, schema
                    check or log line. Prints what each costs a toggle and the ratio it reaches against
                    Unleash in the same run: the ceiling of any server that keeps the record. Not with
                    --engine pglite or --profile
  --skip-build      use the existing dist/ instead of running npm run build first
Needs the npm registry on the first run (unleash-server@${UNLEASH_VERSION} and its dependencies, ~200 MB).`;

type Options = { concurrency: number; seconds: number; rounds: number; warmup: number; firstWarmup: number; flags: number; pool: number; records: number; fsync: boolean; cache: string; skipBuild: boolean; profile: boolean; floor: boolean; engine: 'postgres' | 'pglite' };

function options(args: string[]): Options {
  try {
    const { values, flags } = parseOptions(args, { values: ['concurrency', 'seconds', 'rounds', 'warmup', 'first-warmup', 'flags', 'pool', 'records', 'fsync', 'cache', 'engine'], flags: ['skip-build', 'profile', 'floor', 'help'] });
    if (flags.has('help')) throw new UsageError('');
    const fsync = values.get('fsync') ?? 'on';
    if (fsync !== 'on' && fsync !== 'off') throw new UsageError(`--fsync must be on or off, got "${fsync}"`);
    const engine = values.get('engine') ?? 'postgres';
    if (engine !== 'postgres' && engine !== 'pglite') throw new UsageError(`--engine must be postgres or pglite, got "${engine}"`);
    if (engine === 'pglite' && values.has('records')) throw new UsageError('--records fills and sizes the audit table on PostgreSQL: leave it out with --engine pglite');
    if (engine === 'pglite' && flags.has('profile')) throw new UsageError('--profile reads pg_stat_statements of the shared PostgreSQL: leave it out with --engine pglite');
    if (flags.has('floor') && engine === 'pglite') throw new UsageError('--floor runs its bare servers on changeledger\'s PostgreSQL database: leave out --engine pglite');
    if (flags.has('floor') && flags.has('profile')) throw new UsageError('--floor\'s servers would add their statements to changeledger\'s in the --profile counts: run the two apart');
    const count = (name: string, dflt: number) => (values.get(name) === '0' ? 0 : (positiveInt(name, values.get(name)) ?? dflt));
    return {
      concurrency: positiveInt('concurrency', values.get('concurrency')) ?? 8,
      seconds: positiveInt('seconds', values.get('seconds')) ?? 20,
      rounds: positiveInt('rounds', values.get('rounds')) ?? 4,
      warmup: count('warmup', 3),
      firstWarmup: count('first-warmup', 15),
      flags: positiveInt('flags', values.get('flags')) ?? 1000,
      pool: positiveInt('pool', values.get('pool')) ?? 10,
      records: count('records', 0),
      fsync: fsync === 'on',
      cache: values.get('cache') ?? join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'changeledger-bench'),
      skipBuild: flags.has('skip-build'),
      profile: flags.has('profile'),
      floor: flags.has('floor'),
      engine,
    };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${err.message ? `${err.message}\n\n` : ''}${USAGE}`);
    throw err;
  }
}

/** Installs unleash-server into the cache on first use; answers the directory to start it from. */
function installUnleash(cache: string): string {
  const dir = join(cache, `unleash-server-${UNLEASH_VERSION}`);
  const pkg = join(dir, 'node_modules', 'unleash-server', 'package.json');
  if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version === UNLEASH_VERSION) {
    say(`Unleash ${UNLEASH_VERSION}: installed in ${dir}`);
  } else {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'changeledger-bench-unleash', private: true }, null, 2)}\n`);
    say(`Unleash ${UNLEASH_VERSION}: installing into ${dir} from the npm registry (first run only) ...`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--omit=dev', '--ignore-scripts', '--save-exact', '--loglevel=error', `unleash-server@${UNLEASH_VERSION}`], {
      cwd: dir, stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`npm install unleash-server@${UNLEASH_VERSION} failed (${r.status}): is the npm registry reachable?`);
  }
  // Everything it needs comes from the environment: the database, the port, the admin token.
  writeFileSync(join(dir, 'start.cjs'), [
    "'use strict';",
    "const { start } = require('unleash-server');",
    'start({',
    "  server: { host: '127.0.0.1', port: Number(process.env.PORT) },",
    '  versionCheck: { enable: false },',
    '  telemetry: false,',
    "}).then(() => process.stderr.write(`unleash listening on http://127.0.0.1:${process.env.PORT}\\n`), (err) => {",
    "  process.stderr.write(`unleash failed: ${err && err.stack || err}\\n`);",
    '  process.exit(1);',
    '});',
    '',
  ].join('\n'));
  return dir;
}

type Request = { url: string; method: string; headers: Record<string, string>; body: string | undefined };

/** One product under load: its server process, its database, and how it turns flag `i` on or off. */
type Product = {
  name: string;
  pid: number;
  db: string;
  /** The table its audit trail lives in, and what a record of it is called. */
  auditTable: string;
  /** Its database runs inside its own process (changeledger on PGlite), not on the shared PostgreSQL. */
  embedded: boolean;
  /** How many audit records it holds now. */
  records(): Promise<number>;
  toggle(i: number, on: boolean, vu: number): Request;
  /** Where each flag was left, so the next toggle of it is a change (flags start off in both). */
  state: boolean[];
  cursor: number;
  /** Toggles that answered 2xx, warm-ups included: each should have left one record. */
  okAll: number;
  stop(): Promise<void>;
};

type Win = {
  product: string; seconds: number; ok: number; latencies: number[]; statuses: Record<string, number>; cpuMs: number; pgCpuMs: number; busyPct: number; loadAvg: string;
  /** pg_stat_activity of the product's database, sampled: (state · wait) → sessions seen, and the number of samples. */
  waits: Map<string, number>; samples: number;
};

async function expect2xx(what: string, p: ReturnType<typeof api>): Promise<unknown> {
  const r = await p;
  if (r.status < 200 || r.status > 299) throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
  return r.json;
}

/** `url` undefined: the embedded engine in `dataDir`. */
async function startChangeledger(o: Options, url: string | undefined, dataDir: string, cleanup: Cleanup): Promise<Product> {
  const store = ['--data', dataDir, ...(url ? ['--database-url', url] : [])];
  await cli(['users', 'add', '--email', OWNER, '--role', 'owner', '--password-stdin', ...store], `${PASSWORD}\n`);
  const replica = await startReplica({ label: 'changeledger', databaseUrl: url, dataDir, logFile: join(dataDir, 'changeledger.log') });
  cleanup.add('stop changeledger', () => replica.stop());
  const sessions: { cookie: string; csrf: string }[] = [];
  for (let i = 0; i < o.concurrency; i++) {
    const r = await api(replica.url, 'POST', '/api/session', {}, { email: OWNER, password: PASSWORD });
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('cl_session='))?.split(';')[0];
    if (r.status !== 200 || !cookie) throw new Error(`changeledger sign-in answered ${r.status}: ${JSON.stringify(r.json)}`);
    sessions.push({ cookie, csrf: (r.json as { csrfToken: string }).csrfToken });
  }
  const key = (i: number) => `ops.bench.ns${i % 10}.flag${i}`;
  const h = { cookie: sessions[0]!.cookie, 'x-csrf-token': sessions[0]!.csrf };
  await inParallel(Array.from({ length: o.flags }, (_, i) => i), 4, async (i) => {
    await expect2xx(`changeledger POST /api/flags ${key(i)}`, api(replica.url, 'POST', '/api/flags', h, { key: key(i), type: 'boolean', risk: 'low', description: 'vs-unleash benchmark flag', reason: 'vs-unleash benchmark seed' }));
  });
  return {
    name: url ? 'changeledger' : 'changeledger (PGlite)', pid: replica.pid, db: url ? new URL(url).pathname.slice(1) : '', auditTable: 'audit_log', embedded: !url,
    // The product's own check: the chains are walked and the events counted (through the server's admin socket on PGlite).
    records: async () => {
      const results = JSON.parse(await cli(['audit', 'verify', '--json', ...store])) as { organization: string; ok: boolean; checked: number }[];
      return results.reduce((a, r) => a + r.checked, 0);
    },
    toggle: (i, on, vu) => {
      const s = sessions[vu % sessions.length]!;
      return {
        url: `${replica.url}/api/flags/${key(i)}/environments/production`, method: 'PUT',
        headers: { cookie: s.cookie, 'x-csrf-token': s.csrf }, body: JSON.stringify({ enabled: on, reason: 'vs-unleash benchmark toggle' }),
      };
    },
    state: new Array<boolean>(o.flags).fill(false), cursor: 0, okAll: 0, stop: () => replica.stop(),
  };
}

/** A child's exit, and how to stop it: SIGTERM, then SIGKILL after 15 s. */
function stopper(child: ChildProcess): { exited: Promise<void>; stop: () => Promise<void> } {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
  };
  return { exited, stop };
}

/**
 * A bare server of bench/toggle-floor-server.ts (--floor) on changeledger's database, answering the
 * same toggles with changeledger's own sessions and flags; it shares their state, so each toggle
 * still changes its flag.
 */
async function startFloor(arm: 'update' | 'recorded', cl: Product, databaseUrl: string, dir: string, cleanup: Cleanup): Promise<Product> {
  const log = openSync(join(dir, `floor-${arm}.log`), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', join(packageRoot, 'bench', 'toggle-floor-server.ts'), databaseUrl, arm], { cwd: packageRoot, env: process.env, stdio: ['ignore', 'pipe', log] });
  closeSync(log);
  const { exited, stop } = stopper(child);
  cleanup.add(`stop the floor server (${arm})`, stop);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the floor server (${arm}) did not start within 30 s; its log: ${join(dir, `floor-${arm}.log`)}`)), 30_000);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the floor server (${arm}) exited before it listened; its log: ${join(dir, `floor-${arm}.log`)}`));
    });
  });
  const clOrigin = new URL(cl.toggle(0, true, 0).url).origin;
  return {
    name: arm === 'update' ? 'floor: session + UPDATE, no record' : 'floor: session + recorded toggle',
    pid: child.pid!, db: cl.db, auditTable: cl.auditTable, embedded: false, records: cl.records,
    toggle: (i, on, vu) => {
      const r = cl.toggle(i, on, vu);
      return { ...r, url: `http://127.0.0.1:${port}${r.url.slice(clOrigin.length)}` };
    },
    state: cl.state, cursor: 0, okAll: 0, stop,
  };
}

async function startUnleash(o: Options, dir: string, url: string, logFile: string, cleanup: Cleanup): Promise<Product> {
  const port = await freePort();
  const token = '*:*.changeledger-bench-admin';
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [join(dir, 'start.cjs')], {
    cwd: dir,
    env: {
      ...process.env, PORT: String(port), DATABASE_URL: url, DATABASE_SSL: 'false', DATABASE_POOL_MAX: String(o.pool),
      INIT_ADMIN_API_TOKENS: token, CHECK_VERSION: 'false', SEND_TELEMETRY: 'false', SCARF_ANALYTICS: 'false', NODE_ENV: 'production',
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const { stop } = stopper(child);
  cleanup.add('stop Unleash', stop);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`Unleash exited (${child.exitCode}) before it was ready; its log: ${logFile}\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    const ok = await fetch(`${base}/health`).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (i > 240) throw new Error(`Unleash was not ready within 120 s; its log: ${logFile}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const h = { authorization: token };
  const name = (i: number) => `bench.ns${i % 10}.flag${i}`;
  await inParallel(Array.from({ length: o.flags }, (_, i) => i), 4, async (i) => {
    await expect2xx(`Unleash create ${name(i)}`, api(base, 'POST', '/api/admin/projects/default/features', h, { name: name(i), type: 'release' }));
  });
  return {
    name: `Unleash ${UNLEASH_VERSION}`, pid: child.pid!, db: new URL(url).pathname.slice(1), auditTable: 'events', embedded: false,
    records: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return Number((await c.query<{ n: string }>('SELECT count(*)::text AS n FROM events')).rows[0]!.n);
      } finally {
        await c.end();
      }
    },
    toggle: (i, on) => ({ url: `${base}/api/admin/projects/default/features/${name(i)}/environments/production/${on ? 'on' : 'off'}`, method: 'POST', headers: h, body: undefined }),
    state: new Array<boolean>(o.flags).fill(false), cursor: 0, okAll: 0, stop,
  };
}

/**
 * `concurrency` closed loops, each turning the next flag to the opposite of where it was left, for
 * warm-up + window; answers that end in the window are counted (the loops never pause).
 */
async function load(p: Product, o: { concurrency: number; warmupMs: number; measureMs: number; onMeasuring?: () => void }): Promise<Pick<Win, 'seconds' | 'ok' | 'latencies' | 'statuses'>> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency * 2, keepAliveMsecs: 10_000 });
  let measuring = false;
  let stop = false;
  let ok = 0;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const loops = Array.from({ length: o.concurrency }, async (_, vu) => {
    while (!stop) {
      const i = p.cursor++ % p.state.length;
      const on = !p.state[i];
      const r = p.toggle(i, on, vu);
      const a = await send(agent, r.url, r.method, r.headers, r.body);
      const good = /^2\d\d$/.test(a.status);
      if (good) {
        p.state[i] = on;
        p.okAll++;
      }
      if (!measuring) continue;
      statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      latencies.push(a.ms);
      if (good) ok++;
    }
  });
  await new Promise((r) => setTimeout(r, o.warmupMs));
  measuring = true;
  o.onMeasuring?.();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, o.measureMs));
  measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(loops);
  agent.destroy();
  return { seconds, ok, latencies, statuses };
}

async function measureWindow(p: Product, opts: Options, clusterDir: string, sampler: pg.Client): Promise<Win> {
  const loadAvg = busy().split(' ')[0]!;
  const probe = new Probe({ tracked: [{ label: p.name, pid: p.pid }], postmasterPid: postmasterPid(clusterDir), client: sampler, database: p.db, intervalMs: 250, cores: cpus().length });
  const cpu0 = machineCpu();
  const r = await load(p, { concurrency: opts.concurrency, warmupMs: opts.warmup * 1000, measureMs: (opts.seconds * 1000) / opts.rounds, onMeasuring: () => probe.start() });
  const probed = await probe.stop();
  const cpu1 = machineCpu();
  const w: Win = {
    product: p.name, ...r, loadAvg,
    cpuMs: ((probed.cpuPct[p.name] ?? 0) / 100) * probed.seconds * 1000,
    pgCpuMs: (probed.postgresCpuPct / 100) * probed.seconds * 1000,
    busyPct: (100 * (cpu1.busy - cpu0.busy)) / Math.max(1, cpu1.total - cpu0.total),
    waits: probed.waits, samples: probed.samples,
  };
  const s = latencyStats(w.latencies);
  say(`  ${p.name.padEnd(14)} ${(w.ok / w.seconds).toFixed(0).padStart(5)} toggles/s, p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms, ${w.latencies.length - w.ok} errors; machine ${w.busyPct.toFixed(0)} % busy, load ${loadAvg}`);
  return w;
}

const mib = (kb: number | null | undefined) => (kb == null ? '-' : `${(kb / 1024).toFixed(0)} MiB`);

type Storage = { records: number; total: number; table: number; indexes: number; perIndex: { name: string; bytes: number }[] };

async function storage(client: pg.Client, tableName: string): Promise<Storage> {
  const r = await client.query<{ records: string; total: string; heap: string; indexes: string }>(
    `SELECT (SELECT count(*) FROM ${tableName})::text AS records, pg_total_relation_size('${tableName}')::text AS total,
            (pg_total_relation_size('${tableName}') - pg_indexes_size('${tableName}'))::text AS heap, pg_indexes_size('${tableName}')::text AS indexes`,
  );
  const ix = await client.query<{ name: string; bytes: string }>(
    `SELECT indexrelid::regclass::text AS name, pg_relation_size(indexrelid)::text AS bytes FROM pg_index WHERE indrelid = '${tableName}'::regclass ORDER BY pg_relation_size(indexrelid) DESC`,
  );
  const row = r.rows[0]!;
  return { records: Number(row.records), total: Number(row.total), table: Number(row.heap), indexes: Number(row.indexes), perIndex: ix.rows.map((x) => ({ name: x.name, bytes: Number(x.bytes) })) };
}

/** A database's counters from pg_stat_database: transactions ended, and rows inserted, updated or deleted. */
type DbCounters = { xacts: number; written: number };

async function dbCounters(admin: pg.Client, db: string): Promise<DbCounters> {
  const r = await admin.query<{ xacts: string; written: string }>(
    `SELECT (xact_commit + xact_rollback)::text AS xacts, (tup_inserted + tup_updated + tup_deleted)::text AS written FROM pg_stat_database WHERE datname = $1`,
    [db],
  );
  return { xacts: Number(r.rows[0]?.xacts ?? 0), written: Number(r.rows[0]?.written ?? 0) };
}

/** One normalised statement of pg_stat_statements (top level: one call is one round trip). */
type Statement = { calls: number; ms: number; rows: number; wal: number; query: string };

async function statements(admin: pg.Client, db: string): Promise<Statement[]> {
  const r = await admin.query<{ calls: string; ms: number; rows: string; wal: string; query: string }>(
    `SELECT s.calls::text AS calls, s.total_exec_time AS ms, s.rows::text AS rows, s.wal_bytes::text AS wal, regexp_replace(s.query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1 AND s.toplevel ORDER BY s.calls DESC`,
    [db],
  );
  return r.rows.map((x) => ({ calls: Number(x.calls), ms: Number(x.ms), rows: Number(x.rows), wal: Number(x.wal), query: x.query }));
}

/** PostgreSQL flushes a session's counters to pg_stat_database at most once a second, and an idle one's after 10 s. */
const STATS_SETTLE_MS = 11_000;

type Profile = { toggles: number; db: DbCounters; statements: Statement[]; waits: Map<string, number>; samples: number };

function printProfile(products: readonly Product[], profiles: Profile[]): void {
  say('\n---- where a toggle\'s time goes: PostgreSQL\'s own counters over the rounds (their warm-ups included), divided by the toggles that answered 2xx ----');
  const per = (p: Profile, v: number, digits = 1) => (v / Math.max(1, p.toggles)).toFixed(digits);
  const sumOf = (p: Profile, f: (x: Statement) => number) => p.statements.reduce((a, x) => a + f(x), 0);
  say(table(['a toggle', ...products.map((p) => p.name)], [
    ['toggles counted', ...profiles.map((p) => int(p.toggles))],
    ['transactions', ...profiles.map((p) => per(p, p.db.xacts, 2))],
    ['statements sent (round trips, BEGIN and COMMIT included)', ...profiles.map((p) => per(p, sumOf(p, (x) => x.calls), 1))],
    ['rows inserted, updated or deleted', ...profiles.map((p) => per(p, p.db.written, 1))],
    ['execution time inside PostgreSQL', ...profiles.map((p) => `${per(p, sumOf(p, (x) => x.ms), 2)} ms`)],
    ['WAL written by its statements', ...profiles.map((p) => `${int(sumOf(p, (x) => x.wal) / Math.max(1, p.toggles))} B`)],
  ]));
  for (const [i, p] of products.entries()) {
    const f = profiles[i]!;
    const total = Math.max(1e-9, sumOf(f, (x) => x.ms));
    say(`\n${p.name}: its busiest statements (by calls), all its statements in the database`);
    say(table(['calls a toggle', 'mean', 'share of execution time', 'rows a call', 'statement'], f.statements.slice(0, 12).map((x) => [
      per(f, x.calls, 2), `${(x.ms / Math.max(1, x.calls)).toFixed(3)} ms`, `${((100 * x.ms) / total).toFixed(0)} %`, (x.rows / Math.max(1, x.calls)).toFixed(1), x.query.slice(0, 110),
    ])));
    const waits = [...f.waits.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
    say(`${p.name}: its sessions by state and wait event, pg_stat_activity every 250 ms (${f.samples} samples; mean sessions in each)`);
    say(table(['state | wait', 'sessions'], waits.map(([k, v]) => [k, (v / Math.max(1, f.samples)).toFixed(2)])));
  }
}

/** Toggles (untimed) until the product's audit table holds `records` rows. */
async function fill(p: Product, client: pg.Client, records: number, concurrency: number): Promise<void> {
  const count = async () => Number((await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${p.auditTable}`)).rows[0]!.n);
  let have = await count();
  const t0 = performance.now();
  while (have < records) {
    await load(p, { concurrency, warmupMs: 0, measureMs: 10_000 });
    have = await count();
    say(`  ${p.name}: ${int(have)} of ${int(records)} records (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
}

export async function run(args: string[]): Promise<void> {
  const opts = options(args);
  const bin = findPostgresBin();
  if (!bin) throw new Error('no PostgreSQL server binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql: this benchmark needs a PostgreSQL server');
  await ensureBuilt(opts.skipBuild);
  const unleashDir = installUnleash(opts.cache);
  for (const line of machine()) say(line);
  if (Number(process.versions.node.split('.')[0]) < 22) say(`note: unleash-server ${UNLEASH_VERSION} asks for Node.js ≥ 22 in its package.json; it runs here on ${process.version}, the same Node.js as changeledger.`);
  const cleanup = new Cleanup();
  try {
    const cluster = await startCluster(bin, {
      durable: opts.fsync,
      // Top level only: a call is a statement the product sent, so calls a toggle are its round trips.
      settings: opts.profile ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'top', 'pg_stat_statements.max': '5000' } : {},
    });
    cleanup.add('stop the throw-away PostgreSQL cluster', () => cluster.stop());
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    cleanup.add('close the admin connection', () => admin.end());
    if (opts.profile) await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const settings = await admin.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM unnest(ARRAY['server_version', 'shared_buffers', 'fsync', 'synchronous_commit']) AS name`,
    );
    say(`PostgreSQL ${settings.rows.map((r) => `${r.name}=${r.setting}`).join(' ')} (one throw-away cluster for both, loopback)`);
    say(`load: ${opts.concurrency} toggles in flight, ${opts.flags} flags each, production turned on/off in turn; ${opts.seconds} s measured per product in ${opts.rounds} windows, ${opts.warmup} s warm-up before each; pool ${opts.pool} connections each`);

    const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-vs-unleash-'));
    cleanup.add(`remove ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }));
    const dbs = { cl: `clvs_changeledger_${process.pid}`, un: `clvs_unleash_${process.pid}` };
    for (const db of Object.values(dbs)) {
      await admin.query(`CREATE DATABASE ${db}`);
      cleanup.add(`drop database ${db}`, async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      });
    }
    const t0 = performance.now();
    process.env.CHANGELEDGER_DB_POOL_SIZE = String(opts.pool);
    const products = [
      await startChangeledger(opts, opts.engine === 'postgres' ? withDb(cluster.url, dbs.cl) : undefined, dataDir, cleanup),
      await startUnleash(opts, unleashDir, withDb(cluster.url, dbs.un), join(dataDir, 'unleash.log'), cleanup),
    ] as const;
    say(`started both and made ${opts.flags} flags in each (${((performance.now() - t0) / 1000).toFixed(1)} s); logs in ${dataDir}`);
    // The floor's servers take turns with the products; the recorded one appends to changeledger's ledger.
    const floors = opts.floor
      ? [await startFloor('update', products[0], withDb(cluster.url, dbs.cl), dataDir, cleanup), await startFloor('recorded', products[0], withDb(cluster.url, dbs.cl), dataDir, cleanup)]
      : [];
    const arms: Product[] = [...products, ...floors];
    const clients = await Promise.all(products.map(async (p) => {
      if (p.embedded) return null;
      const c = new pg.Client({ connectionString: withDb(cluster.url, p.db) });
      await c.connect();
      cleanup.add(`close the ${p.name} database connection`, () => c.end());
      await c.query('VACUUM ANALYZE');
      return c;
    }));
    await new Promise((r) => setTimeout(r, 3000));
    const idleRss = products.map((p) => rssKb(p.pid));
    const recordsBefore = await Promise.all(products.map((p) => p.records()));
    const okBefore = arms.map((p) => p.okAll);

    const sampler = new pg.Client({ connectionString: cluster.url });
    await sampler.connect();
    cleanup.add('close the sampler connection', () => sampler.end());
    // A fresh process is slower for its first seconds (JIT, caches, jobs that start with the server):
    // each product runs the load for a while before any window counts.
    for (const p of arms) {
      say(`warming ${p.name} up for ${opts.firstWarmup} s (not counted)`);
      await load(p, { concurrency: opts.concurrency, warmupMs: 0, measureMs: opts.firstWarmup * 1000 });
    }
    let profileStart: { toggles: number; db: DbCounters }[] = [];
    if (opts.profile) {
      await new Promise((r) => setTimeout(r, STATS_SETTLE_MS));
      await admin.query('SELECT pg_stat_statements_reset()');
      profileStart = await Promise.all(products.map(async (p) => ({ toggles: p.okAll, db: await dbCounters(admin, p.db) })));
    }
    const windows: Win[][] = arms.map(() => []);
    for (let round = 0; round < opts.rounds; round++) {
      say(`round ${round + 1} of ${opts.rounds}`);
      const order = arms.map((_, i) => i);
      if (round % 2 === 1) order.reverse();
      for (const i of order) windows[i]!.push(await measureWindow(arms[i]!, opts, cluster.dir, sampler));
    }
    await new Promise((r) => setTimeout(r, opts.profile ? STATS_SETTLE_MS : 3000));
    const profiles: Profile[] = opts.profile
      ? await Promise.all(products.map(async (p, i) => {
          const db = await dbCounters(admin, p.db);
          const waits = new Map<string, number>();
          for (const w of windows[i]!) for (const [k, v] of w.waits) waits.set(k, (waits.get(k) ?? 0) + v);
          return {
            toggles: p.okAll - profileStart[i]!.toggles,
            db: { xacts: db.xacts - profileStart[i]!.db.xacts, written: db.written - profileStart[i]!.db.written },
            statements: await statements(admin, p.db), waits, samples: windows[i]!.reduce((a, w) => a + w.samples, 0),
          };
        }))
      : [];
    const afterRss = products.map((p) => rssKb(p.pid));
    const hwm = products.map((p) => statusKb(p.pid, 'VmHWM'));
    const recordsAfter = await Promise.all(products.map((p) => p.records()));
    const landed = products.map((p, i) => ({ toggles: p.okAll - okBefore[i]!, records: recordsAfter[i]! - recordsBefore[i]! }));
    // The recorded floor server's toggles are in changeledger's ledger too.
    const floorRecorded = floors[1] ? floors[1].okAll - okBefore[3]! : 0;
    landed[0]!.toggles += floorRecorded;

    // Storage is compared on the shared PostgreSQL only: PGlite keeps its pages in its own process.
    const pgClients = clients.every((c) => c !== null) ? clients : null;
    if (pgClients && opts.records > 0) {
      say(`\nfilling each audit table to ${int(opts.records)} records (untimed) ...`);
      for (const [i, p] of products.entries()) await fill(p, pgClients[i]!, opts.records, opts.concurrency);
    }
    const sized = pgClients
      ? await Promise.all(products.map(async (p, i) => {
          await pgClients[i]!.query(`VACUUM ANALYZE ${p.auditTable}`);
          return storage(pgClients[i]!, p.auditTable);
        }))
      : null;

    // ---- the report ----
    const sum = windows.map((ws) => {
      const seconds = ws.reduce((a, w) => a + w.seconds, 0);
      const ok = ws.reduce((a, w) => a + w.ok, 0);
      const all = ws.flatMap((w) => w.latencies);
      const errs: Record<string, number> = {};
      for (const w of ws) for (const [k, v] of Object.entries(w.statuses)) if (!/^2\d\d$/.test(k)) errs[k] = (errs[k] ?? 0) + v;
      return {
        rps: ok / seconds, stats: latencyStats(all), ok, errors: all.length - ok, errs,
        cpuPerToggle: ws.reduce((a, w) => a + w.cpuMs, 0) / Math.max(1, ok), pgPerToggle: ws.reduce((a, w) => a + w.pgCpuMs, 0) / Math.max(1, ok),
        rpsRange: ws.map((w) => w.ok / w.seconds),
      };
    });
    const [cl, un] = sum as [typeof sum[0], typeof sum[0]];
    const ratio = cl.rps / un.rps;
    const p99Ratio = cl.stats.p99 / un.stats.p99;
    const perRecord = sized?.map((s) => s.total / Math.max(1, s.records));
    const range = (v: number[]) => `${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))}`;

    say('\n================ changeledger vs Unleash: flag toggles over HTTP ================');
    for (const line of machine()) say(line);
    say(`PostgreSQL ${settings.rows.map((r) => `${r.name}=${r.setting}`).join(' ')}; load average at the end ${busy()}`);
    if (products[0].embedded) say('changeledger runs on PGlite, its database inside its own process: its CPU and RSS include the database\'s; Unleash runs on the PostgreSQL above.');
    say('');
    const storageRows = (sized: Storage[], perRecord: number[]) => {
      const storageRatio = perRecord[0]! / perRecord[1]!;
      return [
        [`bytes a record (${int(sized[0]!.records)} / ${int(sized[1]!.records)} records)`, int(perRecord[0]!), int(perRecord[1]!), `${storageRatio.toFixed(2)}× (goal ≤ ${GOAL_STORAGE_RATIO}×: ${storageRatio <= GOAL_STORAGE_RATIO ? 'met' : 'MISSED'})`],
        ['  of which the table (heap and TOAST)', int(sized[0]!.table / Math.max(1, sized[0]!.records)), int(sized[1]!.table / Math.max(1, sized[1]!.records)), ''],
        ['  of which indexes', `${int(sized[0]!.indexes / Math.max(1, sized[0]!.records))} (${sized[0]!.perIndex.length})`, `${int(sized[1]!.indexes / Math.max(1, sized[1]!.records))} (${sized[1]!.perIndex.length})`, ''],
      ];
    };
    say(table(['', products[0].name, `Unleash ${UNLEASH_VERSION}`, 'changeledger / Unleash'], [
      ['toggles/s', `${int(cl.rps)} (windows ${range(cl.rpsRange)})`, `${int(un.rps)} (windows ${range(un.rpsRange)})`, `${ratio.toFixed(2)}× (goal ≥ ${GOAL_RATIO}×: ${ratio >= GOAL_RATIO ? 'met' : 'MISSED'})`],
      ['p50', `${ms(cl.stats.p50)} ms`, `${ms(un.stats.p50)} ms`, `${(cl.stats.p50 / un.stats.p50).toFixed(2)}×`],
      ['p99', `${ms(cl.stats.p99)} ms`, `${ms(un.stats.p99)} ms`, `${p99Ratio.toFixed(2)}× (goal ≤ 1×: ${p99Ratio <= 1 ? 'met' : 'MISSED'})`],
      ['errors', `${cl.errors}${cl.errors ? ` ${JSON.stringify(cl.errs)}` : ''}`, `${un.errors}${un.errors ? ` ${JSON.stringify(un.errs)}` : ''}`, ''],
      ['CPU a toggle: server process', `${ms(cl.cpuPerToggle)} ms`, `${ms(un.cpuPerToggle)} ms`, `${(cl.cpuPerToggle / un.cpuPerToggle).toFixed(2)}×`],
      products[0].embedded
        ? ['CPU a toggle: PostgreSQL', '(in the server process)', `${ms(un.pgPerToggle)} ms`, '']
        : ['CPU a toggle: PostgreSQL', `${ms(cl.pgPerToggle)} ms`, `${ms(un.pgPerToggle)} ms`, `${(cl.pgPerToggle / un.pgPerToggle).toFixed(2)}×`],
      products[0].embedded
        ? ['CPU a toggle: both', `${ms(cl.cpuPerToggle)} ms`, `${ms(un.cpuPerToggle + un.pgPerToggle)} ms`, `${(cl.cpuPerToggle / (un.cpuPerToggle + un.pgPerToggle)).toFixed(2)}×`]
        : ['CPU a toggle: both', `${ms(cl.cpuPerToggle + cl.pgPerToggle)} ms`, `${ms(un.cpuPerToggle + un.pgPerToggle)} ms`, `${((cl.cpuPerToggle + cl.pgPerToggle) / (un.cpuPerToggle + un.pgPerToggle)).toFixed(2)}×`],
      ['RSS idle (flags made, before the load)', mib(idleRss[0]), mib(idleRss[1]), ''],
      [`RSS after the load (${opts.profile ? STATS_SETTLE_MS / 1000 : 3} s later)`, mib(afterRss[0]), mib(afterRss[1]), `${((afterRss[0] ?? NaN) / (afterRss[1] ?? NaN)).toFixed(2)}× (goal ≤ 1×: ${(afterRss[0] ?? Infinity) <= (afterRss[1] ?? 0) ? 'met' : 'MISSED'})`],
      ['RSS high-water mark', mib(hwm[0]), mib(hwm[1]), ''],
      ['records written a toggle', (landed[0]!.records / Math.max(1, landed[0]!.toggles)).toFixed(2), (landed[1]!.records / Math.max(1, landed[1]!.toggles)).toFixed(2), ''],
      ...(sized && perRecord ? storageRows(sized, perRecord) : []),
    ]));
    const everyOne = landed[0]!.records === landed[0]!.toggles;
    say(`\nchangeledger ledger (audit verify: every chain intact): ${int(landed[0]!.toggles)} toggles answered 2xx during the load (warm-ups included${floorRecorded ? `; ${int(floorRecorded)} of them by the recorded floor server` : ''}), ${int(landed[0]!.records)} audit records written: ${everyOne ? 'every toggle is in the ledger' : 'MISMATCH'}`);
    if (floors.length > 0) {
      say('\nThe floor (--floor): bare node:http servers on changeledger\'s database, no framework, schema check or log line, in the same rounds (bench/toggle-floor-server.ts)');
      const unCpu = un.cpuPerToggle + un.pgPerToggle;
      say(table(['server', 'toggles/s', 'p50 / p99', 'errors', 'CPU a toggle: server + PostgreSQL', 'toggles/s ÷ Unleash\'s', 'Unleash\'s CPU a toggle ÷ this one\'s'], [0, 2, 3].map((i) => {
        const a = sum[i]!;
        const both = a.cpuPerToggle + a.pgPerToggle;
        return [arms[i]!.name, `${int(a.rps)} (windows ${range(a.rpsRange)})`, `${ms(a.stats.p50)} / ${ms(a.stats.p99)} ms`, `${a.errors}${a.errors ? ` ${JSON.stringify(a.errs)}` : ''}`,
          `${ms(a.cpuPerToggle)} + ${ms(a.pgPerToggle)} = ${ms(both)} ms`, `${(a.rps / un.rps).toFixed(2)}×`, `${(unCpu / both).toFixed(2)}×`];
      })));
    }
    if (sized) {
      for (const [i, p] of products.entries()) {
        say(`${p.name} ${p.auditTable} indexes: ${sized[i]!.perIndex.map((x) => `${x.name} ${int(x.bytes / Math.max(1, sized[i]!.records))} B/record`).join(', ')}`);
      }
      if (opts.records === 0) say(`(bytes a record at the size the load left; --records 200000 measures at the issue's size)`);
    } else {
      say('(storage is compared on PostgreSQL: run without --engine pglite)');
    }
    if (opts.profile) printProfile(products, profiles);
    if (!everyOne) process.exitCode = 1;
  } finally {
    await cleanup.run();
  }
}
