import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { badRequest, unauthorized } from '../../platform/errors.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import { CATALOGUE_SCHEMA } from './catalogue-format.js';
import { IMPORT_FORMATS, type CatalogueService } from './catalogue-service.js';

const Counts = Type.Object({ added: Type.Integer(), changed: Type.Integer(), unchanged: Type.Integer(), stale: Type.Integer() });
const ImportBody = Type.Object({ format: Type.Enum(IMPORT_FORMATS), source: Type.String(), entities: Counts, links: Counts, sources: Type.Object(Counts.properties, { description: 'Monitoring sources (our own format only; zeros for the others)' }), routes: Type.Integer({ description: 'Routes (contracts) from traces' }), ignored: Type.Integer(), warnings: Type.Array(Type.String()) });
const InventoryQuery = Type.Object(
  {
    kind: Type.Optional(Type.String({ maxLength: 300, description: 'Comma-separated kinds: service,instance' })),
    hops: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], { default: 2 })),
    includeStale: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)], { default: 0 })),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive part of the name or key' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, default: 500 })),
  },
  { additionalProperties: false },
);
const Neighbour = Type.Object({
  key: Type.String(), kind: Type.String(), name: Type.String(),
  via: Type.Optional(Type.Enum(['calls', 'runs-on', 'member'], { description: 'Hop 1 only' })),
  stale: Type.Optional(Type.Literal(true, { description: 'Hop 1 only: the link is stale' })),
});
const SideBody = Type.Object({ hop1: Type.Array(Neighbour), hop2: Type.Array(Neighbour) });
const EntityBody = Type.Object({
  key: Type.String(), kind: Type.String(), name: Type.String(), stale: Type.Boolean(),
  engine: Type.Optional(Type.String()),
  meta: Type.Optional(Type.Object({ tier: Type.Union([Type.String(), Type.Null()]), owner: Type.Union([Type.String(), Type.Null()]), team: Type.Union([Type.String(), Type.Null()]), environment: Type.Union([Type.String(), Type.Null()]) })),
  uses: SideBody, usedBy: SideBody,
  truncated: Type.Optional(Type.Literal(true, { description: 'A list hit 200 neighbours or the walk 2,000 edges' })),
});
const MetaBody = Type.Object({
  hops: Type.Integer(), includeStale: Type.Boolean(), staleAfterDays: Type.Union([Type.Integer(), Type.Null()]), lastSweepAt: Type.Union([Type.String(), Type.Null()]),
  truncatedEntities: Type.Integer(), kinds: Type.Record(Type.String(), Type.Integer()),
});
const PageBody = Type.Object({
  format: Type.String(), snapshotAt: Type.String({ description: 'The snapshot (at most 60 s old) this page was cut from; when it changes between pages, start again at offset 0' }),
  total: Type.Integer(), offset: Type.Integer(), limit: Type.Integer(), entities: Type.Array(EntityBody), meta: MetaBody,
});
const OneBody = Type.Object({ format: Type.String(), snapshotAt: Type.String(), entity: EntityBody, meta: MetaBody });

const EntityQuery = Type.Object(
  { hops: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], { default: 2 })), includeStale: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)], { default: 0 })) },
  { additionalProperties: false },
);

function orgOf(req: FastifyRequest): string {
  if (!req.principal) throw unauthorized();
  return req.principal.org.id;
}

