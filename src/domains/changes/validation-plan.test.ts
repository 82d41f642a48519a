import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPlan,
  compare,
  MAX_VALIDATION_ITEMS,
  rowFor,
  VALIDATION_DELAY_SECONDS,
  validationResult,
  type ValidationItem,
  type ValidationRow,
} from './validation-plan.js';

/** A promql item that passes when the error rate is under 5 %. */
const anItem = (over: Partial<ValidationItem> = {}): ValidationItem => ({
  id: 'error-rate',
  target: 'checkout',
  check: 'promql',
  query: 'sum(rate(http_errors_total[5m]))',
  expected: { op: '<', value: 0.05 },
  ...over,
});
const anHttpItem = (over: Partial<ValidationItem> = {}): ValidationItem => ({
  id: 'health',
  target: 'checkout',
  check: 'http',
  url: 'https://checkout.internal/health',
  expected: { op: '==', value: 200 },
  ...over,
});
const aRow = (itemId: string, state: ValidationRow['state']): ValidationRow => ({ itemId, state, observed: state === 'not_observed' ? null : '1', detail: '' });
const items = (n: number) => Array.from({ length: n }, (_, i) => anItem({ id: `item-${i}` }));

describe('the plan’s limits', () => {
  it('are the spec’s numbers', () => {
    expect([MAX_VALIDATION_ITEMS, VALIDATION_DELAY_SECONDS]).toEqual([10, 30]);
  });
});

describe('checking a plan', () => {
  it.each([
    ['an empty plan', []],
    ['ten items', items(10)],
    ['a promql and an http item with every optional key', [
      anItem({ group: 'checkout', direction: 'both', hops: 2 }),
      anHttpItem({ expected: { op: '<', value: 500 }, direction: 'up', hops: 0 }),
    ]],
    ['a string expectation', [anItem({ expected: { op: '==', value: 'ok' } })]],
    ['an id of 64 characters and a target of 200', [anItem({ id: 'a'.repeat(64), target: 't'.repeat(200) })]],
    ['a plain http URL', [anHttpItem({ url: 'http://10.0.0.1:8080/ready' })]],
  ] as const)('takes %s as given', (_, plan) => {
    expect(checkPlan([...plan])).toEqual({ ok: true, plan });
  });

  it.each([
    ['eleven items', items(11), 'validationPlan', 'at most 10 validation items; 11 were given'],
    ['twelve items', items(12), 'validationPlan', 'at most 10 validation items; 12 were given'],
    ['an item that is not an object', [anItem(), 'error-rate'], 'validationPlan.1', 'must be an object with id, target, check and expected'],
    ['an unknown key', [{ ...anItem(), threshold: 3 }], 'validationPlan.0', 'a key the plan does not know: threshold'],
    ['unknown keys', [{ ...anItem(), a: 1, b: 2 }], 'validationPlan.0', 'keys the plan does not know: a, b'],
    ['no id', [{ ...anItem(), id: undefined }], 'validationPlan.0.id', 'must be text'],
    ['an empty id', [anItem({ id: '' })], 'validationPlan.0.id', 'must not be empty'],
    ['an id of 65 characters', [anItem({ id: 'a'.repeat(65) })], 'validationPlan.0.id', '65 characters long; at most 64'],
    ['an id with a space', [anItem({ id: 'error rate' })], 'validationPlan.0.id', 'only letters, digits'],
    ['an id used twice', [anItem(), anHttpItem(), anItem({ target: 'cart' })], 'validationPlan.2.id', '"error-rate" is already used by validationPlan.0'],
    ['no target', [{ ...anItem(), target: undefined }], 'validationPlan.0.target', 'the service or thing the item checks'],
    ['a blank target', [anItem({ target: '   ' })], 'validationPlan.0.target', 'must not be empty'],
    ['a target of 201 characters', [anItem({ target: 't'.repeat(201) })], 'validationPlan.0.target', 'at most 200'],
    ['an unknown check', [{ ...anItem(), check: 'sql' }], 'validationPlan.0.check', 'must be promql or http'],
    ['a promql check with no query', [anItem({ query: undefined })], 'validationPlan.0.query', 'the PromQL query'],
    ['a promql check with a url', [anItem({ url: 'https://x' })], 'validationPlan.0.url', 'a promql check reads its query only'],
    ['a query of 2001 characters', [anItem({ query: 'q'.repeat(2001) })], 'validationPlan.0.query', 'at most 2000'],
    ['an http check with no url', [anHttpItem({ url: undefined })], 'validationPlan.0.url', 'the http(s) URL'],
    ['an http check with a query', [anHttpItem({ query: 'up' })], 'validationPlan.0.query', 'an http check reads its url only'],
    ['a url that is no URL', [anHttpItem({ url: 'checkout/health' })], 'validationPlan.0.url', 'is not a URL'],
    ['an ftp url', [anHttpItem({ url: 'ftp://files.internal/x' })], 'validationPlan.0.url', 'must be an http or https URL, not ftp'],
    ['a url of 2001 characters', [anHttpItem({ url: `https://x.internal/${'p'.repeat(1982)}` })], 'validationPlan.0.url', 'at most 2000'],
    ['no expected', [{ ...anItem(), expected: undefined }], 'validationPlan.0.expected', 'must be an object with op'],
    ['an unknown comparator', [anItem({ expected: { op: '=~' as '==', value: 1 } })], 'validationPlan.0.expected.op', 'must be one of < <= > >= == !='],
    ['an unknown key in expected', [anItem({ expected: { op: '<', value: 1, unit: 's' } as ValidationItem['expected'] })], 'validationPlan.0.expected', 'a key the plan does not know: unit'],
    ['a boolean value', [anItem({ expected: { op: '==', value: true as unknown as number } })], 'validationPlan.0.expected.value', 'must be a number or text'],
    ['an infinite value', [anItem({ expected: { op: '<', value: Infinity } })], 'validationPlan.0.expected.value', 'must be a finite number'],
    ['a value of 201 characters', [anItem({ expected: { op: '==', value: 'v'.repeat(201) } })], 'validationPlan.0.expected.value', 'at most 200'],
    ['an http check expecting text', [anHttpItem({ expected: { op: '==', value: 'ok' } })], 'validationPlan.0.expected.value', 'the HTTP status expected'],
    ['an http check expecting status 600', [anHttpItem({ expected: { op: '==', value: 600 } })], 'validationPlan.0.expected.value', 'from 100 to 599'],
    ['a group of 65 characters', [anItem({ group: 'g'.repeat(65) })], 'validationPlan.0.group', 'at most 64'],
    ['an unknown direction', [anItem({ direction: 'sideways' as 'up' })], 'validationPlan.0.direction', 'must be up, down or both'],
    ['three hops', [anItem({ hops: 3 as 2 })], 'validationPlan.0.hops', 'must be 0, 1 or 2'],
  ] as const)('refuses %s, naming the field', (_, plan, field, message) => {
    const checked = checkPlan([...plan]);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problem.field).toBe(field);
    expect(checked.problem.message).toContain(message);
  });

  it('keeps only the keys it knows and names the first wrong item', () => {
    const checked = checkPlan([anItem(), anItem({ id: 'second', target: '' }), anItem({ id: 'third', hops: 9 as 2 })]);
    expect(checked).toEqual({ ok: false, problem: { field: 'validationPlan.1.target', message: expect.stringContaining('must not be empty') } });
  });

  it('never throws, whatever JSON is sent', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom(...['id', 'target', 'check', 'query', 'url', 'expected', 'op', 'value', 'group', 'hops', 'x']), tie('value'), { maxKeys: 6 })),
    })).value;
    fc.assert(fc.property(fc.array(json, { maxLength: 12 }), (raw) => {
      const checked = checkPlan(raw);
      if (!checked.ok) expect(checked.problem.field).toMatch(/^validationPlan(\.\d+(\.[a-z]+)*)?$/);
    }), { numRuns: 1000 });
  });
});

