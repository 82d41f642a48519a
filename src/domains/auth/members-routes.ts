import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { unauthorized } from '../../platform/errors.js';
import { ownOrganization, requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import type { MembersService } from './members-service.js';
import * as S from './members-schemas.js';

export type MembersRouteDeps = { members: MembersService };

/** Organisation → Members (owners and admins, people only) and your own display name. */
export const membersRoutes: FastifyPluginAsyncTypebox<MembersRouteDeps> = async (app, { members }) => {
  const tags = ['accounts'];
  const session = { access: 'session' as const };

  app.get('/api/organizations/:id/members', {
    config: session,
    schema: { tags, summary: 'The members of the organisation, with whether each has signed in (owners and admins)', params: S.OrgParams, response: { 200: S.MemberList, ...errors(401, 403, 404) } },
  }, async (req) => ({ members: await members.list(ownOrganization(req, req.params.id)) }));

  app.post('/api/organizations/:id/members', {
    config: session,
    schema: {
      tags, summary: 'Invite a person by e-mail with a role: a one-time sign-in link (24 hours), mailed when SMTP is set, else in this answer once; audited',
      params: S.OrgParams, body: S.InviteInput, response: { 201: S.LinkSent, ...errors(400, 401, 403, 404, 409) },
    },
  }, async (req, reply) => reply.status(201).send(await members.invite(requestAuditContext(req), ownOrganization(req, req.params.id), req.body)));

  app.post('/api/organizations/:id/members/:userId/sign-in-link', {
    config: session,
    schema: {
      tags, summary: 'A new one-time sign-in link for a member who has not signed in yet; earlier unused links stop working; audited',
      params: S.MemberParams, response: { 201: S.LinkSent, ...errors(401, 403, 404, 409) },
    },
  }, async (req, reply) => reply.status(201).send(await members.newLink(requestAuditContext(req), ownOrganization(req, req.params.id), req.params.userId)));

  app.patch('/api/organizations/:id/members/:userId', {
    config: session,
    schema: {
      tags, summary: 'Change a member’s role (admins cannot touch owners nor make one; the last owner keeps the role); audited',
      params: S.MemberParams, body: S.RoleInput, response: { 200: S.MemberAnswer, ...errors(400, 401, 403, 404, 409) },
    },
  }, async (req) => ({ member: await members.changeRole(requestAuditContext(req), ownOrganization(req, req.params.id), req.params.userId, req.body.role) }));

  app.delete('/api/organizations/:id/members/:userId', {
    config: session,
    schema: {
      tags, summary: 'Remove a member: their sessions end, their tokens are revoked, their unused links expire (never the last owner); audited',
      params: S.MemberParams, response: { 204: { type: 'null' }, ...errors(401, 403, 404, 409) },
    },
  }, async (req, reply) => {
    await members.remove(requestAuditContext(req), ownOrganization(req, req.params.id), req.params.userId);
    return reply.status(204).send(null);
  });

  app.patch('/api/me', {
    config: session,
    schema: { tags: ['session'], summary: 'Change your display name (every page and e-mail names you by it); audited', body: S.ProfileInput, response: { 200: S.ProfileAnswer, ...errors(400, 401, 403) } },
  }, async (req) => {
    const p = req.principal;
    if (!p) throw unauthorized();
    return { user: await members.setDisplayName(requestAuditContext(req), p, req.body.displayName) };
  });
};
