import { RRuleTemporal } from 'rrule-temporal';
import { describe, expect, it } from 'vitest';
import { describeInstant, expand, isoUtc, offsetAt, validateSchedule, validateScope, wallClockToInstant, type WindowDef, type WindowSchedule } from './window-schedule.js';

const aWindow = (schedule: WindowSchedule, over: Partial<WindowDef> = {}): WindowDef => ({ id: 'win_1', name: 'Nightly', kind: 'freeze', schedule, scope: { type: 'all' }, ...over });
const rrule = (over: Partial<Extract<WindowSchedule, { type: 'rrule' }>> = {}): WindowSchedule => ({ type: 'rrule', rrule: 'FREQ=DAILY', start: '2026-03-20T02:30', durationMinutes: 60, timeZone: 'Europe/Berlin', ...over });
const ms = (iso: string) => Date.parse(iso);
/** Occurrences as 'start → end' in UTC, the start also in the window's zone, to read the DST cases at a glance. */
const occurrences = (s: WindowSchedule, from: string, to: string) =>
  expand(aWindow(s), ms(from), ms(to)).map(([a, b]) => `${describeInstant(a, s.type === 'rrule' ? s.timeZone : null)} → ${isoUtc(b)}`);

describe('a recurring window across DST: compatible disambiguation, exact durations', () => {
  const cases: Array<{ rule: string; schedule: WindowSchedule; from: string; to: string; want: string[] }> = [
    {
      rule: 'Berlin spring-forward: 02:30 does not exist on 29 March, the start moves forward by the gap to 03:30 CEST instead of being dropped',
      schedule: rrule({ start: '2026-03-27T02:30' }),
      from: '2026-03-28T00:00Z',
      to: '2026-03-31T00:00Z',
      want: [
        '2026-03-28T01:30:00Z (2026-03-28 02:30 Europe/Berlin) → 2026-03-28T02:30:00Z',
        '2026-03-29T01:30:00Z (2026-03-29 03:30 Europe/Berlin) → 2026-03-29T02:30:00Z',
        '2026-03-30T00:30:00Z (2026-03-30 02:30 Europe/Berlin) → 2026-03-30T01:30:00Z',
      ],
    },
    {
      rule: 'Berlin fall-back: 02:30 happens twice on 25 October, the earlier offset (CEST) is taken',
      schedule: rrule({ start: '2026-10-24T02:30' }),
      from: '2026-10-24T00:00Z',
      to: '2026-10-27T00:00Z',
      want: [
        '2026-10-24T00:30:00Z (2026-10-24 02:30 Europe/Berlin) → 2026-10-24T01:30:00Z',
        '2026-10-25T00:30:00Z (2026-10-25 02:30 Europe/Berlin) → 2026-10-25T01:30:00Z',
        '2026-10-26T01:30:00Z (2026-10-26 02:30 Europe/Berlin) → 2026-10-26T02:30:00Z',
      ],
    },
    {
      rule: 'the duration is elapsed time: 3 h from 01:00 on the spring-forward night ends at 05:00 CEST, not 04:00',
      schedule: rrule({ start: '2026-03-29T01:00', durationMinutes: 180, rrule: 'FREQ=DAILY;COUNT=1' }),
      from: '2026-03-28T00:00Z',
      to: '2026-03-30T00:00Z',
      want: ['2026-03-29T00:00:00Z (2026-03-29 01:00 Europe/Berlin) → 2026-03-29T03:00:00Z'],
    },
    {
      rule: 'New York spring-forward: 02:30 on 8 March becomes 03:30 EDT',
      schedule: rrule({ start: '2026-03-07T02:30', timeZone: 'America/New_York' }),
      from: '2026-03-08T00:00Z',
      to: '2026-03-09T00:00Z',
      want: ['2026-03-08T07:30:00Z (2026-03-08 03:30 America/New_York) → 2026-03-08T08:30:00Z'],
    },
    {
      rule: 'New York fall-back: 01:30 on 1 November is the first one (EDT)',
      schedule: rrule({ start: '2026-10-31T01:30', timeZone: 'America/New_York' }),
      from: '2026-11-01T00:00Z',
      to: '2026-11-02T00:00Z',
      want: ['2026-11-01T05:30:00Z (2026-11-01 01:30 America/New_York) → 2026-11-01T06:30:00Z'],
    },
    {
      rule: 'a weekly window across the change keeps its local time (Saturday 22:00 New York), so its UTC time moves',
      schedule: rrule({ rrule: 'FREQ=WEEKLY;BYDAY=SA', start: '2026-02-28T22:00', durationMinutes: 240, timeZone: 'America/New_York' }),
      from: '2026-03-02T00:00Z',
      to: '2026-03-16T00:00Z',
      want: ['2026-03-08T03:00:00Z (2026-03-07 22:00 America/New_York) → 2026-03-08T07:00:00Z', '2026-03-15T02:00:00Z (2026-03-14 22:00 America/New_York) → 2026-03-15T06:00:00Z'],
    },
    {
      rule: 'Asia/Kolkata (+05:30, no DST): Sunday 01:00 IST is Saturday 19:30 UTC',
      schedule: rrule({ rrule: 'FREQ=WEEKLY;BYDAY=SU', start: '2026-03-01T01:00', durationMinutes: 120, timeZone: 'Asia/Kolkata' }),
      from: '2026-03-01T00:00Z',
      to: '2026-03-09T00:00Z',
      want: ['2026-03-07T19:30:00Z (2026-03-08 01:00 Asia/Kolkata) → 2026-03-07T21:30:00Z'],
    },
    {
      rule: 'Australia/Lord_Howe (a 30-minute DST): 02:15 in the 02:00–02:30 gap of 4 October becomes 02:45 (+11)',
      schedule: rrule({ start: '2026-10-03T02:15', timeZone: 'Australia/Lord_Howe' }),
      from: '2026-10-03T12:00Z',
      to: '2026-10-04T12:00Z',
      want: ['2026-10-03T15:45:00Z (2026-10-04 02:45 Australia/Lord_Howe) → 2026-10-03T16:45:00Z'],
    },
    {
      rule: 'Australia/Lord_Howe: 01:45 of the repeated half hour of 5 April is the first one (+11)',
      schedule: rrule({ start: '2026-04-04T01:45', timeZone: 'Australia/Lord_Howe' }),
      from: '2026-04-04T12:00Z',
      to: '2026-04-05T12:00Z',
      want: ['2026-04-04T14:45:00Z (2026-04-05 01:45 Australia/Lord_Howe) → 2026-04-04T15:45:00Z'],
    },
  ];
  for (const c of cases) it(c.rule, () => expect(occurrences(c.schedule, c.from, c.to)).toEqual(c.want));

  it('agrees with Temporal’s compatible disambiguation (rrule-temporal’s own, for a DTSTART) on every quarter hour around each 2026 transition', () => {
    // The oracle: rrule-temporal resolves an explicit DTSTART with Temporal 'compatible'.
    const temporal = (wall: number, zone: string) =>
      new RRuleTemporal({ rruleString: 'FREQ=DAILY;COUNT=1', dtstart: { timeZoneId: zone, toString: () => `${new Date(wall).toISOString().slice(0, 19)}[${zone}]` } }).all()[0]!.epochMilliseconds;
    const DAY = 86_400_000;
    const differ: string[] = [];
    let checked = 0;
    // 1 h DST both hemispheres, Santiago's midnight change, Lord Howe's 30 minutes, and Kolkata without DST.
    for (const zone of ['Europe/Berlin', 'America/New_York', 'America/Santiago', 'Australia/Sydney', 'Australia/Lord_Howe', 'Asia/Kolkata']) {
      for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += DAY) {
        const transition = offsetAt(zone, day - DAY) !== offsetAt(zone, day + 2 * DAY);
        if (!transition && !(zone === 'Asia/Kolkata' && new Date(day).getUTCDate() === 1)) continue;
        for (let wall = day; wall < day + DAY; wall += 15 * 60_000, checked++) {
          if (wallClockToInstant(wall, zone) !== temporal(wall, zone)) differ.push(`${zone} ${new Date(wall).toISOString()}`);
        }
      }
    }
    expect(differ).toEqual([]);
    expect(checked).toBeGreaterThan(3_000);
  });

  it('resolves a wall-clock time like Temporal compatible disambiguation, offsets from Intl', () => {
    expect(isoUtc(wallClockToInstant(Date.UTC(2026, 2, 29, 2, 30), 'Europe/Berlin'))).toBe('2026-03-29T01:30:00Z');
    expect(isoUtc(wallClockToInstant(Date.UTC(2026, 9, 25, 2, 30), 'Europe/Berlin'))).toBe('2026-10-25T00:30:00Z');
    expect(isoUtc(wallClockToInstant(Date.UTC(2026, 6, 1, 12, 0), 'UTC'))).toBe('2026-07-01T12:00:00Z');
  });
});

