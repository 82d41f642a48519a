import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { unauthorized } from '../../platform/errors.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors, PeerAuthInput } from '../../platform/http/schemas.js';
import type { AlertSettingsService } from './alert-settings.js';
import { MAX_EMAIL_RECIPIENTS } from './destinations/destination-input.js';

const Str = Type.String();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, title: 'ID' }) });
const HoldMode = Type.Enum(['relay', 'silence'], { title: 'Hold mode', description: 'relay: changeledger relays what it does not hold; silence: a silence on each Alertmanager' });
const LabelRule = Type.Object({
  labels: Type.Array(Str), as: Type.Enum(['service', 'source', 'pod', 'asset']), kinds: Type.Optional(Type.Array(Str)),
});
const Settings = Type.Object({
  holdMode: HoldMode, labelMapping: Type.Array(LabelRule), labelMappingIsDefault: Type.Boolean(), defaultLabelMapping: Type.Array(LabelRule),
  updatedAt: Nullable(Str),
}, { $id: 'AlertSettings' });
const SettingsInput = Type.Object({
  holdMode: Type.Optional(HoldMode),
  labelMapping: Type.Optional(Nullable(Type.Array(Type.Unknown(), { title: 'Label mapping', maxItems: 50, description: 'Rules tried in order ({labels, as, kinds?}); null: the documented defaults' }))),
}, { additionalProperties: false });

const AmName = Type.String({ minLength: 1, maxLength: 200, title: 'Name' });
const AmUrl = Type.String({ minLength: 1, maxLength: 2000, title: 'URL', description: 'Alertmanager’s base URL (http://alertmanager:9093); private addresses are allowed' });
const AlertmanagerCreate = Type.Object({ name: AmName, url: AmUrl, auth: Type.Optional(PeerAuthInput) }, { additionalProperties: false });
const AlertmanagerUpdate = Type.Object({ name: Type.Optional(AmName), url: Type.Optional(AmUrl), auth: Type.Optional(PeerAuthInput) }, { additionalProperties: false });
const Alertmanager = Type.Object({
  id: Str, name: Str, url: Str, authKind: Type.Enum(['none', 'bearer', 'basic']), hasAuth: Type.Boolean(),
  authHint: Nullable(Str), createdAt: Str, updatedAt: Str,
}, { $id: 'Alertmanager' });
const AlertmanagerTest = Type.Object({ ok: Type.Boolean(), version: Nullable(Str), cluster: Nullable(Str), problem: Nullable(Str) }, { $id: 'AlertmanagerTest' });

const Kind = Type.Enum(['webhook', 'email', 'slack', 'pagerduty'], { title: 'Kind' });
const DestinationFields = {
  name: Type.String({ minLength: 1, maxLength: 200, title: 'Name' }),
  enabled: Type.Optional(Type.Boolean()),
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, title: 'URL', description: 'webhook, slack: where to post; kept sealed' })),
  to: Type.Optional(Type.Array(Type.String({ maxLength: 320, title: 'Recipient' }), { maxItems: MAX_EMAIL_RECIPIENTS, title: 'Recipients', description: 'email: the addresses' })),
  routingKey: Type.Optional(Type.String({ minLength: 1, maxLength: 200, title: 'Routing key', description: 'pagerduty: the Events API v2 integration key; kept sealed' })),
  eventsUrl: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2000, title: 'Events URL', description: 'pagerduty: default https://events.pagerduty.com/v2/enqueue' }))),
};
const DestinationCreate = Type.Object({ kind: Kind, ...DestinationFields }, { additionalProperties: false });
const DestinationUpdate = Type.Object({ ...DestinationFields, name: Type.Optional(DestinationFields.name) }, { additionalProperties: false });
const LastDelivery = Type.Object({
  at: Str, ok: Type.Boolean(), status: Nullable(Type.Integer()), error: Nullable(Str), attempts: Type.Integer(), nextAttemptAt: Nullable(Str),
});
const Destination = Type.Object({
  id: Str, kind: Kind, name: Str, enabled: Type.Boolean(), host: Nullable(Str), to: Nullable(Type.Array(Str)), eventsUrl: Nullable(Str),
  hasSecret: Type.Boolean(), secretHint: Nullable(Str), lastDelivery: Nullable(LastDelivery), createdAt: Str, updatedAt: Str,
}, { $id: 'AlertDestination' });
const Receivers = Type.Object({
  pipelineUrl: Nullable(Str), webhookUrl: Str, alertmanagerYaml: Str, alertmanagerChildRouteYaml: Str, prometheusYaml: Str,
}, { $id: 'AlertReceivers' });

