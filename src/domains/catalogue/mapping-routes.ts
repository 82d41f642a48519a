import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ownOrganization, requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import type { MappingService } from './mapping-service.js';

const AliasBody = Type.Object({ alias: Type.String(), kind: Type.String(), key: Type.String(), createdBy: Type.String(), createdAt: Type.String(), lastUsedAt: Type.Union([Type.String(), Type.Null()]) });
const ManualBody = Type.Object({ key: Type.String(), name: Type.String(), createdBy: Type.String(), createdAt: Type.String(), merged: Type.Boolean(), mergedAt: Type.Union([Type.String(), Type.Null()]) });
const Candidate = Type.Object({ kind: Type.String(), key: Type.String(), name: Type.String() });
const MatchBody = Type.Object({
  resolved: Type.Array(Type.Object({ kind: Type.String(), key: Type.String(), name: Type.String(), match: Type.Enum(['exact', 'alias', 'manual', 'key']), query: Type.Optional(Type.String()), seen: Type.Boolean() })),
  unresolved: Type.Array(Type.Object({ query: Type.String(), candidates: Type.Array(Candidate) })),
  match: Type.Object({ matched: Type.Integer(), unresolved: Type.Array(Type.String()) }),
});
const ComponentInput = Type.Object(
  { kind: Type.Optional(Type.String({ maxLength: 40 })), key: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })), query: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);
const OrgParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const mappingRoutes: FastifyPluginAsyncTypebox<{ mappings: MappingService }> = async (app, { mappings }) => {
  const tags = ['catalogue'];
  const read = { access: { scope: 'catalogue:read' as const } };

  app.post('/api/catalog/match', {
    config: read,
    schema: {
      tags, summary: 'Resolve components as a registration will: exactly one name hit, else an alias, else a manual service, else up to 10 candidates',
      body: Type.Object({ components: Type.Optional(Type.Array(ComponentInput, { maxItems: 100 })), lines: Type.Optional(Type.String({ maxLength: 20_000 })) }, { additionalProperties: false }),
      response: { 200: MatchBody, ...errors(400, 401, 403) },
    },
  }, async (req) => mappings.match(req.principal!.org.id, req.body));

  app.get('/api/organizations/:id/component-aliases', { config: read, schema: { tags, summary: 'Remembered names (alias → {kind, key})', params: OrgParams, response: { 200: Type.Object({ items: Type.Array(AliasBody) }), ...errors(401, 403, 404) } } },
    async (req) => ({ items: await mappings.aliases(ownOrganization(req, req.params.id).org.id) }));
  app.put('/api/organizations/:id/component-aliases/:alias', {
    config: { access: 'session' },
    schema: { tags, summary: 'Remember a name for an entity (owners and admins)', params: Type.Object({ id: Type.String({ maxLength: 100 }), alias: Type.String({ minLength: 1, maxLength: 200 }) }), body: Type.Object({ kind: Type.String({ minLength: 1, maxLength: 40 }), key: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false }), response: { 200: AliasBody, ...errors(400, 401, 403, 404) } },
  }, async (req) => mappings.setAlias(requestAuditContext(req), ownOrganization(req, req.params.id), req.params.alias, req.body));
  app.delete('/api/organizations/:id/component-aliases/:alias', {
    config: { access: 'session' },
    schema: { tags, summary: 'Forget a name', params: Type.Object({ id: Type.String({ maxLength: 100 }), alias: Type.String({ minLength: 1, maxLength: 200 }) }), response: { 200: Type.Object({ ok: Type.Boolean() }), ...errors(401, 403, 404) } },
  }, async (req) => {
    await mappings.deleteAlias(requestAuditContext(req), ownOrganization(req, req.params.id), req.params.alias);
    return { ok: true };
  });

  app.get('/api/organizations/:id/manual-services', { config: read, schema: { tags, summary: 'Services added by hand (merged once discovery reports them)', params: OrgParams, response: { 200: Type.Object({ items: Type.Array(ManualBody) }), ...errors(401, 403, 404) } } },
    async (req) => ({ items: await mappings.manualServices(ownOrganization(req, req.params.id).org.id) }));
  app.post('/api/organizations/:id/manual-services', {
    config: { access: 'session' },
    schema: { tags, summary: 'Create {name} → svc:<slug> (owners and admins)', params: OrgParams, body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }), response: { 200: ManualBody, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => mappings.createManual(requestAuditContext(req), ownOrganization(req, req.params.id), req.body.name));
  app.delete('/api/organizations/:id/manual-services/:key', {
    config: { access: 'session' },
    schema: { tags, summary: 'Remove a manual service', params: Type.Object({ id: Type.String({ maxLength: 100 }), key: Type.String({ minLength: 1, maxLength: 200 }) }), response: { 200: Type.Object({ ok: Type.Boolean() }), ...errors(401, 403, 404) } },
  }, async (req) => {
    await mappings.deleteManual(requestAuditContext(req), ownOrganization(req, req.params.id), req.params.key);
    return { ok: true };
  });
};
