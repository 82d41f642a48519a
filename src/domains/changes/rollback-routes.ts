/** HTTP of before-state captures and rollbacks. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requestAuditContext } from '../../platform/http/access.js';
import { errors } from '../../platform/http/schemas.js';
import { COMPLETENESS, MAX_BEFORE_STATE_BYTES, PRESTATE_STATUSES } from './before-state.js';
import type { BeforeStateService } from './before-state-service.js';
import { BeforeStateFields, ChangeBody } from './change-routes.js';
import type { RollbackService } from './rollback-service.js';
import type { ValidationService } from './validation-service.js';
import { COMPARATORS } from './validation-plan.js';
import { ROLLBACK_KINDS } from './rollback-sweep.js';

const Str = Type.String();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
/** Room for a 256 KiB artifact sent as JSON-escaped text; the artifact's own size is judged by the rule (413 naming it). */
const BEFORE_STATE_BODY_LIMIT = 4 * MAX_BEFORE_STATE_BYTES;

const CaptureBody = Type.Object({
  id: Str, changeId: Str, source: Type.String({ description: 'pipeline or person' }),
  method: Type.Enum(['previous_version', 'previous_commit', 'base_commit', 'artifact']), previousVersion: Nullable(Str), previousCommit: Nullable(Str),
  artifact: Nullable(Type.String({ description: 'Only when one capture is read: the artifact as stored' })), artifactType: Nullable(Type.Enum(['json', 'text'])), artifactName: Nullable(Str),
  sizeBytes: Type.Integer(), sha256: Str, completeness: Type.Enum(COMPLETENESS), prestateStatus: Type.Enum(PRESTATE_STATUSES),
  restorable: Type.Boolean({ description: 'false when the stored evidence is not byte-exact (JSON kept canonical) or there was nothing before' }),
  capturedAt: Str, capturedBy: Type.Object({ kind: Str, id: Nullable(Str), name: Str }),
}, { $id: 'Capture', description: 'One before-state capture: append-only' });
const NeedBody = Type.Object({ required: Type.Boolean(), satisfied: Type.Boolean(), reason: Str }, { description: 'The before-state rule for this change now' });
const FlagBeforeBody = Type.Object({ flag: Str, env: Str, from: Type.Unknown(), to: Type.Unknown(), at: Str, hash: Str }, { description: 'A flag write the change made (changeId on the write): before and after' });
const BeforeStateAnswer = Type.Object({ captures: Type.Array(CaptureBody), digest: Nullable(Str), need: NeedBody, flagWrites: Type.Array(FlagBeforeBody) });
const BeforeStateInput = Type.Object(BeforeStateFields, { additionalProperties: false });
const Flat = Type.Object({
  previousVersion: BeforeStateFields.previousVersion, previousCommit: BeforeStateFields.previousCommit,
  artifact: Type.Optional(Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown()), Type.Array(Type.Unknown())])),
  artifactName: Type.Optional(Type.String({ maxLength: 200 })), completeness: Type.Optional(Type.Enum(COMPLETENESS)), prestateStatus: Type.Optional(Type.Enum(PRESTATE_STATUSES)),
}, { additionalProperties: false });

const PathBody = Type.Object({
  kind: Type.Enum(ROLLBACK_KINDS), plan: Type.String({ description: 'The way back, numbered steps for people' }), steps: Type.Array(Str),
  generatedBy: Type.Enum(['pipeline', 'person', 'changeledger']),
});
const RollbackBody = Type.Object({
  path: PathBody, state: Nullable(Type.Enum(['requested', 'rolled_back', 'failed'])), requestedAt: Nullable(Str), completedAt: Nullable(Str),
  releasedBy: Nullable(Type.Array(Type.Object({ kind: Type.Enum(['person', 'sweep']), id: Nullable(Str), email: Nullable(Str), at: Str }))),
  decision: Nullable(Type.Object({ decision: Type.Enum(['execute', 'escalate', 'skip']), reason: Str, at: Str })),
  releasesNeeded: Type.Integer({ description: '2 at L3 (two distinct approvers), else 1' }), releases: Type.Array(Type.Object({ userId: Str, at: Str })),
}, { $id: 'Rollback' });
const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });

const ItemBody = Type.Object({
  id: Str, target: Str, check: Type.Enum(['promql', 'http']), query: Type.Optional(Str), url: Type.Optional(Str),
  expected: Type.Object({ op: Type.Enum(COMPARATORS), value: Type.Union([Type.Number(), Str]) }), group: Type.Optional(Str),
  direction: Type.Optional(Type.Enum(['up', 'down', 'both'])), hops: Type.Optional(Type.Integer()),
});
const ValidationBody = Type.Object({
  plan: Nullable(Type.Array(ItemBody)), result: Nullable(Type.Enum(['cleared', 'still_present', 'uncertain'])), reason: Nullable(Str), checkedAt: Nullable(Str),
  dueAt: Nullable(Type.String({ description: '30 s after the finish' })),
  rows: Type.Array(Type.Object({ itemId: Str, state: Type.Enum(['pass', 'fail', 'not_observed']), observed: Nullable(Str), detail: Str, checkedAt: Str })),
}, { $id: 'Validation' });

