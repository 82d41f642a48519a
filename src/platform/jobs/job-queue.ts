import type { Clock } from '../clock.js';
import type { Queryable, Row, Tx } from '../db/database.js';
import { newId } from '../ids.js';
import type { Job } from './job.js';

export type NewJob = {
  kind: string;
  runAt: Date;
  payload?: Record<string, unknown>;
  orgId?: string | null;
  /** A second schedule with the same key is ignored: timers are set idempotently. */
  dedupeKey?: string;
  maxAttempts?: number;
};

type JobRow = Row & {
  id: string; org_id: string | null; kind: string; dedupe_key: string | null; payload: Record<string, unknown>;
  run_at: Date; status: Job['status']; attempts: number; max_attempts: number;
};

export const toJob = (r: JobRow): Job => ({
  id: r.id, orgId: r.org_id, kind: r.kind, dedupeKey: r.dedupe_key, payload: r.payload,
  runAt: new Date(r.run_at).toISOString(), status: r.status, attempts: r.attempts, maxAttempts: r.max_attempts,
});

/** Schedules a job inside the caller's transaction, so it exists exactly when the write does. */
export async function scheduleJob(tx: Tx, clock: Clock, job: NewJob): Promise<string | null> {
  const id = newId('job');
  const now = clock.now().toISOString();
  const r = await tx.query(
    `INSERT INTO jobs (id, org_id, kind, dedupe_key, payload, run_at, status, max_attempts, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $8)
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [id, job.orgId ?? null, job.kind, job.dedupeKey ?? null, JSON.stringify(job.payload ?? {}), job.runAt.toISOString(), job.maxAttempts ?? 10, now],
  );
  return r.rowCount > 0 ? id : null;
}

/**
 * Many jobs in one statement (one round trip), each as scheduleJob would add it; a job whose
 * dedupe key exists already is skipped. Answers how many were added.
 */
export async function scheduleJobs(tx: Tx, clock: Clock, jobs: readonly NewJob[]): Promise<number> {
  if (!jobs.length) return 0;
  const now = clock.now().toISOString();
  const r = await tx.query(
    `INSERT INTO jobs (id, org_id, kind, dedupe_key, payload, run_at, status, max_attempts, created_at, updated_at)
     SELECT v.id, v.org_id, v.kind, v.dedupe_key, v.payload::jsonb, v.run_at, 'pending', v.max_attempts, $8, $8
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::int[]) AS v(id, org_id, kind, dedupe_key, payload, run_at, max_attempts)
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [jobs.map(() => newId('job')), jobs.map((j) => j.orgId ?? null), jobs.map((j) => j.kind), jobs.map((j) => j.dedupeKey ?? null),
      jobs.map((j) => JSON.stringify(j.payload ?? {})), jobs.map((j) => j.runAt.toISOString()), jobs.map((j) => j.maxAttempts ?? 10), now],
  );
  return r.rowCount;
}

export async function findJob(db: Queryable, id: string): Promise<(Job & { lastError: string | null }) | null> {
  const r = await db.query<JobRow & { last_error: string | null }>('SELECT * FROM jobs WHERE id = $1', [id]);
  const row = r.rows[0];
  return row ? { ...toJob(row), lastError: row.last_error } : null;
}
