/** The window of a change from what a registration says. Pure; every refusal names its field. */
import { badRequest, invalid } from '../../platform/errors.js';

export const MIN_WINDOW_MS = 5 * 60_000;
export const MAX_WINDOW_MS = 7 * 24 * 3_600_000;
const DEFAULT_WINDOW_MS = 3_600_000;

export type WindowInput = { startNow?: boolean; windowStart?: string; windowEnd?: string; maxDurationMinutes?: number };

/**
 * - startNow: now … windowEnd (default now + 1 h, or + maxDurationMinutes);
 * - maxDurationMinutes without a start: a pipeline window now … now + d (re-stamped when it starts);
 * - windowStart: … windowEnd (default start + 1 h);
 * - nothing: now … now + 1 h.
 * The window lasts 5 minutes to 7 days and cannot be over already.
 */
export function planWindow(input: WindowInput, now: Date): { start: Date; end: Date } {
  const parse = (v: string, field: string) => {
    const d = new Date(v);
    if (Number.isNaN(d.getTime())) throw badRequest(`${field} must be an ISO-8601 date-time`, field);
    return d;
  };
  const length = input.maxDurationMinutes ? input.maxDurationMinutes * 60_000 : DEFAULT_WINDOW_MS;
  const start = input.startNow || input.windowStart === undefined ? now : parse(input.windowStart, 'windowStart');
  const end = input.windowEnd !== undefined ? parse(input.windowEnd, 'windowEnd') : new Date(start.getTime() + length);
  const span = end.getTime() - start.getTime();
  if (span < MIN_WINDOW_MS) throw invalid('windowEnd', 'must be at least 5 minutes after the start');
  if (span > MAX_WINDOW_MS) throw invalid('windowEnd', 'must be at most 7 days after the start');
  if (end.getTime() <= now.getTime()) throw badRequest('the window is already over: windowEnd is in the past', 'windowEnd');
  return { start, end };
}

/** A running change's window pushed out: later than its current end, still at most 7 days after its start, not over. */
export function planExtension(current: { windowStart: string; windowEnd: string }, windowEnd: string, now: Date): Date {
  const end = new Date(windowEnd);
  if (Number.isNaN(end.getTime())) throw badRequest('windowEnd must be an ISO-8601 date-time', 'windowEnd');
  if (end.getTime() <= new Date(current.windowEnd).getTime()) throw invalid('windowEnd', `must be later than the current end (${current.windowEnd})`);
  if (end.getTime() - new Date(current.windowStart).getTime() > MAX_WINDOW_MS) throw invalid('windowEnd', 'must be at most 7 days after the start');
  if (end.getTime() <= now.getTime()) throw badRequest('the window would be over already: windowEnd is in the past', 'windowEnd');
  return end;
}
