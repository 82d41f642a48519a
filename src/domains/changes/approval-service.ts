import type { Clock } from '../../platform/clock.js';
import type { Database, Tx } from '../../platform/db/database.js';
import { badRequest, conflict, forbidden, invalid, notFound } from '../../platform/errors.js';
import type { Principal } from '../auth/index.js';
import type { BlastService } from '../catalogue/blast-service.js';
import type { CatalogueService } from '../catalogue/catalogue-service.js';
import { TIERS, type Tier } from '../catalogue/entity.js';
import type { Resolved } from '../catalogue/matching.js';
import type { MappingService } from '../catalogue/mapping-service.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { ChangeService, unknownTier, type ChangeNotifier } from './change-service.js';
import { criticalReason } from './critical-approvers.js';
import { readApprovers, readSettings, type Approver } from './change-settings.js';
import * as store from './change-store.js';
import type { Change } from './change-store.js';
import { approvalDigest, approvedContent } from './approval-digest.js';

type Session = Principal & { kind: 'session' };
export type MappingEntry = { input: string; kind?: string; key?: string; createService?: { name?: string }; remember?: boolean };

/** Decisions are made by people, signed in: a token is refused before anything is read. */
function person(p: Principal, what: string): Session {
  if (p.kind !== 'session') throw forbidden(`${what} is for people, signed in — never an API token`);
  return p;
}

/** Approvals, rejections, classification and mapping of a change. */
export class ApprovalService {
  constructor(private readonly deps: {
    db: Database; clock: Clock; changes: ChangeService; blast: BlastService; mappings: MappingService; catalogue: CatalogueService; notifier: ChangeNotifier;
  }) {}

  private async loaded(db: Database | Tx, p: Principal, id: string, lock: boolean): Promise<Change> {
    const c = await store.findChange(db, p.org.id, id, lock);
    if (!c) throw notFound(`no change ${id}`);
    return c;
  }

  /** Where approval stands, and what the caller may do about it. */
  async view(p: Principal, id: string) {
    const c = await this.loaded(this.deps.db, p, id, false);
    const approvers = await readApprovers(this.deps.db, p.org.id);
    const decisions = await store.listDecisions(this.deps.db, c.id);
    return this.describe(p, c, approvers, decisions);
  }

  private describe(p: Principal, c: Change, approvers: Approver[], decisions: store.Decision[]) {
    const approvals = decisions.filter((d) => d.decision === 'approved');
    const mine = decisions.find((d) => d.userId === p.user.id) ?? null;
    const isApprover = approvers.some((a) => a.userId === p.user.id);
    const isRequester = c.ownerId === p.user.id;
    const block = blockOf(c, approvers, approvals);
    const waiting = c.status === 'pending_approval';
    return {
      status: c.status, gated: c.gated, required: c.quorum,
      approvals: decisions.map((d) => ({ userId: d.userId, name: d.name, decision: d.decision, comment: d.comment, at: d.at, critical: d.critical })),
      approvers: approvers.map((a) => ({ userId: a.userId, name: a.name, requester: a.userId === c.ownerId, critical: a.critical })),
      canApprove: p.kind === 'session' && waiting && isApprover && !isRequester && mine === null,
      isRequester, isApprover, mine: mine ? { decision: mine.decision, comment: mine.comment, at: mine.at } : null,
      expiresAt: c.approvalExpiresAt, criticality: c.criticality, criticalitySource: c.criticalitySource, componentTiers: c.componentTiers,
      criticalRequired: c.criticality === 'critical', criticalApproved: c.criticality === 'critical' ? approvals.some((a) => a.critical) : null,
      criticalApprovers: approvers.filter((a) => a.critical).map((a) => ({ userId: a.userId, name: a.name, requester: a.userId === c.ownerId })),
      blockedOn: waiting ? block.on : null, blockedReason: waiting ? block.reason : null, unknownTierComponents: unknownTier(c),
      canClassify: p.kind === 'session' && waiting && isApprover && !isRequester && unknownTier(c).length > 0,
    };
  }

