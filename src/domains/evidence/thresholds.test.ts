import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FLAPPING_ENTRIES } from '../alerts/index.js';
import { checkThresholds, DEFAULT_THRESHOLDS, DOWN_MINUTES, THRESHOLD_KEYS } from './thresholds.js';

describe('the verdict\'s thresholds', () => {
  it('default to the spec\'s numbers where it has them: down after 5 minutes, flapping at 3 entries (the alerts\' own constant)', () => {
    expect(DEFAULT_THRESHOLDS.downMinutes).toBe(5);
    expect(DOWN_MINUTES).toBe(5);
    expect(DEFAULT_THRESHOLDS.flappingEntries).toBe(FLAPPING_ENTRIES);
    expect(DEFAULT_THRESHOLDS).toEqual({ errorRatioPoints: 1, errorRatioFactor: 2, latencyIncrease: 0.5, latencyFloorMs: 100, rateDrop: 0.5, rateFloor: 1, downMinutes: 5, flappingEntries: 3 });
  });

  it('take any subset, the rest keeping the defaults', () => {
    expect(checkThresholds({ errorRatioPoints: 5, rateDrop: 0.8 })).toEqual({ ok: true, thresholds: { ...DEFAULT_THRESHOLDS, errorRatioPoints: 5, rateDrop: 0.8 } });
    expect(checkThresholds({})).toEqual({ ok: true, thresholds: DEFAULT_THRESHOLDS });
  });

  it.each([
    [[], '', /object of thresholds/],
    [{ errorPercent: 1 }, 'errorPercent', /not a known threshold \(known: errorRatioPoints/],
    [{ errorRatioPoints: 0 }, 'errorRatioPoints', /percentage points, more than 0 and at most 100/],
    [{ errorRatioPoints: 101 }, 'errorRatioPoints', /at most 100/],
    [{ errorRatioFactor: 0.5 }, 'errorRatioFactor', /from 1 to 1000/],
    [{ latencyIncrease: '50%' }, 'latencyIncrease', /must be a number/],
    [{ latencyFloorMs: -1 }, 'latencyFloorMs', /milliseconds/],
    [{ rateDrop: 1.5 }, 'rateDrop', /at most 1/],
    [{ downMinutes: 2.5 }, 'downMinutes', /whole number of minutes/],
    [{ flappingEntries: 1 }, 'flappingEntries', /from 2 to 100/],
    [{ rateFloor: Number.NaN }, 'rateFloor', /must be a number/],
  ])('refuse %j naming the field %s in words', (raw, field, words) => {
    const c = checkThresholds(raw);
    expect(c.ok).toBe(false);
    if (!c.ok) {
      expect(c.field).toBe(field);
      expect(c.problem).toMatch(words);
    }
  });

  it('never answer a threshold out of its bounds, whatever is sent', () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...THRESHOLD_KEYS, 'other'), fc.oneof(fc.double(), fc.integer(), fc.string(), fc.constant(null))), (raw) => {
      const c = checkThresholds(raw);
      if (!c.ok) return typeof c.problem === 'string' && c.problem.length > 0;
      return THRESHOLD_KEYS.every((k) => Number.isFinite(c.thresholds[k])) && c.thresholds.downMinutes >= 1 && c.thresholds.rateDrop <= 1;
    }));
  });
});
