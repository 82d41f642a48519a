import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import { timeBound } from '../../platform/clock.js';
import { badRequest, forbidden, unauthorized } from '../../platform/errors.js';
import { publicRequest } from './flag-request-store.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import type { FlagSource } from './flag.js';
import type { FlagRequestService } from './flag-request-service.js';
import type { FlagService, WriteMeta } from './flag-service.js';
import * as S from './flag-schemas.js';

export type FlagRouteDeps = { flags: FlagService; requests: FlagRequestService; clock: Clock };

type Provenance = { reason?: string; source?: FlagSource; gitops?: WriteMeta['gitops']; automation?: WriteMeta['automation']; breakGlass?: boolean; changeId?: string };

function orgOf(req: FastifyRequest): string {
  const org = req.principal?.org;
  if (!org) throw unauthorized();
  return org.id;
}

function metaOf(req: FastifyRequest, body: Provenance): WriteMeta {
  // Unless the write names its source, it is the request's channel: ui, api, or cli (our clients).
  const source = body.source ?? (requestAuditContext(req).source as FlagSource);
  if (source === 'gitops' && !body.gitops) throw badRequest('gitops needs the commit SHA and the deploy run that applied it', 'gitops');
  if (source === 'automation' && !body.automation) throw badRequest('automation must name itself and what triggered it', 'automation');
  return { reason: body.reason ?? '', source, gitops: body.gitops ?? null, automation: body.automation ?? null, userId: req.principal?.user.id, breakGlass: body.breakGlass === true, changeId: body.changeId ?? null };
}

