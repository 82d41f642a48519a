import { Type } from 'typebox';
import { IsoTime } from '../../platform/http/schemas.js';
import { ROLES, SCOPES } from './scopes.js';

export const UserBody = Type.Object({ id: Type.String(), email: Type.String(), displayName: Type.String(), hasPassword: Type.Boolean() });
export const OrganizationBody = Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String() });

export const SessionBody = Type.Object({
  user: UserBody,
  organization: OrganizationBody,
  role: Type.Enum(ROLES),
  csrfToken: Type.String({ description: 'Send as header x-csrf-token on every POST, PUT, PATCH and DELETE' }),
  expiresAt: IsoTime,
});

export const SignInInput = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320, title: 'E-mail' }), password: Type.String({ minLength: 1, maxLength: 1024, title: 'Password' }) },
  { additionalProperties: false },
);
export const LinkInput = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
export const PasswordInput = Type.Object(
  { currentPassword: Type.Optional(Type.String({ maxLength: 1024, title: 'Current password' })), newPassword: Type.String({ minLength: 1, maxLength: 1024, title: 'New password' }) },
  { additionalProperties: false },
);

export const ScopeSchema = Type.Enum(SCOPES, { description: `One of ${SCOPES.join(', ')}` });

export const TokenBody = Type.Object({
  id: Type.String({ description: 'The 8-character id inside the token: clt_<id>_<secret>' }),
  name: Type.String(),
  scopes: Type.Array(ScopeSchema),
  createdAt: IsoTime,
  expiresAt: Type.Union([IsoTime, Type.Null()]),
  revokedAt: Type.Union([IsoTime, Type.Null()]),
  lastUsedAt: Type.Union([IsoTime, Type.Null()], { description: 'Written at most once a minute' }),
  owner: Type.Object({ id: Type.String(), email: Type.String() }),
});

export const TokenInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, title: 'Name' }),
    scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: SCOPES.length, title: 'Scopes' }),
    expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, title: 'Expires (days)' })),
  },
  { additionalProperties: false },
);

export const TokenCreated = Type.Object({
  token: TokenBody,
  secret: Type.String({ description: 'The token itself, shown this once; only its SHA-256 is stored' }),
});
export const TokenList = Type.Object({ items: Type.Array(TokenBody) });
export const TokenIdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9]{8}$' }) });
export const TokenRevoked = Type.Object({ token: TokenBody });
