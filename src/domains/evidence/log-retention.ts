import type { Clock } from '../../platform/clock.js';
import type { Tx } from '../../platform/db/database.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import type { JobHandler } from '../../platform/jobs/job.js';
import { deleteLogRecordsBefore, orgsWithLogRecords } from './log-store.js';

/**
 * How long OTLP log records are kept: the week-earlier baseline of a report reaches back 7 days
 * plus the window (start → finish + horizon), and a re-evaluation may come a little later, so
 * 9 days. Older records are deleted by an hourly sweep on the durable job table.
 */
export const LOG_RETENTION_DAYS = 9;
export const LOG_SWEEP_JOB = 'evidence.logs-sweep';
/** Records one run deletes per organisation, so that one transaction stays short. */
export const LOG_SWEEP_BATCH = 5_000;
const HOUR_MS = 3_600_000;
/** When a run left records behind (a backlog), the next one comes this soon rather than in an hour. */
const CATCH_UP_MS = 1_000;

/**
 * Not audited: log records are telemetry the organisation sent, not a subject of the ledger, and
 * their intake is not audited either; the rule is documented (docs/evidence.md, Logs).
 */
export async function sweepLogRecords(tx: Tx, now: Date, batch = LOG_SWEEP_BATCH): Promise<{ deleted: number; more: boolean }> {
  const before = new Date(now.getTime() - LOG_RETENTION_DAYS * 24 * HOUR_MS).toISOString();
  let deleted = 0;
  let more = false;
  for (const orgId of await orgsWithLogRecords(tx)) {
    const n = await deleteLogRecordsBefore(tx, orgId, before, batch);
    deleted += n;
    if (n === batch) more = true;
  }
  return { deleted, more };
}

/** Schedules the next sweep: at the next full hour, or soon when a backlog is left. One per due time. */
export async function scheduleLogSweep(tx: Tx, clock: Clock, soon = false): Promise<void> {
  const now = clock.now().getTime();
  const next = new Date(soon ? now + CATCH_UP_MS : Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS);
  await scheduleJob(tx, clock, { kind: LOG_SWEEP_JOB, runAt: next, dedupeKey: `${LOG_SWEEP_JOB}:${next.toISOString()}` });
}

/** The sweep job: its deletes and the next run commit with the job, so a crash repeats nothing twice. */
export function logRetentionJobHandlers(deps: { clock: Clock }): Record<string, JobHandler<unknown>> {
  return {
    [LOG_SWEEP_JOB]: {
      commit: async (tx: Tx) => {
        const { more } = await sweepLogRecords(tx, deps.clock.now());
        await scheduleLogSweep(tx, deps.clock, more);
      },
    },
  };
}
