import type {
  ChangeClass,
  ClassPolicy,
  ClassSource,
  RiskTier,
  TemplateState,
  WindowKind,
  WindowSchedule,
  WindowScope,
} from '../api/governance-types';
import { formatWindow, minutesText } from './change-format';
import { pluralize } from './format';

// Words for governance: the change class and risk tier, template states, window kinds,
// schedules and scopes, and "when" in words (the next opening of a closed window).

export const classLabels: Record<ChangeClass, string> = { standard: 'standard', normal: 'normal', emergency: 'emergency' };

export const classHints: Record<ChangeClass, string> = {
  standard: 'Standard: a pre-approved operation a certified template covers (L1 at least).',
  normal: 'Normal: approved by the organisation’s quorum (L2 at least).',
  emergency: 'Emergency: answers an incident; at least two approvers, and may pass a closed window once they approved it (L3).',
};

export const classSourceWords: Record<ClassSource, string> = {
  emergency: 'declared an emergency',
  template: 'a certified template covers it',
  default: 'the organisation’s default rule',
  reclassified: 'reclassified by an approver',
};

export const tierHints: Record<RiskTier, string> = {
  L1: 'L1 — low risk',
  L2: 'L2 — medium risk',
  L3: 'L3 — high risk',
};

export const classPolicyLabels: Record<ClassPolicy, { label: string; hint: string }> = {
  normal_by_default: {
    label: 'Normal unless it names a template',
    hint: 'A change is standard only when it names a certified template that covers it; otherwise it is normal.',
  },
  standard_by_default: {
    label: 'Standard whenever a template covers it',
    hint: 'A change is standard whenever a certified template covers it, named or not (the first by name); otherwise normal.',
  },
};

export const templateStateLabels: Record<TemplateState, string> = { draft: 'draft', certified: 'certified', withdrawn: 'withdrawn' };

export const templateStateHints: Record<TemplateState, string> = {
  draft: 'Waiting for a different owner or approver to certify this version: no change is standard by it yet.',
  certified: 'Certified: changes it covers are standard.',
  withdrawn: 'Withdrawn: no change is standard by it.',
};

export const windowKindLabels: Record<WindowKind, string> = { change: 'Change window', freeze: 'Freeze' };

export const windowKindHints: Record<WindowKind, string> = {
  change: 'While any change window applies to a change, it may start only inside one.',
  freeze: 'No change it applies to starts while it runs (an emergency approved by its quorum passes, and says so).',
};

/** The schedule in a line: the rule, its first local start, its length, its zone; or a one-off's span (UTC). */
export function scheduleText(s: WindowSchedule): string {
  if (s.type === 'once') return `once, ${formatWindow(s.start, s.end)}`;
  const skipped = s.exdates !== undefined && s.exdates.length > 0 ? `, ${pluralize(s.exdates.length, 'date')} skipped` : '';
  return `${s.rrule} from ${s.start.replace('T', ' ')} ${s.timeZone}, ${minutesText(s.durationMinutes)} each${skipped}`;
}

export function scopeText(scope: WindowScope): string {
  switch (scope.type) {
    case 'all':
      return 'every change';
    case 'services':
      return `services ${scope.services.join(', ')}`;
    case 'environments':
      return `environments ${scope.environments.join(', ')}`;
    case 'criticality':
      return scope.atLeast === 'critical' ? 'critical changes' : `${scope.atLeast} changes or more critical`;
  }
}

/** "in 1 h 59 min", "in 3 days", "12 min ago": how far an instant is from now, rounded to what a person reads. */
export function relativeWords(iso: string, now: Date): string {
  const ms = new Date(iso).getTime() - now.getTime();
  const minutes = Math.round(Math.abs(ms) / 60_000);
  let span: string;
  if (minutes < 1) return 'now';
  if (minutes < 60) span = `${String(minutes)} min`;
  else if (minutes < 48 * 60) {
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    span = m === 0 ? `${String(h)} h` : `${String(h)} h ${String(m)} min`;
  } else span = pluralize(Math.round(minutes / 1440), 'day');
  return ms > 0 ? `in ${span}` : `${span} ago`;
}

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "Thursday 4 December 2025, 16:00 UTC (in 1 h 59 min)". */
export function instantWords(iso: string, now: Date): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = d.toISOString().slice(11, 16);
  return `${weekdays[d.getUTCDay()] ?? ''} ${String(d.getUTCDate())} ${monthNames[d.getUTCMonth()] ?? ''} ${String(d.getUTCFullYear())}, ${time} UTC (${relativeWords(iso, now)})`;
}


// ---------- Months and weeks of the calendar (UTC, Monday first) ----------

export const DAY = 86_400_000;

export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export function isMonth(text: string | null): text is string {
  return text !== null && /^\d{4}-(0[1-9]|1[0-2])$/.test(text);
}

export function shiftMonth(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return monthOf(new Date(Date.UTC(y, m - 1 + delta, 1)));
}

export function monthTitle(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${monthNames[m - 1] ?? ''} ${String(y)}`;
}

export const weekdayShort = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** The weeks covering the month, Monday first: each day as its UTC midnight in ms. */
export function monthWeeks(month: string): number[][] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const first = Date.UTC(y, m - 1, 1);
  const next = Date.UTC(y, m, 1);
  const back = (new Date(first).getUTCDay() + 6) % 7;
  const weeks: number[][] = [];
  for (let day = first - back * DAY; day < next; day += 7 * DAY) {
    weeks.push(Array.from({ length: 7 }, (_, i) => day + i * DAY));
  }
  return weeks;
}


/** How a span shows inside one day's cell: "09:00–17:00", "22:00–…", "…–06:00", or "all day". */
export function spanOnDay(start: string, end: string, day: number): string {
  const s = new Date(start).getTime();
  const e = new Date(end).getTime();
  const from = s > day ? new Date(s).toISOString().slice(11, 16) : null;
  const to = e < day + DAY ? new Date(e).toISOString().slice(11, 16) : null;
  if (from === null && to === null) return 'all day';
  return `${from ?? '…'}–${to ?? '…'}`;
}

export function overlapsDay(start: string, end: string, day: number): boolean {
  return new Date(start).getTime() < day + DAY && new Date(end).getTime() > day;
}

/** Time zones people pick most; any IANA name is accepted. */
export const commonTimeZones = [
  'UTC',
  'Europe/London',
  'Europe/Dublin',
  'Europe/Lisbon',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Amsterdam',
  'Europe/Madrid',
  'Europe/Rome',
  'Europe/Zurich',
  'Europe/Stockholm',
  'Europe/Warsaw',
  'Europe/Helsinki',
  'Europe/Athens',
  'Europe/Istanbul',
  'Europe/Moscow',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Toronto',
  'America/Sao_Paulo',
  'America/Mexico_City',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Asia/Seoul',
  'Australia/Sydney',
  'Pacific/Auckland',
  'Africa/Johannesburg',
] as const;

/** The browser's own zone, as a first suggestion for a recurring window. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Why a change lost the standard class its template gave it (the server's words, CLASS_DROP_CAUSES). */
export const classDropCauses: Record<'template_withdrawn' | 'template_edited' | 'template_uncovered' | 'template_demoted', string> = {
  template_withdrawn: 'the template’s certification was withdrawn by a person',
  template_edited: 'the template was changed since the change was registered',
  template_uncovered: 'the template no longer covers the change after its edit',
  template_demoted: 'the template was demoted after a rollback of a change it made standard',
};

/** A link that is an address opens as one; an incident id stays text. */
export function isHttpUrl(text: string): boolean {
  return /^https?:\/\/\S+$/i.test(text);
}
