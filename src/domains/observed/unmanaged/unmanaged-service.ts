/**
 * Unmanaged changes: the organisation's reference rule and its settings, the ITSM webhook token,
 * the change tickets ITSM tools send, and the context the intake judges a delivery's writes with.
 */
import type { Clock } from '../../../platform/clock.js';
import { sha256Hex } from '../../../platform/crypto/tokens.js';
import type { Database, Queryable } from '../../../platform/db/database.js';
import { AppError, forbidden, notFound, unauthorized } from '../../../platform/errors.js';
import { randomSecret } from '../../../platform/ids.js';
import type { RecordPrincipal } from '../../changes/change-feed.js';
import { changesCovering, displayId } from '../../changes/index.js';
import { appendAtCommit, type AuditContext } from '../../ledger/index.js';
import { readJiraTicket, readServiceNowTicket } from './itsm-ticket.js';
import { classifyPrincipal } from './principal-class.js';
import { JUDGED_SOURCES, judgeWrite, NO_REFERENCE, principalMatcher, VOUCHING_STATUSES, type PrincipalMatcher, type RuleContext } from './reference-rule.js';
import { applyUnmanagedSettings, type UnmanagedSettings, type UnmanagedSettingsInput } from './unmanaged-settings.js';
import {
  findTicket, hasItsmToken, listTickets, orgOfItsmToken, readUnmanagedSettings, setItsmToken, ticketsAround, upsertTicket,
  writeUnmanagedSettings, type StoredSettings, type StoredTicket,
} from './unmanaged-store.js';
import type { ItsmSystem, PrincipalClass, Ticket } from './unmanaged-types.js';

type Person = { org: { id: string }; role: string };

/** The dry run looks this far back, at most this many writes, and shows this many it would flag. */
export const DRY_RUN_DAYS = 7;
const DRY_RUN_MAX_ROWS = 20_000;
const DRY_RUN_EXAMPLES = 10;

export type DryRun = {
  days: number; judged: number; flagged: number; authorized: number;
  byReference: { change_id: number; itsm_ticket: number; change_window: number; authorized_principal: number };
  examples: Array<{ id: string; displayId: string; title: string; principal: string; at: string; reason: string }>;
  /** More writes than the dry run reads: the newest were judged. */
  truncated: boolean;
};

type DryRunRow = {
  id: string; source: string; title: string; principal: RecordPrincipal; principal_class: PrincipalClass | null; occurred_at: Date | string;
  services: string[] | null; resource: string | null; change_ref: string | null; outcome: string | null;
};

/** The ITSM token's readable prefix, so a leaked one is recognised for what it is. */
export const ITSM_TOKEN_PREFIX = 'clitsm_';

export type SettingsView = StoredSettings & { itsmTokenSet: boolean };
export type TicketAnswer = { ticket: StoredTicket; counts: boolean; created: boolean; refreshed: boolean; why: string | null };

const manage = (p: Person, what: string) => {
  if (p.role !== 'owner' && p.role !== 'admin') throw forbidden(`only owners and admins may ${what}`);
};

const MATCHER_CACHE_MAX = 1_000;

export class UnmanagedService {
  readonly #matchers = new Map<string, { key: string; matcher: PrincipalMatcher }>();

  constructor(private readonly deps: { db: Database; clock: Clock }) {}

  async settings(orgId: string): Promise<SettingsView> {
    const s = await readUnmanagedSettings(this.deps.db, orgId);
    return { ...s, itsmTokenSet: s.itsmTokenMintedAt !== null };
  }

