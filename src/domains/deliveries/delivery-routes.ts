import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { forbidden } from '../../platform/errors.js';
import { ownOrganization, requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import { Step, TicketingInput, TicketRefBody } from '../changes/change-routes.js';
import { ChangeService } from '../changes/change-service.js';
import { CALLBACK_FORMATS } from '../changes/change-store.js';
import type { DeliveryService } from './delivery-service.js';
import { TICKET_KINDS } from './ticketing/ticket-types.js';

const Str = Type.String();
const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });
const Attempt = Type.Object({
  attempt: Type.Integer(), at: Str, httpStatus: Type.Union([Type.Integer(), Type.Null()]), durationMs: Type.Integer(),
  error: Type.Union([Str, Type.Null()]), via: Type.Enum(['server']), address: Type.Union([Str, Type.Null()]),
});
const Delivery = Type.Intersect([Step, Type.Object({ attemptLog: Type.Array(Attempt) })]);
const ChangeRef = Type.Object({ id: Str, displayId: Str, title: Str }, { description: 'The change the delivery belongs to' });
const TicketTest = Type.Object({
  kind: Type.Enum(TICKET_KINDS), ok: Type.Boolean(), message: Str,
  steps: Type.Array(Type.Object({ name: Str, ok: Type.Boolean(), status: Type.Union([Type.Integer(), Type.Null()]), detail: Type.Union([Str, Type.Null()]) })),
}, { description: 'One row per probe step' });

export const deliveryRoutes: FastifyPluginAsyncTypebox<{ deliveries: DeliveryService; changes: ChangeService }> = async (app, { deliveries, changes }) => {
  const tags = ['changes'];

  app.get('/api/changes/:id/deliveries', {
    config: { access: { scope: 'changes:read' as const } },
    schema: {
      tags, summary: 'Every callback and ticket step of a change with each attempt (the Pipeline card)', params: Params,
      response: { 200: Type.Object({ callbackUrl: Type.Union([Str, Type.Null()]), callbackFormat: Type.Enum(CALLBACK_FORMATS, { description: 'changeledger or cloudevents (CloudEvents 1.0, structured mode)' }), ticket: Type.Union([TicketRefBody, Type.Null()]), deliveries: Type.Array(Type.Intersect([Delivery, Type.Object({ channel: Type.Enum(['callback', 'ticket']) })])) }), ...errors(401, 403, 404) },
    },
  }, async (req) => {
    const c = await changes.get(req.principal!, req.params.id);
    return { callbackUrl: c.callbackUrl, callbackFormat: c.callbackFormat, ticket: c.ticket, deliveries: await deliveries.forChange(c.id) };
  });

  app.get('/api/deliveries', {
    config: { access: { scope: 'changes:read' as const } },
    schema: {
      tags, summary: 'The organisation’s callbacks and ticket steps in one state (failed by default), newest first, each with its change: what needs attention',
      querystring: Type.Object({
        state: Type.Optional(Type.Enum(['failed', 'retrying'], { default: 'failed', description: 'failed: given up; retrying: waiting for its next attempt' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ deliveries: Type.Array(Type.Intersect([Step, Type.Object({ channel: Type.Enum(['callback', 'ticket']), change: ChangeRef })])) }), ...errors(400, 401, 403) },
    },
  }, async (req) => ({ deliveries: await deliveries.inState(req.principal!.org.id, req.query.state ?? 'failed', req.query.limit ?? 50) }));

  app.post('/api/changes/:id/callback-test', {
    config: { access: 'session' as const },
    schema: { tags, summary: 'Send a signed change.test to the change’s callbackUrl now (write access; people only)', params: Params, response: { 200: Type.Object({ delivery: Delivery }), ...errors(400, 401, 403, 404) } },
  }, async (req) => {
    const c = await changes.get(req.principal!, req.params.id);
    return { delivery: await deliveries.callbackTest(requestAuditContext(req), req.principal!, c, ChangeService.canWrite(req.principal!, c)) };
  });

  app.post('/api/organizations/:id/change-settings/ticketing-test', {
    config: { access: 'session' as const },
    schema: {
      tags, summary: 'Probe the stored ticket destination, or a draft {ticketing, allowPrivateCallbacks} merged over it; nothing is saved (audited org_change.ticketing_test)',
      params: Params,
      body: Type.Object({ ticketing: Type.Optional(Type.Union([TicketingInput, Type.Null()])), allowPrivateCallbacks: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      response: { 200: TicketTest, ...errors(400, 401, 403, 404) },
    },
  }, async (req) => {
    const m = ownOrganization(req, req.params.id);
    if (m.role === 'member') throw forbidden('only owners and admins test the ticket destination');
    return deliveries.ticketingTest(requestAuditContext(req), m.org.id, req.body);
  });
};