export const flagRoutes: FastifyPluginAsyncTypebox<FlagRouteDeps> = async (app, { flags, requests, clock }) => {
  const tags = ['flags'];
  const read = { access: { scope: 'flags:read' as const } };
  const write = { access: { scope: 'flags:write' as const } };

  app.get('/api/environments', { config: read, schema: { tags, summary: 'Environments of the organisation', response: { 200: S.EnvironmentList, ...errors(401, 403) } } },
    async (req) => ({ items: await flags.environments(orgOf(req)) }));

  app.post('/api/environments', { config: write, schema: { tags, summary: 'Add an environment; every flag gets an off state in it', body: S.EnvironmentInput, response: { 201: S.EnvironmentBody, ...errors(400, 401, 403, 409) } } },
    async (req, reply) => reply.status(201).send(await flags.createEnvironment(requestAuditContext(req), orgOf(req), req.body)));

  app.get('/api/flags', { config: read, schema: { tags, summary: 'Flags, optionally under a namespace (ops.payments.*)', querystring: S.FlagListQuery, response: { 200: S.FlagList, ...errors(400, 401, 403) } } },
    async (req) => ({ items: await flags.list(orgOf(req), req.query.namespace) }));

  app.post('/api/flags', { config: write, schema: { tags, summary: 'Create a flag (off in every environment)', body: S.NewFlagInput, response: { 201: S.FlagBody, ...errors(400, 401, 403, 409) } } },
    async (req, reply) => {
      const { reason: _r, source: _s, gitops: _g, automation: _a, breakGlass: _b, ...input } = req.body;
      return reply.status(201).send(await flags.createFlag(requestAuditContext(req), orgOf(req), input as Parameters<FlagService['createFlag']>[2], metaOf(req, req.body)));
    });

  app.get('/api/flags/audit', {
    config: read,
    schema: { tags, summary: 'Flag change records, newest first: by namespace, actor, environment, owning service and window', querystring: S.FlagAuditListQuery, response: { 200: S.FlagAuditPage, ...errors(400, 401, 403) } },
  }, async (req) => {
    const now = clock.now();
    const { namespace, actor, env, service, cursor, limit = 100 } = req.query;
    const since = timeBound(req.query.since, now, 'since');
    const until = timeBound(req.query.until, now, 'until');
    return flags.audit(orgOf(req), { namespace, actor, env, since, until, service }, limit, cursor || undefined);
  });

  app.post('/api/flags/bulk', { config: write, schema: { tags, summary: 'Change many flags at once (a kill switch): one record per flag, one correlation id', body: S.BulkInput, response: { 200: S.BulkResultBody, ...errors(400, 401, 403, 404) } } },
    async (req) => {
      const { namespace, keys, env, enabled, rollout } = req.body;
      if (!namespace === !keys) throw badRequest('give either namespace or keys', namespace ? 'keys' : 'namespace');
      if (enabled === undefined && rollout === undefined) throw badRequest('say what to change: enabled or rollout', 'enabled');
      return flags.bulkSet(requestAuditContext(req), orgOf(req), { namespace, keys }, env, { enabled, rollout }, metaOf(req, req.body));
    });

  app.get('/api/flags/:key', { config: read, schema: { tags, summary: 'One flag with its state in each environment', params: S.KeyParams, response: { 200: S.FlagBody, ...errors(401, 403, 404) } } },
    async (req) => flags.get(orgOf(req), req.params.key));

  app.get('/api/flags/:key/history', { config: read, schema: { tags, summary: 'Every change record of one flag, newest first', params: S.KeyParams, querystring: S.FlagAuditQuery, response: { 200: S.FlagAuditPage, ...errors(400, 401, 403, 404) } } },
    async (req) => {
      await flags.get(orgOf(req), req.params.key);
      const { env, cursor, limit = 100 } = req.query;
      return flags.audit(orgOf(req), { namespace: req.params.key, env }, limit, cursor || undefined);
    });

  app.put('/api/flags/:key/environments/:env', {
    config: write,
    schema: {
      tags, summary: 'Change a flag in one environment: toggle, value, rules or rollout. 200 with the record written in the same transaction, or 202 with a change request when approval is needed',
      params: S.KeyEnvParams, body: S.StatePatchInput, response: { 200: S.WriteResultBody, 202: S.ProposedBody, ...errors(400, 401, 403, 404) },
    },
  }, async (req, reply) => {
    const { enabled, value, rules, rollout } = req.body;
    if (enabled === undefined && value === undefined && rules === undefined && rollout === undefined) throw badRequest('say what to change: enabled, value, rules or rollout', 'enabled');
    const out = await flags.setState(requestAuditContext(req), orgOf(req), req.params.key, req.params.env, { enabled, value: value as never, rules: rules as never, rollout }, metaOf(req, req.body));
    return out.result === 'proposed' ? reply.status(202).send(out) : reply.send(out);
  });

  app.put('/api/flags/:key', {
    config: write,
    schema: { tags, summary: 'Change a flag’s description, owner, risk, tags or approvals (recorded)', params: S.KeyParams, body: S.FlagSettingsInput, response: { 200: S.FlagBody, ...errors(400, 401, 403, 404) } },
  }, async (req) => {
    const { reason: _r, source: _s, gitops: _g, automation: _a, breakGlass: _b, ...settings } = req.body;
    return flags.updateSettings(requestAuditContext(req), orgOf(req), req.params.key, settings, metaOf(req, req.body));
  });

  app.put('/api/environments/:key', {
    config: { access: 'session' },
    schema: { tags, summary: 'Set an environment’s approval policy (owners and admins)', params: S.EnvParams, body: S.EnvironmentPolicyInput, response: { 200: S.EnvironmentBody, ...errors(400, 401, 403, 404) } },
  }, async (req) => {
    if (req.principal?.role === 'member') throw forbidden('only owners and admins set approval policies');
    return flags.updateEnvironment(requestAuditContext(req), orgOf(req), req.params.key, req.body);
  });

  const Policy = Type.Object({ ticketPattern: Type.String(), isDefault: Type.Boolean() });
  app.get('/api/settings/flags', { config: { access: 'session' }, schema: { tags, summary: 'The organisation’s flag policy: the ticket reference pattern a high-risk reason may carry', response: { 200: Policy, ...errors(401, 403) } } },
    async (req) => flags.policy(orgOf(req)));
  app.put('/api/settings/flags', {
    config: { access: 'session' },
    schema: { tags, summary: 'Set the ticket reference pattern (a regular expression in RE2 syntax, run in linear time: no backreferences or lookaround; null for the default)', body: Type.Object({ ticketPattern: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()]) }, { additionalProperties: false }), response: { 200: Policy, ...errors(400, 401, 403) } },
  }, async (req) => flags.updatePolicy(requestAuditContext(req), req.principal!, req.body));

  // Decisions are for people: these routes are session-only, so tokens get 403.
  app.get('/api/flags/requests', { config: read, schema: { tags, summary: 'Flag change requests', querystring: S.RequestQuery, response: { 200: S.RequestList, ...errors(400, 401, 403) } } },
    async (req) => ({ items: (await requests.list(orgOf(req), req.query)).map(publicRequest) }));

  app.post('/api/flags/requests/:id/approve', {
    config: { access: 'session' },
    schema: { tags, summary: 'Approve a change request (not your own); the last needed approval applies it', params: S.RequestParams, body: S.ApproveInput, response: { 200: S.DecisionBody, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => requests.approve(requestAuditContext(req), orgOf(req), req.params.id, { id: req.principal!.user.id, email: req.principal!.user.email }));

  app.post('/api/flags/requests/:id/reject', {
    config: { access: 'session' },
    schema: { tags, summary: 'Reject a change request', params: S.RequestParams, body: S.RejectInput, response: { 200: S.DecisionBody, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => ({ changeRequest: await requests.reject(requestAuditContext(req), orgOf(req), req.params.id, { id: req.principal!.user.id, email: req.principal!.user.email }, req.body.comment) }));
};
