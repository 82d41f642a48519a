import { describe, expect, it } from 'vitest';
import { cmp } from '../../../test/support/evidence-sample.js';
import type { Compared, RedSignal } from './evidence-types.js';
import { moved, type Movement } from './movement.js';
import { DEFAULT_THRESHOLDS } from './thresholds.js';

// Defaults: error ratio +1 point and ×2; p95 +50 % and +100 ms; rate −50 % from ≥ 1 req/s.
const cases: Array<[string, RedSignal, Compared, Movement]> = [
  ['error ratio up 1 point and ×2 against both', 'errorRatio', cmp(0.02, 0.005, 0.008), 'worse'],
  ['error ratio ×10 but under 1 point (noise around tiny values)', 'errorRatio', cmp(0.005, 0.0005, 0.0005), null],
  ['error ratio +3 points but not ×2', 'errorRatio', cmp(0.08, 0.05, 0.05), null],
  ['error ratio worse than the hour before only', 'errorRatio', cmp(0.04, 0.003, 0.035), null],
  ['error ratio fell against both', 'errorRatio', cmp(0.002, 0.03, 0.04), 'better'],
  ['p95 +50 % and +100 ms against both', 'p95', cmp(0.45, 0.3, 0.28), 'worse'],
  ['p95 doubled but only +8 ms', 'p95', cmp(0.016, 0.008, 0.008), null],
  ['rate halved from 20 req/s', 'rate', cmp(9, 20, 22), 'worse'],
  ['rate halved from 0.5 req/s (under the floor)', 'rate', cmp(0.2, 0.5, 0.5), null],
  ['rate doubled', 'rate', cmp(50, 20, 22), 'better'],
  ['window not measured', 'errorRatio', cmp(null, 0.001, 0.001), null],
  ['hour before not measured', 'errorRatio', cmp(0.5, null, 0.001), null],
  ['week earlier not measured', 'p95', { window: 3, hourBefore: 0.1, weekEarlier: null }, null],
  ['a zero baseline is measured, not missing', 'errorRatio', cmp(0.05, 0, 0), 'worse'],
];

describe('moved', () => {
  it.each(cases)('%s', (_name, signal, compared, expected) => {
    expect(moved(compared, signal, DEFAULT_THRESHOLDS)).toBe(expected);
  });

  it('uses the thresholds it is given', () => {
    expect(moved(cmp(0.45, 0.3, 0.28), 'p95', { ...DEFAULT_THRESHOLDS, latencyFloorMs: 200 })).toBeNull();
    expect(moved(cmp(0.2, 0.5, 0.5), 'rate', { ...DEFAULT_THRESHOLDS, rateFloor: 0.1 })).toBe('worse');
  });
});
