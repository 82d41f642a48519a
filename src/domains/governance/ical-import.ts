/**
 * iCalendar (.ics) → freeze windows, for teams that keep their freezes in a shared calendar
 * (Google Calendar, Outlook, Nextcloud exports). Pure: the clock comes in as opts.now.
 * ical.js reads the file; this module only decides what each event means as a window, and why not.
 * Wall-clock arithmetic in IANA zones is the matcher's own (window-schedule.ts), so an imported
 * window lands exactly where the matcher will put it; its validation has the last word.
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import {
  MAX_DURATION_MINUTES, MAX_ONCE_DAYS, isTimeZone, isoUtc, offsetAt, validateSchedule, wallClockToInstant, type WindowSchedule,
} from './window-schedule.js';

export type ImportedWindow = { uid: string; name: string; schedule: WindowSchedule; description: string | null };
export type SkippedEvent = { uid: string | null; name: string | null; reason: string };
export type IcsImport = { calendarName: string | null; windows: ImportedWindow[]; skipped: SkippedEvent[] };

export class IcsError extends Error {
  override name = 'IcsError';
}

export const MAX_ICS_BYTES = 2 * 1024 * 1024;
export const MAX_ICS_EVENTS = 2_000;
const MAX_NAME_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 2_000;
/** A COUNT rule is walked occurrence by occurrence to see whether it is over; beyond this it is kept. */
const MAX_COUNT_STEPS = 10_000;
/** Left-over EXDATEs dropped one by one (each a full validation) before the event is refused instead. */
const MAX_STALE_EXDATES = 20;

export const SKIP = {
  moved: 'a moved single occurrence is not imported; the series is',
  cancelled: 'it was cancelled in the calendar (STATUS:CANCELLED), so it freezes nothing',
  noStart: 'it has no start time (DTSTART)',
  duplicate: 'another event in this calendar has the same UID; only the first one is imported',
  ended: 'ended before the import',
  empty: 'it ends at or before its start, so it covers no time',
  tooLong: `it lasts more than ${MAX_ONCE_DAYS} days, the longest a one-off window may last; split it into shorter events`,
  extraDates: 'it repeats on extra listed dates (RDATE), which a window cannot express; make those separate events',
  manyRules: 'it has more than one repeat rule (RRULE or EXRULE), which a window cannot express',
  unreadable: 'its dates or repeat rule are not valid iCalendar, so it could not be read',
} as const;

/**
 * Windows zone ids that Outlook and Exchange write as TZID, to the IANA zone CLDR's windowsZones
 * maps them to ("001" territory). ical.js converts Outlook's own VTIMEZONE to UTC well, but it
 * cannot name an IANA zone, and a repeating window needs one to follow daylight saving.
 */
const WINDOWS_ZONES: Record<string, string> = {
  'W. Europe Standard Time': 'Europe/Berlin', 'Romance Standard Time': 'Europe/Paris',
  'Central Europe Standard Time': 'Europe/Budapest', 'Central European Standard Time': 'Europe/Warsaw',
  'GMT Standard Time': 'Europe/London', 'Greenwich Standard Time': 'Atlantic/Reykjavik',
  'E. Europe Standard Time': 'Europe/Chisinau', 'FLE Standard Time': 'Europe/Kiev',
  'GTB Standard Time': 'Europe/Bucharest', 'Russian Standard Time': 'Europe/Moscow',
  'Turkey Standard Time': 'Europe/Istanbul', 'Israel Standard Time': 'Asia/Jerusalem',
  'South Africa Standard Time': 'Africa/Johannesburg', 'Arabian Standard Time': 'Asia/Dubai',
  'India Standard Time': 'Asia/Kolkata', 'China Standard Time': 'Asia/Shanghai',
  'Singapore Standard Time': 'Asia/Singapore', 'Tokyo Standard Time': 'Asia/Tokyo',
  'Korea Standard Time': 'Asia/Seoul', 'AUS Eastern Standard Time': 'Australia/Sydney',
  'New Zealand Standard Time': 'Pacific/Auckland', 'Eastern Standard Time': 'America/New_York',
  'Central Standard Time': 'America/Chicago', 'Mountain Standard Time': 'America/Denver',
  'US Mountain Standard Time': 'America/Phoenix', 'Pacific Standard Time': 'America/Los_Angeles',
  'Atlantic Standard Time': 'America/Halifax', 'E. South America Standard Time': 'America/Sao_Paulo',
};

