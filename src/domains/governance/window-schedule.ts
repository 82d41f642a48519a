/**
 * One change or freeze window's schedule: its validation and its expansion into occurrence intervals.
 * Pure. RRULE semantics are rrule-temporal's; this file only decides where a wall-clock time lands.
 *
 * DST rule (a deliberate product choice): a recurring window's start is a local wall-clock time,
 * resolved like Temporal's `disambiguation: 'compatible'`:
 * - a start in a spring-forward gap moves forward by the gap (02:30 Europe/Berlin on the DST day
 *   becomes 03:30 CEST). RFC 5545 §3.3.10 drops such an occurrence, but a freeze that silently
 *   vanishes one night a year is worse for a change-control tool than one that starts late;
 * - a start in an autumn overlap takes the earlier offset (the first 02:30);
 * - the duration is exact elapsed minutes, so a 4-hour window across a change lasts 4 real hours.
 * rrule-temporal with a real TZID drops gap occurrences, so the rule is expanded in floating time
 * (TZID=UTC with the same wall-clock digits: UTC has no DST, so nothing is dropped) and each
 * wall-clock start is resolved in the window's zone here, from Intl.DateTimeFormat offsets.
 */
import picomatch from 'picomatch';
import { RRuleTemporal } from 'rrule-temporal';

export type WindowKind = 'change' | 'freeze';
export type WindowSchedule =
  | { type: 'rrule'; rrule: string; start: string; durationMinutes: number; timeZone: string; exdates?: string[] }
  | { type: 'once'; start: string; end: string };
export type Criticality = 'standard' | 'important' | 'critical';
export type WindowScope =
  | { type: 'all' }
  | { type: 'services'; services: string[] }
  | { type: 'environments'; environments: string[] }
  | { type: 'criticality'; atLeast: Criticality };
export type WindowDef = { id: string; name: string; kind: WindowKind; schedule: WindowSchedule; scope: WindowScope };

export type Refusal = { ok: false; field: string; reason: string };

export const MAX_DURATION_MINUTES = 10_080; // 7 days
export const MAX_ONCE_DAYS = 90;
export const MAX_EXDATES = 1_000;
export const MAX_SCOPE_ENTRIES = 200;
export const MAX_PATTERN_LENGTH = 200;
/** The criticality order of `atLeast`: standard < important < critical. */
export const CRITICALITY_RANK: Readonly<Record<Criticality, number>> = { standard: 0, important: 1, critical: 2 };
/** Globs of a scope: case-insensitive, as catalogue names are. */
export const GLOB_OPTIONS = { nocase: true, dot: true } as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Beyond any zone's offset (−12 h … +14 h) plus a DST shift: how far a wall-clock time may lie from its instant. */
const WALL_MARGIN = 17 * HOUR;
/** The largest DST shift there is (2 h, historic double summer time), with room to spare. */
const MAX_DST_SHIFT = 3 * HOUR;

const refuse = (field: string, reason: string): Refusal => ({ ok: false, field, reason });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------- wall-clock time in a zone

const WALL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const INSTANT_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i;

/** The digits of a date-time as if they were UTC, when they name a real calendar date and time. */
function digitsMs(m: RegExpExecArray): number | null {
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  const same = back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d && back.getUTCHours() === h && back.getUTCMinutes() === mi;
  return same && y >= 1970 && s < 60 ? ms : null;
}

/** 'YYYY-MM-DDTHH:MM[:SS]' → wall-clock milliseconds (the digits read as UTC), or null. */
export function parseWallClock(text: string): number | null {
  const m = WALL_RE.exec(text);
  return m ? digitsMs(m) : null;
}

/** An ISO-8601 instant with Z or an offset → epoch milliseconds, or null (a bare local time is refused). */
export function parseInstant(text: string): number | null {
  const m = INSTANT_RE.exec(text);
  return m && digitsMs(m) !== null ? Date.parse(text) : null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(zone, f);
  }
  return f;
}

