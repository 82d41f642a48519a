import { LIMITS, type PullWindow } from './observed-types.js';

/**
 * The arithmetic of pulls, pure. A scheduled pull reads from where the last one got to, minus an
 * overlap (a source's API shows a write some minutes after it happened; dedupe makes the re-read
 * free); the first one reads the last interval. A manual pull reads the last N minutes under its
 * own marker, so the scheduled one never skips what it did not see itself.
 */

const MINUTE_MS = 60_000;
/** The manual pull's bounds, in minutes: one minute to a week. */
export const MANUAL_MINUTES = { min: 1, max: 10_080 } as const;

export function scheduledWindow(marker: Date | null, now: Date, intervalSeconds: number): PullWindow {
  const since = marker === null
    ? new Date(now.getTime() - intervalSeconds * 1000)
    // A marker ahead of this clock (another process's skew) still reads the overlap before now.
    : new Date(Math.min(marker.getTime(), now.getTime()) - LIMITS.overlapMinutes * MINUTE_MS);
  return { since, until: now, maxRaw: LIMITS.rawPerTick };
}

export function manualWindow(now: Date, minutes: number): PullWindow {
  return { since: new Date(now.getTime() - minutes * MINUTE_MS), until: now, maxRaw: LIMITS.rawPerTick };
}

/**
 * When a connection's next scheduled pull runs: the next multiple of the interval after now,
 * shifted by an offset drawn from the connection's id, so that an organisation's connections do
 * not all call their APIs in the same second, and two schedules of one connection land on the same
 * time (and so on the same job, by its dedupe key).
 */
export function nextPullAt(sourceId: string, now: Date, intervalSeconds: number): Date {
  const interval = intervalSeconds * 1000;
  let h = 0;
  for (const c of sourceId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const offset = h % interval;
  const t = now.getTime();
  const k = Math.floor((t - offset) / interval) + 1;
  return new Date(k * interval + offset);
}

/** The note kept on a marker when a pull read as much as one pull may: older writes of the window may be unread. */
export function capNote(rawRead: number, window: PullWindow): string | null {
  if (rawRead < window.maxRaw) return null;
  return `this pull read ${window.maxRaw.toLocaleString('en-GB')} items, the most one pull reads: writes between ${window.since.toISOString()} and ${window.until.toISOString()} beyond them were not read`;
}
