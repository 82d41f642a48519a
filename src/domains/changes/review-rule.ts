/**
 * When a change asks for a post-implementation review (PIR). Pure.
 *
 * A change that has run (evaluating, reported, or finished at some time) needs a review when it
 * was an emergency, when it was rolled back (the outcome said so, or the rollback path completed),
 * or when its verdict found an outage or a significant impact. A change that never ran needs none,
 * whatever it was: nothing happened to review. Each cause is one reason, in words a person reads.
 */
import type { ChangeStatus } from './change-lifecycle.js';

/** A review not written this long after the change finished is overdue, and its owner is reminded once. */
export const REVIEW_GRACE_DAYS = 3;
export const REVIEW_GRACE_MS = REVIEW_GRACE_DAYS * 86_400_000;
/** Verdict impacts that ask for a review. */
export const REVIEW_IMPACTS = ['outage', 'significant'] as const;

export type ReviewFacts = {
  status: ChangeStatus;
  finishedAt: string | null;
  changeClass: string;
  outcome: string | null;
  /** What became of the change's rollback path (changes.rollback_state). */
  rollbackState: 'requested' | 'rolled_back' | 'failed' | null;
  /** The verdict's impact of its latest report. */
  impact: string | null;
};

export type ReviewRequirement = { required: boolean; reasons: string[] };

/** Whether the change has run: only then is there something to review. */
export function hasRun(f: Pick<ReviewFacts, 'status' | 'finishedAt'>): boolean {
  return f.status === 'evaluating' || f.status === 'reported' || f.finishedAt !== null;
}

export function reviewRequirement(f: ReviewFacts): ReviewRequirement {
  if (!hasRun(f)) return { required: false, reasons: [] };
  const reasons: string[] = [];
  if (f.changeClass === 'emergency') reasons.push('an emergency change');
  if (f.outcome === 'rolled_back' || f.rollbackState === 'rolled_back') reasons.push('it was rolled back');
  if (f.impact !== null && (REVIEW_IMPACTS as readonly string[]).includes(f.impact)) reasons.push(`its verdict was ${f.impact}`);
  return { required: reasons.length > 0, reasons };
}

/** Overdue: required, none written, and more than REVIEW_GRACE_DAYS since the change finished. */
export function isOverdue(finishedAt: string | null, now: Date): boolean {
  return finishedAt !== null && now.getTime() - new Date(finishedAt).getTime() > REVIEW_GRACE_MS;
}
