import type { Clock } from '../../platform/clock.js';
import type { Database, Tx } from '../../platform/db/database.js';
import { AppError, badRequest, conflict, forbidden, invalid, notFound, taken, unauthorized } from '../../platform/errors.js';
import { newId, randomSecret } from '../../platform/ids.js';
import { generateApiToken, parseApiToken, safeEqual, sha256Hex } from '../../platform/crypto/tokens.js';
import { secondsOver, TOKENS_PER_MINUTE } from '../../platform/http/rate-limit.js';
import { appendAtCommit, createLedgerHead, type AuditContext, type NewAuditEvent } from '../ledger/index.js';
import * as store from './auth-store.js';
import type { ApiToken, Organization, Principal, SessionPrincipal, TokenPrincipal, User } from './auth-types.js';
import { dummyPasswordHash, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './password.js';
import { refuseMemberChange } from './member-rules.js';
import { canManageOthers, isScope, type Role, type Scope } from './scopes.js';
import { SignInThrottle } from './sign-in-throttle.js';

export const SESSION_HOURS = 12;
export const SIGN_IN_LINK_HOURS = 24;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
/** The one e-mail rule, also for callers that check arguments before opening the store (the CLI). */
export const isEmailAddress = (text: string): boolean => EMAIL.test(text);

export type NewSession = { principal: SessionPrincipal; cookieValue: string };

function slugify(name: string): string {
  const s = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63);
  return s || 'org';
}

/** What other domains set up in a new organisation, in the transaction that creates it. */
export type OrganizationInitializer = (tx: Tx, ctx: AuditContext, orgId: string) => Promise<void>;
/** What other domains forget of a member who leaves an organisation, in the removal's transaction. */
export type MemberDeparture = (tx: Tx, ctx: AuditContext, orgId: string, userId: string) => Promise<void>;

/** Who made a sign-in attempt, as the throttle sees it: the audit circumstances and the address. */
export type Attempt = Omit<AuditContext, 'actor'> & { address: string };

const ANONYMOUS = { kind: 'system', id: null, name: 'anonymous' } as const;