describe('comparing an observed value', () => {
  it.each([
    [0.02, '<', 0.05, true], [0.05, '<', 0.05, false], [0.05, '<=', 0.05, true], [0.06, '<=', 0.05, false],
    [3, '>', 2, true], [2, '>', 2, false], [2, '>=', 2, true], [1, '>=', 2, false],
    [200, '==', 200, true], [503, '==', 200, false], [503, '!=', 200, true], [200, '!=', 200, false],
    ['ok', '==', 'ok', true], ['warn', '==', 'ok', false], ['warn', '!=', 'ok', true], ['ok', '!=', 'ok', false],
    ['b', '>', 'a', false], ['a', '<', 'b', false], ['a', '<=', 'a', false], ['a', '>=', 'a', false],
    ['200', '==', 200, true], [200, '==', '200', true], ['10', '<', 20, false],
    [NaN, '!=', 1, false], [NaN, '==', 'NaN', false], [Infinity, '>', 1, false],
  ] as const)('%j %s %j → %s', (observed, op, value, met) => {
    expect(compare(observed, { op, value })).toBe(met);
  });
});

describe('the row for one item', () => {
  it.each([
    ['a number that meets the expectation', anItem(), { ok: true, value: 0.02 } as const,
      { itemId: 'error-rate', state: 'pass', observed: '0.02', detail: 'observed 0.02, expected < 0.05' }],
    ['a number that does not', anItem(), { ok: true, value: 0.2 } as const,
      { itemId: 'error-rate', state: 'fail', observed: '0.2', detail: 'observed 0.2, expected < 0.05' }],
    ['an http status', anHttpItem(), { ok: true, value: 503 } as const,
      { itemId: 'health', state: 'fail', observed: '503', detail: 'observed status 503, expected == 200' }],
    ['text', anItem({ expected: { op: '==', value: 'ok' } }), { ok: true, value: 'ok' } as const,
      { itemId: 'error-rate', state: 'pass', observed: 'ok', detail: 'observed "ok", expected == "ok"' }],
    ['a read that failed is not observed, never pass', anItem({ expected: { op: '!=', value: 1 } }), { ok: false, why: 'Prometheus answered 502' } as const,
      { itemId: 'error-rate', state: 'not_observed', observed: null, detail: 'not observed: Prometheus answered 502' }],
  ] as const)('%s', (_, item, read, row) => {
    expect(rowFor(item, read)).toEqual(row);
  });
});

