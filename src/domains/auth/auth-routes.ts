import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { unauthorized } from '../../platform/errors.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { SESSION_COOKIE } from '../../platform/http/guards.js';
import { errors } from '../../platform/http/schemas.js';
import type { AuthService, NewSession } from './auth-service.js';
import type { SessionPrincipal } from './auth-types.js';
import * as S from './auth-schemas.js';

export type AuthRouteDeps = { auth: AuthService; clock: Clock; secureCookies: boolean };

function sessionBody(p: SessionPrincipal) {
  return { user: p.user, organization: { id: p.org.id, name: p.org.name, slug: p.org.slug }, role: p.role, csrfToken: p.csrfToken, expiresAt: p.expiresAt };
}

function setSessionCookie(reply: FastifyReply, s: NewSession, secure: boolean) {
  void reply.setCookie(SESSION_COOKIE, s.cookieValue, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: new Date(s.principal.expiresAt) });
}

function sessionOf(p: unknown): SessionPrincipal {
  const s = p as SessionPrincipal | null;
  if (!s || s.kind !== 'session') throw unauthorized();
  return s;
}

export const authRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, { auth, secureCookies }) => {
  const tags = ['session'];
  app.post('/api/session', {
    config: { access: 'public' },
    schema: { tags, summary: 'Sign in with e-mail and password', body: S.SignInInput, response: { 200: S.SessionBody, ...errors(400, 401, 429) } },
  }, async (req, reply) => {
    const ctx = requestAuditContext(req);
    const s = await auth.signIn({ source: ctx.source, requestId: ctx.requestId, correlationId: ctx.correlationId, address: req.ip }, req.body.email, req.body.password);
    setSessionCookie(reply, s, secureCookies);
    return sessionBody(s.principal);
  });

  app.post('/api/session/link', {
    config: { access: 'public' },
    schema: { tags, summary: 'Sign in with a one-time link', body: S.LinkInput, response: { 200: S.SessionBody, ...errors(400, 401, 429) } },
  }, async (req, reply) => {
    const ctx = requestAuditContext(req);
    const s = await auth.signInWithLink({ source: ctx.source, requestId: ctx.requestId, correlationId: ctx.correlationId, address: req.ip }, req.body.token);
    setSessionCookie(reply, s, secureCookies);
    return sessionBody(s.principal);
  });

  app.get('/api/session', {
    config: { access: 'session' },
    schema: { tags, summary: 'Who is signed in', response: { 200: S.SessionBody, ...errors(401, 403) } },
  }, async (req) => sessionBody(sessionOf(req.principal)));

  app.delete('/api/session', {
    config: { access: 'session' },
    schema: { tags, summary: 'Sign out', response: { 204: { type: 'null' }, ...errors(401, 403) } },
  }, async (req, reply) => {
    await auth.signOut(requestAuditContext(req), sessionOf(req.principal));
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.status(204).send(null);
  });

  app.put('/api/me/password', {
    config: { access: 'session' },
    schema: { tags, summary: 'Set or change your password', body: S.PasswordInput, response: { 204: { type: 'null' }, ...errors(400, 401, 403, 429) } },
  }, async (req, reply) => {
    await auth.setPassword(requestAuditContext(req), sessionOf(req.principal), req.body.currentPassword, req.body.newPassword, req.ip);
    return reply.status(204).send(null);
  });
};

export const tokenRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, { auth, clock }) => {
  const tags = ['tokens'];
  app.get('/api/tokens', {
    config: { access: 'session' },
    schema: { tags, summary: 'API tokens (yours; all of the organisation for owners and admins)', response: { 200: S.TokenList, ...errors(401, 403) } },
  }, async (req) => ({ items: await auth.listTokens(sessionOf(req.principal)) }));

  app.post('/api/tokens', {
    config: { access: 'session' },
    schema: { tags, summary: 'Create an API token; the answer holds the secret once', body: S.TokenInput, response: { 201: S.TokenCreated, ...errors(400, 401, 403) } },
  }, async (req, reply) => {
    const p = sessionOf(req.principal);
    const days = req.body.expiresInDays;
    const expiresAt = days ? new Date(clock.now().getTime() + days * 86_400_000) : null;
    const created = await auth.createToken(requestAuditContext(req), p, { name: req.body.name, scopes: req.body.scopes, expiresAt });
    return reply.status(201).send(created);
  });

  app.delete('/api/tokens/:id', {
    config: { access: 'session' },
    schema: { tags, summary: 'Revoke an API token', params: S.TokenIdParams, response: { 200: S.TokenRevoked, ...errors(401, 403, 404, 409) } },
  }, async (req) => ({ token: await auth.revokeToken(requestAuditContext(req), sessionOf(req.principal), req.params.id) }));
};
