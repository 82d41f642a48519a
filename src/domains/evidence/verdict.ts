/** The verdict: a pure function of the stored evidence. The first rule that matches wins. */
import type { Evidence, Verdict } from './evidence-types.js';

export function judge(_evidence: Evidence): Verdict {
  return { impact: 'unknown', rule: 'nothing_measured', reason: 'Nothing was measured.', matched: [], notCounted: [] };
}
