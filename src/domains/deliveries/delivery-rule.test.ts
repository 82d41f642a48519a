import { describe, expect, it } from 'vitest';
import { decide, MAX_ATTEMPTS, RETRY_AFTER_MS } from './delivery-rule.js';

const MIN = 60_000;

describe('the delivery rule', () => {
  it('waits 1, 5 and 15 minutes, an hour, then 4 hours between attempts: 8 in all', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(RETRY_AFTER_MS).toEqual([MIN, 5 * MIN, 15 * MIN, 60 * MIN, 240 * MIN, 240 * MIN, 240 * MIN]);
  });

  it.each([200, 201, 202, 204, 299])('takes %i as delivered', (status) => {
    expect(decide(1, { kind: 'answer', status })).toEqual({ state: 'delivered' });
  });

  it.each([408, 429, 500, 502, 503, 504, 599])('retries %i', (status) => {
    expect(decide(1, { kind: 'answer', status })).toEqual({ state: 'retrying', afterMs: MIN, why: `answered ${status}` });
  });

  it.each([400, 401, 403, 404, 409, 410, 422])('ends at %i', (status) => {
    expect(decide(1, { kind: 'answer', status })).toEqual({ state: 'failed', why: `answered ${status}` });
  });

  it.each([301, 302, 307, 308])('ends at %i without following it', (status) => {
    expect(decide(3, { kind: 'answer', status })).toEqual({ state: 'failed', why: `answered ${status} (redirects are not followed)` });
  });

  it('retries a timeout or an unreachable receiver, and never an address the outbound rule refuses', () => {
    expect(decide(2, { kind: 'no-answer', error: 'no answer within 10 s' })).toEqual({ state: 'retrying', afterMs: 5 * MIN, why: 'no answer within 10 s' });
    expect(decide(1, { kind: 'refused', error: 'refused: 10.0.0.1 is a private address' })).toEqual({ state: 'failed', why: 'refused: 10.0.0.1 is a private address' });
  });

  // The outbound client reports every DNS failure as no answer: a receiver nobody can find is unreachable.
  it.each([
    'ci-hooks.lan does not resolve (ENOTFOUND)', 'ci-hooks.lan does not resolve (no address)', 'ci-hooks.lan could not be resolved just now (EAI_AGAIN)',
    'ci-hooks.lan could not be resolved just now (ESERVFAIL)', 'no DNS answer for ci-hooks.lan within 10 s',
  ])('retries a receiver whose name cannot be resolved: %s', (error) => {
    expect(decide(1, { kind: 'no-answer', error })).toEqual({ state: 'retrying', afterMs: MIN, why: error });
    expect(decide(4, { kind: 'no-answer', error })).toEqual({ state: 'retrying', afterMs: 60 * MIN, why: error });
    expect(decide(MAX_ATTEMPTS, { kind: 'no-answer', error })).toEqual({ state: 'failed', why: `${error}; gave up after 8 attempts`, gaveUp: true });
  });

  it('gives up after the eighth attempt', () => {
    const waits = Array.from({ length: MAX_ATTEMPTS }, (_, i) => decide(i + 1, { kind: 'answer', status: 503 }));
    expect(waits.slice(0, 7).map((d) => (d.state === 'retrying' ? d.afterMs / MIN : d.state))).toEqual([1, 5, 15, 60, 240, 240, 240]);
    expect(waits[7]).toEqual({ state: 'failed', why: 'answered 503; gave up after 8 attempts', gaveUp: true });
  });
});
