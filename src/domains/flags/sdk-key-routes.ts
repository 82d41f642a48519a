import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { unauthorized } from '../../platform/errors.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors, IsoTime } from '../../platform/http/schemas.js';
import type { Principal } from '../auth/index.js';
import type { SdkKeyService } from './sdk-key-service.js';

const SdkKeyBody = Type.Object({
  id: Type.String(), name: Type.String(), env: Type.String(), createdAt: IsoTime, createdBy: Type.String(),
  revokedAt: Type.Union([IsoTime, Type.Null()]), lastUsedAt: Type.Union([IsoTime, Type.Null()]),
});
const SdkKeyInput = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), env: Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$' }) }, { additionalProperties: false });

function who(p: Principal | null) {
  if (!p) throw unauthorized();
  return p;
}

/** SDK keys are managed by people (owners and admins) in a session; applications only use them. */
export const sdkKeyRoutes: FastifyPluginAsyncTypebox<{ sdkKeys: SdkKeyService }> = async (app, { sdkKeys }) => {
  const tags = ['ofrep'];
  app.get('/api/sdk-keys', { config: { access: 'session' }, schema: { tags, summary: 'SDK keys of the organisation', response: { 200: Type.Object({ items: Type.Array(SdkKeyBody) }), ...errors(401, 403) } } },
    async (req) => ({ items: await sdkKeys.list(who(req.principal)) }));
  app.post('/api/sdk-keys', {
    config: { access: 'session' },
    schema: { tags, summary: 'Create a read-only SDK key bound to one environment; the secret is shown once', body: SdkKeyInput, response: { 201: Type.Object({ key: SdkKeyBody, secret: Type.String() }), ...errors(400, 401, 403) } },
  }, async (req, reply) => reply.status(201).send(await sdkKeys.create(requestAuditContext(req), who(req.principal), req.body)));
  app.delete('/api/sdk-keys/:id', {
    config: { access: 'session' },
    schema: { tags, summary: 'Revoke an SDK key', params: Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9]{8}$' }) }), response: { 200: Type.Object({ key: SdkKeyBody }), ...errors(401, 403, 404, 409) } },
  }, async (req) => ({ key: await sdkKeys.revoke(requestAuditContext(req), who(req.principal), req.params.id) }));
};
