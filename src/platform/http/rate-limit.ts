/**
 * A sliding one-minute window per key. In memory, per process: with N servers behind one
 * balancer a token may reach N × the limit, which is the documented trade for no shared state.
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
