import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { planWindow } from './window.js';

const now = new Date('2026-11-30T10:00:00.000Z');
const iso = (d: { start: Date; end: Date }) => [d.start.toISOString(), d.end.toISOString()];
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return { field: (err as AppError).field, message: (err as AppError).message };
  }
  return null;
};

describe('the window of a change', () => {
  it('defaults to now … now + 1 h, startNow too', () => {
    expect(iso(planWindow({}, now))).toEqual(['2026-11-30T10:00:00.000Z', '2026-11-30T11:00:00.000Z']);
    expect(iso(planWindow({ startNow: true, windowStart: '2026-12-01T00:00:00Z' }, now))).toEqual(['2026-11-30T10:00:00.000Z', '2026-11-30T11:00:00.000Z']);
  });
  it('takes a pipeline window of maxDurationMinutes', () => {
    expect(iso(planWindow({ maxDurationMinutes: 45 }, now))).toEqual(['2026-11-30T10:00:00.000Z', '2026-11-30T10:45:00.000Z']);
  });
  it('takes windowStart and windowEnd as given, the end defaulting to an hour later', () => {
    expect(iso(planWindow({ windowStart: '2026-12-01T08:00:00Z', windowEnd: '2026-12-01T08:05:00Z' }, now))).toEqual(['2026-12-01T08:00:00.000Z', '2026-12-01T08:05:00.000Z']);
    expect(iso(planWindow({ windowStart: '2026-12-01T08:00:00Z' }, now))[1]).toBe('2026-12-01T09:00:00.000Z');
  });
  it('refuses a window under 5 minutes, over 7 days, over already, or a date that is not one', () => {
    expect(refusal(() => planWindow({ windowStart: '2026-12-01T08:00:00Z', windowEnd: '2026-12-01T08:04:59Z' }, now))?.field).toBe('windowEnd');
    expect(refusal(() => planWindow({ windowStart: '2026-12-01T08:00:00Z', windowEnd: '2026-12-08T08:00:01Z' }, now))?.message).toBe('Window end must be at most 7 days after the start');
    expect(planWindow({ windowStart: '2026-12-01T08:00:00Z', windowEnd: '2026-12-08T08:00:00Z' }, now)).toBeTruthy();
    expect(refusal(() => planWindow({ windowStart: '2026-11-29T08:00:00Z', windowEnd: '2026-11-29T09:00:00Z' }, now))?.message).toContain('already over');
    expect(refusal(() => planWindow({ windowStart: 'tomorrow' }, now))?.field).toBe('windowStart');
  });
});
