import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { unauthorized } from '../../platform/errors.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import type { EvidenceSourceService } from './evidence-source-service.js';
import { Settings, SettingsInput, Source, SourceCreate, SourceParams, SourceTest, SourceUpdate } from './evidence-source-schemas.js';

function principal(req: FastifyRequest) {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** Settings → Evidence (people only): members read; owners and admins write; the AI switch is the owner's. */
export const evidenceSourceRoutes: FastifyPluginAsyncTypebox<{ evidenceSources: EvidenceSourceService }> = async (app, { evidenceSources: s }) => {
  const tags = ['evidence'];
  const config = { access: 'session' as const };

  app.get('/api/evidence-sources', {
    config, schema: { tags, summary: 'The organisation’s evidence sources (credentials never answered: hasSecret)', response: { 200: Type.Object({ sources: Type.Array(Source) }), ...errors(401, 403) } },
  }, async (req) => ({ sources: await s.list(principal(req).org.id) }));
  app.post('/api/evidence-sources', {
    config, schema: { tags, summary: 'Add an evidence source {kind, name, url, auth?, config?}; credentials sealed (audited evidence_source.created)', body: SourceCreate, response: { 201: Type.Object({ source: Source }), ...errors(400, 401, 403) } },
  }, async (req, reply) => reply.status(201).send({ source: await s.create(requestAuditContext(req), principal(req), req.body) }));
  app.get('/api/evidence-sources/:id', {
    config, schema: { tags, summary: 'One evidence source', params: SourceParams, response: { 200: Type.Object({ source: Source }), ...errors(401, 403, 404) } },
  }, async (req) => ({ source: await s.get(principal(req).org.id, req.params.id) }));
  app.put('/api/evidence-sources/:id', {
    config, schema: { tags, summary: 'Change an evidence source; auth left out (or its token or password) keeps the stored credentials', params: SourceParams, body: SourceUpdate, response: { 200: Type.Object({ source: Source }), ...errors(400, 401, 403, 404) } },
  }, async (req) => ({ source: await s.update(requestAuditContext(req), principal(req), req.params.id, req.body) }));
  app.delete('/api/evidence-sources/:id', {
    config, schema: { tags, summary: 'Remove an evidence source (audited evidence_source.deleted); stored reports keep their evidence', params: SourceParams, response: { 204: { type: 'null' }, ...errors(401, 403, 404) } },
  }, async (req, reply) => {
    await s.remove(requestAuditContext(req), principal(req), req.params.id);
    return reply.status(204).send(null);
  });
  app.post('/api/evidence-sources/:id/test', {
    config, schema: { tags, summary: 'Ask the source what it is and whether it answers (Prometheus: buildinfo and the request-rate query); {ok, version?, message} in words, audited', params: SourceParams, response: { 200: SourceTest, ...errors(401, 403, 404) } },
  }, async (req) => s.test(requestAuditContext(req), principal(req), req.params.id));

  app.get('/api/evidence-settings', {
    config, schema: { tags, summary: 'The verdict’s thresholds, the RED query templates and the AI switch (the defaults while none is saved)', response: { 200: Settings, ...errors(401, 403) } },
  }, async (req) => s.settings(principal(req).org.id));
  app.put('/api/evidence-settings', {
    config, schema: { tags, summary: 'Set thresholds, RED templates (null: the defaults) and, owners only, aiEnabled; audited settings.evidence_updated', body: SettingsInput, response: { 200: Settings, ...errors(400, 401, 403) } },
  }, async (req) => s.updateSettings(requestAuditContext(req), principal(req), req.body));
};
