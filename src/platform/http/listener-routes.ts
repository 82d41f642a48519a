import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Type } from 'typebox';
import { errors } from './schemas.js';

/** A listener's address as people type it: localhost for a wildcard or localhost bind. */
export function listenerUrl(app: FastifyInstance, host: string): string | null {
  const addr = app.server.address() as AddressInfo | string | null;
  if (addr === null || typeof addr === 'string') return null;
  const shown = host === 'localhost' || host === '0.0.0.0' || host === '::' ? 'localhost' : addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  return `http://${shown}:${addr.port}`;
}

export const PipelineListenerBody = Type.Object(
  {
    url: Type.Union([Type.String(), Type.Null()], { description: 'Where the pipeline listener listens (http://host:port); null while it does not listen' }),
  },
  { $id: 'PipelineListener', additionalProperties: false },
);

/** Where pipelines and scripts reach this server with an API token, for the pages that say so. */
export async function listenerRoutes(app: FastifyInstance, deps: { pipelineUrl: () => string | null }): Promise<void> {
  app.get('/api/pipeline-listener', {
    config: { access: 'session' },
    schema: { tags: ['session'], summary: 'Where the pipeline listener (API tokens) listens', response: { 200: PipelineListenerBody, ...errors(401, 403) } },
  }, async () => ({ url: deps.pipelineUrl() }));
}
