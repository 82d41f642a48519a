import { describe, expect, it } from 'vitest';
import type { Subject } from './alert-types.js';
import { decideHold, indexHolds, type HoldEntry } from './hold-decision.js';

const hold = (kind: HoldEntry['subjectKind'], key: string, changeId: string): HoldEntry => ({ subjectKind: kind, subjectKey: key, changeId, displayId: `CHG-${changeId.slice(4, 12).toUpperCase()}`, title: `change ${changeId}` });
const index = indexHolds([
  hold('service', 'svc:checkout', 'chg_bbbb0000'),
  hold('service', 'svc:checkout', 'chg_aaaa0000'),
  hold('service', 'svc:checkout', 'chg_aaaa0000'),
  hold('asset', 'host:db-1', 'chg_cccc0000'),
  hold('source', 'blackbox-checkout', 'chg_aaaa0000'),
]);

describe('the hold decision', () => {
  it.each<[string, Subject, string[], RegExp]>([
    ['a service in two changes\' scopes: held by both, in change order', { kind: 'service', key: 'svc:checkout', name: 'Checkout' }, ['chg_aaaa0000', 'chg_bbbb0000'], /in the scope of CHG-AAAA0000, CHG-BBBB0000/],
    ['a host in a scope', { kind: 'asset', key: 'host:db-1', name: 'db-1' }, ['chg_cccc0000'], /asset host:db-1 is in the scope/],
    ['a monitoring source in a scope', { kind: 'source', key: 'blackbox-checkout', name: 'Checkout probes' }, ['chg_aaaa0000'], /source blackbox-checkout/],
    ['a service outside every scope', { kind: 'service', key: 'svc:payments', name: 'payments' }, [], /in no active change's scope/],
    ['a key of the right text but another kind', { kind: 'asset', key: 'svc:checkout', name: 'x' }, [], /in no active change's scope/],
    ['an unmapped alert, never', { kind: 'unmapped', key: null, name: null }, [], /unmapped: an alert with no subject is never held/],
  ])('%s', (_what, subject, by, reason) => {
    const d = decideHold(subject, index);
    expect(d.held).toBe(by.length > 0);
    expect(d.by.map((b) => b.changeId)).toEqual(by);
    expect(d.reason).toMatch(reason);
  });

  it('decides from nothing when no hold is live', () => {
    expect(decideHold({ kind: 'service', key: 'svc:checkout', name: 'Checkout' }, indexHolds([]))).toMatchObject({ held: false, by: [] });
  });
});
