/**
 * Post-implementation reviews (PIR): what a person writes about a change after it ran — what
 * happened, the cause, what went well, the follow-ups. review-rule.ts says which changes need one;
 * any change that ran may have one. Each submission is a new version, audited with it; the owner
 * of a change whose review is still missing 3 days after its finish is reminded once, by e-mail
 * (changes that finished more than 30 days ago are not). A reported change's report shows the review.
 */
import type { Clock } from '../../platform/clock.js';
import type { Database, Queryable, Tx } from '../../platform/db/database.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import type { JobHandler } from '../../platform/jobs/job.js';
import type { Principal } from '../auth/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import type { ChangeNotifier, ChangeService } from './change-service.js';
import { readApprovers } from './change-settings.js';
import * as changeStore from './change-store.js';
import { hasRun, isOverdue, REVIEW_GRACE_MS, reviewRequirement } from './review-rule.js';
import * as store from './review-store.js';
import type { FollowUp, Review } from './review-store.js';

export const REVIEW_REMINDER_JOB = 'change.review_reminders';
export const REVIEW_LIMITS = {
  summaryMin: 20, text: 5000, followUps: 20, followUpText: 500, followUpOwner: 200,
} as const;
/** Changes one reminder run takes; a fuller batch brings the next run forward. */
export const REMINDERS_PER_RUN = 200;
/** The due list is cut here (oldest finish first). */
export const MAX_DUE = 500;
/**
 * A change that finished longer ago than this is never reminded: the reminder is a nudge while the
 * change is fresh, and the first run after an upgrade must not mail every old change at once. It
 * stays on Reviews due.
 */
export const REMINDER_MAX_AGE_MS = 30 * 24 * 3_600_000;
const HOUR_MS = 3_600_000;
const CATCH_UP_MS = 1_000;
const SCHEDULER: AuditContext = { actor: { kind: 'system', id: null, name: 'changeledger scheduler' }, source: 'scheduler' };
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export type ReviewInput = { summary: string; cause?: string; whatWentWell?: string; followUps?: FollowUp[] };
export type ReviewView = { required: boolean; reasons: string[]; review: Review | null; versions: number };
export type DueItem = { changeId: string; displayId: string; title: string; finishedAt: string; reasons: string[]; dueSince: string; overdue: boolean };

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
function isDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** The review as it will be stored, or a 400 naming the first bad field. Trims what a person typed. */
export function checkReview(input: ReviewInput): Required<ReviewInput> {
  const L = REVIEW_LIMITS;
  const summary = input.summary.trim();
  if (summary.length < L.summaryMin) throw badRequest(`summary must say what happened in at least ${L.summaryMin} characters`, 'summary');
  if (summary.length > L.text) throw badRequest(`summary is longer than ${L.text} characters`, 'summary');
  const cause = (input.cause ?? '').trim();
  if (cause.length > L.text) throw badRequest(`cause is longer than ${L.text} characters`, 'cause');
  const whatWentWell = (input.whatWentWell ?? '').trim();
  if (whatWentWell.length > L.text) throw badRequest(`whatWentWell is longer than ${L.text} characters`, 'whatWentWell');
  const given = input.followUps ?? [];
  if (given.length > L.followUps) throw badRequest(`at most ${L.followUps} follow-ups`, 'followUps');
  const followUps = given.map((f, i) => {
    const text = f.text.trim();
    const owner = f.owner.trim();
    const field = `followUps.${i}`;
    if (!text || text.length > L.followUpText) throw badRequest(`follow-up ${i + 1} needs a text of 1 to ${L.followUpText} characters`, `${field}.text`);
    if (!owner || owner.length > L.followUpOwner) throw badRequest(`follow-up ${i + 1} needs an owner (an e-mail address or a name) of 1 to ${L.followUpOwner} characters`, `${field}.owner`);
    if (!isDate(f.due)) throw badRequest(`follow-up ${i + 1} needs its due date as YYYY-MM-DD (a real day)`, `${field}.due`);
    return { text, owner, due: f.due };
  });
  return { summary, cause, whatWentWell, followUps };
}

/**
 * Whether the change needs a review and why, and its latest version: what the page and the report
 * show. `impact`: the verdict a report is about to record (the row has the earlier one, or none).
 */
export async function readReview(db: Queryable, changeId: string, impact?: string): Promise<ReviewView | null> {
  const facts = await store.readReviewFacts(db, changeId);
  if (!facts) return null;
  return { ...reviewRequirement(impact === undefined ? facts : { ...facts, impact }), ...(await store.latestReview(db, changeId)) };
}

export class ReviewService {
  constructor(private readonly deps: { db: Database; clock: Clock; notifier: ChangeNotifier; changes: Pick<ChangeService, 'reviseReport'> }) {}

