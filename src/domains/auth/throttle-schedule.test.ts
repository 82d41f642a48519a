import { describe, expect, it } from 'vitest';
import { addressSubject, secondsToWait, waitAfter, type ThrottleCounter } from './throttle-schedule.js';

describe('the sign-in backoff schedule', () => {
  it.each([
    ['account', 4, 0], ['account', 5, 30], ['account', 6, 60], ['account', 7, 120], ['account', 9, 480], ['account', 10, 600], ['account', 60, 600],
    ['address', 19, 0], ['address', 20, 30], ['address', 21, 60], ['address', 200, 600],
  ] as const)('%s with %i failures waits %i s', (scope, failures, wait) => {
    expect(waitAfter(scope, failures)).toBe(wait);
  });

  const at = new Date('2026-03-01T10:00:00Z');
  const counter = (scope: ThrottleCounter['scope'], failures: number, secondsAgo: number): ThrottleCounter => ({ scope, failures, lastFailureAt: new Date(at.getTime() - secondsAgo * 1000) });

  it('waits the rest of the longest wait among the counters', () => {
    expect(secondsToWait([counter('account', 5, 10), counter('address', 21, 1)], at)).toBe(59);
    expect(secondsToWait([counter('account', 5, 29.5)], at)).toBe(1);
  });

  it('lets an attempt through once the wait is over, and below the threshold', () => {
    expect(secondsToWait([counter('account', 5, 30)], at)).toBe(0);
    expect(secondsToWait([counter('account', 4, 0), counter('address', 19, 0)], at)).toBe(0);
  });

  it('forgets a counter 15 minutes after its last failure', () => {
    expect(secondsToWait([counter('account', 50, 15 * 60)], at)).toBe(0);
  });

  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('keeps %s under %s', (ip, subject) => {
    expect(addressSubject(ip)).toBe(subject);
  });
});
