import { request, withSignal } from './client';
import type { ReviewInput, ReviewsDue, ReviewView } from './review-types';

// Post-implementation reviews: a change's (whether it needs one, the latest version) and the
// organisation's changes whose review is due.

const reviewPath = (id: string): string => `/api/changes/${encodeURIComponent(id)}/review`;

export const reviewApi = {
  review: (id: string, signal?: AbortSignal): Promise<ReviewView> => request<ReviewView>('GET', reviewPath(id), withSignal(signal)),
  /** A new version; 400 names the field (summary, followUps.2.due), 409 before the change ran. */
  submit: (id: string, body: ReviewInput): Promise<ReviewView> => request<ReviewView>('POST', reviewPath(id), { body }),
  due: (signal?: AbortSignal): Promise<ReviewsDue> => request<ReviewsDue>('GET', '/api/reviews/due', withSignal(signal)),
};
