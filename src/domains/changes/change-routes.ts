import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../platform/errors.js';
import { ownOrganization, requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import { scopeBreakdown, scopeLine, SILENCE_MODES } from '../catalogue/blast.js';
import type { BlastService } from '../catalogue/blast-service.js';
import { Blast, ContractsBody } from '../catalogue/blast-routes.js';
import { AuditEventBody } from '../ledger/ledger-schemas.js';
import { ApprovalGivenBody, ApprovalViewBody, ClassifiedFields, RegisteredApprovalBody, RejectedBody, ReportBody, WindowConflictBody, WindowVerdictBody } from './change-answers.js';
import { listAuditEvents } from '../ledger/index.js';
import type { ApprovalService } from './approval-service.js';
import type { ClassService } from './class-service.js';
import type { ChangeService } from './change-service.js';
import type { Database } from '../../platform/db/database.js';
import { APPROVAL_MODES, BEFORE_STATE_RULES, type ChangeSettingsService } from './change-settings.js';
import * as store from './change-store.js';
import { CALLBACK_FORMATS, CHANGE_KINDS, OUTCOMES, PIPELINE_FIELDS } from './change-store.js';
import { readStatus } from './change-view.js';
import { FeedEntryBody, ListQuerystring, NeverCapturedBody, ReceiptBody, recordFields } from './change-list-schemas.js';
import { TICKET_KINDS } from './ticket-destination.js';
import { CHANGE_STATUSES } from './change-lifecycle.js';
import { CHANGE_CLASSES, CLASS_DROP_CAUSES, CLASS_POLICIES, CLASS_SOURCES } from './change-class.js';
import { RISK_TIERS } from './risk-tier.js';
import { COMPLETENESS, PRESTATE_STATUSES } from './before-state.js';
import { ROLLBACK_KINDS } from './rollback-sweep.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Str = Type.String();
const Tier = Type.Enum(['critical', 'important', 'standard']);
const ComponentInput = Type.Object(
  {
    kind: Type.Optional(Type.Enum(['service', 'instance', 'database', 'schema', 'vm', 'host', 'datastore', 'pod', 'node', 'device', 'external', 'integration', 'workload', 'volume'])),
    key: Type.Optional(Type.String({ minLength: 1, maxLength: 500, examples: ['svc:checkout-api'] })),
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 200, examples: ['checkout-api'] })),
  },
  { additionalProperties: false, title: 'Component' },
);
const Completeness = Type.Enum(COMPLETENESS, { description: 'complete: the whole state; partial: part of it; unknown' });
const PrestateStatus = Type.Enum(PRESTATE_STATUSES, { description: 'present: it existed before; absent: the change creates it; unknown' });
export const BeforeStateFields = {
  previousVersion: Type.Optional(Type.String({ maxLength: 200, description: 'The version running before the change', title: 'Previous version' })),
  previousCommit: Type.Optional(Type.String({ maxLength: 200, description: 'The commit running before the change', title: 'Previous commit' })),
  beforeState: Type.Optional(Type.Object({
    artifact: Type.Optional(Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown()), Type.Array(Type.Unknown())], { description: 'A manifest or config file as text (kept byte for byte) or JSON (kept as canonical JSON): at most 256 KiB' })),
    artifactName: Type.Optional(Type.String({ maxLength: 200, description: 'What the artifact is, such as deploy/checkout.yaml' })),
    completeness: Type.Optional(Completeness), prestateStatus: Type.Optional(PrestateStatus),
  }, { additionalProperties: false, title: 'Before-state' })),
};
const Pipeline = Type.Object(Object.fromEntries(PIPELINE_FIELDS.map((f) => [f, Type.Optional(Type.String({ maxLength: 200 }))])), { additionalProperties: false, title: 'Pipeline', description: 'Who registered it; each value ≤ 200 characters' });
const ChangeFields = {
  title: Type.String({ minLength: 1, maxLength: 200, title: 'Title' }),
  kind: Type.Optional(Type.Enum(CHANGE_KINDS, { default: 'other', title: 'Kind' })),
  description: Type.Optional(Type.String({ maxLength: 20_000, title: 'Description' })),
  ticketUrl: Type.Optional(Type.String({ maxLength: 1000 })),
  components: Type.Array(ComponentInput, { maxItems: 100, title: 'Components' }),
  hops: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], { default: 1, title: 'Hops' })),
  startNow: Type.Optional(Type.Boolean({ description: 'Start the window now (windowEnd defaults to now + 1 h)' })),
  windowStart: Type.Optional(Type.String({ maxLength: 40, description: 'ISO-8601 date-time', title: 'Start (UTC)' })),
  windowEnd: Type.Optional(Type.String({ maxLength: 40, description: '5 min – 7 days after the start', title: 'End (UTC)' })),
  evidenceMinutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 1440, description: 'The surveillance horizon; default the organisation’s', title: 'Evidence horizon (minutes)' })),
  surveillanceMinutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 1440, description: 'Alias of evidenceMinutes (evidenceMinutes wins)' })),
  maxDurationMinutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 10080, description: 'A pipeline window now … now + d, re-stamped when the change starts', title: 'Duration (minutes)' })),
  autoStart: Type.Optional(Type.Boolean({ description: 'Start the moment it is approved' })),
  pipeline: Type.Optional(Pipeline),
  callbackUrl: Type.Optional(Type.String({ maxLength: 1000, description: 'http(s): signed callbacks at every step; the 201 carries callbackSecret once' })),
  callbackFormat: Type.Optional(Type.Enum(CALLBACK_FORMATS, { title: 'Callback format', description: 'changeledger (when not given): {event, deliveryId, occurredAt, change}; cloudevents: a CloudEvents 1.0 structured-mode event (application/cloudevents+json) carrying the same payload, signed the same way' })),
  recipients: Type.Optional(Type.Array(Type.String({ maxLength: 320, title: 'Recipient' }), { maxItems: 20, title: 'Report recipients' })),
  releaseHeld: Type.Optional(Type.Boolean({ default: true })),
  confirmLarge: Type.Optional(Type.Boolean({ description: 'Required when the scope has 100 services or more' })),
  silenceInfra: Type.Optional(Nullable(Type.Enum(SILENCE_MODES, { title: 'Silence infrastructure' }))),
  draft: Type.Optional(Type.Boolean({ description: 'Save without scheduling it (PUT with draft: false submits it)' })),
  emergency: Type.Optional(Type.Boolean({ description: 'An emergency change: needs emergencyReason and an incident or ticketUrl; L3, and may pass a closed window once its quorum (≥ 2 people) approved it' })),
  emergencyReason: Type.Optional(Type.String({ maxLength: 2000, title: 'Emergency reason' })),
  incident: Type.Optional(Type.String({ maxLength: 1000, description: 'The incident the emergency answers: an id or a URL', title: 'Incident' })),
  template: Type.Optional(Type.String({ maxLength: 200, description: 'A certified standard-change template (name or id) the change claims; standard when its scope contains the change', title: 'Template' })),
  ...BeforeStateFields,
  rollback: Type.Optional(Type.Object({
    kind: Type.Enum(ROLLBACK_KINDS, { description: 'revert_flag (changeledger writes the flags back), redeploy_previous (the pipeline is asked to redeploy the previous version), manual', title: 'Rollback kind' }),
    plan: Type.Optional(Type.String({ description: 'The way back in words, at most 4,000 characters', title: 'Rollback plan' })),
  }, { additionalProperties: false, title: 'Rollback' })),
  validationPlan: Type.Optional(Type.Array(Type.Unknown(), { description: 'At most 10 checks run after completion: {id, target, check: promql | http, query or url, expected: {op, value}, group?, direction?, hops?}', title: 'Validation plan' })),
};
const ChangeInput = Type.Object(ChangeFields, { additionalProperties: false });
/** A before-state, a rollback and a validation plan are fixed at registration: an edit does not take them. */
const FIXED_AT_REGISTRATION = ['previousVersion', 'previousCommit', 'beforeState', 'rollback', 'validationPlan'] as const;
const ChangePatch = Type.Partial(Type.Omit(ChangeInput, FIXED_AT_REGISTRATION), { additionalProperties: false });

