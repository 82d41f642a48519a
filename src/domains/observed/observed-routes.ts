import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../platform/errors.js';
import { errors } from '../../platform/http/schemas.js';
import { FeedEntryBody, NeverCapturedBody } from '../changes/change-list-schemas.js';
import type { ObservedFeed } from './observed-feed.js';

/** The page of one observed change: who, what, where, the scrubbed diff, the source event. */
export const observedRoutes: FastifyPluginAsyncTypebox<{ feed: ObservedFeed }> = async (app, { feed }) => {
  app.get('/api/observed-changes/:id', {
    config: { access: { scope: 'changes:read' as const } },
    schema: {
      tags: ['changes'], summary: 'One observed change, with its own fields under detail (action, resource, location, params, serviceVia, changeRef …)',
      params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
      response: { 200: Type.Object({ change: FeedEntryBody, neverCaptured: NeverCapturedBody }), ...errors(401, 403, 404) },
    },
  }, async (req) => {
    const orgId = req.principal!.org.id;
    const change = await feed.observed(orgId, req.params.id);
    if (!change) throw notFound(`no observed change ${req.params.id}`);
    return { change, neverCaptured: await feed.neverCaptured(orgId) } as never;
  });
};
