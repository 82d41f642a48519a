/**
 * Before-state captures after registration: a pipeline often knows what is running only just
 * before it deploys. A capture is added while the change has not started, joins the approval
 * digest, and so voids approvals given before it (the approvers approved a change without it).
 * A change whose start waited for its before-state starts as soon as one arrives.
 */
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors.js';
import type { Principal } from '../auth/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { approvalDigest, approvedContent } from './approval-digest.js';
import { reopenPatch } from './approval-reopen.js';
import { beforeStateProblem, captureDigest, capturesOf, type BeforeStateInput, type BeforeStateNeed } from './before-state.js';
import { capturedBy, findCapture, insertCaptures, listCaptures, type Capture } from './capture-store.js';
import { ChangeService } from './change-service.js';
import { readSettings } from './change-settings.js';
import * as store from './change-store.js';
import type { Change } from './change-store.js';
import type { FlagReverter } from './rollback-service.js';

const NOT_STARTED: readonly string[] = ['draft', 'scheduled', 'pending_mapping', 'pending_approval', 'approved'];

/** A flag write the change made: its before and after are the before-state changeledger keeps itself. */
export type FlagBefore = { flag: string; env: string; from: unknown; to: unknown; at: string; hash: string };
export type BeforeStateView = { captures: Capture[]; digest: string | null; need: BeforeStateNeed; flagWrites: FlagBefore[] };

export class BeforeStateService {
  constructor(private readonly deps: { db: Database; clock: Clock; changes: ChangeService }) {}

  private flags: Pick<FlagReverter, 'linked'> | null = null;

  /** Plugs in the flag writes that named a change (the flags domain, through compose.ts). */
  setFlagWrites(f: Pick<FlagReverter, 'linked'>): void {
    this.flags = f;
  }

  async view(p: Principal, id: string): Promise<BeforeStateView> {
    const c = await this.deps.changes.get(p, id);
    const writes = this.flags ? await this.flags.linked(this.deps.db, c.orgId, c.id) : [];
    return {
      captures: await listCaptures(this.deps.db, c.id), digest: c.captureDigest, need: await this.deps.changes.beforeStateNeed(this.deps.db, c),
      flagWrites: writes.map((w) => ({ flag: w.flag, env: w.env, from: w.from, to: w.to, at: w.at, hash: w.hash })),
    };
  }

  /** One capture with its artifact, for the before-state card and a download. */
  async capture(p: Principal, id: string, captureId: string): Promise<Capture> {
    const c = await this.deps.changes.get(p, id);
    const found = await findCapture(this.deps.db, c.id, captureId);
    if (!found) throw notFound(`no capture ${captureId} on ${c.displayId}`);
    return found;
  }

  /** POST /api/changes/{id}/before-state: appended, audited change.before_state_captured. */
  async add(ctx: AuditContext, p: Principal, id: string, input: BeforeStateInput): Promise<{ change: Change } & BeforeStateView> {
    const problem = beforeStateProblem(input, 'beforeState');
    if (problem) throw new AppError(problem.status, problem.message, problem.field === 'beforeState' ? 'beforeState' : problem.field.replace('beforeState.', ''));
    const drafts = capturesOf(input);
    const now = this.deps.clock.now();
    const at = now.toISOString();
    await this.deps.db.transaction(async (tx) => {
      const c = await store.findChange(tx, p.org.id, id, true);
      if (!c) throw notFound(`no change ${id}`);
      if (!ChangeService.canWrite(p, c)) throw forbidden('only the change’s owner, an owner or an admin adds its before-state');
      if (!NOT_STARTED.includes(c.status)) throw conflict(`the change is ${c.status}: a before-state is what was there before it started, so it is added before the start`, { status: c.status });
      await insertCaptures(tx, c.orgId, c.id, drafts, p.kind === 'token' ? 'pipeline' : 'person', capturedBy(p), at);
      const all = await listCaptures(tx, c.id);
      const digest = captureDigest(all);
      const content = approvalDigest(approvedContent({ ...c, captureDigest: digest }));
      await tx.query('UPDATE changes SET capture_digest = $2, approval_digest = $3, updated_at = $4 WHERE id = $1', [c.id, digest, content, at]);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: c.orgId, action: 'change.before_state_captured', target: { type: 'change', id: c.id },
        data: {
          captures: drafts.map((d) => ({ method: d.method, sha256: d.sha256, completeness: d.completeness, prestateStatus: d.prestateStatus, restorable: d.restorable, sizeBytes: d.sizeBytes })),
          digest: { from: c.captureDigest, to: digest },
        },
      });
      let next = (await store.findChange(tx, c.orgId, c.id))!;
      if (c.status === 'pending_approval' || c.status === 'approved') {
        // The approvals approved a change without this before-state: they stop counting, and it waits again.
        const voided = await store.voidDecisions(tx, c.id, at, 'before-state added');
        if (voided.length || c.status === 'approved') {
          if (voided.length) {
            await appendAtCommit(tx, this.deps.clock, ctx, {
              orgId: c.orgId, action: 'change.approvals_voided', target: { type: 'change', id: c.id },
              data: { cause: 'before_state_added', voided: voided.map((v) => ({ userId: v.userId, decision: v.decision, digest: v.digest })), digest: { from: c.approvalDigest, to: content } },
            });
          }
          const settings = await readSettings(tx, c.orgId);
          next = await this.deps.changes.transition(tx, ctx, next, 'reopen', reopenPatch(c.gated, c.quorum, settings.approvalExpiryMinutes, now),
            { voided: voided.length, cause: 'before_state_added' }, { gated: c.gated, startNow: false });
        }
      } else if (next.status === 'scheduled' && Date.parse(next.windowStart) <= now.getTime()) {
        // Its start came while the before-state was missing: it starts now.
        await this.deps.changes.startLocked(tx, ctx, next, 'wait');
      }
    });
    const change = await this.deps.changes.get(p, id);
    return { change, ...(await this.view(p, id)) };
  }
}
