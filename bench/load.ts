/**
 * `npm run bench -- load`: a mixed load on 1 and on 3 `changeledger serve` processes (the built
 * CLI, `node bin/changeledger.js serve --database-url …`) on ONE throw-away PostgreSQL server,
 * side by side in one run: throughput, p50/p99, errors by status, CPU and memory of every process,
 * and what PostgreSQL's sessions were waiting for, against the goals of 3 replicas ≥ 1.3× one
 * replica's throughput and p99 ≤ 100 ms at concurrency 16.
 *
 * No rate limit is bypassed: people's requests carry session cookies (the main listener counts no
 * rate for sessions), pipelines' requests carry API tokens from a pool sized so no token passes its
 * 60 a minute (as many pipelines each with its own token would), OFREP evaluations carry SDK keys
 * (6,000 a minute each, per process). A 429 that happens anyway is counted and shown.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { packageRoot } from '../src/platform/paths.js';
import { findPostgresBin, startCluster } from '../test/support/postgres-cluster.js';
import { busy, Cleanup, machine, parseOptions, positiveInt, say, UsageError } from './bench-support.js';
import type { ChildMessage, Fixtures, PhaseOrder, PhaseResult } from './load-mix.js';
import { machineCpu, Probe, rssKb } from './load-probes.js';
import { merge, report, summary, type Phase } from './load-report.js';
import { cli, ensureBuilt, OWNER, PASSWORD, postmasterPid, seed, startReplica, withDb, type Replica } from './load-servers.js';

const USAGE = `usage: npm run bench -- load [options]
  --concurrency N   requests in flight (closed loop; default 16)
  --seconds N       measured seconds per phase (default 20)
  --warmup N        seconds of load before each measured window (default 5)
  --replicas L      phases, as numbers of serve processes (default 1,3; the ratio is last/first)
  --rounds N        windows each phase's seconds are split into, the phases taking turns (default 2)
  --token-share F   share (0-1) of flag reads, lists, audit pages and toggles sent with an API token
                    to the pipeline listener instead of a session (default 0.25; changes always use a token)
  --tokens N        API tokens made up front, each kept under its 60 requests a minute (default 400)
  --flags N         flags (default 200, over 10 namespaces)
  --skip-build      use the existing dist/ instead of running npm run build first
Mix: 40 % flag reads, 15 % lists, 10 % audit pages, 5 % changes, 25 % flag toggles, 5 % OFREP evaluations.
PostgreSQL: a throw-away cluster from the installed server binaries (fsync=off, as the tests start it).`;

type Options = { concurrency: number; seconds: number; warmup: number; rounds: number; replicas: number[]; tokenShare: number; tokens: number; flags: number; skipBuild: boolean };

function options(args: string[]): Options {
  try {
    const { values, flags } = parseOptions(args, { values: ['concurrency', 'seconds', 'warmup', 'rounds', 'replicas', 'token-share', 'tokens', 'flags'], flags: ['skip-build', 'help'] });
    if (flags.has('help')) throw new UsageError('');
    const replicas = (values.get('replicas') ?? '1,3').split(',').map((r) => positiveInt('replicas', r.trim())!);
    if (replicas.some((r) => r > 16)) throw new UsageError('--replicas: at most 16 processes a phase');
    const shareText = values.get('token-share') ?? '0.25';
    const tokenShare = Number(shareText);
    if (!/^\d*\.?\d+$/.test(shareText) || !(tokenShare >= 0 && tokenShare <= 1)) throw new UsageError(`--token-share must be a number from 0 to 1, got "${shareText}"`);
    const warmupText = values.get('warmup');
    const warmup = warmupText === '0' ? 0 : (positiveInt('warmup', warmupText) ?? 5);
    return {
      concurrency: positiveInt('concurrency', values.get('concurrency')) ?? 16,
      seconds: positiveInt('seconds', values.get('seconds')) ?? 20,
      warmup, replicas, tokenShare,
      rounds: positiveInt('rounds', values.get('rounds')) ?? 2,
      tokens: positiveInt('tokens', values.get('tokens')) ?? 400,
      flags: positiveInt('flags', values.get('flags')) ?? 200,
      skipBuild: flags.has('skip-build'),
    };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${err.message ? `${err.message}\n\n` : ''}${USAGE}`);
    throw err;
  }
}

/** Error-level lines (pino level 50 or 60) of the replicas' JSON logs. */
function logErrors(files: string[]): { count: number; first: string | null } {
  let count = 0;
  let first: string | null = null;
  for (const f of files) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!/"level":(50|60)/.test(line)) continue;
      count++;
      if (!first) {
        try {
          const j = JSON.parse(line) as { msg?: string; err?: { message?: string } };
          first = `${j.msg ?? ''}${j.err?.message ? `: ${j.err.message}` : ''}`.slice(0, 200);
        } catch {
          first = line.slice(0, 200);
        }
      }
    }
  }
  return { count, first };
}

