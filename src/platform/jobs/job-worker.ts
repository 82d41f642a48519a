import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { newId } from '../ids.js';
import type { Metrics } from '../metrics.js';
import { retryDelayMs, type Job, type JobHandler } from './job.js';
import { toJob } from './job-queue.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';

export type WorkerOptions = {
  db: Database;
  clock: Clock;
  logger?: Logger;
  metrics?: Metrics;
  handlers: Record<string, JobHandler<unknown>>;
  /** How long a claim is held before another worker may take the job over (a crashed holder). */
  leaseMs?: number;
  batchSize?: number;
  pollMs?: number;
  workerId?: string;
};

class LeaseLost extends Error {}

/**
 * Claims due jobs with FOR UPDATE SKIP LOCKED under a lease, so several processes on one
 * PostgreSQL share the table and no row runs twice; a job whose holder died is taken over once
 * its lease has run out.
 */
export class JobWorker {
  readonly id: string;
  readonly #o: Required<Omit<WorkerOptions, 'logger' | 'metrics'>> & Pick<WorkerOptions, 'logger' | 'metrics'>;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #stopped = true;
  #paused = false;

  constructor(o: WorkerOptions) {
    this.id = o.workerId ?? newId('wrk');
    this.#o = { leaseMs: 60_000, batchSize: 10, pollMs: 1_000, workerId: this.id, ...o };
  }

  /** Claims up to `limit` due jobs (or jobs whose lease expired) for this worker. */
  async claim(limit = this.#o.batchSize): Promise<Job[]> {
    const now = this.#o.clock.now();
    const until = new Date(now.getTime() + this.#o.leaseMs).toISOString();
    const kinds = Object.keys(this.#o.handlers);
    if (kinds.length === 0) return [];
    return this.#o.db.transaction(async (tx) => {
      const r = await tx.query(
        `UPDATE jobs SET status = 'running', locked_by = $1, locked_until = $2, attempts = attempts + 1, updated_at = $3
         WHERE id IN (
           SELECT id FROM jobs
           WHERE kind = ANY($4::text[])
             AND ((status = 'pending' AND run_at <= $3) OR (status = 'running' AND locked_until <= $3))
           ORDER BY run_at, id
           LIMIT $5
           FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [this.id, until, now.toISOString(), kinds, limit],
      );
      // RETURNING follows no ORDER BY: due jobs run in the order they were due, then made (UUIDv7 ids).
      return r.rows.map((row) => toJob(row as Parameters<typeof toJob>[0])).sort((a, b) => a.runAt.localeCompare(b.runAt) || a.id.localeCompare(b.id));
    });
  }

  /** One round: claim a batch and run it. Answers how many jobs it ran. */
  async runOnce(): Promise<number> {
    const jobs = await this.claim();
    for (const job of jobs) await this.#run(job);
    return jobs.length;
  }

  async #run(job: Job): Promise<void> {
    const handler = this.#o.handlers[job.kind] as JobHandler<unknown> | undefined;
    const { db, clock } = this.#o;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      if (handler.leaseMs !== undefined && handler.leaseMs > this.#o.leaseMs) {
        // A kind that may work longer than the lease holds its claim longer, so no other worker takes it over meanwhile.
        const held = await db.query(`UPDATE jobs SET locked_until = $3 WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
          [job.id, this.id, new Date(clock.now().getTime() + handler.leaseMs).toISOString()]);
        if (held.rowCount === 0) throw new LeaseLost();
      }
      const performed = handler.perform ? await handler.perform(job) : undefined;
      await db.transaction(async (tx) => {
        const mine = await tx.query(
          `UPDATE jobs SET status = 'done', finished_at = $3, updated_at = $3, locked_by = NULL, locked_until = NULL, last_error = NULL
           WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
          [job.id, this.id, clock.now().toISOString()],
        );
        if (mine.rowCount === 0) throw new LeaseLost();
        if (handler.commit) await handler.commit(tx, job, performed);
      });
      this.#o.metrics?.jobsRun.inc({ kind: job.kind, outcome: 'done' });
    } catch (err) {
      if (err instanceof LeaseLost) {
        this.#o.logger?.warn({ jobId: job.id, kind: job.kind }, 'job lease lost to another worker; its effects were rolled back');
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      const max = handler?.maxAttempts ?? job.maxAttempts;
      const dead = job.attempts >= max;
      const now = clock.now();
      await db.transaction((tx) => tx.query(
        `UPDATE jobs SET status = $3, run_at = $4, last_error = $5, updated_at = $6, locked_by = NULL, locked_until = NULL,
           finished_at = CASE WHEN $3 = 'dead' THEN $6::timestamptz ELSE NULL END
         WHERE id = $1 AND locked_by = $2`,
        [job.id, this.id, dead ? 'dead' : 'pending', new Date(now.getTime() + retryDelayMs(job.attempts, job.id)).toISOString(), message.slice(0, 2000), now.toISOString()],
      ));
      this.#o.metrics?.jobsRun.inc({ kind: job.kind, outcome: dead ? 'dead' : 'retry' });
      this.#o.logger?.[dead ? 'error' : 'warn']({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, dead ? 'job gave up' : 'job failed; will retry');
    }
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Runs soon instead of at the next poll (after an in-process schedule). */
  wake(): void {
    if (this.#stopped || this.#running) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#schedule(0);
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#running = this.#loop().finally(() => {
        this.#running = null;
      });
    }, ms);
    this.#timer.unref();
  }

  async #loop(): Promise<void> {
    let ran = 0;
    try {
      ran = await this.runOnce();
      if (this.#paused) this.#o.logger?.info('job worker resumed: the database answers again');
      this.#paused = false;
    } catch (err) {
      // Without its database the worker pauses: it tries again at its next poll, logging once per outage.
      if (isDatabaseUnavailable(err)) {
        if (!this.#paused) this.#o.logger?.warn({ err: (err as Error).message }, 'job worker paused: the database is not answering');
        this.#paused = true;
      } else {
        this.#o.logger?.error({ err }, 'job worker round failed');
      }
    }
    if (!this.#stopped) this.#schedule(ran >= this.#o.batchSize ? 0 : this.#o.pollMs);
  }

  /** Stops polling and waits for the batch in hand to finish. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
