import type { Tx } from '../db/database.js';

export type JobStatus = 'pending' | 'running' | 'done' | 'dead';

export type Job = {
  id: string;
  orgId: string | null;
  kind: string;
  dedupeKey: string | null;
  payload: Record<string, unknown>;
  runAt: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
};

/**
 * What a job does. `perform` holds effects outside the database (HTTP, SMTP) and must be
 * idempotent, since a crash between it and the commit makes it run again. `commit` holds the
 * database effects; they land in the transaction that marks the job done, or not at all.
 */
export type JobHandler<R = unknown> = {
  perform?(job: Job): Promise<R>;
  commit?(tx: Tx, job: Job, performed: R | undefined): Promise<void>;
  maxAttempts?: number;
  /** How long this kind's claim is held, when its perform may outlast the worker's lease (default 60 s). */
  leaseMs?: number;
};

export const RETRY_BASE_MS = 5_000;
export const RETRY_MAX_MS = 3_600_000;

/**
 * When the next attempt runs: exponential from 5 s, capped at an hour, with ±20 % jitter drawn
 * from the job id so that a burst of failures does not retry in lockstep (and tests stay exact).
 */
export function retryDelayMs(attempts: number, jobId: string): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  let h = 0;
  for (const c of jobId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const jitter = ((h % 401) - 200) / 1000;
  return Math.round(base * (1 + jitter));
}
