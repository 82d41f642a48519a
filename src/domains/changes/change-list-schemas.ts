/** TypeBox schemas of the one change list (GET /api/changes), its entries and a change's receipts. */
import { Type } from 'typebox';
import { OBSERVED_KINDS, ORIGINS } from './change-feed.js';

const Str = Type.String();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Flag = (description: string) => Type.Optional(Type.Literal('true', { description }));

export const ListQuerystring = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 300, description: 'Comma-separated statuses: a planned change’s, or recorded (flag writes and observed changes)' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the title or of a service, or a CHG- id' })),
  mine: Type.Optional(Type.Literal('1', { description: 'Planned changes the caller registered (flag writes and observed changes left out)' })),
  criticality: Type.Optional(Type.String({ maxLength: 100, description: 'Comma-separated: critical, important, standard, pending (a tier still to classify); planned changes only' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 200 })),
  since: Type.Optional(Type.String({ maxLength: 40, description: 'A planned change whose window ends at or after this, anything else that happened at or after it: a duration back from now (24h, 7d) or an ISO-8601 time' })),
  until: Type.Optional(Type.String({ maxLength: 40, description: 'A planned change whose window starts at or before this, anything else that happened by then: a duration back from now or an ISO-8601 time' })),
  awaiting: Type.Optional(Type.Literal('me', { description: 'Only changes waiting for the signed-in person’s decision: a designated approver, not the requester, not yet decided' })),
  component: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Only planned changes with this entity key among their components or in their blast radius scope' })),
  kind: Type.Optional(Type.String({ maxLength: 300, description: `Comma-separated kinds: deploy, config, infra, other (planned), ${OBSERVED_KINDS.join(', ')} (observed), flag` })),
  source: Type.Optional(Type.String({ maxLength: 300, description: 'Comma-separated: changeledger (registered), flags, or a connection kind (github, gitlab, argocd, kubernetes, aws, azure, pagerduty, cloudevents, webhook)' })),
  mode: Type.Optional(Type.String({ maxLength: 300, description: 'Comma-separated channels: ui, api, pipeline (registered), ui, api, cli, gitops, automation (flag writes), an observed event kind, or platform (everything changeledger recorded itself)' })),
  service: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'A service key or name: a planned change’s component, a flag’s owner, an observed change’s linked service' })),
  unauthorized: Flag('Only changes judged unauthorized (authorized = false); never a denied attempt'),
  denied: Flag('Only denied attempts (writes the source refused); without it they are left out'),
  requests: Flag('Only planned changes and flag change requests, those waiting on a person first'),
  include_proposed: Flag('Flag change requests waiting for approval are listed too'),
}, { additionalProperties: false });

export const PrincipalBody = Type.Object({
  kind: Type.Enum(['person', 'token', 'service', 'system', 'unknown']), name: Str, id: Nullable(Str), detail: Type.Record(Str, Str),
}, { description: 'Who made the change, whatever the source' });

/** The fields every entry of the one list carries (RecordCommon). */
export const recordFields = {
  source: Type.String({ description: 'changeledger, flags, or the connection kind' }),
  mode: Type.String({ description: 'The channel: ui, api, pipeline; a flag write’s source; an observed change’s event kind' }),
  at: Type.String({ description: 'A planned change’s window start, a flag write’s time, an observed event’s time' }),
  principal: PrincipalBody,
  service: Type.String({ description: 'The main service key; "" when none (unmapped)' }), services: Type.Array(Str),
  diff: Nullable(Type.String({ description: 'Scrubbed of secrets, at most 2,048 characters' })),
  denied: Type.Boolean({ description: 'A denied attempt: the source refused the write' }),
  authorized: Nullable(Type.Boolean({ description: 'null until the unauthorized-change rules judge it' })),
  link: Nullable(Type.String({ description: 'The source event, or a flag write’s flag page' })),
};

export const FeedEntryBody = Type.Object({
  id: Str, displayId: Str, origin: Type.Enum(ORIGINS.filter((o) => o !== 'registered')), kind: Type.Enum([...OBSERVED_KINDS, 'flag']),
  status: Type.Enum(['recorded', 'pending_approval'], { description: 'recorded; a flag change request waiting for approval is pending_approval' }), title: Str,
  ...recordFields, detail: Type.Record(Str, Type.Unknown(), { description: 'The origin’s own fields: a flag write’s flag, env, from, to, reason; an observed row’s eventId, action, resource, location, params, serviceVia, errorCode, outcome, changeRef …' }),
}, { description: 'A flag write, a flag change request or an observed change' });

export const ReceiptBody = Type.Object({
  source: Str, kind: Str, eventId: Str, title: Str, at: Str, receivedAt: Str, principal: PrincipalBody, action: Nullable(Str), resource: Nullable(Str),
  location: Type.Record(Str, Str), diff: Nullable(Str), link: Nullable(Str),
}, { description: 'A write a source saw that carried this change’s id: its receipt' });

export const NeverCapturedBody = Type.Array(Str, { description: 'What the organisation’s connected sources cannot see: an empty list means nothing in what we can see' });