function principal(req: FastifyRequest) {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** Settings → Alert sources (people only): members read, owners and admins write. */
export const alertSettingsRoutes: FastifyPluginAsyncTypebox<{ settings: AlertSettingsService; pipelineUrl: () => string | null }> = async (app, { settings, pipelineUrl }) => {
  const tags = ['alerts'];
  const session = { access: 'session' as const };

  app.get('/api/alert-settings', { config: session, schema: { tags, summary: 'The hold mode and the label mapping (the defaults while none is saved)', response: { 200: Settings, ...errors(401, 403) } } },
    async (req) => settings.settings(principal(req).org.id));
  app.put('/api/alert-settings', {
    config: session,
    schema: { tags, summary: 'Set the hold mode and/or the label mapping (null: back to the defaults); owners and admins, audited settings.alerts_updated', body: SettingsInput, response: { 200: Settings, ...errors(400, 401, 403) } },
  }, async (req) => settings.updateSettings(requestAuditContext(req), principal(req), req.body));
  app.get('/api/alert-settings/receivers', {
    config: session,
    schema: { tags, summary: 'The Alertmanager receivers: + route: snippet and the Prometheus alerting.alertmanagers snippet, pointing at the pipeline listener', response: { 200: Receivers, ...errors(401, 403) } },
  }, async () => settings.receivers(pipelineUrl()));

  app.get('/api/alertmanagers', { config: session, schema: { tags, summary: 'The organisation’s Alertmanagers (credentials never answered)', response: { 200: Type.Object({ alertmanagers: Type.Array(Alertmanager) }), ...errors(401, 403) } } },
    async (req) => ({ alertmanagers: await settings.alertmanagers(principal(req).org.id) }));
  app.post('/api/alertmanagers', {
    config: session,
    schema: { tags, summary: 'Add an Alertmanager {name, url, auth}; credentials are sealed (audited alertmanager.created)', body: AlertmanagerCreate, response: { 201: Type.Object({ alertmanager: Alertmanager }), ...errors(400, 401, 403, 409) } },
  }, async (req, reply) => reply.status(201).send({ alertmanager: await settings.createAlertmanager(requestAuditContext(req), principal(req), req.body) }));
  app.put('/api/alertmanagers/:id', {
    config: session,
    schema: { tags, summary: 'Change an Alertmanager; auth left out (or a token or password left out) keeps the stored credentials', params: Params, body: AlertmanagerUpdate, response: { 200: Type.Object({ alertmanager: Alertmanager }), ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => ({ alertmanager: await settings.updateAlertmanager(requestAuditContext(req), principal(req), req.params.id, req.body) }));
  app.delete('/api/alertmanagers/:id', {
    config: session,
    schema: { tags, summary: 'Remove an Alertmanager (audited alertmanager.deleted)', params: Params, response: { 204: { type: 'null' }, ...errors(401, 403, 404) } },
  }, async (req, reply) => {
    await settings.deleteAlertmanager(requestAuditContext(req), principal(req), req.params.id);
    return reply.status(204).send(null);
  });
  app.post('/api/alertmanagers/:id/test', {
    config: session,
    schema: { tags, summary: 'Ask the Alertmanager for GET /api/v2/status and answer {ok, version, cluster, problem} in words', params: Params, response: { 200: AlertmanagerTest, ...errors(401, 403, 404) } },
  }, async (req) => settings.testAlertmanager(requestAuditContext(req), principal(req), req.params.id));

  app.get('/api/alert-destinations', {
    config: session,
    schema: { tags, summary: 'Relay destinations, each with its last delivery (secrets never answered)', response: { 200: Type.Object({ destinations: Type.Array(Destination) }), ...errors(401, 403) } },
  }, async (req) => ({ destinations: await settings.destinations(principal(req).org.id) }));
  app.post('/api/alert-destinations', {
    config: session,
    schema: {
      tags, summary: 'Add a relay destination: webhook {url} (its signing secret answered here once), email {to}, slack {url}, pagerduty {routingKey, eventsUrl?}',
      body: DestinationCreate, response: { 201: Type.Object({ destination: Destination, signingSecret: Nullable(Str) }), ...errors(400, 401, 403) },
    },
  }, async (req, reply) => reply.status(201).send(await settings.createDestination(requestAuditContext(req), principal(req), req.body)));
  app.put('/api/alert-destinations/:id', {
    config: session,
    schema: { tags, summary: 'Change a relay destination; a URL or routing key left out keeps the stored one', params: Params, body: DestinationUpdate, response: { 200: Type.Object({ destination: Destination }), ...errors(400, 401, 403, 404) } },
  }, async (req) => ({ destination: await settings.updateDestination(requestAuditContext(req), principal(req), req.params.id, req.body) }));
  app.delete('/api/alert-destinations/:id', {
    config: session,
    schema: { tags, summary: 'Remove a relay destination (audited alert_destination.deleted)', params: Params, response: { 204: { type: 'null' }, ...errors(401, 403, 404) } },
  }, async (req, reply) => {
    await settings.deleteDestination(requestAuditContext(req), principal(req), req.params.id);
    return reply.status(204).send(null);
  });
  app.post('/api/alert-destinations/:id/test', {
    config: session,
    schema: {
      tags, summary: 'Send a sample alert to the destination now and answer the result in words (PagerDuty: a trigger and its resolve)', params: Params,
      response: { 200: Type.Object({ ok: Type.Boolean(), status: Nullable(Type.Integer()), message: Str, destination: Destination }), ...errors(401, 403, 404) },
    },
  }, async (req) => settings.testDestination(requestAuditContext(req), principal(req), req.params.id));
};
