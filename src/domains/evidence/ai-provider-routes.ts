import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../platform/errors.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import { Type } from 'typebox';
import { AiProvider, AiProviderAnswer, AiProviderInput, AiProviderTest } from './ai-provider-schemas.js';
import type { AiProviderService } from './ai-provider-service.js';

const ProviderAnswer = Type.Object({ provider: AiProvider });

function principal(req: FastifyRequest) {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** Settings → AI provider (people only): members read, owners and admins set, remove and test. */
export const aiProviderRoutes: FastifyPluginAsyncTypebox<{ aiProvider: AiProviderService }> = async (app, { aiProvider }) => {
  const tags = ['evidence'];
  const config = { access: 'session' as const };

  app.get('/api/ai-provider', {
    config, schema: { tags, summary: 'The AI provider of change assessment, or null while none is assigned (its key never answered)', response: { 200: AiProviderAnswer, ...errors(401, 403) } },
  }, async (req) => ({ provider: await aiProvider.get(principal(req).org.id) }));
  app.put('/api/ai-provider', {
    config,
    schema: {
      tags, summary: 'Assign the AI provider {kind, url?, model, key?}; the key is sealed; owners and admins, audited ai_provider.set',
      body: AiProviderInput, response: { 200: ProviderAnswer, ...errors(400, 401, 403) },
    },
  }, async (req) => ({ provider: await aiProvider.put(requestAuditContext(req), principal(req), req.body) }));
  app.delete('/api/ai-provider', {
    config, schema: { tags, summary: 'Remove the AI provider: reports say none is assigned (audited ai_provider.deleted)', response: { 204: { type: 'null' }, ...errors(401, 403, 404) } },
  }, async (req, reply) => {
    await aiProvider.remove(requestAuditContext(req), principal(req));
    return reply.status(204).send(null);
  });
  app.post('/api/ai-provider/test', {
    config,
    schema: { tags, summary: 'Ask the provider a small question now and answer {ok, model, durationMs, problem} in words (audited ai_provider.tested; not counted by the hourly cap)', response: { 200: AiProviderTest, ...errors(401, 403, 404) } },
  }, async (req) => aiProvider.test(requestAuditContext(req), principal(req)));
};
