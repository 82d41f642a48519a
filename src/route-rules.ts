import type { Role } from './domains/auth/index.js';
import type { Access, Listener } from './platform/http/access.js';

/**
 * Who may call each route, in one list: the listeners that serve it (any other answers 404), who
 * may call it (access), and the lowest role of the person behind the session or token. The
 * guards enforce it, a test checks that every route Fastify registers has exactly one entry, and
 * docs/api.md's route table is rendered from it.
 */
export type RouteRule = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify's form: `/api/tokens/:id`. */
  path: string;
  access: Access;
  role: Role;
  listeners: readonly Listener[];
};

const BOTH = ['main', 'pipeline'] as const;
const MAIN = ['main'] as const;
const PIPELINE = ['pipeline'] as const;

type Method = RouteRule['method'];
const rule = (method: Method, path: string, access: Access, listeners: readonly Listener[], role: Role = 'member'): RouteRule => ({ method, path, access, role, listeners });
/** A person, signed in, on the main listener only: the pipeline listener does not know the route. */
const person = (method: Method, path: string, role: Role = 'member') => rule(method, path, 'session', MAIN, role);
/** A person, or a token holding the scope, on both listeners. */
const scoped = (method: Method, path: string, scope: Extract<Access, { scope: string }>['scope']) => rule(method, path, { scope }, BOTH);

