/**
 * Cases of unmanaged changes: opened or joined by the intake in its own transaction, answered by
 * approvers in a signed-in session. Opening one mails the approvers and owners and posts to the
 * organisation's channel (through a seam compose.ts plugs the incidents domain into).
 */
import type { Clock } from '../../../platform/clock.js';
import type { Database, Tx } from '../../../platform/db/database.js';
import { conflict, forbidden, invalid, notFound } from '../../../platform/errors.js';
import type { JobHandler } from '../../../platform/jobs/job.js';
import { scheduleJob } from '../../../platform/jobs/job-queue.js';
import { scheduleMails, type OutboxMail } from '../../../platform/mail/mail-outbox.js';
import { renderMail } from '../../../platform/mail/render.js';
import { readApproverAndOwnerEmails, readApprovers } from '../../changes/index.js';
import { appendAtCommit, type AuditContext, type NewAuditEvent } from '../../ledger/index.js';
import type { ObservedChange } from '../observed-types.js';
import { caseChanges, caseDisplayId, findCase, keepChanges, listCases, openOrJoinCases, setCaseStatus, type CaseRecord } from './case-store.js';
import { accountOf, correlationKey, decideCase, hourOf, MIN_KEEP_NOTE, type CaseCommand, type CaseKind, type CaseStatus } from './cases.js';

/** What opened a case, for its mails and channel post: the first titles of its writes, and how many there were. */
export type CaseNotice = { orgId: string; caseId: string; displayId: string; kind: CaseKind; principal: string; account: string; hour: string; titles: string[]; count: number; link: string };

/** One job per delivery that opened cases: their mails and channel posts, queued by the worker. */
export const CASE_NOTIFY_JOB = 'case.notify';
const NOTICE_TITLES = 20;

/** The organisation's channel (a Slack-compatible incoming webhook), queued in the caller's transaction. */
export type CaseChannel = { post(tx: Tx, orgId: string, posts: ReadonlyArray<{ caseId: string; text: string }>): Promise<void> };
const NO_CHANNEL: CaseChannel = { post: async () => undefined };

/** A row the intake just stored that opens or joins a case. */
export type CaseCandidate = Pick<ObservedChange, 'id' | 'title' | 'occurredAt' | 'denied' | 'authorized' | 'location' | 'source'> & { principal: { name: string } };

type Person = { org: { id: string }; role: string; user: { id: string } };

export type CaseView = CaseRecord & { changes: number; writes: ObservedChange[]; canAnswer: boolean };

export const caseLink = (base: string, id: string) => `${base.replace(/\/$/, '')}/cases/${id}`;

export class CaseService {
  #channel: CaseChannel = NO_CHANNEL;

  constructor(private readonly deps: { db: Database; clock: Clock; baseUrl?: () => string }) {}

  setChannel(c: CaseChannel): void {
    this.#channel = c;
  }