  async updateSettings(ctx: AuditContext, p: Person, input: UnmanagedSettingsInput): Promise<SettingsView> {
    manage(p, 'change the unmanaged-change settings');
    return this.deps.db.transaction(async (tx) => {
      const { itsmTokenMintedAt, updatedAt, ...before } = await readUnmanagedSettings(tx, p.org.id, true);
      const { next, changed } = applyUnmanagedSettings(before, input);
      // The rule decides which writes are flagged for the whole organisation: its owners' call.
      if (changed.includes('referenceRule') && p.role !== 'owner') throw new AppError(403, 'only an owner may switch the reference rule on or off', 'referenceRule');
      if (!changed.length) return { ...before, itsmTokenMintedAt, updatedAt, itsmTokenSet: itsmTokenMintedAt !== null };
      const now = this.deps.clock.now().toISOString();
      await writeUnmanagedSettings(tx, p.org.id, next, now);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'unmanaged_settings.updated', target: { type: 'organization', id: p.org.id },
        data: {
          changed, ...pick(next, changed),
          // What the write replaced and wrote: the settings write's before-state capture.
          before: pick(before, changed), after: pick(next, changed),
        },
      });
      return { ...next, itsmTokenMintedAt, updatedAt: now, itsmTokenSet: itsmTokenMintedAt !== null };
    });
  }

  /** A new ITSM webhook token, answered once; only its hash is kept, and the previous one stops counting. */
  async mintItsmToken(ctx: AuditContext, p: Person, orgId: string): Promise<{ token: string; mintedAt: string }> {
    manage(p, 'mint the ITSM webhook token');
    if (orgId !== p.org.id) throw notFound(`no organisation ${orgId}`);
    const token = `${ITSM_TOKEN_PREFIX}${randomSecret()}`;
    const mintedAt = this.deps.clock.now().toISOString();
    await this.deps.db.transaction(async (tx) => {
      const replaced = await hasItsmToken(tx, orgId);
      await setItsmToken(tx, orgId, sha256Hex(token), mintedAt);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId, action: 'organization.itsm_webhook_token', target: { type: 'organization', id: orgId }, data: { replaced } });
    });
    return { token, mintedAt };
  }

  /**
   * A change ticket from an ITSM tool. The bearer token, when it is the organisation's ITSM token,
   * finds the organisation and makes the ticket count; without it the organisation comes from `org`
   * (its slug) and the ticket is kept but never vouches for a write.
   */
  async receiveTicket(ctx: Omit<AuditContext, 'actor'>, system: ItsmSystem, bearer: string | null, orgSlug: string | null, body: unknown): Promise<TicketAnswer> {
    const db = this.deps.db;
    let orgId: string | null = null;
    let why: string | null = null;
    if (bearer !== null) {
      orgId = await orgOfItsmToken(db, sha256Hex(bearer));
      if (!orgId) throw unauthorized('the bearer token is not an organisation\'s ITSM webhook token (it may have been replaced by a newer one)');
    } else {
      if (!orgSlug) throw unauthorized('send the organisation\'s ITSM webhook token (Authorization: Bearer clitsm_…); without it, name the organisation with ?org=<slug> and the ticket is kept but vouches for nothing');
      const r = await db.query<{ id: string }>('SELECT id FROM organizations WHERE slug = $1', [orgSlug]);
      orgId = r.rows[0]?.id ?? null;
      if (!orgId) throw notFound(`no organisation ${orgSlug}`);
      why = (await hasItsmToken(db, orgId))
        ? 'it arrived without the organisation\'s ITSM webhook token, so it vouches for nothing until a re-send carries it'
        : 'the organisation has no ITSM webhook token yet: mint one, and the ticket counts once a re-send carries it';
    }
    const settings = await readUnmanagedSettings(db, orgId);
    const ticket: Ticket = system === 'servicenow' ? readServiceNowTicket(body) : readJiraTicket(body, settings.itsmChangeMatch.jiraFields);
    const verified = why === null;
    const now = this.deps.clock.now().toISOString();
    return db.transaction(async (tx) => {
      const { created, refreshed } = await upsertTicket(tx, orgId, ticket, verified, why, now);
      // A tokenless re-send of a ticket someone vouched for leaves it as it was; nothing is written.
      if (created || refreshed) {
        await appendAtCommit(tx, this.deps.clock, { ...ctx, actor: { kind: 'service', id: `itsm:${system}`, name: system === 'servicenow' ? 'ServiceNow' : 'Jira' } }, {
          orgId, action: 'itsm_ticket.received', target: { type: 'itsm_ticket', id: `${system}:${ticket.key}` },
          data: { system, key: ticket.key, state: ticket.state, counts: verified, plannedStart: ticket.plannedStart, plannedEnd: ticket.plannedEnd, items: ticket.items, ...(refreshed ? { refreshed: true } : {}), ...(why ? { why } : {}) },
        });
      }
      const stored = (await findTicket(tx, orgId, system, ticket.key))!;
      const kept = !created && !refreshed;
      return {
        ticket: stored, counts: stored.verified, created, refreshed,
        why: kept ? 'the ticket arrived with the ITSM token before; a re-send without it does not change it' : stored.unverifiedReason,
      };
    });
  }

  /**
   * What the rule would have said of the last 7 days' writes with these settings (saved or not,
   * the rule taken as on). Nothing is written.
   */
  async dryRun(p: Person, input: UnmanagedSettingsInput): Promise<DryRun> {
    const db = this.deps.db;
    const { itsmTokenMintedAt: _m, updatedAt: _u, ...current } = await readUnmanagedSettings(db, p.org.id);
    const { next } = applyUnmanagedSettings(current, input);
    const now = this.deps.clock.now();
    const since = new Date(now.getTime() - DRY_RUN_DAYS * 86_400_000).toISOString();
    const r = await db.query<DryRunRow>(
      `SELECT id, source, title, principal, principal_class, occurred_at, services, resource, change_ref, outcome FROM observed_changes
        WHERE org_id = $1 AND occurred_at >= $2 AND source = ANY($3::text[]) AND NOT denied ORDER BY occurred_at DESC, id LIMIT $4`,
      [p.org.id, since, JUDGED_SOURCES, DRY_RUN_MAX_ROWS]);
    const answer: DryRun = { days: DRY_RUN_DAYS, judged: 0, flagged: 0, authorized: 0, byReference: { change_id: 0, itsm_ticket: 0, change_window: 0, authorized_principal: 0 }, examples: [], truncated: r.rows.length === DRY_RUN_MAX_ROWS };
    if (!r.rows.length) return answer;
    const at = (d: Date | string) => new Date(d).toISOString();
    const ctx = await this.contextFor(db, p.org.id, { ...next, referenceRule: true }, {
      times: r.rows.map((x) => at(x.occurred_at)), services: r.rows.flatMap((x) => x.services ?? []), changeRefs: r.rows.flatMap((x) => (x.change_ref ? [x.change_ref] : [])),
    });
    for (const x of r.rows) {
      const principalClass = x.principal_class ?? classifyPrincipal(x.source, x.principal).principalClass;
      const w = { source: x.source, denied: false, outcome: x.outcome, principalClass, principal: x.principal, at: at(x.occurred_at), services: x.services ?? [], resource: x.resource, changeRef: x.change_ref };
      const j = judgeWrite(w, ctx);
      if (j.authorized === null) continue;
      answer.judged += 1;
      if (j.authorized) {
        answer.authorized += 1;
        answer.byReference[j.reference as keyof DryRun['byReference']] += 1;
      } else {
        answer.flagged += 1;
        if (answer.examples.length < DRY_RUN_EXAMPLES) answer.examples.push({ id: x.id, displayId: displayId(x.id), title: x.title, principal: x.principal.name, at: w.at, reason: j.reason ?? NO_REFERENCE });
      }
    }
    return answer;
  }

  async tickets(orgId: string): Promise<StoredTicket[]> {
    return listTickets(this.deps.db, orgId);
  }

  /**
   * What the rule needs to judge the writes of one delivery, read once: the planned changes that
   * could vouch for them (approved or running, their window meeting the span of the writes' times
   * and their scope holding any of the writes' services, or named by a write), the tickets around
   * that span, and the authorized principals. The settings are given (saved, or the dry run's
   * unsaved form).
   */
  async contextFor(q: Queryable, orgId: string, s: UnmanagedSettings, writes: { times: readonly string[]; services: readonly string[]; changeRefs: readonly string[] }): Promise<RuleContext> {
    const sorted = writes.times.map((t) => Date.parse(t)).sort((a, b) => a - b);
    const from = new Date(sorted[0]!).toISOString();
    const until = new Date(sorted.at(-1)!).toISOString();
    const vouching = await changesCovering(q, orgId, {
      statuses: VOUCHING_STATUSES, from, until, services: [...new Set(writes.services)], displayIds: writes.changeRefs, now: this.deps.clock.now().toISOString(),
    });
    const { verified: tickets, unverified } = await ticketsAround(q, orgId, from, until);
    return {
      enabled: true, byDisplayId: new Map(vouching.map((v) => [v.displayId, v])), vouching, tickets, unverified, itsmMatch: s.itsmChangeMatch,
      principals: this.#matcher(orgId, s.authorizedPrincipals),
    };
  }

  /**
   * The authorized principals compiled once per organisation and list (a thousand globs take ~15 ms
   * to compile): a delivery reuses the organisation's matcher until the list changes.
   */
  #matcher(orgId: string, globs: readonly string[]): PrincipalMatcher {
    const key = globs.join('\n');
    const cached = this.#matchers.get(orgId);
    if (cached && cached.key === key) return cached.matcher;
    const matcher = principalMatcher(globs);
    if (this.#matchers.size >= MATCHER_CACHE_MAX) this.#matchers.clear();
    this.#matchers.set(orgId, { key, matcher });
    return matcher;
  }
}

function pick<T extends object>(o: T, keys: Array<keyof T>): Partial<T> {
  return Object.fromEntries(keys.map((k) => [k, o[k]])) as Partial<T>;
}
