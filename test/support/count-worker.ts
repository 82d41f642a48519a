/**
 * The product's job worker in a process of its own, on the PostgreSQL at DATABASE_URL, with one
 * job kind that counts: each run of `test.count` inserts a row into job_runs in the transaction
 * that marks the job done. Several of these on one database show whether every job runs once.
 * WORKER_ID names it; LEASE_MS and PERFORM_MS set its lease and how long each perform takes.
 * Prints "ready" once it polls; runs until it is stopped (or killed).
 */
import { openDatabase } from '../../src/platform/db/database.js';
import { systemClock } from '../../src/platform/clock.js';
import { JobWorker } from '../../src/platform/jobs/job-worker.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL names the PostgreSQL database to work on');
const workerId = process.env.WORKER_ID ?? `count-${process.pid}`;
const performMs = Number(process.env.PERFORM_MS ?? 0);
const db = await openDatabase({ engine: 'postgres', url });
const worker = new JobWorker({
  db, clock: systemClock, workerId, pollMs: 50, leaseMs: Number(process.env.LEASE_MS ?? 60_000),
  handlers: {
    'test.count': {
      perform: async () => {
        if (performMs > 0) await new Promise((r) => setTimeout(r, performMs));
      },
      commit: async (tx, job) => {
        await tx.query('INSERT INTO job_runs (job_id, worker) VALUES ($1, $2)', [job.id, workerId]);
      },
    },
  },
});
worker.start();
process.stdout.write('ready\n');
const stop = async () => {
  await worker.stop();
  await db.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
