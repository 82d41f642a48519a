import type { ScopeType, WindowInput, WindowKind, WindowScope } from '../api/governance-types';
import type { Tier } from '../api/types';
import { utcInputToIso } from './change-format';

// The add-a-window form as it is kept while typed, and what it sends. What the server would
// refuse anyway is named first, under the same field the server would name.

export type WindowDraft = {
  name: string;
  kind: WindowKind;
  scheduleType: 'rrule' | 'once';
  rrule: string;
  // Local wall-clock time in timeZone (datetime-local, no zone).
  localStart: string;
  durationMinutes: string;
  timeZone: string;
  exdates: string;
  // UTC (datetime-local read as UTC, as every time the UI shows).
  onceStart: string;
  onceEnd: string;
  scopeType: ScopeType;
  services: string;
  environments: string;
  atLeast: Tier;
  description: string;
};

export function emptyWindowDraft(timeZone: string, now: Date): WindowDraft {
  const start = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000);
  return {
    name: '',
    kind: 'freeze',
    scheduleType: 'rrule',
    rrule: 'FREQ=WEEKLY;BYDAY=FR',
    localStart: `${start.toISOString().slice(0, 10)}T18:00`,
    durationMinutes: '3840',
    timeZone,
    exdates: '',
    onceStart: start.toISOString().slice(0, 16),
    onceEnd: new Date(start.getTime() + 4 * 3_600_000).toISOString().slice(0, 16),
    scopeType: 'all',
    services: '',
    environments: '',
    atLeast: 'critical',
    description: '',
  };
}

export type DraftProblem = { message: string; field: string };

const entries = (text: string): string[] => [...new Set(text.split(/[\n,]+/).map((s) => s.trim()).filter((s) => s !== ''))];
const noMillis = (iso: string): string => iso.replace(/\.000Z$/, 'Z');
const WALL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

export function scopeOf(d: Pick<WindowDraft, 'scopeType' | 'services' | 'environments' | 'atLeast'>): WindowScope | DraftProblem {
  switch (d.scopeType) {
    case 'all':
      return { type: 'all' };
    case 'services': {
      const services = entries(d.services);
      return services.length === 0 ? { message: 'Name the services it applies to: catalogue keys or globs, one a line.', field: 'scope.services' } : { type: 'services', services };
    }
    case 'environments': {
      const environments = entries(d.environments);
      return environments.length === 0 ? { message: 'Name the environments it applies to, one a line.', field: 'scope.environments' } : { type: 'environments', environments };
    }
    case 'criticality':
      return { type: 'criticality', atLeast: d.atLeast };
  }
}

export function windowInputOf(d: WindowDraft): WindowInput | DraftProblem {
  const name = d.name.trim();
  if (name === '') return { message: 'Name the window.', field: 'name' };
  const scope = scopeOf(d);
  if ('message' in scope) return scope;
  const description = d.description.trim();
  const base = { name, kind: d.kind, scope, ...(description === '' ? {} : { description }) };
  if (d.scheduleType === 'once') {
    const start = utcInputToIso(d.onceStart);
    if (start === null) return { message: 'Give the start (UTC).', field: 'schedule.start' };
    const end = utcInputToIso(d.onceEnd);
    if (end === null) return { message: 'Give the end (UTC).', field: 'schedule.end' };
    return { ...base, schedule: { type: 'once', start: noMillis(start), end: noMillis(end) } };
  }
  const rrule = d.rrule.trim().replace(/^RRULE:/i, '');
  if (rrule === '') return { message: 'Write the repeat rule, e.g. FREQ=WEEKLY;BYDAY=SA,SU.', field: 'schedule.rrule' };
  if (!WALL.test(d.localStart)) return { message: 'Give the first occurrence’s local start.', field: 'schedule.start' };
  const minutes = Number(d.durationMinutes);
  if (d.durationMinutes.trim() === '' || !Number.isInteger(minutes)) return { message: 'The duration is whole minutes (1 – 10080).', field: 'schedule.durationMinutes' };
  const timeZone = d.timeZone.trim();
  if (timeZone === '') return { message: 'Give the time zone the start is in (IANA, e.g. Europe/Berlin).', field: 'schedule.timeZone' };
  const exdates = entries(d.exdates).map((x) => x.replace(' ', 'T'));
  const bad = exdates.findIndex((x) => !WALL.test(x));
  if (bad >= 0) return { message: `${exdates[bad] ?? ''} is not a local start time YYYY-MM-DDTHH:MM.`, field: `schedule.exdates.${String(bad)}` };
  return {
    ...base,
    schedule: { type: 'rrule', rrule, start: d.localStart, durationMinutes: minutes, timeZone, ...(exdates.length > 0 ? { exdates } : {}) },
  };
}
