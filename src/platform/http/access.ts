import type { Principal, Scope } from '../../domains/auth/index.js';
import { notFound, unauthorized } from '../errors.js';
import type { AuditContext } from '../../domains/ledger/index.js';

/**
 * Who may call a route: anyone, only a signed-in person (tokens are refused with 403), a session
 * or a token holding the scope, an application's SDK key (the route checks it itself), or a change
 * source's sender (GitHub, a cluster's audit webhook, EventBridge …) proving itself with the
 * connection's secret the way that sender can: the route checks it, the guard still limits the
 * rate per connection and the body size. `token`: any API token, whatever its scopes; the route
 * decides from them what the caller may do (the MCP endpoint shows each token only its tools).
 */
export type Access = 'public' | 'session' | 'sdk' | 'source' | 'token' | { scope: Scope };
export type Listener = 'main' | 'pipeline';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** A route that takes more than the pipeline listener's 64 KiB (alert intake: 1 MiB). */
    pipelineBodyLimit?: number;
    /**
     * Requests a minute per token on the pipeline listener when a route needs another rate than the
     * change API's 60 (alert intake: Alertmanager posts one request per group and flush).
     */
    tokensPerMinute?: number;
  }
  interface FastifyRequest {
    principal: Principal | null;
    listener: Listener;
  }
}

const CORRELATION = /^[A-Za-z0-9._:/-]{1,128}$/;
/**
 * Our command-line clients (flagctl, `changeledger changes`) send `cli` in this header, so a token's
 * writes through them are recorded with source `cli`. It labels the channel only: whoever holds the
 * token could send it from curl, and it changes nothing of who the actor is or what they may do.
 */
export const CLIENT_HEADER = 'x-changeledger-client';

/** The audit circumstances of a request: its principal as actor, its id, its correlation id. */
export function requestAuditContext(req: {
  principal: Principal | null;
  id: string;
  headers: Record<string, string | string[] | undefined>;
}): AuditContext {
  const p = req.principal;
  const header = req.headers['x-correlation-id'];
  const correlationId = typeof header === 'string' && CORRELATION.test(header) ? header : null;
  if (!p) return { actor: { kind: 'system', id: null, name: 'anonymous' }, source: 'ui', requestId: req.id, correlationId };
  if (p.kind === 'token') {
    return {
      actor: { kind: 'token', id: p.tokenId, name: `token "${p.tokenName}" of ${p.user.email}` },
      source: req.headers[CLIENT_HEADER] === 'cli' ? 'cli' : 'api',
      requestId: req.id,
      correlationId,
    };
  }
  return { actor: { kind: 'user', id: p.user.id, name: p.user.email }, source: 'ui', requestId: req.id, correlationId };
}

/** The caller, when the organisation in the path (id or slug) is theirs; any other is not found. */
export function ownOrganization(req: { principal: Principal | null }, idOrSlug: string): Principal {
  const p = req.principal;
  if (!p) throw unauthorized();
  if (p.org.id !== idOrSlug && p.org.slug !== idOrSlug) throw notFound(`no organisation ${idOrSlug}`);
  return p;
}
