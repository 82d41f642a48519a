/**
 * The one rule that decides a delivery attempt. Pure: the outbox, the Pipeline card and the
 * tests all read it from here.
 */

/** Waits after attempts 1…7: 1 min, 5 min, 15 min, 1 h, then every 4 h. The 8th attempt is the last. */
export const RETRY_AFTER_MS = [60_000, 300_000, 900_000, 3_600_000, 14_400_000, 14_400_000, 14_400_000] as const;
export const MAX_ATTEMPTS = RETRY_AFTER_MS.length + 1;

/**
 * What one attempt met: an HTTP answer; none (a timeout, a refused connection, a name that does
 * not resolve or no DNS answer — the receiver is unreachable for now); or a refusal before
 * sending (an address or URL the outbound guard refuses, a secret that cannot be opened).
 */
export type AttemptOutcome =
  | { kind: 'answer'; status: number }
  | { kind: 'no-answer'; error: string }
  | { kind: 'refused'; error: string };

export type Decision =
  | { state: 'delivered' }
  | { state: 'retrying'; afterMs: number; why: string }
  | { state: 'failed'; why: string; gaveUp?: true };

export function retryable(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** `attempt` is the number of the attempt just made, from 1. */
export function decide(attempt: number, outcome: AttemptOutcome): Decision {
  let why: string;
  if (outcome.kind === 'answer') {
    const s = outcome.status;
    if (s >= 200 && s <= 299) return { state: 'delivered' };
    if (!retryable(s)) {
      return { state: 'failed', why: s >= 300 && s <= 399 ? `answered ${s} (redirects are not followed)` : `answered ${s}` };
    }
    why = `answered ${s}`;
  } else if (outcome.kind === 'refused') {
    // The address is not allowed (or the URL is not one): sending again would meet the same rule.
    return { state: 'failed', why: outcome.error };
  } else {
    why = outcome.error;
  }
  if (attempt >= MAX_ATTEMPTS) return { state: 'failed', why: `${why}; gave up after ${MAX_ATTEMPTS} attempts`, gaveUp: true };
  return { state: 'retrying', afterMs: RETRY_AFTER_MS[Math.max(0, attempt - 1)]!, why };
}
