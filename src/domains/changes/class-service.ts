/**
 * Changing a change's class after registration: an approver reclassifies it, or its template stops
 * backing it (withdrawn or edited before the change started). Either way the tier and the approval
 * policy follow, the approvals collected so far are voided, and a change that waited for approval
 * or was approved waits again. A change that has started keeps the class it ran under.
 */
import type { Clock } from '../../platform/clock.js';
import type { Database, Tx } from '../../platform/db/database.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import type { Principal } from '../auth/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { approvalDigest, approvedContent } from './approval-digest.js';
import { reopenPatch } from './approval-reopen.js';
import { CHANGE_CLASSES, CLASS_DROP_CAUSES, droppedClass, type ChangeClass, type ClassDecision, type ClassDropCause } from './change-class.js';
import type { ChangeService } from './change-service.js';
import { environmentOf } from './change-governance.js';
import { readApprovers, readSettings } from './change-settings.js';
import * as store from './change-store.js';
import type { Change } from './change-store.js';

/** Statuses before the start: the class may still change. */
const NOT_STARTED = ['draft', 'scheduled', 'pending_mapping', 'pending_approval', 'approved'] as const;
export const MIN_NOTE = 5;

export class ClassService {
  constructor(private readonly deps: { db: Database; clock: Clock; changes: ChangeService }) {}

  /** POST /api/changes/{id}/class: an approver, signed in, with a note of at least 5 characters. */
  async reclassify(ctx: AuditContext, p: Principal, id: string, changeClass: string, note: string): Promise<Change> {
    if (p.kind !== 'session') throw forbidden('reclassifying is for people, signed in — never an API token');
    if (!(CHANGE_CLASSES as readonly string[]).includes(changeClass)) throw badRequest(`changeClass must be one of ${CHANGE_CLASSES.join(', ')}`, 'changeClass');
    const words = note.trim();
    if (words.length < MIN_NOTE) throw badRequest(`say why in the note (at least ${MIN_NOTE} characters)`, 'note');
    return this.deps.db.transaction(async (tx) => {
      const c = await store.findChange(tx, p.org.id, id, true);
      if (!c) throw notFound(`no change ${id}`);
      const approvers = await readApprovers(tx, p.org.id);
      if (!approvers.some((a) => a.userId === p.user.id)) throw forbidden('only the organisation’s designated approvers reclassify changes');
      if (!(NOT_STARTED as readonly string[]).includes(c.status)) throw conflict(`the change is ${c.status}: a change that has run keeps the class it ran under`, { status: c.status });
      const decision: ClassDecision = { changeClass: changeClass as ChangeClass, source: 'reclassified', reason: `${changeClass}: reclassified by ${p.user.email} — ${words}`, template: null };
      return this.apply(tx, ctx, c, decision, null, 'change.reclassified', { from: c.changeClass, to: changeClass, note: words, by: p.user.email });
    });
  }

  /**
   * The template stopped backing its changes: each one not started yet that it made standard drops
   * to the class it has without it, in the caller's transaction (the template's write). Returns how many.
   */
  async dropTemplate(tx: Tx, ctx: AuditContext, orgId: string, template: { id: string; name: string }, cause: ClassDropCause): Promise<number> {
    const r = await tx.query<{ id: string }>(
      `SELECT id FROM changes WHERE org_id = $1 AND template_id = $2 AND change_class = 'standard' AND change_class_source = 'template' AND status = ANY($3::text[]) ORDER BY id FOR UPDATE`,
      [orgId, template.id, [...NOT_STARTED]]);
    for (const { id } of r.rows) {
      const c = (await store.findChange(tx, orgId, id))!;
      const d = droppedClass({
        kind: c.kind, components: c.components.map((x) => x.key), environment: environmentOf(c.pipeline), pipeline: c.pipeline?.pipeline ?? null, repo: c.pipeline?.repo ?? null,
        blastServices: 0, hops: c.hops, emergency: c.emergency, template: null,
      }, cause, template.name);
      await this.apply(tx, ctx, c, d, cause, 'change.class_dropped', { from: c.changeClass, to: d.changeClass, cause, causeWords: CLASS_DROP_CAUSES[cause], template });
    }
    return r.rows.length;
  }

  /** Stamps the class, re-derives tier and policy, voids the approvals and sends the change back to approval where it needs one. */
  private async apply(tx: Tx, ctx: AuditContext, c: Change, decision: ClassDecision, cause: ClassDropCause | null, action: string, data: Record<string, unknown>): Promise<Change> {
    const now = this.deps.clock.now();
    const settings = await readSettings(tx, c.orgId);
    const blast = await store.latestBlast(tx, c.id);
    const governed = await this.deps.changes.decide(tx, c.orgId, {
      kind: c.kind, components: c.components, pipeline: c.pipeline, viaTokenId: c.viaTokenId, hops: c.hops, criticality: c.criticality,
      blastServices: blast ? blast.stored.c.services : 0, silencedItems: blast ? blast.stored.c.items : 0, emergency: c.emergency, template: null,
    }, settings, c.viaTokenId !== null, decision);
    const digest = approvalDigest(approvedContent({ ...c, changeClass: decision.changeClass, riskTier: governed.tier.tier }));
    await tx.query(
      `UPDATE changes SET change_class = $2, change_class_source = $3, change_class_reason = $4, change_class_cause = $5, template_id = $6, template_version = $7,
         risk_tier = $8, risk_reason = $9, approval_digest = $10, updated_at = $11 WHERE id = $1`,
      [c.id, decision.changeClass, decision.source, decision.reason, cause, decision.template?.id ?? null, decision.template?.version ?? null,
        governed.tier.tier, governed.tier.reason, digest, now.toISOString()]);
    const voided = await store.voidDecisions(tx, c.id, now.toISOString(), action === 'change.class_dropped' ? `class dropped: ${cause}` : 'reclassified');
    await appendAtCommit(tx, this.deps.clock, ctx, {
      orgId: c.orgId, action, target: { type: 'change', id: c.id },
      data: { ...data, reason: decision.reason, riskTier: { from: c.riskTier, to: governed.tier.tier }, policy: governed.policy.policy, votesCleared: voided.length },
    });
    const next = (await store.findChange(tx, c.orgId, c.id))!;
    if (next.status === 'scheduled' || next.status === 'pending_approval' || next.status === 'approved') {
      const patch = reopenPatch(governed.gated, governed.policy.approvals, settings.approvalExpiryMinutes, now);
      return this.deps.changes.transition(tx, ctx, next, 'reopen', patch, { cause: action === 'change.class_dropped' ? cause : 'reclassified', voided: voided.length }, { gated: governed.gated, startNow: false });
    }
    return next;
  }
}