export const ROUTE_RULES: readonly RouteRule[] = [
  rule('GET', '/healthz', 'public', BOTH),
  rule('GET', '/readyz', 'public', BOTH),
  rule('GET', '/metrics', 'public', MAIN),
  rule('GET', '/api/openapi.json', 'public', MAIN),

  // Accounts, sessions and tokens: people only.
  rule('POST', '/api/session', 'public', MAIN),
  rule('POST', '/api/session/link', 'public', MAIN),
  person('GET', '/api/session'),
  person('DELETE', '/api/session'),
  person('GET', '/api/pipeline-listener'),
  person('PUT', '/api/me/password'),
  person('PATCH', '/api/me'),
  person('GET', '/api/tokens'),
  person('POST', '/api/tokens', 'admin'),
  person('DELETE', '/api/tokens/:id'),

  scoped('GET', '/api/audit', 'audit:read'),
  scoped('GET', '/api/audit/export', 'audit:read'),
  scoped('GET', '/api/audit/verify', 'audit:read'),
  rule('GET', '/api/audit/checkpoint-key', 'public', BOTH),
  scoped('GET', '/api/audit/checkpoints', 'audit:read'),
  rule('POST', '/api/audit/checkpoints', { scope: 'audit:read' }, BOTH, 'admin'),
  scoped('GET', '/api/audit/settings-captures', 'audit:read'),
  scoped('GET', '/api/audit/settings-captures/:seq', 'audit:read'),

  scoped('GET', '/api/environments', 'flags:read'),
  scoped('POST', '/api/environments', 'flags:write'),
  person('PUT', '/api/environments/:key', 'admin'),
  scoped('GET', '/api/flags', 'flags:read'),
  scoped('POST', '/api/flags', 'flags:write'),
  scoped('GET', '/api/flags/audit', 'flags:read'),
  scoped('POST', '/api/flags/bulk', 'flags:write'),
  scoped('GET', '/api/flags/:key', 'flags:read'),
  scoped('PUT', '/api/flags/:key', 'flags:write'),
  scoped('GET', '/api/flags/:key/history', 'flags:read'),
  scoped('PUT', '/api/flags/:key/environments/:env', 'flags:write'),
  scoped('GET', '/api/flags/requests', 'flags:read'),
  person('POST', '/api/flags/requests/:id/approve'),
  person('POST', '/api/flags/requests/:id/reject'),
  person('GET', '/api/settings/flags'),
  person('PUT', '/api/settings/flags', 'admin'),
  person('GET', '/api/sdk-keys', 'admin'),
  person('POST', '/api/sdk-keys', 'admin'),
  person('DELETE', '/api/sdk-keys/:id', 'admin'),
  rule('POST', '/ofrep/v1/evaluate/flags/:key', 'sdk', BOTH),
  rule('POST', '/ofrep/v1/evaluate/flags', 'sdk', BOTH),
  rule('GET', '/ofrep/v1/configuration', 'sdk', BOTH),

  // MCP (Streamable HTTP, stateless): a token's scopes decide which tools it sees.
  rule('POST', '/mcp', 'token', PIPELINE),
  rule('GET', '/mcp', 'public', PIPELINE),
  rule('DELETE', '/mcp', 'public', PIPELINE),

  scoped('POST', '/api/incidents/hooks/:source', 'flags:read'),
  scoped('GET', '/api/flags/recent', 'flags:read'),
  person('GET', '/api/settings/incidents'),
  person('PUT', '/api/settings/incidents', 'admin'),

  scoped('POST', '/api/catalog/imports', 'catalogue:write'),
  scoped('GET', '/api/catalog/inventory', 'catalogue:read'),
  scoped('POST', '/api/catalog/inventory', 'catalogue:read'),
  scoped('PUT', '/api/catalog/inventory', 'catalogue:read'),
  scoped('GET', '/api/catalog/inventory/:key', 'catalogue:read'),
  scoped('GET', '/api/catalog/routes', 'catalogue:read'),
  rule('GET', '/api/catalog/format.schema.json', 'public', BOTH),
  scoped('POST', '/api/catalog/match', 'catalogue:read'),
  person('GET', '/api/settings/catalogue'),
  person('PUT', '/api/settings/catalogue', 'admin'),
  scoped('GET', '/api/organizations/:id/component-aliases', 'catalogue:read'),
  person('PUT', '/api/organizations/:id/component-aliases/:alias', 'admin'),
  person('DELETE', '/api/organizations/:id/component-aliases/:alias', 'admin'),
  scoped('GET', '/api/organizations/:id/manual-services', 'catalogue:read'),
  person('POST', '/api/organizations/:id/manual-services', 'admin'),
  person('DELETE', '/api/organizations/:id/manual-services/:key', 'admin'),

  scoped('GET', '/api/changes', 'changes:read'),
  scoped('GET', '/api/changes/stats', 'changes:read'),
  scoped('POST', '/api/changes', 'changes:write'),
  scoped('POST', '/api/changes/preview-blast', 'changes:read'),
  scoped('POST', '/api/changes/preview-contracts', 'changes:read'),
  scoped('GET', '/api/changes/:id', 'changes:read'),
  scoped('GET', '/api/observed-changes/:id', 'changes:read'),
  scoped('PUT', '/api/changes/:id', 'changes:write'),
  scoped('GET', '/api/changes/:id/status', 'changes:read'),
  scoped('GET', '/api/changes/:id/approvals', 'changes:read'),
  scoped('GET', '/api/changes/:id/contracts', 'changes:read'),
  scoped('GET', '/api/changes/:id/report.json', 'changes:read'),
  scoped('GET', '/api/changes/:id/report.html', 'changes:read'),
  scoped('GET', '/api/changes/:id/report.txt', 'changes:read'),
  scoped('GET', '/api/changes/:id/report.csv', 'changes:read'),
  scoped('GET', '/api/changes/:id/deliveries', 'changes:read'),
  scoped('GET', '/api/deliveries', 'changes:read'),
  scoped('POST', '/api/changes/:id/start', 'changes:write'),
  scoped('POST', '/api/changes/:id/complete', 'changes:write'),
  scoped('POST', '/api/changes/:id/finish', 'changes:write'),
  scoped('POST', '/api/changes/:id/abort', 'changes:write'),
  scoped('POST', '/api/changes/:id/cancel', 'changes:write'),
  scoped('POST', '/api/changes/:id/extend', 'changes:write'),
  scoped('POST', '/api/changes/:id/evaluate', 'changes:write'),
  // Decisions by people. The spec's relay knows these paths and refuses a token with 403.
  rule('POST', '/api/changes/:id/approve', 'session', BOTH),
  rule('POST', '/api/changes/:id/reject', 'session', BOTH),
  rule('POST', '/api/changes/:id/classify', 'session', BOTH),
  rule('POST', '/api/changes/:id/class', 'session', BOTH),
  rule('POST', '/api/changes/:id/mappings', 'session', BOTH),
  rule('POST', '/api/changes/:id/callback-test', 'session', BOTH),
  // Before-state captures: pipelines add them (up to 256 KiB) until the change starts.
  scoped('GET', '/api/changes/:id/before-state', 'changes:read'),
  scoped('POST', '/api/changes/:id/before-state', 'changes:write'),
  scoped('GET', '/api/changes/:id/before-state/:captureId', 'changes:read'),
  // Rollbacks: people release them (two distinct approvers at L3); the pipeline reports one done.
  scoped('GET', '/api/changes/:id/validation', 'changes:read'),
  scoped('GET', '/api/changes/:id/rollback', 'changes:read'),
  rule('POST', '/api/changes/:id/rollback', 'session', BOTH),
  scoped('POST', '/api/changes/:id/rollback/complete', 'changes:write'),
  // Post-implementation reviews: anyone with changes:read reads them and the due list; people write them (a token gets 403).
  scoped('GET', '/api/changes/:id/review', 'changes:read'),
  rule('POST', '/api/changes/:id/review', 'session', BOTH),
  scoped('GET', '/api/reviews/due', 'changes:read'),
  // Governance: templates (owners and admins draft, a different owner or approver certifies) and windows.
  scoped('GET', '/api/change-templates', 'changes:read'),
  scoped('POST', '/api/change-templates', 'changes:write'),
  scoped('GET', '/api/change-templates/:id', 'changes:read'),
  scoped('PUT', '/api/change-templates/:id', 'changes:write'),
  rule('POST', '/api/change-templates/:id/certify', 'session', BOTH),
  rule('POST', '/api/change-templates/:id/withdraw', 'session', BOTH),
  scoped('GET', '/api/change-windows', 'changes:read'),
  scoped('POST', '/api/change-windows', 'changes:write'),
  scoped('PUT', '/api/change-windows/:id', 'changes:write'),
  scoped('DELETE', '/api/change-windows/:id', 'changes:write'),
  scoped('POST', '/api/change-windows/import', 'changes:write'),
  scoped('POST', '/api/change-windows/check', 'changes:read'),
  scoped('GET', '/api/change-calendar', 'changes:read'),
  person('GET', '/api/organizations/:id/change-settings', 'admin'),
  person('PUT', '/api/organizations/:id/change-settings', 'admin'),
  person('PUT', '/api/organizations/:id/change-approvers', 'admin'),
  person('GET', '/api/organizations/:id/members', 'admin'),
  person('POST', '/api/organizations/:id/members', 'admin'),
  person('POST', '/api/organizations/:id/members/:userId/sign-in-link', 'admin'),
  person('PATCH', '/api/organizations/:id/members/:userId', 'admin'),
  person('DELETE', '/api/organizations/:id/members/:userId', 'admin'),
  person('POST', '/api/organizations/:id/change-settings/ticketing-test', 'admin'),

  // OTLP/HTTP logs intake, for the logs part of change reports: tokens on the pipeline listener only, as OTLP exporters send.
  rule('POST', '/v1/logs', { scope: 'logs:write' }, PIPELINE),

  // Observed changes: one intake per change source kind, pipeline listener only. The sender proves
  // itself with its connection's secret the way it can (a signature, a token header, a bearer, the
  // routing key), which the route checks; the guard limits the rate per connection and the size.
  ...(['github', 'gitlab', 'argocd', 'kubernetes', 'aws', 'azure', 'cloudevents', 'webhook'] as const).map((k) => rule('POST', `/v1/changes/${k}/:sourceId`, 'source', PIPELINE)),
  rule('POST', '/v2/change/enqueue', 'source', PIPELINE),

  // Alert intake: Alertmanager's webhook and its API v2 shape (Prometheus); the reads and a change's alert evidence.
  scoped('POST', '/api/alerts/alertmanager', 'alerts:write'),
  scoped('POST', '/api/v2/alerts', 'alerts:write'),
  scoped('GET', '/api/alerts', 'alerts:read'),
  scoped('GET', '/api/alerts/:fingerprint', 'alerts:read'),
  scoped('GET', '/api/changes/:id/alerts', 'alerts:read'),

  // Settings → Alert sources: people only; members read, owners and admins write.
  person('GET', '/api/alert-settings'),
  person('PUT', '/api/alert-settings', 'admin'),
  person('GET', '/api/alert-settings/receivers'),
  person('GET', '/api/alertmanagers'),
  person('POST', '/api/alertmanagers', 'admin'),
  person('PUT', '/api/alertmanagers/:id', 'admin'),
  person('DELETE', '/api/alertmanagers/:id', 'admin'),
  person('POST', '/api/alertmanagers/:id/test', 'admin'),
  person('GET', '/api/alert-destinations'),
  person('POST', '/api/alert-destinations', 'admin'),
  person('PUT', '/api/alert-destinations/:id', 'admin'),
  person('DELETE', '/api/alert-destinations/:id', 'admin'),
  person('POST', '/api/alert-destinations/:id/test', 'admin'),

  // Settings → Evidence: people only; members read, owners and admins write (aiEnabled: owners).
  person('GET', '/api/evidence-sources'),
  person('POST', '/api/evidence-sources', 'admin'),
  person('GET', '/api/evidence-sources/:id'),
  person('PUT', '/api/evidence-sources/:id', 'admin'),
  person('DELETE', '/api/evidence-sources/:id', 'admin'),
  person('POST', '/api/evidence-sources/:id/test', 'admin'),
  person('GET', '/api/evidence-settings'),
  person('PUT', '/api/evidence-settings', 'admin'),

  // Settings → Change sources (observed changes): people only; members read, owners and admins write.
  person('GET', '/api/change-sources'),
  person('POST', '/api/change-sources', 'admin'),
  person('GET', '/api/change-sources/:id'),
  person('PUT', '/api/change-sources/:id', 'admin'),
  person('DELETE', '/api/change-sources/:id', 'admin'),
  person('POST', '/api/change-sources/:id/rotate-secret', 'admin'),
  person('POST', '/api/change-sources/:id/test', 'admin'),
  person('POST', '/api/change-sources/:id/pull', 'admin'),
  person('GET', '/api/observed-settings'),
  person('PUT', '/api/observed-settings', 'admin'),
  // Settings → Unmanaged changes: members read; owners and admins write (the rule's switch: owners, checked by the service).
  person('GET', '/api/unmanaged-settings'),
  person('PUT', '/api/unmanaged-settings', 'admin'),
  person('POST', '/api/unmanaged-settings/dry-run'),
  person('POST', '/api/organizations/:id/itsm-webhook-token', 'admin'),
  person('GET', '/api/itsm/tickets'),
  // Cases of unauthorized changes and denied attempts: members read; approvers answer (checked by the service).
  person('GET', '/api/cases'),
  person('GET', '/api/cases/:id'),
  person('POST', '/api/cases/:id/approve-rollback'),
  person('POST', '/api/cases/:id/rolled-back'),
  person('POST', '/api/cases/:id/keep'),
  person('POST', '/api/cases/:id/resolve'),
  // Change tickets from ITSM tools: their own bearer (the ITSM webhook token), on the pipeline listener.
  rule('POST', '/api/itsm/servicenow', 'source', PIPELINE),
  rule('POST', '/api/itsm/jira', 'source', PIPELINE),

  // Settings → AI provider (change assessment): people only; members read, owners and admins set, remove and test.
  person('GET', '/api/ai-provider'),
  person('PUT', '/api/ai-provider', 'admin'),
  person('DELETE', '/api/ai-provider', 'admin'),
  person('POST', '/api/ai-provider/test', 'admin'),
];

