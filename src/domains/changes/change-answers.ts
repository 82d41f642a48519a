import { Type, type Static } from 'typebox';
import { CHANGE_STATUSES } from './change-lifecycle.js';
import { IMPACTS, OUTCOMES } from './change-store.js';

// Answers of the change routes that are not the change itself: approval (GET …/approvals, approve,
// reject, classify), the registration's approval summary, reports. A response
// schema also decides what is sent: a field the service adds must be listed here, or it is dropped.

const Str = Type.String();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Tier = Type.Enum(['critical', 'important', 'standard']);
const Status = Type.Enum(CHANGE_STATUSES);
const CriticalitySource = Nullable(Type.Enum(['components', 'blast', 'none', 'pending']));
const BlockedOn = Nullable(Type.Enum(['classification', 'critical_approver']));
const Decision = Type.Enum(['approved', 'rejected']);
const Entity = Type.Object({ key: Str, name: Str, kind: Str });
const Tiers = Type.Record(Str, Nullable(Tier), { description: 'Each service component’s tier; null while it has none' });

export const ApprovalViewBody = Type.Object({
  status: Status, gated: Type.Boolean(), required: Nullable(Type.Integer({ description: 'The quorum; null when approval is not required' })),
  approvals: Type.Array(Type.Object({ userId: Str, name: Str, decision: Decision, comment: Nullable(Str), at: Str, critical: Type.Boolean() }), { description: 'Every decision so far, approvals and rejections' }),
  approvers: Type.Array(Type.Object({ userId: Str, name: Str, requester: Type.Boolean(), critical: Type.Boolean() })),
  canApprove: Type.Boolean(), canClassify: Type.Boolean(), isRequester: Type.Boolean(), isApprover: Type.Boolean(),
  mine: Nullable(Type.Object({ decision: Decision, comment: Nullable(Str), at: Str })),
  expiresAt: Nullable(Str), criticality: Nullable(Tier), criticalitySource: CriticalitySource, componentTiers: Tiers,
  criticalRequired: Type.Boolean(), criticalApproved: Nullable(Type.Boolean()),
  criticalApprovers: Type.Array(Type.Object({ userId: Str, name: Str, requester: Type.Boolean() })),
  blockedOn: BlockedOn, blockedReason: Nullable(Str), unknownTierComponents: Type.Array(Entity),
}, { $id: 'ApprovalView', description: 'Where approval stands, and what the caller may do about it' });

export const ApprovalGivenBody = Type.Object({
  status: Status, approvals: Type.Integer({ description: 'Approvals so far, this one included' }), required: Nullable(Type.Integer()),
  criticality: Nullable(Tier), criticalitySource: CriticalitySource, criticalRequired: Type.Boolean(), criticalApproved: Nullable(Type.Boolean()), blockedOn: BlockedOn,
}, { $id: 'ApprovalGiven', description: 'The change after the approval: approved (or started, with autoStart) once the quorum is reached' });

export const RejectedBody = Type.Object({ status: Status }, { $id: 'Rejected' });

/** The classify answer without its `change` (the route adds the change's own schema). */
export const ClassifiedFields = {
  classified: Type.Array(Type.Object({ key: Str, name: Str, tier: Tier, where: Type.Enum(['catalogue', 'manual', 'unseen'], { description: 'Where the tier was saved: the catalogue entity, a manual service, or a new entity for a key never seen' }) })),
  criticality: Nullable(Tier), criticalitySource: CriticalitySource, componentTiers: Tiers, unknownTierComponents: Type.Array(Entity),
};

/** What a registration answers about the approval it now waits for. */
export const RegisteredApprovalBody = Type.Object({
  required: Type.Integer(), approvers: Type.Integer({ description: 'Approvers other than the requester' }), expiresAt: Nullable(Str),
  criticality: Nullable(Tier), criticalitySource: CriticalitySource, criticalRequired: Type.Boolean(), criticalApprovers: Type.Integer(),
  unknownTierComponents: Type.Array(Entity), warning: Type.Optional(Type.String({ description: 'Why it may wait until it expires (too few approvers, no critical approver)' })),
}, { $id: 'RegisteredApproval' });
export type RegisteredApproval = Static<typeof RegisteredApprovalBody>;

/** One version of a change's report (GET /api/changes/{id}?include=reports). */
export const ReportBody = Type.Object({
  version: Type.Integer(), impact: Type.Enum(IMPACTS), aiImpact: Type.Union([Type.Enum(IMPACTS), Type.Null()], { description: 'The AI assessment\'s tier, beside the verdict (null: none was made)' }),
  rule: Type.Union([Str, Type.Null()], { description: 'The verdict rule that matched (null on old reports)' }), outcome: Nullable(Type.Enum(OUTCOMES)), summary: Str,
  body: Type.Record(Str, Type.Unknown(), { description: 'The evidence the verdict rests on' }), createdAt: Str,
}, { $id: 'ChangeReport' });

export const WindowRefBody = Type.Object({ id: Str, name: Str, kind: Type.Enum(['change', 'freeze']), start: Str, end: Str }, { description: 'One occurrence of a window' });
export const WindowVerdictBody = Type.Object({
  allowed: Type.Boolean(), window: Nullable(WindowRefBody), reason: Str, nextOpening: Nullable(Type.String({ description: 'When a start would next be allowed (null: allowed now, or no opening within the horizon)' })),
}, { $id: 'WindowVerdict' });
export const WindowConflictBody = Type.Object({ window: Nullable(WindowRefBody), conflict: Type.Enum(['freeze_overlaps', 'outside_change_windows']), reason: Str }, { $id: 'WindowConflict' });