describe('COUNT, UNTIL, EXDATE, one-off windows and merging', () => {
  const cases: Array<{ rule: string; schedule: WindowSchedule; from: string; to: string; want: string[] }> = [
    {
      rule: 'EXDATE removes the occurrence with that local start; COUNT counts it all the same (RFC 5545: EXDATE after COUNT)',
      schedule: rrule({ rrule: 'FREQ=DAILY;COUNT=4', start: '2026-06-01T22:00', exdates: ['2026-06-02T22:00'] }),
      from: '2026-06-01T00:00Z',
      to: '2026-07-01T00:00Z',
      want: ['2026-06-01T20:00:00Z (2026-06-01 22:00 Europe/Berlin) → 2026-06-01T21:00:00Z', '2026-06-03T20:00:00Z (2026-06-03 22:00 Europe/Berlin) → 2026-06-03T21:00:00Z', '2026-06-04T20:00:00Z (2026-06-04 22:00 Europe/Berlin) → 2026-06-04T21:00:00Z'],
    },
    {
      rule: 'UNTIL is an instant: 00:30Z is 02:30 in Berlin, so the occurrence starting exactly then is the last',
      schedule: rrule({ rrule: 'FREQ=DAILY;UNTIL=20261024T003000Z', start: '2026-10-22T02:30' }),
      from: '2026-10-20T00:00Z',
      to: '2026-10-30T00:00Z',
      want: ['2026-10-22T00:30:00Z (2026-10-22 02:30 Europe/Berlin) → 2026-10-22T01:30:00Z', '2026-10-23T00:30:00Z (2026-10-23 02:30 Europe/Berlin) → 2026-10-23T01:30:00Z', '2026-10-24T00:30:00Z (2026-10-24 02:30 Europe/Berlin) → 2026-10-24T01:30:00Z'],
    },
    {
      rule: 'only occurrences overlapping [from, to) are answered, including one that started before from',
      schedule: rrule({ rrule: 'FREQ=WEEKLY;BYDAY=SA', start: '2026-05-02T20:00', durationMinutes: 600 }),
      from: '2026-05-03T00:00Z',
      to: '2026-05-10T00:00Z',
      want: ['2026-05-02T18:00:00Z (2026-05-02 20:00 Europe/Berlin) → 2026-05-03T04:00:00Z', '2026-05-09T18:00:00Z (2026-05-09 20:00 Europe/Berlin) → 2026-05-10T04:00:00Z'],
    },
    {
      rule: 'occurrences that overlap (25 h every day) join into one interval: the window never closes',
      schedule: rrule({ rrule: 'FREQ=DAILY;COUNT=3', start: '2026-06-01T00:00', durationMinutes: 1500, timeZone: 'UTC' }),
      from: '2026-05-01T00:00Z',
      to: '2026-07-01T00:00Z',
      want: ['2026-06-01T00:00:00Z (2026-06-01 00:00 UTC) → 2026-06-04T01:00:00Z'],
    },
    {
      rule: 'a one-off window is its two instants',
      schedule: { type: 'once', start: '2026-11-27T00:00:00+01:00', end: '2026-11-30T23:00:00Z' },
      from: '2026-11-01T00:00Z',
      to: '2026-12-01T00:00Z',
      want: ['2026-11-26T23:00:00Z → 2026-11-30T23:00:00Z'],
    },
    { rule: 'a one-off window outside [from, to) gives nothing', schedule: { type: 'once', start: '2026-11-27T00:00:00Z', end: '2026-11-30T23:00:00Z' }, from: '2026-12-01T00:00Z', to: '2026-12-31T00:00Z', want: [] },
  ];
  for (const c of cases) it(c.rule, () => expect(occurrences(c.schedule, c.from, c.to)).toEqual(c.want));
});

