import type { CaseSummary } from '../api/case-types';
import type { Template } from '../api/governance-types';
import type { DueReview } from '../api/review-types';
import type { Change, OrgDelivery } from '../api/types';
import { changeHref } from '../components/change-table';
import { caseCount, caseHref, whoName } from './cases';
import { formatUtcMinute, sentence } from './format';

// What the home page makes of the lists it reads. Pure: the page fetches, these decide.

/** Everything still in flight, read in one call and split per section. */
export const openStatuses = ['pending_mapping', 'pending_approval', 'approved', 'scheduled', 'active'] as const;

export type PendingSplit = { mine: Change[]; others: Change[] };

/** Mine first: what waits for my decision (the server's awaiting=me), then every other pending change. */
export function splitPending(pending: readonly Change[], awaitingMe: readonly Change[]): PendingSplit {
  const mineIds = new Set(awaitingMe.map((c) => c.id));
  return { mine: pending.filter((c) => mineIds.has(c.id)), others: pending.filter((c) => !mineIds.has(c.id)) };
}

export type AttentionKind =
  | 'case-unauthorized' | 'case-denied' | 'mapping' | 'classification' | 'approval-overdue' | 'expired' | 'past-window' | 'not-started' | 'delivery'
  | 'review-overdue' | 'review-due' | 'template-demoted';

export type AttentionItem = {
  kind: AttentionKind;
  key: string;
  href: string;
  /** The change's display id, the delivery's change, or the case's display id. */
  label: string;
  title: string;
  /** What is wrong and what to do, in a sentence. */
  reason: string;
};

const past = (iso: string | null, now: Date): boolean => iso !== null && new Date(iso).getTime() < now.getTime();

/** An open case (open or rollback approved) in the attention list: what happened and what is next. */
function caseItem(c: CaseSummary): AttentionItem {
  const where = c.account === '' ? '' : ` in ${c.account}`;
  const what = `${caseCount(c.kind, c.changes)}${where}`;
  const denied = c.kind === 'denied_access';
  const reason = denied
    ? `${what}: nothing changed. An approver acknowledges the case once they know who tried and why.`
    : c.status === 'rollback_approved'
      ? `${what}. Rollback approved by ${whoName(c.rollbackApprovedBy)}: run the drafted reverts with your own access, then mark the rollback as run.`
      : `${what} nothing vouches for: an approver keeps them with a note or approves the drafted rollback.`;
  return { kind: denied ? 'case-denied' : 'case-unauthorized', key: `case:${c.id}`, href: caseHref(c.id), label: c.displayId, title: c.principal === '' ? 'unknown principal' : c.principal, reason };
}

/** A change whose post-implementation review is due (overdue after 3 days): why, and since when. */
function reviewItem(r: DueReview): AttentionItem {
  return {
    kind: r.overdue ? 'review-overdue' : 'review-due', key: `review:${r.changeId}`, href: changeHref(r.changeId), label: r.displayId, title: r.title,
    reason: `A post-implementation review is ${r.overdue ? 'overdue' : 'due'} (${r.reasons.join('; ')}): the change finished ${formatUtcMinute(r.finishedAt)}. Write it on the change page.`,
  };
}

/** A template a rollback demoted (demoteOnRollback): a draft again until someone certifies it anew. */
function demotedItem(t: Template): AttentionItem {
  return {
    kind: 'template-demoted', key: `template:${t.id}`, href: '/change-templates', label: `v${String(t.version)}`, title: t.name,
    reason: `${sentence(t.withdrawnReason ?? 'demoted after a rollback')}: a draft again, so no change is standard by it until an approver certifies it anew.`,
  };
}

/** Templates demoted and not certified again since (the API's demotedAt on a draft). */
export function demotedTemplates(templates: readonly Template[]): Template[] {
  return templates.filter((t) => t.state === 'draft' && t.demotedAt !== null);
}

/**
 * What needs a person: open cases first (unauthorized changes, then denied attempts), names still unmapped, tiers still missing, an approval or a window the
 * worker has not caught up with yet, expirations of the last week, deliveries that gave up, then post-implementation
 * reviews due (overdue first: the list is oldest first) and templates a rollback demoted.
 */
export function attentionItems(
  open: readonly Change[], expired: readonly Change[], failed: readonly OrgDelivery[], now: Date, cases: readonly CaseSummary[] = [],
  reviews: readonly DueReview[] = [], templates: readonly Template[] = [],
): AttentionItem[] {
  const items: AttentionItem[] = [
    ...cases.filter((c) => c.kind === 'unauthorized_change').map(caseItem),
    ...cases.filter((c) => c.kind === 'denied_access').map(caseItem),
  ];
  const item = (c: Change, kind: AttentionKind, reason: string): void => {
    items.push({ kind, key: `${kind}:${c.id}`, href: changeHref(c.id), label: c.displayId, title: c.title, reason });
  };
  for (const c of open) {
    if (c.status === 'pending_mapping') {
      const names = c.unresolved.map((u) => u.query).join(', ');
      item(c, 'mapping', `Waiting for a component mapping: ${names === '' ? 'a name' : names}. Map it on the change page.`);
    } else if (c.status === 'pending_approval' && c.criticalitySource === 'pending') {
      item(c, 'classification', 'A service component has no tier yet: an approver classifies it before anyone can approve.');
    }
    if (c.status === 'pending_approval' && past(c.approvalExpiresAt, now)) {
      item(c, 'approval-overdue', 'Its approval deadline has passed; it expires at the next worker run.');
    }
    if (c.status === 'active' && past(c.windowEnd, now)) {
      item(c, 'past-window', 'Still active after its window ended: complete or abort it.');
    }
    if ((c.status === 'approved' || c.status === 'scheduled') && past(c.windowEnd, now)) {
      item(c, 'not-started', 'Its window is over and it never started: start it with a new window or cancel it.');
    }
  }
  for (const c of expired) {
    item(c, 'expired', c.endReason === null ? 'Expired.' : `Expired: ${c.endReason}. Register it again if it is still wanted.`);
  }
  for (const d of failed) {
    items.push({
      kind: 'delivery',
      key: `delivery:${d.deliveryId}`,
      href: changeHref(d.change.id),
      label: d.change.displayId,
      title: d.change.title,
      reason: `${d.channel === 'callback' ? 'The callback' : 'A ticket step'} ${d.event} failed after ${String(d.attempts)} attempt${d.attempts === 1 ? '' : 's'}${d.error === null ? '' : `: ${d.error}`}.`,
    });
  }
  items.push(...reviews.filter((r) => r.overdue).map(reviewItem), ...reviews.filter((r) => !r.overdue).map(reviewItem));
  items.push(...demotedTemplates(templates).map(demotedItem));
  return items;
}
