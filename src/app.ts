import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { authRoutes, tokenRoutes } from './domains/auth/auth-routes.js';
import { membersRoutes } from './domains/auth/members-routes.js';
import { catalogueRoutes } from './domains/catalogue/catalogue-routes.js';
import { mappingRoutes } from './domains/catalogue/mapping-routes.js';
import { blastRoutes } from './domains/catalogue/blast-routes.js';
import { changeRoutes } from './domains/changes/change-routes.js';
import { rollbackRoutes } from './domains/changes/rollback-routes.js';
import { reviewRoutes } from './domains/changes/review-routes.js';
import { governanceRoutes } from './domains/governance/index.js';
import { reportRoutes } from './domains/changes/report-routes.js';
import { deliveryRoutes } from './domains/deliveries/delivery-routes.js';
import { alertRoutes } from './domains/alerts/alert-routes.js';
import { otlpLogsRoutes } from './domains/evidence/otlp-logs-routes.js';
import { alertSettingsRoutes } from './domains/alerts/alert-settings-routes.js';
import { aiProviderRoutes } from './domains/evidence/ai-provider-routes.js';
import { evidenceSourceRoutes } from './domains/evidence/evidence-source-routes.js';
import { flagRoutes } from './domains/flags/flag-routes.js';
import { ofrepRoutes } from './domains/flags/ofrep-routes.js';
import { sdkKeyRoutes } from './domains/flags/sdk-key-routes.js';
import { incidentRoutes } from './domains/incidents/incident-routes.js';
import { observedRoutes } from './domains/observed/observed-routes.js';
import { sourceRoutes } from './domains/observed/source-routes.js';
import { observedIntakeRoutes } from './domains/observed/observed-intake-routes.js';
import { unmanagedRoutes } from './domains/observed/unmanaged/unmanaged-routes.js';
import { changeStatsRoutes } from './domains/observed/change-stats-routes.js';
import { caseRoutes } from './domains/observed/unmanaged/case-routes.js';
import { ledgerRoutes } from './domains/ledger/index.js';
import { mcpRoutes } from './domains/mcp/index.js';
import type { Services } from './compose.js';
import type { Listener } from './platform/http/access.js';
import { installErrorHandler } from './platform/http/error-handler.js';
import { installMainGuard, installPipelineGuard } from './platform/http/guards.js';
import { listenerRoutes } from './platform/http/listener-routes.js';
import { ErrorBody, installEmptyBodyRule } from './platform/http/schemas.js';
import { schemaCompilers, type CompileCount } from './platform/http/validation.js';
import { newId } from './platform/ids.js';
import { webDistDir } from './platform/paths.js';

/** The composed services, and what only the HTTP layer needs. */
export type AppDeps = Omit<Services, 'worker'> & {
  secureCookies: boolean;
  /** Where the built UI is; absent in API-only tests. */
  webDir?: string | null;
  version: string;
  /** Where the pipeline listener listens, once it does (the tokens page says so). */
  pipelineUrl?: () => string | null;
  /** Proxies whose X-Forwarded-For gives the client's address (sign-in throttling, logs). */
  trustProxy?: readonly string[];
  /** Compile every route's schemas when the listener gets ready, counting them (tests); by default each compiles at its first request. */
  eagerSchemas?: CompileCount;
};

const LAZY_SCHEMAS = schemaCompilers();

export const MAIN_BODY_LIMIT = 1024 * 1024;
export const PIPELINE_BODY_LIMIT = 64 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Fastify's request logging, one line a request: nothing when it arrives, and when its answer has
 * gone, what was asked and from where with what came back and how long it took (Fastify's own writes
 * two lines, the first without the answer and the second without the question). Probes, polled
 * every few seconds, are logged at debug; `probes`: every request of the listener is one. Fastify's
 * other lines (errors, broken streams, routes not found) are left as they are.
 */
