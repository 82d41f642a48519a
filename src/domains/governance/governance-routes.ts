import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest } from '../../platform/errors.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import { CHANGE_CLASSES, CHANGE_KINDS, RISK_TIERS, WindowConflictBody, WindowVerdictBody, type ChangeService } from '../changes/index.js';
import type { TemplateService } from './template-service.js';
import type { WindowService } from './window-service.js';

const Str = Type.String();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Globs = (what: string) => Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100, description: what });
const Person = Type.Object({ id: Str, email: Str });

const TemplateFields = {
  name: Type.String({ maxLength: 120, title: 'Name' }),
  kind: Type.Enum(CHANGE_KINDS, { title: 'Kind' }),
  services: Globs('Catalogue keys or globs the change’s components must all match (svc:checkout, svc:pay*, or a bare service name)'),
  environments: Type.Optional(Globs('Environments allowed (globs); empty: any, but a change must then name none')),
  pipelines: Type.Optional(Globs('Pipelines allowed (globs); empty: any')),
  repos: Type.Optional(Globs('Repositories allowed (globs); empty: any')),
  maxBlastServices: Type.Integer({ minimum: 1, maximum: 1000, title: 'Largest blast radius (services)' }),
  hops: Type.Union([Type.Literal(1), Type.Literal(2)], { title: 'Hops at most' }),
  description: Type.Optional(Type.String({ maxLength: 4000 })),
};
const TemplateInput = Type.Object(TemplateFields, { additionalProperties: false });
const TemplatePatch = Type.Partial(TemplateInput, { additionalProperties: false });
export const TemplateBody = Type.Object({
  id: Str, name: Str, kind: Str, services: Type.Array(Str), environments: Type.Array(Str), pipelines: Type.Array(Str), repos: Type.Array(Str),
  maxBlastServices: Type.Integer(), hops: Type.Integer(), description: Str, version: Type.Integer(),
  state: Type.Enum(['draft', 'certified', 'withdrawn'], { description: 'draft until a different owner or approver certifies it; an edit makes it a draft again' }),
  author: Type.Object({ id: Str, email: Str }, { description: 'Who drafted this version' }), certifiedBy: Nullable(Person), certifiedAt: Nullable(Str), certifiedVersion: Nullable(Type.Integer()),
  withdrawnReason: Nullable(Str), createdAt: Str, updatedAt: Str,
  demotedAt: Nullable(Type.String({ description: 'When the first rollback of a change it made standard took its certification away (demoteOnRollback)' })), demotedByChange: Nullable(Str),
}, { $id: 'ChangeTemplate' });
const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });

const SCHEDULE_WORDS = 'A recurring rule with a duration in a time zone {type: rrule, rrule, start, durationMinutes, timeZone, exdates?}, or a one-off {type: once, start, end} (ISO instants)';
const SCOPE_WORDS = 'Which changes the window applies to: {type: all}, {type: services, services: [keys or globs]}, {type: environments, environments: [...]}, or {type: criticality, atLeast}';
const Schedule = Type.Union([
  Type.Object({
    type: Type.Literal('rrule'), rrule: Type.String({ maxLength: 500, description: 'An RFC 5545 RRULE value, e.g. FREQ=WEEKLY;BYDAY=SA,SU' }),
    start: Type.String({ maxLength: 40, description: 'The first occurrence, local time YYYY-MM-DDTHH:MM in timeZone' }),
    durationMinutes: Type.Integer({ description: '1 – 10,080' }), timeZone: Type.String({ maxLength: 100, description: 'IANA, e.g. Europe/Berlin' }),
    exdates: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 1000, description: 'Local starts of occurrences to skip' })),
  }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('once'), start: Type.String({ maxLength: 40 }), end: Type.String({ maxLength: 40 }) }, { additionalProperties: false }),
], { description: SCHEDULE_WORDS });
const Scope = Type.Union([
  Type.Object({ type: Type.Literal('all') }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('services'), services: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 }) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('environments'), environments: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 }) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('criticality'), atLeast: Type.Enum(['standard', 'important', 'critical']) }, { additionalProperties: false }),
], { description: SCOPE_WORDS });
const WindowInput = Type.Object({
  name: Type.String({ maxLength: 200 }), kind: Type.Enum(['change', 'freeze']), schedule: Type.Unknown({ description: SCHEDULE_WORDS }),
  scope: Type.Optional(Type.Unknown({ description: SCOPE_WORDS })), description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
}, { additionalProperties: false });
const WindowPatch = Type.Partial(WindowInput, { additionalProperties: false });
export const WindowBody = Type.Object({
  id: Str, name: Str, kind: Type.Enum(['change', 'freeze']), schedule: Schedule, scope: Scope, description: Nullable(Str),
  feed: Nullable(Type.String({ description: 'The iCalendar feed it was imported from' })), sourceUid: Nullable(Str), createdAt: Str, updatedAt: Str,
}, { $id: 'ChangeWindow' });
const Occurrence = Type.Object({ windowId: Str, name: Str, kind: Type.Enum(['change', 'freeze']), start: Str, end: Str });

