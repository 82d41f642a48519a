/**
 * Settings → Unmanaged changes (people, main listener) and the ITSM webhooks (ServiceNow, Jira:
 * the pipeline listener, authenticated by the organisation's ITSM webhook token).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { badRequest, unauthorized } from '../../../platform/errors.js';
import { requestAuditContext } from '../../../platform/http/access.js';
import { errors } from '../../../platform/http/schemas.js';
import type { UnmanagedService } from './unmanaged-service.js';
import type { UnmanagedSettingsInput } from './unmanaged-settings.js';
import { ITSM_SYSTEMS } from './unmanaged-types.js';

const Str = Type.String();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Match = Type.Object({
  states: Type.Optional(Type.Array(Str, { description: 'Ticket states that count (case-blind); none: any state but a closed or cancelled one' })),
  window: Type.Optional(Type.Boolean({ description: 'The write\'s time must fall in the ticket\'s planned window (default true)' })),
  items: Type.Optional(Type.Boolean({ description: 'One of the ticket\'s configuration items or services must name the write\'s service (default true)' })),
  assignmentGroups: Type.Optional(Type.Array(Str, { description: 'Assignment groups whose tickets count; none: any' })),
  jiraFields: Type.Optional(Type.Object({ plannedStart: Type.Optional(Str), plannedEnd: Type.Optional(Str), items: Type.Optional(Str), assignmentGroup: Type.Optional(Str) }, { description: 'The Jira fields (customfield_…) that hold these' })),
});

const Settings = Type.Object({
  referenceRule: Type.Boolean({ description: 'Every applied write from CloudTrail, the Azure activity log or the Kubernetes audit webhook needs a reference' }),
  authorizedPrincipals: Type.Array(Str, { description: 'Globs over a principal\'s names: system:serviceaccount:ci:*, arn:aws:iam::*:role/deploy-*' }),
  itsmChangeMatch: Match,
  deniedAccessToSecops: Type.Boolean({ description: 'Denied attempts open or join a case per principal · account · UTC hour' }),
  itsmTokenSet: Type.Boolean(), itsmTokenMintedAt: Nullable(Str), updatedAt: Nullable(Str),
});

const SettingsInput = Type.Object({
  referenceRule: Type.Optional(Type.Unknown({ title: 'Reference rule', description: 'true or false; owners only' })),
  authorizedPrincipals: Type.Optional(Type.Unknown({ title: 'Authorized principals' })),
  itsmChangeMatch: Type.Optional(Type.Unknown({ title: 'Ticket matching' })),
  deniedAccessToSecops: Type.Optional(Type.Unknown({ title: 'Denied attempts open a case' })),
}, { additionalProperties: false });

const TicketView = Type.Object({
  system: Type.Enum([...ITSM_SYSTEMS]), key: Str, title: Str, state: Nullable(Str), approval: Nullable(Str), plannedStart: Nullable(Str), plannedEnd: Nullable(Str),
  items: Type.Array(Str), assignmentGroup: Nullable(Str), link: Nullable(Str), updatedAt: Nullable(Str),
  verified: Type.Boolean({ description: 'It arrived with the ITSM webhook token: only such a ticket vouches for a write' }),
  unverifiedReason: Nullable(Str), firstReceivedAt: Str, receivedAt: Str,
});

const TicketAnswer = Type.Object({
  ticket: TicketView, counts: Type.Boolean({ description: 'It arrived with the ITSM webhook token, so it can vouch for a write (while its state, window and items match)' }),
  created: Type.Boolean(), refreshed: Type.Boolean(), why: Nullable(Type.String({ description: 'Why it does not count, or why nothing changed' })),
});

/** The ITSM tools post bodies of their own making; a change ticket is far below this. */
const ITSM_BODY_LIMIT = 1024 * 1024;
const ITSM_PER_MINUTE = 600;

