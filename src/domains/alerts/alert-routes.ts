import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import { parsePostable, parseWebhook, type PostableAlert, type WebhookPayload } from './alert-payloads.js';
import {
  ALERT_BODY_LIMIT, ALERT_INTAKE_PER_MINUTE, AlertBody, ChangeParams, EvidenceBody, FingerprintParams, IntakeAnswer, ListQuery, PostableList, TransitionBody, WebhookBody,
} from './alert-schemas.js';
import type { AlertService } from './alert-service.js';

/**
 * Alert intake (Alertmanager's webhook, and the API v2 shape Prometheus sends to an Alertmanager)
 * and the reads of what was received. Intake takes up to 1 MiB on both listeners.
 */
export const alertRoutes: FastifyPluginAsyncTypebox<{ alerts: AlertService; clock: Clock }> = async (app, { alerts, clock }) => {
  const tags = ['alerts'];
  const write = { access: { scope: 'alerts:write' as const }, pipelineBodyLimit: ALERT_BODY_LIMIT, tokensPerMinute: ALERT_INTAKE_PER_MINUTE };
  const read = { access: { scope: 'alerts:read' as const } };

  app.post('/api/alerts/alertmanager', {
    config: write, bodyLimit: ALERT_BODY_LIMIT,
    schema: {
      tags, summary: 'Alertmanager\'s webhook (payload version 4): record each alert, its subject and its transitions; a re-send adds nothing',
      description: 'Point a webhook_config at this URL with http_config.authorization (type Bearer, a token with alerts:write). Bodies up to 1 MiB.',
      body: WebhookBody, response: { 200: IntakeAnswer, ...errors(400, 401, 403, 413) },
    },
  }, async (req) => {
    const batch = parseWebhook(req.body as WebhookPayload);
    return alerts.receive(requestAuditContext(req), req.principal!.org.id, 'webhook', batch.alerts, batch.sender);
  });

  app.post('/api/v2/alerts', {
    config: write, bodyLimit: ALERT_BODY_LIMIT,
    schema: {
      tags, summary: 'Alertmanager\'s API v2 alerts (what Prometheus sends to its alertmanagers): resolved once endsAt has passed',
      description: 'List changeledger under Prometheus\'s alerting.alertmanagers (api_version: v2, path_prefix: /) with a token with alerts:write.',
      body: PostableList, response: { 200: IntakeAnswer, ...errors(400, 401, 403, 413) },
    },
  }, async (req) => {
    const batch = parsePostable(req.body as PostableAlert[], clock.now());
    return alerts.receive(requestAuditContext(req), req.principal!.org.id, 'api', batch.alerts, batch.sender);
  });

  app.get('/api/alerts', {
    config: read,
    schema: {
      tags, summary: 'The organisation\'s alerts, last seen first: filter by subject (name or key), state, change (its hold), held, since',
      querystring: ListQuery, response: { 200: Type.Object({ alerts: Type.Array(AlertBody) }), ...errors(400, 401, 403) },
    },
  }, async (req) => ({ alerts: await alerts.list(req.principal!, req.query) }));

  app.get('/api/alerts/:fingerprint', {
    config: read,
    schema: {
      tags, summary: 'One alert and every firing → resolved transition of its fingerprint', params: FingerprintParams,
      response: { 200: Type.Object({ alert: AlertBody, transitions: Type.Array(TransitionBody) }), ...errors(401, 403, 404) },
    },
  }, async (req) => alerts.get(req.principal!, req.params.fingerprint));

  app.get('/api/changes/:id/alerts', {
    config: read,
    schema: {
      tags, summary: 'A change\'s alert evidence in one answer: what fired or recovered in its window, transitions per subject, what was already in error at its start, how often each subject entered error',
      params: ChangeParams, response: { 200: EvidenceBody, ...errors(401, 403, 404) },
    },
  }, async (req) => alerts.evidence(req.principal!, req.params.id));
};
