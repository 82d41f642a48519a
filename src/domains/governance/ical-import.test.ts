import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IcsError, MAX_ICS_EVENTS, SKIP, parseFreezeCalendar } from './ical-import.js';

const NOW = Date.parse('2026-08-01T00:00:00Z');
const lines = (...rows: string[]) => rows.join('\r\n') + '\r\n';

const BERLIN_VTIMEZONE = [
  'BEGIN:VTIMEZONE', 'TZID:Europe/Berlin', 'X-LIC-LOCATION:Europe/Berlin',
  'BEGIN:DAYLIGHT', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'TZNAME:CEST', 'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'END:DAYLIGHT',
  'BEGIN:STANDARD', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'TZNAME:CET', 'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', 'END:STANDARD', 'END:VTIMEZONE',
];

/** Shaped like Google Calendar's "Export": CRLF, folded lines, X-WR-*, one VTIMEZONE per zone used. */
const GOOGLE = lines(
  'BEGIN:VCALENDAR', 'PRODID:-//Google Inc//Google Calendar 70.9054//EN', 'VERSION:2.0', 'CALSCALE:GREGORIAN',
  'METHOD:PUBLISH', 'X-WR-CALNAME:Release freezes', 'X-WR-TIMEZONE:Europe/Berlin',
  ...BERLIN_VTIMEZONE,
  'BEGIN:VTIMEZONE', 'TZID:America/New_York', 'X-LIC-LOCATION:America/New_York',
  'BEGIN:DAYLIGHT', 'TZOFFSETFROM:-0500', 'TZOFFSETTO:-0400', 'TZNAME:EDT', 'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU', 'END:DAYLIGHT',
  'BEGIN:STANDARD', 'TZOFFSETFROM:-0400', 'TZOFFSETTO:-0500', 'TZNAME:EST', 'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU', 'END:STANDARD', 'END:VTIMEZONE',
  'BEGIN:VEVENT', 'DTSTART;TZID=Europe/Berlin:20260905T180000', 'DTEND;TZID=Europe/Berlin:20260907T060000',
  'RRULE:FREQ=WEEKLY;WKST=MO;UNTIL=20271231T225959Z;BYDAY=SA',
  'EXDATE;TZID=Europe/Berlin:20261003T180000', 'EXDATE;TZID=Europe/Berlin:20261226T180000',
  'DTSTAMP:20260720T090000Z', 'UID:7kukuqrfedlm2f9t0vr1ehqtbs@google.com', 'CREATED:20260615T081500Z',
  'DESCRIPTION:No production deploys from Saturday evening to Monday morning. Em',
  ' ergencies go through the on-call lead\\, see the runbook.',
  'LAST-MODIFIED:20260720T085900Z', 'SEQUENCE:2', 'STATUS:CONFIRMED', 'SUMMARY:Weekend change freeze', 'TRANSP:OPAQUE', 'END:VEVENT',
  'BEGIN:VEVENT', 'DTSTART;TZID=Europe/Berlin:20261010T200000', 'DTEND;TZID=Europe/Berlin:20261012T060000',
  'DTSTAMP:20260720T090000Z', 'UID:7kukuqrfedlm2f9t0vr1ehqtbs@google.com', 'RECURRENCE-ID;TZID=Europe/Berlin:20261010T180000',
  'SEQUENCE:3', 'STATUS:CONFIRMED', 'SUMMARY:Weekend change freeze (starts late)', 'TRANSP:OPAQUE', 'END:VEVENT',
  'BEGIN:VEVENT', 'DTSTART;VALUE=DATE:20261224', 'DTEND;VALUE=DATE:20261227', 'DTSTAMP:20260720T090000Z',
  'UID:1d9qv4m0c5h2o6l8r3s7t1u9vb@google.com', 'SUMMARY:Christmas freeze', 'TRANSP:TRANSPARENT', 'END:VEVENT',
  'BEGIN:VEVENT', 'DTSTART;TZID=America/New_York:20261125T180000', 'DTEND;TZID=America/New_York:20261130T090000',
  'DTSTAMP:20260720T090000Z', 'UID:0a1b2c3d4e5f6g7h8i9j0k1l2m@google.com', 'SUMMARY:  Black Friday freeze (US shop)  ', 'END:VEVENT',
  'BEGIN:VEVENT', 'DTSTART;TZID=Europe/Berlin:20261030T080000', 'DTEND;TZID=Europe/Berlin:20261030T200000',
  'UID:9z8y7x6w5v4u3t2s1r0q9p8o7n@google.com', 'SUMMARY:Data-centre move', 'TRANSP:TRANSPARENT', 'END:VEVENT',
  'BEGIN:VEVENT', 'DTSTART;TZID=Europe/Berlin:20260915T090000', 'DTEND;TZID=Europe/Berlin:20260915T170000',
  'UID:cancelled01@google.com', 'SUMMARY:Audit freeze', 'STATUS:CANCELLED', 'END:VEVENT',
  'BEGIN:VEVENT', 'DTSTART;TZID=Europe/Berlin:20260301T000000', 'DTEND;TZID=Europe/Berlin:20260302T000000',
  'UID:past01@google.com', 'SUMMARY:Year-end close', 'END:VEVENT',
  'END:VCALENDAR',
);

