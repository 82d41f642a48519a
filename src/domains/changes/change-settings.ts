import type { Clock } from '../../platform/clock.js';
import { openOrNull, type Sealer } from '../../platform/crypto/sealed.js';
import { destinationHost, parseTicketing, splitSecret, viewTicketing, type StoredTicketing, type TicketingInput, type TicketingView } from './ticketing-settings.js';
import type { TicketKind } from './ticket-destination.js';
import type { Database, Queryable, Row, Tx } from '../../platform/db/database.js';
import { badRequest, forbidden, invalid } from '../../platform/errors.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import type { SilenceMode } from '../catalogue/blast.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { judgeQuorum, shortWarning } from './quorum-rule.js';
import type { ClassPolicy } from './change-class.js';

export const APPROVAL_MODES = ['none', 'api', 'all'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];
export const MAX_APPROVERS = 50;
export const MAX_COMPLETION_RECIPIENTS = 25;

export type ChangeSettings = {
  approvalRequired: ApprovalMode;
  quorum: number;
  approvalExpiryMinutes: number;
  startTimeoutMinutes: number;
  surveillanceMinutes: number;
  completionRecipients: string[];
  allowPrivateCallbacks: boolean;
  silenceInfra: SilenceMode;
  /** normal_by_default: a change is standard only when it names a certified template that covers it; standard_by_default: whenever one covers it. */
  changeClassPolicy: ClassPolicy;
  /** Approvals an L1 change needs: 0 (pre-approved) or a number. L2 needs the quorum, L3 at least two. */
  l1Approvals: number;
  /** Which changes cannot start without a before-state: production ones (an environment named prod, production, live …), all, or none. */
  requireBeforeState: BeforeStateRule;
  /** The first rollback of a change its template made standard takes the template's certification away. */
  demoteOnRollback: boolean;
  /** How far back the rollback sweep looks for failed changes, in hours. */
  rollbackSweepWindowHours: number;
  updatedAt: string | null;
};
export const BEFORE_STATE_RULES = ['production', 'always', 'never'] as const;
export type BeforeStateRule = (typeof BEFORE_STATE_RULES)[number];
/** The settings as a manager reads them: with the ticket destination, its secret masked. */
export type SettingsWithTicketing = ChangeSettings & { ticketing: TicketingView | null; ticketingKind: TicketKind | 'none'; ticketingUnreadable: boolean };
export type SettingsPatch = Partial<Omit<ChangeSettings, 'updatedAt'>> & { ticketing?: TicketingInput | null };
export type Approver = { userId: string; email: string; name: string; critical: boolean };
export type SettingsView = {
  settings: SettingsWithTicketing;
  approvers: Approver[];
  criticalApprovers: Array<{ userId: string; name: string }>;
  limits: Record<string, { min?: number; max: number }>;
  warning: string | null;
  criticalWarning: string | null;
  /** The same warnings, each with the field it is about: a write that leaves one is still taken (200). */
  warnings: SettingsWarning[];
};
export type SettingsWarning = { field: 'quorum' | 'criticalUserIds'; message: string };

export const DEFAULTS: Omit<ChangeSettings, 'updatedAt'> = {
  approvalRequired: 'all', quorum: 2, approvalExpiryMinutes: 1440, startTimeoutMinutes: 1440, surveillanceMinutes: 60,
  completionRecipients: [], allowPrivateCallbacks: false, silenceInfra: 'dedicated', changeClassPolicy: 'normal_by_default', l1Approvals: 0,
  requireBeforeState: 'production', demoteOnRollback: true, rollbackSweepWindowHours: 24,
};
export const LIMITS = {
  quorum: { min: 1, max: 25 }, approvalExpiryMinutes: { min: 15, max: 10080 }, startTimeoutMinutes: { min: 15, max: 10080 },
  surveillanceMinutes: { min: 15, max: 1440 }, l1Approvals: { min: 0, max: 25 }, rollbackSweepWindowHours: { min: 1, max: 168 }, completionRecipients: { max: MAX_COMPLETION_RECIPIENTS }, approvers: { max: MAX_APPROVERS },
};

