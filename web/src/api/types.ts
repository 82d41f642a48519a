// Wire types of the changeledger HTTP API (JSON, camelCase). Kept in one file so a
// contract change shows up as a single diff on the UI side.

export type Role = 'owner' | 'admin' | 'member';

export type Session = {
  user: { id: string; email: string; displayName: string; hasPassword?: boolean };
  organization: { id: string; name: string; slug: string };
  role: Role;
  csrfToken: string;
};

export type ActorKind = 'user' | 'token' | 'service' | 'automation' | 'system';

export type EventSource = 'ui' | 'api' | 'cli' | 'webhook' | 'scheduler';

export type AuditEvent = {
  seq: number;
  occurredAt: string;
  actor: {
    kind: ActorKind;
    id: string | null;
    name: string;
    automation?: string | null;
    trigger?: string | null;
  };
  action: string;
  target: { type: string; id: string };
  correlationId: string | null;
  requestId: string | null;
  source: EventSource;
  data: Record<string, unknown>;
  schemaVersion: number;
  prevHash: string;
  hash: string;
};

export type AuditPage = { items: AuditEvent[]; nextCursor: string | null };

export type ChainVerification = {
  ok: boolean;
  checked: number;
  head: { seq: number; hash: string } | null;
  firstBrokenSeq: number | null;
  reason: string | null;
};

export const tokenScopes = [
  'changes:read',
  'changes:write',
  'catalogue:read',
  'flags:read',
  'flags:write',
  'audit:read',
] as const;

export type TokenScope = (typeof tokenScopes)[number];

export type Token = {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  owner: { id: string; email: string };
};

export type CreatedToken = { token: Token; secret: string };
