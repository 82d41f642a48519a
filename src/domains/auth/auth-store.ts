import { prepared, type Queryable, type Row, type Tx } from '../../platform/db/database.js';
import { rateHitSql, type RateHit } from '../../platform/http/rate-limit.js';
import type { ApiToken, Member, Organization, User } from './auth-types.js';
import type { Role, Scope } from './scopes.js';

const iso = (d: unknown): string => new Date(d as string).toISOString();
const isoOrNull = (d: unknown): string | null => (d == null ? null : iso(d));

type OrgRow = Row & { id: string; name: string; slug: string; created_at: Date };
type UserRow = Row & { id: string; email: string; display_name: string; password_hash: string | null };

export const toOrg = (r: OrgRow): Organization => ({ id: r.id, name: r.name, slug: r.slug, createdAt: iso(r.created_at) });
export const toUser = (r: UserRow): User => ({ id: r.id, email: r.email, displayName: r.display_name, hasPassword: r.password_hash !== null });

export async function insertOrg(tx: Tx, o: Organization): Promise<void> {
  await tx.query('INSERT INTO organizations (id, name, slug, created_at) VALUES ($1, $2, $3, $4)', [o.id, o.name, o.slug, o.createdAt]);
}

export async function listOrgs(db: Queryable): Promise<Organization[]> {
  const r = await db.query<OrgRow>('SELECT * FROM organizations ORDER BY created_at');
  return r.rows.map(toOrg);
}