/** Shaped like an Exchange/Outlook "Publish calendar" feed: Windows zone ids, Outlook's VTIMEZONEs. */
const outlookZone = (tzid: string) => [
  'BEGIN:VTIMEZONE', `TZID:${tzid}`,
  'BEGIN:STANDARD', 'DTSTART:16010101T030000', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10', 'END:STANDARD',
  'BEGIN:DAYLIGHT', 'DTSTART:16010101T020000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3', 'END:DAYLIGHT', 'END:VTIMEZONE',
];
const outlookEvent = (uid: string, summary: string, ...rows: string[]) => [
  'BEGIN:VEVENT', 'CLASS:PUBLIC', 'PRIORITY:5', 'SEQUENCE:0', `SUMMARY;LANGUAGE=en-US:${summary}`,
  `UID:040000008200E00074C5B7101A82E00800000000${uid}`, 'X-MICROSOFT-CDO-BUSYSTATUS:BUSY', ...rows, 'END:VEVENT',
];
const OUTLOOK = lines(
  'BEGIN:VCALENDAR', 'METHOD:PUBLISH', 'PRODID:Microsoft Exchange Server 2010', 'VERSION:2.0', 'X-WR-CALNAME:Ops change freezes',
  ...outlookZone('W. Europe Standard Time'), ...outlookZone('Customized Time Zone'),
  ...outlookEvent('A1', 'Quarter-end freeze', 'DTSTART;TZID=W. Europe Standard Time:20260928T000000', 'DTEND;TZID=W. Europe Standard Time:20261002T000000'),
  ...outlookEvent('A2', 'Friday afternoon freeze', 'RRULE:FREQ=WEEKLY;UNTIL=20270625T140000Z;INTERVAL=1;BYDAY=FR;WKST=SU',
    'EXDATE;TZID=W. Europe Standard Time:20261225T160000', 'DTSTART;TZID=W. Europe Standard Time:20260904T160000', 'DTEND;TZID=W. Europe Standard Time:20260905T000000'),
  ...outlookEvent('A3', 'Payroll freeze', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=25', 'DTSTART;TZID=Customized Time Zone:20260825T080000', 'DTEND;TZID=Customized Time Zone:20260825T180000'),
  ...outlookEvent('A4', 'Pen-test window', 'DTSTART;TZID=Customized Time Zone:20261104T090000', 'DTEND;TZID=Customized Time Zone:20261104T170000'),
  ...outlookEvent('A5', 'Vendor maintenance', 'DTSTART;TZID=Mystery Standard Time:20261104T090000', 'DTEND;TZID=Mystery Standard Time:20261104T170000'),
  ...outlookEvent('A6', 'New Year freeze', 'DTSTART;VALUE=DATE:20261231', 'DTEND;VALUE=DATE:20270101', 'X-MICROSOFT-CDO-ALLDAYEVENT:TRUE'),
  'END:VCALENDAR',
);

/** Shaped like a Nextcloud (SabreDAV) export: VTIMEZONE without X-LIC-LOCATION, DURATION, UTC and floating times. */
const NEXTCLOUD = lines(
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'CALSCALE:GREGORIAN', 'PRODID:-//SabreDAV//SabreDAV//EN', 'X-WR-CALNAME:Platform freezes',
  'X-APPLE-CALENDAR-COLOR:#0082c9', 'REFRESH-INTERVAL;VALUE=DURATION:PT4H',
  ...BERLIN_VTIMEZONE.filter((row) => !row.startsWith('X-LIC-LOCATION')),
  'BEGIN:VEVENT', 'UID:3f0c1e2a-5b7d-4c8e-9f10-112233445566', 'DTSTAMP:20260701T100000Z', 'SUMMARY:Release weekend',
  'DTSTART;TZID=Europe/Berlin:20261002T170000', 'DURATION:PT64H', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:4a1d2e3f-6c8e-4d9f-a021-223344556677', 'SUMMARY:Nightly batch freeze',
  'DTSTART;TZID=Europe/Berlin:20260901T230000', 'DURATION:PT6H', 'RRULE:FREQ=DAILY', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:5b2e3f40-7d9f-4ea0-b132-334455667788', 'SUMMARY:Database failover test',
  'DTSTART:20261015T220000Z', 'DTEND:20261016T020000Z', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:6c3f4051-8ea0-4fb1-c243-445566778899', 'SUMMARY:Patch Sunday',
  'DTSTART:20260906T020000Z', 'DTEND:20260906T040000Z', 'RRULE:FREQ=MONTHLY;COUNT=12;BYDAY=1SU', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:7d405162-9fb1-40c2-d354-5566778899aa', 'SUMMARY:Town-hall demo', 'DESCRIPTION:',
  'DTSTART:20261120T200000', 'DTEND:20261120T230000', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:8e516273-a0c2-41d3-e465-66778899aabb', 'SUMMARY:Monday stand-up freeze',
  'DTSTART:20260907T090000', 'DTEND:20260907T100000', 'RRULE:FREQ=WEEKLY;BYDAY=MO', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:9f627384-b1d3-42e4-f576-778899aabbcc', 'SUMMARY:Year-end freeze',
  'DTSTART;VALUE=DATE:20261231', 'DTEND;VALUE=DATE:20270102', 'RRULE:FREQ=YEARLY', 'END:VEVENT',
  'BEGIN:VEVENT', 'SUMMARY:Migration window', 'DTSTART;TZID=Europe/Berlin:20261107T060000', 'DTEND;TZID=Europe/Berlin:20261107T120000', 'END:VEVENT',
  'END:VCALENDAR',
);

describe('parseFreezeCalendar on real-shaped exports', () => {
  it('Google: a weekly series with its EXDATEs, all-day days in X-WR-TIMEZONE, times through the VTIMEZONEs; moved, cancelled and past events skipped', () => {
    const result = parseFreezeCalendar(GOOGLE, { defaultTimeZone: 'UTC', now: NOW });
    expect(result.calendarName).toBe('Release freezes');
    expect(result.windows).toEqual([
      {
        uid: '7kukuqrfedlm2f9t0vr1ehqtbs@google.com', name: 'Weekend change freeze',
        description: 'No production deploys from Saturday evening to Monday morning. Emergencies go through the on-call lead, see the runbook.',
        schedule: { type: 'rrule', rrule: 'FREQ=WEEKLY;BYDAY=SA;UNTIL=20271231T225959Z', start: '2026-09-05T18:00', durationMinutes: 2160, timeZone: 'Europe/Berlin', exdates: ['2026-10-03T18:00', '2026-12-26T18:00'] },
      },
      // Christmas is 24–26 December in Berlin, the calendar's zone, not in the default UTC.
      { uid: '1d9qv4m0c5h2o6l8r3s7t1u9vb@google.com', name: 'Christmas freeze', description: null, schedule: { type: 'once', start: '2026-12-23T23:00:00Z', end: '2026-12-26T23:00:00Z' } },
      { uid: '0a1b2c3d4e5f6g7h8i9j0k1l2m@google.com', name: 'Black Friday freeze (US shop)', description: null, schedule: { type: 'once', start: '2026-11-25T23:00:00Z', end: '2026-11-30T14:00:00Z' } },
      // 30 October is after the clocks went back on the 25th: CET, +01:00. Free (TRANSPARENT) time is imported all the same.
      { uid: '9z8y7x6w5v4u3t2s1r0q9p8o7n@google.com', name: 'Data-centre move', description: null, schedule: { type: 'once', start: '2026-10-30T07:00:00Z', end: '2026-10-30T19:00:00Z' } },
    ]);
    expect(result.skipped).toEqual([
      { uid: '7kukuqrfedlm2f9t0vr1ehqtbs@google.com', name: 'Weekend change freeze (starts late)', reason: 'a moved single occurrence is not imported; the series is' },
      { uid: 'cancelled01@google.com', name: 'Audit freeze', reason: SKIP.cancelled },
      { uid: 'past01@google.com', name: 'Year-end close', reason: 'ended before the import' },
    ]);
  });

  it('Outlook: Windows zone ids map to IANA names; a custom zone converts through its VTIMEZONE but cannot repeat; an undefined zone is refused', () => {
    const result = parseFreezeCalendar(OUTLOOK, { defaultTimeZone: 'Europe/Amsterdam', now: NOW });
    const uid = (n: string) => `040000008200E00074C5B7101A82E00800000000${n}`;
    expect(result.calendarName).toBe('Ops change freezes');
    expect(result.windows).toEqual([
      { uid: uid('A1'), name: 'Quarter-end freeze', description: null, schedule: { type: 'once', start: '2026-09-27T22:00:00Z', end: '2026-10-01T22:00:00Z' } },
      {
        uid: uid('A2'), name: 'Friday afternoon freeze', description: null,
        schedule: { type: 'rrule', rrule: 'FREQ=WEEKLY;BYDAY=FR;UNTIL=20270625T140000Z;WKST=SU', start: '2026-09-04T16:00', durationMinutes: 480, timeZone: 'Europe/Berlin', exdates: ['2026-12-25T16:00'] },
      },
      { uid: uid('A4'), name: 'Pen-test window', description: null, schedule: { type: 'once', start: '2026-11-04T08:00:00Z', end: '2026-11-04T16:00:00Z' } },
      // No X-WR-TIMEZONE: the all-day event falls back to the default zone.
      { uid: uid('A6'), name: 'New Year freeze', description: null, schedule: { type: 'once', start: '2026-12-30T23:00:00Z', end: '2026-12-31T23:00:00Z' } },
    ]);
    expect(result.skipped).toEqual([
      { uid: uid('A3'), name: 'Payroll freeze', reason: 'it repeats in the time zone "Customized Time Zone", which has no standard (IANA) name this import knows; export the calendar with IANA zones such as Europe/Berlin' },
      { uid: uid('A5'), name: 'Vendor maintenance', reason: 'its time zone "Mystery Standard Time" is neither a standard (IANA) name nor defined in the calendar (VTIMEZONE)' },
    ]);
  });

  it('Nextcloud: DURATION instead of DTEND, UTC series in "UTC", floating times in the default zone, all-day series at 00:00 for 1440 × days', () => {
    const result = parseFreezeCalendar(NEXTCLOUD, { defaultTimeZone: 'America/Chicago', now: NOW });
    expect(result.calendarName).toBe('Platform freezes');
    expect(result.skipped).toEqual([]);
    expect(result.windows.map((w) => [w.name, w.schedule])).toEqual([
      ['Release weekend', { type: 'once', start: '2026-10-02T15:00:00Z', end: '2026-10-05T07:00:00Z' }],
      ['Nightly batch freeze', { type: 'rrule', rrule: 'FREQ=DAILY', start: '2026-09-01T23:00', durationMinutes: 360, timeZone: 'Europe/Berlin' }],
      ['Database failover test', { type: 'once', start: '2026-10-15T22:00:00Z', end: '2026-10-16T02:00:00Z' }],
      ['Patch Sunday', { type: 'rrule', rrule: 'FREQ=MONTHLY;COUNT=12;BYDAY=1SU', start: '2026-09-06T02:00', durationMinutes: 120, timeZone: 'UTC' }],
      ['Town-hall demo', { type: 'once', start: '2026-11-21T02:00:00Z', end: '2026-11-21T05:00:00Z' }],
      ['Monday stand-up freeze', { type: 'rrule', rrule: 'FREQ=WEEKLY;BYDAY=MO', start: '2026-09-07T09:00', durationMinutes: 60, timeZone: 'America/Chicago' }],
      ['Year-end freeze', { type: 'rrule', rrule: 'FREQ=YEARLY', start: '2026-12-31T00:00', durationMinutes: 2880, timeZone: 'America/Chicago' }],
      ['Migration window', { type: 'once', start: '2026-11-07T05:00:00Z', end: '2026-11-07T11:00:00Z' }],
    ]);
    expect(result.windows[4]!.description).toBeNull();
  });

  it('an event without UID gets "nouid-" + sha256 of DTSTART and SUMMARY, the same on every import', () => {
    const uidOf = (text: string) => parseFreezeCalendar(text, { defaultTimeZone: 'UTC', now: NOW }).windows.at(-1)!.uid;
    expect(uidOf(NEXTCLOUD)).toMatch(/^nouid-[0-9a-f]{64}$/);
    expect(uidOf(NEXTCLOUD)).toBe(uidOf(NEXTCLOUD.replace('Platform freezes', 'Renamed calendar')));
    expect(uidOf(NEXTCLOUD)).not.toBe(uidOf(NEXTCLOUD.replace('SUMMARY:Migration window', 'SUMMARY:Migration window 2')));
  });
});

const calendar = (head: string[], ...events: string[][]) =>
  lines('BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//changeledger tests//EN', ...head, ...events.flatMap((e) => ['BEGIN:VEVENT', ...e, 'END:VEVENT']), 'END:VCALENDAR');
const one = (text: string, defaultTimeZone = 'Europe/Berlin') => {
  const result = parseFreezeCalendar(text, { defaultTimeZone, now: NOW });
  expect(result.windows.length + result.skipped.length).toBe(1);
  return result.windows[0]?.schedule ?? result.skipped[0]!.reason;
};

describe('one event → one schedule or one reason', () => {
  const cases: { rule: string; head?: string[]; event: string[]; expected: unknown }[] = [
    { rule: 'an IANA TZID without a VTIMEZONE is placed through the zone database (CEST in summer)', event: ['UID:a', 'DTSTART;TZID=Europe/Berlin:20260815T100000', 'DTEND;TZID=Europe/Berlin:20260815T120000'], expected: { type: 'once', start: '2026-08-15T08:00:00Z', end: '2026-08-15T10:00:00Z' } },
    {
      rule: 'an IANA TZID is placed by the zone database even when a stale VTIMEZONE says otherwise (Moscow, +04:00 until 2014)',
      head: ['BEGIN:VTIMEZONE', 'TZID:Europe/Moscow', 'BEGIN:STANDARD', 'DTSTART:19700101T000000', 'TZOFFSETFROM:+0400', 'TZOFFSETTO:+0400', 'END:STANDARD', 'END:VTIMEZONE'],
      event: ['UID:a', 'DTSTART;TZID=Europe/Moscow:20261001T120000', 'DTEND;TZID=Europe/Moscow:20261001T130000'], expected: { type: 'once', start: '2026-10-01T09:00:00Z', end: '2026-10-01T10:00:00Z' },
    },
    { rule: 'DURATION days are nominal: P1D over the October clock change lasts 25 hours', event: ['UID:a', 'DTSTART;TZID=Europe/Berlin:20261024T120000', 'DURATION:P1D'], expected: { type: 'once', start: '2026-10-24T10:00:00Z', end: '2026-10-25T11:00:00Z' } },
    { rule: 'DURATION hours are exact: PT24H over the same change lasts 24 hours', event: ['UID:a', 'DTSTART;TZID=Europe/Berlin:20261024T120000', 'DURATION:PT24H'], expected: { type: 'once', start: '2026-10-24T10:00:00Z', end: '2026-10-25T10:00:00Z' } },
    { rule: 'a start in the spring gap moves forward by the gap', event: ['UID:a', 'DTSTART;TZID=Europe/Berlin:20270328T023000', 'DTEND;TZID=Europe/Berlin:20270328T050000'], expected: { type: 'once', start: '2027-03-28T01:30:00Z', end: '2027-03-28T03:00:00Z' } },
    { rule: 'a start in the autumn overlap takes the earlier instant', event: ['UID:a', 'DTSTART;TZID=Europe/Berlin:20261025T023000', 'DTEND;TZID=Europe/Berlin:20261025T050000'], expected: { type: 'once', start: '2026-10-25T00:30:00Z', end: '2026-10-25T04:00:00Z' } },
    { rule: 'an all-day event without DTEND lasts its one day', event: ['UID:a', 'DTSTART;VALUE=DATE:20261224'], expected: { type: 'once', start: '2026-12-23T23:00:00Z', end: '2026-12-24T23:00:00Z' } },
    { rule: 'X-WR-TIMEZONE wins over the default for floating times', head: ['X-WR-TIMEZONE:Asia/Tokyo'], event: ['UID:a', 'DTSTART:20261001T090000', 'DTEND:20261001T180000'], expected: { type: 'once', start: '2026-10-01T00:00:00Z', end: '2026-10-01T09:00:00Z' } },
    { rule: 'a Windows zone id as X-WR-TIMEZONE is mapped', head: ['X-WR-TIMEZONE:Pacific Standard Time'], event: ['UID:a', 'DTSTART:20261001T090000', 'RRULE:FREQ=DAILY', 'DURATION:PT1H'], expected: { type: 'rrule', rrule: 'FREQ=DAILY', start: '2026-10-01T09:00', durationMinutes: 60, timeZone: 'America/Los_Angeles' } },
    { rule: 'an unknown X-WR-TIMEZONE refuses floating times', head: ['X-WR-TIMEZONE:Mars/Olympus_Mons'], event: ['UID:a', 'DTSTART:20261001T090000', 'DTEND:20261001T180000'], expected: 'it has no time zone of its own and the calendar\'s time zone "Mars/Olympus_Mons" is not a standard (IANA) name' },
    { rule: 'a TZID with the wrong case is given its canonical spelling', event: ['UID:a', 'DTSTART;TZID=europe/paris:20261001T090000', 'RRULE:FREQ=WEEKLY', 'DURATION:PT2H'], expected: { type: 'rrule', rrule: 'FREQ=WEEKLY', start: '2026-10-01T09:00', durationMinutes: 120, timeZone: 'Europe/Paris' } },
    { rule: 'seconds are kept in the start when present, and a part minute counts whole', event: ['UID:a', 'DTSTART;TZID=Europe/Berlin:20261001T090030', 'DTEND;TZID=Europe/Berlin:20261001T100000', 'RRULE:FREQ=DAILY'], expected: { type: 'rrule', rrule: 'FREQ=DAILY', start: '2026-10-01T09:00:30', durationMinutes: 60, timeZone: 'Europe/Berlin' } },
    { rule: 'a series takes the wall-clock length even when its first occurrence crosses a clock change', event: ['UID:a', 'DTSTART;TZID=Europe/Berlin:20261024T180000', 'DTEND;TZID=Europe/Berlin:20261026T060000', 'RRULE:FREQ=WEEKLY'], expected: { type: 'rrule', rrule: 'FREQ=WEEKLY', start: '2026-10-24T18:00', durationMinutes: 2160, timeZone: 'Europe/Berlin' } },
    { rule: 'a UTC EXDATE of a Berlin series becomes Berlin wall-clock', event: ['UID:a', 'DTSTART;TZID=Europe/Berlin:20260905T180000', 'DURATION:PT12H', 'RRULE:FREQ=WEEKLY', 'EXDATE:20261107T170000Z,20260912T160000Z'], expected: { type: 'rrule', rrule: 'FREQ=WEEKLY', start: '2026-09-05T18:00', durationMinutes: 720, timeZone: 'Europe/Berlin', exdates: ['2026-09-12T18:00', '2026-11-07T18:00'] } },
    { rule: 'an all-day series has its EXDATE days at 00:00 and its date UNTIL as the end of that day in UTC', event: ['UID:a', 'DTSTART;VALUE=DATE:20261205', 'RRULE:FREQ=WEEKLY;UNTIL=20270130', 'EXDATE;VALUE=DATE:20261226'], expected: { type: 'rrule', rrule: 'FREQ=WEEKLY;UNTIL=20270130T225959Z', start: '2026-12-05T00:00', durationMinutes: 1440, timeZone: 'Europe/Berlin', exdates: ['2026-12-26T00:00'] } },
    { rule: 'a floating UNTIL is placed in the series zone', event: ['UID:a', 'DTSTART:20261205T080000', 'DURATION:PT1H', 'RRULE:FREQ=DAILY;UNTIL=20261231T080000'], expected: { type: 'rrule', rrule: 'FREQ=DAILY;UNTIL=20261231T070000Z', start: '2026-12-05T08:00', durationMinutes: 60, timeZone: 'Europe/Berlin' } },
    { rule: 'a series whose UNTIL is before now ended', event: ['UID:a', 'DTSTART:20260105T080000Z', 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;UNTIL=20260601T000000Z'], expected: SKIP.ended },
    { rule: 'a COUNT series whose last occurrence is over ended', event: ['UID:a', 'DTSTART:20260105T080000Z', 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;COUNT=4'], expected: SKIP.ended },
    { rule: 'a COUNT series with an occurrence still to come is imported', event: ['UID:a', 'DTSTART:20260105T080000Z', 'DURATION:PT1H', 'RRULE:FREQ=MONTHLY;COUNT=9'], expected: { type: 'rrule', rrule: 'FREQ=MONTHLY;COUNT=9', start: '2026-01-05T08:00', durationMinutes: 60, timeZone: 'UTC' } },
    { rule: 'an event still running at the import is kept', event: ['UID:a', 'DTSTART:20260731T000000Z', 'DTEND:20260802T000000Z'], expected: { type: 'once', start: '2026-07-31T00:00:00Z', end: '2026-08-02T00:00:00Z' } },
    { rule: 'a repeating window over 7 days is refused with its length', event: ['UID:a', 'DTSTART:20260905T000000Z', 'DURATION:P8D', 'RRULE:FREQ=MONTHLY'], expected: 'each occurrence lasts 11520 minutes, but a repeating window must last from 1 minute to 7 days (10,080 minutes)' },
    { rule: 'a timed series without DTEND or DURATION lasts nothing and is refused', event: ['UID:a', 'DTSTART:20260905T000000Z', 'RRULE:FREQ=DAILY'], expected: 'each occurrence lasts 0 minutes, but a repeating window must last from 1 minute to 7 days (10,080 minutes)' },
    { rule: 'a timed event ending at its start covers no time', event: ['UID:a', 'DTSTART:20260905T000000Z'], expected: SKIP.empty },
    { rule: 'an event ending before it starts covers no time', event: ['UID:a', 'DTSTART:20260905T000000Z', 'DTEND:20260904T000000Z'], expected: SKIP.empty },
    { rule: 'a one-off event over 90 days is refused', event: ['UID:a', 'DTSTART;VALUE=DATE:20260901', 'DTEND;VALUE=DATE:20261201'], expected: SKIP.tooLong },
    { rule: 'an EXDATE on no occurrence (left over from an edited series) is dropped, the others kept', event: ['UID:a', 'DTSTART;TZID=Europe/Berlin:20260905T180000', 'DURATION:PT12H', 'RRULE:FREQ=WEEKLY', 'EXDATE;TZID=Europe/Berlin:20260912T170000,20260919T180000'], expected: { type: 'rrule', rrule: 'FREQ=WEEKLY', start: '2026-09-05T18:00', durationMinutes: 720, timeZone: 'Europe/Berlin', exdates: ['2026-09-19T18:00'] } },
    { rule: 'what the matcher would refuse is skipped in its words', event: ['UID:a', 'DTSTART:20260905T000000Z', 'DURATION:PT1M', 'RRULE:FREQ=MINUTELY;INTERVAL=30'], expected: 'it cannot be kept as a window: schedule.rrule a window recurs at most hourly; FREQ=MINUTELY is not allowed' },
    { rule: 'RDATE cannot be a window', event: ['UID:a', 'DTSTART:20260905T000000Z', 'DURATION:PT1H', 'RRULE:FREQ=DAILY', 'RDATE:20260910T120000Z'], expected: SKIP.extraDates },
    { rule: 'two RRULEs cannot be a window', event: ['UID:a', 'DTSTART:20260905T000000Z', 'DURATION:PT1H', 'RRULE:FREQ=DAILY', 'RRULE:FREQ=WEEKLY'], expected: SKIP.manyRules },
    { rule: 'a cancelled event is skipped whatever its case', event: ['UID:a', 'DTSTART:20260905T000000Z', 'DURATION:PT1H', 'STATUS:cancelled'], expected: SKIP.cancelled },
    { rule: 'an event without DTSTART is skipped', event: ['UID:a', 'SUMMARY:Freeze'], expected: SKIP.noStart },
    { rule: 'an unreadable DTSTART is skipped, not thrown', event: ['UID:a', 'DTSTART:next friday'], expected: SKIP.unreadable },
  ];
  it.each(cases)('$rule', ({ head = [], event, expected }) => {
    expect(one(calendar(head, event))).toEqual(expected);
  });
});

describe('names, descriptions and UIDs', () => {
  it('SUMMARY is trimmed and cut at 200 characters, DESCRIPTION at 2,000; a missing SUMMARY reads "(untitled event)"', () => {
    const long = 'ü'.repeat(250);
    const result = parseFreezeCalendar(calendar([],
      ['UID:a', `SUMMARY:  ${long}`, `DESCRIPTION:${'d'.repeat(2_100)}`, 'DTSTART:20260905T000000Z', 'DURATION:PT1H'],
      ['UID:b', 'DTSTART:20260905T000000Z', 'DURATION:PT1H'],
    ), { defaultTimeZone: 'UTC', now: NOW });
    expect(result.windows.map((w) => [w.name, w.description?.length ?? null])).toEqual([['ü'.repeat(200), 2_000], ['(untitled event)', null]]);
  });

  it('a second event with the same UID is skipped, the first kept', () => {
    const result = parseFreezeCalendar(calendar([],
      ['UID:same', 'SUMMARY:First', 'DTSTART:20260905T000000Z', 'DURATION:PT1H'],
      ['UID:same', 'SUMMARY:Second', 'DTSTART:20260906T000000Z', 'DURATION:PT1H'],
    ), { defaultTimeZone: 'UTC', now: NOW });
    expect(result.windows.map((w) => w.name)).toEqual(['First']);
    expect(result.skipped).toEqual([{ uid: 'same', name: 'Second', reason: SKIP.duplicate }]);
  });
});

describe('text that is not a freeze calendar', () => {
  const refusals: { rule: string; text: string; message: RegExp }[] = [
    { rule: 'empty text', text: '', message: /no calendar/ },
    { rule: 'a vCard', text: lines('BEGIN:VCARD', 'VERSION:3.0', 'FN:Ada Lovelace', 'END:VCARD'), message: /no BEGIN:VCALENDAR/ },
    { rule: 'JSON', text: '{"events":[]}', message: /^The file is not a valid iCalendar \(\.ics\) calendar/ },
    { rule: 'an HTML sign-in page', text: '<!DOCTYPE html>\n<html><body>Sign in</body></html>', message: /^The file is not a valid iCalendar \(\.ics\) calendar/ },
    { rule: 'a calendar that never ends', text: lines('BEGIN:VCALENDAR', 'VERSION:2.0'), message: /not a valid iCalendar \(\.ics\) calendar \(ical\.js: invalid ical body/ },
    // ical.js reads repeat rules while it parses, so an unreadable RRULE refuses the file, naming the rule.
    { rule: 'an unreadable RRULE', text: calendar([], ['UID:a', 'DTSTART:20260905T000000Z', 'RRULE:FREQ=FORTNIGHTLY']), message: /invalid frequency "FORTNIGHTLY"/ },
  ];
  it.each(refusals)('refuses $rule with IcsError', ({ text, message }) => {
    expect(() => parseFreezeCalendar(text, { defaultTimeZone: 'UTC', now: NOW })).toThrow(IcsError);
    expect(() => parseFreezeCalendar(text, { defaultTimeZone: 'UTC', now: NOW })).toThrow(message);
  });

  it('refuses more than 2,000 events, naming the limit', () => {
    const events = Array.from({ length: MAX_ICS_EVENTS + 1 }, (_, i) => [`UID:${i}`, 'DTSTART:20260905T000000Z', 'DURATION:PT1H']);
    expect(() => parseFreezeCalendar(calendar([], ...events), { defaultTimeZone: 'UTC', now: NOW })).toThrow('The calendar holds 2,001 events; at most 2,000 can be imported at once');
    expect(parseFreezeCalendar(calendar([], ...events.slice(1)), { defaultTimeZone: 'UTC', now: NOW }).windows).toHaveLength(MAX_ICS_EVENTS);
  });

  it('refuses text over 2 MiB, counted in UTF-8 bytes', () => {
    const padding = (chars: number, char: string) => `X-PADDING:${char.repeat(chars)}`;
    const at = (char: string, chars: number) => calendar([padding(chars, char)]);
    expect(() => parseFreezeCalendar(at('a', 2 * 1024 * 1024), { defaultTimeZone: 'UTC', now: NOW })).toThrow(/larger than 2 MiB/);
    // 1.1 M characters but 2.2 MB: the byte count decides.
    expect(() => parseFreezeCalendar(at('ü', 1_100_000), { defaultTimeZone: 'UTC', now: NOW })).toThrow(IcsError);
    expect(parseFreezeCalendar(at('ü', 1_000_000), { defaultTimeZone: 'UTC', now: NOW }).windows).toEqual([]);
  });

  it('refuses a default time zone that is not an IANA name', () => {
    expect(() => parseFreezeCalendar(NEXTCLOUD, { defaultTimeZone: 'CEST', now: NOW })).toThrow(IcsError);
  });

  it('garbage text throws IcsError, never another error', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 400 })), (text) => {
      expect(() => parseFreezeCalendar(text, { defaultTimeZone: 'UTC', now: NOW })).toThrow(IcsError);
    }), { numRuns: 300 });
  });

  it('garbage lines inside a VCALENDAR and VEVENT give a result or IcsError, never another error', () => {
    const line = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.tuple(fc.constantFrom('DTSTART', 'DTEND', 'DURATION', 'RRULE', 'EXDATE', 'RDATE', 'UID', 'STATUS', 'DTSTART;TZID=Europe/Berlin', 'DTSTART;VALUE=DATE', 'RECURRENCE-ID'), fc.string({ maxLength: 30 }))
        .map(([name, value]) => `${name}:${value}`),
    );
    fc.assert(fc.property(fc.array(line, { maxLength: 8 }), fc.array(line, { maxLength: 8 }), (head, event) => {
      try {
        const result = parseFreezeCalendar(calendar(head, event), { defaultTimeZone: 'UTC', now: NOW });
        expect(result.windows.length + result.skipped.length).toBeLessThanOrEqual(1);
      } catch (error) {
        expect(error).toBeInstanceOf(IcsError);
      }
    }), { numRuns: 300 });
  });
});
