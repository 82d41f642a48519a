import type { Clock } from '../clock.js';
import type { Tx } from '../db/database.js';
import type { Job, JobHandler } from '../jobs/job.js';
import { scheduleJob, scheduleJobs, type NewJob } from '../jobs/job-queue.js';
import type { MailAttachment, Mailer, MailResult } from './mailer.js';

export const MAIL_JOB = 'mail.send';
/** With the job table's backoff (5 s doubling, capped at an hour) about four and a half hours of attempts. */
export const MAIL_MAX_ATTEMPTS = 14;

export type MailJobPayload = { to: string; subject: string; text: string; html: string; attachments?: MailAttachment[] };
/** A message for the outbox: who, what, and the occasion's dedupe key. */
export type OutboxMail = MailJobPayload & { orgId: string | null; dedupeKey: string };

/**
 * Puts one message into the outbox inside the caller's transaction: it exists exactly when the
 * write that caused it commits. The dedupe key names the occasion and the recipient, so the
 * same occasion never mails the same person twice. Answers whether a job was added.
 */
export async function scheduleMail(tx: Tx, clock: Clock, m: OutboxMail): Promise<boolean> {
  return (await scheduleJob(tx, clock, mailJob(m, clock.now()))) !== null;
}

/** Many messages in one statement, each as scheduleMail would put it. Answers how many were added. */
export async function scheduleMails(tx: Tx, clock: Clock, ms: readonly OutboxMail[]): Promise<number> {
  const runAt = clock.now();
  return scheduleJobs(tx, clock, ms.map((m) => mailJob(m, runAt)));
}

/** The outbox job of a message. */
function mailJob(m: OutboxMail, runAt: Date): NewJob {
  const payload: MailJobPayload = { to: m.to, subject: m.subject, text: m.text, html: m.html, ...(m.attachments?.length ? { attachments: m.attachments } : {}) };
  return { kind: MAIL_JOB, orgId: m.orgId, runAt, payload, dedupeKey: m.dedupeKey, maxAttempts: MAIL_MAX_ATTEMPTS };
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