function waitFor<T extends ChildMessage['kind']>(child: ChildProcess, kind: T): Promise<Extract<ChildMessage, { kind: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ChildMessage) => {
      if (m.kind === kind) {
        off();
        resolve(m as Extract<ChildMessage, { kind: T }>);
      } else if (m.kind === 'failed') {
        off();
        reject(new Error(`load generator failed: ${m.message}`));
      }
    };
    const onExit = (code: number | null) => {
      off();
      reject(new Error(`load generator exited (${code})`));
    };
    const off = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

type Ctx = { opts: Options; admin: pg.Client; clusterUrl: string; clusterDir: string; dataDir: string; fixtures: Fixtures };

/** One phase's processes: `n` replicas on their own copy of the seed database. */
type Group = { n: number; db: string; replicas: Replica[]; logs: string[] };

async function startGroup(ctx: Ctx, n: number, cleanup: Cleanup): Promise<Group> {
  const db = `clload_r${n}_${process.pid}`;
  await ctx.admin.query(`CREATE DATABASE ${db} TEMPLATE clload_seed_${process.pid}`);
  cleanup.add(`drop database ${db}`, async () => {
    await ctx.admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  });
  const url = withDb(ctx.clusterUrl, db);
  const replicas: Replica[] = [];
  const logs: string[] = [];
  for (let i = 0; i < n; i++) {
    const logFile = join(ctx.dataDir, `${db}-replica${i + 1}.log`);
    logs.push(logFile);
    const r = await startReplica({ label: `replica ${i + 1}`, databaseUrl: url, dataDir: ctx.dataDir, logFile });
    cleanup.add(`stop ${n}-replica ${r.label}`, () => r.stop());
    replicas.push(r);
  }
  say(`${n} replica(s) on ${db}: ${replicas.map((r) => `pid ${r.pid} ${r.url} + ${r.pipelineUrl}`).join('; ')}`);
  return { n, db, replicas, logs };
}

/** One measured window of one phase: background check, warm-up, then the window with every probe running. */
async function measureWindow(ctx: Ctx, child: ChildProcess, sampler: pg.Client, g: Group, measureMs: number): Promise<Phase> {
  const { opts } = ctx;
  // Other work on the machine takes from the same two cores: measure it with our processes idle.
  const idle0 = machineCpu();
  await new Promise((r) => setTimeout(r, 2000));
  const idle1 = machineCpu();
  const backgroundPct = (100 * (idle1.busy - idle0.busy)) / Math.max(1, idle1.total - idle0.total);
  const loadAvg = busy().split(' ')[0]!;
  const probe = new Probe({
    tracked: [...g.replicas.map((r) => ({ label: r.label, pid: r.pid })), { label: 'load generator', pid: child.pid! }],
    postmasterPid: postmasterPid(ctx.clusterDir), client: sampler, database: g.db, intervalMs: 200, cores: cpus().length,
  });
  const order: PhaseOrder = {
    kind: 'run', label: `${g.n}`, replicas: g.replicas.map((r) => ({ url: r.url, pipelineUrl: r.pipelineUrl })), fixtures: ctx.fixtures,
    concurrency: opts.concurrency, warmupMs: opts.warmup * 1000, measureMs, tokenShare: opts.tokenShare, seed: 42 + g.n,
  };
  const measuring = waitFor(child, 'measuring');
  const done = waitFor(child, 'result');
  child.send(order);
  await measuring;
  const own0 = process.cpuUsage();
  probe.start();
  const result: PhaseResult = await done;
  const probed = await probe.stop();
  const own = process.cpuUsage(own0);
  const p: Phase = {
    replicas: g.n, result, probe: probed, orchestratorPct: ((own.user + own.system) / 1000 / (probed.seconds * 1000)) * 100,
    clientPct: (result.cpuMs / result.elapsedMs) * 100, clientRssKb: Math.max(rssKb(child.pid!) ?? 0, probed.maxRssKb['load generator'] ?? 0),
    logErrors: { count: 0, first: null }, loadAvg, backgroundPct, rpsByWindow: [],
  };
  const s = summary(p);
  say(`  ${g.n} replica(s), ${(measureMs / 1000).toFixed(0)} s: ${Math.round(s.rps)} req/s, p50 ${s.stats.p50.toFixed(1)} ms, p99 ${s.stats.p99.toFixed(1)} ms, ${s.errors} errors; machine ${probed.machineBusyPct.toFixed(0)} % busy (${backgroundPct.toFixed(0)} % before, none of ours)`);
  return p;
}

/**
 * Every phase's processes run side by side, and the phases take turns in short windows (order
 * swapped each round), so load from elsewhere on the machine falls on both alike; one load
 * generator process keeps each phase's token counts from window to window.
 */
