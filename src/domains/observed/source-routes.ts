import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { unauthorized } from '../../platform/errors.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import type { ObservedSettingsInput as SettingsInputValue } from './observed-settings.js';
import {
  ObservedSettings, ObservedSettingsInput, PullInput, PullResult, Source, SourceCreate, SourceParams, SourceTest, SourceUpdate, SourceWithSecret,
} from './source-schemas.js';
import type { SourceService } from './source-service.js';

function principal(req: FastifyRequest) {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** Settings → Change sources (people only, main listener): members read; owners and admins write. */
export const sourceRoutes: FastifyPluginAsyncTypebox<{ sources: SourceService; pipelineUrl: () => string | null }> = async (app, { sources: s, pipelineUrl }) => {
  const tags = ['observed'];
  const config = { access: 'session' as const };

  app.get('/api/change-sources', {
    config, schema: { tags, summary: 'The organisation’s change sources: endpoint to paste, counts, last event and pull (secrets and credentials never answered)', response: { 200: Type.Object({ sources: Type.Array(Source) }), ...errors(401, 403) } },
  }, async (req) => ({ sources: await s.list(principal(req).org.id, pipelineUrl()) }));
  app.post('/api/change-sources', {
    config, schema: { tags, summary: 'Add a change source {kind, name, config?, credential?, pullEnabled?}: answers its secret once and the endpoint (audited change_source.created)', body: SourceCreate, response: { 201: SourceWithSecret, ...errors(400, 401, 403, 409) } },
  }, async (req, reply) => reply.status(201).send(await s.create(requestAuditContext(req), principal(req), req.body, pipelineUrl())));
  app.get('/api/change-sources/:id', {
    config, schema: { tags, summary: 'One change source', params: SourceParams, response: { 200: Type.Object({ source: Source }), ...errors(401, 403, 404) } },
  }, async (req) => ({ source: await s.get(principal(req).org.id, req.params.id, pipelineUrl()) }));
  app.put('/api/change-sources/:id', {
    config, schema: { tags, summary: 'Change a change source; credential left out keeps it, null removes it (audited change_source.updated)', params: SourceParams, body: SourceUpdate, response: { 200: Type.Object({ source: Source }), ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => ({ source: await s.update(requestAuditContext(req), principal(req), req.params.id, req.body, pipelineUrl()) }));
  app.delete('/api/change-sources/:id', {
    config, schema: { tags, summary: 'Remove a change source (audited change_source.deleted); its records stay in the ledger', params: SourceParams, response: { 204: { type: 'null' }, ...errors(401, 403, 404) } },
  }, async (req, reply) => {
    await s.remove(requestAuditContext(req), principal(req), req.params.id);
    return reply.status(204).send(null);
  });
  app.post('/api/change-sources/:id/rotate-secret', {
    config, schema: { tags, summary: 'A new secret, answered once; the old one stops working (audited change_source.secret_rotated)', params: SourceParams, response: { 200: SourceWithSecret, ...errors(401, 403, 404) } },
  }, async (req) => s.rotateSecret(requestAuditContext(req), principal(req), req.params.id, pipelineUrl()));
  app.post('/api/change-sources/:id/test', {
    config, schema: { tags, summary: 'A pull kind reads its API’s last day (nothing recorded); a pushed source says whether an event arrived and gives the curl line to send one (audited)', params: SourceParams, response: { 200: SourceTest, ...errors(401, 403, 404) } },
  }, async (req) => s.test(requestAuditContext(req), principal(req), req.params.id, pipelineUrl()));
  app.post('/api/change-sources/:id/pull', {
    config, schema: { tags, summary: 'Pull the last N minutes now, under the manual marker (the scheduled pull’s is left alone); audited change_source.pulled', params: SourceParams, body: PullInput, response: { 200: PullResult, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => s.pull(requestAuditContext(req), principal(req), req.params.id, req.body.minutes));

  app.get('/api/observed-settings', {
    config, schema: { tags, summary: 'The pull interval, CI namespaces, service map and resource map (the defaults while none is saved)', response: { 200: ObservedSettings, ...errors(401, 403) } },
  }, async (req) => s.settings(principal(req).org.id));
  app.put('/api/observed-settings', {
    config, schema: { tags, summary: 'Set any of them; a map edit relinks the last 48 hours (audited observed_settings.updated and observed.relinked); a PUT that changes nothing writes nothing', body: ObservedSettingsInput, response: { 200: ObservedSettings, ...errors(400, 401, 403) } },
  }, async (req) => s.updateSettings(requestAuditContext(req), principal(req), req.body as SettingsInputValue));
};