/** True when Intl knows the zone by its IANA name (an offset like "+05:30" is not one). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64 || /^[+-]/.test(zone)) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

const EN_US = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;
/** The zone's UTC offset at an instant, in ms. format() + a regex is ~2.5× faster than formatToParts. */
export function offsetAt(zone: string, ms: number): number {
  if (zone === 'UTC') return 0;
  const f = formatter(zone);
  const m = EN_US.exec(f.format(ms));
  let wall: number;
  if (m) wall = Date.UTC(+m[3]!, +m[1]! - 1, +m[2]!, +m[4]!, +m[5]!, +m[6]!);
  else {
    const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, Number(x.value)]));
    wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  }
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * Wall-clock ms in a zone → the instant, disambiguated as Temporal's 'compatible' does: the
 * offsets a day either side give the candidates; both valid → an overlap, the earlier instant;
 * neither → a gap, read with the offset before it, i.e. moved forward by the gap.
 */
export function wallClockToInstant(wall: number, zone: string): number {
  const before = offsetAt(zone, wall - DAY);
  const after = offsetAt(zone, wall + DAY);
  if (before === after) return wall - before;
  const early = wall - before;
  const late = wall - after;
  const earlyOk = offsetAt(zone, early) === before;
  const lateOk = offsetAt(zone, late) === after;
  if (earlyOk && lateOk) return Math.min(early, late);
  if (earlyOk) return early;
  if (lateOk) return late;
  return early;
}

/**
 * Memoised formatting: a matcher's answers name interval boundaries, a small set asked for over
 * and over, and formatting costs more than the matching. Bounded by clearing, not an LRU: the
 * cache only saves time, never changes an answer.
 */
function memo(fn: (ms: number) => string): (ms: number) => string {
  const cache = new Map<number, string>();
  return (ms) => {
    let s = cache.get(ms);
    if (s === undefined) {
      if (cache.size >= 100_000) cache.clear();
      cache.set(ms, (s = fn(ms)));
    }
    return s;
  };
}

/** '2026-11-30T23:00:00Z' — ISO UTC without the milliseconds when they are zero. */
export const isoUtc = memo((ms) => {
  const s = new Date(ms).toISOString();
  return s.endsWith('.000Z') ? `${s.slice(0, -5)}Z` : s;
});

const describers = new Map<string, (ms: number) => string>();
/** '2026-11-30T23:00:00Z (2026-12-01 00:00 Europe/Berlin)': the instant, and the wall-clock time in the window's zone. */
export function describeInstant(ms: number, zone: string | null): string {
  if (!zone) return isoUtc(ms);
  let d = describers.get(zone);
  if (!d) {
    d = memo((t) => {
      const local = new Date(t + offsetAt(zone, t)).toISOString();
      const secs = local.slice(16, 19) === ':00' ? '' : local.slice(16, 19);
      return `${isoUtc(t)} (${local.slice(0, 10)} ${local.slice(11, 16)}${secs} ${zone})`;
    });
    describers.set(zone, d);
  }
  return d(ms);
}

// ---------------------------------------------------------------- the recurrence rule

/** A floating (TZID=UTC) value for rrule-temporal: the same wall-clock digits, in a zone without DST. */
const floating = (wall: number) => ({ timeZoneId: 'UTC', toString: () => `${new Date(wall).toISOString().slice(0, 19)}+00:00[UTC]` });

const normPart = (v: string) =>
  v.toUpperCase().split(',').map((t) => t.trim().replace(/^\+(?=\d)/, '').replace(/^(-?)0+(?=\d)/, '$1')).sort().join(',');

/**
 * rrule-temporal (even strict) silently drops what it cannot use — BYHOUR=25, an unknown or empty
 * part, the first of a repeated part — and a window at the wrong hours is worse than a refusal. So
 * each part written is looked for, with its values, in the library's own rendering of the rule.
 */