type Manager = { org: { id: string }; role: string; user: { id: string } };
type SettingsRow = Row & {
  approval_required: ApprovalMode; quorum: number; approval_expiry_minutes: number; start_timeout_minutes: number; surveillance_minutes: number;
  completion_recipients: string[]; allow_private_callbacks: boolean; silence_infra: SilenceMode; updated_at: Date; change_class_policy: ClassPolicy; l1_approvals: number;
  require_before_state: BeforeStateRule; demote_on_rollback: boolean; rollback_sweep_window_hours: number;
  ticketing: StoredTicketing | null; ticketing_secret_sealed: string | null;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function readSettings(db: Queryable, orgId: string): Promise<ChangeSettings> {
  const r = await db.query<SettingsRow>('SELECT * FROM change_settings WHERE org_id = $1', [orgId]);
  const x = r.rows[0];
  if (!x) return { ...DEFAULTS, updatedAt: null };
  return {
    approvalRequired: x.approval_required, quorum: x.quorum, approvalExpiryMinutes: x.approval_expiry_minutes, startTimeoutMinutes: x.start_timeout_minutes,
    surveillanceMinutes: x.surveillance_minutes, completionRecipients: x.completion_recipients, allowPrivateCallbacks: x.allow_private_callbacks,
    silenceInfra: x.silence_infra, changeClassPolicy: x.change_class_policy ?? 'normal_by_default', l1Approvals: x.l1_approvals ?? 0,
    requireBeforeState: x.require_before_state ?? 'production', demoteOnRollback: x.demote_on_rollback ?? true, rollbackSweepWindowHours: x.rollback_sweep_window_hours ?? 24, updatedAt: new Date(x.updated_at).toISOString(),
  };
}

/** Designated approvers who are still members of the organisation. */
export async function readApprovers(db: Queryable, orgId: string): Promise<Approver[]> {
  const r = await db.query<Row & { user_id: string; email: string; display_name: string; critical: boolean }>(
    `SELECT a.user_id, u.email, u.display_name, a.critical FROM change_approvers a
     JOIN memberships m ON m.org_id = a.org_id AND m.user_id = a.user_id JOIN users u ON u.id = a.user_id
     WHERE a.org_id = $1 ORDER BY lower(u.email)`,
    [orgId],
  );
  return r.rows.map((x) => ({ userId: x.user_id, email: x.email, name: x.display_name, critical: x.critical }));
}

/**
 * The addresses of everyone who answers for the organisation's changes: its designated approvers
 * (still members) and its owners, each once, lower-cased, in one read.
 */
export async function readApproverAndOwnerEmails(db: Queryable, orgId: string): Promise<string[]> {
  const r = await db.query<{ email: string }>(
    `SELECT DISTINCT lower(u.email) AS email FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.org_id = $1 AND (m.role = 'owner' OR EXISTS (SELECT 1 FROM change_approvers a WHERE a.org_id = m.org_id AND a.user_id = m.user_id))
      ORDER BY 1`, [orgId]);
  return r.rows.map((x) => x.email);
}

/** The organisation's ticket destination as stored: its fields, and its secret still sealed. */
export async function readTicketing(db: Queryable, orgId: string): Promise<{ ticketing: StoredTicketing | null; sealed: string | null }> {
  const r = await db.query<SettingsRow>('SELECT ticketing, ticketing_secret_sealed FROM change_settings WHERE org_id = $1', [orgId]);
  return { ticketing: r.rows[0]?.ticketing ?? null, sealed: r.rows[0]?.ticketing_secret_sealed ?? null };
}

function view(settings: SettingsWithTicketing, approvers: Approver[]): SettingsView {
  const gated = settings.approvalRequired !== 'none';
  const critical = approvers.filter((a) => a.critical);
  const warning = shortWarning({ gated, quorum: settings.quorum, approvers: approvers.length });
  const criticalWarning = gated && critical.length === 0 ? 'no critical approver is designated: a critical change would wait until it expires' : null;
  const warnings: SettingsWarning[] = [];
  if (warning !== null) warnings.push({ field: 'quorum', message: warning });
  if (criticalWarning !== null) warnings.push({ field: 'criticalUserIds', message: criticalWarning });
  return { settings, approvers, criticalApprovers: critical.map((a) => ({ userId: a.userId, name: a.name })), limits: LIMITS, warning, criticalWarning, warnings };
}

/** The organisation's change settings and approvers; owners and admins change them, each change audited. */
export class ChangeSettingsService {
  constructor(private readonly deps: { db: Database; clock: Clock; sealer: Sealer; outbound: Pick<OutboundClient, 'judgeLiteral'> }) {}

  async get(m: Manager): Promise<SettingsView> {
    manage(m);
    return view(await this.withTicketing(this.deps.db, m.org.id, await readSettings(this.deps.db, m.org.id)), await readApprovers(this.deps.db, m.org.id));
  }

  private async withTicketing(db: Queryable, orgId: string, settings: ChangeSettings): Promise<SettingsWithTicketing> {
    const t = await readTicketing(db, orgId);
    const readable = t.sealed !== null && openOrNull(this.deps.sealer, t.sealed) !== null;
    return { ...settings, ticketing: viewTicketing(t.ticketing, readable), ticketingKind: t.ticketing?.kind ?? 'none', ticketingUnreadable: t.ticketing !== null && !readable };
  }

  async update(ctx: AuditContext, m: Manager, full: SettingsPatch): Promise<SettingsView> {
    manage(m);
    const { ticketing, ...patch } = full;
    const recipients = patch.completionRecipients;
    if (recipients) {
      if (recipients.length > MAX_COMPLETION_RECIPIENTS) throw badRequest(`at most ${MAX_COMPLETION_RECIPIENTS} completion recipients`, 'completionRecipients');
      const bad = recipients.findIndex((r) => !EMAIL.test(r) || r.length > 320);
      if (bad >= 0) throw invalid(`completionRecipients.${bad}`, 'is not an e-mail address', recipients[bad]);
    }
    return this.deps.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`change-settings:${m.org.id}`]);
      const before = await readSettings(tx, m.org.id);
      const approvers = await readApprovers(tx, m.org.id);
      const { updatedAt: _u, ...was } = before;
      const next = { ...was, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as Omit<ChangeSettings, 'updatedAt'>;
      const judged = judgeQuorum(
        { gated: before.approvalRequired !== 'none', quorum: before.quorum, approvers: approvers.length },
        { gated: next.approvalRequired !== 'none', quorum: next.quorum, approvers: approvers.length },
        'quorum',
      );
      if (!judged.ok) throw badRequest(judged.reason, judged.field);
      const at = this.deps.clock.now().toISOString();
      await tx.query(
        `INSERT INTO change_settings (org_id, silence_infra, approval_required, quorum, approval_expiry_minutes, start_timeout_minutes, surveillance_minutes, completion_recipients, allow_private_callbacks, updated_at,
           change_class_policy, l1_approvals, require_before_state, demote_on_rollback, rollback_sweep_window_hours)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         ON CONFLICT (org_id) DO UPDATE SET silence_infra = $2, approval_required = $3, quorum = $4, approval_expiry_minutes = $5, start_timeout_minutes = $6,
           surveillance_minutes = $7, completion_recipients = $8, allow_private_callbacks = $9, updated_at = $10, change_class_policy = $11, l1_approvals = $12,
           require_before_state = $13, demote_on_rollback = $14, rollback_sweep_window_hours = $15`,
        [m.org.id, next.silenceInfra, next.approvalRequired, next.quorum, next.approvalExpiryMinutes, next.startTimeoutMinutes, next.surveillanceMinutes, next.completionRecipients, next.allowPrivateCallbacks, at,
          next.changeClassPolicy, next.l1Approvals, next.requireBeforeState, next.demoteOnRollback, next.rollbackSweepWindowHours],
      );
      const changed = Object.fromEntries(Object.keys(next).filter((k) => JSON.stringify(next[k as keyof typeof next]) !== JSON.stringify(was[k as keyof typeof was])).map((k) => [k, { from: was[k as keyof typeof was], to: next[k as keyof typeof next] }]));
      if (Object.keys(changed).length || ticketing === undefined) {
        await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'settings.changes_updated', target: { type: 'settings', id: 'changes' }, data: { changed } });
      }
      if (ticketing !== undefined) await this.saveTicketing(tx, ctx, m.org.id, ticketing, at);
      return view(await this.withTicketing(tx, m.org.id, { ...next, updatedAt: at }), approvers);
    });
  }

  /**
   * The one ticket destination. The secret sent blank or as •••• keeps the stored one (same kind,
   * host and account only); it is sealed with the data key and never answered. Audited org_change.ticketing.
   */
  private async saveTicketing(tx: Tx, ctx: AuditContext, orgId: string, input: TicketingInput | null, at: string): Promise<void> {
    const before = await readTicketing(tx, orgId);
    const storedSecret = openOrNull(this.deps.sealer, before.sealed);
    // Private addresses are the guard's to judge at each call (allowPrivateCallbacks may change); never-deliverable ones are refused now.
    const parsed = parseTicketing(input, before.ticketing ? { ticketing: before.ticketing, secret: storedSecret } : null, { judgeUrl: (url) => this.deps.outbound.judgeLiteral(url, true) });
    const split = parsed ? splitSecret(parsed) : null;
    const secretChanged = (split?.secret ?? null) !== storedSecret;
    await tx.query('UPDATE change_settings SET ticketing = $2, ticketing_secret_sealed = $3 WHERE org_id = $1',
      [orgId, split ? JSON.stringify(split.stored) : null, split ? (secretChanged ? this.deps.sealer.seal(split.secret) : before.sealed) : null]);
    await appendAtCommit(tx, this.deps.clock, ctx, {
      orgId, action: 'org_change.ticketing', target: { type: 'settings', id: 'change-ticketing' },
      data: {
        from: before.ticketing?.kind ?? 'none', to: split?.stored.kind ?? 'none', host: split ? destinationHost(split.stored) : null, secretChanged, at,
        fields: split ? Object.keys(split.stored).filter((k) => JSON.stringify((split.stored as Record<string, unknown>)[k]) !== JSON.stringify((before.ticketing as Record<string, unknown> | null)?.[k])) : [],
      },
    });
  }

  /**
   * A member left the organisation: they stop being an approver (audited with the removal), so an
   * invitation back does not quietly make them one again.
   */
  async forgetApproverTx(tx: Tx, ctx: AuditContext, orgId: string, userId: string): Promise<void> {
    const before = await readApprovers(tx, orgId);
    const gone = await tx.query<{ critical: boolean }>('DELETE FROM change_approvers WHERE org_id = $1 AND user_id = $2 RETURNING critical', [orgId, userId]);
    const row = gone.rows[0];
    if (!row) return;
    await appendAtCommit(tx, this.deps.clock, ctx, {
      orgId, action: 'settings.change_approvers_updated', target: { type: 'settings', id: 'change-approvers' },
      data: {
        added: [], removed: [userId], criticalAdded: [], criticalRemoved: row.critical ? [userId] : [], reason: 'member removed from the organisation',
        ...approverStates(before, before.filter((a) => a.userId !== userId)),
      },
    });
  }

  /**
   * The whole approver list. Active members only; while approval is required a list that reaches
   * the quorum may not shrink below it (quorum-rule.ts). `criticalUserIds` ⊆ `userIds`; left out,
   * the stored flags are kept.
   */
  async setApprovers(ctx: AuditContext, m: Manager, userIds: string[], criticalUserIds?: string[]): Promise<SettingsView> {
    manage(m);
    const ids = [...new Set(userIds)];
    if (ids.length > MAX_APPROVERS) throw badRequest(`at most ${MAX_APPROVERS} approvers`, 'userIds');
    const critical = criticalUserIds ? [...new Set(criticalUserIds)] : null;
    if (critical) {
      const stray = critical.find((id) => !ids.includes(id));
      if (stray) throw badRequest(`${stray} is a critical approver but not in userIds`, 'criticalUserIds');
    }
    return this.deps.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`change-settings:${m.org.id}`]);
      const members = await tx.query<{ user_id: string }>('SELECT user_id FROM memberships WHERE org_id = $1 AND user_id = ANY($2::text[])', [m.org.id, ids]);
      const known = new Set(members.rows.map((r) => r.user_id));
      const missing = ids.find((id) => !known.has(id));
      if (missing) throw badRequest(`${missing} is not a member of the organisation`, 'userIds');
      const settings = await readSettings(tx, m.org.id);
      const before = await readApprovers(tx, m.org.id);
      const gated = settings.approvalRequired !== 'none';
      const judged = judgeQuorum({ gated, quorum: settings.quorum, approvers: before.length }, { gated, quorum: settings.quorum, approvers: ids.length }, 'userIds');
      if (!judged.ok) throw badRequest(judged.reason, judged.field);
      const wasCritical = new Set(before.filter((a) => a.critical).map((a) => a.userId));
      const nowCritical = new Set(critical ?? ids.filter((id) => wasCritical.has(id)));
      const at = this.deps.clock.now().toISOString();
      await tx.query('DELETE FROM change_approvers WHERE org_id = $1', [m.org.id]);
      if (ids.length) {
        await tx.query(
          'INSERT INTO change_approvers (org_id, user_id, critical, added_at) SELECT $1, u, u = ANY($3::text[]), $4 FROM unnest($2::text[]) AS u',
          [m.org.id, ids, [...nowCritical], at],
        );
      }
      const beforeIds = new Set(before.map((a) => a.userId));
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: m.org.id, action: 'settings.change_approvers_updated', target: { type: 'settings', id: 'change-approvers' },
        data: {
          added: ids.filter((id) => !beforeIds.has(id)), removed: [...beforeIds].filter((id) => !ids.includes(id)),
          criticalAdded: [...nowCritical].filter((id) => !wasCritical.has(id)), criticalRemoved: [...wasCritical].filter((id) => !nowCritical.has(id)),
          ...approverStates(before, ids.map((userId) => ({ userId, critical: nowCritical.has(userId) }))),
        },
      });
      return view(await this.withTicketing(tx, m.org.id, settings), await readApprovers(tx, m.org.id));
    });
  }
}

function manage(m: Manager): void {
  if (m.role === 'member') throw forbidden('only owners and admins read and change the change settings');
}

/** The approver list before and after a write, as its audit event keeps them (the settings write's before-state). */
function approverStates(before: Array<{ userId: string; critical: boolean }>, after: Array<{ userId: string; critical: boolean }>) {
  const list = (xs: Array<{ userId: string; critical: boolean }>) => ({ approvers: xs.map((a) => ({ userId: a.userId, critical: a.critical })) });
  return { before: list(before), after: list(after) };
}
