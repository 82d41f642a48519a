// The wire shapes of post-implementation reviews: a change's review and the organisation's
// due list, named from the server's OpenAPI document (./schema.d.ts) as ./types.ts does.
import type { components } from './schema';
import type { Answer, Body } from './types';

type Item<A> = A extends readonly (infer I)[] ? I : never;

export type ReviewView = Answer<'/api/changes/{id}/review', 'get'>;
export type Review = components['schemas']['ChangeReview'];
export type FollowUp = Item<Review['followUps']>;
export type ReviewInput = Body<'/api/changes/{id}/review', 'post'>;
export type ReviewsDue = Answer<'/api/reviews/due', 'get'>;
export type DueReview = Item<ReviewsDue['items']>;
/** The server's own bounds (REVIEW_LIMITS): a summary says what happened in at least 20 characters. */
export const REVIEW_SUMMARY_MIN = 20;
export const MAX_FOLLOW_UPS = 20;