export const rollbackRoutes: FastifyPluginAsyncTypebox<{ beforeStates: BeforeStateService; rollbacks: RollbackService; validations: ValidationService }> = async (app, { beforeStates, rollbacks, validations }) => {
  const tags = ['changes'];
  const read = { access: { scope: 'changes:read' as const } };
  const write = { access: { scope: 'changes:write' as const } };

  app.get('/api/changes/:id/before-state', { config: read, schema: { tags, summary: 'The change’s before-state captures and the rule for it', params: Params, response: { 200: BeforeStateAnswer, ...errors(401, 403, 404) } } },
    async (req) => beforeStates.view(req.principal!, req.params.id));

  app.get('/api/changes/:id/before-state/:captureId', {
    config: read, schema: { tags, summary: 'One capture, with its artifact', params: Type.Object({ id: Type.String({ maxLength: 100 }), captureId: Type.String({ maxLength: 100 }) }), response: { 200: CaptureBody, ...errors(401, 403, 404) } },
  }, async (req) => beforeStates.capture(req.principal!, req.params.id, req.params.captureId));

  app.post('/api/changes/:id/before-state', {
    config: { ...write, pipelineBodyLimit: BEFORE_STATE_BODY_LIMIT }, bodyLimit: BEFORE_STATE_BODY_LIMIT,
    schema: {
      tags, summary: 'Add a before-state capture before the change starts (previousVersion, previousCommit, or an artifact up to 256 KiB)',
      description: 'Append-only. The capture joins the approval digest: approvals given before it stop counting and an approved change waits for approval again. A change whose start waited for its before-state starts once one arrives.',
      params: Params, body: Type.Union([BeforeStateInput, Flat]), response: { 201: Type.Object({ change: ChangeBody, captures: Type.Array(CaptureBody), digest: Nullable(Str), need: NeedBody, flagWrites: Type.Array(FlagBeforeBody) }), ...errors(400, 401, 403, 404, 409, 413) },
    },
  }, async (req, reply) => {
    const b = req.body as Record<string, unknown> & { beforeState?: Record<string, unknown> };
    const input = { ...(b.beforeState ?? {}), ...Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'beforeState')) };
    return reply.status(201).send(await beforeStates.add(requestAuditContext(req), req.principal!, req.params.id, input as Parameters<BeforeStateService['add']>[3]));
  });

  app.get('/api/changes/:id/validation', {
    config: read, schema: { tags, summary: 'The validation plan and, once checked after the finish, one row per item and the result', params: Params, response: { 200: ValidationBody, ...errors(401, 403, 404) } },
  }, async (req) => validations.view(req.principal!, req.params.id));

  app.get('/api/changes/:id/rollback', { config: read, schema: { tags, summary: 'The change’s rollback path, its plan, and what became of it', params: Params, response: { 200: RollbackBody, ...errors(401, 403, 404) } } },
    async (req) => rollbacks.view(req.principal!, req.params.id));

  app.post('/api/changes/:id/rollback', {
    config: { access: 'session' as const },
    schema: {
      tags, summary: 'Release the rollback of a change that ran: a designated approver, signed in (an L3 change needs two distinct approvers)',
      description: 'A flag change is written back by changeledger at once (rolled_back). A deploy or manual rollback is requested: the pipeline gets change.rollback_requested with the before-state, and reports it done with POST …/rollback/complete.',
      params: Params, body: Type.Optional(Type.Object({ note: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false })),
      response: { 200: Type.Object({ change: ChangeBody, rollback: RollbackBody, executed: Type.Boolean({ description: 'false while an L3 rollback waits for its second approver' }), reverted: Type.Array(Type.Object({ flag: Str, env: Str, result: Str, hash: Nullable(Str) })) }), ...errors(400, 401, 403, 404, 409) },
    },
  }, async (req) => rollbacks.release(requestAuditContext(req), req.principal!, req.params.id, req.body?.note));

  app.post('/api/changes/:id/rollback/complete', {
    config: write,
    schema: {
      tags, summary: 'Report a requested rollback done (rolled_back) or failed: the pipeline that ran it, or a person', params: Params,
      body: Type.Object({ result: Type.Enum(['rolled_back', 'failed']), notes: Type.Optional(Type.String({ maxLength: 5000 })) }, { additionalProperties: false }),
      response: { 200: Type.Object({ change: ChangeBody }), ...errors(400, 401, 403, 404, 409) },
    },
  }, async (req) => ({ change: await rollbacks.complete(requestAuditContext(req), req.principal!, req.params.id, req.body.result, req.body.notes) }));
};