function droppedPart(written: string, rendered: string): string | null {
  const kept = new Map<string, string>();
  for (const p of rendered.split(';')) kept.set(p.slice(0, p.indexOf('=')).toUpperCase(), normPart(p.slice(p.indexOf('=') + 1)));
  for (const p of written.split(';')) {
    if (!p.trim()) continue;
    const eq = p.indexOf('=');
    const name = (eq < 0 ? p : p.slice(0, eq)).trim().toUpperCase();
    const value = eq < 0 ? '' : normPart(p.slice(eq + 1));
    if (name === 'INTERVAL' && value === '1' && !kept.has(name)) continue; // the default, not rendered
    if (kept.get(name) !== value) return p.trim();
  }
  return null;
}

type Rule = { ok: true; rule: RRuleTemporal; startWall: number; untilMs: number | null; durationMs: number; zone: string };
type RRuleSchedule = Extract<WindowSchedule, { type: 'rrule' }>;
const libraryWords = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The floating rule of a schedule whose fields are already checked, or why rrule-temporal refuses it. */
function buildRule(s: RRuleSchedule, startWall: number, exWalls: number[]): Rule | Refusal {
  const written = s.rrule.trim().replace(/^RRULE:/i, '');
  if (/[\r\n]/.test(written)) return refuse('schedule.rrule', 'must be one RRULE value, without line breaks (DTSTART and EXDATE have their own fields)');
  let rule: RRuleTemporal;
  try {
    rule = new RRuleTemporal({ rruleString: written, dtstart: floating(startWall), strict: true });
  } catch (err) {
    return refuse('schedule.rrule', `"${written}" is not a valid RFC 5545 RRULE: the library says “${libraryWords(err)}”`);
  }
  const rendered = rule.toString().split('\n').find((l) => l.startsWith('RRULE:'))?.slice(6) ?? '';
  const dropped = droppedPart(written, rendered);
  if (dropped) return refuse('schedule.rrule', `"${written}" is not a valid RFC 5545 RRULE: the part "${dropped}" is unknown, repeated or out of range, and would be ignored (read as "${rendered}")`);
  const opts = rule.options();
  if (opts.count !== undefined && !(opts.count >= 1)) return refuse('schedule.rrule', `"${written}" is not a valid RFC 5545 RRULE: COUNT must be a positive integer`);
  // A window opening every minute or second is a mistake, and would expand to millions of intervals.
  if (opts.freq === 'MINUTELY' || opts.freq === 'SECONDLY') return refuse('schedule.rrule', `a window recurs at most hourly; FREQ=${opts.freq} is not allowed`);
  // UNTIL is an instant (RFC 5545: UTC when DTSTART has a zone), but the floating rule would read
  // its digits as wall-clock time: widen it to the local time of that instant plus any DST shift,
  // and drop what resolves past the real UNTIL after resolution (occurrenceStarts).
  const untilMs = opts.until ? opts.until.epochMilliseconds : null;
  const changes: Parameters<RRuleTemporal['with']>[0] = {};
  if (untilMs !== null) changes.until = floating(untilMs + offsetAt(s.timeZone, untilMs) + MAX_DST_SHIFT);
  if (exWalls.length) changes.exDate = exWalls.map(floating);
  if (untilMs !== null || exWalls.length) rule = rule.with(changes);
  return { ok: true, rule, startWall, untilMs, durationMs: s.durationMinutes * MINUTE, zone: s.timeZone };
}

/** Occurrence starts (instants) of the rule whose floating wall-clock starts lie in [wallFrom, wallTo]. */
function occurrenceStarts(r: Rule, wallFrom: number, wallTo: number): number[] {
  const out: number[] = [];
  for (const z of r.rule.between(new Date(wallFrom), new Date(wallTo), true)) {
    const t = wallClockToInstant(z.epochMilliseconds, r.zone);
    if (r.untilMs === null || t <= r.untilMs) out.push(t);
  }
  return out;
}

// ---------------------------------------------------------------- validation

type Checked<T> = { ok: true } & T;

