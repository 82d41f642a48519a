import type { Role, Scope } from './scopes.js';

export type Organization = { id: string; name: string; slug: string; createdAt: string };
export type User = { id: string; email: string; displayName: string; hasPassword: boolean };
export type Member = User & { role: Role; joinedAt: string };

type PrincipalBase = { user: User; org: Organization; role: Role };
export type SessionPrincipal = PrincipalBase & { kind: 'session'; sessionHash: string; csrfToken: string; expiresAt: string };
export type TokenPrincipal = PrincipalBase & { kind: 'token'; tokenId: string; tokenName: string; scopes: Scope[] };
/** Whoever is behind a request: a signed-in person, or a token acting as its owner. */
export type Principal = SessionPrincipal | TokenPrincipal;

export type ApiToken = {
  id: string;
  name: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  owner: { id: string; email: string };
};
