import type { Clock } from '../clock.js';
import type { Tx } from '../db/database.js';
import type { Job, JobHandler } from '../jobs/job.js';
import { scheduleJob } from '../jobs/job-queue.js';
import type { MailAttachment, Mailer, MailResult } from './mailer.js';

export const MAIL_JOB = 'mail.send';
/** With the job table's backoff (5 s doubling, capped at an hour) about four and a half hours of attempts. */
export const MAIL_MAX_ATTEMPTS = 14;

export type MailJobPayload = { to: string; subject: string; text: string; html: string; attachments?: MailAttachment[] };

/**
 * Puts one message into the outbox inside the caller's transaction: it exists exactly when the
 * write that caused it commits. The dedupe key names the occasion and the recipient, so the
 * same occasion never mails the same person twice. Answers whether a job was added.
 */
export async function scheduleMail(tx: Tx, clock: Clock, m: MailJobPayload & { orgId: string | null; dedupeKey: string }): Promise<boolean> {
  const payload: MailJobPayload = { to: m.to, subject: m.subject, text: m.text, html: m.html, ...(m.attachments?.length ? { attachments: m.attachments } : {}) };
  const id = await scheduleJob(tx, clock, { kind: MAIL_JOB, orgId: m.orgId, runAt: clock.now(), payload, dedupeKey: m.dedupeKey, maxAttempts: MAIL_MAX_ATTEMPTS });
  return id !== null;
}

/**
 * Sends in `perform` (outside any transaction). A throw reschedules the job with backoff; the
 * message id is the job's, the same on every attempt, for a receiver to drop a repeat.
 */
export function mailJobHandlers(mailer: Mailer): Record<string, JobHandler<MailResult>> {
  return {
    [MAIL_JOB]: {
      maxAttempts: MAIL_MAX_ATTEMPTS,
      perform: async (job: Job) => mailer.send({ ...(job.payload as MailJobPayload), id: job.id }),
    },
  };
}
