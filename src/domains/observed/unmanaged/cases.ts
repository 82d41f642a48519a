/**
 * Cases of unmanaged changes: how writes are grouped into one, and what a person's answer does to
 * it. Pure.
 *
 * An unauthorized change is kept (legitimate, with a note) or rolled back: the rollback is approved,
 * a person runs the drafted revert with their own access, then marks it done. A case of denied
 * attempts changed nothing, so it is only acknowledged.
 */
export const CASE_KINDS = ['unauthorized_change', 'denied_access'] as const;
export type CaseKind = (typeof CASE_KINDS)[number];
export const CASE_STATUSES = ['open', 'rollback_approved', 'rolled_back', 'kept', 'resolved'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export type CaseCommand = 'approve_rollback' | 'mark_rolled_back' | 'keep' | 'resolve';

/** The account a write was made in, which a case is per: the AWS account, the Azure subscription or the cluster. */
export function accountOf(l: Partial<Record<'account' | 'subscription' | 'cluster', string>>): string {
  return l.account ?? l.subscription ?? l.cluster ?? '';
}

/** A keep note must say why, in a sentence. */
export const MIN_KEEP_NOTE = 10;

/** The UTC clock hour a write falls in: 2026-12-03T10:00:00.000Z. */
export function hourOf(at: string): string {
  const d = new Date(at);
  d.setUTCMinutes(0, 0, 0);
  return d.toISOString();
}

/** One case per kind, account, principal and UTC hour. */
export function correlationKey(kind: CaseKind, account: string, principal: string, at: string): string {
  return `${kind === 'denied_access' ? 'denied_access' : 'unauthorized'}=${account}/${principal}@${hourOf(at).slice(0, 13)}Z`;
}

export type Decision = { ok: true; status: CaseStatus } | { ok: false; reason: string };

/** What an answer does to a case in this status. */
export function decideCase(kind: CaseKind, status: CaseStatus, command: CaseCommand): Decision {
  if (kind === 'denied_access') {
    if (command === 'resolve') return status === 'resolved' ? { ok: false, reason: 'the case is acknowledged already' } : { ok: true, status: 'resolved' };
    return { ok: false, reason: 'a denied attempt changed nothing: there is nothing to roll back or keep; acknowledge the case instead' };
  }
  switch (command) {
    case 'approve_rollback':
      if (status === 'open') return { ok: true, status: 'rollback_approved' };
      if (status === 'rollback_approved') return { ok: false, reason: 'the rollback is approved already: run the drafted revert, then mark it done' };
      return { ok: false, reason: closedWords(status) };
    case 'mark_rolled_back':
      if (status === 'rollback_approved') return { ok: true, status: 'rolled_back' };
      if (status === 'open') return { ok: false, reason: 'approve the rollback first (or keep the change)' };
      return { ok: false, reason: closedWords(status) };
    case 'keep':
      if (status === 'open' || status === 'rollback_approved') return { ok: true, status: 'kept' };
      if (status === 'rolled_back') return { ok: false, reason: 'the rollback was marked as run: the change is undone, so it cannot be kept' };
      return { ok: false, reason: closedWords(status) };
    case 'resolve':
      return { ok: false, reason: 'an unauthorized change is closed by keeping it or by rolling it back' };
  }
}

function closedWords(status: CaseStatus): string {
  if (status === 'kept') return 'the change was kept as legitimate already';
  if (status === 'rolled_back') return 'the change was rolled back already';
  return 'the case is closed';
}
