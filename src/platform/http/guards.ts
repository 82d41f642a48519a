import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../../domains/auth/index.js';
import type { Clock } from '../clock.js';
import { AppError, forbidden, unauthorized } from '../errors.js';
import type { Access } from './access.js';
import { RateLimiter } from './rate-limit.js';

export const SESSION_COOKIE = 'cl_session';
export const TOKENS_PER_MINUTE = 60;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Routes say who may call them; unlabelled API routes need a session, the UI's files are public. */
function accessOf(req: FastifyRequest): Access {
  const declared = req.routeOptions.config.access;
  if (declared) return declared;
  const url = req.routeOptions.url ?? '';
  return url.startsWith('/api/') && !url.startsWith('/api/docs') ? 'session' : 'public';
}

function checkScope(req: FastifyRequest, access: Access): void {
  const p = req.principal;
  if (!p || access === 'public' || access === 'sdk') return;
  if (access === 'session') {
    if (p.kind === 'token') throw forbidden('this route needs a signed-in person; API tokens cannot use it');
    return;
  }
  if (p.kind === 'token' && !p.scopes.includes(access.scope)) throw forbidden(`this token lacks the scope ${access.scope}`);
}

/**
 * The main listener: browser sessions only. A bearer token is turned away without being looked
 * up, so a leaked token cannot even be probed here.
 */
export function installMainGuard(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('listener', 'main');
  app.addHook('onRequest', async (req) => {
    req.listener = 'main';
    const authz = req.headers.authorization;
    if (typeof authz === 'string' && /^bearer\s+clt_/i.test(authz)) {
      throw unauthorized('API tokens are only accepted on the pipeline listener');
    }
    if (req.is404) return;
    const cookie = req.cookies[SESSION_COOKIE];
    req.principal = cookie ? await auth.authenticateSession(cookie) : null;
    const access = accessOf(req);
    if (access === 'public' || access === 'sdk') return;
    if (!req.principal) throw unauthorized('sign in first');
    if (UNSAFE.has(req.method) && req.principal.kind === 'session') {
      const sent = req.headers['x-csrf-token'];
      if (sent !== req.principal.csrfToken) throw forbidden('missing or wrong CSRF token: send the header x-csrf-token from GET /api/session');
    }
    checkScope(req, access);
  });
}

/**
 * The pipeline listener refuses in a fixed order, before any body is read: unknown path 404,
 * no or unknown token 401, over the rate 429, body over 64 KiB 413; then session-only routes
 * and missing scopes 403.
 */
export function installPipelineGuard(app: FastifyInstance, auth: AuthService, clock: Clock, bodyLimit: number): void {
  const limiter = new RateLimiter(TOKENS_PER_MINUTE);
  app.decorateRequest('principal', null);
  app.decorateRequest('listener', 'pipeline');
  app.addHook('onRequest', async (req) => {
    req.listener = 'pipeline';
    if (req.is404) return;
    const access = accessOf(req);
    if (access === 'public' || access === 'sdk') return;
    const authz = req.headers.authorization;
    const m = typeof authz === 'string' ? /^bearer\s+(\S+)$/i.exec(authz) : null;
    if (!m) throw unauthorized('send an API token: Authorization: Bearer clt_…');
    req.principal = await auth.authenticateToken(m[1]!);
    if (!req.principal) throw unauthorized('unknown, revoked or expired API token');
    const wait = limiter.hit((req.principal as { tokenId: string }).tokenId, clock.now().getTime());
    if (wait > 0) throw new AppError(429, `more than ${TOKENS_PER_MINUTE} requests a minute for this token; retry in ${wait} s`, undefined, { retryAfter: wait });
    // A declared length over the cap is refused here, ahead of the scope check; a chunked body
    // is cut off by Fastify's bodyLimit while it is read.
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > bodyLimit) throw new AppError(413, `request body is over ${bodyLimit / 1024} KiB`);
    checkScope(req, access);
  });
}
