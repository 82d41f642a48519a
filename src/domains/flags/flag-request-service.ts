import type { Clock } from '../../platform/clock.js';
import type { Database, Tx } from '../../platform/db/database.js';
import { conflict, forbidden, notFound } from '../../platform/errors.js';
import type { Job, JobHandler } from '../../platform/jobs/job.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import type { FlagState, FlagSource } from './flag.js';
import * as rs from './flag-request-store.js';
import type { FlagService, WriteMeta, WriteResult } from './flag-service.js';
import * as store from './flag-store.js';

type Approver = { id: string; email: string };

/**
 * Decisions on flag change requests. People only: the routes refuse tokens. The proposer cannot
 * approve their own change; once enough others approved, the change applies in the same
 * transaction as the last approval, and its record lists the approvers.
 */
export class FlagRequestService {
  constructor(private readonly deps: { db: Database; clock: Clock; flags: FlagService }) {}

  list(orgId: string, f: { status?: rs.RequestStatus; flag?: string }) {
    return rs.listRequests(this.deps.db, orgId, f);
  }

  private async open(tx: Tx, orgId: string, id: string): Promise<rs.StoredRequest> {
    const req = await rs.findRequest(tx, orgId, id, true);
    if (!req) throw notFound(`no change request ${id}`);
    if (req.status !== 'proposed') throw conflict(`change request ${id} is ${req.status}`, { status: req.status });
    return req;
  }

  async approve(ctx: AuditContext, orgId: string, id: string, approver: Approver): Promise<{ changeRequest: rs.ChangeRequest; result: WriteResult | null }> {
    const now = this.deps.clock.now();
    const outcome = await this.deps.db.transaction(async (tx) => {
      const req = await this.open(tx, orgId, id);
      if (Date.parse(req.expiresAt) <= now.getTime()) {
        await this.expireTx(tx, req);
        return { expired: true as const };
      }
      if (req.proposerUserId === approver.id) throw forbidden('you proposed this change; someone else must approve it');
      if (req.approvals.some((a) => a.user.id === approver.id)) throw conflict('you approved this change already');
      await rs.insertApproval(tx, req.id, approver, now.toISOString());
      const count = req.approvals.length + 1;
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId, action: 'flag_request.approved', target: { type: 'flag_request', id: req.id },
        data: { flag: req.flag, env: req.env, approvals: count, approvalsNeeded: req.approvalsNeeded },
      });
      let result: WriteResult | null = null;
      if (count >= req.approvalsNeeded) {
        const flag = await store.findFlag(tx, orgId, req.flag);
        if (!flag) throw notFound(`no flag ${req.flag}`);
        const approvers = [...req.approvals.map((a) => a.user.email), approver.email];
        const meta: WriteMeta = {
          reason: req.reason, source: req.meta.source as FlagSource, approvers,
          gitops: (req.meta.gitops as WriteMeta['gitops']) ?? null, automation: (req.meta.automation as WriteMeta['automation']) ?? null,
        };
        // The change is the proposer's, approved by others: the record keeps the proposer as actor.
        const proposerCtx: AuditContext = { ...ctx, actor: req.proposer, correlationId: req.correlationId ?? req.id };
        result = await this.deps.flags.applyInTx(tx, proposerCtx, orgId, flag, req.env, req.patch as Partial<FlagState>, meta);
        await rs.closeRequest(tx, req.id, 'applied', now.toISOString(), { recordSeq: result.record.seq });
      }
      return { expired: false as const, result };
    });
    if (outcome.expired) throw conflict(`change request ${id} expired`, { status: 'expired' });
    const after = await rs.findRequest(this.deps.db, orgId, id, false);
    return { changeRequest: rs.publicRequest(after!), result: outcome.result };
  }

  async reject(ctx: AuditContext, orgId: string, id: string, by: Approver, comment: string): Promise<rs.ChangeRequest> {
    await this.deps.db.transaction(async (tx) => {
      const req = await this.open(tx, orgId, id);
      await rs.closeRequest(tx, req.id, 'rejected', this.deps.clock.now().toISOString(), { rejection: { by: by.email, comment } });
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId, action: 'flag_request.rejected', target: { type: 'flag_request', id: req.id }, data: { flag: req.flag, env: req.env, comment },
      });
    });
    return rs.publicRequest((await rs.findRequest(this.deps.db, orgId, id, false))!);
  }

  private async expireTx(tx: Tx, req: rs.StoredRequest): Promise<void> {
    if (await rs.closeRequest(tx, req.id, 'expired', this.deps.clock.now().toISOString())) {
      await appendAtCommit(tx, this.deps.clock, { actor: { kind: 'system', id: null, name: 'changeledger scheduler' }, source: 'scheduler' }, {
        orgId: req.orgId, action: 'flag_request.expired', target: { type: 'flag_request', id: req.id },
        data: { flag: req.flag, env: req.env, approvals: req.approvals.length, approvalsNeeded: req.approvalsNeeded },
      });
    }
  }

  /** The durable timer that ends a proposal nobody decided on in time. */
  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [rs.EXPIRE_JOB]: {
        commit: async (tx: Tx, job: Job) => {
          if (!job.orgId) return;
          const req = await rs.findRequest(tx, job.orgId, String(job.payload.requestId), true);
          if (req?.status === 'proposed') await this.expireTx(tx, req);
        },
      },
    };
  }
}
