import { describe, expect, it } from 'vitest';
import { evidenceWindow } from './evidence-window.js';

const change = { startedAt: '2026-03-02T10:05:00.000Z', windowStart: '2026-03-02T10:00:00.000Z', finishedAt: '2026-03-02T10:35:00.000Z', windowEnd: '2026-03-02T11:00:00.000Z', evidenceMinutes: 60 };

describe('evidence window', () => {
  it('runs from the start to the finish plus the horizon, with the hour before and the same span a week earlier', () => {
    expect(evidenceWindow(change)).toEqual({
      start: '2026-03-02T10:05:00.000Z', finish: '2026-03-02T10:35:00.000Z', end: '2026-03-02T11:35:00.000Z', evidenceMinutes: 60,
      hourBefore: { start: '2026-03-02T09:05:00.000Z', end: '2026-03-02T10:05:00.000Z' },
      weekEarlier: { start: '2026-02-23T10:05:00.000Z', end: '2026-02-23T11:35:00.000Z' },
    });
  });

  it('opens at the planned start when the change never started, and takes a re-evaluation’s new horizon', () => {
    const w = evidenceWindow({ ...change, startedAt: null }, 15);
    expect([w.start, w.end, w.evidenceMinutes]).toEqual(['2026-03-02T10:00:00.000Z', '2026-03-02T10:50:00.000Z', 15]);
  });
});
