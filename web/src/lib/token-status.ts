import type { Token } from '../api/types';

export type TokenStatus = 'active' | 'expired' | 'revoked';

// Expiry is not an event on the server, so "expired" is derived here from expiresAt.
export function tokenStatus(token: Token, now: number): TokenStatus {
  if (token.revokedAt !== null) return 'revoked';
  if (token.expiresAt !== null && Date.parse(token.expiresAt) <= now) return 'expired';
  return 'active';
}
