import type { Review, ReviewInput } from '../api/review-types';

// A post-implementation review as typed: the texts and the follow-ups, one row each, sent in the
// order shown so the server's field (followUps.2.due) names the row it is about.

export type FollowUpDraft = { key: number; text: string; owner: string; due: string };
export type ReviewDraft = { summary: string; cause: string; whatWentWell: string; followUps: FollowUpDraft[] };

let nextKey = 1;

export function newFollowUp(): FollowUpDraft {
  nextKey += 1;
  return { key: nextKey, text: '', owner: '', due: '' };
}

/** A new version starts from the latest one, when there is one. */
export function reviewDraftOf(review: Review | null): ReviewDraft {
  if (review === null) return { summary: '', cause: '', whatWentWell: '', followUps: [] };
  return {
    summary: review.summary,
    cause: review.cause,
    whatWentWell: review.whatWentWell,
    followUps: review.followUps.map((f) => ({ ...newFollowUp(), text: f.text, owner: f.owner, due: f.due })),
  };
}

/** Every row is sent as typed (trimmed): the server names the one it refuses. */
export function reviewBody(d: ReviewDraft): ReviewInput {
  return {
    summary: d.summary,
    cause: d.cause,
    whatWentWell: d.whatWentWell,
    followUps: d.followUps.map((f) => ({ text: f.text.trim(), owner: f.owner.trim(), due: f.due })),
  };
}

/** The follow-up row a server field names (followUps.2.due → 2), or null. */
export function followUpOfField(field: string | null): number | null {
  const m = field === null ? null : /^followUps\.(\d+)(\.|$)/.exec(field);
  return m === null ? null : Number(m[1]);
}