const Resolved = Type.Object({ kind: Str, key: Str, name: Str, match: Str, query: Type.Optional(Str), seen: Type.Boolean() });
const Candidate = Type.Object({ kind: Str, key: Str, name: Str });
export const TicketRefBody = Type.Object({ kind: Type.Enum(TICKET_KINDS), id: Str, key: Str, url: Nullable(Str) }, { description: 'The ticket opened for the change' });
export const Step = Type.Object({
  deliveryId: Str, event: Str, action: Nullable(Type.Enum(['create', 'update', 'test'])), state: Type.Enum(['pending', 'retrying', 'delivered', 'failed']),
  attempts: Type.Integer(), httpStatus: Nullable(Type.Integer()), error: Nullable(Str), note: Nullable(Str),
  via: Type.Enum(['server']), at: Str, nextAttemptAt: Nullable(Str),
}, { description: 'One delivery: delivered / retrying (next attempt at) / failed, with the last HTTP status and error' });
export const TicketStatus = Type.Object({
  kind: Nullable(Type.Enum(TICKET_KINDS)), id: Nullable(Str), key: Nullable(Str), url: Nullable(Str), steps: Type.Array(Step),
}, { description: 'The ticket (id, key and link once opened) and each of its steps; null without a ticket destination' });
export const ChangeBody = Type.Object({
  id: Str, displayId: Str, title: Str, kind: Type.Enum(CHANGE_KINDS), description: Nullable(Str), ticketUrl: Nullable(Str),
  status: Type.Enum(CHANGE_STATUSES), outcome: Nullable(Type.Enum(OUTCOMES)), impact: Nullable(Str), aiImpact: Nullable(Str), hops: Type.Integer(),
  windowStart: Str, windowEnd: Str, evidenceMinutes: Type.Integer(), maxDurationMinutes: Nullable(Type.Integer()), autoStart: Type.Boolean(),
  releaseHeld: Type.Boolean(), silenceInfra: Nullable(Type.Enum(SILENCE_MODES)), pipeline: Nullable(Type.Object(Object.fromEntries(PIPELINE_FIELDS.map((f) => [f, Type.Optional(Str)])))), callbackUrl: Nullable(Str),
  callbackFormat: Type.Enum(CALLBACK_FORMATS, { description: 'How its callbacks are shaped (changeledger or cloudevents)' }),
  recipients: Type.Array(Str), components: Type.Array(Resolved), unresolved: Type.Array(Type.Object({ query: Str, candidates: Type.Array(Candidate) })),
  criticality: Nullable(Tier), criticalitySource: Nullable(Type.Enum(['components', 'blast', 'none', 'pending'])), componentTiers: Type.Record(Str, Nullable(Tier)),
  gated: Type.Boolean(), quorum: Nullable(Type.Integer()), owner: Type.Object({ id: Str, email: Str, name: Str }), viaTokenId: Nullable(Str), viaProxyId: Type.Null(),
  approvalExpiresAt: Nullable(Str), startDeadline: Nullable(Str), decidedAt: Nullable(Str), rejectionReason: Nullable(Str), startedAt: Nullable(Str),
  finishedAt: Nullable(Str), aborted: Type.Boolean(), notes: Nullable(Str), endReason: Nullable(Str), outcomeBy: Nullable(Type.Enum(['pipeline', 'person', 'window'])), relativeWindow: Type.Boolean(), evaluateAt: Nullable(Str), reportedAt: Nullable(Str),
  blastVersion: Type.Integer(), reportVersion: Type.Integer(), ticket: Nullable(TicketRefBody),
  changeClass: Type.Enum(CHANGE_CLASSES), changeClassSource: Type.Enum(CLASS_SOURCES, { description: 'The rule that decided the class' }), changeClassReason: Str,
  changeClassCause: Nullable(Type.Enum(Object.keys(CLASS_DROP_CAUSES) as Array<keyof typeof CLASS_DROP_CAUSES>, { description: 'Why it lost the class its template gave it' })),
  template: Nullable(Type.Object({ id: Str, version: Type.Integer() })), emergency: Nullable(Type.Object({ reason: Str, link: Str })),
  riskTier: Nullable(Type.Enum(RISK_TIERS)), riskReason: Nullable(Str),
  windowBypassed: Nullable(Type.Object({ window: Str, kind: Str, at: Str, approvals: Type.Integer() }, { description: 'The closed window an emergency passed with its full quorum' })),
  approvalDigest: Nullable(Type.String({ description: 'sha256 of the change’s approvable content now' })), approvedDigest: Nullable(Type.String({ description: 'The digest its approvals approved' })),
  captureDigest: Nullable(Type.String({ description: 'The digest of its before-state captures (part of the approval digest); null without one' })),
  rollbackState: Nullable(Type.Enum(['requested', 'rolled_back', 'failed'], { description: 'requested: a rollback was released and asked of the pipeline; rolled_back: done; failed: the pipeline could not' })),
  rollbackRequestedAt: Nullable(Str), rollbackCompletedAt: Nullable(Str),
  rollbackDecision: Nullable(Type.Object({ decision: Type.Enum(['execute', 'escalate', 'skip']), reason: Str, at: Str }, { description: 'The automatic rollback sweep’s one decision on it' })),
  validationPlan: Nullable(Type.Array(Type.Record(Str, Type.Unknown()), { description: 'The checks fixed at registration' })),
  validationResult: Nullable(Type.Enum(['cleared', 'still_present', 'uncertain'])), validationCheckedAt: Nullable(Str),
  createdAt: Str, updatedAt: Str,
}, { $id: 'Change' });
export const SuppressionBody = Type.Object({
  state: Type.Enum(['none', 'active', 'releasing', 'released'], { description: 'none: the change never ran; active while it runs; releasing from its finish until the release (5 min later); released after' }),
  mode: Nullable(Type.Enum(['relay', 'silence'])), since: Nullable(Str), until: Nullable(Type.String({ description: 'When the hold ends: the window end + 5 min while active, the finish + 5 min once it finished' })),
  held: Type.Integer({ description: 'Alerts held so far' }), resent: Type.Integer({ description: 'Held alerts re-sent at the release (still failing)' }),
  recovered: Type.Integer({ description: 'Held alerts that recovered before the release (not re-sent)' }),
  silences: Type.Array(Type.Object({ alertmanager: Str, id: Nullable(Str), state: Type.Enum(['pending', 'active', 'expired', 'failed']) }), { description: 'Silence mode: each silence on each Alertmanager (one per label name)' }),
  problem: Type.Union([Str, Type.Null()], { description: '"hold not in place: <reason>" while a silence cannot be set; null when the hold is where it should be' }),
}, { $id: 'Suppression', description: 'The live hold on the alerts of the change’s blast radius' });
const Registered = Type.Object({
  change: ChangeBody, blast: Nullable(Blast), match: Type.Object({ matched: Type.Integer(), unresolved: Type.Array(Str) }),
  callbackSecret: Type.Optional(Type.String({ description: 'cs_…, only when callbackUrl was sent: returned once' })),
  approval: Type.Optional(RegisteredApprovalBody), mapping: Type.Optional(Type.Object({ unresolved: Type.Array(Type.Object({ query: Str, candidates: Type.Array(Candidate) })), hint: Str })),
  warnings: Type.Optional(Type.Array(Str, { description: 'registered, but something will not work as sent: a private callbackUrl while allowPrivateCallbacks is off' })),
  governance: Type.Optional(Type.Object({ changeClass: Type.Enum(CHANGE_CLASSES), changeClassReason: Str, riskTier: Type.Enum(RISK_TIERS), riskReason: Str, policy: Str }, { description: 'Its class and risk tier, and what the tier asks' })),
  windows: Type.Optional(Type.Object({ verdict: WindowVerdictBody, conflicts: Type.Array(WindowConflictBody) }, { description: 'The windows at the planned start (allowed, the window, why, the next opening) and what the planned window runs into' })),
});
const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });
const OneChange = Type.Object({ change: ChangeBody });
const Started = Type.Object({
  change: ChangeBody,
  started: Type.Boolean({ description: 'true when this call started the change; false when it was active already (started by an earlier call, its window or autoStart) and nothing changed' }),
});
const Status = Type.Object({
  id: Str, displayId: Str, title: Str, status: Type.Enum(CHANGE_STATUSES),
  statusReason: Type.Union([Str, Type.Null()], { description: 'Why it was rejected, expired or was cancelled' }),
  approval: Type.Object({
    state: Type.Enum(['not_required', 'mapping', 'pending', 'approved', 'rejected', 'expired']), approvals: Nullable(Type.Integer()), required: Nullable(Type.Integer()),
    expiresAt: Nullable(Str), decidedAt: Nullable(Str), reason: Nullable(Str), criticalRequired: Type.Boolean(), criticalApproved: Nullable(Type.Boolean()),
    blockedOn: Nullable(Type.Enum(['classification', 'critical_approver'])),
    tier: Nullable(Type.Enum(RISK_TIERS)), policy: Nullable(Type.String({ description: 'What the tier asks, in words' })),
    digest: Nullable(Type.String({ description: 'The digest of the content the approvals approved (null until approved, or when none was needed)' })),
    approvedCommit: Nullable(Type.String({ description: 'The pipeline commit that was approved' })),
  }),
  changeClass: Type.Enum(CHANGE_CLASSES), changeClassReason: Str,
  windowBypassed: Nullable(Type.Object({ window: Str, kind: Str, at: Str, approvals: Type.Integer() })),
  criticality: Nullable(Tier), criticalitySource: Nullable(Str),
  classification: Type.Optional(Type.Object({ unknown: Type.Array(Str), url: Str })),
  mapping: Type.Optional(Type.Object({ unresolved: Type.Array(Str), url: Str })),
  deployment: Type.Object({ startedAt: Nullable(Str), finishedAt: Nullable(Str), windowStart: Str, windowEnd: Str, outcome: Nullable(Str), autoStart: Type.Boolean() }),
  surveillance: Type.Object({ minutes: Type.Integer(), evaluateAt: Nullable(Str), reportedAt: Nullable(Str), impact: Nullable(Str), aiImpact: Nullable(Str) }),
  suppression: SuppressionBody, ticket: Nullable(TicketStatus), callback: Nullable(Step),
  pipeline: Nullable(Type.Record(Str, Str)), links: Type.Object({ change: Str, approve: Str }),
  beforeState: Type.Object({
    digest: Nullable(Str),
    captures: Type.Array(Type.Object({ id: Str, method: Str, previousVersion: Nullable(Str), previousCommit: Nullable(Str), artifactName: Nullable(Str), sha256: Str, completeness: Str, restorable: Type.Boolean() })),
  }, { description: 'What was there before the change (GET …/before-state/{captureId} has an artifact’s bytes)' }),
  rollback: Type.Object({
    state: Nullable(Type.Enum(['requested', 'rolled_back', 'failed'])), requestedAt: Nullable(Str), completedAt: Nullable(Str),
    decision: Nullable(Type.Object({ decision: Type.Enum(['execute', 'escalate', 'skip']), reason: Str, at: Str })),
  }, { description: 'requested: roll back now, then POST …/rollback/complete; the sweep’s decision when it made one' }),
  validation: Type.Object({
    items: Type.Integer({ description: 'Items in the validation plan (0: none)' }), result: Nullable(Type.Enum(['cleared', 'still_present', 'uncertain'])), checkedAt: Nullable(Str),
  }, { description: 'The validation plan’s result once checked, 30 s or more after the finish (GET …/validation has each row)' }),
}, { description: 'What a pipeline polls, and what every callback carries' });
const Outcome = Type.Object({ outcome: Type.Optional(Type.Enum(OUTCOMES)), notes: Type.Optional(Type.String({ maxLength: 5000 })) }, { additionalProperties: false });
export const TicketingInput = Type.Object({
  kind: Type.Enum(['none', ...TICKET_KINDS]),
  baseUrl: Type.Optional(Type.String({ maxLength: 1000, description: 'jira: https://acme.atlassian.net', title: 'Base URL' })),
  deployment: Type.Optional(Type.Enum(['cloud', 'datacenter'], { description: 'jira: cloud = e-mail + API token, REST v3; datacenter = personal access token, REST v2' })),
  email: Type.Optional(Type.String({ maxLength: 320, description: 'jira cloud: the account the API token belongs to', title: 'E-mail' })),
  apiToken: Type.Optional(Type.String({ maxLength: 2000, writeOnly: true, description: 'jira: blank or •••• keeps the stored one', title: 'API token' })),
  projectKey: Type.Optional(Type.String({ maxLength: 50, title: 'Project key' })), issueType: Type.Optional(Type.String({ maxLength: 100, description: 'jira: default Task', title: 'Issue type' })),
  labels: Type.Optional(Type.Array(Type.String({ maxLength: 255, title: 'Label' }), { maxItems: 10, title: 'Labels' })),
  apiUrl: Type.Optional(Type.String({ maxLength: 1000, description: 'asana: default https://app.asana.com' })),
  token: Type.Optional(Type.String({ maxLength: 2000, writeOnly: true, description: 'asana: a personal access token', title: 'Personal access token' })),
  workspaceGid: Type.Optional(Type.String({ maxLength: 40, title: 'Workspace gid' })), projectGid: Type.Optional(Type.String({ maxLength: 40, title: 'Project gid' })),
  completeOnReport: Type.Optional(Type.Boolean({ description: 'asana: complete the task when the report is in (default true)' })),
  instanceUrl: Type.Optional(Type.String({ maxLength: 1000, description: 'servicenow: https://acme.service-now.com', title: 'Instance URL' })),
  username: Type.Optional(Type.String({ maxLength: 200 })), password: Type.Optional(Type.String({ maxLength: 2000, writeOnly: true })),
  changeType: Type.Optional(Type.Enum(['normal', 'standard'], { title: 'Change type' })), assignmentGroup: Type.Optional(Nullable(Type.String({ maxLength: 200, title: 'Assignment group' }))),
  closeOnReport: Type.Optional(Type.Boolean({ description: 'servicenow: close the change request when the report is in (default true)' })),
  url: Type.Optional(Type.String({ maxLength: 1000, description: 'webhook: where change.ticket.* is POSTed', title: 'URL' })),
  secret: Type.Optional(Type.String({ maxLength: 2000, writeOnly: true, description: 'webhook: at least 16 characters; signs every delivery', title: 'Signing secret' })),
  hasSecret: Type.Optional(Type.Boolean({ description: 'ignored (what GET answers)' })),
}, { additionalProperties: false, description: 'One destination: jira {baseUrl, deployment, email, apiToken, projectKey, issueType, labels}, asana {apiUrl, token, workspaceGid, projectGid, completeOnReport}, servicenow {instanceUrl, username, password, changeType, assignmentGroup, closeOnReport}, webhook {url, secret}; {kind: none} or null clears it. The secret sent blank or as •••• keeps the stored one only for the same kind, origin (scheme, host, port) and account (Jira email, ServiceNow username).' });
const SettingsBody = Type.Object({
  settings: Type.Object({
    approvalRequired: Type.Enum(APPROVAL_MODES), quorum: Type.Integer(), approvalExpiryMinutes: Type.Integer(), startTimeoutMinutes: Type.Integer(),
    surveillanceMinutes: Type.Integer(), completionRecipients: Type.Array(Str), allowPrivateCallbacks: Type.Boolean(), silenceInfra: Type.Enum(SILENCE_MODES), updatedAt: Nullable(Str),
    changeClassPolicy: Type.Enum(CLASS_POLICIES), l1Approvals: Type.Integer(),
    requireBeforeState: Type.Enum(BEFORE_STATE_RULES), demoteOnRollback: Type.Boolean(), rollbackSweepWindowHours: Type.Integer(),
    ticketing: Nullable(Type.Object({ kind: Type.Enum(TICKET_KINDS), hasSecret: Type.Boolean() }, { additionalProperties: true, description: 'The one ticket destination: its kind’s fields, its secret shown as •••• with hasSecret' })),
    ticketingKind: Type.Enum(['none', ...TICKET_KINDS]),
    ticketingUnreadable: Type.Boolean({ description: 'the stored secret cannot be opened with this server’s data key: enter it again' }),
  }),
  approvers: Type.Array(Type.Object({ userId: Str, email: Str, name: Str, critical: Type.Boolean() })),
  criticalApprovers: Type.Array(Type.Object({ userId: Str, name: Str })),
  limits: Type.Record(Str, Type.Object({ min: Type.Optional(Type.Integer()), max: Type.Integer() })),
  warning: Nullable(Str), criticalWarning: Nullable(Str),
  warnings: Type.Array(Type.Object({ field: Type.Enum(['quorum', 'criticalUserIds']), message: Str }), {
    description: 'What the settings cannot do yet (too few approvers for the quorum, no critical approver), each with its field; a write that leaves one is still taken',
  }),
});
const SettingsPatch = Type.Object({
  approvalRequired: Type.Optional(Type.Enum(APPROVAL_MODES, { description: 'none: never; api: changes registered with a token; all: every change' })),
  quorum: Type.Optional(Type.Integer({ minimum: 1, maximum: 25, title: 'Quorum' })),
  approvalExpiryMinutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 10080, title: 'Approval expires after (minutes)' })),
  startTimeoutMinutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 10080, title: 'Start within (minutes)' })),
  surveillanceMinutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 1440, title: 'Surveillance (minutes)' })),
  completionRecipients: Type.Optional(Type.Array(Type.String({ maxLength: 320, title: 'Completion recipient' }), { maxItems: 25, title: 'Completion recipients' })),
  allowPrivateCallbacks: Type.Optional(Type.Boolean()),
  silenceInfra: Type.Optional(Type.Enum(SILENCE_MODES)),
  changeClassPolicy: Type.Optional(Type.Enum(CLASS_POLICIES, { title: 'Change class policy', description: 'normal_by_default: standard only when a change names a certified template that covers it; standard_by_default: whenever one covers it' })),
  l1Approvals: Type.Optional(Type.Integer({ minimum: 0, maximum: 25, title: 'L1 approvals', description: 'Approvals an L1 (low-risk) change needs; 0 = none. L2 needs the quorum, L3 at least two distinct approvers' })),
  requireBeforeState: Type.Optional(Type.Enum(BEFORE_STATE_RULES, { title: 'Before-state rule', description: 'Which changes cannot start without a before-state: production (a change naming a production environment), always, never' })),
  demoteOnRollback: Type.Optional(Type.Boolean({ title: 'Demote on rollback', description: 'The first rollback of a change its template made standard withdraws the template’s certification' })),
  rollbackSweepWindowHours: Type.Optional(Type.Integer({ minimum: 1, maximum: 168, title: 'Rollback sweep window (hours)', description: 'How far back the automatic rollback sweep looks for failed changes: 1 – 168' })),
  ticketing: Type.Optional(Nullable(TicketingInput)),
}, { additionalProperties: false });

