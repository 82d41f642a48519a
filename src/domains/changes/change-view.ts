/** The compact status a pipeline polls (and every callback carries). Pure. */
import type { Change } from './change-store.js';
import { policyWords } from './risk-tier.js';
import { unknownTier } from './change-service.js';
import type { Decision } from './change-store.js';
import * as store from './change-store.js';
import type { Queryable } from '../../platform/db/database.js';
import type { DeliveriesReader, DeliveriesView } from './change-deliveries.js';
import { NO_SUPPRESSION, noSuppression, type Suppression, type SuppressionReader } from './change-suppression.js';
import { listCaptures, type Capture } from './capture-store.js';

/** The tier's approval policy in words, from what the change stamped (its quorum is the tier's number). */
function policyOf(c: Change): string {
  const n = c.gated ? c.quorum ?? 0 : 0;
  return policyWords(c.riskTier!, n, c.criticality === 'critical' && n > 0, c.gated);
}

export type ApprovalState = 'not_required' | 'mapping' | 'pending' | 'approved' | 'rejected' | 'expired';

export function approvalState(c: Change, decisions: Decision[]): ApprovalState {
  if (c.status === 'pending_mapping') return 'mapping';
  if (c.status === 'expired') return 'expired';
  if (!c.gated) return 'not_required';
  if (c.status === 'pending_approval' || c.status === 'draft') return 'pending';
  if (c.status === 'rejected') return 'rejected';
  if (c.status === 'cancelled') return c.decidedAt && decisions.some((d) => d.decision === 'approved') ? 'approved' : 'pending';
  return 'approved';
}

export function statusOf(c: Change, decisions: Decision[], links: { change: string; approve: string }, deliveries: DeliveriesView = { callback: null, ticket: null }, suppression: Suppression = NO_SUPPRESSION, captures: Capture[] = []) {
  const approvals = decisions.filter((d) => d.decision === 'approved');
  const unknown = unknownTier(c);
  const critical = c.criticality === 'critical';
  const state = approvalState(c, decisions);
  const blockedOn: 'classification' | 'critical_approver' | null = c.status !== 'pending_approval' ? null : unknown.length ? 'classification' : critical && !approvals.some((a) => a.critical) ? 'critical_approver' : null;
  return {
    id: c.id, displayId: c.displayId, title: c.title, status: c.status,
    statusReason: c.status === 'rejected' ? c.rejectionReason : c.status === 'expired' || c.status === 'cancelled' ? c.endReason : null,
    approval: {
      state, approvals: c.gated ? approvals.length : null, required: c.quorum,
      expiresAt: c.status === 'approved' ? c.startDeadline : c.status === 'pending_approval' || c.status === 'pending_mapping' ? c.approvalExpiresAt
        : c.status === 'expired' ? (c.startDeadline ?? c.approvalExpiresAt) : null,
      decidedAt: c.decidedAt, reason: c.rejectionReason, criticalRequired: critical, criticalApproved: critical ? approvals.some((a) => a.critical) : null, blockedOn,
      tier: c.riskTier, policy: c.riskTier ? policyOf(c) : null, digest: c.approvedDigest, approvedCommit: c.approvedDigest ? c.pipeline?.commit ?? null : null,
    },
    changeClass: c.changeClass, changeClassReason: c.changeClassReason, windowBypassed: c.windowBypassed,
    criticality: c.criticality, criticalitySource: c.criticalitySource,
    ...(c.status === 'pending_approval' && unknown.length ? { classification: { unknown: unknown.map((u) => u.name), url: links.approve } } : {}),
    ...(c.status === 'pending_mapping' ? { mapping: { unresolved: c.unresolved.map((u) => u.query), url: links.change } } : {}),
    deployment: { startedAt: c.startedAt, finishedAt: c.finishedAt, windowStart: c.windowStart, windowEnd: c.windowEnd, outcome: c.outcome, autoStart: c.autoStart },
    surveillance: { minutes: c.evidenceMinutes, evaluateAt: c.evaluateAt, reportedAt: c.reportedAt, impact: c.impact, aiImpact: c.aiImpact },
    suppression, ticket: deliveries.ticket, callback: deliveries.callback, pipeline: c.pipeline, links,
    // What was there before, so a pipeline told to roll back knows what to redeploy.
    beforeState: {
      digest: c.captureDigest,
      captures: captures.map((x) => ({ id: x.id, method: x.method, previousVersion: x.previousVersion, previousCommit: x.previousCommit, artifactName: x.artifactName, sha256: x.sha256, completeness: x.completeness, restorable: x.restorable })),
    },
    rollback: { state: c.rollbackState, requestedAt: c.rollbackRequestedAt, completedAt: c.rollbackCompletedAt, decision: c.rollbackDecision },
    validation: { items: c.validationPlan?.length ?? 0, result: c.validationResult, checkedAt: c.validationCheckedAt },
  };
}

/** The /status body as stored now: the change, its decisions, its deliveries and its hold (read through the seams deliveries and alerts fill). */
export async function readStatus(db: Queryable, c: Change, links: { change: string; approve: string }, deliveries: DeliveriesReader, suppression: SuppressionReader = noSuppression) {
  return statusOf(c, await store.listDecisions(db, c.id), links, await deliveries(db, c.id, c.ticket), await suppression(db, c.id), await listCaptures(db, c.id));
}
