/** Post-implementation reviews: change_reviews (append-only versions) and the review columns of changes. */
import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import type { ChangeStatus } from './change-lifecycle.js';
import { displayId } from './change-store.js';
import { REVIEW_IMPACTS, type ReviewFacts } from './review-rule.js';

export type FollowUp = { text: string; owner: string; due: string };
export type Review = {
  changeId: string;
  version: number;
  summary: string;
  cause: string;
  whatWentWell: string;
  followUps: FollowUp[];
  author: { id: string; email: string; name: string };
  createdAt: string;
};
export type NewReview = Omit<Review, 'version' | 'author' | 'createdAt'> & { orgId: string; authorId: string; createdAt: string };

type FactsRow = Row & { status: ChangeStatus; finished_at: Date | null; change_class: string | null; outcome: string | null; rollback_state: ReviewFacts['rollbackState']; impact: string | null };
const FACT_COLUMNS = 'c.status, c.finished_at, c.change_class, c.outcome, c.rollback_state, c.impact';
const toFacts = (r: FactsRow): ReviewFacts => ({
  status: r.status, finishedAt: r.finished_at === null ? null : new Date(r.finished_at).toISOString(), changeClass: r.change_class ?? 'normal',
  outcome: r.outcome, rollbackState: r.rollback_state ?? null, impact: r.impact,
});
/**
 * The candidates of the rule, as SQL: a finished change with a cause for a review and none written.
 * The pure rule (review-rule.ts) still gives the reasons; this only keeps the scan short.
 */
const NEEDS_REVIEW = `c.finished_at IS NOT NULL
  AND (c.change_class = 'emergency' OR c.outcome = 'rolled_back' OR c.rollback_state = 'rolled_back' OR c.impact IN (${REVIEW_IMPACTS.map((i) => `'${i}'`).join(', ')}))
  AND NOT EXISTS (SELECT 1 FROM change_reviews r WHERE r.change_id = c.id)`;

/** What the rule needs of one change, read from its row (rollback_state included). */
export async function readReviewFacts(db: Queryable, changeId: string): Promise<ReviewFacts | null> {
  const r = await db.query<FactsRow>(`SELECT ${FACT_COLUMNS} FROM changes c WHERE c.id = $1`, [changeId]);
  return r.rows[0] ? toFacts(r.rows[0]) : null;
}

type ReviewRow = Row & {
  change_id: string; version: number; summary: string; cause: string; what_went_well: string; follow_ups: FollowUp[];
  author_id: string; author_email: string; author_name: string; created_at: Date;
};
const toReview = (r: ReviewRow): Review => ({
  changeId: r.change_id, version: Number(r.version), summary: r.summary, cause: r.cause, whatWentWell: r.what_went_well, followUps: r.follow_ups,
  author: { id: r.author_id, email: r.author_email, name: r.author_name }, createdAt: new Date(r.created_at).toISOString(),
});

/** The latest version of the change's review (null: none written) and how many versions there are. */
export async function latestReview(db: Queryable, changeId: string): Promise<{ review: Review | null; versions: number }> {
  const r = await db.query<ReviewRow>(
    `SELECT r.*, u.email AS author_email, u.display_name AS author_name FROM change_reviews r JOIN users u ON u.id = r.author_id
     WHERE r.change_id = $1 ORDER BY r.version DESC LIMIT 1`,
    [changeId],
  );
  const latest = r.rows[0] ? toReview(r.rows[0]) : null;
  return { review: latest, versions: latest?.version ?? 0 };
}

/** Appends the next version; the caller holds the change's row lock, so versions never collide. */
export async function insertReview(tx: Tx, r: NewReview): Promise<number> {
  const out = await tx.query<{ version: number }>(
    `INSERT INTO change_reviews (change_id, version, org_id, summary, cause, what_went_well, follow_ups, author_id, created_at)
     SELECT $1, coalesce(max(version), 0) + 1, $2, $3, $4, $5, $6::jsonb, $7, $8 FROM change_reviews WHERE change_id = $1
     RETURNING version`,
    [r.changeId, r.orgId, r.summary, r.cause, r.whatWentWell, JSON.stringify(r.followUps), r.authorId, r.createdAt],
  );
  return Number(out.rows[0]!.version);
}

export type DueCandidate = { changeId: string; displayId: string; title: string; finishedAt: string; facts: ReviewFacts };
type DueRow = FactsRow & { id: string; title: string; finished_at: Date };

/** The organisation's finished changes with a cause for a review and none written, oldest finish first. */
export async function dueCandidates(db: Queryable, orgId: string, limit: number): Promise<DueCandidate[]> {
  const r = await db.query<DueRow>(
    `SELECT c.id, c.title, ${FACT_COLUMNS} FROM changes c WHERE c.org_id = $1 AND ${NEEDS_REVIEW} ORDER BY c.finished_at, c.id LIMIT $2`,
    [orgId, limit],
  );
  return r.rows.map((x) => ({ changeId: x.id, displayId: displayId(x.id), title: x.title, finishedAt: new Date(x.finished_at).toISOString(), facts: toFacts(x) }));
}

/**
 * Changes of every organisation whose review is overdue (finished between `finishedAfter` and
 * `finishedBefore`, none written) and whose owner was never reminded, locked for this run: a second
 * worker skips them.
 */
export async function claimReminders(tx: Tx, span: { finishedBefore: string; finishedAfter: string }, limit: number): Promise<Array<{ changeId: string; orgId: string; facts: ReviewFacts }>> {
  const r = await tx.query<FactsRow & { id: string; org_id: string }>(
    `SELECT c.id, c.org_id, ${FACT_COLUMNS} FROM changes c
     WHERE c.review_reminded_at IS NULL AND c.finished_at < $1 AND c.finished_at >= $2 AND ${NEEDS_REVIEW}
     ORDER BY c.finished_at, c.id LIMIT $3 FOR UPDATE OF c SKIP LOCKED`,
    [span.finishedBefore, span.finishedAfter, limit],
  );
  return r.rows.map((x) => ({ changeId: x.id, orgId: x.org_id, facts: toFacts(x) }));
}

export async function markReminded(tx: Tx, changeId: string, at: string): Promise<void> {
  await tx.query('UPDATE changes SET review_reminded_at = $2 WHERE id = $1', [changeId, at]);
}
