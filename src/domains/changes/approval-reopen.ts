/**
 * The columns a change gets when what approval covers has changed (an edit, a class drop, a
 * reclassification, a before-state added): gated, it waits for a fresh approval with a new expiry;
 * not gated, it needs none. Pure.
 */
export function reopenPatch(gated: boolean, approvals: number | null, approvalExpiryMinutes: number, now: Date): Record<string, unknown> {
  return gated
    ? { gated: true, quorum: approvals, approved_digest: null, decided_at: null, start_deadline: null, approval_expires_at: new Date(now.getTime() + approvalExpiryMinutes * 60_000).toISOString() }
    : { gated: false, quorum: null, approved_digest: null };
}
