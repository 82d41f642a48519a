import { Type } from 'typebox';
import { MAX_ALERTS_PER_BATCH } from './alert-payloads.js';

// Request and response schemas of the alerts routes. Titles are the words a refusal uses
// ("Alert 3 › Starts at must be a date and time …"); the shapes are Alertmanager's, so unknown
// fields (Grafana's orgId, dashboardURL, values) are let through, not refused.

/** The largest body an intake route takes, on either listener. */
export const ALERT_BODY_LIMIT = 1024 * 1024;
/**
 * An intake token's rate on the pipeline listener: Alertmanager posts once per alert group and flush
 * and Prometheus once per batch, so a busy estate passes the change API's 60 a minute long before it
 * is abusive. Over it, 429 with Retry-After (Alertmanager retries; Prometheus re-sends next cycle).
 */
export const ALERT_INTAKE_PER_MINUTE = 1_200;

const Str = Type.String();
const Time = (title: string) => Type.String({ format: 'date-time', maxLength: 64, title });
const Labels = Type.Record(Type.String({ maxLength: 1_000 }), Type.String({ maxLength: 10_000 }), { title: 'Labels', description: 'Label name → value' });
const Annotations = Type.Record(Type.String({ maxLength: 1_000 }), Type.String({ maxLength: 100_000 }), { title: 'Annotations' });
const Url = (title: string) => Type.String({ maxLength: 2_000, title });
const STATES = ['firing', 'resolved'] as const;

export const WebhookAlertBody = Type.Object({
  status: Type.Enum(STATES, { title: 'Status' }),
  labels: Labels,
  annotations: Type.Optional(Annotations),
  startsAt: Time('Starts at'),
  endsAt: Type.Optional(Time('Ends at')),
  generatorURL: Type.Optional(Url('Generator URL')),
  fingerprint: Type.Optional(Type.String({ pattern: '^[0-9a-f]{16}$', title: 'Fingerprint', description: '16 hex digits; when sent, it must be the fingerprint of the labels' })),
}, { additionalProperties: true, title: 'Alert' });

export const WebhookBody = Type.Object({
  version: Type.String({ maxLength: 10, title: 'Version', description: 'Alertmanager\'s webhook payload version: "4"' }),
  groupKey: Type.Optional(Type.String({ maxLength: 10_000 })),
  truncatedAlerts: Type.Optional(Type.Integer({ minimum: 0 })),
  status: Type.Optional(Type.Enum(STATES, { title: 'Status' })),
  receiver: Type.Optional(Type.String({ maxLength: 1_000, title: 'Receiver' })),
  groupLabels: Type.Optional(Labels),
  commonLabels: Type.Optional(Labels),
  commonAnnotations: Type.Optional(Annotations),
  externalURL: Type.Optional(Url('External URL')),
  alerts: Type.Array(WebhookAlertBody, { maxItems: MAX_ALERTS_PER_BATCH, title: 'Alerts' }),
}, { additionalProperties: true, description: 'Alertmanager\'s webhook payload, version 4' });

export const PostableAlertBody = Type.Object({
  labels: Labels,
  annotations: Type.Optional(Annotations),
  startsAt: Type.Optional(Time('Starts at')),
  endsAt: Type.Optional(Time('Ends at')),
  generatorURL: Type.Optional(Url('Generator URL')),
}, { additionalProperties: true, title: 'Alert' });

export const PostableList = Type.Array(PostableAlertBody, { maxItems: MAX_ALERTS_PER_BATCH, description: 'Alertmanager API v2 postable alerts, as Prometheus sends them' });

