import { describe, expect, it } from 'vitest';
import { compileWindows, inScope, matchWindows, windowConflicts, type ChangeFacts } from './window-matcher.js';
import type { WindowDef, WindowSchedule, WindowScope } from './window-schedule.js';

const FROM = Date.parse('2026-01-01T00:00:00Z');
const TO = Date.parse('2027-01-01T00:00:00Z');
const at = (iso: string) => Date.parse(iso);

const aChange = (over: Partial<ChangeFacts> = {}): ChangeFacts => ({ services: ['svc:checkout'], environments: ['prod'], criticality: 'standard', ...over });
const once = (start: string, end: string): WindowSchedule => ({ type: 'once', start, end });
/** Saturday 22:00–02:00 in Berlin: 20:00Z–00:00Z in summer. */
const weekend = (over: Partial<WindowDef> = {}): WindowDef => ({
  id: 'win_weekend',
  name: 'Weekend maintenance',
  kind: 'change',
  schedule: { type: 'rrule', rrule: 'FREQ=WEEKLY;BYDAY=SA', start: '2026-01-03T22:00', durationMinutes: 240, timeZone: 'Europe/Berlin' },
  scope: { type: 'all' },
  ...over,
});
const aFreeze = (id: string, name: string, schedule: WindowSchedule, scope: WindowScope = { type: 'all' }): WindowDef => ({ id, name, kind: 'freeze', schedule, scope });
const blackFriday = aFreeze('win_bf', 'Black Friday', once('2026-11-27T00:00:00Z', '2026-11-30T23:00:00Z'));
/** Every night 23:00–01:00 in Berlin: 21:00Z–23:00Z in summer. */
const nightly = (scope: WindowScope = { type: 'all' }) => aFreeze('win_nightly', 'Nightly batch', { type: 'rrule', rrule: 'FREQ=DAILY', start: '2026-01-01T23:00', durationMinutes: 120, timeZone: 'Europe/Berlin' }, scope);

type MatchCase = { rule: string; windows: WindowDef[]; at: string; change?: ChangeFacts; allowed: boolean; window: string | null; reason: string; nextOpening: string | null };