function person(req: FastifyRequest) {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

export const unmanagedRoutes: FastifyPluginAsyncTypebox<{ unmanaged: UnmanagedService }> = async (app, { unmanaged: u }) => {
  const tags = ['unmanaged'];
  const config = { access: 'session' as const };
  app.get('/api/unmanaged-settings', {
    config, schema: { tags, summary: 'The reference rule, authorized principals, ticket matching and the denied-attempt cases (the defaults while none is saved)', response: { 200: Settings, ...errors(401, 403) } },
  }, async (req) => u.settings(person(req).org.id));
  app.put('/api/unmanaged-settings', {
    config, schema: { tags, summary: 'Set any of them (owners and admins; only an owner switches the reference rule); audited unmanaged_settings.updated', body: SettingsInput, response: { 200: Settings, ...errors(400, 401, 403) } },
  }, async (req) => u.updateSettings(requestAuditContext(req), person(req), req.body as UnmanagedSettingsInput));
  app.post('/api/unmanaged-settings/dry-run', {
    config, schema: {
      tags, summary: 'With these settings (unsaved; the rule taken as on), how many of the last 7 days\' audit-log writes would have been flagged, and what vouched for the rest. Writes nothing',
      body: SettingsInput,
      response: {
        200: Type.Object({
          days: Type.Integer(), judged: Type.Integer(), flagged: Type.Integer(), authorized: Type.Integer(),
          byReference: Type.Object({ change_id: Type.Integer(), itsm_ticket: Type.Integer(), change_window: Type.Integer(), authorized_principal: Type.Integer() }),
          examples: Type.Array(Type.Object({ id: Str, displayId: Str, title: Str, principal: Str, at: Str, reason: Str })),
          truncated: Type.Boolean({ description: 'More writes than the dry run reads (20,000): the newest were judged' }),
        }),
        ...errors(400, 401, 403),
      },
    },
  }, async (req) => u.dryRun(person(req), req.body as UnmanagedSettingsInput));
  app.post('/api/organizations/:id/itsm-webhook-token', {
    config, schema: {
      tags, summary: 'A new ITSM webhook token, answered once (only its hash is kept); the previous one stops counting. Audited organization.itsm_webhook_token',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, title: 'Organisation' }) }),
      response: { 201: Type.Object({ token: Str, mintedAt: Str }), ...errors(401, 403, 404) },
    },
  }, async (req, reply) => reply.status(201).send(await u.mintItsmToken(requestAuditContext(req), person(req), req.params.id)));
  app.get('/api/itsm/tickets', {
    config, schema: { tags, summary: 'The change tickets received from ITSM tools, newest first (200 at most)', response: { 200: Type.Object({ tickets: Type.Array(TicketView) }), ...errors(401, 403) } },
  }, async (req) => ({ tickets: await u.tickets(person(req).org.id) }));

  for (const system of ITSM_SYSTEMS) {
    app.post(`/api/itsm/${system}`, {
      config: { access: 'source', pipelineBodyLimit: ITSM_BODY_LIMIT, tokensPerMinute: ITSM_PER_MINUTE },
      bodyLimit: ITSM_BODY_LIMIT,
      schema: {
        tags, summary: `A change ticket from ${system === 'servicenow' ? 'ServiceNow' : 'Jira'}: stored, refreshed by a re-send; it vouches for writes only when it carries the ITSM webhook token`,
        description: 'Authorization: Bearer <the organisation\'s ITSM webhook token>. Without it, ?org=<slug> names the organisation and the ticket is kept but never counts as a reference.',
        querystring: Type.Object({ org: Type.Optional(Type.String({ minLength: 1, maxLength: 63, title: 'Organisation' })) }),
        body: Type.Unknown({ description: system === 'servicenow' ? 'A change_request record, flat or as the Table API\'s {result: {…}}' : 'A Jira issue webhook (jira:issue_created, jira:issue_updated)' }),
        response: { 200: TicketAnswer, 201: TicketAnswer, ...errors(400, 401, 404, 413, 429) },
      },
    }, async (req, reply) => {
      const authz = req.headers.authorization;
      let bearer: string | null = null;
      if (typeof authz === 'string' && authz.trim() !== '') {
        const m = /^bearer\s+(\S+)$/i.exec(authz.trim());
        if (!m) throw unauthorized('the Authorization header must be "Bearer <ITSM webhook token>"');
        bearer = m[1]!;
      }
      if (req.body === undefined || req.body === null) throw badRequest('the body must be the ticket as JSON', 'body');
      const answer = await u.receiveTicket({ source: 'webhook', requestId: req.id }, system, bearer, req.query.org ?? null, req.body);
      return reply.status(answer.created ? 201 : 200).send(answer);
    });
  }
};
