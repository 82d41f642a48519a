import { describe, expect, it } from 'vitest';
import { changedSlice, checkReason, namespacePrefix, valueProblem, type FlagState } from './flag.js';

describe('the reason policy', () => {
  const cases: Array<[string, 'low' | 'high', string, boolean]> = [
    ['a low-risk flag accepts no reason', 'low', '', true],
    ['a high-risk flag refuses no reason', 'high', '', false],
    ['a high-risk flag refuses "."', 'high', '.', false],
    ['a high-risk flag refuses a short word', 'high', 'fix', false],
    ['ten characters are enough', 'high', 'rollback!!', true],
    ['a ticket reference is enough', 'high', 'OPS-123', true],
    ['a link is enough', 'high', 'https://x.io/1', true],
    ['spaces do not count', 'high', '   .      ', false],
  ];
  it.each(cases)('%s', (_n, risk, reason, ok) => {
    const v = checkReason(risk, reason);
    expect(v.ok).toBe(ok);
    if (!v.ok) expect(v.error).toMatch(/reason/);
  });
  it('uses the organisation’s ticket pattern when it has one', () => {
    expect(checkReason('high', 'JIRA#42', 'JIRA#\\d+').ok).toBe(true);
    expect(checkReason('high', 'OPS-1', 'JIRA#\\d+').ok).toBe(false);
  });
});

describe('the changed slice a record keeps', () => {
  const base: FlagState = { enabled: false, value: true, rules: [], rollout: { percentage: 5, bucketBy: 'userId' } };
  it('a toggle is the two booleans', () => {
    expect(changedSlice(base, { ...base, enabled: true })).toEqual({ from: false, to: true, fields: ['enabled'] });
  });
  it('a rollout change shows only what moved: 5 → 50', () => {
    expect(changedSlice(base, { ...base, rollout: { percentage: 50, bucketBy: 'userId' } })).toEqual({ from: { rollout: { percentage: 5 } }, to: { rollout: { percentage: 50 } }, fields: ['rollout'] });
  });
  it('a value change is the two values', () => {
    expect(changedSlice({ ...base, value: 'a' }, { ...base, value: 'b' })).toEqual({ from: 'a', to: 'b', fields: ['value'] });
  });
  it('a rule change keeps the rules before and after', () => {
    const rules = [{ attribute: 'country', op: 'in' as const, values: ['DE'], value: true }];
    expect(changedSlice(base, { ...base, rules })).toEqual({ from: { rules: [] }, to: { rules }, fields: ['rules'] });
  });
  it('the same object with its keys in another order is no change', () => {
    expect(changedSlice(base, { ...base, rollout: { bucketBy: 'userId', percentage: 5 } as never })).toBeNull();
  });
  it('no change is null', () => {
    expect(changedSlice(base, { ...base })).toBeNull();
  });
});

describe('values and namespaces', () => {
  it.each([
    ['boolean', true, null], ['boolean', 'true', /true or false/], ['number', 3.5, null], ['number', Number.NaN, /finite/],
    ['string', 'x', null], ['string', 1, /string/], ['json', { a: [1] }, null],
  ] as const)('%s %j', (type, value, problem) => {
    const p = valueProblem(type, value);
    if (problem === null) expect(p).toBeNull();
    else expect(p).toMatch(problem);
  });
  it('reads ops.payments.* as a prefix and a plain key as exact', () => {
    expect(namespacePrefix('ops.payments.*')).toEqual({ prefix: 'ops.payments.', exact: false });
    expect(namespacePrefix('ops.payments.new-processor')).toEqual({ prefix: 'ops.payments.new-processor', exact: true });
  });
});
