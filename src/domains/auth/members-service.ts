import type { Clock } from '../../platform/clock.js';
import type { Database, Tx } from '../../platform/db/database.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { sha256Hex } from '../../platform/crypto/tokens.js';
import { scheduleMail } from '../../platform/mail/mail-outbox.js';
import { renderMail } from '../../platform/mail/render.js';
import { isReservedAddress } from '../../platform/mail/reserved.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { isEmailAddress, lockMembers, SIGN_IN_LINK_HOURS, type AuthService } from './auth-service.js';
import * as store from './auth-store.js';
import type { Organization, Principal, User } from './auth-types.js';
import { displayNameProblem, refuseInvite, refuseMemberChange, type MemberRefusal } from './member-rules.js';
import type { Role } from './scopes.js';

/** A member as the Members page shows them. */
export type MemberView = {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: string;
  /** active: has signed in (a password or a used link); invited: a live link waits; link_expired: none does. */
  status: 'active' | 'invited' | 'link_expired';
  /** The newest unused sign-in link's expiry, while it lives. */
  linkExpiresAt: string | null;
};

/** How a sign-in link reached its person: mailed, or shown once to whoever asked for it. */
export type LinkDelivery = { delivery: 'mail'; expiresAt: string } | { delivery: 'shown'; expiresAt: string; signInUrl: string };

export type MembersDeps = {
  db: Database;
  clock: Clock;
  auth: AuthService;
  /** Whether an SMTP server is configured. */
  mailConfigured: boolean;
  /** Where people reach the UI, for the link. */
  baseUrl: () => string;
};

type Manager = Pick<Principal, 'org' | 'user' | 'role'>;

function refuse(r: MemberRefusal | null): void {
  if (r) throw new AppError(r.status, r.reason, r.field);
}

/**
 * Organisation → Members: invite by e-mail, a new link, change a role, remove; and a person's own
 * display name. Each use case is one transaction with its audit events (and the mail, if any).
 */
