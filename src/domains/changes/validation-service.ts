/**
 * The validation plan, checked once the change has finished (no sooner than 30 s after): exactly
 * the listed items, each ending with a row. A PromQL item is read through the evidence domain's
 * Prometheus (a seam plugged in by compose.ts), an HTTP item through the SSRF-guarded client. A
 * read that cannot answer is not observed, never a pass. The result goes to the change, /status,
 * the callback (change.validated) and the report.
 */
import type { Clock } from '../../platform/clock.js';
import type { Database, Tx } from '../../platform/db/database.js';
import type { Job, JobHandler } from '../../platform/jobs/job.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import type { Principal } from '../auth/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import type { ChangeNotifier, ChangeService } from './change-service.js';
import { readSettings } from './change-settings.js';
import * as store from './change-store.js';
import type { Change } from './change-store.js';
import { readValidation, saveRows, type ValidationView } from './validation-store.js';
import { rowFor, validationResult, VALIDATION_DELAY_SECONDS, type ValidationItem, type ValidationRow } from './validation-plan.js';

export const VALIDATE_JOB = 'change.validate';
type Read = { ok: true; value: number | string } | { ok: false; why: string };
/** Reads one PromQL expression as a single number at an instant (the evidence domain's Prometheus). */
export type PromqlReader = (orgId: string, query: string, at: Date) => Promise<Read>;
const NO_PROMETHEUS: PromqlReader = async () => ({ ok: false, why: 'no Prometheus evidence source is configured' });
const VALIDATOR: AuditContext = { actor: { kind: 'system', id: null, name: 'changeledger validation' }, source: 'scheduler' };

export class ValidationService {
  private promql: PromqlReader = NO_PROMETHEUS;

  constructor(private readonly deps: { db: Database; clock: Clock; changes: ChangeService; notifier: ChangeNotifier; outbound: Pick<OutboundClient, 'request'> }) {}

  setPromqlReader(r: PromqlReader): void {
    this.promql = r;
  }

  async view(p: Principal, id: string): Promise<ValidationView> {
    return readValidation(this.deps.db, await this.deps.changes.get(p, id));
  }

  /** In the transaction that finished the change: the check, due 30 s after the finish. */
  async schedule(tx: Tx, c: Change): Promise<void> {
    if (!c.validationPlan?.length || !c.finishedAt || c.validationCheckedAt) return;
    const due = new Date(Date.parse(c.finishedAt) + VALIDATION_DELAY_SECONDS * 1000);
    await scheduleJob(tx, this.deps.clock, { kind: VALIDATE_JOB, orgId: c.orgId, runAt: due, payload: { changeId: c.id, finishedAt: c.finishedAt }, dedupeKey: `${VALIDATE_JOB}:${c.id}:${c.finishedAt}` });
  }

  private async readHttp(orgId: string, url: string): Promise<Read> {
    try {
      const allowPrivate = (await readSettings(this.deps.db, orgId)).allowPrivateCallbacks;
      const r = await this.deps.outbound.request({ method: 'GET', url, allowPrivate });
      return { ok: true, value: r.status };
    } catch (err) {
      return { ok: false, why: `the URL could not be read: ${err instanceof Error ? err.message : String(err)}` };
    }
  }

  /** Reads every listed item (outside any transaction: these are network calls). */
  async check(c: Pick<Change, 'orgId'> & { validationPlan: ValidationItem[] }): Promise<ValidationRow[]> {
    const at = this.deps.clock.now();
    return Promise.all(c.validationPlan.map(async (item) => {
      const read = item.check === 'promql' ? await this.promql(c.orgId, item.query!, at).catch((err: unknown) => ({ ok: false as const, why: String(err) })) : await this.readHttp(c.orgId, item.url!);
      return rowFor(item, read);
    }));
  }

  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [VALIDATE_JOB]: {
        perform: async (job: Job) => {
          const { changeId } = job.payload as { changeId: string };
          const c = job.orgId ? await store.findChange(this.deps.db, job.orgId, changeId) : null;
          if (!c?.validationPlan?.length || c.validationCheckedAt) return null;
          return this.check({ orgId: c.orgId, validationPlan: c.validationPlan });
        },
        commit: async (tx: Tx, job: Job, rows: unknown) => {
          if (!rows || !job.orgId) return;
          const { changeId } = job.payload as { changeId: string };
          const c = await store.findChange(tx, job.orgId, changeId, true);
          if (!c?.validationPlan?.length || c.validationCheckedAt) return;
          const at = this.deps.clock.now().toISOString();
          const judged = validationResult(c.validationPlan, rows as ValidationRow[])!;
          await saveRows(tx, c.id, rows as ValidationRow[], at);
          await tx.query('UPDATE changes SET validation_result = $2, validation_checked_at = $3, updated_at = $3 WHERE id = $1', [c.id, judged.result, at]);
          await appendAtCommit(tx, this.deps.clock, VALIDATOR, {
            orgId: c.orgId, action: 'change.validated', target: { type: 'change', id: c.id },
            data: { result: judged.result, reason: judged.reason, rows: (rows as ValidationRow[]).map((r) => ({ item: r.itemId, state: r.state, observed: r.observed })) },
          });
          await this.deps.notifier.notify(tx, (await store.findChange(tx, c.orgId, c.id))!, 'validated', { result: judged.result, reason: judged.reason });
        },
      },
    };
  }
}
