/**
 * The validation plan's result, the before-state and rollback of a change, and its
 * post-implementation review, as the report freezes them. Pure: the reads are changes' own (readValidation, listCaptures);
 * this only keeps what a reader of the report needs (no artifact bytes, names rather than ids).
 */
import type { Capture, Change, ReviewView, ValidationView } from '../changes/index.js';
import type { CapturePart, GovernancePart, ReviewPart, ValidationPart } from './evidence-types.js';

/** null when the change has no plan: nothing to validate. */
export function validationPart(v: ValidationView): ValidationPart | null {
  if (!v.plan) return null;
  const rows = new Map(v.rows.map((r) => [r.itemId, r]));
  return {
    result: v.result, reason: v.reason, checkedAt: v.checkedAt, dueAt: v.dueAt,
    items: v.plan.map((i) => {
      const r = rows.get(i.id);
      return {
        id: i.id, target: i.target, check: i.check, read: (i.check === 'promql' ? i.query : i.url) ?? '', expected: { op: i.expected.op, value: i.expected.value },
        row: r ? { state: r.state, observed: r.observed, detail: r.detail, checkedAt: r.checkedAt } : null,
      };
    }),
  };
}

const referenceOf = (c: Capture): string | null => {
  switch (c.method) {
    case 'previous_version': return c.previousVersion;
    case 'previous_commit': case 'base_commit': return c.previousCommit;
    case 'artifact': return c.artifactName;
  }
};

export function governancePart(c: Change, captures: Capture[]): GovernancePart {
  return {
    beforeState: {
      digest: c.captureDigest,
      captures: captures.map((x): CapturePart => ({
        method: x.method, reference: referenceOf(x), completeness: x.completeness, prestateStatus: x.prestateStatus, restorable: x.restorable,
        sizeBytes: x.sizeBytes, sha256: x.sha256, capturedAt: x.capturedAt, capturedBy: x.capturedBy.name,
      })),
    },
    rollback: {
      state: c.rollbackState, requestedAt: c.rollbackRequestedAt, completedAt: c.rollbackCompletedAt,
      releasedBy: (c.rollbackReleasedBy ?? []).map((r) => ({ kind: r.kind, email: r.email, at: r.at })),
      decision: c.rollbackDecision ? { decision: c.rollbackDecision.decision, reason: c.rollbackDecision.reason, at: c.rollbackDecision.at } : null,
    },
  };
}

export function reviewPart(v: ReviewView): ReviewPart {
  const r = v.review;
  return {
    required: v.required, reasons: v.reasons,
    review: r ? {
      version: r.version, summary: r.summary, cause: r.cause, whatWentWell: r.whatWentWell,
      followUps: r.followUps.map((f) => ({ text: f.text, owner: f.owner, due: f.due })), author: r.author.name || r.author.email, createdAt: r.createdAt,
    } : null,
  };
}

/** Whether a report's review part is behind the review as it is now (a version written since). */
export function reviewIsBehind(shown: ReviewPart | undefined, now: ReviewView): boolean {
  return (shown?.review?.version ?? 0) !== (now.review?.version ?? 0);
}