describe('matchWindows: freeze beats change window, change windows bind the changes in their scope', () => {
  const cases: MatchCase[] = [
    {
      rule: 'a freeze in scope covering the instant refuses, naming its end, and the next opening after it',
      windows: [weekend(), blackFriday],
      at: '2026-11-28T21:30:00Z', // inside both the freeze and Saturday's change window
      allowed: false,
      window: 'win_bf 2026-11-27T00:00:00Z',
      reason: 'the freeze “Black Friday” runs until 2026-11-30T23:00:00Z; the next opening is at 2026-12-05T21:00:00Z',
      nextOpening: '2026-12-05T21:00:00Z',
    },
    {
      rule: 'inside a change window the change is allowed until the window closes, told in the window’s zone too',
      windows: [weekend(), blackFriday],
      at: '2026-06-06T21:00:00Z',
      allowed: true,
      window: 'win_weekend 2026-06-06T20:00:00Z',
      reason: 'inside the change window “Weekend maintenance” until 2026-06-07T00:00:00Z (2026-06-07 02:00 Europe/Berlin)',
      nextOpening: null,
    },
    {
      rule: 'outside every change window in scope the change waits for the next one',
      windows: [weekend(), blackFriday],
      at: '2026-06-03T10:00:00Z',
      allowed: false,
      window: 'win_weekend 2026-06-06T20:00:00Z',
      reason: 'outside every change window; the next, “Weekend maintenance”, opens at 2026-06-06T20:00:00Z (2026-06-06 22:00 Europe/Berlin)',
      nextOpening: '2026-06-06T20:00:00Z',
    },
    {
      rule: 'winter time: the same window opens an hour later in UTC',
      windows: [weekend()],
      at: '2026-01-07T10:00:00Z',
      allowed: false,
      window: 'win_weekend 2026-01-10T21:00:00Z',
      reason: 'opens at 2026-01-10T21:00:00Z (2026-01-10 22:00 Europe/Berlin)',
      nextOpening: '2026-01-10T21:00:00Z',
    },
    {
      rule: 'an EXDATE skips that Saturday: the next window is a week later',
      windows: [weekend({ schedule: { type: 'rrule', rrule: 'FREQ=WEEKLY;BYDAY=SA', start: '2026-01-03T22:00', durationMinutes: 240, timeZone: 'Europe/Berlin', exdates: ['2026-06-06T22:00'] } })],
      at: '2026-06-06T21:00:00Z',
      allowed: false,
      window: 'win_weekend 2026-06-13T20:00:00Z',
      reason: 'the next, “Weekend maintenance”, opens at 2026-06-13T20:00:00Z',
      nextOpening: '2026-06-13T20:00:00Z',
    },
    {
      rule: 'change windows that exist but not for this change do not bind it',
      windows: [weekend({ scope: { type: 'environments', environments: ['staging'] } })],
      at: '2026-06-03T10:00:00Z',
      allowed: true,
      window: null,
      reason: 'no change or freeze window applies',
      nextOpening: null,
    },
    {
      rule: 'a freeze ending inside a change window: the opening is the freeze’s end',
      windows: [weekend(), aFreeze('win_rf', 'Release freeze', once('2026-06-06T19:00:00Z', '2026-06-06T21:00:00Z'))],
      at: '2026-06-06T20:30:00Z',
      allowed: false,
      window: 'win_rf 2026-06-06T19:00:00Z',
      reason: 'the freeze “Release freeze” runs until 2026-06-06T21:00:00Z',
      nextOpening: '2026-06-06T21:00:00Z',
    },
    {
      rule: 'a freeze ending after the change window closed: the opening is the next change window',
      windows: [weekend(), aFreeze('win_rf', 'Release freeze', once('2026-06-06T23:00:00Z', '2026-06-07T01:00:00Z'))],
      at: '2026-06-06T23:30:00Z',
      allowed: false,
      window: 'win_rf 2026-06-06T23:00:00Z',
      reason: 'the freeze “Release freeze” runs until 2026-06-07T01:00:00Z; the next opening is at 2026-06-13T20:00:00Z',
      nextOpening: '2026-06-13T20:00:00Z',
    },
    {
      rule: 'outside the change windows, and a freeze holds the start of the next one',
      windows: [weekend(), aFreeze('win_rf', 'Release freeze', once('2026-06-06T19:00:00Z', '2026-06-06T21:00:00Z'))],
      at: '2026-06-03T10:00:00Z',
      allowed: false,
      window: 'win_weekend 2026-06-06T20:00:00Z',
      reason: 'opens at 2026-06-06T20:00:00Z (2026-06-06 22:00 Europe/Berlin), but a freeze holds it: the next opening is at 2026-06-06T21:00:00Z',
      nextOpening: '2026-06-06T21:00:00Z',
    },
    {
      rule: 'no opening before the horizon ends',
      windows: [aFreeze('win_ye', 'Year end', once('2026-12-20T00:00:00Z', '2027-01-10T00:00:00Z'))],
      at: '2026-12-25T12:00:00Z',
      allowed: false,
      window: 'win_ye 2026-12-20T00:00:00Z',
      reason: 'the freeze “Year end” runs until 2027-01-10T00:00:00Z; there is no opening before the horizon end (2027-01-01T00:00:00Z)',
      nextOpening: null,
    },
    {
      rule: 'outside a change window that never opens again in the horizon',
      windows: [weekend({ schedule: once('2026-03-01T00:00:00Z', '2026-03-01T04:00:00Z') })],
      at: '2026-06-03T10:00:00Z',
      allowed: false,
      window: null,
      reason: 'outside every change window; there is no opening before the horizon end (2027-01-01T00:00:00Z)',
      nextOpening: null,
    },
    {
      rule: 'of several freezes covering the instant, the one ending last is named',
      windows: [aFreeze('win_b', 'Long', once('2026-06-03T09:00:00Z', '2026-06-03T14:00:00Z')), aFreeze('win_a', 'Short', once('2026-06-03T10:00:00Z', '2026-06-03T12:00:00Z'))],
      at: '2026-06-03T11:00:00Z',
      allowed: false,
      window: 'win_b 2026-06-03T09:00:00Z',
      reason: 'the freeze “Long” runs until 2026-06-03T14:00:00Z',
      nextOpening: '2026-06-03T14:00:00Z',
    },
    {
      rule: 'a freeze scoped by a service glob holds the services it matches',
      windows: [nightly({ type: 'services', services: ['svc:pay*'] })],
      at: '2026-06-03T21:30:00Z',
      change: aChange({ services: ['svc:checkout', 'svc:payments'] }),
      allowed: false,
      window: 'win_nightly 2026-06-03T21:00:00Z',
      reason: 'the freeze “Nightly batch” runs until 2026-06-03T23:00:00Z (2026-06-04 01:00 Europe/Berlin)',
      nextOpening: '2026-06-03T23:00:00Z',
    },
    {
      rule: '… and not the others',
      windows: [nightly({ type: 'services', services: ['svc:pay*'] })],
      at: '2026-06-03T21:30:00Z',
      allowed: true,
      window: null,
      reason: 'no change or freeze window applies',
      nextOpening: null,
    },
    {
      rule: 'a window in Asia/Kolkata is told at +05:30',
      windows: [weekend({ schedule: { type: 'rrule', rrule: 'FREQ=WEEKLY;BYDAY=SU', start: '2026-01-04T01:00', durationMinutes: 120, timeZone: 'Asia/Kolkata' } })],
      at: '2026-06-03T10:00:00Z',
      allowed: false,
      window: 'win_weekend 2026-06-06T19:30:00Z',
      reason: 'opens at 2026-06-06T19:30:00Z (2026-06-07 01:00 Asia/Kolkata)',
      nextOpening: '2026-06-06T19:30:00Z',
    },
  ];
  for (const c of cases) {
    it(c.rule, () => {
      const m = matchWindows(compileWindows(c.windows, FROM, TO), at(c.at), c.change ?? aChange());
      expect({ allowed: m.allowed, window: m.window && `${m.window.id} ${m.window.start}`, nextOpening: m.nextOpening }).toEqual({ allowed: c.allowed, window: c.window, nextOpening: c.nextOpening });
      expect(m.reason).toContain(c.reason);
    });
  }

  it('a one-off change window that is over no longer holds its changes (only windows with an occurrence in the horizon count)', () => {
    const past: WindowDef = { id: 'win_past', name: 'Migration weekend', kind: 'change', schedule: once('2025-06-01T00:00:00Z', '2025-06-02T00:00:00Z'), scope: { type: 'all' } };
    expect(matchWindows(compileWindows([past], FROM, TO), at('2026-03-10T10:00:00Z'), aChange())).toEqual({ allowed: true, window: null, reason: 'no change or freeze window applies', nextOpening: null });
  });

  it('answers the occurrence as a window reference', () => {
    const m = matchWindows(compileWindows([weekend()], FROM, TO), at('2026-06-06T21:00:00Z'), aChange());
    expect(m.window).toEqual({ id: 'win_weekend', name: 'Weekend maintenance', kind: 'change', start: '2026-06-06T20:00:00Z', end: '2026-06-07T00:00:00Z' });
  });

  it('throws for an instant outside the compiled horizon (a programming error)', () => {
    const set = compileWindows([weekend()], FROM, TO);
    expect(() => matchWindows(set, FROM - 1, aChange())).toThrow(/outside the compiled horizon/);
    expect(() => matchWindows(set, TO, aChange())).toThrow(/outside the compiled horizon/);
    expect(() => matchWindows(set, Number.NaN, aChange())).toThrow(RangeError);
  });
});