class OneLinePerRequest extends LogController {
  constructor(private readonly probes = false) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    // The logger's `req` serializer (Fastify's) writes the method, URL, host and the client's address.
    const line = { req, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log[this.probes || PROBE_PATHS.has(req.routeOptions.url ?? '') ? 'debug' : 'info'](line, 'request completed');
  }
}

/** Liveness, readiness (the database answers) and, where asked, the Prometheus metrics. */
function probeRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'db' | 'metrics'>, metrics: boolean): void {
  app.get('/healthz', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    try {
      await deps.db.query('SELECT 1');
      return { status: 'ready', engine: deps.db.engine };
    } catch {
      return reply.status(503).send({ error: 'database unreachable' });
    }
  });
  if (!metrics) return;
  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    void reply.header('content-type', deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });
}

/**
 * What a worker process (--role worker) listens for: its probes and its metrics, nothing else.
 * Every other path is 404, so a balancer that sends it a person or a pipeline by mistake is told.
 */
export async function buildProbeApp(deps: Pick<AppDeps, 'db' | 'metrics' | 'logger'>): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: deps.logger.child({ listener: 'probes' }) as FastifyBaseLogger, logController: new OneLinePerRequest(true), return503OnClosing: true }) as unknown as FastifyInstance;
  installErrorHandler(app);
  probeRoutes(app, deps, true);
  app.setNotFoundHandler(async (req, reply) => reply.status(404).send({ error: `no route ${req.method} ${req.url.split('?')[0] ?? ''}: this process is a worker (--role worker) and serves only /healthz, /readyz and /metrics` }));
  return app;
}

/**
 * One Fastify instance per listener, both carrying every route; src/route-rules.ts says which
 * listener serves which, and the guards answer 404 for the rest.
 */
