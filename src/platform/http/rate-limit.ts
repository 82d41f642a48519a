import type { Queryable } from '../db/database.js';

/**
 * A sliding one-minute window per key, in memory, per process: with N servers behind one balancer
 * a key may reach N × the limit. Used where that trade is documented (SDK keys' evaluations); API
 * tokens and change sources count in PostgreSQL instead (sharedHit below).
 */
export class RateLimiter {
  readonly #hits = new Map<string, number[]>();
  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Records a hit; answers how many seconds to wait when the key is over its limit, else 0. */
  hit(key: string, nowMs: number): number {
    const from = nowMs - this.windowMs;
    const list = (this.#hits.get(key) ?? []).filter((t) => t > from);
    if (list.length >= this.limit) {
      this.#hits.set(key, list);
      return Math.max(1, Math.ceil((list[0]! + this.windowMs - nowMs) / 1000));
    }
    list.push(nowMs);
    this.#hits.set(key, list);
    if (this.#hits.size > 10_000) this.#sweep(from);
    return 0;
  }

  #sweep(from: number): void {
    for (const [k, v] of this.#hits) if (!v.some((t) => t > from)) this.#hits.delete(k);
  }
}

export const RATE_WINDOW_MS = 60_000;
/** An API token's requests a minute, unless a route sets its own (config.tokensPerMinute). */
export const TOKENS_PER_MINUTE = 60;

/**
 * One hit on a shared window at `now`, as a statement to embed (a CTE) or run alone: `row` gives
 * the (key, now, 1) to count, as VALUES or as a SELECT that yields nothing when nothing is to be
 * counted. The window opens at the first hit and counts for a minute; a hit after that opens a new
 * one. Returns (hits, window_start). Every server process on the database counts in the same row,
 * so a limit holds across replicas; concurrent hits serialise on that row for one statement only.
 */
export function rateHitSql(now: string, row: string): string {
  return `INSERT INTO rate_windows AS w (key, window_start, hits) ${row}
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN w.window_start <= ${now}::timestamptz - interval '1 minute' THEN excluded.window_start ELSE w.window_start END,
      hits = CASE WHEN w.window_start <= ${now}::timestamptz - interval '1 minute' THEN 1 ELSE w.hits + 1 END
    RETURNING w.hits, w.window_start`;
}

export type RateHit = { hits: number; windowStart: Date };

/** Seconds to wait when this hit went over the limit (at least 1), else 0. */
export function secondsOver(hit: RateHit, perMinute: number, nowMs: number): number {
  if (hit.hits <= perMinute) return 0;
  return Math.max(1, Math.ceil((hit.windowStart.getTime() + RATE_WINDOW_MS - nowMs) / 1000));
}

const PRUNE_EVERY_MS = 5 * 60_000;

/** The shared windows of keys that need a statement of their own (change sources); pruned now and then. */
export class SharedRateWindows {
  #prunedAt = 0;
  constructor(private readonly db: Queryable) {}

  /** Records a hit; answers how many seconds to wait when the key is over its limit, else 0. */
  async hit(key: string, perMinute: number, now: Date): Promise<number> {
    const r = await this.db.query<{ hits: number; window_start: Date }>(rateHitSql('$2', 'VALUES ($1, $2::timestamptz, 1)'), [key, now.toISOString()]);
    const row = r.rows[0]!;
    const wait = secondsOver({ hits: Number(row.hits), windowStart: new Date(row.window_start) }, perMinute, now.getTime());
    if (now.getTime() - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now.getTime();
      // Windows over for a minute or more count nothing: forget them (a source's address keys come and go).
      await this.db.query(`DELETE FROM rate_windows WHERE window_start < $1::timestamptz - interval '2 minutes'`, [now.toISOString()]);
    }
    return wait;
  }
}
