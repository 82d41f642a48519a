/**
 * Cases of unmanaged changes: opened or joined by the intake in its own transaction, answered by
 * approvers in a signed-in session. Opening one mails the approvers and owners and posts to the
 * organisation's channel (through a seam compose.ts plugs the incidents domain into).
 */
import type { Clock } from '../../../platform/clock.js';
import type { Database, Tx } from '../../../platform/db/database.js';
import { conflict, forbidden, invalid, notFound } from '../../../platform/errors.js';
import { scheduleMail } from '../../../platform/mail/mail-outbox.js';
import { renderMail } from '../../../platform/mail/render.js';
import { listMembers } from '../../auth/index.js';
import { readApprovers } from '../../changes/index.js';
import { appendAuditEvent, appendAuditEvents, type AuditContext, type NewAuditEvent } from '../../ledger/index.js';
import type { ObservedChange } from '../observed-types.js';
import { caseChanges, caseDisplayId, findCase, keepChanges, linkToCase, listCases, openOrJoinCase, setCaseStatus, type CaseRecord } from './case-store.js';
import { accountOf, correlationKey, decideCase, hourOf, MIN_KEEP_NOTE, type CaseCommand, type CaseKind, type CaseStatus } from './cases.js';

/** What opened a case, for a channel post. */
export type CaseNotice = { orgId: string; caseId: string; displayId: string; kind: CaseKind; principal: string; account: string; hour: string; titles: string[]; link: string };

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
   * The intake's rows that open or join a case: unauthorized changes always, denied attempts when
   * the organisation sends them to a case (deniedAccessToSecops). One case per kind · account ·
   * principal · UTC hour.
   */
  async openOrJoin(tx: Tx, ctx: AuditContext, orgId: string, rows: readonly CaseCandidate[], deniedToCases: boolean): Promise<void> {
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
    if (!groups.size) return;
    const now = this.deps.clock.now().toISOString();
    const opened: NewAuditEvent[] = [];
    const notices: CaseNotice[] = [];
    for (const [key, g] of groups) {
      const c = await openOrJoinCase(tx, { orgId, kind: g.kind, key, principal: g.principal, account: g.account, hour: g.hour, now });
      await linkToCase(tx, c.id, g.rows.map((r) => r.id));
      if (!c.opened && !c.reopened) continue;
      opened.push({ orgId, action: c.opened ? 'case.opened' : 'case.reopened', target: { type: 'case', id: c.id }, data: { kind: g.kind, correlationKey: key, principal: g.principal, account: g.account, changes: g.rows.map((r) => r.id) } });
      notices.push({ orgId, caseId: c.id, displayId: caseDisplayId(c.id), kind: g.kind, principal: g.principal, account: g.account, hour: g.hour, titles: g.rows.map((r) => r.title), link: caseLink(this.#base(), c.id) });
    }
    await appendAuditEvents(tx, this.deps.clock, ctx, opened);
    if (notices.length) {
      const to = await this.#recipients(tx, orgId);
      const posts: Array<{ caseId: string; text: string }> = [];
      for (const n of notices) posts.push({ caseId: n.caseId, text: await this.#mail(tx, n, to) });
      await this.#channel.post(tx, orgId, posts);
    }
  }

  /** Every approver and owner, once each (an e-mail in any case). */
  async #recipients(tx: Tx, orgId: string): Promise<string[]> {
    const approvers = await readApprovers(tx, orgId);
    const owners = (await listMembers(tx, orgId)).filter((m) => m.role === 'owner');
    return [...new Set([...approvers.map((a) => a.email), ...owners.map((o) => o.email)].map((e) => e.toLowerCase()))];
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
          await appendAuditEvent(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'change.kept', target: { type: 'observed_change', id: w }, data: { caseId: id, note: text } });
        }
        await appendAuditEvent(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'case.change_kept', target: { type: 'case', id }, data: { note: text, changes: kept } });
        return;
      }
      const action = command === 'approve_rollback' ? 'case.rollback_approved' : command === 'mark_rolled_back' ? 'case.rolled_back' : 'case.resolved';
      const reverts = command === 'resolve' ? undefined : writes.map((w) => ({ change: w.id, tool: w.revert?.tool ?? 'none', command: w.revert?.command ?? null }));
      await appendAuditEvent(tx, this.deps.clock, ctx, { orgId: p.org.id, action, target: { type: 'case', id }, data: { status: d.status, ...(text ? { note: text } : {}), ...(reverts ? { reverts } : {}) } });
    });
    return this.get(p.org.id, id, p.user.id);
  }

  #base(): string {
    return this.deps.baseUrl?.() ?? 'http://localhost:8080';
  }

  /** Mail to every approver and owner (once per case and person); answers the case's line for the channel. */
  async #mail(tx: Tx, n: CaseNotice, to: readonly string[]): Promise<string> {
    const denied = n.kind === 'denied_access';
    const subject = denied ? `Denied attempts: ${n.principal} in ${n.account || 'an account'}` : `Unauthorized change: ${n.principal} in ${n.account || 'an account'}`;
    const what = denied
      ? `${n.principal} was refused ${n.titles.length === 1 ? 'a call' : `${n.titles.length} calls`} in ${n.account || 'an account'} in the hour from ${n.hour.slice(11, 16)} UTC. Nothing changed; look at who tried and why.`
      : `${n.principal} made ${n.titles.length === 1 ? 'a change' : `${n.titles.length} changes`} in ${n.account || 'an account'} that nothing vouches for: no planned change, ticket or authorized principal covers ${n.titles.length === 1 ? 'it' : 'them'}.`;
    const content = {
      heading: subject,
      lines: [what, ...(denied ? [] : ['Keep it as legitimate with a note, or approve the drafted rollback and run it with your own access.'])],
      facts: [['Case', n.displayId], ['Principal', n.principal], ['Account', n.account || '—'], ['Hour (UTC)', n.hour.slice(0, 16).replace('T', ' ')]] as Array<[string, string]>,
      lists: [{ title: denied ? 'Refused calls' : 'Changes', items: n.titles.slice(0, 20) }],
      actions: [{ label: 'Open the case', url: n.link }],
      note: 'You get this as an approver or owner of the organisation. Sign-in is required; nothing is decided by the click.',
    };
    const { text, html } = renderMail(content);
    for (const email of to) await scheduleMail(tx, this.deps.clock, { orgId: n.orgId, to: email, subject, text, html, dedupeKey: `case:${n.caseId}:${email}` });
    return `${subject} (${n.displayId}): ${n.titles.slice(0, 5).join('; ')}${n.titles.length > 5 ? ` and ${n.titles.length - 5} more` : ''} — ${n.link}`;
  }
}
