/**
 * The span a change is judged on, and its two baselines. Pure. The window opens when the change
 * started (else when its window was planned to start) and closes at the horizon: the finish plus
 * the evidence minutes. The hour before ends where the window starts; the week earlier is the same
 * span seven days back, as PromQL's `offset 1w` reads it.
 */
import type { EvidenceWindow } from './evidence-types.js';

export const HOUR_BEFORE_MS = 3_600_000;
export const WEEK_MS = 7 * 24 * HOUR_BEFORE_MS;

export type WindowOf = { startedAt: string | null; windowStart: string; finishedAt: string | null; windowEnd: string; evidenceMinutes: number };

const at = (ms: number) => new Date(ms).toISOString();

/** evidenceMinutes overrides the change's own (a re-evaluation with a new horizon). */
export function evidenceWindow(c: WindowOf, evidenceMinutes: number = c.evidenceMinutes): EvidenceWindow {
  const start = Date.parse(c.startedAt ?? c.windowStart);
  // A change reaches its horizon only once finished; the planned end stands in for one that never was.
  const finish = Date.parse(c.finishedAt ?? c.windowEnd);
  const end = finish + evidenceMinutes * 60_000;
  return {
    start: at(start), finish: at(finish), end: at(end), evidenceMinutes,
    hourBefore: { start: at(start - HOUR_BEFORE_MS), end: at(start) },
    weekEarlier: { start: at(start - WEEK_MS), end: at(end - WEEK_MS) },
  };
}