type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number };
/** iana null: the zone is known only from the calendar's own VTIMEZONE, which ical.js converts. */
type Zone = { iana: string | null };
type Calendar = { floating: Zone | string; licLocation: Map<string, string> };

export function parseFreezeCalendar(text: string, opts: { defaultTimeZone: string; now: number }): IcsImport {
  // text.length ≤ bytes, so the cheap test first and the byte count only near the limit.
  if (text.length > MAX_ICS_BYTES || Buffer.byteLength(text, 'utf8') > MAX_ICS_BYTES) {
    throw new IcsError(`The calendar file is larger than ${MAX_ICS_BYTES / 1024 / 1024} MiB, the most that can be imported at once.`);
  }
  const defaultZone = ianaName(opts.defaultTimeZone);
  if (!defaultZone) throw new IcsError(`The default time zone "${opts.defaultTimeZone}" is not a standard (IANA) time zone name such as Europe/Berlin.`);
  const calendars = readCalendars(text);
  const events = calendars.flatMap((c) => c.getAllSubcomponents('vevent'));
  if (events.length > MAX_ICS_EVENTS) {
    throw new IcsError(`The calendar holds ${events.length.toLocaleString('en-US')} events; at most ${MAX_ICS_EVENTS.toLocaleString('en-US')} can be imported at once. Export a shorter period or split the calendar.`);
  }
  const result: IcsImport = { calendarName: null, windows: [], skipped: [] };
  const seen = new Set<string>();
  for (const vcalendar of calendars) {
    const calendar = calendarSettings(vcalendar, defaultZone);
    result.calendarName ??= clip(textOf(vcalendar, 'x-wr-calname') ?? textOf(vcalendar, 'name'), MAX_NAME_CHARS);
    for (const vevent of vcalendar.getAllSubcomponents('vevent')) {
      const summary = clip(textOf(vevent, 'summary'), MAX_NAME_CHARS);
      const uid = clip(textOf(vevent, 'uid'), Infinity);
      const skip = (reason: string) => result.skipped.push({ uid, name: summary, reason });
      let outcome: WindowSchedule | string;
      try {
        outcome = eventSchedule(vevent, calendar, opts.now);
        if (typeof outcome !== 'string') outcome = storable(outcome);
      } catch {
        // One malformed event should not cost the rest of the calendar.
        outcome = SKIP.unreadable;
      }
      if (typeof outcome === 'string') { skip(outcome); continue; }
      const id = uid ?? `nouid-${createHash('sha256').update(`${vevent.getFirstProperty('dtstart')?.toICALString() ?? ''}\n${summary ?? ''}`).digest('hex')}`;
      if (seen.has(id)) { skip(SKIP.duplicate); continue; }
      seen.add(id);
      result.windows.push({ uid: id, name: summary ?? '(untitled event)', schedule: outcome, description: clip(textOf(vevent, 'description'), MAX_DESCRIPTION_CHARS) });
    }
  }
  return result;
}

function readCalendars(text: string): ICAL.Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (cause) {
    // ical.js reads RRULE values while parsing, so one bad rule refuses the whole file: say which.
    // Its TypeErrors (lines outside any BEGIN/END) say nothing useful to a person, so they are left out.
    const detail = cause instanceof Error && !(cause instanceof TypeError) ? ` (ical.js: ${clip(cause.message, 200)})` : '';
    throw new IcsError(`The file is not a valid iCalendar (.ics) calendar${detail}.`, { cause });
  }
  const roots = Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : Array.isArray(parsed) ? parsed : [];
  const calendars = roots.filter((r): r is unknown[] => Array.isArray(r) && r[0] === 'vcalendar').map((r) => new ICAL.Component(r));
  if (calendars.length === 0) throw new IcsError('The file holds no calendar: there is no BEGIN:VCALENDAR … END:VCALENDAR block in it.');
  return calendars;
}

