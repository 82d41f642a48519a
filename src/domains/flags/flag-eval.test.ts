import { describe, expect, it } from 'vitest';
import { bucketOf, evaluate } from './flag-eval.js';
import type { FlagState } from './flag.js';

const flag = { key: 'ops.payments.new-processor', offValue: false };
const on: FlagState = { enabled: true, value: true, rules: [], rollout: null };

describe('flag evaluation', () => {
  it.each([
    ['a disabled flag serves its off value', { ...on, enabled: false }, {}, { value: false, reason: 'DISABLED' }],
    ['an enabled flag without rules serves its value', on, {}, { value: true, reason: 'STATIC' }],
    ['the first matching rule wins', { ...on, value: false, rules: [{ attribute: 'country', op: 'in', values: ['DE', 'AT'], value: true }, { attribute: 'country', op: 'equals', values: ['DE'], value: false }] }, { country: 'DE' }, { value: true, reason: 'TARGETING_MATCH', variant: 'rule-1' }],
    ['a rule on a missing attribute does not match', { ...on, value: false, rules: [{ attribute: 'plan', op: 'equals', values: ['pro'], value: true }] }, {}, { value: false, reason: 'STATIC' }],
    ['starts_with, ends_with and contains match parts', { ...on, value: 0, rules: [{ attribute: 'email', op: 'ends_with', values: ['@example.com'], value: 1 }] }, { email: 'a@example.com' }, { value: 1 }],
  ] as const)('%s', (_n, state, ctx, expected) => {
    expect(evaluate(flag, state as FlagState, ctx)).toMatchObject({ ok: true, ...expected });
  });

  it('a rollout by targetingKey without one is TARGETING_KEY_MISSING', () => {
    expect(evaluate(flag, { ...on, rollout: { percentage: 50, bucketBy: 'targetingKey' } }, {})).toMatchObject({ ok: false, errorCode: 'TARGETING_KEY_MISSING' });
  });

  it('buckets are stable, spread evenly, and raising the percentage only adds contexts', () => {
    const keys = Array.from({ length: 10_000 }, (_, i) => `user-${i}`);
    const served = (pct: number) => new Set(keys.filter((k) => evaluate(flag, { ...on, rollout: { percentage: pct, bucketBy: 'targetingKey' } }, { targetingKey: k }).ok && (evaluate(flag, { ...on, rollout: { percentage: pct, bucketBy: 'targetingKey' } }, { targetingKey: k }) as { value: boolean }).value === true));
    const five = served(5);
    const fifty = served(50);
    expect(five.size / keys.length).toBeGreaterThan(0.04);
    expect(five.size / keys.length).toBeLessThan(0.06);
    expect(fifty.size / keys.length).toBeGreaterThan(0.48);
    expect(fifty.size / keys.length).toBeLessThan(0.52);
    expect([...five].every((k) => fifty.has(k))).toBe(true);
    expect(bucketOf(flag.key, 'user-1')).toBe(bucketOf(flag.key, 'user-1'));
    expect(bucketOf('other.flag', 'user-1')).not.toBe(bucketOf(flag.key, 'user-1'));
  });
});