describe('inScope', () => {
  const cases: Array<{ rule: string; scope: WindowScope; change: ChangeFacts; want: boolean }> = [
    { rule: 'all takes every change', scope: { type: 'all' }, change: aChange({ services: [] }), want: true },
    { rule: 'a service key', scope: { type: 'services', services: ['svc:checkout'] }, change: aChange(), want: true },
    { rule: 'a bare name names the catalogue service', scope: { type: 'services', services: ['checkout'] }, change: aChange({ services: ['svc:checkout'] }), want: true },
    { rule: 'a bare glob names catalogue services', scope: { type: 'services', services: ['pay*'] }, change: aChange({ services: ['svc:payments'] }), want: true },
    { rule: 'a service glob', scope: { type: 'services', services: ['svc:pay*'] }, change: aChange({ services: ['svc:search', 'svc:payments-api'] }), want: true },
    { rule: 'a glob that matches none of the services', scope: { type: 'services', services: ['svc:pay*'] }, change: aChange({ services: ['svc:checkout'] }), want: false },
    { rule: 'a bare name does not match another kind’s key', scope: { type: 'services', services: ['checkout'] }, change: aChange({ services: ['db:checkout'] }), want: false },
    { rule: 'environments are case-insensitive', scope: { type: 'environments', environments: ['PROD'] }, change: aChange({ environments: ['Prod'] }), want: true },
    { rule: 'an environment glob', scope: { type: 'environments', environments: ['prod-*'] }, change: aChange({ environments: ['staging', 'prod-eu'] }), want: true },
    { rule: 'an environment not listed', scope: { type: 'environments', environments: ['prod*'] }, change: aChange({ environments: ['staging'] }), want: false },
    { rule: 'criticality at least important: critical is in', scope: { type: 'criticality', atLeast: 'important' }, change: aChange({ criticality: 'critical' }), want: true },
    { rule: 'criticality at least important: standard is out', scope: { type: 'criticality', atLeast: 'important' }, change: aChange({ criticality: 'standard' }), want: false },
    { rule: 'an unknown criticality is in (fail closed)', scope: { type: 'criticality', atLeast: 'critical' }, change: aChange({ criticality: null }), want: true },
  ];
  for (const c of cases) it(c.rule, () => expect(inScope(c.scope, c.change)).toBe(c.want));
});

