import { Type } from 'typebox';
import { IsoTime } from '../../platform/http/schemas.js';
import { APPROVAL_POLICIES, FLAG_SOURCES, FLAG_TYPES, RISKS, RULE_OPS } from './flag.js';

const Key = Type.String({ minLength: 1, maxLength: 200, description: 'Dotted lower-case words: ops.payments.new-processor' });
const EnvKey = Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$' });
const AnyJson = Type.Unknown({ description: 'A value of the flag’s type' });

export const RuleBody = Type.Object(
  {
    attribute: Type.String({ minLength: 1, maxLength: 100 }),
    op: Type.Enum(RULE_OPS),
    values: Type.Array(Type.String({ maxLength: 500 }), { minItems: 1, maxItems: 500 }),
    value: AnyJson,
  },
  { additionalProperties: false },
);
export const RolloutBody = Type.Object(
  {
    percentage: Type.Number({ minimum: 0, maximum: 100, description: 'Share of contexts served the value' }),
    bucketBy: Type.String({ minLength: 1, maxLength: 100, description: 'Context attribute that buckets stably, e.g. targetingKey or userId' }),
  },
  { additionalProperties: false },
);

export const StateBody = Type.Object({
  env: Type.String(),
  enabled: Type.Boolean(),
  value: AnyJson,
  rules: Type.Array(RuleBody),
  rollout: Type.Union([RolloutBody, Type.Null()]),
  version: Type.Integer(),
  updatedAt: IsoTime,
});

export const FlagBody = Type.Object({
  key: Type.String(),
  type: Type.Enum(FLAG_TYPES),
  description: Type.String(),
  ownerService: Type.Union([Type.String(), Type.Null()]),
  risk: Type.Enum(RISKS),
  tags: Type.Array(Type.String()),
  offValue: AnyJson,
  approvalsNeeded: Type.Integer({ description: 'Approvals every change needs; 0 follows each environment’s policy' }),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  states: Type.Array(StateBody),
});

const Provenance = {
  reason: Type.Optional(Type.String({ maxLength: 2000, description: 'Required on high-risk flags: ≥ 10 characters, a ticket reference or a link' })),
  source: Type.Optional(Type.Enum(FLAG_SOURCES, { description: 'Defaults to ui for a session, api for a token' })),
  gitops: Type.Optional(Type.Object({ commitSha: Type.String({ pattern: '^[0-9a-f]{7,64}$' }), deployRun: Type.Union([Type.String({ maxLength: 500 }), Type.Null()]) }, { additionalProperties: false })),
  automation: Type.Optional(Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), trigger: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false, description: 'Which automation writes, and what set it off' })),
  breakGlass: Type.Optional(Type.Boolean({ description: 'Turn off now, past any approval policy (incidents); needs a reason meeting the high-risk bar; recorded for review' })),
  changeId: Type.Optional(Type.String({ pattern: '^chg_[0-9a-f]{32}$', description: 'The planned change this write belongs to (chg_…): its rollback writes the flag back' })),
};

export const NewFlagInput = Type.Object(
  {
    key: Key,
    type: Type.Enum(FLAG_TYPES),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    ownerService: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()])),
    risk: Type.Enum(RISKS),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20 })),
    offValue: Type.Optional(AnyJson),
    value: Type.Optional(AnyJson),
    approvalsNeeded: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
    ...Provenance,
  },
  { additionalProperties: false },
);

export const FlagSettingsInput = Type.Object(
  {
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    ownerService: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()])),
    risk: Type.Optional(Type.Enum(RISKS)),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20 })),
    approvalsNeeded: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
    ...Provenance,
  },
  { additionalProperties: false },
);

export const StatePatchInput = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    value: Type.Optional(AnyJson),
    rules: Type.Optional(Type.Array(RuleBody, { maxItems: 100 })),
    rollout: Type.Optional(Type.Union([RolloutBody, Type.Null()])),
    ...Provenance,
  },
  { additionalProperties: false },
);

export const BulkInput = Type.Object(
  {
    namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'ops.payments.* for every flag under it' })),
    keys: Type.Optional(Type.Array(Key, { minItems: 1, maxItems: 1000 })),
    env: EnvKey,
    enabled: Type.Optional(Type.Boolean()),
    rollout: Type.Optional(Type.Union([RolloutBody, Type.Null()])),
    ...Provenance,
  },
  { additionalProperties: false },
);