function calendarSettings(vcalendar: ICAL.Component, defaultZone: string): Calendar {
  const licLocation = new Map<string, string>();
  for (const vtimezone of vcalendar.getAllSubcomponents('vtimezone')) {
    const tzid = textOf(vtimezone, 'tzid');
    const location = textOf(vtimezone, 'x-lic-location');
    if (tzid && location) licLocation.set(tzid, location);
  }
  const declared = textOf(vcalendar, 'x-wr-timezone');
  const iana = declared === null ? defaultZone : ianaName(declared) ?? WINDOWS_ZONES[declared] ?? null;
  const floating = iana ? { iana } : `it has no time zone of its own and the calendar's time zone "${declared}" is not a standard (IANA) name`;
  return { floating, licLocation };
}

function eventSchedule(vevent: ICAL.Component, calendar: Calendar, now: number): WindowSchedule | string {
  if (vevent.hasProperty('recurrence-id')) return SKIP.moved;
  if (textOf(vevent, 'status')?.toUpperCase() === 'CANCELLED') return SKIP.cancelled;
  // TRANSP:TRANSPARENT ("free") events are imported like busy ones: freeze calendars mark freezes either way.
  const startProp = vevent.getFirstProperty('dtstart');
  if (!startProp) return SKIP.noStart;
  const start = timeOf(startProp);
  const zone = zoneOf(startProp, start, calendar);
  if (typeof zone === 'string') return zone;
  const event = new ICAL.Event(vevent);
  return vevent.hasProperty('rrule') || vevent.hasProperty('rdate') || vevent.hasProperty('exrule')
    ? repeating(event, start, zone, calendar, now)
    : once(event, start, zone, calendar, now);
}

function once(event: ICAL.Event, start: ICAL.Time, zone: Zone, calendar: Calendar, now: number): WindowSchedule | string {
  const startMs = instantOf(start, zone);
  const endProp = event.component.getFirstProperty('dtend');
  let endMs: number;
  if (endProp) {
    const end = timeOf(endProp);
    const endZone = zoneOf(endProp, end, calendar);
    if (typeof endZone === 'string') return endZone;
    endMs = instantOf(end, endZone);
  } else {
    endMs = afterDuration(start, zone, ownDuration(event));
  }
  if (endMs <= startMs) return SKIP.empty;
  if (endMs <= now) return SKIP.ended;
  if (endMs - startMs > MAX_ONCE_DAYS * 86_400_000) return SKIP.tooLong;
  return { type: 'once', start: isoUtc(startMs), end: isoUtc(endMs) };
}

function repeating(event: ICAL.Event, start: ICAL.Time, zone: Zone, calendar: Calendar, now: number): WindowSchedule | string {
  const vevent = event.component;
  if (vevent.hasProperty('rdate')) return SKIP.extraDates;
  const rules = vevent.getAllProperties('rrule');
  if (rules.length !== 1 || vevent.hasProperty('exrule')) return SKIP.manyRules;
  const rule = rules[0]!.getFirstValue();
  if (!(rule instanceof ICAL.Recur)) return SKIP.unreadable;
  const tzid = vevent.getFirstProperty('dtstart')!.getFirstParameter('tzid');
  if (zone.iana === null) return `it repeats in the time zone "${tzid}", which has no standard (IANA) name this import knows; export the calendar with IANA zones such as Europe/Berlin`;
  const minutes = repeatingMinutes(event, start, zone, calendar);
  if (typeof minutes === 'string') return minutes;
  if (minutes < 1 || minutes > MAX_DURATION_MINUTES) {
    return `each occurrence lasts ${minutes} minutes, but a repeating window must last from 1 minute to 7 days (${MAX_DURATION_MINUTES.toLocaleString('en-US')} minutes)`;
  }
  const exdates = new Set<string>();
  for (const prop of vevent.getAllProperties('exdate')) {
    for (const value of prop.getValues()) {
      const skipped = exdateWall(prop, value as ICAL.Time, start, zone.iana, calendar);
      if (typeof skipped === 'string') return skipped;
      exdates.add(wallString(skipped));
    }
  }
  if (seriesEnded(event, rule, zone, minutes * 60_000, now)) return SKIP.ended;
  let serialised = rule;
  if (rule.until && rule.until.zone !== ICAL.Timezone.utcTimezone) {
    // The window's start always carries a zone, and RFC 5545 then wants UNTIL in UTC (rrule-temporal too).
    serialised = rule.clone();
    serialised.until = ICAL.Time.fromJSDate(new Date(untilInstant(rule.until, zone.iana)), true);
  }
  const schedule: WindowSchedule = { type: 'rrule', rrule: serialised.toString(), start: wallString(wallOf(start)), durationMinutes: minutes, timeZone: zone.iana };
  return exdates.size > 0 ? { ...schedule, exdates: [...exdates].sort() } : schedule;
}