export async function buildApp(deps: AppDeps, listener: Listener): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger.child({ listener }) as FastifyBaseLogger,
    logController: new OneLinePerRequest(),
    bodyLimit: listener === 'pipeline' ? PIPELINE_BODY_LIMIT : MAIN_BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : newId('req');
    },
    schemaController: { compilersFactory: deps.eagerSchemas ? schemaCompilers({ eager: true, count: deps.eagerSchemas }) : LAZY_SCHEMAS },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    return503OnClosing: true,
    trustProxy: deps.trustProxy !== undefined && deps.trustProxy.length > 0 ? [...deps.trustProxy] : false,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as FastifyInstance;

  app.addSchema(ErrorBody);
  installErrorHandler(app);
  installEmptyBodyRule(app);
  // While shutting down, answers in flight tell their client to drop the kept-alive socket;
  // otherwise the server would wait out the 72-second keep-alive before it can close.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (req, reply) => {
    void reply.header('x-request-id', req.id);
    if (closing) void reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    deps.metrics.httpRequests.inc({ listener, method: req.method, route, status: String(reply.statusCode) });
    deps.metrics.httpDuration.observe({ listener, route }, reply.elapsedTime / 1000);
  });

  if (listener === 'main') {
    await app.register(fastifyCookie);
    await app.register(fastifySwagger, {
      // A response schema with an $id (Change, Blast, …) becomes a component of that name, so the
      // web client's generated types (web/src/api/schema.d.ts) have readable names.
      refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
      openapi: {
        openapi: '3.1.0',
        info: { title: 'changeledger API', version: deps.version, description: 'Sessions on the main listener (cookie + x-csrf-token); API tokens (Bearer clt_…) on the pipeline listener only.' },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'cl_session' },
            token: { type: 'http', scheme: 'bearer', description: 'clt_<id>_<secret>, pipeline listener only' },
            sdkKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'cls_<id>_<secret>: an application’s read-only key for /ofrep/* (also as Authorization: Bearer)' },
          },
        },
      },
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
    installMainGuard(app, deps.auth);
  } else {
    await app.register(fastifyCookie);
    installPipelineGuard(app, deps.auth, deps.clock, PIPELINE_BODY_LIMIT, deps.db);
  }

  probeRoutes(app, deps, listener === 'main');
  if (listener === 'main') {
    app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
  }

  const routeDeps = { db: deps.db, clock: deps.clock, auth: deps.auth, secureCookies: deps.secureCookies };
  await app.register(authRoutes, routeDeps);
  await app.register(tokenRoutes, routeDeps);
  await app.register(listenerRoutes, { pipelineUrl: deps.pipelineUrl ?? (() => null) });
  await app.register(membersRoutes, { members: deps.members });
  await app.register(ledgerRoutes, { ...routeDeps, checkpoints: deps.checkpoints });
  await app.register(flagRoutes, { flags: deps.flags, requests: deps.flagRequests, clock: deps.clock });
  await app.register(sdkKeyRoutes, { sdkKeys: deps.sdkKeys });
  await app.register(incidentRoutes, { incidents: deps.incidents, flags: deps.flags, clock: deps.clock });
  await app.register(catalogueRoutes, { catalogue: deps.catalogue });
  await app.register(mappingRoutes, { mappings: deps.mappings });
  await app.register(blastRoutes, { blast: deps.blast });
  await app.register(changeRoutes, { db: deps.db, changes: deps.changes, approvals: deps.approvals, classes: deps.classes, settings: deps.changeSettings, blast: deps.blast });
  await app.register(reportRoutes, { db: deps.db, changes: deps.changes });
  await app.register(reviewRoutes, { reviews: deps.reviews });
  await app.register(rollbackRoutes, { beforeStates: deps.beforeStates, rollbacks: deps.rollbacks, validations: deps.validations });
  await app.register(governanceRoutes, { templates: deps.templates, windows: deps.windows, changes: deps.changes });
  await app.register(observedRoutes, { feed: deps.observedFeed });
  await app.register(changeStatsRoutes, { db: deps.db, clock: deps.clock });
  await app.register(deliveryRoutes, { deliveries: deps.deliveries, changes: deps.changes });
  await app.register(alertRoutes, { alerts: deps.alerts, clock: deps.clock });
  await app.register(alertSettingsRoutes, { settings: deps.alertSettings, pipelineUrl: deps.pipelineUrl ?? (() => null) });
  await app.register(otlpLogsRoutes, { logs: deps.logIntake });
  await app.register(observedIntakeRoutes, { db: deps.db, clock: deps.clock, intake: deps.intake });
  await app.register(aiProviderRoutes, { aiProvider: deps.aiProvider });
  await app.register(evidenceSourceRoutes, { evidenceSources: deps.evidenceSources });
  await app.register(sourceRoutes, { sources: deps.sources, pipelineUrl: deps.pipelineUrl ?? (() => null) });
  await app.register(unmanagedRoutes, { unmanaged: deps.unmanaged });
  await app.register(caseRoutes, { cases: deps.cases });
  await app.register(ofrepRoutes, { db: deps.db, clock: deps.clock, sdkKeys: deps.sdkKeys });
  await app.register(mcpRoutes, { mcp: { db: deps.db, clock: deps.clock, changes: deps.changes, blast: deps.blast, flags: deps.flags, baseUrl: () => deps.changes.publicUrl(), logger: deps.logger, version: deps.version } });

  const webDir = listener === 'main' ? (deps.webDir === undefined ? webDistDir : deps.webDir) : null;
  const hasUi = !!webDir && existsSync(join(webDir, 'index.html'));
  if (hasUi) await app.register(fastifyStatic, { root: webDir, prefix: '/', wildcard: false, index: false });

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (listener === 'pipeline') return reply.status(404).send({ error: `${req.method} ${path} is not a pipeline route` });
    if (req.method === 'GET' && !path.startsWith('/api/') && hasUi) return reply.type('text/html').sendFile('index.html');
    if (req.method === 'GET' && !path.startsWith('/api/')) {
      return reply.status(404).type('text/plain').send('The web UI is not built: run `npm run build` (npm start does it for you).');
    }
    return reply.status(404).send({ error: `no route ${req.method} ${path}` });
  });
  return app;
}
