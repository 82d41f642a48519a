import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import { timeBound } from '../../platform/clock.js';
import { unauthorized } from '../../platform/errors.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import type { FlagService } from '../flags/index.js';
import { FlagRecordBody } from '../flags/flag-schemas.js';
import type { IncidentService } from './incident-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

const SettingsBody = Type.Object({ channelConfigured: Type.Boolean(), channelHost: Type.Union([Type.String(), Type.Null()]), pagerdutySigning: Type.Boolean() });
const SettingsInput = Type.Object(
  {
    channelUrl: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 2000, description: 'A Slack-compatible incoming webhook URL (Slack, Mattermost, Rocket.Chat)' }), Type.Null()])),
    pagerdutySecret: Type.Optional(Type.Union([Type.String({ minLength: 8, maxLength: 500 }), Type.Null()])),
  },
  { additionalProperties: false },
);
const Received = Type.Object({
  incident: Type.Union([Type.Object({ id: Type.String(), title: Type.String(), services: Type.Array(Type.String()), startedAt: Type.String(), url: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  flagChanges: Type.Array(FlagRecordBody),
  delivery: Type.Enum(['queued', 'no channel configured', 'duplicate', 'ignored']),
  note: Type.Optional(Type.String()),
});

function orgOf(req: FastifyRequest) {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

export const incidentRoutes: FastifyPluginAsyncTypebox<{ incidents: IncidentService; flags: FlagService; clock: Clock }> = async (app, { incidents, flags, clock }) => {
  const tags = ['incidents'];
  // The PagerDuty signature covers the exact bytes sent, so this plugin keeps them.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    req.rawBody = body as string;
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });

  app.post('/api/incidents/hooks/:source', {
    config: { access: { scope: 'flags:read' } },
    schema: {
      tags, summary: 'An incident opened: answer and post the flag changes of its services in the hour before (PagerDuty v3 webhook, or {title, services, startedAt})',
      params: Type.Object({ source: Type.Enum(['pagerduty', 'generic']) }), body: Type.Unknown(), response: { 202: Received, ...errors(400, 401, 403) },
    },
  }, async (req, reply) => {
    const sig = req.headers['x-pagerduty-signature'];
    const out = await incidents.receive(requestAuditContext(req), orgOf(req).org.id, req.params.source, req.rawBody ?? '', req.body, typeof sig === 'string' ? sig : undefined);
    return reply.status(202).send(out);
  });

  app.get('/api/flags/recent', {
    config: { access: { scope: 'flags:read' } },
    schema: {
      tags: ['flags'], summary: 'Recent flag changes of the flags some services own (default: the last hour)',
      querystring: Type.Object({ services: Type.String({ minLength: 1, maxLength: 2000, description: 'Comma-separated service names' }), since: Type.Optional(Type.String({ maxLength: 40 })), until: Type.Optional(Type.String({ maxLength: 40 })) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(FlagRecordBody) }), ...errors(400, 401, 403) },
    },
  }, async (req) => {
    const now = clock.now();
    const since = timeBound(req.query.since, now, 'since') ?? new Date(now.getTime() - 3_600_000);
    const until = timeBound(req.query.until, now, 'until');
    const services = req.query.services.split(',').map((s) => s.trim()).filter(Boolean);
    return { items: await flags.recent(orgOf(req).org.id, services, since, until) };
  });

  app.get('/api/settings/incidents', { config: { access: 'session' }, schema: { tags, summary: 'Where incidents post', response: { 200: SettingsBody, ...errors(401, 403) } } },
    async (req) => incidents.settings(orgOf(req).org.id));
  app.put('/api/settings/incidents', { config: { access: 'session' }, schema: { tags, summary: 'Set the channel (incoming webhook URL) and PagerDuty signing secret; both are stored sealed', body: SettingsInput, response: { 200: SettingsBody, ...errors(400, 401, 403) } } },
    async (req) => incidents.updateSettings(requestAuditContext(req), orgOf(req), req.body));
};