/** The matcher's validation decides what can be stored; whatever it refuses is skipped with its words. */
function storable(schedule: WindowSchedule): WindowSchedule | string {
  let candidate = schedule;
  for (let dropped = 0; ; dropped++) {
    const checked = validateSchedule(candidate);
    if (checked.ok) return checked.schedule;
    const stale = /^schedule\.exdates\.(\d+)$/.exec(checked.field);
    if (!stale || candidate.type !== 'rrule' || dropped === MAX_STALE_EXDATES) return `it cannot be kept as a window: ${checked.field} ${checked.reason}`;
    // An EXDATE on no occurrence excludes nothing; the matcher refuses it as a typo, but in an
    // exported calendar it is a left-over of an edited series, and dropping it changes nothing.
    const { exdates = [], ...rest } = candidate;
    const kept = exdates.filter((_, i) => i !== Number(stale[1]));
    candidate = kept.length > 0 ? { ...rest, exdates: kept } : rest;
  }
}

/**
 * Minutes from DTSTART to DTEND (or DURATION). With DTEND in the start's own zone the wall-clock
 * difference counts, not the instants: "Sat 18:00 – Mon 06:00" should end at 06:00 every week even
 * when the first weekend happens to change the clocks.
 */
function repeatingMinutes(event: ICAL.Event, start: ICAL.Time, zone: Zone, calendar: Calendar): number | string {
  const endProp = event.component.getFirstProperty('dtend');
  if (!endProp) return Math.ceil(ownDuration(event).toSeconds() / 60);
  const end = timeOf(endProp);
  const startProp = event.component.getFirstProperty('dtstart')!;
  if (zoneKey(endProp, end) === zoneKey(startProp, start)) return Math.ceil((wallMs(wallOf(end)) - wallMs(wallOf(start))) / 60_000);
  const endZone = zoneOf(endProp, end, calendar);
  if (typeof endZone === 'string') return endZone;
  return Math.ceil((instantOf(end, endZone) - instantOf(start, zone)) / 60_000);
}

/** DURATION, or what RFC 5545 implies without one: a day for an all-day event, nothing for a timed one. */
function ownDuration(event: ICAL.Event): ICAL.Duration {
  const value = event.component.getFirstPropertyValue('duration');
  if (value instanceof ICAL.Duration) return value;
  return ICAL.Duration.fromData({ days: event.startDate.isDate ? 1 : 0 });
}

/** RFC 5545 3.3.6: weeks and days are nominal (same wall-clock on a later day), hours and less exact. */
function afterDuration(start: ICAL.Time, zone: Zone, duration: ICAL.Duration): number {
  const sign = duration.isNegative ? -1 : 1;
  const shifted = start.clone();
  shifted.adjust(sign * (duration.weeks * 7 + duration.days), 0, 0, 0);
  return instantOf(shifted, zone) + sign * (duration.hours * 3600 + duration.minutes * 60 + duration.seconds) * 1000;
}

function exdateWall(prop: ICAL.Property, value: ICAL.Time, start: ICAL.Time, iana: string, calendar: Calendar): Wall | string {
  let wall: Wall;
  if (value.isDate && !start.isDate) {
    wall = { ...wallOf(value), hour: start.hour, minute: start.minute, second: start.second };
  } else if (zoneKey(prop, value) === zoneKey(prop.parent.getFirstProperty('dtstart')!, start) || value.isDate) {
    wall = wallOf(value);
  } else {
    const zone = zoneOf(prop, value, calendar);
    if (typeof zone === 'string') return `one of its skipped dates (EXDATE): ${zone}`;
    wall = wallAt(instantOf(value, zone), iana);
  }
  return start.isDate ? { ...wall, hour: 0, minute: 0, second: 0 } : wall;
}

/** "Ended" means its last occurrence is over: by UNTIL alone, or by walking a COUNT rule with ical.js. */
function seriesEnded(event: ICAL.Event, rule: ICAL.Recur, zone: Zone, durationMs: number, now: number): boolean {
  if (!rule.isFinite()) return false;
  if (rule.until) return untilInstant(rule.until, zone.iana!) + durationMs <= now;
  const occurrences = event.iterator();
  for (let step = 0; step < MAX_COUNT_STEPS; step++) {
    const next = occurrences.next();
    if (!next) return true;
    if (instantOf(next, zone) + durationMs > now) return false;
  }
  return false;
}

