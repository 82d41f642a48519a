import { describe, expect, it } from 'vitest';
import { displayNameProblem, refuseInvite, refuseMemberChange, type MemberChange } from './member-rules.js';
import type { Role } from './scopes.js';

describe('who may change whom', () => {
  const cases: Array<[actor: Role | null, target: Role, change: MemberChange, owners: number, expected: RegExp | null]> = [
    ['owner', 'member', { kind: 'role', to: 'admin' }, 1, null],
    ['owner', 'admin', { kind: 'role', to: 'owner' }, 1, null],
    ['owner', 'owner', { kind: 'role', to: 'admin' }, 2, null],
    ['owner', 'owner', { kind: 'remove' }, 2, null],
    ['owner', 'owner', { kind: 'role', to: 'admin' }, 1, /last owner cannot be given another role/],
    ['owner', 'owner', { kind: 'remove' }, 1, /last owner cannot be removed/],
    ['owner', 'owner', { kind: 'role', to: 'owner' }, 1, null],
    ['admin', 'member', { kind: 'role', to: 'admin' }, 1, null],
    ['admin', 'admin', { kind: 'remove' }, 1, null],
    ['admin', 'member', { kind: 'role', to: 'owner' }, 1, /only an owner can make someone an owner/],
    ['admin', 'owner', { kind: 'role', to: 'member' }, 3, /only an owner can change or remove an owner/],
    ['admin', 'owner', { kind: 'remove' }, 3, /only an owner can change or remove an owner/],
    ['member', 'member', { kind: 'remove' }, 1, /only owners and admins/],
    [null, 'owner', { kind: 'remove' }, 1, /last owner cannot be removed/],
    [null, 'owner', { kind: 'remove' }, 2, null],
  ];
  it.each(cases)('%s changing a(n) %s (%o, %i owners)', (actor, target, change, owners, expected) => {
    const r = refuseMemberChange(actor, target, change, owners);
    if (expected === null) expect(r).toBeNull();
    else expect(r?.reason).toMatch(expected);
  });

  it('refuses the last owner with 409 and a wrong caller with 403', () => {
    expect(refuseMemberChange('owner', 'owner', { kind: 'remove' }, 1)?.status).toBe(409);
    expect(refuseMemberChange('admin', 'owner', { kind: 'remove' }, 2)?.status).toBe(403);
  });

  it('lets only an owner invite an owner, and no plain member invite anyone', () => {
    expect(refuseInvite('owner', 'owner')).toBeNull();
    expect(refuseInvite('admin', 'admin')).toBeNull();
    expect(refuseInvite('admin', 'owner')).toMatchObject({ status: 403, field: 'role' });
    expect(refuseInvite('member', 'member')).toMatchObject({ status: 403 });
  });
});

describe('display names', () => {
  it.each([
    ['Alice Approver', null],
    ['  Alice  ', null],
    ['', /required/],
    ['   ', /required/],
    ['a'.repeat(201), /at most 200/],
    ['Alice\nAdmin', /control characters/],
  ])('%j → %s', (name, expected) => {
    const p = displayNameProblem(name);
    if (expected === null) expect(p).toBeNull();
    else expect(p).toMatch(expected);
  });
});
