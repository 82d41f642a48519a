import { describe, expect, it } from 'vitest';
import type { RecordPrincipal } from '../../changes/change-feed.js';
import { judgeWrite, NO_REFERENCE, principalMatcher, type RuleContext, type Vouching, type WriteFacts } from './reference-rule.js';
import type { Ticket } from './unmanaged-types.js';

const alice: RecordPrincipal = { kind: 'person', name: 'alice@example.com', id: null, detail: {} };
const deployer: RecordPrincipal = { kind: 'service', name: 'deploy-prod/run-1', id: 'arn:aws:sts::1:assumed-role/deploy-prod/run-1', detail: { roleArn: 'arn:aws:iam::111122223333:role/deploy-prod' } };

const write = (over: Partial<WriteFacts> = {}): WriteFacts => ({
  source: 'kubernetes', denied: false, outcome: 'succeeded', principalClass: 'human', principal: alice,
  at: '2026-12-03T10:30:00.000Z', services: ['svc:checkout'], resource: 'deployments/checkout', changeRef: null, ...over,
});
const change = (over: Partial<Vouching> = {}): Vouching => ({
  id: 'chg_abcdef01aa', displayId: 'CHG-ABCDEF01', status: 'active', from: Date.parse('2026-12-03T10:00:00Z'), until: Date.parse('2026-12-03T11:00:00Z'),
  scope: new Set(['svc:checkout', 'svc:payments']), ...over,
});
const ticket = (over: Partial<Ticket> = {}): Ticket => ({
  system: 'servicenow', key: 'CHG0030001', title: 'roll checkout', state: 'Implement', approval: 'approved', plannedStart: '2026-12-03T10:00:00.000Z',
  plannedEnd: '2026-12-03T12:00:00.000Z', items: ['svc:checkout'], assignmentGroup: 'SRE', link: null, updatedAt: null, ...over,
});
const ctx = (over: Partial<RuleContext> = {}): RuleContext => {
  const vouching = over.vouching ?? [];
  return { enabled: true, byDisplayId: new Map(vouching.map((v) => [v.displayId, v])), vouching, tickets: [], itsmMatch: {}, principals: principalMatcher([]), ...over };
};