export const governanceRoutes: FastifyPluginAsyncTypebox<{ templates: TemplateService; windows: WindowService; changes: ChangeService }> = async (app, { templates, windows, changes }) => {
  const read = { access: { scope: 'changes:read' as const } };
  const write = { access: { scope: 'changes:write' as const } };
  const session = { access: 'session' as const };
  const ctx = requestAuditContext;
  const tags = ['governance'];

  app.get('/api/change-templates', { config: read, schema: { tags, summary: 'Standard-change templates: the pre-approved operations', response: { 200: Type.Object({ items: Type.Array(TemplateBody) }), ...errors(401, 403) } } },
    async (req) => ({ items: await templates.list(req.principal!) }));
  app.post('/api/change-templates', { config: write, schema: { tags, summary: 'Draft a template (owners and admins); a different owner or approver certifies it', body: TemplateInput, response: { 201: TemplateBody, ...errors(400, 401, 403, 409) } } },
    async (req, reply) => reply.status(201).send(await templates.create(ctx(req), req.principal!, req.body)));
  app.get('/api/change-templates/:id', { config: read, schema: { tags, summary: 'One template', params: Params, response: { 200: TemplateBody, ...errors(401, 403, 404) } } },
    async (req) => templates.get(req.principal!, req.params.id));
  app.put('/api/change-templates/:id', {
    config: write,
    schema: { tags, summary: 'Edit a template: a new version, no longer certified; changes it made standard that have not started drop to normal', params: Params, body: TemplatePatch, response: { 200: Type.Object({ template: TemplateBody, dropped: Type.Integer() }), ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => templates.edit(ctx(req), req.principal!, req.params.id, req.body));
  app.post('/api/change-templates/:id/certify', {
    config: session, schema: { tags, summary: 'Certify the current version (an owner or designated approver who did not draft it; 403 for its author)', params: Params, response: { 200: TemplateBody, ...errors(401, 403, 404, 409) } },
  }, async (req) => templates.certify(ctx(req), req.principal!, req.params.id));
  app.post('/api/change-templates/:id/withdraw', {
    config: session,
    schema: { tags, summary: 'Withdraw a template, saying why; changes it made standard that have not started drop to normal', params: Params, body: Type.Object({ reason: Type.String({ maxLength: 2000 }) }, { additionalProperties: false }), response: { 200: Type.Object({ template: TemplateBody, dropped: Type.Integer() }), ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => templates.withdraw(ctx(req), req.principal!, req.params.id, req.body.reason));

  app.get('/api/change-windows', { config: read, schema: { tags, summary: 'Change and freeze windows', response: { 200: Type.Object({ items: Type.Array(WindowBody) }), ...errors(401, 403) } } },
    async (req) => ({ items: await windows.list(req.principal!) }));
  app.post('/api/change-windows', { config: write, schema: { tags, summary: 'Add a window (owners and admins); a bad RRULE or time zone is a 400 naming the field', body: WindowInput, response: { 201: WindowBody, ...errors(400, 401, 403) } } },
    async (req, reply) => reply.status(201).send(await windows.create(ctx(req), req.principal!, req.body)));
  app.put('/api/change-windows/:id', { config: write, schema: { tags, summary: 'Change a window', params: Params, body: WindowPatch, response: { 200: WindowBody, ...errors(400, 401, 403, 404) } } },
    async (req) => windows.update(ctx(req), req.principal!, req.params.id, req.body));
  app.delete('/api/change-windows/:id', { config: write, schema: { tags, summary: 'Remove a window', params: Params, response: { 204: Type.Null(), ...errors(401, 403, 404) } } },
    async (req, reply) => {
      await windows.remove(ctx(req), req.principal!, req.params.id);
      return reply.status(204).send(null);
    });
  app.post('/api/change-windows/import', {
    config: write,
    schema: {
      tags, summary: 'Import freeze windows from an iCalendar feed (url) or file (ics); a re-import of the same feed updates, adds and removes its windows',
      body: Type.Object({
        url: Type.Optional(Type.String({ maxLength: 2000, description: 'An .ics address, fetched through the outbound guard' })),
        ics: Type.Optional(Type.String({ maxLength: 2 * 1024 * 1024, description: 'The calendar’s text' })),
        feed: Type.Optional(Type.String({ maxLength: 500, description: 'The feed’s name (default: the url); required with ics' })),
        scope: Type.Optional(Type.Unknown({ description: 'The scope of every imported freeze (default all)' })),
        timeZone: Type.Optional(Type.String({ maxLength: 100, description: 'For floating times and all-day events when the calendar names no zone (default UTC)' })),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          feed: Str, calendarName: Nullable(Str), created: Type.Integer(), updated: Type.Integer(), unchanged: Type.Integer(), removed: Type.Integer(),
          skipped: Type.Array(Type.Object({ uid: Nullable(Str), name: Nullable(Str), reason: Str })),
        }), ...errors(400, 401, 403),
      },
    },
  }, async (req) => windows.importIcs(ctx(req), req.principal!, req.body));
  app.post('/api/change-windows/check', {
    config: read,
    schema: {
      tags, summary: 'The one matcher, as a preview: may a change with these facts start at this instant (allowed, the window, why, the next opening)? With an end, also what the planned window runs into',
      body: Type.Object({
        at: Type.Optional(Type.String({ maxLength: 40, description: 'The planned start; default now' })),
        end: Type.Optional(Type.String({ maxLength: 40, description: 'The planned end: the answer then lists the conflicts of [at, end)' })),
        services: Type.Optional(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 100 })),
        environment: Type.Optional(Type.String({ maxLength: 200 })), criticality: Type.Optional(Nullable(Type.Enum(['standard', 'important', 'critical']))),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ ...WindowVerdictBody.properties, conflicts: Type.Optional(Type.Array(WindowConflictBody)) }), ...errors(400, 401, 403) },
    },
  }, async (req) => {
    const parse = (v: string | undefined, field: string) => {
      if (v === undefined) return undefined;
      const d = new Date(v);
      if (Number.isNaN(d.getTime())) throw badRequest(`${field} must be an ISO-8601 date-time`, field);
      return d;
    };
    const at = parse(req.body.at, 'at');
    const end = parse(req.body.end, 'end');
    const facts = { services: req.body.services ?? [], environments: req.body.environment ? [req.body.environment] : [], criticality: req.body.criticality ?? null };
    return windows.check(req.principal!.org.id, at, facts, end);
  });
  app.get('/api/change-calendar', {
    config: read,
    schema: {
      tags, summary: 'A month of windows and the planned changes inside it (the calendar)',
      querystring: Type.Object({ month: Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM (UTC)' }) }),
      response: {
        200: Type.Object({
          from: Str, to: Str, occurrences: Type.Array(Occurrence),
          changes: Type.Array(Type.Object({
            id: Str, displayId: Str, title: Str, status: Str, windowStart: Str, windowEnd: Str, changeClass: Type.Enum(CHANGE_CLASSES), riskTier: Nullable(Type.Enum(RISK_TIERS)),
            windowBypassed: Type.Boolean(),
          })),
        }), ...errors(400, 401, 403),
      },
    },
  }, async (req) => {
    const [y, m] = req.query.month.split('-').map(Number) as [number, number];
    const from = new Date(Date.UTC(y, m - 1, 1));
    const to = new Date(Date.UTC(y, m, 1));
    const occurrences = await windows.occurrences(req.principal!, from, to);
    const listed = await changes.list(req.principal!, { since: from.toISOString(), until: to.toISOString(), source: 'changeledger', limit: 500 });
    const planned = listed.changes.flatMap((e) => ('changeClass' in e ? [{
      id: e.id, displayId: e.displayId, title: e.title, status: e.status, windowStart: e.windowStart, windowEnd: e.windowEnd, changeClass: e.changeClass, riskTier: e.riskTier, windowBypassed: e.windowBypassed !== null,
    }] : []));
    return { from: from.toISOString(), to: to.toISOString(), occurrences, changes: planned };
  });
};
