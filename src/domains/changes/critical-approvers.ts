/**
 * Who can give a critical change the critical approval it needs, in words. Pure. The requester
 * never counts, even when they are a critical approver: then the reason says so by name, so
 * nobody reads "none is designated" while a critical approver is listed.
 */

type Listed = { userId: string; name: string; critical: boolean };

export type CriticalNeed = {
  /** The critical approvers who may decide (never the requester). */
  names: string[];
  /** After "Needs a critical approver: ". */
  detail: string;
};

export function criticalNeed(requesterId: string, approvers: readonly Listed[]): CriticalNeed {
  const critical = approvers.filter((a) => a.critical);
  const names = critical.filter((a) => a.userId !== requesterId).map((a) => a.name);
  if (names.length) return { names, detail: names.join(', ') };
  const requester = critical.find((a) => a.userId === requesterId);
  if (requester) {
    return {
      names,
      detail: `the only critical approver, ${requester.name}, requested this change and cannot approve it — an owner or admin can mark another approver Critical`,
    };
  }
  return { names, detail: 'none is designated — an owner or admin can mark an approver Critical' };
}

/** The sentence the approval panel and the registration warning show. */
export function criticalReason(requesterId: string, approvers: readonly Listed[]): string {
  return `Needs a critical approver: ${criticalNeed(requesterId, approvers).detail}`;
}
