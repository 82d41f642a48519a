/**
 * The way back from a change. changeledger does not deploy: a deploy's rollback is a request to the
 * pipeline (callback change.rollback_requested with the before-state, a ticket update), completed
 * when the pipeline says so. A flag's rollback is ours: the linked flag writes are written back, each
 * an audited flag write naming the change. A person releases a rollback (an approver, signed in; two
 * distinct ones at L3); the sweep (rollback-sweep.ts) decides each failed change once by itself.
 */
import type { Clock } from '../../platform/clock.js';
import type { Database, Queryable, Tx } from '../../platform/db/database.js';
import { conflict, forbidden, notFound } from '../../platform/errors.js';
import type { Job, JobHandler } from '../../platform/jobs/job.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import type { Principal } from '../auth/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { listCaptures } from './capture-store.js';
import { ChangeService, type ChangeNotifier } from './change-service.js';
import { readApprovers, readSettings } from './change-settings.js';
import * as store from './change-store.js';
import type { Change } from './change-store.js';
import { rollbackPath, type RollbackPath } from './rollback-plan.js';
import { sweepDecision, type SweepResult } from './rollback-sweep.js';

/** A flag write that named the change (the flags domain answers through compose.ts). */
export type LinkedFlagWrite = { hash: string; flag: string; env: string; from: unknown; to: unknown; fields: string[]; at: string };
export type FlagReverter = {
  linked(db: Queryable, orgId: string, changeId: string): Promise<LinkedFlagWrite[]>;
  revert(tx: Tx, ctx: AuditContext, orgId: string, w: LinkedFlagWrite, meta: { changeId: string; reason: string }): Promise<{ flag: string; env: string; result: 'changed' | 'unchanged' | 'gone'; hash: string | null }>;
};
/** Takes a template's certification away after the first rollback of a change it made standard (governance, through compose.ts). */
export type TemplateDemoter = (tx: Tx, ctx: AuditContext, orgId: string, templateId: string, change: { id: string; displayId: string }) => Promise<boolean>;

export const SWEEP_JOB = 'change.rollback_sweep';
/** The sweep looks at 50 changes a tick, each decided once. */
export const SWEEP_BATCH = 50;
const SWEEP_EVERY_MS = 60_000;
const RAN: readonly string[] = ['active', 'evaluating', 'reported'];
const SWEEPER: AuditContext = { actor: { kind: 'system', id: null, name: 'changeledger rollback sweep' }, source: 'scheduler' };

export type RollbackView = { path: RollbackPath; state: Change['rollbackState']; requestedAt: string | null; completedAt: string | null; releasedBy: Change['rollbackReleasedBy']; decision: Change['rollbackDecision']; releasesNeeded: number; releases: Array<{ userId: string; at: string }> };
export type Released = { change: Change; rollback: RollbackView; executed: boolean; reverted: Array<{ flag: string; env: string; result: string; hash: string | null }> };

export class RollbackService {
  private flags: FlagReverter | null = null;
  private demoter: TemplateDemoter | null = null;

  constructor(private readonly deps: { db: Database; clock: Clock; changes: ChangeService; notifier: ChangeNotifier }) {}

  setFlagReverter(f: FlagReverter): void {
    this.flags = f;
  }

  setTemplateDemoter(d: TemplateDemoter): void {
    this.demoter = d;
  }

  private async pathOf(db: Queryable, c: Change): Promise<RollbackPath> {
    const captures = await listCaptures(db, c.id);
    const version = captures.find((x) => x.method === 'previous_version')?.previousVersion ?? null;
    const commit = captures.find((x) => x.previousCommit)?.previousCommit ?? null;
    const flagWrites = this.flags ? await this.flags.linked(db, c.orgId, c.id) : [];
    return rollbackPath({
      changeKind: c.kind, given: c.rollbackGiven ? { kind: c.rollbackGiven.kind, ...(c.rollbackGiven.plan ? { plan: c.rollbackGiven.plan } : {}) } : null,
      givenBy: c.rollbackGiven?.by ?? null, previousVersion: version, previousCommit: commit, pipeline: c.pipeline, hasCallback: c.callbackUrl !== null,
      flagWrites: flagWrites.map((w) => ({ flag: w.flag, env: w.env, from: w.from, to: w.to })),
    });
  }