/** Every refusal names its field in the API's words; the schedule answered is the one to store. */
export function validateSchedule(input: unknown): Checked<{ schedule: WindowSchedule }> | Refusal {
  if (!isObject(input)) return refuse('schedule', 'must be an object with a type of "rrule" or "once"');
  if (input.type === 'once') {
    const { start, end } = input;
    const s = typeof start === 'string' ? parseInstant(start) : null;
    if (s === null) return refuse('schedule.start', 'must be an ISO-8601 date-time with Z or an offset, e.g. 2026-11-27T00:00:00Z');
    const e = typeof end === 'string' ? parseInstant(end) : null;
    if (e === null) return refuse('schedule.end', 'must be an ISO-8601 date-time with Z or an offset, e.g. 2026-11-30T23:00:00Z');
    if (e <= s) return refuse('schedule.end', 'must be after the start');
    if (e - s > MAX_ONCE_DAYS * DAY) return refuse('schedule.end', `must be at most ${MAX_ONCE_DAYS} days after the start`);
    return { ok: true, schedule: { type: 'once', start: start as string, end: end as string } };
  }
  if (input.type !== 'rrule') return refuse('schedule.type', 'must be "rrule" or "once"');
  const { rrule, start, durationMinutes, timeZone, exdates } = input;
  if (typeof rrule !== 'string' || !rrule.trim()) return refuse('schedule.rrule', 'must be an RRULE value such as "FREQ=WEEKLY;BYDAY=SA,SU"');
  if (typeof timeZone !== 'string' || !isTimeZone(timeZone)) return refuse('schedule.timeZone', `${JSON.stringify(timeZone ?? null)} is not an IANA time zone such as "Europe/Berlin"`);
  const startWall = typeof start === 'string' ? parseWallClock(start) : null;
  if (startWall === null) return refuse('schedule.start', 'must be a local date and time YYYY-MM-DDTHH:MM (seconds optional, no offset: the time zone says where)');
  if (typeof durationMinutes !== 'number' || !Number.isInteger(durationMinutes) || durationMinutes < 1 || durationMinutes > MAX_DURATION_MINUTES) {
    return refuse('schedule.durationMinutes', `must be a whole number of minutes from 1 to ${MAX_DURATION_MINUTES.toLocaleString('en-US')} (7 days)`);
  }
  if (exdates !== undefined && !Array.isArray(exdates)) return refuse('schedule.exdates', 'must be a list of local start times YYYY-MM-DDTHH:MM');
  const exList = (exdates ?? []) as unknown[];
  if (exList.length > MAX_EXDATES) return refuse('schedule.exdates', `must have at most ${MAX_EXDATES.toLocaleString('en-US')} entries`);
  const exWalls: number[] = [];
  for (const [i, x] of exList.entries()) {
    const w = typeof x === 'string' ? parseWallClock(x) : null;
    if (w === null) return refuse(`schedule.exdates.${i}`, 'must be a local start time YYYY-MM-DDTHH:MM (seconds optional)');
    exWalls.push(w);
  }
  const schedule: RRuleSchedule = { type: 'rrule', rrule: rrule.trim().replace(/^RRULE:/i, ''), start: start as string, durationMinutes, timeZone };
  if (exdates !== undefined) schedule.exdates = exList as string[];
  const plain = buildRule(schedule, startWall, []);
  if (!plain.ok) return plain;
  // An EXDATE that matches no occurrence is a typo that would leave a window in place unnoticed.
  for (const [i, w] of exWalls.entries()) {
    if (!plain.rule.matches(new Date(w))) return refuse(`schedule.exdates.${i}`, `${exList[i] as string} is not the local start of an occurrence of the rule`);
  }
  const r = buildRule(schedule, startWall, exWalls);
  if (!r.ok) return r;
  let first: number | null;
  try {
    const z = r.rule.next(new Date(startWall), true);
    first = z ? wallClockToInstant(z.epochMilliseconds, r.zone) : null;
  } catch (err) {
    return refuse('schedule.rrule', `the rule never produces an occurrence (the library gave up: “${libraryWords(err)}”)`);
  }
  if (first === null || (r.untilMs !== null && first > r.untilMs)) return refuse('schedule.rrule', 'the rule never produces an occurrence from its start (with its COUNT, UNTIL and EXDATEs)');
  return { ok: true, schedule };
}