export const FlagRecordBody = Type.Object({
  seq: Type.Integer(),
  ts: IsoTime,
  change: Type.Enum(['created', 'updated', 'unchanged', 'deleted']),
  flag: Type.String(),
  env: Type.Union([Type.String(), Type.Null()]),
  from: Type.Unknown({ description: 'The value that changed, before: a toggle\'s boolean, a value, the moved slice of a rollout or rules; "(absent)" before a creation' }),
  to: Type.Unknown({ description: 'The value after; false (off) for a creation' }),
  fields: Type.Array(Type.String()),
  definition: Type.Unknown({ description: 'For a creation: what the flag was created as (type, risk, ownerService, tags, offValue, value, approvalsNeeded); else null' }),
  actor: Type.String({ description: 'Display name of whoever changed it' }),
  actorDetail: Type.Object({ kind: Type.String(), id: Type.Union([Type.String(), Type.Null()]), name: Type.String(), automation: Type.Union([Type.String(), Type.Null()]), trigger: Type.Union([Type.String(), Type.Null()]) }),
  reason: Type.String({ description: 'Why; "(no reason required)" where a low-risk flag was changed without one' }),
  approvers: Type.Array(Type.String()),
  source: Type.Enum(FLAG_SOURCES),
  correlationId: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()]),
  gitops: Type.Union([Type.Object({ commitSha: Type.String(), deployRun: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  breakGlass: Type.Boolean(),
  freezeBypassed: Type.Union([Type.Object({ window: Type.String(), until: Type.String() }), Type.Null()], { description: 'The freeze a break-glass write passed (high-risk flags in production are held to freezes)' }),
  changeId: Type.Union([Type.String(), Type.Null()], { description: 'The planned change the write belongs to' }),
  revertOf: Type.Union([Type.String(), Type.Null()], { description: 'A rollback’s write: the hash of the record it wrote back' }),
  schemaVersion: Type.Integer(),
  hash: Type.String(),
});

export const WriteResultBody = Type.Object({ flag: Type.String(), env: Type.String(), result: Type.Enum(['changed', 'unchanged']), record: FlagRecordBody, state: StateBody });

const ActorBody = Type.Object({ kind: Type.String(), id: Type.Union([Type.String(), Type.Null()]), name: Type.String(), automation: Type.Optional(Type.Union([Type.String(), Type.Null()])), trigger: Type.Optional(Type.Union([Type.String(), Type.Null()])) });
export const ChangeRequestBody = Type.Object({
  id: Type.String(),
  flag: Type.String(),
  env: Type.String(),
  patch: Type.Record(Type.String(), Type.Unknown()),
  reason: Type.String(),
  status: Type.Enum(['proposed', 'applied', 'rejected', 'expired']),
  approvalsNeeded: Type.Integer(),
  approvals: Type.Array(Type.Object({ user: Type.Object({ id: Type.String(), email: Type.String() }), at: IsoTime })),
  proposer: ActorBody,
  createdAt: IsoTime,
  expiresAt: IsoTime,
  decidedAt: Type.Union([IsoTime, Type.Null()]),
  rejection: Type.Union([Type.Object({ by: Type.String(), comment: Type.String() }), Type.Null()]),
  recordSeq: Type.Union([Type.Integer(), Type.Null()]),
});
export const ProposedBody = Type.Object({ flag: Type.String(), env: Type.String(), result: Type.Literal('proposed'), changeRequest: ChangeRequestBody });
export const BulkResultBody = Type.Object({ correlationId: Type.String(), results: Type.Array(Type.Union([WriteResultBody, ProposedBody])) });
export const RequestList = Type.Object({ items: Type.Array(ChangeRequestBody) });
export const RequestQuery = Type.Object({ status: Type.Optional(Type.Enum(['proposed', 'applied', 'rejected', 'expired'])), flag: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false });
export const RequestParams = Type.Object({ id: Type.String({ pattern: '^fcr_[0-9a-f]{32}$' }) });
export const ApproveInput = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false });
export const RejectInput = Type.Object({ comment: Type.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false });
export const DecisionBody = Type.Object({ changeRequest: ChangeRequestBody, result: Type.Optional(Type.Union([WriteResultBody, Type.Null()])) });

const TimeBound = Type.String({ maxLength: 40, description: 'A duration back from now (1h, 7d) or an ISO-8601 time' });
export const FlagAuditQuery = Type.Object(
  {
    namespace: Type.Optional(Type.String({ maxLength: 200, description: 'ops.payments.* or one key' })),
    actor: Type.Optional(Type.String({ maxLength: 200 })),
    env: Type.Optional(Type.String({ maxLength: 32 })),
    since: Type.Optional(TimeBound),
    until: Type.Optional(TimeBound),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  },
  { additionalProperties: false },
);
/** The organisation-wide record list adds the owning service; one flag's history has no use for it. */
export const FlagAuditListQuery = Type.Object(
  {
    ...FlagAuditQuery.properties,
    service: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Only flags this service owns: its catalogue key (svc:payments-api) or its name (payments-api)' })),
  },
  { additionalProperties: false },
);
export const FlagAuditPage = Type.Object({ items: Type.Array(FlagRecordBody), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export const FlagList = Type.Object({ items: Type.Array(FlagBody) });
export const FlagListQuery = Type.Object({ namespace: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false });
export const KeyParams = Type.Object({ key: Key });
export const KeyEnvParams = Type.Object({ key: Key, env: EnvKey });
export const EnvironmentBody = Type.Object({ key: Type.String(), name: Type.String(), position: Type.Integer(), approvalPolicy: Type.Enum(APPROVAL_POLICIES), approvalsNeeded: Type.Integer() });
export const EnvironmentPolicyInput = Type.Object(
  { approvalPolicy: Type.Optional(Type.Enum(APPROVAL_POLICIES)), approvalsNeeded: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })) },
  { additionalProperties: false },
);
export const EnvParams = Type.Object({ key: EnvKey });
export const EnvironmentInput = Type.Object({ key: EnvKey, name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export const EnvironmentList = Type.Object({ items: Type.Array(EnvironmentBody) });
