import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../../domains/auth/index.js';
import { hasRole, ruleOf, type RouteRule } from '../../route-rules.js';
import type { Clock } from '../clock.js';
import type { Queryable } from '../db/database.js';
import { AppError, forbidden, notFound, unauthorized } from '../errors.js';
import type { Access, Listener } from './access.js';
import { SharedRateWindows, TOKENS_PER_MINUTE } from './rate-limit.js';

export { TOKENS_PER_MINUTE };

export const SESSION_COOKIE = 'cl_session';

/** 65536 → "64 KiB", 1048576 → "1 MiB": how a body limit is stated in a refusal. */
export function sizeWords(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A route as Fastify registered it, with the access its file declares (if any). */
export type RegisteredRoute = { method: string; url: string; declared: Access | undefined };
const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered on the app after its guard was installed (each method once). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return registered.get(app) ?? [];
}

function recordRoutes(app: FastifyInstance): void {
  const list: RegisteredRoute[] = [];
  registered.set(app, list);
  app.addHook('onRoute', (opts) => {
    for (const method of [opts.method].flat()) list.push({ method, url: opts.url, declared: opts.config?.access });
  });
}

/**
 * The route's rule from the one table. An API route missing from it fails the route-rules test;
 * until then it is served as a person's route on the main listener and unknown to the pipeline.
 */
function ruleFor(req: FastifyRequest): RouteRule {
  const found = ruleOf(req.method, req.routeOptions.url ?? '');
  return found ?? { method: 'GET', path: '', access: 'session', role: 'member', listeners: ['main'] };
}

function notServedHere(req: FastifyRequest, listener: Listener): AppError {
  const path = req.url.split('?')[0] ?? '';
  // The same words as a path that does not exist at all: a listener does not reveal what it does not serve.
  return notFound(listener === 'pipeline' ? `${req.method} ${path} is not a pipeline route` : `no route ${req.method} ${path}`);
}

function checkAccess(req: FastifyRequest, rule: RouteRule): void {
  const p = req.principal;
  const access = rule.access;
  if (!p || access === 'public' || access === 'sdk' || access === 'source') return;
  if (access === 'session') {
    if (p.kind === 'token') throw forbidden('this route needs a signed-in person; API tokens cannot use it');
  } else if (access === 'token') {
    // Any token: the route itself decides from its scopes.
  } else if (p.kind === 'token' && !p.scopes.includes(access.scope)) {
    throw forbidden(`this token lacks the scope ${access.scope}`);
  }
  if (!hasRole(p.role, rule.role)) {
    throw forbidden(`only ${rule.role === 'owner' ? 'owners' : 'owners and admins'} may call ${req.method} ${req.routeOptions.url ?? ''}`);
  }
}

/**
 * A change source's intake: no principal (the route checks the sender's signature or secret), but
 * the rate per connection (the path's source id; PagerDuty's shared path by client address) and
 * the declared body size are refused here, before any body is read, as for tokens.
 */
async function checkSourceLimits(req: FastifyRequest, windows: SharedRateWindows, clock: Clock, bodyLimit: number): Promise<void> {
  const perMinute = req.routeOptions.config.tokensPerMinute ?? TOKENS_PER_MINUTE;
  const id = (req.params as Record<string, string | undefined> | undefined)?.sourceId;
  const wait = await windows.hit(id ? `source:${id}:${perMinute}` : `source-ip:${req.ip}:${perMinute}`, perMinute, clock.now());
  if (wait > 0) throw new AppError(429, `more than ${perMinute} requests a minute for this change source; retry in ${wait} s`, undefined, { retryAfter: wait });
  const length = Number(req.headers['content-length'] ?? 0);
  const limit = req.routeOptions.config.pipelineBodyLimit ?? bodyLimit;
  if (length > limit) throw new AppError(413, `request body is over ${sizeWords(limit)}`);
}

/**
 * The main listener: browser sessions only. A bearer token is turned away without being looked
 * up, so a leaked token cannot even be probed here.
 */
export function installMainGuard(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('listener', 'main');
  recordRoutes(app);
  app.addHook('onRequest', async (req) => {
    req.listener = 'main';
    const authz = req.headers.authorization;
    if (typeof authz === 'string' && /^bearer\s+clt_/i.test(authz)) {
      throw unauthorized('API tokens are only accepted on the pipeline listener');
    }
    if (req.is404) return;
    const rule = ruleFor(req);
    if (!rule.listeners.includes('main')) throw notServedHere(req, 'main');
    const cookie = req.cookies[SESSION_COOKIE];
    req.principal = cookie ? await auth.authenticateSession(cookie) : null;
    if (rule.access === 'public' || rule.access === 'sdk') return;
    if (!req.principal) throw unauthorized('sign in first');
    if (UNSAFE.has(req.method) && req.principal.kind === 'session') {
      const sent = req.headers['x-csrf-token'];
      if (sent !== req.principal.csrfToken) throw forbidden('missing or wrong CSRF token: send the header x-csrf-token from GET /api/session');
    }
    checkAccess(req, rule);
  });
}

/**
 * The pipeline listener refuses in a fixed order, before any body is read: a path it does not
 * serve 404 (session-only routes included), no or unknown token 401, over the rate 429, body over
 * 64 KiB 413; then the change decisions people make (403), a missing scope 403, too low a role 403.
 */
export function installPipelineGuard(app: FastifyInstance, auth: AuthService, clock: Clock, bodyLimit: number, db: Queryable): void {
  // Rates are counted in PostgreSQL, so they hold across replicas; one window per rate, so a
  // token's alert intake does not eat its change-API minute, nor the reverse.
  const windows = new SharedRateWindows(db);
  app.decorateRequest('principal', null);
  app.decorateRequest('listener', 'pipeline');
  recordRoutes(app);
  app.addHook('onRequest', async (req) => {
    req.listener = 'pipeline';
    if (req.is404) return;
    const rule = ruleFor(req);
    if (!rule.listeners.includes('pipeline')) throw notServedHere(req, 'pipeline');
    if (rule.access === 'public' || rule.access === 'sdk') return;
    if (rule.access === 'source') {
      await checkSourceLimits(req, windows, clock, bodyLimit);
      return;
    }
    const authz = req.headers.authorization;
    const m = typeof authz === 'string' ? /^bearer\s+(\S+)$/i.exec(authz) : null;
    if (!m) throw unauthorized('send an API token: Authorization: Bearer clt_…');
    // One statement finds the token and counts the request; over the rate it answers 429 itself.
    req.principal = await auth.authenticateToken(m[1]!, req.routeOptions.config.tokensPerMinute ?? TOKENS_PER_MINUTE);
    if (!req.principal) throw unauthorized('unknown, revoked or expired API token');
    // A declared length over the cap is refused here, ahead of the scope check; a chunked body
    // is cut off by Fastify's bodyLimit while it is read.
    const length = Number(req.headers['content-length'] ?? 0);
    const limit = req.routeOptions.config.pipelineBodyLimit ?? bodyLimit;
    if (length > limit) throw new AppError(413, `request body is over ${sizeWords(limit)}`);
    checkAccess(req, rule);
  });
}
