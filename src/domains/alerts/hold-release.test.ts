import { describe, expect, it } from 'vitest';
import { decideRelease, type ReleaseInput } from './hold-release.js';

const now = new Date('2026-12-01T12:00:00Z');
const firing = (fingerprint: string, endsAt: string | null = null) => ({ fingerprint, state: 'firing' as const, endsAt });
const resolved = (fingerprint: string) => ({ fingerprint, state: 'resolved' as const, endsAt: '2026-12-01T11:50:00Z' });
const decide = (i: Partial<ReleaseInput>) => decideRelease({ held: [], releaseHeld: true, alertmanager: null, now, ...i });

describe('held release: still failing is re-sent once, recovered is not, releaseHeld: false re-sends nothing', () => {
  const cases: Array<[string, Partial<ReleaseInput>, Array<[string, string, RegExp]>]> = [
    ['relay: a firing alert is re-sent', { held: [firing('a')] }, [['a', 'resent', /^still firing at release: re-sent once$/]]],
    ['relay: a resolved alert recovered', { held: [resolved('b')] }, [['b', 'recovered', /^resolved at 2026-12-01T11:50:00Z$/]]],
    ['relay: firing whose endsAt passed (no re-send from Prometheus) recovered', { held: [firing('c', '2026-12-01T11:59:00Z')] }, [['c', 'recovered', /endsAt .* passed/]]],
    ['relay: firing whose endsAt is still ahead is re-sent', { held: [firing('d', '2026-12-01T12:04:00Z')] }, [['d', 'resent', /still firing/]]],
    ['releaseHeld: false keeps the failing one, recovered stays recovered', { held: [firing('a'), resolved('b')], releaseHeld: false }, [
      ['a', 'kept', /not re-sent: the change said releaseHeld: false$/], ['b', 'recovered', /^resolved/]]],
    ['silence: Alertmanager’s answer wins over intake', { held: [resolved('a'), firing('b')], alertmanager: { firing: new Set(['a']) } }, [
      ['a', 'resent', /^still firing on Alertmanager at release/], ['b', 'recovered', /^no longer firing on Alertmanager/]]],
    ['silence: Alertmanager unreadable → the latest intake state decides, and says why', { held: [firing('a')], alertmanager: { unreadable: 'connection refused' } }, [
      ['a', 'resent', /latest intake: Alertmanager could not be read: connection refused/]]],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => {
      expect(decide(input).decisions.map((d) => [d.fingerprint, d.outcome, d.reason])).toEqual(want.map(([f, o, r]) => [f, o, expect.stringMatching(r)]));
    });
  }

  it('counts held, re-sent, recovered and kept', () => {
    expect(decide({ held: [firing('a'), firing('b'), resolved('c')] }).counts).toEqual({ held: 3, resent: 2, recovered: 1, kept: 0 });
    expect(decide({ held: [] }).counts).toEqual({ held: 0, resent: 0, recovered: 0, kept: 0 });
  });
});