describe('windowConflicts: what stands in the way of a planned change', () => {
  const cases: Array<{ rule: string; windows: WindowDef[]; start: string; end: string; want: Array<[string, string | null, string]> }> = [
    { rule: 'a change inside a change window with no freeze has none', windows: [weekend(), nightly({ type: 'services', services: ['svc:billing'] })], start: '2026-06-06T20:30:00Z', end: '2026-06-06T23:30:00Z', want: [] },
    {
      rule: 'a change running past its change window: which window ends when',
      windows: [weekend()],
      start: '2026-06-06T23:00:00Z',
      end: '2026-06-07T01:00:00Z',
      want: [['outside_change_windows', '2026-06-06T20:00:00Z', 'the change window “Weekend maintenance” ends at 2026-06-07T00:00:00Z (2026-06-07 02:00 Europe/Berlin), before the change ends at 2026-06-07T01:00:00Z']],
    },
    {
      rule: 'change windows back to back count as one',
      windows: [weekend(), weekend({ id: 'win_ext', name: 'Extended', schedule: once('2026-06-07T00:00:00Z', '2026-06-07T03:00:00Z') })],
      start: '2026-06-06T23:00:00Z',
      end: '2026-06-07T02:00:00Z',
      want: [],
    },
    {
      rule: 'a change starting outside every change window',
      windows: [weekend()],
      start: '2026-06-03T10:00:00Z',
      end: '2026-06-03T11:00:00Z',
      want: [['outside_change_windows', '2026-06-06T20:00:00Z', 'the change starts at 2026-06-03T10:00:00Z, outside every change window; the next, “Weekend maintenance”, opens at 2026-06-06T20:00:00Z']],
    },
    {
      rule: 'every freeze occurrence overlapping the change, sorted by start',
      windows: [nightly()],
      start: '2026-06-03T22:00:00Z',
      end: '2026-06-04T21:30:00Z',
      want: [
        ['freeze_overlaps', '2026-06-03T21:00:00Z', 'the freeze “Nightly batch” runs from 2026-06-03T21:00:00Z (2026-06-03 23:00 Europe/Berlin) until 2026-06-03T23:00:00Z (2026-06-04 01:00 Europe/Berlin), during the change'],
        ['freeze_overlaps', '2026-06-04T21:00:00Z', 'the freeze “Nightly batch” runs from 2026-06-04T21:00:00Z'],
      ],
    },
    {
      rule: 'a freeze ending exactly when the change starts does not overlap it',
      windows: [nightly()],
      start: '2026-06-03T23:00:00Z',
      end: '2026-06-04T21:00:00Z',
      want: [],
    },
    {
      rule: 'freezes and the change windows together, by start',
      windows: [weekend(), blackFriday],
      start: '2026-11-26T12:00:00Z',
      end: '2026-11-27T12:00:00Z',
      want: [
        ['freeze_overlaps', '2026-11-27T00:00:00Z', 'the freeze “Black Friday” runs from 2026-11-27T00:00:00Z until 2026-11-30T23:00:00Z, during the change'],
        ['outside_change_windows', '2026-11-28T21:00:00Z', 'the next, “Weekend maintenance”, opens at 2026-11-28T21:00:00Z (2026-11-28 22:00 Europe/Berlin)'],
      ],
    },
  ];
  for (const c of cases) {
    it(c.rule, () => {
      const got = windowConflicts(compileWindows(c.windows, FROM, TO), at(c.start), at(c.end), aChange());
      expect(got.map((g) => [g.conflict, g.window?.start ?? null])).toEqual(c.want.map(([k, s]) => [k, s]));
      got.forEach((g, i) => expect(g.reason).toContain(c.want[i]![2]));
    });
  }

  it('throws for a change outside the horizon or ending before it starts', () => {
    const set = compileWindows([weekend()], FROM, TO);
    expect(() => windowConflicts(set, at('2026-06-03T10:00:00Z'), at('2027-01-02T00:00:00Z'), aChange())).toThrow(/within the compiled horizon/);
    expect(() => windowConflicts(set, at('2026-06-03T10:00:00Z'), at('2026-06-03T10:00:00Z'), aChange())).toThrow(/after its start/);
  });
});

describe('compileWindows', () => {
  it('expands each window once over the horizon, into sorted start,end pairs', () => {
    const set = compileWindows([weekend(), blackFriday], FROM, TO);
    expect(set.windows.map((w) => [w.def.id, w.intervals.length / 2])).toEqual([['win_weekend', 52], ['win_bf', 1]]);
    expect(Array.from(set.windows[1]!.intervals)).toEqual([at('2026-11-27T00:00:00Z'), at('2026-11-30T23:00:00Z')]);
  });
  it('keeps one scope for windows that share it', () => {
    expect(compileWindows([weekend(), blackFriday, nightly({ type: 'services', services: ['svc:a'] })], FROM, TO).scopes.count).toBe(2);
  });
});
