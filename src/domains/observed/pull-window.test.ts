import { describe, expect, it } from 'vitest';
import { LIMITS } from './observed-types.js';
import { capNote, manualWindow, nextPullAt, scheduledWindow } from './pull-window.js';

const now = new Date('2026-03-04T10:00:00Z');
const min = (n: number) => n * 60_000;

describe('the window of a scheduled pull', () => {
  it.each([
    ['the first pull reads the last interval', null, 900, '2026-03-04T09:45:00.000Z'],
    ['the first pull with an hourly interval reads the last hour', null, 3600, '2026-03-04T09:00:00.000Z'],
    ['a later pull reads from its marker minus the 20-minute overlap', '2026-03-04T09:45:00Z', 900, '2026-03-04T09:25:00.000Z'],
    ['a marker a day old is read from a day and 20 minutes back (bounded by 1,500 raw items, not by the interval)', '2026-03-03T10:00:00Z', 900, '2026-03-03T09:40:00.000Z'],
    ['a marker ahead of this clock still reads the overlap before now', '2026-03-04T10:05:00Z', 900, '2026-03-04T09:40:00.000Z'],
  ])('%s', (_name, marker, interval, since) => {
    const w = scheduledWindow(marker === null ? null : new Date(marker), now, interval);
    expect(w.since.toISOString()).toBe(since);
    expect(w.until).toEqual(now);
    expect(w.maxRaw).toBe(LIMITS.rawPerTick);
  });

  it('the overlap is the spec\'s 20 minutes', () => {
    const marker = new Date(now.getTime() - min(15));
    expect(now.getTime() - scheduledWindow(marker, now, 900).since.getTime()).toBe(min(15) + min(LIMITS.overlapMinutes));
    expect(LIMITS.overlapMinutes).toBe(20);
  });
});

describe('the window of a manual pull', () => {
  it('reads the last N minutes up to now, at most 1,500 raw items', () => {
    const w = manualWindow(now, 90);
    expect(w.since.toISOString()).toBe('2026-03-04T08:30:00.000Z');
    expect(w.until).toEqual(now);
    expect(w.maxRaw).toBe(1500);
  });
});

describe('when the next scheduled pull runs', () => {
  it('is within one interval after now, strictly later', () => {
    for (const id of ['src_a', 'src_b', 'src_0194aa']) {
      const t = nextPullAt(id, now, 900).getTime();
      expect(t).toBeGreaterThan(now.getTime());
      expect(t - now.getTime()).toBeLessThanOrEqual(900_000);
    }
  });

  it('lands on the same time for two schedules of one connection inside one interval (one job by its dedupe key)', () => {
    const a = nextPullAt('src_x', now, 900);
    const b = nextPullAt('src_x', new Date(now.getTime() + 1_000), 900);
    const earlier = nextPullAt('src_x', new Date(a.getTime() - 1), 900);
    expect(b).toEqual(a);
    expect(earlier).toEqual(a);
    // Run at its due time, the next one is one interval later.
    expect(nextPullAt('src_x', a, 900).getTime() - a.getTime()).toBe(900_000);
  });

  it('spreads connections over the interval instead of all calling their APIs in one second', () => {
    const times = new Set(['src_1', 'src_2', 'src_3', 'src_4', 'src_5', 'src_6'].map((id) => nextPullAt(id, now, 900).getTime()));
    expect(times.size).toBeGreaterThan(1);
  });
});

describe('the note of a pull that read as much as one pull may', () => {
  it('says it once the 1,500 raw items are read, and nothing below', () => {
    const w = manualWindow(now, 60);
    expect(capNote(1499, w)).toBeNull();
    expect(capNote(1500, w)).toMatch(/read 1,500 items, the most one pull reads: writes between 2026-03-04T09:00:00.000Z and 2026-03-04T10:00:00.000Z beyond them were not read/);
  });
});