export async function findOrg(db: Queryable, idOrSlug: string): Promise<Organization | null> {
  const r = await db.query<OrgRow>('SELECT * FROM organizations WHERE id = $1 OR slug = $1', [idOrSlug]);
  return r.rows[0] ? toOrg(r.rows[0]) : null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<(User & { passwordHash: string | null }) | null> {
  const r = await db.query<UserRow>('SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
  const row = r.rows[0];
  return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
}

export async function findUser(db: Queryable, id: string): Promise<(User & { passwordHash: string | null }) | null> {
  const r = await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
  const row = r.rows[0];
  return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
}

export async function insertUser(tx: Tx, u: User, passwordHash: string | null, at: string): Promise<void> {
  await tx.query(
    'INSERT INTO users (id, email, display_name, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)',
    [u.id, u.email, u.displayName, passwordHash, at],
  );
}

export async function setPasswordHash(tx: Tx, userId: string, hash: string, at: string): Promise<void> {
  await tx.query('UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1', [userId, hash, at]);
}

export async function insertMembership(tx: Tx, orgId: string, userId: string, role: Role, at: string): Promise<void> {
  await tx.query('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)', [orgId, userId, role, at]);
}

export async function deleteMembership(tx: Tx, orgId: string, userId: string): Promise<boolean> {
  const r = await tx.query('DELETE FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
  return r.rowCount > 0;
}

export async function findRole(db: Queryable, orgId: string, userId: string): Promise<Role | null> {
  const r = await db.query<{ role: Role }>('SELECT role FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
  return r.rows[0]?.role ?? null;
}

const FIND_MEMBER = prepared(`SELECT u.*, m.role, o.name AS org_name, o.slug AS org_slug, o.created_at AS org_created_at
     FROM memberships m JOIN users u ON u.id = m.user_id JOIN organizations o ON o.id = m.org_id
     WHERE m.org_id = $1 AND m.user_id = $2`);

/** A person with their organisation and role there, in one read (every authenticated request asks). */
export async function findMember(db: Queryable, orgId: string, userId: string): Promise<{ user: User; org: Organization; role: Role } | null> {
  const r = await db.query<UserRow & { role: Role; org_name: string; org_slug: string; org_created_at: Date }>(
    FIND_MEMBER,
    [orgId, userId],
  );
  const row = r.rows[0];
  if (!row) return null;
  return { user: toUser(row), org: toOrg({ id: orgId, name: row.org_name, slug: row.org_slug, created_at: row.org_created_at }), role: row.role };
}

export async function listMembers(db: Queryable, orgId: string): Promise<Member[]> {
  const r = await db.query<UserRow & { role: Role; joined: Date }>(
    `SELECT u.*, m.role, m.created_at AS joined FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.org_id = $1 ORDER BY m.created_at`,
    [orgId],
  );
  return r.rows.map((row) => ({ ...toUser(row), role: row.role, joinedAt: iso(row.joined) }));
}

export async function insertSession(tx: Tx, s: { idHash: string; userId: string; orgId: string; csrfToken: string; at: string; expiresAt: string }): Promise<void> {
  await tx.query(
    'INSERT INTO sessions (id_hash, user_id, org_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [s.idHash, s.userId, s.orgId, s.csrfToken, s.at, s.expiresAt],
  );
}

export type SessionRow = { userId: string; orgId: string; csrfToken: string; expiresAt: string };

const FIND_SESSION_MEMBER = prepared(`SELECT s.csrf_token, s.expires_at, u.id, u.email, u.display_name, u.password_hash, m.role,
            o.id AS org_id, o.name AS org_name, o.slug AS org_slug, o.created_at AS org_created_at
       FROM sessions s
       JOIN memberships m ON m.org_id = s.org_id AND m.user_id = s.user_id
       JOIN users u ON u.id = s.user_id
       JOIN organizations o ON o.id = s.org_id
      WHERE s.id_hash = $1`);

/**
 * A session with its person, organisation and role, in one read: what every request signed in by
 * a cookie asks. Null when there is no such session or its person is no longer a member.
 */
export async function findSessionMember(
  db: Queryable,
  idHash: string,
): Promise<{ session: SessionRow; member: { user: User; org: Organization; role: Role } } | null> {
  const r = await db.query<UserRow & { csrf_token: string; expires_at: Date; role: Role; org_id: string; org_name: string; org_slug: string; org_created_at: Date }>(
    FIND_SESSION_MEMBER,
    [idHash],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    session: { userId: row.id, orgId: row.org_id, csrfToken: row.csrf_token, expiresAt: iso(row.expires_at) },
    member: { user: toUser(row), org: toOrg({ id: row.org_id, name: row.org_name, slug: row.org_slug, created_at: row.org_created_at }), role: row.role },
  };
}

export async function deleteSession(tx: Tx, idHash: string): Promise<boolean> {
  const r = await tx.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
  return r.rowCount > 0;
}

export async function deleteSessionsOf(tx: Tx, orgId: string, userId: string): Promise<void> {
  await tx.query('DELETE FROM sessions WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
}

export async function insertSignInLink(tx: Tx, l: { tokenHash: string; userId: string; orgId: string; at: string; expiresAt: string }): Promise<void> {
  await tx.query(
    'INSERT INTO sign_in_links (token_hash, user_id, org_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [l.tokenHash, l.userId, l.orgId, l.at, l.expiresAt],
  );
}

/** Marks a live link used and answers whose it was; null when unknown, used or expired. */
export async function consumeSignInLink(tx: Tx, tokenHash: string, at: string): Promise<{ userId: string; orgId: string } | null> {
  const r = await tx.query<{ user_id: string; org_id: string }>(
    `UPDATE sign_in_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
     RETURNING user_id, org_id`,
    [tokenHash, at],
  );
  const row = r.rows[0];
  return row ? { userId: row.user_id, orgId: row.org_id } : null;
}

type TokenRow = Row & {
  id: string; org_id: string; user_id: string; name: string; scopes: Scope[]; secret_hash: string; created_at: Date;
  expires_at: Date | null; revoked_at: Date | null; last_used_at: Date | null; owner_email: string;
};

const toToken = (r: TokenRow): ApiToken => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes,
  createdAt: iso(r.created_at),
  expiresAt: isoOrNull(r.expires_at),
  revokedAt: isoOrNull(r.revoked_at),
  lastUsedAt: isoOrNull(r.last_used_at),
  owner: { id: r.user_id, email: r.owner_email },
});

const TOKEN_SELECT = 'SELECT t.*, u.email AS owner_email FROM api_tokens t JOIN users u ON u.id = t.user_id';

export async function insertToken(tx: Tx, t: { id: string; orgId: string; userId: string; name: string; scopes: Scope[]; hash: string; at: string; expiresAt: string | null }): Promise<void> {
  await tx.query(
    `INSERT INTO api_tokens (id, org_id, user_id, name, scopes, secret_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [t.id, t.orgId, t.userId, t.name, t.scopes, t.hash, t.at, t.expiresAt],
  );
}

export async function findToken(db: Queryable, orgId: string, id: string): Promise<ApiToken | null> {
  const r = await db.query<TokenRow>(`${TOKEN_SELECT} WHERE t.org_id = $1 AND t.id = $2`, [orgId, id]);
  return r.rows[0] ? toToken(r.rows[0]) : null;
}

export async function listTokens(db: Queryable, orgId: string, userId: string | null): Promise<ApiToken[]> {
  const r = await db.query<TokenRow>(
    `${TOKEN_SELECT} WHERE t.org_id = $1 AND ($2::text IS NULL OR t.user_id = $2) ORDER BY t.created_at DESC, t.id`,
    [orgId, userId],
  );
  return r.rows.map(toToken);
}

export async function revokeTokenRow(tx: Tx, orgId: string, id: string, at: string): Promise<boolean> {
  const r = await tx.query('UPDATE api_tokens SET revoked_at = $3 WHERE org_id = $1 AND id = $2 AND revoked_at IS NULL', [orgId, id, at]);
  return r.rowCount > 0;
}

export type TokenAuthRow = {
  id: string; name: string; scopes: Scope[]; secretHash: string;
  expiresAt: string | null; revokedAt: string | null; lastUsedAt: string | null; role: Role | null;
  /** The owner and the organisation, read with the token: the principal needs no second round trip. */
  user: User; org: Organization;
  /** The request's hit on the token's shared rate window; null when the secret did not match or the token is revoked (nothing counted). */
  rate: RateHit | null;
};

/**
 * The token with its owner, the organisation, the owner's current role there (null once they left), and,
 * in the same statement, the request counted on the token's rate window for `rateKey` (the token
 * and the route's rate) when the secret's hash matches and the token is not revoked: one round
 * trip authenticates and rate-limits, on every replica alike.
 */
export async function findTokenForAuth(db: Queryable, id: string, count: { hash: string; rateKey: string; now: string }): Promise<TokenAuthRow | null> {
  const r = await db.query<TokenRow & {
    role: Role | null; hits: number | null; window_start: Date | null; owner_display_name: string; owner_has_password: boolean;
    org_name: string; org_slug: string; org_created_at: Date;
  }>(
    `WITH tok AS (
       SELECT t.*, u.email AS owner_email, u.display_name AS owner_display_name, u.password_hash IS NOT NULL AS owner_has_password, m.role,
              o.name AS org_name, o.slug AS org_slug, o.created_at AS org_created_at
       FROM api_tokens t
       JOIN users u ON u.id = t.user_id
       JOIN organizations o ON o.id = t.org_id
       LEFT JOIN memberships m ON m.org_id = t.org_id AND m.user_id = t.user_id
       WHERE t.id = $1
     ), hit AS (
       ${rateHitSql('$4', 'SELECT $3, $4::timestamptz, 1 FROM tok WHERE tok.secret_hash = $2 AND tok.revoked_at IS NULL')}
     )
     SELECT tok.*, hit.hits, hit.window_start FROM tok LEFT JOIN hit ON true`,
    [id, count.hash, count.rateKey, count.now],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    id: row.id, name: row.name, scopes: row.scopes, secretHash: row.secret_hash,
    expiresAt: isoOrNull(row.expires_at), revokedAt: isoOrNull(row.revoked_at), lastUsedAt: isoOrNull(row.last_used_at), role: row.role,
    user: { id: row.user_id, email: row.owner_email, displayName: row.owner_display_name, hasPassword: row.owner_has_password },
    org: toOrg({ id: row.org_id, name: row.org_name, slug: row.org_slug, created_at: row.org_created_at }),
    rate: row.hits === null || row.window_start === null ? null : { hits: Number(row.hits), windowStart: new Date(row.window_start) },
  };
}

/** Bookkeeping, not a state change of the product: written at most once a minute per token. */
export async function touchToken(tx: Tx, id: string, at: string): Promise<void> {
  await tx.query(
    `UPDATE api_tokens SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
    [id, at],
  );
}

export async function setRole(tx: Tx, orgId: string, userId: string, role: Role): Promise<void> {
  await tx.query('UPDATE memberships SET role = $3 WHERE org_id = $1 AND user_id = $2', [orgId, userId, role]);
}

export async function setDisplayName(tx: Tx, userId: string, name: string, at: string): Promise<void> {
  await tx.query('UPDATE users SET display_name = $2, updated_at = $3 WHERE id = $1', [userId, name, at]);
}

export async function countOwners(db: Queryable, orgId: string): Promise<number> {
  const r = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memberships WHERE org_id = $1 AND role = 'owner'", [orgId]);
  return Number(r.rows[0]?.n ?? 0);
}

/** Ends a person's unused links into one organisation (a newer link supersedes them; leaving ends them). */
export async function expireSignInLinks(tx: Tx, orgId: string, userId: string, at: string): Promise<number> {
  const r = await tx.query(
    'UPDATE sign_in_links SET expires_at = $3 WHERE org_id = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > $3',
    [orgId, userId, at],
  );
  return r.rowCount;
}

/** Revokes a person's live tokens in one organisation; answers which. */
export async function revokeTokensOf(tx: Tx, orgId: string, userId: string, at: string): Promise<Array<{ id: string; name: string }>> {
  const r = await tx.query<{ id: string; name: string }>(
    'UPDATE api_tokens SET revoked_at = $3 WHERE org_id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id, name',
    [orgId, userId, at],
  );
  return r.rows.map((x) => ({ id: x.id, name: x.name }));
}

export async function countSessionsOf(db: Queryable, orgId: string, userId: string): Promise<number> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
  return Number(r.rows[0]?.n ?? 0);
}

export type MemberRow = Member & { signedIn: boolean; linkExpiresAt: string | null };

/**
 * The members with what the Members page says about each: whether they have ever signed in (a
 * password, or a used link), and when their newest unused link into this organisation expires.
 */
export async function listMemberRows(db: Queryable, orgId: string, userId?: string): Promise<MemberRow[]> {
  const r = await db.query<UserRow & { role: Role; joined: Date; signed_in: boolean; link_expires: Date | null }>(
    `SELECT u.*, m.role, m.created_at AS joined,
       (u.password_hash IS NOT NULL OR EXISTS (SELECT 1 FROM sign_in_links l WHERE l.user_id = u.id AND l.used_at IS NOT NULL)) AS signed_in,
       (SELECT max(l.expires_at) FROM sign_in_links l WHERE l.user_id = u.id AND l.org_id = m.org_id AND l.used_at IS NULL) AS link_expires
     FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.org_id = $1 AND ($2::text IS NULL OR m.user_id = $2)
     ORDER BY m.created_at, u.id`,
    [orgId, userId ?? null],
  );
  return r.rows.map((row) => ({ ...toUser(row), role: row.role, joinedAt: iso(row.joined), signedIn: row.signed_in, linkExpiresAt: isoOrNull(row.link_expires) }));
}

/** A token's name and who owns it, for lines such as a report's "Registered by" (revoked tokens too). */
export async function findTokenName(db: Queryable, orgId: string, id: string): Promise<{ id: string; name: string; userId: string } | null> {
  const r = await db.query<{ id: string; name: string; user_id: string }>('SELECT id, name, user_id FROM api_tokens WHERE org_id = $1 AND id = $2', [orgId, id]);
  const x = r.rows[0];
  return x ? { id: x.id, name: x.name, userId: x.user_id } : null;
}