/**
 * Files of the built UI and the API reference under /api/docs: public, main listener only. They
 * are registered by @fastify/static and @fastify/swagger-ui, one route per file.
 */
export const UI_FILES_RULE: RouteRule = rule('GET', '/*', 'public', MAIN);

export function isUiFile(path: string): boolean {
  return path === '/api/docs' || path.startsWith('/api/docs/') || (!path.startsWith('/api/') && !path.startsWith('/ofrep/'));
}

const byKey = new Map(ROUTE_RULES.map((r) => [`${r.method} ${r.path}`, r]));

/** The rule of a registered route (HEAD answers as its GET); null for an API route with no entry. */
export function ruleOf(method: string, path: string): RouteRule | null {
  const m = method === 'HEAD' ? 'GET' : method;
  const found = byKey.get(`${m} ${path}`);
  if (found) return found;
  return isUiFile(path) && m === 'GET' ? UI_FILES_RULE : null;
}

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

export function hasRole(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

function who(r: RouteRule): string {
  const role = r.role === 'owner' ? ', owner' : r.role === 'admin' ? ', owner or admin' : '';
  if (r.access === 'public') return 'anyone';
  if (r.access === 'sdk') return 'an SDK key';
  if (r.access === 'token') return 'any API token (its scopes decide what it sees)';
  if (r.access === 'source') return 'a change source\'s sender (its signature or secret)';
  if (r.access === 'session') return `session${role}${r.listeners.includes('pipeline') ? ' (a token gets 403)' : ''}`;
  return `session or token with \`${r.access.scope}\`${role}`;
}

/** docs/api.md's table of every route, rendered from the rules (the route-rules test compares them). */
export function renderRouteTable(rules: readonly RouteRule[] = ROUTE_RULES): string {
  const rows = rules.map((r) => `| \`${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}\` | ${who(r)} | ${r.listeners.join(', ')} |`);
  return ['| method and path | who may call it | listeners |', '|---|---|---|', ...rows].join('\n');
}
