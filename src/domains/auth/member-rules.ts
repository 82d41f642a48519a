import type { Role } from './scopes.js';

/** What someone wants to do to a member: give them a role, or remove them. */
export type MemberChange = { kind: 'role'; to: Role } | { kind: 'remove' };

export type MemberRefusal = { status: 403 | 409; reason: string; field?: string };

/**
 * Who may change whom. `actor` is the caller's role, or null for the command line (whoever runs it
 * holds the data directory, and so the whole organisation). Owners do everything; an admin manages
 * admins and members but never touches an owner nor makes one — otherwise an admin could promote
 * themselves and then remove every owner. The last owner stays: nobody could manage the
 * organisation after them.
 */
export function refuseMemberChange(actor: Role | null, target: Role, change: MemberChange, owners: number): MemberRefusal | null {
  if (actor === 'member') return { status: 403, reason: 'only owners and admins manage members' };
  if (actor === 'admin' && target === 'owner') return { status: 403, reason: 'only an owner can change or remove an owner' };
  if (actor === 'admin' && change.kind === 'role' && change.to === 'owner') return { status: 403, reason: 'only an owner can make someone an owner', field: 'role' };
  const losesOwner = target === 'owner' && (change.kind === 'remove' || change.to !== 'owner');
  if (losesOwner && owners <= 1) {
    return change.kind === 'remove'
      ? { status: 409, reason: 'the last owner cannot be removed: make someone else owner first' }
      : { status: 409, reason: 'the last owner cannot be given another role: make someone else owner first', field: 'role' };
  }
  return null;
}

/** Inviting: the same rule as giving the role to someone already in. */
export function refuseInvite(actor: Role | null, role: Role): MemberRefusal | null {
  if (actor === 'member') return { status: 403, reason: 'only owners and admins invite people' };
  if (actor === 'admin' && role === 'owner') return { status: 403, reason: 'only an owner can invite an owner', field: 'role' };
  return null;
}

export const MAX_DISPLAY_NAME = 200;

/** A display name as people will read it: trimmed, 1 to 200 characters, no control characters. */
export function displayNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Name is required';
  if (trimmed.length > MAX_DISPLAY_NAME) return `Name must be at most ${MAX_DISPLAY_NAME} characters`;
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return 'Name cannot contain line breaks or control characters';
  return null;
}
