import { FLAPPING_ENTRIES } from '../alerts/index.js';
import type { Thresholds } from './evidence-types.js';

/**
 * The thresholds behind "moved against every baseline". A RED signal moved when it is worse than
 * BOTH the hour before and the same span a week earlier, by the relative step AND the absolute
 * floor: a relative step alone fires on noise around tiny values (0.01 % → 0.03 % errors is ×3),
 * an absolute floor alone misses a quiet service doubling its errors. An organisation may set its
 * own (evidence_settings.thresholds); these are the documented defaults.
 */

/** The error ratio rose by at least 1 percentage point (0.5 % → 1.5 %) … */
export const ERROR_RATIO_POINTS = 1;
/** … and to at least twice the baseline's ratio. */
export const ERROR_RATIO_FACTOR = 2;
/** p95 latency rose by at least 50 % … */
export const LATENCY_INCREASE = 0.5;
/** … and by at least 100 ms (a 4 ms p95 going to 8 ms is no news to anyone). */
export const LATENCY_FLOOR_MS = 100;
/** The request rate fell by at least half … */
export const RATE_DROP = 0.5;
/** … from a baseline of at least 1 request per second (below that, a quiet minute looks like a drop). */
export const RATE_FLOOR = 1;
/** A component in error this long counts as down: the spec's 5 minutes. */
export const DOWN_MINUTES = 5;

export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({
  errorRatioPoints: ERROR_RATIO_POINTS,
  errorRatioFactor: ERROR_RATIO_FACTOR,
  latencyIncrease: LATENCY_INCREASE,
  latencyFloorMs: LATENCY_FLOOR_MS,
  rateDrop: RATE_DROP,
  rateFloor: RATE_FLOOR,
  downMinutes: DOWN_MINUTES,
  /** A subject that entered error 3 times is flapping: the alerts' own constant, one number for both. */
  flappingEntries: FLAPPING_ENTRIES,
});

type Bound = { min: number; max: number; integer?: boolean; minExclusive?: boolean; words: string };

/** What each threshold may be, and how a person reads its unit in an error message. */
const BOUNDS: Record<keyof Thresholds, Bound> = {
  errorRatioPoints: { min: 0, max: 100, minExclusive: true, words: 'percentage points, more than 0 and at most 100' },
  errorRatioFactor: { min: 1, max: 1000, words: 'a multiple, from 1 to 1000' },
  latencyIncrease: { min: 0, max: 100, minExclusive: true, words: 'a fraction (0.5 = +50 %), more than 0 and at most 100' },
  latencyFloorMs: { min: 0, max: 3_600_000, words: 'milliseconds, from 0 to 3600000' },
  rateDrop: { min: 0, max: 1, minExclusive: true, words: 'a fraction (0.5 = half), more than 0 and at most 1' },
  rateFloor: { min: 0, max: 1_000_000_000, words: 'requests per second, from 0' },
  downMinutes: { min: 1, max: 1440, integer: true, words: 'a whole number of minutes, from 1 to 1440' },
  flappingEntries: { min: 2, max: 100, integer: true, words: 'a whole number, from 2 to 100' },
};

export const THRESHOLD_KEYS = Object.keys(BOUNDS) as Array<keyof Thresholds>;

export type ThresholdsCheck = { ok: true; thresholds: Thresholds } | { ok: false; field: string; problem: string };

/**
 * Checks thresholds an organisation sent. Any subset may be sent: what is left out keeps the
 * documented default, so a saved set stays whole when a later release adds a threshold.
 */
export function checkThresholds(raw: unknown, base: Thresholds = DEFAULT_THRESHOLDS): ThresholdsCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, field: '', problem: 'must be an object of thresholds' };
  const out: Thresholds = { ...base };
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const b = BOUNDS[k as keyof Thresholds];
    if (!b) return { ok: false, field: k, problem: `is not a known threshold (known: ${THRESHOLD_KEYS.join(', ')})` };
    if (typeof v !== 'number' || !Number.isFinite(v)) return { ok: false, field: k, problem: `must be a number: ${b.words}` };
    const low = b.minExclusive ? v <= b.min : v < b.min;
    if (low || v > b.max || (b.integer && !Number.isInteger(v))) return { ok: false, field: k, problem: `must be ${b.words}` };
    out[k as keyof Thresholds] = v;
  }
  return { ok: true, thresholds: out };
}