  private async viewOf(db: Queryable, c: Change): Promise<RollbackView> {
    const r = await db.query<{ user_id: string; at: Date }>('SELECT user_id, at FROM change_rollback_releases WHERE change_id = $1 ORDER BY at', [c.id]);
    return {
      path: await this.pathOf(db, c), state: c.rollbackState, requestedAt: c.rollbackRequestedAt, completedAt: c.rollbackCompletedAt, releasedBy: c.rollbackReleasedBy,
      decision: c.rollbackDecision, releasesNeeded: c.riskTier === 'L3' ? 2 : 1, releases: r.rows.map((x) => ({ userId: x.user_id, at: new Date(x.at).toISOString() })),
    };
  }

  async view(p: Principal, id: string): Promise<RollbackView> {
    return this.viewOf(this.deps.db, await this.deps.changes.get(p, id));
  }

  /**
   * POST /api/changes/{id}/rollback: a designated approver, signed in, releases the rollback. At L3
   * the first release waits for a second, distinct approver; the second executes it.
   */
  async release(ctx: AuditContext, p: Principal, id: string, note?: string): Promise<Released> {
    if (p.kind !== 'session') throw forbidden('a rollback is released by a person, signed in — never an API token');
    const out = await this.deps.db.transaction(async (tx) => {
      const c = await store.findChange(tx, p.org.id, id, true);
      if (!c) throw notFound(`no change ${id}`);
      if (!(await readApprovers(tx, p.org.id)).some((a) => a.userId === p.user.id)) throw forbidden('only the organisation’s designated approvers release a rollback');
      if (!RAN.includes(c.status) || !c.startedAt) throw conflict(`the change is ${c.status}: it never ran, so there is nothing to roll back (cancel it instead)`, { status: c.status });
      if (c.rollbackState === 'requested' || c.rollbackState === 'rolled_back') {
        throw conflict(`its rollback was ${c.rollbackState === 'requested' ? 'requested already, at' : 'done, at'} ${c.rollbackState === 'requested' ? c.rollbackRequestedAt : c.rollbackCompletedAt}`, { rollbackState: c.rollbackState });
      }
      const at = this.deps.clock.now().toISOString();
      // After a failed rollback, a new release starts afresh: the earlier releases released the attempt that failed.
      if (c.rollbackState === 'failed') await tx.query('DELETE FROM change_rollback_releases WHERE change_id = $1', [c.id]);
      const given = await tx.query('INSERT INTO change_rollback_releases (change_id, user_id, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [c.id, p.user.id, at]);
      if (given.rowCount === 0) throw conflict('you released this rollback already: an L3 rollback needs a second, distinct approver', { rollbackState: c.rollbackState });
      const releases = (await tx.query<{ user_id: string }>('SELECT user_id FROM change_rollback_releases WHERE change_id = $1', [c.id])).rows.length;
      const needed = c.riskTier === 'L3' ? 2 : 1;
      const words = note?.trim() || null;
      if (releases < needed) {
        await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.rollback_released', target: { type: 'change', id: c.id }, data: { releases, needed, note: words, executes: false } });
        return { change: c, executed: false, reverted: [] };
      }
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.rollback_released', target: { type: 'change', id: c.id }, data: { releases, needed, note: words, executes: true } });
      const done = await this.execute(tx, ctx, c, { kind: 'person', id: p.user.id, email: p.user.email, at }, words ?? `released by ${p.user.email}`);
      return { change: done.change, executed: true, reverted: done.reverted };
    });
    const change = await this.deps.changes.get(p, id);
    return { ...out, change, rollback: await this.viewOf(this.deps.db, change) };
  }

  /**
   * Runs a rollback in the caller's transaction: flags are written back at once (rolled_back), a
   * deploy or a manual rollback is asked of the pipeline and people (requested). The first rollback
   * of a change its template made standard demotes the template when the organisation says so.
   */
  private async execute(tx: Tx, ctx: AuditContext, c: Change, by: NonNullable<Change['rollbackReleasedBy']>[number], why: string): Promise<{ change: Change; reverted: Released['reverted'] }> {
    const path = await this.pathOf(tx, c);
    const at = by.at;
    // Everyone who released this attempt (both approvers of an L3 rollback), or the sweep.
    const people = by.kind === 'person'
      ? (await tx.query<{ user_id: string; email: string; at: Date }>(
        'SELECT r.user_id, u.email, r.at FROM change_rollback_releases r JOIN users u ON u.id = r.user_id WHERE r.change_id = $1 ORDER BY r.at, r.user_id', [c.id])).rows
        .map((r) => ({ kind: 'person' as const, id: r.user_id, email: r.email, at: new Date(r.at).toISOString() }))
      : [by];
    const releasedBy = JSON.stringify(people);
    let reverted: Released['reverted'] = [];
    const writes = path.kind === 'revert_flag' && this.flags ? (await this.flags.linked(tx, c.orgId, c.id)).reverse() : [];
    // A flag rollback with no flag write naming the change has nothing for changeledger to write: people are asked instead.
    if (writes.length > 0 && this.flags) {
      for (const w of writes) reverted.push(await this.flags.revert(tx, ctx, c.orgId, w, { changeId: c.id, reason: `rollback of ${c.displayId}: ${why}` }));
      await tx.query(`UPDATE changes SET rollback_state = 'rolled_back', rollback_requested_at = $2, rollback_completed_at = $2, rollback_released_by = $3, updated_at = $2 WHERE id = $1`, [c.id, at, releasedBy]);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.rolled_back', target: { type: 'change', id: c.id }, data: { kind: path.kind, by: 'changeledger', reverted, plan: path.plan } });
    } else {
      reverted = [];
      await tx.query(`UPDATE changes SET rollback_state = 'requested', rollback_requested_at = $2, rollback_completed_at = NULL, rollback_released_by = $3, updated_at = $2 WHERE id = $1`, [c.id, at, releasedBy]);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.rollback_requested', target: { type: 'change', id: c.id }, data: { kind: path.kind, plan: path.plan, generatedBy: path.generatedBy } });
    }
    const next = (await store.findChange(tx, c.orgId, c.id))!;
    const captures = await listCaptures(tx, c.id);
    await this.deps.notifier.notify(tx, next, 'rollback_requested', {
      rollback: { kind: path.kind, plan: path.plan, steps: path.steps, generatedBy: path.generatedBy },
      beforeState: captures.map((x) => ({ id: x.id, method: x.method, previousVersion: x.previousVersion, previousCommit: x.previousCommit, artifactName: x.artifactName, sha256: x.sha256, completeness: x.completeness, restorable: x.restorable })),
    });
    if (writes.length > 0) await this.deps.notifier.notify(tx, next, 'rolled_back', { rollback: { kind: path.kind, reverted } });
    if (c.template && this.demoter && c.rollbackState === null && (await readSettings(tx, c.orgId)).demoteOnRollback) {
      const demoted = await this.demoter(tx, ctx, c.orgId, c.template.id, { id: c.id, displayId: c.displayId });
      // The change's own timeline says so too: its rollback cost the template its certification.
      if (demoted) await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.template_demoted', target: { type: 'change', id: c.id }, data: { template: c.template.id } });
    }
    return { change: next, reverted };
  }

  /** The pipeline (or a person) reports the requested rollback done, or failed. */
  async complete(ctx: AuditContext, p: Principal, id: string, result: 'rolled_back' | 'failed', notes?: string): Promise<Change> {
    await this.deps.db.transaction(async (tx) => {
      const c = await store.findChange(tx, p.org.id, id, true);
      if (!c) throw notFound(`no change ${id}`);
      if (!ChangeService.canWrite(p, c)) throw forbidden('only the change’s owner, an owner or an admin reports its rollback');
      if (c.rollbackState !== 'requested') throw conflict(c.rollbackState === null ? 'no rollback was requested for this change' : `its rollback is ${c.rollbackState.replace('_', ' ')} already`, { rollbackState: c.rollbackState });
      const at = this.deps.clock.now().toISOString();
      await tx.query('UPDATE changes SET rollback_state = $2, rollback_completed_at = $3, updated_at = $3 WHERE id = $1', [c.id, result, at]);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: result === 'rolled_back' ? 'change.rolled_back' : 'change.rollback_failed', target: { type: 'change', id: c.id }, data: { by: p.kind === 'token' ? 'pipeline' : 'person', notes: notes?.trim() || null } });
      const next = (await store.findChange(tx, c.orgId, c.id))!;
      if (result === 'rolled_back') await this.deps.notifier.notify(tx, next, 'rolled_back', { notes: notes?.trim() || null });
    });
    return this.deps.changes.get(p, id);
  }

  /**
   * One tick of the sweep: failed changes of the last rollbackSweepWindowHours not decided yet, 50 at
   * a time, each locked (SKIP LOCKED: a second server takes others) and decided once. It checks no window.
   */
  async sweep(tx: Tx): Promise<Array<{ changeId: string } & SweepResult>> {
    const now = this.deps.clock.now();
    const r = await tx.query<{ id: string; org_id: string }>(
      `SELECT c.id, c.org_id FROM changes c LEFT JOIN change_settings s ON s.org_id = c.org_id
        WHERE c.rollback_decided_at IS NULL AND c.finished_at IS NOT NULL
          AND greatest(c.finished_at, coalesce(c.reported_at, c.finished_at)) >= $1::timestamptz - make_interval(hours => coalesce(s.rollback_sweep_window_hours, 24))
          AND (c.outcome IN ('rolled_back', 'partial') OR c.impact IN ('outage', 'significant'))
          AND (c.status = 'reported' OR c.outcome IN ('rolled_back', 'partial'))
        ORDER BY c.finished_at, c.id LIMIT ${SWEEP_BATCH} FOR UPDATE OF c SKIP LOCKED`, [now.toISOString()]);
    const out: Array<{ changeId: string } & SweepResult> = [];
    for (const row of r.rows) {
      const c = (await store.findChange(tx, row.org_id, row.id))!;
      const path = await this.pathOf(tx, c);
      const d = sweepDecision({ tier: c.riskTier, changeClass: c.changeClass, rollbackKind: path.kind, impact: c.impact, outcome: c.outcome, rollbackState: c.rollbackState });
      const at = now.toISOString();
      await tx.query('UPDATE changes SET rollback_decision = $2, rollback_decided_at = $3 WHERE id = $1', [c.id, JSON.stringify({ ...d, at }), at]);
      const action = d.decision === 'execute' ? 'change.auto_rollback' : d.decision === 'escalate' ? 'change.rollback_escalated' : 'change.rollback_skipped';
      await appendAtCommit(tx, this.deps.clock, SWEEPER, { orgId: c.orgId, action, target: { type: 'change', id: c.id }, data: { decision: d.decision, reason: d.reason, kind: path.kind, tier: c.riskTier, changeClass: c.changeClass, impact: c.impact, outcome: c.outcome } });
      if (d.decision === 'execute') await this.execute(tx, SWEEPER, { ...c, rollbackDecision: { ...d, at } }, { kind: 'sweep', id: null, email: null, at }, d.reason);
      if (d.decision === 'escalate') await this.deps.notifier.notify(tx, c, 'rollback_escalated', { reason: d.reason, rollback: { kind: path.kind, plan: path.plan } });
      out.push({ changeId: c.id, ...d });
    }
    return out;
  }

  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [SWEEP_JOB]: {
        commit: async (tx: Tx, _job: Job) => {
          await this.sweep(tx);
          await this.scheduleSweep(tx);
        },
      },
    };
  }

  /** The next tick, on the minute: one job per minute however many servers schedule it. */
  async scheduleSweep(tx: Tx): Promise<void> {
    const next = new Date(Math.floor(this.deps.clock.now().getTime() / SWEEP_EVERY_MS) * SWEEP_EVERY_MS + SWEEP_EVERY_MS);
    await scheduleJob(tx, this.deps.clock, { kind: SWEEP_JOB, runAt: next, dedupeKey: `${SWEEP_JOB}:${next.toISOString()}` });
  }
}