  /** GET /api/changes/{id}/review: whether it needs one and why, the latest version (or null) and how many there are. */
  async view(p: Principal, id: string): Promise<ReviewView> {
    const c = await changeStore.findChange(this.deps.db, p.org.id, id);
    if (!c) throw notFound(`no change ${id}`);
    return (await readReview(this.deps.db, c.id))!;
  }

  /**
   * POST /api/changes/{id}/review: a new version, by a person signed in who answers for the change
   * (its owner, an owner or admin, a designated approver), once it has run. Audited in the same
   * transaction; a refusal writes nothing. A reported change's report is written again with the
   * review as its next version (change.report_revised); one still evaluating gets it at collection.
   */
  async submit(ctx: AuditContext, p: Principal, id: string, input: ReviewInput): Promise<ReviewView> {
    if (p.kind !== 'session') throw forbidden('a post-implementation review is written by a person, signed in — never with an API token');
    const review = checkReview(input);
    return this.deps.db.transaction(async (tx) => {
      const c = await changeStore.findChange(tx, p.org.id, id, true);
      if (!c) throw notFound(`no change ${id}`);
      const answers = c.ownerId === p.user.id || p.role === 'owner' || p.role === 'admin' || (await readApprovers(tx, c.orgId)).some((a) => a.userId === p.user.id);
      if (!answers) throw forbidden('only the change’s owner, an owner or admin of the organisation, or a designated approver writes its review');
      const facts = (await store.readReviewFacts(tx, c.id))!;
      if (!hasRun(facts)) throw conflict(`the change is ${c.status}: it has not run yet, so there is nothing to review`, { status: c.status });
      const need = reviewRequirement(facts);
      const now = this.deps.clock.now().toISOString();
      const version = await store.insertReview(tx, { changeId: c.id, orgId: c.orgId, authorId: p.user.id, createdAt: now, ...review });
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: c.orgId, action: 'change.reviewed', target: { type: 'change', id: c.id },
        data: { version, summary: review.summary, followUps: review.followUps.length, required: need.required, reasons: need.reasons },
      });
      await this.deps.changes.reviseReport(tx, ctx, c.id, 'review');
      return { ...need, ...(await store.latestReview(tx, c.id)) };
    });
  }

  /** GET /api/reviews/due: the organisation's changes that need a review and have none, oldest finish first. */
  async due(p: Principal): Promise<{ items: DueItem[] }> {
    const now = this.deps.clock.now();
    const items: DueItem[] = [];
    for (const c of await store.dueCandidates(this.deps.db, p.org.id, MAX_DUE)) {
      const need = reviewRequirement(c.facts);
      if (!need.required) continue;
      items.push({ changeId: c.changeId, displayId: c.displayId, title: c.title, finishedAt: c.finishedAt, reasons: need.reasons, dueSince: c.finishedAt, overdue: isOverdue(c.finishedAt, now) });
    }
    return { items };
  }

  /**
   * Reminds the owner (and the change's recipients) of each review overdue and never reminded,
   * once: the mark, its audit event and the e-mail commit together. Answers how many, and whether
   * the batch was full (more may wait).
   */
  async sendReminders(tx: Tx): Promise<{ sent: number; more: boolean }> {
    const now = this.deps.clock.now();
    const claimed = await store.claimReminders(tx, {
      finishedBefore: new Date(now.getTime() - REVIEW_GRACE_MS).toISOString(),
      finishedAfter: new Date(now.getTime() - REMINDER_MAX_AGE_MS).toISOString(),
    }, REMINDERS_PER_RUN);
    let sent = 0;
    for (const { changeId, orgId, facts } of claimed) {
      const need = reviewRequirement(facts);
      if (!need.required) continue;
      await store.markReminded(tx, changeId, now.toISOString());
      await appendAtCommit(tx, this.deps.clock, SCHEDULER, {
        orgId, action: 'change.review_reminder_sent', target: { type: 'change', id: changeId },
        data: { reasons: need.reasons, finishedAt: facts.finishedAt },
      });
      const c = (await changeStore.findChange(tx, orgId, changeId))!;
      await this.deps.notifier.notify(tx, c, 'review_due', { reasons: need.reasons });
      sent += 1;
    }
    return { sent, more: claimed.length === REMINDERS_PER_RUN };
  }

  /** The reminder job: hourly; each run schedules the next (one per due time, by its dedupe key). */
  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [REVIEW_REMINDER_JOB]: {
        commit: async (tx: Tx) => {
          const { more } = await this.sendReminders(tx);
          await this.scheduleReminders(tx, more);
        },
      },
    };
  }

  async scheduleReminders(tx: Tx, soon = false): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const next = new Date(soon ? now + CATCH_UP_MS : Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS);
    await scheduleJob(tx, this.deps.clock, { kind: REVIEW_REMINDER_JOB, runAt: next, dedupeKey: `${REVIEW_REMINDER_JOB}:${next.toISOString()}` });
  }
}
