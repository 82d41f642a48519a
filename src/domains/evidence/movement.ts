/**
 * Whether one RED signal moved against every baseline. Pure. A signal moved only when BOTH
 * baselines were measured (a "—" is not measured, never zero) and it differs from EACH of them by
 * the relative step AND the absolute floor of the thresholds: a relative step alone fires on noise
 * around tiny values, an absolute floor alone misses a quiet service doubling its errors.
 *
 * 'worse' is what hurts users: more errors, slower p95, fewer requests (traffic that stopped
 * arriving). 'better' is the same test the other way round; the verdict counts only 'worse'.
 */
import type { Compared, RedSignal, Thresholds } from './evidence-types.js';

export type Movement = 'worse' | 'better' | null;

/** `to` is worse than `from` by the signal's thresholds. */
function worseThan(signal: RedSignal, to: number, from: number, t: Thresholds): boolean {
  switch (signal) {
    case 'errorRatio':
      return to - from >= t.errorRatioPoints / 100 && to >= from * t.errorRatioFactor;
    case 'p95':
      return to >= from * (1 + t.latencyIncrease) && (to - from) * 1000 >= t.latencyFloorMs;
    case 'rate':
      return from >= t.rateFloor && to <= from * (1 - t.rateDrop);
  }
}

export function moved(compared: Compared, signal: RedSignal, thresholds: Thresholds): Movement {
  const { window: w, hourBefore: h, weekEarlier: k } = compared;
  if (w === null || h === null || k === null) return null;
  if (worseThan(signal, w, h, thresholds) && worseThan(signal, w, k, thresholds)) return 'worse';
  if (worseThan(signal, h, w, thresholds) && worseThan(signal, k, w, thresholds)) return 'better';
  return null;
}