/** A scope's lists are non-empty, bounded, and each entry a glob picomatch can compile. */
export function validateScope(input: unknown): Checked<{ scope: WindowScope }> | Refusal {
  if (!isObject(input)) return refuse('scope', 'must be an object with a type of "all", "services", "environments" or "criticality"');
  switch (input.type) {
    case 'all':
      return { ok: true, scope: { type: 'all' } };
    case 'criticality':
      if (typeof input.atLeast !== 'string' || !(input.atLeast in CRITICALITY_RANK)) return refuse('scope.atLeast', 'must be "standard", "important" or "critical"');
      return { ok: true, scope: { type: 'criticality', atLeast: input.atLeast as Criticality } };
    case 'services':
    case 'environments': {
      const key = input.type;
      const list = checkPatterns(`scope.${key}`, input[key]);
      if (!Array.isArray(list)) return list;
      return { ok: true, scope: key === 'services' ? { type: key, services: list } : { type: key, environments: list } };
    }
    default:
      return refuse('scope.type', 'must be "all", "services", "environments" or "criticality"');
  }
}

function checkPatterns(field: string, value: unknown): string[] | Refusal {
  if (!Array.isArray(value) || value.length === 0) return refuse(field, 'must be a non-empty list of names or globs');
  if (value.length > MAX_SCOPE_ENTRIES) return refuse(field, `must have at most ${MAX_SCOPE_ENTRIES} entries`);
  const out: string[] = [];
  for (const [i, v] of value.entries()) {
    const p = typeof v === 'string' ? v.trim() : '';
    if (!p) return refuse(field, `entry ${i} must be a non-empty name or glob`);
    if (p.length > MAX_PATTERN_LENGTH) return refuse(field, `entry ${i} is longer than ${MAX_PATTERN_LENGTH} characters`);
    try {
      // strictBrackets turns an unbalanced [ ( { into an error instead of a literal character.
      if (picomatch.makeRe(p, { ...GLOB_OPTIONS, strictBrackets: true }).source === '$^') return refuse(field, `entry ${i} ("${p}") is a glob that matches nothing`);
    } catch (err) {
      return refuse(field, `entry ${i} ("${p}") is not a valid glob: ${libraryWords(err)}`);
    }
    out.push(p);
  }
  return out;
}

// ---------------------------------------------------------------- expansion

/**
 * The occurrence intervals [startMs, endMs) of the window that overlap [from, to), sorted.
 * Occurrences that overlap or touch (a duration longer than the recurrence) join into one
 * interval: the window is continuously open, and "runs until" must name its real end.
 * A schedule that fails validateSchedule is a programming error here: it throws.
 */
export function expand(def: WindowDef, from: number, to: number): Array<[number, number]> {
  if (!(to > from)) return [];
  const s = def.schedule;
  if (s.type === 'once') {
    const a = parseInstant(s.start);
    const b = parseInstant(s.end);
    if (a === null || b === null) throw new Error(`window ${def.id}: its one-off schedule is not valid`);
    return a < to && b > from ? [[a, b]] : [];
  }
  const startWall = parseWallClock(s.start);
  const exWalls = (s.exdates ?? []).map(parseWallClock);
  if (startWall === null || exWalls.includes(null)) throw new Error(`window ${def.id}: its schedule is not valid`);
  const r = buildRule(s, startWall, exWalls as number[]);
  if (!r.ok) throw new Error(`window ${def.id}: ${r.field} ${r.reason}`);
  const starts = occurrenceStarts(r, from - r.durationMs - WALL_MARGIN, to + WALL_MARGIN).sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (const t of starts) {
    const e = t + r.durationMs;
    if (!(t < to && e > from)) continue;
    const last = out[out.length - 1];
    if (last && t <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([t, e]);
  }
  return out;
}

/** The window's time zone for reasons (a one-off window is written in instants and has none). */
export const zoneOf = (s: WindowSchedule): string | null => (s.type === 'rrule' ? s.timeZone : null);
