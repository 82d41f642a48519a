import { beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { SettableClock } from '../clock.js';
import { openDatabase, type Database } from '../db/database.js';
import { retryDelayMs, type JobHandler } from './job.js';
import { findJob, scheduleJob } from './job-queue.js';
import { JobWorker } from './job-worker.js';

let kindCounter = 0;
const uniqueKind = (base: string) => `${base}.${++kindCounter}.${Math.random().toString(36).slice(2, 6)}`;

async function schedule(db: Database, clock: SettableClock, kind: string, runAt: Date, extra: { dedupeKey?: string; maxAttempts?: number; payload?: Record<string, unknown> } = {}) {
  return db.transaction((tx) => scheduleJob(tx, clock, { kind, runAt, ...extra }));
}

describeEachEngine('the durable job worker', (engine) => {
  const clock = new SettableClock('2026-03-01T10:00:00.000Z');

  beforeAll(async () => {
    await engine.db().exec('CREATE TABLE IF NOT EXISTS test_job_effects (job_id text NOT NULL, worker text NOT NULL)');
  });

  const recording = (worker: string): JobHandler<unknown> => ({
    commit: async (tx, job) => {
      await tx.query('INSERT INTO test_job_effects (job_id, worker) VALUES ($1, $2)', [job.id, worker]);
    },
  });

  it('runs a job once it is due, and not before', async () => {
    const kind = uniqueKind('timer');
    const id = (await schedule(engine.db(), clock, kind, new Date('2026-03-01T10:05:00Z')))!;
    const w = new JobWorker({ db: engine.db(), clock, handlers: { [kind]: recording('w1') } });
    expect(await w.runOnce()).toBe(0);
    clock.set('2026-03-01T10:05:00.000Z');
    expect(await w.runOnce()).toBe(1);
    expect(await w.runOnce()).toBe(0);
    expect((await findJob(engine.db(), id))!.status).toBe('done');
    const effects = await engine.db().query('SELECT * FROM test_job_effects WHERE job_id = $1', [id]);
    expect(effects.rows).toHaveLength(1);
  });

  it('ignores a second schedule with the same dedupe key', async () => {
    const kind = uniqueKind('dedupe');
    const key = `${kind}:expiry`;
    expect(await schedule(engine.db(), clock, kind, clock.now(), { dedupeKey: key })).not.toBeNull();
    expect(await schedule(engine.db(), clock, kind, clock.now(), { dedupeKey: key })).toBeNull();
  });

  it('retries a failing job with growing backoff and gives up after its attempts, rolling back its effects each time', async () => {
    const kind = uniqueKind('flaky');
    const id = (await schedule(engine.db(), clock, kind, clock.now(), { maxAttempts: 3 }))!;
    const failing: JobHandler<unknown> = {
      commit: async (tx, job) => {
        await tx.query('INSERT INTO test_job_effects (job_id, worker) VALUES ($1, $2)', [job.id, 'flaky']);
        throw new Error('receiver answered 503');
      },
    };
    const w = new JobWorker({ db: engine.db(), clock, handlers: { [kind]: failing } });
    expect(await w.runOnce()).toBe(1);
    let job = (await findJob(engine.db(), id))!;
    expect(job).toMatchObject({ status: 'pending', attempts: 1, lastError: 'receiver answered 503' });
    expect(Date.parse(job.runAt) - clock.now().getTime()).toBe(retryDelayMs(1, id));
    expect(await w.runOnce()).toBe(0);
    clock.advance(retryDelayMs(1, id));
    await w.runOnce();
    job = (await findJob(engine.db(), id))!;
    expect(job.attempts).toBe(2);
    expect(Date.parse(job.runAt) - clock.now().getTime()).toBe(retryDelayMs(2, id));
    expect(retryDelayMs(2, id)).toBeGreaterThan(retryDelayMs(1, id));
    clock.advance(retryDelayMs(2, id));
    await w.runOnce();
    expect((await findJob(engine.db(), id))!.status).toBe('dead');
    const effects = await engine.db().query('SELECT * FROM test_job_effects WHERE job_id = $1', [id]);
    expect(effects.rows).toHaveLength(0);
  });

  it('takes over a job whose worker died holding it, once the lease runs out', async () => {
    const kind = uniqueKind('orphan');
    const id = (await schedule(engine.db(), clock, kind, clock.now()))!;
    const dead = new JobWorker({ db: engine.db(), clock, handlers: { [kind]: recording('dead') }, leaseMs: 30_000 });
    expect((await dead.claim()).map((j) => j.id)).toEqual([id]);
    const alive = new JobWorker({ db: engine.db(), clock, handlers: { [kind]: recording('alive') }, leaseMs: 30_000 });
    expect(await alive.runOnce()).toBe(0);
    clock.advance(30_000);
    expect(await alive.runOnce()).toBe(1);
    const effects = await engine.db().query<{ worker: string }>('SELECT worker FROM test_job_effects WHERE job_id = $1', [id]);
    expect(effects.rows.map((r) => r.worker)).toEqual(['alive']);
  });

  it('rolls back the effects of a worker that finishes after losing its lease', async () => {
    const kind = uniqueKind('slow');
    const id = (await schedule(engine.db(), clock, kind, clock.now()))!;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const slow = new JobWorker({ db: engine.db(), clock, leaseMs: 10_000, handlers: { [kind]: { perform: async () => gate, commit: recording('slow').commit } } });
    const running = slow.runOnce();
    await new Promise((r) => setTimeout(r, 50));
    clock.advance(10_000);
    const fast = new JobWorker({ db: engine.db(), clock, handlers: { [kind]: recording('fast') } });
    expect(await fast.runOnce()).toBe(1);
    release();
    await running;
    const effects = await engine.db().query<{ worker: string }>('SELECT worker FROM test_job_effects WHERE job_id = $1', [id]);
    expect(effects.rows.map((r) => r.worker)).toEqual(['fast']);
  });

  it('holds the claim of a kind with a longer lease for that long: a slow perform past the worker\'s lease is not taken over', async () => {
    const kind = uniqueKind('long');
    const id = (await schedule(engine.db(), clock, kind, clock.now()))!;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const long = new JobWorker({ db: engine.db(), clock, leaseMs: 10_000, handlers: { [kind]: { leaseMs: 60_000, perform: async () => gate, commit: recording('long').commit } } });
    const running = long.runOnce();
    await new Promise((r) => setTimeout(r, 50));
    clock.advance(30_000);
    const other = new JobWorker({ db: engine.db(), clock, handlers: { [kind]: recording('other') } });
    expect(await other.runOnce()).toBe(0);
    release();
    await running;
    const effects = await engine.db().query<{ worker: string }>('SELECT worker FROM test_job_effects WHERE job_id = $1', [id]);
    expect(effects.rows.map((r) => r.worker)).toEqual(['long']);
  });

  it('two workers (two connection pools: two servers) never run the same job twice', async () => {
    const kind = uniqueKind('shared');
    const n = 120;
    await engine.db().transaction(async (tx) => {
      for (let i = 0; i < n; i++) await scheduleJob(tx, clock, { kind, runAt: clock.now() });
    });
    const second: Database = engine.name === 'postgres' ? await openDatabase({ engine: 'postgres', url: engine.url() }) : engine.db();
    try {
      const handlers = (w: string) => ({ [kind]: { perform: async () => new Promise<void>((r) => setImmediate(r)), commit: recording(w).commit } });
      const a = new JobWorker({ db: engine.db(), clock, handlers: handlers('a'), batchSize: 5 });
      const b = new JobWorker({ db: second, clock, handlers: handlers('b'), batchSize: 5 });
      const drain = async (w: JobWorker) => {
        let total = 0;
        for (let ran = await w.runOnce(); ran > 0; ran = await w.runOnce()) total += ran;
        return total;
      };
      const [ra, rb] = await Promise.all([drain(a), drain(b)]);
      expect(ra + rb).toBe(n);
      if (engine.name === 'postgres') expect(Math.min(ra, rb)).toBeGreaterThan(0);
      const r = await engine.db().query<{ runs: number; jobs: number }>(
        `SELECT count(*)::int AS runs, count(DISTINCT e.job_id)::int AS jobs FROM test_job_effects e JOIN jobs j ON j.id = e.job_id WHERE j.kind = $1`,
        [kind],
      );
      expect(r.rows[0]).toEqual({ runs: n, jobs: n });
    } finally {
      if (second !== engine.db()) await second.close();
    }
  });

  if (engine.name === 'pglite')
  it('keeps pending jobs across a restart of the process (store closed and reopened)', async () => {
    const kind = uniqueKind('restart');
    const id = (await schedule(engine.db(), clock, kind, clock.now()))!;
    await engine.db().close();
    const reopened = await openDatabase({ engine: 'pglite', dataDir: engine.dataDir() });
    try {
      const w = new JobWorker({ db: reopened, clock, handlers: { [kind]: recording('after-restart') } });
      expect(await w.runOnce()).toBe(1);
      expect((await findJob(reopened, id))!.status).toBe('done');
    } finally {
      await reopened.close();
    }
  });
});