export const catalogueRoutes: FastifyPluginAsyncTypebox<{ catalogue: CatalogueService }> = async (app, { catalogue }) => {
  const tags = ['catalogue'];
  // Imports come as YAML or JSON text, whatever the content type says.
  app.addContentTypeParser(['application/yaml', 'application/x-yaml', 'text/yaml', 'text/plain', 'application/x-ndjson'], { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.post('/api/catalog/imports', {
    config: { access: { scope: 'catalogue:write' } },
    bodyLimit: 64 * 1024 * 1024,
    schema: {
      tags, summary: 'Import an estate: our own format (YAML or JSON, with its monitoring sources), Backstage, a kubectl dump, Jaeger dependencies or OTLP traces. Idempotent; entities, links and monitoring sources the same source no longer reports are marked stale',
      querystring: Type.Object({ format: Type.Enum(IMPORT_FORMATS), source: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
      response: { 200: ImportBody, ...errors(400, 401, 403, 413) },
    },
  }, async (req) => {
    const text = typeof req.body === 'string' ? req.body : req.body === undefined ? '' : JSON.stringify(req.body);
    if (!text.trim()) throw badRequest('send the file as the request body', 'body');
    return catalogue.importText(requestAuditContext(req), orgOf(req), req.query.format, text, req.query.source);
  });

  app.get('/api/catalog/inventory', {
    config: { access: { scope: 'catalogue:read' } },
    schema: { tags, summary: 'Every entity with its +1 / +2 dependencies both ways, a page at a time from a snapshot of at most 60 s', querystring: InventoryQuery, response: { 200: PageBody, ...errors(400, 401, 403, 413) } },
  }, async (req) => {
    const { kind, q, hops = 2, includeStale = 0, offset = 0, limit = 500 } = req.query;
    return catalogue.inventory(orgOf(req), { kind, q, hops, includeStale: includeStale === 1, offset, limit });
  });

  const Settings = Type.Object({ staleAfterDays: Type.Integer(), lastSweepAt: Type.Union([Type.String(), Type.Null()]) });
  app.get('/api/settings/catalogue', { config: { access: 'session' }, schema: { tags, summary: 'How long observed call edges and placements stay fresh', response: { 200: Settings, ...errors(401, 403) } } },
    async (req) => catalogue.settings(orgOf(req)));
  app.put('/api/settings/catalogue', {
    config: { access: 'session' },
    schema: { tags, summary: 'Set the days after which an observed link not seen again is stale (owners and admins)', body: Type.Object({ staleAfterDays: Type.Integer({ minimum: 1, maximum: 365 }) }, { additionalProperties: false }), response: { 200: Settings, ...errors(400, 401, 403) } },
  }, async (req) => catalogue.updateSettings(requestAuditContext(req), req.principal!, req.body.staleAfterDays));

  const RouteBody = Type.Object({
    caller: Type.String(), callee: Type.String(), method: Type.Union([Type.String(), Type.Null()]), route: Type.String(), calls: Type.Integer(),
    errorShare: Type.Number(), p95Ms: Type.Number(), samplePath: Type.Union([Type.String(), Type.Null()]), lastSeen: Type.String(), probe: Type.Boolean(),
  });
  app.get('/api/catalog/routes', {
    config: { access: { scope: 'catalogue:read' } },
    schema: {
      tags, summary: 'The routes each caller uses on each callee, from traces; caller `ingress` means requests from outside the estate (a root server span). Health probes and routes not seen for 7 days left out unless asked',
      querystring: Type.Object({ caller: Type.Optional(Type.String({ maxLength: 500 })), callee: Type.Optional(Type.String({ maxLength: 500 })), includeStale: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])), includeProbes: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(RouteBody) }), ...errors(400, 401, 403) },
    },
  }, async (req) => ({ items: await catalogue.routes(orgOf(req), { caller: req.query.caller, callee: req.query.callee, includeStale: req.query.includeStale === 1, includeProbes: req.query.includeProbes === 1 }) }));

  app.get('/api/catalog/format.schema.json', { config: { access: 'public' }, schema: { tags, summary: 'JSON Schema of the changeledger/catalogue/1 import format' } },
    async () => CATALOGUE_SCHEMA);

  const readOnly = async () => {
    throw badRequest('the inventory is read-only: import with POST /api/catalog/imports');
  };
  app.post('/api/catalog/inventory', { config: { access: { scope: 'catalogue:read' } }, schema: { hide: true } }, readOnly);
  app.put('/api/catalog/inventory', { config: { access: { scope: 'catalogue:read' } }, schema: { hide: true } }, readOnly);

  app.get('/api/catalog/inventory/:key', {
    config: { access: { scope: 'catalogue:read' } },
    schema: { tags, summary: 'One entity by its key, URI-encoded (svc%3Acheckout)', params: Type.Object({ key: Type.String({ minLength: 1, maxLength: 500 }) }), querystring: EntityQuery, response: { 200: OneBody, ...errors(400, 401, 403, 404) } },
  }, async (req) => {
    const { hops = 2, includeStale = 0 } = req.query;
    return catalogue.entity(orgOf(req), req.params.key, { hops, includeStale: includeStale === 1 });
  });
};
