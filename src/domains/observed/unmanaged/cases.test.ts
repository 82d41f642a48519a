import { describe, expect, it } from 'vitest';
import { correlationKey, decideCase, hourOf, type CaseCommand, type CaseStatus } from './cases.js';

describe('cases of unmanaged changes', () => {
  it('group writes by kind, account, principal and UTC clock hour', () => {
    expect(correlationKey('denied_access', '111122223333', 'arn:aws:iam::111122223333:user/eve', '2026-12-03T10:59:59.999Z')).toBe('denied_access=111122223333/arn:aws:iam::111122223333:user/eve@2026-12-03T10Z');
    expect(correlationKey('unauthorized_change', 'prod-eu', 'mallory', '2026-12-03T11:00:00.000+01:00')).toBe('unauthorized=prod-eu/mallory@2026-12-03T10Z');
    expect(hourOf('2026-12-03T23:30:00Z')).toBe('2026-12-03T23:00:00.000Z');
  });

  const table: Array<[CaseStatus, CaseCommand, CaseStatus | RegExp]> = [
    ['open', 'approve_rollback', 'rollback_approved'],
    ['open', 'keep', 'kept'],
    ['open', 'mark_rolled_back', /approve the rollback first/],
    ['open', 'resolve', /closed by keeping it or by rolling it back/],
    ['rollback_approved', 'mark_rolled_back', 'rolled_back'],
    ['rollback_approved', 'keep', 'kept'],
    ['rollback_approved', 'approve_rollback', /approved already/],
    ['rolled_back', 'keep', /marked as run/],
    ['rolled_back', 'approve_rollback', /rolled back already/],
    ['kept', 'keep', /kept as legitimate already/],
    ['kept', 'approve_rollback', /kept as legitimate already/],
  ];
  it.each(table)('an unauthorized change %s, answered %s → %s', (status, command, want) => {
    const d = decideCase('unauthorized_change', status, command);
    if (typeof want === 'string') expect(d).toEqual({ ok: true, status: want });
    else expect(d.ok ? 'ok' : d.reason).toMatch(want);
  });

  it('a case of denied attempts is only acknowledged: nothing changed', () => {
    expect(decideCase('denied_access', 'open', 'resolve')).toEqual({ ok: true, status: 'resolved' });
    for (const c of ['approve_rollback', 'keep', 'mark_rolled_back'] as const) expect(decideCase('denied_access', 'open', c)).toMatchObject({ ok: false, reason: expect.stringMatching(/changed nothing/) });
    expect(decideCase('denied_access', 'resolved', 'resolve')).toMatchObject({ ok: false });
  });
});