  /**
   * The intake's rows that open or join a case, before they are inserted: unauthorized changes
   * always, denied attempts when the organisation sends them to a case (deniedAccessToSecops). One
   * case per kind · account · principal · UTC hour, opened or joined in one statement. Answers each
   * row's case (to insert it with), and `finish`, called with the ids the insert stored: it queues
   * one notify job for the cases opened or reopened and answers their audit events, for the caller
   * to append with its own in one batch. (A row a concurrent delivery stored first is left out of
   * both; that delivery joined the same case.)
   */
  async openOrJoin(tx: Tx, orgId: string, rows: readonly CaseCandidate[], deniedToCases: boolean): Promise<{ caseOf: Map<string, string>; finish(stored: ReadonlySet<string>): Promise<NewAuditEvent[]> }> {
    const groups = new Map<string, { kind: CaseKind; principal: string; account: string; hour: string; rows: CaseCandidate[] }>();
    for (const r of rows) {
      const kind: CaseKind | null = r.denied ? (deniedToCases ? 'denied_access' : null) : r.authorized === false ? 'unauthorized_change' : null;
      if (!kind) continue;
      const account = accountOf(r.location);
      const key = correlationKey(kind, account, r.principal.name, r.occurredAt);
      const g = groups.get(key) ?? { kind, principal: r.principal.name, account, hour: hourOf(r.occurredAt), rows: [] };
      g.rows.push(r);
      groups.set(key, g);
    }
    const caseOf = new Map<string, string>();
    if (!groups.size) return { caseOf, finish: async () => [] };
    const joined = await openOrJoinCases(tx, orgId, [...groups].map(([key, g]) => ({ kind: g.kind, key, principal: g.principal, account: g.account, hour: g.hour })), this.deps.clock.now().toISOString());
    for (const [key, g] of groups) for (const r of g.rows) caseOf.set(r.id, joined.get(key)!.id);
    const finish = async (stored: ReadonlySet<string>): Promise<NewAuditEvent[]> => {
      const opened: NewAuditEvent[] = [];
      const notices: CaseNotice[] = [];
      for (const [key, g] of groups) {
        const c = joined.get(key)!;
        if (!c.opened && !c.reopened) continue;
        const mine = g.rows.filter((r) => stored.has(r.id));
        opened.push({ orgId, action: c.opened ? 'case.opened' : 'case.reopened', target: { type: 'case', id: c.id }, data: { kind: g.kind, correlationKey: key, principal: g.principal, account: g.account, changes: mine.map((r) => r.id) } });
        notices.push({ orgId, caseId: c.id, displayId: caseDisplayId(c.id), kind: g.kind, principal: g.principal, account: g.account, hour: g.hour, titles: mine.slice(0, NOTICE_TITLES).map((r) => r.title), count: mine.length, link: caseLink(this.#base(), c.id) });
      }
      // The mails and channel posts fan out in a job of their own, committed with the cases: the
      // intake's transaction stays short, and the worker queues them within its poll interval.
      if (notices.length) await scheduleJob(tx, this.deps.clock, { kind: CASE_NOTIFY_JOB, orgId, runAt: this.deps.clock.now(), maxAttempts: 8, payload: { notices } });
      return opened;
    };
    return { caseOf, finish };
  }

  /** The notify job: every approver and owner mailed once per case, and the channel posted to, in the job's commit. */
  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [CASE_NOTIFY_JOB]: {
        maxAttempts: 8,
        commit: async (tx, job) => {
          const notices = (job.payload.notices ?? []) as CaseNotice[];
          if (!job.orgId || !notices.length) return;
          const to = await readApproverAndOwnerEmails(tx, job.orgId);
          const mails = notices.map((n) => this.#mail(n, to));
          // The dedupe keys (a case and a person; a case's post) make a second run queue nothing twice.
          await scheduleMails(tx, this.deps.clock, mails.flatMap((m) => m.messages));
          await this.#channel.post(tx, job.orgId, notices.map((n, i) => ({ caseId: n.caseId, text: mails[i]!.line })));
        },
      },
    };
  }

  async list(orgId: string, f: { statuses?: CaseStatus[]; kinds?: CaseKind[]; limit?: number }): Promise<CaseRecord[]> {
    return listCases(this.deps.db, orgId, { statuses: f.statuses ?? [], kinds: f.kinds ?? [], limit: f.limit ?? 100 });
  }

  /** One case, its writes, and whether the reader may answer it (an approver). */
  async get(orgId: string, id: string, userId: string): Promise<CaseView> {
    const c = await findCase(this.deps.db, orgId, id);
    if (!c) throw notFound(`no case ${id}`);
    return { ...c, writes: await caseChanges(this.deps.db, id), canAnswer: await this.#isApprover(orgId, userId) };
  }

  async #isApprover(orgId: string, userId: string): Promise<boolean> {
    return (await readApprovers(this.deps.db, orgId)).some((a) => a.userId === userId);
  }

  /** An approver's answer. Keeping needs a note of 10 characters or more; every answer is audited. */
  async answer(ctx: AuditContext, p: Person, id: string, command: CaseCommand, note: string | null): Promise<CaseView> {
    const text = note?.trim() ?? '';
    if (command === 'keep' && text.length < MIN_KEEP_NOTE) throw invalid('note', `must say why the change is legitimate, in ${MIN_KEEP_NOTE} characters or more`);
    if (text.length > 2000) throw invalid('note', 'must be at most 2,000 characters');
    if (!(await this.#isApprover(p.org.id, p.user.id))) throw forbidden('only the organisation\'s approvers may answer a case (Members → Approver)');
    await this.deps.db.transaction(async (tx) => {
      const c = await findCase(tx, p.org.id, id, true);
      if (!c) throw notFound(`no case ${id}`);
      const d = decideCase(c.kind, c.status, command);
      if (!d.ok) throw conflict(d.reason, { status: c.status });
      const now = this.deps.clock.now().toISOString();
      await setCaseStatus(tx, id, d.status, p.user.id, text || null, now);
      const writes = await caseChanges(tx, id);
      if (command === 'keep') {
        const kept = await keepChanges(tx, id, text);
        for (const w of kept) {
          await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'change.kept', target: { type: 'observed_change', id: w }, data: { caseId: id, note: text } });
        }
        await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'case.change_kept', target: { type: 'case', id }, data: { note: text, changes: kept } });
        return;
      }
      const action = command === 'approve_rollback' ? 'case.rollback_approved' : command === 'mark_rolled_back' ? 'case.rolled_back' : 'case.resolved';
      const reverts = command === 'resolve' ? undefined : writes.map((w) => ({ change: w.id, tool: w.revert?.tool ?? 'none', command: w.revert?.command ?? null }));
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action, target: { type: 'case', id }, data: { status: d.status, ...(text ? { note: text } : {}), ...(reverts ? { reverts } : {}) } });
    });
    return this.get(p.org.id, id, p.user.id);
  }

  #base(): string {
    return this.deps.baseUrl?.() ?? 'http://localhost:8080';
  }

  /** The mails to every approver and owner (once per case and person), and the case's line for the channel. */
  #mail(n: CaseNotice, to: readonly string[]): { messages: OutboxMail[]; line: string } {
    const denied = n.kind === 'denied_access';
    const subject = denied ? `Denied attempts: ${n.principal} in ${n.account || 'an account'}` : `Unauthorized change: ${n.principal} in ${n.account || 'an account'}`;
    const what = denied
      ? `${n.principal} was refused ${n.count === 1 ? 'a call' : `${n.count} calls`} in ${n.account || 'an account'} in the hour from ${n.hour.slice(11, 16)} UTC. Nothing changed; look at who tried and why.`
      : `${n.principal} made ${n.count === 1 ? 'a change' : `${n.count} changes`} in ${n.account || 'an account'} that nothing vouches for: no planned change, ticket or authorized principal covers ${n.count === 1 ? 'it' : 'them'}.`;
    const content = {
      heading: subject,
      lines: [what, ...(denied ? [] : ['Keep it as legitimate with a note, or approve the drafted rollback and run it with your own access.'])],
      facts: [['Case', n.displayId], ['Principal', n.principal], ['Account', n.account || '—'], ['Hour (UTC)', n.hour.slice(0, 16).replace('T', ' ')]] as Array<[string, string]>,
      lists: [{ title: denied ? 'Refused calls' : 'Changes', items: n.count > n.titles.length ? [...n.titles, `and ${n.count - n.titles.length} more`] : n.titles }],
      actions: [{ label: 'Open the case', url: n.link }],
      note: 'You get this as an approver or owner of the organisation. Sign-in is required; nothing is decided by the click.',
    };
    const { text, html } = renderMail(content);
    const messages = to.map((email) => ({ orgId: n.orgId, to: email, subject, text, html, dedupeKey: `case:${n.caseId}:${email}` }));
    const line = `${subject} (${n.displayId}): ${n.titles.slice(0, 5).join('; ')}${n.count > 5 ? ` and ${n.count - 5} more` : ''} — ${n.link}`;
    return { messages, line };
  }
}
