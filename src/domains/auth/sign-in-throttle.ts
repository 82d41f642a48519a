import type { Clock } from '../../platform/clock.js';
import type { Database, Queryable, Tx } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import { sha256Hex } from '../../platform/crypto/tokens.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { addressSubject, secondsToWait, THROTTLE_FORGET_SECONDS, waitAfter, type ThrottleCounter, type ThrottleScope } from './throttle-schedule.js';

export type ThrottleKey = { scope: ThrottleScope; subject: string };
/** What was tried: a password sign-in, a one-time link, or a password change. */
export type CredentialMethod = 'password' | 'link' | 'password_change';
/** The known account an attempt named, whose organisation's ledger records the throttling. */
export type ThrottledAccount = { userId: string; email: string; orgId: string };

const PRUNE_EVERY_MS = 5 * 60_000;

/**
 * Backoff of failed credentials, kept in the database so that every replica counts the same
 * failures. A failure is one statement (an upsert of the account's and the address's counters);
 * an attempt while a counter makes it wait is refused with 429 before any password is hashed.
 */
export class SignInThrottle {
  #prunedAt = 0;
  constructor(private readonly deps: { db: Database; clock: Clock }) {}

  /** The counters an attempt is judged by: the e-mail as typed (known or not) and the address. */
  keys(address: string, email?: string): ThrottleKey[] {
    const address_: ThrottleKey = { scope: 'address', subject: addressSubject(address) };
    return email === undefined ? [address_] : [accountKey(email), address_];
  }

  /** Throws 429 with Retry-After while any of the counters makes the attempt wait. */
  async refuseWhileWaiting(keys: ThrottleKey[]): Promise<void> {
    const r = await this.deps.db.query<{ scope: ThrottleScope; failures: number; last_failure_at: Date }>(
      `SELECT scope, failures, last_failure_at FROM auth_throttles
       WHERE (scope, subject) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [keys.map((k) => k.scope), keys.map((k) => k.subject)],
    );
    const counters: ThrottleCounter[] = r.rows.map((row) => ({ scope: row.scope, failures: Number(row.failures), lastFailureAt: new Date(row.last_failure_at) }));
    const wait = secondsToWait(counters, this.deps.clock.now());
    if (wait > 0) throw tooMany(wait);
  }

  /**
   * Counts a failure on every counter of the attempt. When it starts a wait and the attempt named
   * a known account, `auth.signin_throttled` is written to that organisation's ledger in the same
   * transaction.
   */
  async recordFailure(keys: ThrottleKey[], ctx: AuditContext, method: CredentialMethod, account: ThrottledAccount | null, address: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      const counted = await countFailure(tx, keys, now);
      const waiting = counted.filter((c) => waitAfter(c.scope, c.failures) > 0);
      if (waiting.length === 0 || !account) return;
      const retryAfterSeconds = Math.max(...waiting.map((c) => waitAfter(c.scope, c.failures)));
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: account.orgId,
        action: 'auth.signin_throttled',
        target: { type: 'user', id: account.userId },
        data: {
          method, email: account.email, address, retryAfterSeconds,
          counters: Object.fromEntries(counted.map((c) => [c.scope, c.failures])),
          waitingOn: waiting.map((c) => c.scope),
        },
      });
    });
    if (now.getTime() - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now.getTime();
      await pruneForgotten(this.deps.db, now);
    }
  }

  /** A success clears the account's counter (not the address's: one good account must not unlock an address). */
  async clearAccount(tx: Tx, email: string): Promise<void> {
    await tx.query("DELETE FROM auth_throttles WHERE scope = 'account' AND subject = $1", [accountKey(email).subject]);
  }
}

function accountKey(email: string): ThrottleKey {
  return { scope: 'account', subject: sha256Hex(email.trim().toLowerCase()) };
}

function tooMany(wait: number): AppError {
  return new AppError(429, `too many failed attempts; try again in ${wait} s`, undefined, { retryAfter: wait });
}

/** One statement: each counter counts one more failure, or starts again at 1 once forgotten. */
async function countFailure(tx: Tx, keys: ThrottleKey[], now: Date): Promise<Array<{ scope: ThrottleScope; failures: number }>> {
  const r = await tx.query<{ scope: ThrottleScope; failures: number }>(
    `INSERT INTO auth_throttles AS t (scope, subject, failures, last_failure_at)
     SELECT k.scope, k.subject, 1, $3 FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(scope, subject, n) ORDER BY k.n
     ON CONFLICT (scope, subject) DO UPDATE SET
       failures = CASE WHEN t.last_failure_at <= $3::timestamptz - make_interval(secs => $4) THEN 1 ELSE t.failures + 1 END,
       last_failure_at = GREATEST(t.last_failure_at, $3::timestamptz)
     RETURNING scope, failures`,
    [keys.map((k) => k.scope), keys.map((k) => k.subject), now.toISOString(), THROTTLE_FORGET_SECONDS],
  );
  return r.rows.map((row) => ({ scope: row.scope, failures: Number(row.failures) }));
}

/** Forgotten counters go, a batch at a time; rows another replica holds are left for later. */
async function pruneForgotten(db: Queryable, now: Date): Promise<void> {
  await db.query(
    `DELETE FROM auth_throttles WHERE (scope, subject) IN (
       SELECT scope, subject FROM auth_throttles WHERE last_failure_at < $1::timestamptz - make_interval(secs => $2)
       LIMIT 1000 FOR UPDATE SKIP LOCKED)`,
    [now.toISOString(), THROTTLE_FORGET_SECONDS],
  );
}