export class AuthService {
  private readonly throttle: SignInThrottle;
  constructor(private readonly deps: { db: Database; clock: Clock; initializers?: OrganizationInitializer[]; departures?: MemberDeparture[] }) {
    this.throttle = new SignInThrottle(deps);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  private audit(tx: Tx, ctx: AuditContext, ev: NewAuditEvent) {
    return appendAtCommit(tx, this.deps.clock, ctx, ev);
  }

  listOrganizations(): Promise<Organization[]> {
    return store.listOrgs(this.deps.db);
  }

  /** The organisation a command means: the named one, or the only one there is. */
  async resolveOrganization(idOrSlug?: string): Promise<Organization> {
    if (idOrSlug) {
      const o = await store.findOrg(this.deps.db, idOrSlug);
      if (!o) throw notFound(`no organisation "${idOrSlug}"`);
      return o;
    }
    const all = await store.listOrgs(this.deps.db);
    if (all.length === 1) return all[0]!;
    if (all.length === 0) throw notFound('there is no organisation yet');
    throw badRequest(`there are ${all.length} organisations: name one with --org (${all.map((o) => o.slug).join(', ')})`, 'org');
  }

  async createOrganization(tx: Tx, ctx: AuditContext, name: string): Promise<Organization> {
    const taken = new Set((await tx.query<{ slug: string }>('SELECT slug FROM organizations')).rows.map((r) => r.slug));
    let slug = slugify(name);
    for (let i = 2; taken.has(slug); i++) slug = `${slugify(name).slice(0, 58)}-${i}`;
    const org: Organization = { id: newId('org'), name, slug, createdAt: this.now() };
    await store.insertOrg(tx, org);
    await createLedgerHead(tx, org.id);
    await this.audit(tx, ctx, { orgId: org.id, action: 'organization.created', target: { type: 'organization', id: org.id }, data: { name, slug } });
    for (const init of this.deps.initializers ?? []) await init(tx, ctx, org.id);
    return org;
  }

  /**
   * First start on an empty database: one organisation, its owner, and a one-time sign-in link
   * (never a default password). Answers null when the database already has an organisation.
   */
  async bootstrap(ctx: AuditContext, opts: { orgName: string; ownerEmail: string }): Promise<{ org: Organization; owner: User; linkToken: string } | null> {
    return this.deps.db.transaction(async (tx) => {
      await tx.query('LOCK TABLE organizations IN EXCLUSIVE MODE');
      const existing = await tx.query('SELECT 1 FROM organizations LIMIT 1');
      if (existing.rows.length > 0) return null;
      const org = await this.createOrganization(tx, ctx, opts.orgName);
      const owner = await this.addMemberTx(tx, ctx, org, { email: opts.ownerEmail, role: 'owner' });
      const linkToken = await this.createSignInLinkTx(tx, ctx, org, owner);
      return { org, owner, linkToken };
    });
  }

  /** A new organisation with its first owner (who may have no password yet). */
  async createOrganizationWithOwner(ctx: AuditContext, opts: { name: string; email: string; password?: string }): Promise<{ org: Organization; owner: User }> {
    if (!EMAIL.test(opts.email)) throw invalid('email', 'is not an e-mail address');
    const hash = opts.password !== undefined ? await hashPassword(opts.password) : null;
    return this.deps.db.transaction(async (tx) => {
      const org = await this.createOrganization(tx, ctx, opts.name);
      const owner = await this.addMemberTx(tx, ctx, org, { email: opts.email, role: 'owner', passwordHash: hash });
      return { org, owner };
    });
  }

  /**
   * While no owner has set a password yet, each start issues a fresh one-time link for the first
   * owner, so a link lost from the terminal does not lock a newcomer out of their own server.
   */
  async reissueFirstOwnerLink(ctx: AuditContext): Promise<{ org: Organization; owner: User; linkToken: string } | null> {
    const r = await this.deps.db.query<{ org_id: string; user_id: string }>(
      `SELECT m.org_id, m.user_id FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.role = 'owner' AND NOT EXISTS (SELECT 1 FROM users p JOIN memberships pm ON pm.user_id = p.id WHERE p.password_hash IS NOT NULL AND pm.role = 'owner')
       ORDER BY m.created_at LIMIT 1`,
    );
    const row = r.rows[0];
    if (!row) return null;
    const org = await store.findOrg(this.deps.db, row.org_id);
    const owner = await store.findUser(this.deps.db, row.user_id);
    if (!org || !owner) return null;
    const linkToken = await this.deps.db.transaction((tx) => this.createSignInLinkTx(tx, ctx, org, owner));
    const { passwordHash: _omit, ...pub } = owner;
    return { org, owner: pub, linkToken };
  }

  /** Adds a person to an organisation (creating the organisation when the database has none). */
  async addMember(ctx: AuditContext, opts: { org?: string; email: string; role: Role; displayName?: string; password?: string }): Promise<{ org: Organization; user: User }> {
    if (!EMAIL.test(opts.email)) throw invalid('email', 'is not an e-mail address');
    if (opts.password !== undefined && opts.password.length < MIN_PASSWORD_LENGTH) {
      throw invalid('password', `must be at least ${MIN_PASSWORD_LENGTH} characters`);
    }
    const hash = opts.password !== undefined ? await hashPassword(opts.password) : null;
    return this.deps.db.transaction(async (tx) => {
      const orgs = await store.listOrgs(tx);
      let org: Organization;
      if (orgs.length === 0) org = await this.createOrganization(tx, ctx, opts.org ?? 'My organisation');
      else org = opts.org ? (orgs.find((o) => o.slug === opts.org || o.id === opts.org) ?? raise(notFound(`no organisation "${opts.org}"`))) : orgs.length === 1 ? orgs[0]! : raise(badRequest('several organisations: name one with --org', 'org'));
      const user = await this.addMemberTx(tx, ctx, org, { ...opts, passwordHash: hash });
      return { org, user };
    });
  }

  /** Puts a person into an organisation, creating their account when the e-mail is new. */
  async addMemberTx(tx: Tx, ctx: AuditContext, org: Organization, opts: { email: string; role: Role; displayName?: string; passwordHash?: string | null }): Promise<User> {
    let user: User | null = await store.findUserByEmail(tx, opts.email);
    const at = this.now();
    if (!user) {
      user = { id: newId('usr'), email: opts.email, displayName: opts.displayName ?? opts.email.split('@')[0]!, hasPassword: !!opts.passwordHash };
      await store.insertUser(tx, user, opts.passwordHash ?? null, at);
      await this.audit(tx, ctx, { orgId: org.id, action: 'user.created', target: { type: 'user', id: user.id }, data: { email: user.email, displayName: user.displayName } });
    } else if (await store.findRole(tx, org.id, user.id)) {
      throw taken(`${opts.email} is already a member of ${org.name}`, 'email');
    }
    await store.insertMembership(tx, org.id, user.id, opts.role, at);
    await this.audit(tx, ctx, { orgId: org.id, action: 'membership.added', target: { type: 'user', id: user.id }, data: { email: user.email, role: opts.role } });
    return { id: user.id, email: user.email, displayName: user.displayName, hasPassword: user.hasPassword };
  }

  /** Someone leaves (the command line: only the last-owner rule applies). */
  async removeMember(ctx: AuditContext, org: Organization, email: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await lockMembers(tx, org.id);
      const user = await store.findUserByEmail(tx, email);
      const role = user ? await store.findRole(tx, org.id, user.id) : null;
      if (!user || !role) throw notFound(`${email} is not a member of ${org.name}`);
      const refusal = refuseMemberChange(null, role, { kind: 'remove' }, await store.countOwners(tx, org.id));
      if (refusal) throw new AppError(refusal.status, refusal.reason, refusal.field);
      await this.removeMemberTx(tx, ctx, org, user, role);
    });
  }

  /**
   * Someone leaves: their sessions end at once, their tokens into the organisation are revoked
   * (not merely unusable: they stay dead if the person is invited back) and their unused sign-in
   * links expire. The caller has checked who may do it, under lockMembers.
   */
  async removeMemberTx(tx: Tx, ctx: AuditContext, org: Organization, user: User, role: Role): Promise<void> {
    const at = this.now();
    const sessionsEnded = await store.countSessionsOf(tx, org.id, user.id);
    await store.deleteMembership(tx, org.id, user.id);
    for (const depart of this.deps.departures ?? []) await depart(tx, ctx, org.id, user.id);
    await store.deleteSessionsOf(tx, org.id, user.id);
    await store.expireSignInLinks(tx, org.id, user.id, at);
    const revoked = await store.revokeTokensOf(tx, org.id, user.id, at);
    for (const t of revoked) {
      await this.audit(tx, ctx, { orgId: org.id, action: 'token.revoked', target: { type: 'token', id: t.id }, data: { name: t.name, owner: user.email, reason: 'owner removed from the organisation' } });
    }
    await this.audit(tx, ctx, {
      orgId: org.id, action: 'membership.removed', target: { type: 'user', id: user.id },
      data: { email: user.email, role, sessionsEnded, tokensRevoked: revoked.map((t) => t.id) },
    });
  }

  listMembers(orgId: string) {
    return store.listMembers(this.deps.db, orgId);
  }

  async createSignInLink(ctx: AuditContext, org: Organization, email: string): Promise<string> {
    return this.deps.db.transaction(async (tx) => {
      const user = await store.findUserByEmail(tx, email);
      if (!user || !(await store.findRole(tx, org.id, user.id))) throw notFound(`${email} is not a member of ${org.name}`);
      return this.createSignInLinkTx(tx, ctx, org, user);
    });
  }

  /**
   * The one way a sign-in link is made (first owner, `users link`, an invitation): a random secret
   * whose SHA-256 is stored, valid once for SIGN_IN_LINK_HOURS. An invitation supersedes the
   * person's earlier unused links; `delivery` says whether it was mailed or shown to whoever asked.
   */
  async issueSignInLinkTx(tx: Tx, ctx: AuditContext, org: Organization, user: User, opts: { supersede?: boolean; delivery?: 'mail' | 'shown' } = {}): Promise<{ token: string; expiresAt: string }> {
    const token = randomSecret();
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_HOURS * 3_600_000).toISOString();
    if (opts.supersede) await store.expireSignInLinks(tx, org.id, user.id, now.toISOString());
    await store.insertSignInLink(tx, { tokenHash: sha256Hex(token), userId: user.id, orgId: org.id, at: now.toISOString(), expiresAt });
    await this.audit(tx, ctx, { orgId: org.id, action: 'signin_link.created', target: { type: 'user', id: user.id }, data: { email: user.email, expiresAt, ...(opts.delivery ? { delivery: opts.delivery } : {}) } });
    return { token, expiresAt };
  }

  private async createSignInLinkTx(tx: Tx, ctx: AuditContext, org: Organization, user: User): Promise<string> {
    return (await this.issueSignInLinkTx(tx, ctx, org, user)).token;
  }

  /**
   * Password sign-in. A known and an unknown e-mail cost the same work (a password hash each, one
   * counter read, one counter write on failure) and get the same answers, 401 and then 429.
   */
  async signIn(attempt: Attempt, email: string, password: string): Promise<NewSession> {
    const { address, ...ctx } = attempt;
    const keys = this.throttle.keys(address, email);
    await this.throttle.refuseWhileWaiting(keys);
    const user = await store.findUserByEmail(this.deps.db, email);
    // Same work whether or not the account exists, so timing does not tell which e-mails are known.
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    // Asked for an unknown e-mail too (it finds nothing), again for equal work.
    const memberships = await this.deps.db.query<{ org_id: string }>('SELECT org_id FROM memberships WHERE user_id = $1 ORDER BY created_at LIMIT 1', [user?.id ?? '']);
    const orgId = user ? memberships.rows[0]?.org_id : undefined;
    if (!user || !user.passwordHash || !ok) {
      const account = user && orgId ? { userId: user.id, email: user.email, orgId } : null;
      await this.throttle.recordFailure(keys, { ...ctx, actor: ANONYMOUS }, 'password', account, address);
      throw unauthorized('e-mail or password is wrong');
    }
    if (!orgId) throw unauthorized('this account belongs to no organisation');
    return this.deps.db.transaction(async (tx) => {
      await this.throttle.clearAccount(tx, email);
      return this.startSession(tx, ctx, user, orgId, 'password');
    });
  }

  /** A one-time link names no account until it is found, so only its address is counted. */
  async signInWithLink(attempt: Attempt, token: string): Promise<NewSession> {
    const { address, ...ctx } = attempt;
    const keys = this.throttle.keys(address);
    await this.throttle.refuseWhileWaiting(keys);
    try {
      return await this.deps.db.transaction(async (tx) => {
        const link = await store.consumeSignInLink(tx, sha256Hex(token), this.now());
        if (!link) throw unauthorized('this sign-in link is unknown, used or expired; ask an owner for a new one (changeledger users link)');
        const user = await store.findUser(tx, link.userId);
        if (!user || !(await store.findRole(tx, link.orgId, user.id))) throw unauthorized('this account no longer belongs to the organisation');
        return this.startSession(tx, ctx, user, link.orgId, 'link');
      });
    } catch (err) {
      if (err instanceof AppError && err.status === 401) await this.throttle.recordFailure(keys, { ...ctx, actor: ANONYMOUS }, 'link', null, address);
      throw err;
    }
  }

  private async startSession(tx: Tx, ctx: Omit<AuditContext, 'actor'>, user: User, orgId: string, method: 'password' | 'link'): Promise<NewSession> {
    const cookieValue = randomSecret();
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000).toISOString();
    const csrfToken = randomSecret();
    const idHash = sha256Hex(cookieValue);
    await store.insertSession(tx, { idHash, userId: user.id, orgId, csrfToken, at: now.toISOString(), expiresAt });
    await this.audit(tx, { ...ctx, actor: { kind: 'user', id: user.id, name: user.email } }, {
      orgId, action: 'session.created', target: { type: 'user', id: user.id }, data: { method, expiresAt },
    });
    const principal = await this.principalFor(tx, user.id, orgId);
    if (!principal) throw unauthorized();
    return { cookieValue, principal: { kind: 'session', ...principal, sessionHash: idHash, csrfToken, expiresAt } };
  }

  private principalFor(db: Tx | Database, userId: string, orgId: string) {
    return store.findMember(db, orgId, userId);
  }

  async authenticateSession(cookieValue: string): Promise<SessionPrincipal | null> {
    const idHash = sha256Hex(cookieValue);
    // The session and its membership in one statement: a request signed in by cookie reads once.
    const found = await store.findSessionMember(this.deps.db, idHash);
    if (!found) return null;
    const { session: s, member: p } = found;
    if (Date.parse(s.expiresAt) <= this.deps.clock.now().getTime()) return null;
    return { kind: 'session', ...p, sessionHash: idHash, csrfToken: s.csrfToken, expiresAt: s.expiresAt };
  }

  async signOut(ctx: AuditContext, p: SessionPrincipal): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      if (await store.deleteSession(tx, p.sessionHash)) {
        await this.audit(tx, ctx, { orgId: p.org.id, action: 'session.ended', target: { type: 'user', id: p.user.id }, data: {} });
      }
    });
  }

  /** A wrong current password counts against the account and the address like a failed sign-in. */
  async setPassword(ctx: AuditContext, p: Principal, current: string | undefined, next: string, address: string): Promise<void> {
    if (next.length < MIN_PASSWORD_LENGTH) throw invalid('newPassword', `must be at least ${MIN_PASSWORD_LENGTH} characters`);
    const user = await store.findUser(this.deps.db, p.user.id);
    if (!user) throw unauthorized();
    if (user.passwordHash) {
      if (current === undefined) throw invalid('currentPassword', 'is required to change a password');
      const keys = this.throttle.keys(address, user.email);
      await this.throttle.refuseWhileWaiting(keys);
      if (!(await verifyPassword(current, user.passwordHash))) {
        await this.throttle.recordFailure(keys, ctx, 'password_change', { userId: user.id, email: user.email, orgId: p.org.id }, address);
        throw invalid('currentPassword', 'is wrong');
      }
    }
    const hash = await hashPassword(next);
    await this.deps.db.transaction(async (tx) => {
      await store.setPasswordHash(tx, user.id, hash, this.now());
      await this.throttle.clearAccount(tx, user.email);
      await this.audit(tx, ctx, { orgId: p.org.id, action: 'user.password_set', target: { type: 'user', id: user.id }, data: { hadPassword: !!user.passwordHash } });
    });
  }

  // ---- API tokens ----

  async createToken(ctx: AuditContext, owner: { org: Organization; user: User }, opts: { name: string; scopes: string[]; expiresAt?: Date | null }): Promise<{ token: ApiToken; secret: string }> {
    const name = opts.name.trim();
    if (name.length < 1 || name.length > 100) throw invalid('name', 'must be 1 to 100 characters');
    if (opts.scopes.length === 0) throw badRequest('scopes must name at least one scope', 'scopes');
    const bad = opts.scopes.find((s) => !isScope(s));
    if (bad !== undefined) throw badRequest(`scopes: unknown scope "${bad}"`, 'scopes');
    const scopes = [...new Set(opts.scopes)] as Scope[];
    const now = this.deps.clock.now();
    if (opts.expiresAt && opts.expiresAt.getTime() <= now.getTime()) throw badRequest('expiry must be in the future', 'expiresInDays');
    const generated = generateApiToken();
    const expiresAt = opts.expiresAt ? opts.expiresAt.toISOString() : null;
    await this.deps.db.transaction(async (tx) => {
      await store.insertToken(tx, { id: generated.id, orgId: owner.org.id, userId: owner.user.id, name, scopes, hash: generated.hash, at: now.toISOString(), expiresAt });
      await this.audit(tx, ctx, {
        orgId: owner.org.id, action: 'token.created', target: { type: 'token', id: generated.id },
        data: { name, scopes, expiresAt, owner: owner.user.email },
      });
    });
    const token = await store.findToken(this.deps.db, owner.org.id, generated.id);
    return { token: token!, secret: generated.value };
  }

  /** Owners and admins see every token of the organisation; members their own. */
  listTokens(p: { org: Organization; user: User; role: Role }): Promise<ApiToken[]> {
    return store.listTokens(this.deps.db, p.org.id, canManageOthers(p.role) ? null : p.user.id);
  }

  async revokeToken(ctx: AuditContext, p: { org: Organization; user: User; role: Role }, id: string): Promise<ApiToken> {
    return this.deps.db.transaction(async (tx) => {
      const t = await store.findToken(tx, p.org.id, id);
      if (!t || (!canManageOthers(p.role) && t.owner.id !== p.user.id)) throw notFound(`no token ${id}`);
      if (t.revokedAt) throw conflict(`token ${id} is already revoked`);
      await store.revokeTokenRow(tx, p.org.id, id, this.now());
      await this.audit(tx, ctx, { orgId: p.org.id, action: 'token.revoked', target: { type: 'token', id }, data: { name: t.name, owner: t.owner.email } });
      return (await store.findToken(tx, p.org.id, id))!;
    });
  }

  /** A presented token → its principal, or null (unknown, wrong secret, revoked, expired, owner gone). */
  /**
   * The token's principal, or null for no such token (unknown, wrong secret, revoked, expired, its
   * owner gone). The request is counted on the token's shared one-minute window for `perMinute` in
   * the same statement as the lookup; over it, 429 with the seconds to wait (before any other work).
   */
  async authenticateToken(value: string, perMinute = TOKENS_PER_MINUTE): Promise<TokenPrincipal | null> {
    const parsed = parseApiToken(value);
    if (!parsed) return null;
    const now = this.deps.clock.now();
    const row = await store.findTokenForAuth(this.deps.db, parsed.id, { hash: parsed.hash, rateKey: `token:${parsed.id}:${perMinute}`, now: now.toISOString() });
    if (!row || !safeEqual(row.secretHash, parsed.hash) || row.revokedAt || !row.role) return null;
    if (row.expiresAt && Date.parse(row.expiresAt) <= now.getTime()) return null;
    const wait = row.rate ? secondsOver(row.rate, perMinute, now.getTime()) : 0;
    if (wait > 0) throw new AppError(429, `more than ${perMinute} requests a minute for this token; retry in ${wait} s`, undefined, { retryAfter: wait });
    if (!row.lastUsedAt || now.getTime() - Date.parse(row.lastUsedAt) >= 60_000) await this.deps.db.transaction((tx) => store.touchToken(tx, row.id, now.toISOString()));
    return { kind: 'token', user: row.user, org: row.org, role: row.role, tokenId: row.id, tokenName: row.name, scopes: row.scopes };
  }

  /** Checks the role a use case needs; used by routes and the CLI alike. */
  static requireRole(p: { role: Role }, ...roles: Role[]): void {
    if (!roles.includes(p.role)) throw forbidden(`this needs the role ${roles.join(' or ')}`);
  }
}

/** Member changes of one organisation one at a time, so two owners cannot demote each other at once. */
export async function lockMembers(tx: Tx, orgId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`members:${orgId}`]);
}

function raise(e: AppError): never {
  throw e;
}