export class MembersService {
  constructor(private readonly deps: MembersDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  private view(m: store.MemberRow): MemberView {
    const live = m.linkExpiresAt !== null && Date.parse(m.linkExpiresAt) > this.now().getTime();
    return {
      userId: m.id, email: m.email, name: m.displayName, role: m.role, joinedAt: m.joinedAt,
      status: m.signedIn ? 'active' : live ? 'invited' : 'link_expired',
      linkExpiresAt: live ? m.linkExpiresAt : null,
    };
  }

  private async one(db: Tx | Database, orgId: string, userId: string): Promise<MemberView> {
    const row = (await store.listMemberRows(db, orgId, userId))[0];
    if (!row) throw notFound(`no member ${userId}`);
    return this.view(row);
  }

  async list(p: Manager): Promise<MemberView[]> {
    if (p.role === 'member') throw forbidden('only owners and admins manage members');
    return (await store.listMemberRows(this.deps.db, p.org.id)).map((m) => this.view(m));
  }

  /** Mailed when it can be (SMTP set, an address a server would take), else shown once to the inviter. */
  private deliveryFor(email: string): 'mail' | 'shown' {
    return this.deps.mailConfigured && !isReservedAddress(email) ? 'mail' : 'shown';
  }

  private async sendLink(tx: Tx, ctx: AuditContext, p: Manager, user: User, invited: boolean): Promise<LinkDelivery> {
    const delivery = this.deliveryFor(user.email);
    const { token, expiresAt } = await this.deps.auth.issueSignInLinkTx(tx, ctx, p.org, user, { supersede: true, delivery });
    const signInUrl = `${this.deps.baseUrl().replace(/\/+$/, '')}/signin/link#${token}`;
    if (delivery === 'shown') return { delivery, expiresAt, signInUrl };
    const inviter = p.user.displayName || p.user.email;
    const { text, html } = renderMail({
      heading: invited ? `${inviter} invited you to ${p.org.name}` : `A new sign-in link for ${p.org.name}`,
      lines: [
        invited ? `You are now a member of ${p.org.name} on changeledger.` : `${inviter} sent you a new sign-in link.`,
        `The link signs you in once, within ${SIGN_IN_LINK_HOURS} hours. After that, set a password on your Account page.`,
      ],
      actions: [{ label: 'Sign in', url: signInUrl }],
      note: 'If you did not expect this, ignore it: nothing happens until the link is used.',
    });
    await scheduleMail(tx, this.deps.clock, {
      orgId: p.org.id, to: user.email, subject: invited ? `You are invited to ${p.org.name} on changeledger` : `Your sign-in link for ${p.org.name}`,
      text, html, dedupeKey: `mail:signin-link:${sha256Hex(token)}`,
    });
    return { delivery, expiresAt };
  }

  /** Adds a person (a new account, or an existing one joining this organisation) and makes their link. */
  async invite(ctx: AuditContext, p: Manager, input: { email: string; role: Role; name?: string }): Promise<{ member: MemberView } & LinkDelivery> {
    const email = input.email.trim();
    if (!isEmailAddress(email)) throw badRequest(`E-mail (${email}) is not an e-mail address`, 'email');
    refuse(refuseInvite(p.role, input.role));
    let name: string | undefined;
    if (input.name !== undefined && input.name.trim() !== '') {
      const problem = displayNameProblem(input.name);
      if (problem) throw badRequest(problem, 'name');
      name = input.name.trim();
    }
    return this.deps.db.transaction(async (tx) => {
      await lockMembers(tx, p.org.id);
      const user = await this.deps.auth.addMemberTx(tx, ctx, p.org, { email, role: input.role, ...(name ? { displayName: name } : {}) });
      const link = await this.sendLink(tx, ctx, p, user, true);
      return { member: await this.one(tx, p.org.id, user.id), ...link };
    });
  }

  /** A fresh link for someone who has not signed in yet (theirs expired, or was lost). */
  async newLink(ctx: AuditContext, p: Manager, userId: string): Promise<{ member: MemberView } & LinkDelivery> {
    return this.deps.db.transaction(async (tx) => {
      await lockMembers(tx, p.org.id);
      const before = await this.one(tx, p.org.id, userId);
      refuse(refuseInvite(p.role, before.role));
      // Shown to the inviter, a link for an account in use would let them sign in as its owner.
      if (before.status === 'active') throw conflict(`${before.email} has signed in already: they sign in with their password (a forgotten one: changeledger users link)`);
      const user = (await store.findUser(tx, userId))!;
      const link = await this.sendLink(tx, ctx, p, user, false);
      return { member: await this.one(tx, p.org.id, userId), ...link };
    });
  }

  async changeRole(ctx: AuditContext, p: Manager, userId: string, role: Role): Promise<MemberView> {
    return this.deps.db.transaction(async (tx) => {
      await lockMembers(tx, p.org.id);
      const before = await this.one(tx, p.org.id, userId);
      refuse(refuseMemberChange(p.role, before.role, { kind: 'role', to: role }, await store.countOwners(tx, p.org.id)));
      if (before.role === role) return before;
      await store.setRole(tx, p.org.id, userId, role);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'membership.role_changed', target: { type: 'user', id: userId },
        data: { email: before.email, before: before.role, after: role },
      });
      return this.one(tx, p.org.id, userId);
    });
  }

  async remove(ctx: AuditContext, p: Manager, userId: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await lockMembers(tx, p.org.id);
      const before = await this.one(tx, p.org.id, userId);
      refuse(refuseMemberChange(p.role, before.role, { kind: 'remove' }, await store.countOwners(tx, p.org.id)));
      const user = (await store.findUser(tx, userId))!;
      await this.deps.auth.removeMemberTx(tx, ctx, p.org, user, before.role);
    });
  }

  /** Your own name, as every page and e-mail shows it; recorded in the organisation you are signed into. */
  async setDisplayName(ctx: AuditContext, p: { org: Organization; user: User }, name: string): Promise<User> {
    const problem = displayNameProblem(name);
    if (problem) throw badRequest(problem, 'displayName');
    const next = name.trim();
    return this.deps.db.transaction(async (tx) => {
      const user = await store.findUser(tx, p.user.id);
      if (!user) throw notFound('your account is gone');
      if (user.displayName !== next) {
        await store.setDisplayName(tx, user.id, next, this.now().toISOString());
        await appendAtCommit(tx, this.deps.clock, ctx, {
          orgId: p.org.id, action: 'user.display_name_changed', target: { type: 'user', id: user.id },
          data: { before: user.displayName, after: next },
        });
      }
      const { passwordHash: _omit, ...pub } = user;
      return { ...pub, displayName: next };
    });
  }
}
