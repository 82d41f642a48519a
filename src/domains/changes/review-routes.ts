/** Post-implementation reviews over HTTP: a change's review (read, write a new version) and the organisation's due list. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import { REVIEW_LIMITS, type ReviewService } from './review-service.js';

const Str = Type.String();
const L = REVIEW_LIMITS;
const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });
const FollowUpInput = Type.Object({
  text: Type.String({ minLength: 1, maxLength: L.followUpText, title: 'Follow-up' }),
  owner: Type.String({ minLength: 1, maxLength: L.followUpOwner, title: 'Owner', description: 'Who does it: an e-mail address or a name' }),
  due: Type.String({ maxLength: 10, title: 'Due', description: 'YYYY-MM-DD', examples: ['2026-04-30'] }),
}, { additionalProperties: false });
const ReviewInput = Type.Object({
  summary: Type.String({ maxLength: L.text, title: 'Summary', description: `What happened: at least ${L.summaryMin} characters` }),
  cause: Type.Optional(Type.String({ maxLength: L.text, title: 'Cause', default: '' })),
  whatWentWell: Type.Optional(Type.String({ maxLength: L.text, title: 'What went well' })),
  followUps: Type.Optional(Type.Array(FollowUpInput, { maxItems: L.followUps, title: 'Follow-ups' })),
}, { additionalProperties: false });
const ReviewBody = Type.Object({
  changeId: Str, version: Type.Integer(), summary: Str, cause: Str, whatWentWell: Str,
  followUps: Type.Array(Type.Object({ text: Str, owner: Str, due: Str })),
  author: Type.Object({ id: Str, email: Str, name: Str }), createdAt: Str,
}, { $id: 'ChangeReview' });
const ReviewView = Type.Object({
  required: Type.Boolean({ description: 'An emergency, a rollback or an outage or significant verdict asks for a review once the change has run' }),
  reasons: Type.Array(Str, { description: 'Why, in words ("an emergency change", "it was rolled back", "its verdict was outage")' }),
  review: Type.Union([ReviewBody, Type.Null()], { description: 'The latest version; null before the first' }),
  versions: Type.Integer({ description: 'How many versions were written' }),
});
const DueList = Type.Object({
  items: Type.Array(Type.Object({
    changeId: Str, displayId: Str, title: Str, finishedAt: Str, reasons: Type.Array(Str),
    dueSince: Type.String({ description: 'When the review became due: the change’s finish' }),
    overdue: Type.Boolean({ description: 'More than 3 days since the finish' }),
  })),
});

export const reviewRoutes: FastifyPluginAsyncTypebox<{ reviews: ReviewService }> = async (app, { reviews }) => {
  const tags = ['changes'];
  app.get('/api/changes/:id/review', {
    config: { access: { scope: 'changes:read' } },
    schema: { tags, summary: 'The post-implementation review of a change: whether it needs one and why, the latest version, how many versions', params: Params, response: { 200: ReviewView, ...errors(401, 403, 404) } },
  }, async (req) => reviews.view(req.principal!, req.params.id));

  app.post('/api/changes/:id/review', {
    config: { access: 'session' },
    schema: {
      tags, summary: 'Write the post-implementation review of a change that has run (a new version; its owner, an owner or admin, or an approver, signed in). 409 before it ran',
      params: Params, body: ReviewInput, response: { 201: ReviewView, ...errors(400, 401, 403, 404, 409) },
    },
  }, async (req, reply) => reply.code(201).send(await reviews.submit(requestAuditContext(req), req.principal!, req.params.id, req.body)));

  app.get('/api/reviews/due', {
    config: { access: { scope: 'changes:read' } },
    schema: { tags, summary: 'The organisation’s changes that need a post-implementation review and have none yet, oldest finish first', response: { 200: DueList, ...errors(401, 403) } },
  }, async (req) => reviews.due(req.principal!));
};