export const changeRoutes: FastifyPluginAsyncTypebox<{ db: Database; changes: ChangeService; approvals: ApprovalService; classes: ClassService; settings: ChangeSettingsService; blast: BlastService }> = async (app, deps) => {
  const { db, changes, approvals, classes, settings, blast } = deps;
  const tags = ['changes'];
  const read = { access: { scope: 'changes:read' as const } };
  const write = { access: { scope: 'changes:write' as const } };
  const session = { access: 'session' as const };
  const ctx = requestAuditContext;
  const links = (id: string) => ({ change: changes.link({ id }), approve: changes.link({ id }, true) });

  const RegisteredEntry = Type.Object({ ...ChangeBody.properties, origin: Type.Literal('registered'), ...recordFields }, { description: 'A registered change: every Change field, and the fields every entry carries' });
  app.get('/api/changes', {
    config: read,
    schema: {
      tags, summary: 'The one change list: planned changes, flag writes and observed changes, newest first (at most 200), with what the connected sources cannot see',
      querystring: ListQuerystring,
      response: { 200: Type.Object({ changes: Type.Array(Type.Union([RegisteredEntry, FeedEntryBody])), neverCaptured: NeverCapturedBody }), ...errors(400, 401, 403) },
    },
  }, async (req) => {
    const { mine, unauthorized, denied, requests, include_proposed: includeProposed, ...rest } = req.query;
    const answer = await changes.list(req.principal!, { ...rest, mine: mine === '1', unauthorized: unauthorized === 'true', denied: denied === 'true', requests: requests === 'true', includeProposed: includeProposed === 'true' });
    // A feed entry's kind and status are strings in the seam's type, from the closed sets this schema lists.
    return answer as never;
  });

  app.post('/api/changes', {
    config: write,
    schema: {
      tags, summary: 'Register a change: 201 {change, blast, match, approval | mapping, callbackSecret}; 409 needsConfirm (100 services or more); 422 refused',
      body: ChangeInput, response: { 201: Registered, ...errors(400, 401, 403, 409, 422) },
    },
  }, async (req, reply) => reply.code(201).send(await changes.register(ctx(req), req.principal!, req.body)));

  app.get('/api/changes/:id', {
    config: read,
    schema: {
      tags, summary: 'One change; include=blast,events,reports adds its blast radius (completed from the current graph where it was trimmed), its timeline and its reports',
      params: Params, querystring: Type.Object({ include: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
      response: { 200: Type.Object({ change: ChangeBody, suppression: SuppressionBody, receipts: Type.Array(ReceiptBody), blast: Type.Optional(Nullable(Blast)), scopeLine: Type.Optional(Str), scopeBreakdown: Type.Optional(Str), events: Type.Optional(Type.Array(AuditEventBody)), reports: Type.Optional(Type.Array(ReportBody)) }), ...errors(400, 401, 403, 404) },
    },
  }, async (req) => {
    const c = await changes.get(req.principal!, req.params.id);
    const include = new Set((req.query.include ?? '').split(',').map((s) => s.trim()).filter(Boolean));
    const out: { change: typeof c; suppression: unknown; receipts: unknown[]; blast?: unknown; events?: unknown[]; reports?: unknown[]; scopeLine?: string; scopeBreakdown?: string } = {
      change: c, suppression: await changes.readSuppression(db, c.id), receipts: await changes.receipts(c),
    };
    if (include.has('blast')) {
      const b = await changes.blastOf(c);
      out.blast = b;
      if (b) Object.assign(out, { scopeLine: scopeLine(b.counts), scopeBreakdown: scopeBreakdown(b.counts) });
    }
    if (include.has('events')) out.events = (await listAuditEvents(db, c.orgId, { targetType: 'change', targetId: c.id }, 500)).items.reverse();
    if (include.has('reports')) out.reports = await store.listReports(db, c.id);
    return out as never;
  });

  app.put('/api/changes/:id', {
    config: write,
    schema: { tags, summary: 'Edit a draft or scheduled change (a new blast-radius version); draft: false submits a draft', params: Params, body: ChangePatch, response: { 200: Registered, ...errors(400, 401, 403, 404, 409, 422) } },
  }, async (req) => changes.edit(ctx(req), req.principal!, req.params.id, req.body));

  app.get('/api/changes/:id/status', {
    config: read,
    schema: { tags, summary: 'The compact status a pipeline polls', params: Params, response: { 200: Status, ...errors(401, 403, 404) } },
  }, async (req) => {
    const c = await changes.get(req.principal!, req.params.id);
    return readStatus(db, c, links(c.id), changes.readDeliveries, changes.readSuppression);
  });

  app.post('/api/changes/:id/start', { config: write, schema: { tags, summary: 'Start a scheduled or approved change now (409 while it waits for approval or mapping); a change already active is left as it is', params: Params, response: { 200: Started, ...errors(401, 403, 404, 409) } } },
    async (req) => changes.start(ctx(req), req.principal!, req.params.id));
  app.post('/api/changes/:id/complete', {
    config: write, schema: { tags, summary: 'Complete a running change (outcome defaults to success): it enters surveillance', params: Params, body: Outcome, response: { 200: OneChange, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => ({ change: await changes.finish(ctx(req), req.principal!, req.params.id, { ...req.body, defaultOutcome: 'success', verb: 'complete' }) }));
  app.post('/api/changes/:id/finish', {
    config: write, schema: { tags, summary: 'Finish a running change: it enters surveillance', params: Params, body: Outcome, response: { 200: OneChange, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => ({ change: await changes.finish(ctx(req), req.principal!, req.params.id, { ...req.body, defaultOutcome: null }) }));
  app.post('/api/changes/:id/abort', {
    config: write, schema: { tags, summary: 'Abort a running change (outcome rolled_back unless given)', params: Params, body: Outcome, response: { 200: OneChange, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => ({ change: await changes.finish(ctx(req), req.principal!, req.params.id, { ...req.body, abort: true, defaultOutcome: 'rolled_back' }) }));
  app.post('/api/changes/:id/extend', {
    config: write,
    schema: {
      tags, summary: 'Push a running change’s window out (its owner, an owner or an admin): windowEnd later than the current end, at most 7 days after the start; the alert hold and its silences follow. 409 unless active',
      params: Params, body: Type.Object({ windowEnd: Type.String({ maxLength: 40, description: 'ISO-8601 date-time, later than the current end', title: 'End (UTC)' }) }, { additionalProperties: false }),
      response: { 200: OneChange, ...errors(400, 401, 403, 404, 409) },
    },
  }, async (req) => ({ change: await changes.extend(ctx(req), req.principal!, req.params.id, req.body.windowEnd) }));
  app.post('/api/changes/:id/cancel', {
    config: write, schema: { tags, summary: 'Cancel a draft, scheduled, pending or approved change', params: Params, body: Type.Object({ reason: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false }), response: { 200: OneChange, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => ({ change: await changes.cancel(ctx(req), req.principal!, req.params.id, req.body.reason) }));
  app.post('/api/changes/:id/evaluate', {
    config: write, schema: { tags, summary: 'Evaluate a reported change again: a new horizon, then a new report version', params: Params, body: Type.Object({ evidenceMinutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 1440, title: 'Evidence horizon (minutes)' })) }, { additionalProperties: false }), response: { 200: OneChange, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => ({ change: await changes.evaluate(ctx(req), req.principal!, req.params.id, req.body.evidenceMinutes) }));

  app.get('/api/changes/:id/approvals', { config: read, schema: { tags, summary: 'Where approval stands and what the caller may do', params: Params, response: { 200: ApprovalViewBody, ...errors(401, 403, 404) } } },
    async (req) => approvals.view(req.principal!, req.params.id));
  app.post('/api/changes/:id/approve', {
    config: session,
    schema: { tags, summary: 'Approve (a listed approver, never the requester, once; people only). 409 {blockedOn: classification} while a service component has no tier', params: Params, body: Type.Object({ comment: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false }), response: { 200: ApprovalGivenBody, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => approvals.approve(ctx(req), req.principal!, req.params.id, req.body.comment));
  app.post('/api/changes/:id/class', {
    config: session,
    schema: {
      tags, summary: 'Reclassify a change that has not started (designated approvers, signed in): its tier and approval policy follow, collected approvals are voided',
      params: Params, body: Type.Object({ changeClass: Type.Enum(CHANGE_CLASSES), note: Type.String({ maxLength: 2000, description: 'Why, at least 5 characters' }) }, { additionalProperties: false }),
      response: { 200: OneChange, ...errors(400, 401, 403, 404, 409) },
    },
  }, async (req) => ({ change: await classes.reclassify(ctx(req), req.principal!, req.params.id, req.body.changeClass, req.body.note) }));
  app.post('/api/changes/:id/reject', {
    config: session,
    schema: { tags, summary: 'Reject with a reason: the first rejection rejects the change', params: Params, body: Type.Object({ reason: Type.String({ maxLength: 2000 }) }, { additionalProperties: false }), response: { 200: RejectedBody, ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => approvals.reject(ctx(req), req.principal!, req.params.id, req.body.reason));
  app.post('/api/changes/:id/classify', {
    config: session,
    schema: { tags, summary: 'Give tiers to service components without one (approvers; saved to the catalogue)', params: Params, body: Type.Object({ components: Type.Array(Type.Object({ key: Type.String({ maxLength: 500 }), tier: Type.String({ maxLength: 20 }) }, { additionalProperties: false }), { maxItems: 100 }) }, { additionalProperties: false }), response: { 200: Type.Object({ ...ClassifiedFields, change: ChangeBody }, { $id: 'Classified' }), ...errors(400, 401, 403, 404, 409) } },
  }, async (req) => approvals.classify(ctx(req), req.principal!, req.params.id, req.body.components));
  const Entry = Type.Object({
    input: Type.String({ minLength: 1, maxLength: 200 }), kind: Type.Optional(Type.String({ maxLength: 40 })), key: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    createService: Type.Optional(Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false })), remember: Type.Optional(Type.Boolean()),
  }, { additionalProperties: false });
  app.post('/api/changes/:id/mappings', {
    config: session,
    schema: { tags, summary: 'Map the unresolved names of a pending_mapping change; with none left it moves on', params: Params, body: Type.Object({ entries: Type.Array(Entry, { maxItems: 50 }), confirmLarge: Type.Optional(Type.Boolean()) }, { additionalProperties: false }), response: { 200: Type.Object({ change: ChangeBody, remaining: Type.Integer(), status: Str }), ...errors(400, 401, 403, 404, 409, 422) } },
  }, async (req) => approvals.map(ctx(req), req.principal!, req.params.id, req.body.entries, req.body.confirmLarge ?? false));

  app.get('/api/changes/:id/contracts', {
    config: read,
    schema: { tags, summary: 'The contract of each service → service call edge of the change’s blast radius', params: Params, querystring: Type.Object({ stale: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])) }, { additionalProperties: false }), response: { 200: Type.Object({ changeId: Str, computedAt: Str, ...ContractsBody.properties }, { $id: 'ChangeContracts' }), ...errors(401, 403, 404) } },
  }, async (req) => {
    const c = await changes.get(req.principal!, req.params.id);
    const b = await changes.blastOf(c);
    if (!b) throw notFound('the change has no blast-radius snapshot yet (its components are not mapped)');
    return { changeId: c.id, computedAt: new Date().toISOString(), ...(await blast.contracts(c.orgId, b.edges ?? [], { includeStale: req.query.stale === 1 })) };
  });

  const OrgParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
  app.get('/api/organizations/:id/change-settings', {
    config: session, schema: { tags, summary: 'The organisation’s change settings and approvers (owners and admins)', params: OrgParams, response: { 200: SettingsBody, ...errors(401, 403, 404) } },
  }, async (req) => settings.get(ownOrganization(req, req.params.id)));
  app.put('/api/organizations/:id/change-settings', {
    config: session, schema: { tags, summary: 'Change some settings (left out: kept); audited', params: OrgParams, body: SettingsPatch, response: { 200: SettingsBody, ...errors(400, 401, 403, 404) } },
  }, async (req) => settings.update(ctx(req), ownOrganization(req, req.params.id), req.body));
  app.put('/api/organizations/:id/change-approvers', {
    config: session,
    schema: { tags, summary: 'The whole approver list {userIds, criticalUserIds?}: active members, at most 50; not below the quorum while approval is required', params: OrgParams, body: Type.Object({ userIds: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 }), criticalUserIds: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })) }, { additionalProperties: false }), response: { 200: SettingsBody, ...errors(400, 401, 403, 404) } },
  }, async (req) => settings.setApprovers(ctx(req), ownOrganization(req, req.params.id), req.body.userIds, req.body.criticalUserIds));
};
