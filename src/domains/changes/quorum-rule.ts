/**
 * The one rule between the quorum and the approver list, for every write to either. Pure.
 *
 * While approval is required, a list at least as long as the quorum can approve a change; a
 * shorter one cannot, and a change would wait until it expires. The rule:
 *  - a write that makes a list that could reach the quorum unable to (raising the quorum above
 *    the approvers, removing approvers below it) is refused, naming the field;
 *  - every other write is taken — in particular any quorum 1 – 25 and any list while the
 *    approvers are still being designated (fewer than the quorum before the write) — and while
 *    the list stays short the answer warns how many approvers are missing.
 * With approval not required nothing is refused or warned: the quorum waits unused.
 */

export type Gate = { gated: boolean; quorum: number; approvers: number };
export type QuorumJudgement =
  | { ok: true; warning: string | null }
  | { ok: false; field: 'quorum' | 'userIds'; reason: string };

/** Approvers missing for the quorum while approval is required (0 when it can be reached). */
export function missingApprovers(g: Gate): number {
  return g.gated ? Math.max(0, g.quorum - g.approvers) : 0;
}

/** The warning a short list carries, or null. */
export function shortWarning(g: Gate): string | null {
  const missing = missingApprovers(g);
  if (missing === 0) return null;
  const have = g.approvers === 1 ? 'only 1 approver is' : `only ${g.approvers} approvers are`;
  return `approval is required but ${have} designated for a quorum of ${g.quorum}: changes will wait until they expire — designate ${missing} more (the Approver switch) or lower the quorum`;
}

/** Judges the write that takes `before` to `after`; `field` is what the write changed. */
export function judgeQuorum(before: Gate, after: Gate, field: 'quorum' | 'userIds'): QuorumJudgement {
  const couldReach = before.approvers >= before.quorum;
  if (couldReach && missingApprovers(after) > 0) {
    return field === 'quorum'
      ? { ok: false, field, reason: `the quorum (${after.quorum}) cannot be above the number of approvers (${after.approvers}): designate more approvers first` }
      : { ok: false, field, reason: `approval is required with a quorum of ${after.quorum}: the list cannot shrink to ${after.approvers}; lower the quorum first` };
  }
  return { ok: true, warning: shortWarning(after) };
}
