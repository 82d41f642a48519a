import { ipv6Groups } from '../../platform/net/ip-address.js';

/**
 * The backoff of failed credentials, per account and per address. Pure: the counters come in, the
 * wait goes out. A counter holds its failures and the time of the last one.
 */
export type ThrottleScope = 'account' | 'address';
export type ThrottleCounter = { scope: ThrottleScope; failures: number; lastFailureAt: Date };

/** Failures allowed before a wait; then 30 s, doubling with each further failure, up to 10 min. */
export const THROTTLE_FREE_FAILURES: Record<ThrottleScope, number> = { account: 5, address: 20 };
export const THROTTLE_FIRST_WAIT_SECONDS = 30;
export const THROTTLE_MAX_WAIT_SECONDS = 600;
/** A counter is forgotten this long after its last failure (longer than the longest wait). */
export const THROTTLE_FORGET_SECONDS = 15 * 60;

/** How long a counter with this many failures makes the next attempt wait, from its last failure. */
export function waitAfter(scope: ThrottleScope, failures: number): number {
  const over = failures - THROTTLE_FREE_FAILURES[scope];
  if (over < 0) return 0;
  return Math.min(THROTTLE_MAX_WAIT_SECONDS, THROTTLE_FIRST_WAIT_SECONDS * 2 ** Math.min(over, 20));
}

/** Whole seconds until an attempt may be made: the longest wait of the counters; 0 when none holds. */
export function secondsToWait(counters: readonly ThrottleCounter[], now: Date): number {
  let longest = 0;
  for (const c of counters) {
    const since = now.getTime() - c.lastFailureAt.getTime();
    if (since >= THROTTLE_FORGET_SECONDS * 1000) continue;
    const left = waitAfter(c.scope, c.failures) * 1000 - since;
    if (left > 0) longest = Math.max(longest, Math.ceil(left / 1000));
  }
  return longest;
}

/**
 * The address a counter is kept for: IPv4 as it is (also when mapped into IPv6), IPv6 by its /64,
 * since one host is commonly given a whole /64.
 */
export function addressSubject(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip || 'unknown';
  const groups = ipv6Groups(ip.split('%')[0]!);
  return groups ? `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64` : ip;
}
