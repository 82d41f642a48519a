/**
 * Whether one RED signal moved against every baseline. Pure. A signal moved only when BOTH
 * baselines were measured and it differs from each by the thresholds' relative factor AND floor.
 */
import type { Compared, RedSignal, Thresholds } from './evidence-types.js';

export type Movement = 'worse' | 'better' | null;

export function moved(_compared: Compared, _signal: RedSignal, _thresholds: Thresholds): Movement {
  return null;
}