describe('validateSchedule: every refusal names its field', () => {
  const refusals: Array<{ rule: string; input: unknown; field: string; reason: string }> = [
    { rule: 'a misspelt FREQ is not an RRULE; the library is quoted', input: rrule({ rrule: 'FREQ=DAYLY' }), field: 'schedule.rrule', reason: '"FREQ=DAYLY" is not a valid RFC 5545 RRULE: the library says “Invalid FREQ value: DAYLY”' },
    { rule: 'a part the library would silently ignore is refused', input: rrule({ rrule: 'FREQ=DAILY;BYHOUR=25' }), field: 'schedule.rrule', reason: 'the part "BYHOUR=25" is unknown, repeated or out of range' },
    { rule: 'an unknown part is refused', input: rrule({ rrule: 'FREQ=DAILY;X-TEAM=ops' }), field: 'schedule.rrule', reason: 'the part "X-TEAM=ops"' },
    { rule: 'COUNT with UNTIL breaks RFC 5545', input: rrule({ rrule: 'FREQ=DAILY;COUNT=3;UNTIL=20270101T000000Z' }), field: 'schedule.rrule', reason: 'COUNT and UNTIL MUST NOT occur in the same recurrence rule' },
    { rule: 'COUNT=0 is refused', input: rrule({ rrule: 'FREQ=DAILY;COUNT=0' }), field: 'schedule.rrule', reason: 'COUNT must be a positive integer' },
    { rule: 'a window recurs at most hourly', input: rrule({ rrule: 'FREQ=MINUTELY;INTERVAL=30' }), field: 'schedule.rrule', reason: 'FREQ=MINUTELY is not allowed' },
    { rule: 'DTSTART or EXDATE lines smuggled into the rule are refused', input: rrule({ rrule: 'FREQ=DAILY\nEXDATE:20260321T023000' }), field: 'schedule.rrule', reason: 'without line breaks' },
    { rule: 'a rule that can never produce an occurrence (30 February)', input: rrule({ rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' }), field: 'schedule.rrule', reason: 'the rule never produces an occurrence' },
    { rule: 'a rule whose only occurrence is excluded', input: rrule({ rrule: 'FREQ=DAILY;COUNT=1', exdates: ['2026-03-20T02:30'] }), field: 'schedule.rrule', reason: 'never produces an occurrence from its start' },
    { rule: 'an UNTIL before the first start', input: rrule({ rrule: 'FREQ=DAILY;UNTIL=20260320T000000Z' }), field: 'schedule.rrule', reason: 'never produces an occurrence from its start' },
    { rule: 'an unknown zone', input: rrule({ timeZone: 'Mars/Olympus' }), field: 'schedule.timeZone', reason: '"Mars/Olympus" is not an IANA time zone' },
    { rule: 'an offset is not a zone', input: rrule({ timeZone: '+05:30' }), field: 'schedule.timeZone', reason: 'is not an IANA time zone' },
    { rule: 'a start that is not a calendar date', input: rrule({ start: '2026-02-30T10:00' }), field: 'schedule.start', reason: 'must be a local date and time YYYY-MM-DDTHH:MM' },
    { rule: 'a start with an offset (the zone says where)', input: rrule({ start: '2026-03-20T02:30Z' }), field: 'schedule.start', reason: 'no offset' },
    { rule: 'a duration of zero', input: rrule({ durationMinutes: 0 }), field: 'schedule.durationMinutes', reason: 'from 1 to 10,080 (7 days)' },
    { rule: 'a duration over 7 days', input: rrule({ durationMinutes: 10_081 }), field: 'schedule.durationMinutes', reason: 'from 1 to 10,080' },
    { rule: 'a fractional duration', input: rrule({ durationMinutes: 1.5 }), field: 'schedule.durationMinutes', reason: 'whole number of minutes' },
    { rule: 'an EXDATE that is not a time', input: rrule({ exdates: ['tomorrow'] }), field: 'schedule.exdates.0', reason: 'must be a local start time' },
    { rule: 'an EXDATE that matches no occurrence (a typo would keep the window)', input: rrule({ exdates: ['2026-03-21T02:30', '2026-03-22T03:30'] }), field: 'schedule.exdates.1', reason: '2026-03-22T03:30 is not the local start of an occurrence' },
    { rule: 'a one-off end before its start', input: { type: 'once', start: '2026-11-30T00:00:00Z', end: '2026-11-29T00:00:00Z' }, field: 'schedule.end', reason: 'must be after the start' },
    { rule: 'a one-off window over 90 days', input: { type: 'once', start: '2026-01-01T00:00:00Z', end: '2026-04-02T00:00:01Z' }, field: 'schedule.end', reason: 'at most 90 days' },
    { rule: 'a one-off start without an offset', input: { type: 'once', start: '2026-11-27T00:00:00', end: '2026-11-29T00:00:00Z' }, field: 'schedule.start', reason: 'with Z or an offset' },
    { rule: 'an unknown type', input: { type: 'weekly' }, field: 'schedule.type', reason: 'must be "rrule" or "once"' },
    { rule: 'not an object', input: 'FREQ=DAILY', field: 'schedule', reason: 'must be an object' },
  ];
  for (const c of refusals) {
    it(`refuses ${c.rule}`, () => {
      const r = validateSchedule(c.input);
      expect(r).toMatchObject({ ok: false, field: c.field });
      expect(r.ok ? '' : r.reason).toContain(c.reason);
    });
  }

  it('accepts a leading "RRULE:" and strips it, and a COUNT long in the past', () => {
    expect(validateSchedule(rrule({ rrule: 'RRULE:FREQ=WEEKLY;BYDAY=SA,SU', exdates: ['2026-03-21T02:30'] }))).toEqual({ ok: true, schedule: rrule({ rrule: 'FREQ=WEEKLY;BYDAY=SA,SU', exdates: ['2026-03-21T02:30'] }) });
    expect(validateSchedule(rrule({ rrule: 'FREQ=DAILY;COUNT=2', start: '2019-01-01T00:00' })).ok).toBe(true);
    expect(validateSchedule({ type: 'once', start: '2026-11-27T00:00:00+01:00', end: '2026-11-30T23:00:00Z' }).ok).toBe(true);
  });
});

describe('validateScope', () => {
  const refusals: Array<{ rule: string; input: unknown; field: string; reason: string }> = [
    { rule: 'an empty service list', input: { type: 'services', services: [] }, field: 'scope.services', reason: 'non-empty list' },
    { rule: 'over 200 services', input: { type: 'services', services: Array.from({ length: 201 }, (_, i) => `svc:s${i}`) }, field: 'scope.services', reason: 'at most 200 entries' },
    { rule: 'an unbalanced glob, in picomatch’s words', input: { type: 'services', services: ['svc:checkout', 'svc:[pay'] }, field: 'scope.services', reason: 'entry 1 ("svc:[pay") is not a valid glob: Missing closing: "]"' },
    { rule: 'a glob longer than 200 characters', input: { type: 'environments', environments: ['p'.repeat(201)] }, field: 'scope.environments', reason: 'longer than 200 characters' },
    { rule: 'a blank environment', input: { type: 'environments', environments: ['prod', ' '] }, field: 'scope.environments', reason: 'entry 1 must be a non-empty name or glob' },
    { rule: 'an unknown criticality', input: { type: 'criticality', atLeast: 'high' }, field: 'scope.atLeast', reason: 'must be "standard", "important" or "critical"' },
    { rule: 'an unknown scope type', input: { type: 'teams', teams: ['ops'] }, field: 'scope.type', reason: 'must be "all", "services", "environments" or "criticality"' },
  ];
  for (const c of refusals) {
    it(`refuses ${c.rule}`, () => {
      const r = validateScope(c.input);
      expect(r).toMatchObject({ ok: false, field: c.field });
      expect(r.ok ? '' : r.reason).toContain(c.reason);
    });
  }
  it('accepts names and globs, trimmed', () => {
    expect(validateScope({ type: 'services', services: [' svc:pay* ', 'checkout'] })).toEqual({ ok: true, scope: { type: 'services', services: ['svc:pay*', 'checkout'] } });
    expect(validateScope({ type: 'all' })).toEqual({ ok: true, scope: { type: 'all' } });
  });
});
