export const SCOPES = ['changes:read', 'changes:write', 'catalogue:read', 'catalogue:write', 'flags:read', 'flags:write', 'audit:read', 'alerts:write', 'alerts:read', 'logs:write'] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

export function canManageOthers(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}
