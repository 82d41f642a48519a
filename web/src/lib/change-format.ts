import type { Change, ChangeKind, ChangeStatus, Outcome } from '../api/types';
import { formatUtcMinute } from './format';

// Statuses are the spec's strings; the UI shows them in words, keeping the string in a data
// attribute (and the URL filters) so nothing is lost in translation.
export const statusLabels: Record<ChangeStatus, string> = {
  draft: 'draft',
  scheduled: 'scheduled',
  pending_mapping: 'pending mapping',
  pending_approval: 'pending approval',
  approved: 'approved',
  rejected: 'rejected',
  expired: 'expired',
  active: 'active',
  evaluating: 'evaluating',
  reported: 'reported',
  cancelled: 'cancelled',
};

// A colour family per status: waiting on people, running, done well, ended without running.
export type StatusTone = 'waiting' | 'ready' | 'running' | 'done' | 'ended' | 'refused';

export const statusTones: Record<ChangeStatus, StatusTone> = {
  draft: 'ended',
  scheduled: 'ready',
  pending_mapping: 'waiting',
  pending_approval: 'waiting',
  approved: 'ready',
  rejected: 'refused',
  expired: 'ended',
  active: 'running',
  evaluating: 'running',
  reported: 'done',
  cancelled: 'ended',
};

// The list's status filter: the chips a person reaches for, in lifecycle order.
export const statusFilterOrder: readonly ChangeStatus[] = [
  'pending_mapping',
  'pending_approval',
  'approved',
  'scheduled',
  'active',
  'evaluating',
  'reported',
  'rejected',
  'expired',
  'cancelled',
  'draft',
];

export const kindLabels: Record<ChangeKind, string> = {
  deploy: 'Deploy',
  config: 'Configuration',
  infra: 'Infrastructure',
  other: 'Other',
};

export const outcomeLabels: Record<Outcome, string> = {
  success: 'success',
  partial: 'partial',
  rolled_back: 'rolled back',
  unknown: 'unknown',
};

// "2030-01-01 10:00 – 11:00Z" when both ends share a day, else both in full.
export function formatWindow(start: string, end: string): string {
  const from = formatUtcMinute(start);
  const to = formatUtcMinute(end);
  if (from.slice(0, 10) === to.slice(0, 10) && /Z$/.test(from)) return `${from.slice(0, 16)} – ${to.slice(11)}`;
  return `${from} – ${to}`;
}

export function minutesText(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? '24 h' : `${String(minutes / 1440)} days`;
  if (minutes % 60 === 0) return `${String(minutes / 60)} h`;
  return `${String(minutes)} min`;
}

// The pipeline and its run, as the list shows it: "deploy-checkout #981".
export function pipelineRun(change: Pick<Change, 'pipeline'>): string | null {
  const p = change.pipeline;
  if (p === null) return null;
  const name = p.pipeline ?? p.repo ?? null;
  const run = p.run === undefined ? null : `#${p.run}`;
  const text = [name, run].filter((x): x is string => x !== null).join(' ');
  return text === '' ? null : text;
}

export function personName(p: { name: string; email: string }): string {
  return p.name.trim() === '' ? p.email : p.name;
}

// Whether the caller may act on the change (start, complete, cancel…): the server's rule.
export function canWrite(change: Change, session: { user: { id: string }; role: string }): boolean {
  return change.owner.id === session.user.id || session.role === 'owner' || session.role === 'admin';
}


// `<input type="datetime-local">` holds no zone; the UI speaks UTC everywhere, so its value
// is read (and written) as UTC.
export function utcInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(`${value.length === 16 ? `${value}:00` : value}Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function isoToUtcInput(date: Date): string {
  return date.toISOString().slice(0, 16);
}