describe('the result of a plan', () => {
  const plan = [anItem({ id: 'a' }), anItem({ id: 'b' }), anItem({ id: 'c' })];
  it.each([
    ['every item passed', plan, [aRow('a', 'pass'), aRow('b', 'pass'), aRow('c', 'pass')],
      'cleared', 'cleared: all 3 items of the plan passed'],
    ['the one item passed', [anItem({ id: 'a' })], [aRow('a', 'pass')],
      'cleared', 'cleared: the one item of the plan passed'],
    ['a row for an item not in the plan is ignored', plan, [aRow('a', 'pass'), aRow('b', 'pass'), aRow('c', 'pass'), aRow('z', 'fail')],
      'cleared', 'cleared: all 3 items of the plan passed; 1 row for items not in the plan was ignored'],
    ['one item failed', plan, [aRow('a', 'pass'), aRow('b', 'fail'), aRow('c', 'pass')],
      'still_present', 'still present: 1 item failed (b)'],
    ['a failure decides even when others were not observed', plan, [aRow('a', 'fail'), aRow('b', 'not_observed'), aRow('c', 'fail')],
      'still_present', 'still present: 2 items failed (a, c)'],
    ['a fail among several rows of one item decides', plan, [aRow('a', 'pass'), aRow('a', 'fail'), aRow('b', 'pass'), aRow('c', 'pass')],
      'still_present', 'still present: 1 item failed (a)'],
    ['a failing row for an item not in the plan does not make it still present', plan, [aRow('a', 'pass'), aRow('x', 'fail'), aRow('y', 'fail')],
      'uncertain', 'uncertain: 2 items were not observed (b, c); 1 of 3 passed; 2 rows for items not in the plan were ignored'],
    ['an item not observed', plan, [aRow('a', 'pass'), aRow('b', 'not_observed'), aRow('c', 'pass')],
      'uncertain', 'uncertain: 1 item was not observed (b); 2 of 3 passed'],
    ['an item with no row', plan, [aRow('a', 'pass'), aRow('b', 'pass')],
      'uncertain', 'uncertain: 1 item was not observed (c); 2 of 3 passed'],
    ['an item both passed and not observed', plan, [aRow('a', 'pass'), aRow('a', 'not_observed'), aRow('b', 'pass'), aRow('c', 'pass')],
      'uncertain', 'uncertain: 1 item was not observed (a); 2 of 3 passed'],
    ['no rows at all', plan, [],
      'uncertain', 'uncertain: 3 items were not observed (a, b, c); 0 of 3 passed'],
  ] as const)('%s', (_, p, rows, result, reason) => {
    expect(validationResult([...p], [...rows])).toEqual({ result, reason });
  });

  it('is nothing for an empty plan, whatever the rows', () => {
    expect(validationResult([], [aRow('a', 'fail')])).toBeNull();
  });

  const ids = fc.uniqueArray(fc.stringMatching(/^[a-z0-9-]{1,8}$/), { minLength: 1, maxLength: MAX_VALIDATION_ITEMS });
  const planOf = (xs: string[]) => xs.map((id) => anItem({ id }));

  it('a plan whose rows all pass is cleared, and one fail on any listed item makes it still present', () => {
    fc.assert(fc.property(ids, fc.nat(), (xs, pick) => {
      const rows = xs.map((id) => aRow(id, 'pass'));
      expect(validationResult(planOf(xs), rows)?.result).toBe('cleared');
      const failing = xs[pick % xs.length] as string;
      const result = validationResult(planOf(xs), [...rows, aRow(failing, 'fail')]);
      expect(result?.result).toBe('still_present');
      expect(result?.reason).toContain(failing);
    }));
  });

  it('a not_observed row for a listed item never yields cleared', () => {
    const state = fc.constantFrom('pass', 'fail', 'not_observed') satisfies fc.Arbitrary<ValidationRow['state']>;
    fc.assert(fc.property(ids, fc.nat(), fc.array(fc.tuple(fc.nat(), state)), (xs, pick, extra) => {
      const rows = [aRow(xs[pick % xs.length] as string, 'not_observed'), ...extra.map(([i, s]) => aRow(xs[i % xs.length] as string, s))];
      expect(validationResult(planOf(xs), rows)?.result).not.toBe('cleared');
    }));
  });
});