export const IntakeAnswer = Type.Object({
  received: Type.Integer({ description: 'Alerts in the request (one per fingerprint)' }),
  transitions: Type.Integer({ description: 'New firing or resolved transitions recorded; 0 for a pure re-send' }),
  repeats: Type.Integer({ description: 'Alerts that added nothing new (Alertmanager\'s repeat_interval)' }),
  held: Type.Integer({ description: 'Alerts whose subject is in a running change\'s scope' }),
  unmapped: Type.Integer({ description: 'Alerts no rule of the label mapping names a catalogue entity for' }),
});

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const SubjectBody = Type.Union([
  Type.Object({ kind: Type.Enum(['service', 'asset', 'source']), key: Str, name: Str }),
  Type.Object({ kind: Type.Literal('unmapped'), key: Type.Null(), name: Type.Null() }),
], { description: 'The catalogue entity the alert is about; unmapped: none (recorded, never held)' });

const HeldByBody = Type.Union([Type.Object({ changeId: Str, displayId: Str, title: Str }), Type.Null()], { description: 'The change whose hold holds it now' });

export const AlertBody = Type.Object({
  fingerprint: Str, alertname: Str, labels: Type.Record(Str, Str), annotations: Type.Record(Str, Str),
  state: Type.Enum(STATES), startsAt: Str, endsAt: Nullable(Str), generatorURL: Nullable(Str),
  subject: SubjectBody, subjectLabel: Type.String({ description: '<service> · <alertname> · <source>' }), source: Str,
  firstSeen: Str, lastSeen: Str, heldBy: HeldByBody,
}, { $id: 'Alert' });

export const TransitionBody = Type.Object({
  fingerprint: Str, state: Type.Enum(STATES), at: Str, receivedAt: Str, via: Type.Enum(['webhook', 'api', 'silence']), heldBy: Nullable(Str),
}, { $id: 'AlertTransition' });

export const ListQuery = Type.Object({
  subject: Type.Optional(Type.String({ minLength: 1, maxLength: 500, title: 'Subject', description: 'A subject\'s name or catalogue key' })),
  state: Type.Optional(Type.Enum(STATES, { title: 'State' })),
  change: Type.Optional(Type.String({ minLength: 1, maxLength: 100, title: 'Change', description: 'A CHG- id or a change id: the alerts its hold held' })),
  held: Type.Optional(Type.Boolean({ title: 'Held', description: 'true: held by a change now; false: not held' })),
  since: Type.Optional(Type.String({ maxLength: 64, title: 'Since', description: 'Seen since: a duration such as 1h, or an ISO-8601 time' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, title: 'Limit' })),
}, { additionalProperties: false });

export const FingerprintParams = Type.Object({ fingerprint: Type.String({ minLength: 1, maxLength: 200, title: 'Fingerprint' }) });
export const ChangeParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, title: 'Change' }) });

const EvidenceSubject = Type.Object({
  subject: SubjectBody,
  label: Type.String({ description: 'The subject by name (an unmapped alert: its subject label)' }),
  inScope: Type.Boolean({ description: 'The subject is in the change\'s silence scope' }),
  preExisting: Type.Boolean({ description: 'Already in error at window start' }),
  enteredError: Type.Integer({ description: 'Firing transitions inside the window' }),
  flapping: Type.Boolean({ description: 'Entered error 3 or more times in the window' }),
  fingerprints: Type.Array(Str),
  transitions: Type.Array(TransitionBody),
});

export const EvidenceBody = Type.Object({
  change: Type.Object({ id: Str, displayId: Str, title: Str }),
  window: Type.Object({ start: Str, end: Str, open: Type.Boolean({ description: 'true while the change runs: end is now' }) }),
  alerts: Type.Array(Type.Intersect([AlertBody, Type.Object({
    outcome: Type.Union([Type.Enum(['held', 'resent', 'recovered', 'kept']), Type.Null()], { description: 'What this change\'s hold did with it; null: not held by it' }),
    inScope: Type.Boolean(),
  })])),
  subjects: Type.Array(EvidenceSubject),
  preExisting: Type.Array(Type.Object({ subject: SubjectBody, label: Str, fingerprints: Type.Array(Str) })),
  truncated: Type.Boolean({ description: 'More transitions fell in the window than one answer carries' }),
}, { $id: 'ChangeAlertEvidence' });
