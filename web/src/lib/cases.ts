import type { CaseDetail, CaseKind, CaseStatus, CaseSummary } from '../api/case-types';
import { closedCaseStatuses, openCaseStatuses } from '../api/case-types';
import type { RevertDraft } from '../api/observed-types';
import type { AuditEvent } from '../api/types';
import { formatUtc, pluralize } from './format';
import { revertOf } from './record-format';

// How the case pages say a case in words, and read what the API leaves untyped (a case's writes,
// its history from the audit log). Pure: the pages fetch, these decide.

export const caseHref = (id: string): string => `/cases/${encodeURIComponent(id)}`;

/**
 * The display id of a case from its id (case_ + 32 hex → CASE- and the first 8, upper case), as the
 * server makes it: an observed change carries only its case's id.
 */
export function caseDisplayId(id: string): string {
  return id.startsWith('case_') && id.length >= 13 ? `CASE-${id.slice(5, 13).toUpperCase()}` : id;
}

export const caseKindLabels: Record<CaseKind, string> = {
  unauthorized_change: 'unauthorized change',
  denied_access: 'denied attempts',
};

export const caseStatusLabels: Record<CaseStatus, string> = {
  open: 'open',
  rollback_approved: 'rollback approved',
  rolled_back: 'rolled back',
  kept: 'kept',
  resolved: 'acknowledged',
};

/** The status chip's colour family (change-badges.css): waiting on a person, ready to run, done. */
export const caseStatusTone: Record<CaseStatus, 'waiting' | 'ready' | 'done' | 'ended'> = {
  open: 'waiting',
  rollback_approved: 'ready',
  rolled_back: 'done',
  kept: 'done',
  resolved: 'ended',
};

export const isOpenCase = (s: CaseStatus): boolean => (openCaseStatuses as readonly CaseStatus[]).includes(s);

/** The clock hour a case covers: 2026-12-03 10:00–11:00Z. */
export function caseHour(hour: string): string {
  const start = new Date(hour);
  if (Number.isNaN(start.getTime())) return hour;
  const end = new Date(start.getTime() + 3_600_000);
  return `${start.toISOString().slice(0, 10)} ${start.toISOString().slice(11, 16)}–${end.toISOString().slice(11, 16)}Z`;
}

/** "2 writes" or "2 refused calls". */
export function caseCount(kind: CaseKind, n: number): string {
  return kind === 'denied_access' ? pluralize(n, 'refused call') : pluralize(n, 'write');
}

/** Names the audit log knows people by (their e-mail), by user id: the case record has display names only, '' when unset. */
export type KnownNames = ReadonlyMap<string, string>;

export function whoName(who: { id: string; name: string } | null, known: KnownNames = new Map()): string {
  if (who === null) return 'an approver';
  return who.name !== '' ? who.name : (known.get(who.id) ?? 'an approver');
}

export function knownNames(events: readonly AuditEvent[] | null): KnownNames {
  return new Map((events ?? []).flatMap((e) => (e.actor.kind === 'user' && e.actor.id !== null ? [[e.actor.id, e.actor.name] as const] : [])));
}

/** Where a case stands, in a sentence: what happened and what is next. */
export function caseStateText(c: CaseSummary, known: KnownNames = new Map()): string {
  const where = c.account === '' ? '' : ` in ${c.account}`;
  switch (c.status) {
    case 'open':
      return c.kind === 'denied_access'
        ? `${c.principal} was refused ${pluralize(c.changes, 'call')}${where}. Nothing changed: acknowledge the case once you know who tried and why.`
        : `${c.principal} made ${caseCount(c.kind, c.changes)}${where} that nothing vouches for: no planned change, ticket, window or authorized principal covers them. Keep them as legitimate with a note, or approve the drafted rollback.`;
    case 'rollback_approved':
      return `Rollback approved by ${whoName(c.rollbackApprovedBy, known)} at ${formatUtc(c.rollbackApprovedAt)}. Run the drafted reverts with your own access, then mark the rollback as run.`;
    case 'rolled_back':
      return `Rolled back: ${whoName(c.closedBy, known)} marked the rollback as run at ${formatUtc(c.closedAt)}.`;
    case 'kept':
      return `Kept as legitimate by ${whoName(c.closedBy, known)} at ${formatUtc(c.closedAt)}.`;
    case 'resolved':
      return `Acknowledged by ${whoName(c.closedBy, known)} at ${formatUtc(c.closedAt)}.`;
  }
}

