import { Type } from 'typebox';
import { IsoTime } from '../../platform/http/schemas.js';
import { UserBody } from './auth-schemas.js';
import { MAX_DISPLAY_NAME } from './member-rules.js';
import { ROLES } from './scopes.js';

const Role = Type.Enum(ROLES, { description: `One of ${ROLES.join(', ')}` });

export const OrgParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const MemberParams = Type.Object({ id: Type.String({ maxLength: 100 }), userId: Type.String({ maxLength: 100 }) });

export const MemberBody = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.String({ description: 'The display name' }),
  role: Role,
  joinedAt: IsoTime,
  status: Type.Union([Type.Literal('active'), Type.Literal('invited'), Type.Literal('link_expired')], {
    description: 'active: has signed in; invited: an unused sign-in link is live; link_expired: no live link (send a new one)',
  }),
  linkExpiresAt: Type.Union([IsoTime, Type.Null()], { description: 'When the live sign-in link expires' }),
});
export const MemberList = Type.Object({ members: Type.Array(MemberBody) });
export const MemberAnswer = Type.Object({ member: MemberBody });

export const InviteInput = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320, title: 'E-mail' }),
    role: Role,
    name: Type.Optional(Type.String({ maxLength: MAX_DISPLAY_NAME, title: 'Name' })),
  },
  { additionalProperties: false },
);
export const RoleInput = Type.Object({ role: Role }, { additionalProperties: false });

export const LinkSent = Type.Object({
  member: MemberBody,
  delivery: Type.Union([Type.Literal('mail'), Type.Literal('shown')], { description: 'mail: sent to the person (SMTP is set); shown: signInUrl below, this once' }),
  expiresAt: IsoTime,
  signInUrl: Type.Optional(Type.String({ description: 'Only when delivery is shown: the one-time link, in no other answer and stored only as SHA-256' })),
});

export const ProfileInput = Type.Object(
  { displayName: Type.String({ minLength: 1, maxLength: MAX_DISPLAY_NAME, title: 'Name' }) },
  { additionalProperties: false },
);
export const ProfileAnswer = Type.Object({ user: UserBody });
