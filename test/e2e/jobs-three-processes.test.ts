import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { scheduleJobs } from '../../src/platform/jobs/job-queue.js';
import { packageRoot } from '../../src/platform/paths.js';
import { emptyPostgresDatabase, engineNames } from '../support/engines.js';

// Three processes running the product's job worker on one PostgreSQL: every timer and outbox job
// runs exactly once, and the jobs a process held when it was killed with -9 run again elsewhere
// once their lease is over, still once in effect (its uncommitted work left nothing behind).

const hasPostgres = engineNames().includes('postgres');
if (!hasPostgres) console.warn('no PostgreSQL reachable: the three-process job test is skipped');
const WORKER = join(packageRoot, 'test', 'support', 'count-worker.ts');

type Worker = { id: string; child: ChildProcess };

describe.runIf(hasPostgres)('the job table worked by three processes', () => {
  let pg: { url: string; drop(): Promise<void> };
  let db: Database;
  let workers: Worker[] = [];

  const spawnWorker = (id: string, env: Record<string, string>): Promise<Worker> => new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], { cwd: packageRoot, env: { ...process.env, DATABASE_URL: pg.url, WORKER_ID: id, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve({ id, child });
    });
    child.once('exit', (code) => reject(new Error(`worker ${id} exited (${String(code)}) before it was ready:\n${err}`)));
  });
  const three = async (label: string, env: Record<string, string>) => {
    workers = await Promise.all(['a', 'b', 'c'].map((n) => spawnWorker(`${label}-${n}`, env)));
    return workers;
  };
  const schedule = async (n: number) => db.transaction((tx) => scheduleJobs(tx, systemClock, Array.from({ length: n }, () => ({ kind: 'test.count', runAt: new Date(0) }))));
  const count = async (sql: string, params: unknown[] = []) => Number((await db.query<{ n: number }>(sql, params)).rows[0]!.n);
  const allDone = async (timeoutMs: number) => {
    await expect.poll(() => count(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'test.count' AND status <> 'done'`), { timeout: timeoutMs, interval: 200 }).toBe(0);
  };

  beforeAll(async () => {
    pg = await emptyPostgresDatabase('jobs3');
    db = await openDatabase({ engine: 'postgres', url: pg.url });
    await migrate(db);
    await db.query('CREATE TABLE job_runs (job_id text NOT NULL, worker text NOT NULL)');
  }, 60_000);
  afterEach(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => (w.child.exitCode === null && w.child.signalCode === null ? new Promise((r) => w.child.once('exit', r)) : null)));
    workers = [];
    await db.query('DELETE FROM job_runs');
    await db.query(`DELETE FROM jobs WHERE kind = 'test.count'`);
  }, 30_000);
  afterAll(async () => {
    await db?.close();
    await pg?.drop();
  });

  it('runs each of 500 due jobs exactly once, shared among the three', async () => {
    await three('even', {});
    await schedule(500);
    await allDone(120_000);
    expect(await count('SELECT count(*)::int AS n FROM job_runs')).toBe(500);
    expect(await count('SELECT count(DISTINCT job_id)::int AS n FROM job_runs')).toBe(500);
    const by = (await db.query<{ worker: string; n: number }>('SELECT worker, count(*)::int AS n FROM job_runs GROUP BY worker')).rows;
    expect(by.length).toBeGreaterThan(1);
    expect(await count(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'test.count' AND attempts <> 1`)).toBe(0);
  }, 180_000);

  it('a process killed with -9 mid-batch: the jobs it held run again on the others once its lease is over, each once in effect', async () => {
    // Slow performs and a short lease (still well over a batch of ten): the killed process is sure
    // to hold jobs it never finished, and the others take them over within seconds.
    const [victim] = await three('kill', { PERFORM_MS: '150', LEASE_MS: '4000' });
    await schedule(60);
    await expect.poll(() => count(`SELECT count(*)::int AS n FROM jobs WHERE locked_by = $1 AND status = 'running'`, [victim!.id]), { timeout: 30_000, interval: 20 }).toBeGreaterThan(0);
    victim!.child.kill('SIGKILL');
    await new Promise((r) => victim!.child.once('exit', r));
    const held = (await db.query<{ id: string }>(`SELECT id FROM jobs WHERE locked_by = $1 AND status = 'running'`, [victim!.id])).rows.map((r) => r.id);
    expect(held.length).toBeGreaterThan(0);
    await allDone(120_000);
    expect(await count('SELECT count(*)::int AS n FROM job_runs')).toBe(60);
    expect(await count('SELECT count(DISTINCT job_id)::int AS n FROM job_runs')).toBe(60);
    // What it held was taken over: run by another process, on a later attempt. (A commit it had
    // already sent when it died may still have landed: that job ran once, on its first attempt.)
    const runs = (await db.query<{ job_id: string; worker: string; attempts: number }>(
      'SELECT r.job_id, r.worker, j.attempts FROM job_runs r JOIN jobs j ON j.id = r.job_id WHERE r.job_id = ANY($1::text[])', [held],
    )).rows;
    expect(runs).toHaveLength(held.length);
    const elsewhere = runs.filter((r) => r.worker !== victim!.id);
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const r of elsewhere) expect(r.attempts, r.job_id).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