describe('the reference rule', () => {
  it('judges nothing while it is off, nor a denied attempt, a failed write, plumbing, our own echo or a Git event', () => {
    expect(judgeWrite(write(), ctx({ enabled: false })).authorized).toBeNull();
    expect(judgeWrite(write({ denied: true }), ctx()).authorized).toBeNull();
    expect(judgeWrite(write({ outcome: 'failed' }), ctx()).authorized).toBeNull();
    expect(judgeWrite(write({ principalClass: 'system' }), ctx()).authorized).toBeNull();
    expect(judgeWrite(write({ principalClass: 'changeledger' }), ctx()).authorized).toBeNull();
    expect(judgeWrite(write({ source: 'github' }), ctx()).authorized).toBeNull();
  });

  it('flags a write nothing vouches for, in the words the record shows', () => {
    expect(judgeWrite(write(), ctx())).toEqual({ authorized: false, reference: null, reason: NO_REFERENCE });
  });

  it('takes the change id it carries when that change is approved and its scope covers the write', () => {
    const j = judgeWrite(write({ changeRef: 'chg-abcdef01' }), ctx({ vouching: [change()] }));
    expect(j).toMatchObject({ authorized: true, reference: 'change_id' });
    expect(j.reason).toBe('carries CHG-ABCDEF01, an approved change whose scope covers svc:checkout');
  });

  it('says why a carried id did not vouch when nothing else did', () => {
    const outside = judgeWrite(write({ changeRef: 'CHG-ABCDEF01', services: ['svc:search'] }), ctx({ vouching: [change()] }));
    expect(outside.authorized).toBe(false);
    expect(outside.reason).toBe(`${NO_REFERENCE}; it carries CHG-ABCDEF01, whose scope does not cover svc:search`);
    const unknown = judgeWrite(write({ changeRef: 'CHG-00000000' }), ctx());
    expect(unknown.reason).toBe(`${NO_REFERENCE}; it carries CHG-00000000, which is no approved planned change`);
  });

  it('takes a matching ticket second', () => {
    const j = judgeWrite(write({ changeRef: 'CHG-00000000' }), ctx({ tickets: [ticket()], vouching: [change()] }));
    expect(j.reference).toBe('itsm_ticket');
    expect(j.reason).toContain('CHG0030001');
  });

  it('a ticket may name the service as people do, without the catalogue key\'s kind', () => {
    expect(judgeWrite(write(), ctx({ tickets: [ticket({ items: ['Checkout'] })] })).reference).toBe('itsm_ticket');
    expect(judgeWrite(write(), ctx({ tickets: [ticket({ items: ['search'] })] })).authorized).toBe(false);
  });

  it('a ticket that does not match leaves the write to the later references', () => {
    const j = judgeWrite(write(), ctx({ tickets: [ticket({ state: 'Closed' })] }));
    expect(j.authorized).toBe(false);
  });

  it('takes a planned change whose blast radius and window cover the write third', () => {
    const j = judgeWrite(write(), ctx({ vouching: [change()] }));
    expect(j).toEqual({ authorized: true, reference: 'change_window', reason: 'CHG-ABCDEF01 covers svc:checkout in its blast radius and 2026-12-03 10:30 UTC in its window' });
  });

  it('a change whose window has ended, or whose blast radius misses the service, does not cover it', () => {
    expect(judgeWrite(write({ at: '2026-12-03T11:00:01.000Z' }), ctx({ vouching: [change()] })).authorized).toBe(false);
    expect(judgeWrite(write({ services: ['svc:search'] }), ctx({ vouching: [change()] })).authorized).toBe(false);
    // An unmapped write names no service a blast radius could cover.
    expect(judgeWrite(write({ services: [] }), ctx({ vouching: [change()] })).authorized).toBe(false);
  });

  it('takes an authorized principal last, by any of its names', () => {
    const principals = principalMatcher(['system:serviceaccount:ci:*', 'arn:aws:iam::*:role/deploy-*']);
    const j = judgeWrite(write({ source: 'aws', principal: deployer, principalClass: 'pipeline' }), ctx({ principals }));
    expect(j).toEqual({ authorized: true, reference: 'authorized_principal', reason: 'deploy-prod/run-1 is an authorized principal (arn:aws:iam::*:role/deploy-*)' });
    const sa: RecordPrincipal = { kind: 'service', name: 'system:serviceaccount:ci:runner', id: null, detail: { ciNamespace: 'ci' } };
    expect(judgeWrite(write({ principal: sa, principalClass: 'pipeline' }), ctx({ principals })).reference).toBe('authorized_principal');
    expect(judgeWrite(write(), ctx({ principals })).authorized).toBe(false);
  });

  it('checks the references in order: a change window before an authorized principal', () => {
    const principals = principalMatcher(['alice@*']);
    expect(judgeWrite(write(), ctx({ principals, vouching: [change()] })).reference).toBe('change_window');
  });

  it('matches a thousand globs as one, case-blind, and each name once', () => {
    const globs = Array.from({ length: 1000 }, (_, i) => `arn:aws:iam::${String(i).padStart(12, '0')}:role/deploy-*`);
    const m = principalMatcher(globs);
    const hit: RecordPrincipal = { kind: 'service', name: 'x', id: null, detail: { roleArn: 'arn:aws:iam::000000000999:role/DEPLOY-web' } };
    expect(m.match(hit)).toBe('arn:aws:iam::000000000999:role/deploy-*');
    expect(m.match({ ...hit, detail: { roleArn: 'arn:aws:iam::000000001000:role/deploy-web' } })).toBeNull();
    expect(principalMatcher([]).match(hit)).toBeNull();
  });
});