/** One write of a case as its page reads it (the API answers each as a plain object). */
export type CaseWrite = {
  id: string;
  displayId: string;
  title: string;
  occurredAt: string;
  principal: string;
  principalClass: string | null;
  action: string | null;
  resource: string | null;
  denied: boolean;
  errorCode: string | null;
  authorized: boolean | null;
  authorizedReason: string | null;
  revert: RevertDraft | null;
};

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function caseWriteOf(raw: Record<string, unknown>): CaseWrite {
  const principal = raw['principal'];
  const name = typeof principal === 'object' && principal !== null ? text((principal as Record<string, unknown>)['name']) : null;
  const authorized = raw['authorized'];
  return {
    id: text(raw['id']) ?? '',
    displayId: text(raw['displayId']) ?? text(raw['id']) ?? '',
    title: text(raw['title']) ?? '(untitled)',
    occurredAt: text(raw['occurredAt']) ?? '',
    principal: name ?? 'unknown',
    principalClass: text(raw['principalClass']),
    action: text(raw['action']),
    resource: text(raw['resource']),
    denied: raw['denied'] === true,
    errorCode: text(raw['errorCode']),
    authorized: typeof authorized === 'boolean' ? authorized : null,
    authorizedReason: text(raw['authorizedReason']),
    revert: revertOf(raw['revert']),
  };
}

export const caseWrites = (c: CaseDetail): CaseWrite[] => c.writes.map(caseWriteOf);

/** One line of a case's history: who did what, when, and their note. */
export type HistoryEntry = { key: string; action: string; what: string; who: string | null; at: string; note: string | null };

const historyWords: Record<string, string> = {
  'case.opened': 'Opened',
  'case.reopened': 'Reopened: a new write joined the closed case',
  'case.rollback_approved': 'Rollback approved',
  'case.rolled_back': 'Rollback marked as run',
  'case.change_kept': 'Kept as legitimate',
  'case.resolved': 'Acknowledged',
};

/** The case's audit events, oldest first, in words. */
export function historyOf(kind: CaseKind, events: readonly AuditEvent[]): HistoryEntry[] {
  return [...events]
    .filter((e) => historyWords[e.action] !== undefined)
    .sort((a, b) => a.seq - b.seq)
    .map((e) => {
      const changes = e.data['changes'];
      const opened = (e.action === 'case.opened' || e.action === 'case.reopened') && Array.isArray(changes);
      const what = opened ? `${historyWords[e.action] ?? e.action} (${caseCount(kind, changes.length)})` : (historyWords[e.action] ?? e.action);
      const automated = e.actor.kind !== 'user';
      return { key: String(e.seq), action: e.action, what, who: automated ? null : e.actor.name, at: e.occurredAt, note: text(e.data['note']) };
    });
}

/** What the case record itself says, for when the audit log cannot be read. */
export function historyFromRecord(c: CaseSummary): HistoryEntry[] {
  const out: HistoryEntry[] = [{ key: 'opened', action: 'case.opened', what: 'Opened', who: null, at: c.openedAt, note: null }];
  if (c.rollbackApprovedAt !== null) {
    out.push({ key: 'approved', action: 'case.rollback_approved', what: 'Rollback approved', who: whoName(c.rollbackApprovedBy), at: c.rollbackApprovedAt, note: c.closedAt === null ? c.note : null });
  }
  if (c.closedAt !== null && (closedCaseStatuses as readonly CaseStatus[]).includes(c.status)) {
    const what = c.status === 'kept' ? 'Kept as legitimate' : c.status === 'rolled_back' ? 'Rollback marked as run' : 'Acknowledged';
    out.push({ key: 'closed', action: c.status, what, who: whoName(c.closedBy), at: c.closedAt, note: c.note });
  }
  return out;
}

export type CaseStatusFilter = 'open' | 'closed' | 'all';
export type CaseListView = { status: CaseStatusFilter; kind: CaseKind | null };

/** The list's filters from its URL: open cases of every kind unless said. */
export function readCaseView(params: URLSearchParams): CaseListView {
  const s = params.get('status');
  const k = params.get('kind');
  return {
    status: s === 'all' || s === 'closed' ? s : 'open',
    kind: k === 'unauthorized_change' || k === 'denied_access' ? k : null,
  };
}

export function caseViewHref(v: CaseListView): string {
  const params = new URLSearchParams();
  if (v.status !== 'open') params.set('status', v.status);
  if (v.kind !== null) params.set('kind', v.kind);
  const q = params.toString();
  return q === '' ? '/cases' : `/cases?${q}`;
}

export function statusesOf(f: CaseStatusFilter): readonly CaseStatus[] {
  return f === 'open' ? openCaseStatuses : f === 'closed' ? closedCaseStatuses : [];
}