/** UNTIL as an instant; a date-only UNTIL includes its whole day (RFC 5545, as rrule-temporal reads it). */
function untilInstant(until: ICAL.Time, iana: string): number {
  if (until.zone === ICAL.Timezone.utcTimezone) return until.toUnixTime() * 1000;
  if (!until.isDate) return wallClockToInstant(wallMs(wallOf(until)), iana);
  return wallClockToInstant(wallMs({ ...wallOf(until), day: until.day + 1 }), iana) - 1000;
}

function timeOf(prop: ICAL.Property): ICAL.Time {
  const value = prop.getFirstValue();
  if (!(value instanceof ICAL.Time)) throw new TypeError(`${prop.name} is not a date`);
  return value;
}

/** The zone a date is written in: UTC, its TZID, or the calendar's zone for floating and all-day dates. */
function zoneOf(prop: ICAL.Property, time: ICAL.Time, calendar: Calendar): Zone | string {
  if (time.zone === ICAL.Timezone.utcTimezone) return { iana: 'UTC' };
  const tzid = prop.getFirstParameter('tzid');
  if (time.isDate || !tzid) return calendar.floating;
  const location = calendar.licLocation.get(tzid);
  const iana = ianaName(tzid) ?? (location ? ianaName(location) : null) ?? WINDOWS_ZONES[tzid] ?? null;
  if (iana) return { iana };
  if (hasOwnZone(time)) return { iana: null };
  return `its time zone "${tzid}" is neither a standard (IANA) name nor defined in the calendar (VTIMEZONE)`;
}

function zoneKey(prop: ICAL.Property, time: ICAL.Time): string {
  if (time.zone === ICAL.Timezone.utcTimezone) return 'UTC';
  const tzid = prop.getFirstParameter('tzid');
  return time.isDate || !tzid ? 'floating' : `tz:${tzid}`;
}

/**
 * ical.js gives a date a real zone only from a VTIMEZONE in the file (or UTC); an IANA TZID without
 * one leaves it floating. A zone with an IANA name is placed by the zone database, as the matcher
 * places repeating windows: embedded VTIMEZONEs go stale (Moscow's +04:00 of 2011–2014 still turns
 * up), and a one-off and a repeating window in one zone must agree. The VTIMEZONE, through ical.js,
 * is for zones with no IANA name (Outlook's "Customized Time Zone").
 */
function instantOf(time: ICAL.Time, zone: Zone): number {
  if (zone.iana === null || time.zone === ICAL.Timezone.utcTimezone) return time.toUnixTime() * 1000;
  return wallClockToInstant(wallMs(wallOf(time)), zone.iana);
}

/** ical.js found the date's VTIMEZONE (or knows the zone from its own registry). */
function hasOwnZone(time: ICAL.Time): boolean {
  return !time.isDate && time.zone !== ICAL.Timezone.localTimezone && time.zone.tzid !== 'floating';
}

function ianaName(name: string): string | null {
  if (!isTimeZone(name)) return null;
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  // Keep the name as written (Asia/Kolkata stays, not ICU's Asia/Calcutta); fix only its case.
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

function wallAt(ms: number, iana: string): Wall {
  const local = new Date(ms + offsetAt(iana, ms));
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(), hour: local.getUTCHours(), minute: local.getUTCMinutes(), second: local.getUTCSeconds() };
}

function wallOf(time: ICAL.Time): Wall {
  return { year: time.year, month: time.month, day: time.day, hour: time.isDate ? 0 : time.hour, minute: time.isDate ? 0 : time.minute, second: time.isDate ? 0 : time.second };
}

function wallMs(w: Wall): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

function wallString(w: Wall): string {
  const d = new Date(wallMs(w)).toISOString();
  return w.second === 0 ? d.slice(0, 16) : d.slice(0, 19);
}

function textOf(component: ICAL.Component, name: string): string | null {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Trimmed, cut to max characters (never inside a surrogate pair), null when empty. */
function clip(value: string | null, max: number): string | null {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return null;
  const chars = Array.from(trimmed);
  return chars.length > max ? chars.slice(0, max).join('').trimEnd() : trimmed;
}