async function phases(ctx: Ctx): Promise<Phase[]> {
  const { opts } = ctx;
  const cleanup = new Cleanup();
  try {
    const groups: Group[] = [];
    for (const n of opts.replicas) groups.push(await startGroup(ctx, n, cleanup));
    const child = fork(join(packageRoot, 'bench', 'load-client.ts'), [], { cwd: packageRoot, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    cleanup.add('stop the load generator', () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const sampler = new pg.Client({ connectionString: withDb(ctx.clusterUrl, 'postgres') });
    await sampler.connect();
    cleanup.add('close the sampler connection', () => sampler.end());
    const windows = new Map<number, Phase[]>(groups.map((g) => [g.n, []]));
    const measureMs = (opts.seconds * 1000) / opts.rounds;
    for (let round = 0; round < opts.rounds; round++) {
      say(`\nround ${round + 1} of ${opts.rounds}`);
      for (const g of round % 2 === 0 ? groups : [...groups].reverse()) windows.get(g.n)!.push(await measureWindow(ctx, child, sampler, g, measureMs));
    }
    for (const g of groups) for (const r of g.replicas) await r.stop();
    return groups.map((g) => ({ ...merge(windows.get(g.n)!), logErrors: logErrors(g.logs) }));
  } finally {
    await cleanup.run();
  }
}

export async function run(args: string[]): Promise<void> {
  const opts = options(args);
  const bin = findPostgresBin();
  if (!bin) throw new Error('no PostgreSQL server binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql: this benchmark needs a PostgreSQL server');
  await ensureBuilt(opts.skipBuild);
  for (const line of machine()) say(line);
  const cleanup = new Cleanup();
  try {
    const cluster = await startCluster(bin);
    cleanup.add('stop the throw-away PostgreSQL cluster', () => cluster.stop());
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    cleanup.add('close the admin connection', () => admin.end());
    const settings = await admin.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM unnest(ARRAY['server_version', 'max_connections', 'shared_buffers', 'fsync', 'synchronous_commit']) AS name`,
    );
    say(`PostgreSQL ${settings.rows.map((r) => `${r.name}=${r.setting}`).join(' ')} (throw-away cluster from ${bin}, loopback)`);
    const autogroup = existsSync('/proc/sys/kernel/sched_autogroup_enabled') ? readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() : '?';
    say(`scheduler: sched_autogroup_enabled=${autogroup}${autogroup === '1' ? ' (the kernel shares the cores between sessions first: every process of this benchmark is in one session, so other sessions\' work takes its share whatever the number of replicas)' : ''}`);
    say(`serve: node ${join('bin', 'changeledger.js')} serve --database-url … (LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info (default)'}, JSON log to a file; pool ${process.env.CHANGELEDGER_DB_POOL_SIZE ?? '10 (default)'} connections a process)`);

    const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-load-'));
    cleanup.add(`remove ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }));
    const seedDb = `clload_seed_${process.pid}`;
    await admin.query(`CREATE DATABASE ${seedDb}`);
    cleanup.add(`drop database ${seedDb}`, async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${seedDb} WITH (FORCE)`);
    });
    const seedUrl = withDb(cluster.url, seedDb);
    const t0 = performance.now();
    await cli(['users', 'add', '--email', OWNER, '--role', 'owner', '--password-stdin', '--data', dataDir, '--database-url', seedUrl], `${PASSWORD}\n`);
    const seeder = await startReplica({ label: 'seeder', databaseUrl: seedUrl, dataDir, logFile: join(dataDir, 'seed.log') });
    let fixtures: Fixtures;
    try {
      fixtures = await seed(seeder, { sessions: opts.concurrency, flags: opts.flags, namespaces: 10, services: 50, tokens: opts.tokens, sdkKeys: 8, history: 20 });
    } finally {
      await seeder.stop();
    }
    const seedClient = new pg.Client({ connectionString: seedUrl });
    await seedClient.connect();
    try {
      await seedClient.query('VACUUM ANALYZE');
    } finally {
      await seedClient.end();
    }
    say(`seed (${((performance.now() - t0) / 1000).toFixed(1)} s, through the API of one replica): ${fixtures.flags.length} low-risk boolean flags in ${fixtures.namespaces.length} namespaces, each toggled once in production and staging;`);
    say(`  ${fixtures.services.length} services; ${fixtures.tokens.length} API tokens; ${fixtures.sdkKeys.length} SDK keys (production); ${fixtures.sessions.length} sessions (one per virtual user); 20 changes. Each phase runs on a copy (CREATE DATABASE … TEMPLATE).`);

    const ctx: Ctx = { opts, admin, clusterUrl: cluster.url, clusterDir: cluster.dir, dataDir, fixtures };
    const measured = await phases(ctx);

    say('\n================ changeledger load benchmark ================');
    for (const line of machine()) say(line);
    report(measured, opts);
  } finally {
    await cleanup.run();
  }
}