  /**
   * One approval. The change is locked, so concurrent approvals are counted one after another:
   * exactly one of them sees the quorum reached and moves the change to approved.
   */
  async approve(ctx: AuditContext, principal: Principal, id: string, comment?: string) {
    const p = person(principal, 'approving');
    return this.deps.db.transaction(async (tx) => {
      const c = await this.loaded(tx, p, id, true);
      const approvers = await readApprovers(tx, p.org.id);
      const me = this.mayDecide(p, c, approvers, await store.listDecisions(tx, c.id));
      const unknown = unknownTier(c);
      if (unknown.length) {
        throw conflict(`waiting for classification of: ${unknown.map((u) => u.name).join(', ')} — classify them first`, { blockedOn: 'classification', unknownTierComponents: unknown });
      }
      const at = this.deps.clock.now().toISOString();
      // The approval is of the content as it stands: its digest is recorded with it.
      await tx.query('INSERT INTO change_approvals (change_id, user_id, decision, comment, critical, at, digest) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [c.id, p.user.id, 'approved', comment ?? null, me.critical, at, c.approvalDigest]);
      const decisions = await store.listDecisions(tx, c.id);
      const approvals = decisions.filter((d) => d.decision === 'approved');
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: c.orgId, action: 'change.approval_given', target: { type: 'change', id: c.id },
        data: { approvals: approvals.length, required: c.quorum, critical: me.critical, comment: comment ?? null, digest: c.approvalDigest, tier: c.riskTier },
      });
      let next = c;
      if (blockOf(c, approvers, approvals).on === null && approvals.length >= (c.quorum ?? 1)) {
        const settings = await readSettings(tx, c.orgId);
        next = await this.deps.changes.transition(tx, ctx, c, 'approve', {
          decided_at: at, start_deadline: new Date(this.deps.clock.now().getTime() + settings.startTimeoutMinutes * 60_000).toISOString(), approved_digest: c.approvalDigest,
        }, { approvals: approvals.length, digest: c.approvalDigest });
        if (next.autoStart) next = await this.deps.changes.startLocked(tx, autoStartContext(ctx, me.name || me.email), next, 'wait');
      }
      const block = blockOf(next, approvers, approvals);
      return {
        status: next.status, approvals: approvals.length, required: c.quorum, criticality: next.criticality, criticalitySource: next.criticalitySource,
        criticalRequired: next.criticality === 'critical', criticalApproved: next.criticality === 'critical' ? approvals.some((a) => a.critical) : null,
        blockedOn: next.status === 'pending_approval' ? block.on : null,
      };
    });
  }

  /** The first rejection rejects the change; the reason is required. Always taken, even while a tier is missing. */
  async reject(ctx: AuditContext, principal: Principal, id: string, reason: string) {
    const p = person(principal, 'rejecting');
    if (!reason.trim()) throw badRequest('give the reason for the rejection', 'reason');
    return this.deps.db.transaction(async (tx) => {
      const c = await this.loaded(tx, p, id, true);
      const approvers = await readApprovers(tx, p.org.id);
      const me = this.mayDecide(p, c, approvers, await store.listDecisions(tx, c.id));
      const at = this.deps.clock.now().toISOString();
      await tx.query('INSERT INTO change_approvals (change_id, user_id, decision, comment, critical, at, digest) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [c.id, p.user.id, 'rejected', reason.trim(), me.critical, at, c.approvalDigest]);
      const next = await this.deps.changes.transition(tx, ctx, c, 'reject', { decided_at: at, rejection_reason: reason.trim() }, { reason: reason.trim() });
      return { status: next.status };
    });
  }

  /** Only a listed approver, never the requester, once; the change must be waiting for approval. */
  private mayDecide(p: Session, c: Change, approvers: Approver[], decisions: store.Decision[]): Approver {
    const me = approvers.find((a) => a.userId === p.user.id);
    if (!me) throw forbidden('only the organisation’s designated approvers decide on changes');
    if (c.ownerId === p.user.id) throw forbidden('the requester of a change cannot decide on it');
    if (c.status !== 'pending_approval') throw conflict(`the change is ${c.status}, not waiting for approval`, { status: c.status });
    if (decisions.some((d) => d.userId === p.user.id)) throw conflict('you have decided on this change already', { status: c.status });
    return me;
  }

  /**
   * Gives tiers to service components that have none. The tier is saved to the catalogue (the
   * entity, a manual service's entity, or a new entity for a key nobody has seen) for later changes.
   */
  async classify(ctx: AuditContext, principal: Principal, id: string, components: Array<{ key: string; tier: string }>) {
    const p = person(principal, 'classifying');
    if (!components.length) throw badRequest('name the components to classify', 'components');
    const keys = new Set<string>();
    for (const [i, x] of components.entries()) {
      if (!(TIERS as readonly string[]).includes(x.tier)) throw invalid(`components.${i}.tier`, 'must be critical, important or standard');
      if (keys.has(x.key)) throw badRequest(`${x.key} appears twice`, 'components');
      keys.add(x.key);
    }
    const out = await this.deps.db.transaction(async (tx) => {
      const c = await this.loaded(tx, p, id, true);
      const approvers = await readApprovers(tx, p.org.id);
      if (!approvers.some((a) => a.userId === p.user.id)) throw forbidden('only the organisation’s designated approvers classify components');
      if (c.ownerId === p.user.id) throw forbidden('the requester of a change cannot classify its components');
      if (c.status !== 'pending_approval') throw conflict(`the change is ${c.status}, not waiting for approval`, { status: c.status });
      const unknown = new Map(unknownTier(c).map((u) => [u.key, u]));
      const stray = components.find((x) => !unknown.has(x.key));
      if (stray) throw badRequest(`${stray.key} is not an unclassified service component of this change`, 'components');
      const at = this.deps.clock.now().toISOString();
      const classified: Array<{ key: string; name: string; tier: Tier; where: 'catalogue' | 'manual' | 'unseen' }> = [];
      for (const x of components) {
        const u = unknown.get(x.key)!;
        const r = await tx.query('UPDATE catalogue_entities SET tier = $3 WHERE org_id = $1 AND key = $2 RETURNING source', [c.orgId, x.key, x.tier]);
        const where = r.rows.length ? ((r.rows[0] as { source: string }).source === 'manual' ? 'manual' : 'catalogue') : 'unseen';
        if (!r.rows.length) {
          await tx.query(
            `INSERT INTO catalogue_entities (org_id, key, kind, name, source, stale, tier, attrs, first_seen, last_seen) VALUES ($1, $2, $3, $4, 'classification', false, $5, '{}', $6, $6)`,
            [c.orgId, x.key, u.kind, u.name, x.tier, at]);
        }
        classified.push({ key: x.key, name: u.name, tier: x.tier as Tier, where });
      }
      const tiers = { ...c.componentTiers, ...Object.fromEntries(components.map((x) => [x.key, x.tier as Tier])) };
      const pending = Object.values(tiers).some((t) => t === null);
      const ranked = Object.values(tiers).filter((t): t is Tier => t !== null).sort((a, b) => TIERS.indexOf(a) - TIERS.indexOf(b));
      const criticality = ranked[0] ?? null;
      await tx.query('UPDATE changes SET component_tiers = $2, criticality = $3, criticality_source = $4, updated_at = $5 WHERE id = $1',
        [c.id, JSON.stringify(tiers), criticality, pending ? 'pending' : 'components', at]);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.classified', target: { type: 'change', id: c.id }, data: { classified, criticality, was: c.criticality } });
      const next = (await store.findChange(tx, c.orgId, c.id))!;
      if (criticality === 'critical' && c.criticality !== 'critical') await this.deps.notifier.notify(tx, next, 'critical_needed');
      return { classified, change: next };
    });
    this.deps.catalogue.invalidate(p.org.id);
    return { ...out, criticality: out.change.criticality, criticalitySource: out.change.criticalitySource, componentTiers: out.change.componentTiers, unknownTierComponents: unknownTier(out.change) };
  }

  /**
   * Maps the unresolved names of a pending_mapping change: to a catalogue entity, or to a new
   * manual service; `remember` saves an alias. With nothing left, the blast radius is snapshotted
   * and the change goes on to approval (or is scheduled / starts with the gate off).
   */
  async map(ctx: AuditContext, principal: Principal, id: string, entries: MappingEntry[], confirmLarge: boolean) {
    const p = person(principal, 'mapping components');
    const c0 = await this.loaded(this.deps.db, p, id, false);
    const approvers = await readApprovers(this.deps.db, p.org.id);
    if (!ChangeService.canWrite(p, c0) && !approvers.some((a) => a.userId === p.user.id)) throw forbidden('mapping needs write access to the change or being an approver');
    if (c0.status !== 'pending_mapping') throw conflict(`the change is ${c0.status}, not waiting for mapping`, { status: c0.status });
    const open = new Map(c0.unresolved.map((u) => [u.query.toLowerCase(), u]));
    const manager = { org: p.org, user: p.user, role: p.role === 'member' ? 'admin' : p.role };
    const added: Resolved[] = [];
    for (const [i, e] of entries.entries()) {
      if (!open.has(e.input.trim().toLowerCase())) throw badRequest(`"${e.input}" is not an unresolved name of this change`, `entries.${i}.input`);
      let target: { kind: string; key: string; name: string };
      if (e.createService) {
        const made = await this.deps.mappings.createManual(ctx, manager, e.createService.name?.trim() || e.input);
        target = { kind: 'service', key: made.key, name: made.name };
      } else {
        if (!e.key) throw badRequest(`entries.${i} needs a key or createService`, `entries.${i}.key`);
        const snap = await this.deps.catalogue.snapshot(p.org.id);
        const n = snap.graph.nodes.get(e.key);
        target = { kind: e.kind ?? n?.kind ?? 'service', key: e.key, name: n?.name ?? e.key };
      }
      if (e.remember) await this.deps.mappings.setAlias(ctx, manager, e.input, { kind: target.kind, key: target.key });
      added.push({ ...target, match: e.createService ? 'manual' : 'key', query: e.input, seen: true });
      open.delete(e.input.trim().toLowerCase());
    }
    const remaining = [...open.values()];
    const resolved = [...c0.components, ...added.filter((a) => !c0.components.some((c) => c.key === a.key))];
    const computed = remaining.length ? null : await this.deps.changes.checkedBlast(p.org.id, resolved, c0.hops, c0.silenceInfra, confirmLarge);
    const change = await this.deps.db.transaction(async (tx) => {
      const c = await this.loaded(tx, p, id, true);
      if (c.status !== 'pending_mapping') throw conflict(`the change is ${c.status}, not waiting for mapping`, { status: c.status });
      const at = this.deps.clock.now();
      await tx.query('UPDATE changes SET components = $2, unresolved = $3, updated_at = $4 WHERE id = $1', [c.id, JSON.stringify(resolved), JSON.stringify(remaining), at.toISOString()]);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.components_mapped', target: { type: 'change', id: c.id }, data: { mapped: added.map((a) => ({ input: a.query, key: a.key })), remaining: remaining.map((r) => r.query) } });
      if (!computed) return (await store.findChange(tx, c.orgId, c.id))!;
      const s = this.deps.blast.store(computed.blast);
      await store.insertBlast(tx, c.id, c.blastVersion + 1, s.stored, s.bytes, at.toISOString());
      const settings = await readSettings(tx, c.orgId);
      const crit = computed.criticality;
      // With the blast radius known, the class, tier and approval policy are decided again.
      const governed = await this.deps.changes.decide(tx, c.orgId, {
        kind: c.kind, components: resolved, pipeline: c.pipeline, viaTokenId: c.viaTokenId, hops: c.hops, criticality: crit.criticality,
        blastServices: computed.blast.counts.services, silencedItems: computed.blast.counts.items, emergency: c.emergency, template: c.template?.id ?? null,
      }, settings, c.viaTokenId !== null);
      const digest = approvalDigest(approvedContent({ ...c, components: resolved, blastVersion: c.blastVersion + 1, changeClass: governed.decision.changeClass, riskTier: governed.tier.tier }));
      await tx.query(
        `UPDATE changes SET blast_version = $2, criticality = $3, criticality_source = $4, component_tiers = $5, change_class = $6, change_class_source = $7, change_class_reason = $8,
           template_id = $9, template_version = $10, risk_tier = $11, risk_reason = $12, approval_digest = $13, gated = $14, quorum = $15 WHERE id = $1`,
        [c.id, c.blastVersion + 1, crit.criticality, crit.criticalitySource, JSON.stringify(crit.componentTiers), governed.decision.changeClass, governed.decision.source,
          governed.decision.reason, governed.decision.template?.id ?? null, governed.decision.template?.version ?? null, governed.tier.tier, governed.tier.reason, digest,
          governed.gated, governed.gated ? governed.policy.approvals : null]);
      const mapped = (await store.findChange(tx, c.orgId, c.id))!;
      const patch: Record<string, unknown> = governed.gated
        ? { approval_expires_at: new Date(at.getTime() + settings.approvalExpiryMinutes * 60_000).toISOString() }
        : {};
      return this.deps.changes.transition(tx, ctx, mapped, 'mapped', patch, { changeClass: governed.decision.changeClass, riskTier: governed.tier.tier }, { gated: governed.gated, startNow: false });
    });
    return { change, remaining: remaining.length, status: change.status };
  }
}

/**
 * autoStart starts the change, not the approver: the start is the automation's, naming the
 * approval that set it off. Same request and channel as the approval it follows.
 */
export function autoStartContext(ctx: AuditContext, approver: string): AuditContext {
  return { ...ctx, actor: { kind: 'automation', id: null, name: 'autoStart', automation: 'autoStart', trigger: `approval by ${approver}` } };
}

/** What keeps a change from approval beyond the quorum: a missing tier, or a missing critical approval. */
function blockOf(c: Change, approvers: Approver[], approvals: store.Decision[]): { on: 'classification' | 'critical_approver' | null; reason: string | null } {
  const unknown = unknownTier(c);
  if (unknown.length) return { on: 'classification', reason: `Waiting for classification of: ${unknown.map((u) => u.name).join(', ')}` };
  if (c.criticality === 'critical' && !approvals.some((a) => a.critical)) {
    return { on: 'critical_approver', reason: criticalReason(c.ownerId, approvers) };
  }
  return { on: null, reason: null };
}
