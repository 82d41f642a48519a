import type { Clock } from '../../platform/clock.js';
import type { Database, Tx } from '../../platform/db/database.js';
import { badRequest, conflict, forbidden, invalid, notFound, taken } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { appendAtCommit, appendAuditEvent, listAuditEvents, type AlongsideWrite, type AuditContext, type AuditFilter } from '../ledger/index.js';
import { approvalsRequired, changedSlice, checkReason, DEFAULT_TICKET_PATTERN, FLAG_KEY, namespacePrefix, ownerNamesOf, valueProblem, type EnvironmentPolicy, type Flag, type FlagSource, type FlagState, type FlagType, type Json, type Risk } from './flag.js';
import { FLAG_RECORD_VERSION, toFlagRecord, type FlagRecord, type FlagRecordData } from './flag-record.js';
import * as store from './flag-store.js';
import { compileTicketPattern } from './ticket-pattern.js';
import { proposeInTx, publicRequest, type ChangeRequest } from './flag-request-store.js';

export type FlagWithStates = Flag & { states: store.StoredState[] };
/** The freeze a production environment is in now, for a flag's owner service; null when none applies. */
export type FreezeCheck = (db: Tx, orgId: string, at: Date, facts: { services: string[]; environment: string }) => Promise<{ name: string; start: string; end: string } | null>;
export type FreezeBypass = { window: string; until: string };

export type NewFlag = { key: string; type: FlagType; description?: string; ownerService?: string | null; risk: Risk; tags?: string[]; offValue?: Json; value?: Json; approvalsNeeded?: number };
export type FlagSettings = { description?: string; ownerService?: string | null; risk?: Risk; tags?: string[]; approvalsNeeded?: number };
export type StatePatch = Partial<FlagState>;
/** Why and how a write happens; automation names itself and what set it off. */
export type WriteMeta = {
  reason: string;
  source: FlagSource;
  gitops?: { commitSha: string; deployRun: string | null } | null;
  automation?: { name: string; trigger: string } | null;
  /** Who approved it (e-mails), when it went through a change request. */
  approvers?: string[];
  /** The person behind the write (a token's owner); a proposal remembers them as its proposer. */
  userId?: string;
  /** Turn flags off at once, past any approval, during an incident; recorded as such for review. */
  breakGlass?: boolean;
  /** The planned change the write belongs to; a rollback's write names the record it writes back. */
  changeId?: string | null;
  revertOf?: string | null;
};
export type Proposed = { flag: string; env: string; result: 'proposed'; changeRequest: ChangeRequest };
export type WriteResult = { flag: string; env: string; result: 'changed' | 'unchanged'; record: FlagRecord; state: store.StoredState };

export const FLAG_ACTIONS = ['flag.created', 'flag.updated', 'flag.unchanged', 'flag.deleted'];
const DEFAULT_ENVIRONMENTS: store.Environment[] = [
  { key: 'production', name: 'Production', position: 0, approvalPolicy: 'none', approvalsNeeded: 1 },
  { key: 'staging', name: 'Staging', position: 1, approvalPolicy: 'none', approvalsNeeded: 1 },
];
/** Keys that would shadow the static routes under /api/flags. */
const RESERVED_KEYS = new Set(['audit', 'bulk', 'recent', 'requests']);
const ON_VALUE: Record<FlagType, Json> = { boolean: true, string: 'on', number: 1, json: {} };
const OFF_VALUE: Record<FlagType, Json> = { boolean: false, string: '', number: 0, json: {} };

export class FlagService {
  constructor(private readonly deps: { db: Database; clock: Clock }) {}

  private freezes: FreezeCheck | null = null;

  /** Plugs in the freeze windows (the governance domain, higher up): high-risk writes to production are held to them. */
  setFreezeCheck(f: FreezeCheck): void {
    this.freezes = f;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The actor of a write: automation is recorded as automation, with its name and trigger. */
  private actorCtx(ctx: AuditContext, meta: WriteMeta): AuditContext {
    if (!meta.automation) return ctx;
    return {
      ...ctx,
      actor: { kind: 'automation', id: ctx.actor.id, name: `${meta.automation.name} (via ${ctx.actor.name})`, automation: meta.automation.name, trigger: meta.automation.trigger },
    };
  }

  /**
   * `commit`: the record is the transaction's last statement, and commits with it; `alongside`: the
   * write it records, in the same statement (appendAuditEvent).
   */
  private async record(tx: Tx, ctx: AuditContext, orgId: string, action: string, data: FlagRecordData, commit = false, alongside?: AlongsideWrite): Promise<FlagRecord> {
    const event = await appendAuditEvent(tx, this.deps.clock, ctx, { orgId, action, target: { type: 'flag', id: data.flag }, data, schemaVersion: FLAG_RECORD_VERSION }, { commit, alongside });
    return toFlagRecord(event);
  }

  environments(orgId: string) {
    return store.listEnvironments(this.deps.db, orgId);
  }

  private async ensureEnvironments(tx: Tx, ctx: AuditContext, orgId: string): Promise<store.Environment[]> {
    const existing = await store.listEnvironments(tx, orgId);
    if (existing.length > 0) return existing;
    for (const e of DEFAULT_ENVIRONMENTS) {
      await store.insertEnvironment(tx, orgId, e, this.now());
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId, action: 'environment.created', target: { type: 'environment', id: e.key }, data: { name: e.name, default: true } });
    }
    return DEFAULT_ENVIRONMENTS;
  }

  async createEnvironment(ctx: AuditContext, orgId: string, input: { key: string; name: string }): Promise<store.Environment> {
    return this.deps.db.transaction(async (tx) => {
      const envs = await this.ensureEnvironments(tx, ctx, orgId);
      if (envs.some((e) => e.key === input.key)) throw taken(`environment ${input.key} exists already`, 'key');
      const env: store.Environment = { key: input.key, name: input.name, position: envs.length, approvalPolicy: 'none', approvalsNeeded: 1 };
      await store.insertEnvironment(tx, orgId, env, this.now());
      // Every flag gets a state in the new environment: off, serving its on-value once enabled.
      const flags = await store.listFlags(tx, orgId, null, false);
      for (const f of flags) await store.insertState(tx, orgId, f.key, env.key, { enabled: false, value: ON_VALUE[f.type], rules: [], rollout: null }, this.now());
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId, action: 'environment.created', target: { type: 'environment', id: env.key }, data: { name: env.name, flagsGivenState: flags.length } });
      return env;
    });
  }

  async createFlag(ctx: AuditContext, orgId: string, input: NewFlag, meta: WriteMeta): Promise<FlagWithStates> {
    if (!FLAG_KEY.test(input.key) || input.key.length > 200) throw badRequest('key must be dotted lower-case words, such as ops.payments.new-processor', 'key');
    if (RESERVED_KEYS.has(input.key)) throw badRequest(`key "${input.key}" is reserved`, 'key');
    const offValue = input.offValue ?? OFF_VALUE[input.type];
    const value = input.value ?? ON_VALUE[input.type];
    for (const [field, v] of [['offValue', offValue], ['value', value]] as const) {
      const problem = valueProblem(input.type, v);
      if (problem) throw badRequest(`${field} ${problem}`, field);
    }
    const reason = checkReason(input.risk, meta.reason, await this.ticketPattern(this.deps.db, orgId));
    if (!reason.ok) throw badRequest(reason.error, 'reason');
    const at = this.now();
    const flag: Flag = {
      key: input.key, type: input.type, description: input.description ?? '', ownerService: input.ownerService ?? null,
      risk: input.risk, tags: [...new Set(input.tags ?? [])], offValue, approvalsNeeded: input.approvalsNeeded ?? 0, createdAt: at, updatedAt: at,
    };
    return this.deps.db.transaction(async (tx) => {
      const envs = await this.ensureEnvironments(tx, ctx, orgId);
      if (await store.findFlag(tx, orgId, flag.key)) throw taken(`flag ${flag.key} exists already`, 'key');
      await store.insertFlag(tx, orgId, flag);
      for (const e of envs) await store.insertState(tx, orgId, flag.key, e.key, { enabled: false, value, rules: [], rollout: null }, at);
      await this.record(tx, this.actorCtx(ctx, meta), orgId, 'flag.created', {
        // What changed is that the flag exists, off in every environment; what it is goes beside.
        flag: flag.key, env: null, from: null, to: false, fields: ['enabled'],
        definition: { type: flag.type, risk: flag.risk, ownerService: flag.ownerService, tags: flag.tags, offValue, value, approvalsNeeded: flag.approvalsNeeded },
        reason: meta.reason, approvers: [], source: meta.source, gitops: meta.gitops ?? null,
      });
      const states = (await store.listStates(tx, orgId, [flag.key])).get(flag.key) ?? [];
      return { ...flag, states };
    });
  }

  async updateEnvironment(ctx: AuditContext, orgId: string, key: string, policy: Partial<EnvironmentPolicy>): Promise<store.Environment> {
    return this.deps.db.transaction(async (tx) => {
      const envs = await this.ensureEnvironments(tx, ctx, orgId);
      const env = envs.find((e) => e.key === key);
      if (!env) throw notFound(`no environment ${key}`);
      const next = { approvalPolicy: policy.approvalPolicy ?? env.approvalPolicy, approvalsNeeded: policy.approvalsNeeded ?? env.approvalsNeeded };
      if (next.approvalPolicy === env.approvalPolicy && next.approvalsNeeded === env.approvalsNeeded) return env;
      await store.updateEnvironmentPolicy(tx, orgId, key, next);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId, action: 'environment.policy_updated', target: { type: 'environment', id: key },
        data: { from: { approvalPolicy: env.approvalPolicy, approvalsNeeded: env.approvalsNeeded }, to: next },
      });
      return { ...env, ...next };
    });
  }

  /** Description, owner, risk, tags, approvals: recorded like any other flag change. */
  async updateSettings(ctx: AuditContext, orgId: string, key: string, s: FlagSettings, meta: WriteMeta): Promise<FlagWithStates> {
    // Nothing asked, nothing written: a record says what someone meant to change.
    if (Object.values(s).every((v) => v === undefined)) return this.get(orgId, key);
    return this.deps.db.transaction(async (tx) => {
      const flag = await store.findFlag(tx, orgId, key);
      if (!flag) throw notFound(`no flag ${key}`);
      // Lowering the risk must meet the bar of the risk it had.
      const verdict = checkReason(s.risk === 'high' ? 'high' : flag.risk, meta.reason, await this.ticketPattern(tx, orgId));
      if (!verdict.ok) throw badRequest(verdict.error, 'reason');
      const next: Flag = { ...flag, ...Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)), updatedAt: this.now() };
      const settingKeys = ['description', 'ownerService', 'risk', 'tags', 'approvalsNeeded'] as const;
      const fields = settingKeys.filter((k) => JSON.stringify(flag[k]) !== JSON.stringify(next[k]));
      if (fields.length > 0) await store.updateFlagSettings(tx, orgId, next);
      // An unchanged write still says what was asked for, at the value it already had.
      const shown = fields.length > 0 ? fields : settingKeys.filter((k) => s[k] !== undefined);
      await this.record(tx, this.actorCtx(ctx, meta), orgId, fields.length ? 'flag.updated' : 'flag.unchanged', {
        flag: key, env: null,
        from: Object.fromEntries(shown.map((k) => [k, flag[k] as Json])), to: Object.fromEntries(shown.map((k) => [k, next[k] as Json])),
        fields, reason: meta.reason, approvers: [], source: meta.source, gitops: meta.gitops ?? null,
      });
      return { ...next, states: (await store.listStates(tx, orgId, [key])).get(key) ?? [] };
    });
  }

  async list(orgId: string, namespace?: string): Promise<FlagWithStates[]> {
    const ns = namespace ? namespacePrefix(namespace) : null;
    return store.listFlagsWithStates(this.deps.db, orgId, ns?.prefix ?? null, ns?.exact ?? false);
  }

  async get(orgId: string, key: string): Promise<FlagWithStates> {
    const flag = await store.findFlagWithStates(this.deps.db, orgId, key);
    if (!flag) throw notFound(`no flag ${key}`);
    return flag;
  }

  /**
   * Read the old state (locked), apply, append the record: inside the caller's transaction. `last`:
   * nothing follows in the transaction, so the record commits it (one round trip fewer with the
   * ledger head held).
   */
  async applyInTx(tx: Tx, ctx: AuditContext, orgId: string, flag: Flag, env: string, patch: StatePatch, meta: WriteMeta, locked?: store.StoredState, last = false): Promise<WriteResult> {
    const before = locked ?? (await store.lockState(tx, orgId, flag.key, env));
    if (!before) throw notFound(`no environment ${env}`);
    const after: FlagState = {
      enabled: patch.enabled ?? before.enabled,
      value: patch.value !== undefined ? patch.value : before.value,
      rules: patch.rules ?? before.rules,
      rollout: patch.rollout !== undefined ? patch.rollout : before.rollout,
    };
    const problem = patch.value !== undefined ? valueProblem(flag.type, patch.value) : null;
    if (problem) throw invalid('value', problem);
    const ruleIndex = after.rules.findIndex((r) => valueProblem(flag.type, r.value) !== null);
    const ruleProblem = ruleIndex >= 0 ? valueProblem(flag.type, after.rules[ruleIndex]!.value) : null;
    if (ruleProblem) throw invalid(`rules.${ruleIndex}.value`, ruleProblem);
    const slice = changedSlice(before, after);
    // An unchanged write still says what was asked for, at the value it already had.
    const asked = (['enabled', 'value', 'rules', 'rollout'] as const).filter((k) => patch[k] !== undefined);
    const unchanged: Json = asked.length === 1 && asked[0] === 'enabled' ? before.enabled : Object.fromEntries(asked.map((k) => [k, before[k] as Json]));
    const at = this.now();
    const bypassed = slice ? await this.heldToFreezes(tx, orgId, flag, env, meta) : null;
    // The update goes in the record's statement: one round trip for both.
    const alongside = slice ? store.stateWrite(orgId, flag.key, env, after, at) : undefined;
    const current = { env, version: before.version + (slice ? 1 : 0), updatedAt: slice ? at : before.updatedAt, ...(slice ? after : before) };
    const record = await this.record(tx, this.actorCtx(ctx, meta), orgId, slice ? 'flag.updated' : 'flag.unchanged', {
      flag: flag.key, env, from: slice?.from ?? unchanged, to: slice?.to ?? unchanged, fields: slice?.fields ?? [],
      reason: meta.reason, approvers: meta.approvers ?? [], source: meta.source, gitops: meta.gitops ?? null,
      ...(meta.breakGlass ? { breakGlass: true } : {}),
      ...(bypassed ? { freezeBypassed: bypassed } : {}),
      ...(meta.changeId ? { changeId: meta.changeId } : {}),
      ...(meta.revertOf ? { revertOf: meta.revertOf } : {}),
    }, last, alongside);
    return { flag: flag.key, env, result: slice ? 'changed' : 'unchanged', record, state: current };
  }

  /**
   * A high-risk flag's write to a production environment during a freeze is refused (409 naming
   * the freeze and when it ends); break glass passes and the record says which freeze it passed.
   */
  private async heldToFreezes(tx: Tx, orgId: string, flag: Flag, env: string, meta: WriteMeta): Promise<FreezeBypass | null> {
    // A rollback's write is never held to a window: getting back is what the freeze protects.
    if (!this.freezes || flag.risk !== 'high' || meta.revertOf) return null;
    const v = await this.freezes(tx, orgId, this.deps.clock.now(), { services: flag.ownerService ? [flag.ownerService] : [], environment: env });
    if (!v) return null;
    if (meta.breakGlass) return { window: v.name, until: v.end };
    throw conflict(`${flag.key} is a high-risk flag and ${env} is in the freeze “${v.name}” until ${v.end}: its writes wait for the freeze to end (break glass, turning it off, passes and is recorded)`,
      { blockedOn: 'window', window: { name: v.name, kind: 'freeze', start: v.start, end: v.end }, nextOpening: v.end });
  }

  /** The organisation's ticket pattern (OPS-123 by default) for the reason rule. */
  async ticketPattern(db: Database | Tx, orgId: string): Promise<string> {
    const r = await db.query<{ ticket_pattern: string | null }>('SELECT ticket_pattern FROM flag_settings WHERE org_id = $1', [orgId]);
    return r.rows[0]?.ticket_pattern ?? DEFAULT_TICKET_PATTERN;
  }

  async policy(orgId: string): Promise<{ ticketPattern: string; isDefault: boolean }> {
    const p = await this.ticketPattern(this.deps.db, orgId);
    return { ticketPattern: p, isDefault: p === DEFAULT_TICKET_PATTERN };
  }

  async updatePolicy(ctx: AuditContext, m: { org: { id: string }; role: string }, input: { ticketPattern: string | null }): Promise<{ ticketPattern: string; isDefault: boolean }> {
    if (m.role === 'member') throw forbidden('only owners and admins change the flag policy');
    if (input.ticketPattern !== null) {
      const compiled = compileTicketPattern(input.ticketPattern);
      if (!compiled.ok) throw badRequest(compiled.error, 'ticketPattern');
    }
    await this.deps.db.transaction(async (tx) => {
      const before = await this.ticketPattern(tx, m.org.id);
      await tx.query(
        `INSERT INTO flag_settings (org_id, ticket_pattern, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (org_id) DO UPDATE SET ticket_pattern = $2, updated_at = $3`,
        [m.org.id, input.ticketPattern, this.now()],
      );
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: m.org.id, action: 'settings.flags_updated', target: { type: 'settings', id: 'flags' },
        data: { from: { ticketPattern: before }, to: { ticketPattern: input.ticketPattern ?? DEFAULT_TICKET_PATTERN } },
      });
    });
    return this.policy(m.org.id);
  }

  /** Break glass only ever turns flags off, and always with a reason that meets the high-risk bar. */
  private static checkBreakGlass(patch: StatePatch, meta: WriteMeta): void {
    if (!meta.breakGlass) return;
    const asked = Object.entries(patch).filter(([, v]) => v !== undefined);
    if (asked.length !== 1 || patch.enabled !== false) throw badRequest('break glass only turns flags off: send enabled: false and nothing else', 'breakGlass');
  }

  /** Every new organisation starts with production and staging. */
  async initOrganization(tx: Tx, ctx: AuditContext, orgId: string): Promise<void> {
    await this.ensureEnvironments(tx, ctx, orgId);
  }

  /** A change that needs approval becomes a change request instead of being applied. */
  private async proposeIfNeeded(tx: Tx, ctx: AuditContext, orgId: string, flag: Flag, env: string, patch: StatePatch, meta: WriteMeta, known?: store.Environment): Promise<Proposed | null> {
    const policy = known ?? (await store.listEnvironments(tx, orgId)).find((e) => e.key === env);
    if (!policy) throw notFound(`no environment ${env}`);
    const need = approvalsRequired(flag, policy);
    if (need.needed === 0 || meta.breakGlass) return null;
    if (!meta.userId) throw forbidden('this change needs approval, and only a person or a token of a person can propose it');
    const request = await proposeInTx(tx, this.deps.clock, this.actorCtx(ctx, meta), {
      orgId, flag: flag.key, env, patch: patch as Record<string, Json>, reason: meta.reason,
      meta: { source: meta.source, gitops: meta.gitops ?? null, automation: meta.automation ?? null } as Record<string, Json>,
      proposerUserId: meta.userId, needed: need.needed, why: need.why,
    });
    return { flag: flag.key, env, result: 'proposed', changeRequest: publicRequest(request) };
  }

  async setState(ctx: AuditContext, orgId: string, key: string, env: string, patch: StatePatch, meta: WriteMeta): Promise<WriteResult | Proposed> {
    return this.deps.db.transaction(async (tx) => {
      // The usual write reads all it needs in one statement; when something is missing, the reads
      // one by one say what, in the order a person fixes them (the flag, the reason, the environment).
      const loaded = await store.loadForWrite(tx, orgId, key, env);
      const flag = loaded?.flag ?? (await store.findFlag(tx, orgId, key));
      if (!flag) throw notFound(`no flag ${key}`);
      const pattern = loaded ? (loaded.ticketPattern ?? DEFAULT_TICKET_PATTERN) : await this.ticketPattern(tx, orgId);
      const reason = checkReason(meta.breakGlass ? 'high' : flag.risk, meta.reason, pattern);
      if (!reason.ok) throw badRequest(reason.error, 'reason');
      FlagService.checkBreakGlass(patch, meta);
      return (await this.proposeIfNeeded(tx, ctx, orgId, flag, env, patch, meta, loaded?.environment)) ?? this.applyInTx(tx, ctx, orgId, flag, env, patch, meta, loaded?.state, true);
    });
  }

  /**
   * A kill switch or any batch: one transaction, one record per flag with its own before/after
   * (a flag already in the wanted state is recorded as unchanged), all under one correlation id.
   */
  async bulkSet(ctx: AuditContext, orgId: string, target: { namespace?: string; keys?: string[] }, env: string, patch: StatePatch, meta: WriteMeta): Promise<{ correlationId: string; results: Array<WriteResult | Proposed> }> {
    const correlationId = ctx.correlationId ?? newId('bat');
    const batchCtx = { ...ctx, correlationId };
    return this.deps.db.transaction(async (tx) => {
      let flags: Flag[];
      if (target.namespace) flags = await store.listFlags(tx, orgId, namespacePrefix(target.namespace).prefix, namespacePrefix(target.namespace).exact);
      else {
        flags = [];
        for (const key of target.keys ?? []) {
          const f = await store.findFlag(tx, orgId, key);
          if (!f) throw badRequest(`no flag ${key}`, 'keys');
          flags.push(f);
        }
      }
      if (flags.length === 0) throw notFound(`no flag matches ${target.namespace ?? 'the keys given'}`);
      FlagService.checkBreakGlass(patch, meta);
      // Every state of the batch is locked up front, in key order, before the first ledger append:
      // a single write locks its state and then the ledger head, so taking a state after the head
      // here could deadlock against it.
      await tx.query('SELECT 1 FROM flag_states WHERE org_id = $1 AND env_key = $2 AND flag_key = ANY($3::text[]) ORDER BY flag_key FOR UPDATE', [orgId, env, flags.map((f) => f.key)]);
      const pattern = await this.ticketPattern(tx, orgId);
      for (const f of flags) {
        const verdict = checkReason(meta.breakGlass ? 'high' : f.risk, meta.reason, pattern);
        if (!verdict.ok) throw badRequest(`${verdict.error} (${f.key} is high-risk)`, 'reason');
      }
      const results: Array<WriteResult | Proposed> = [];
      for (const f of flags) results.push((await this.proposeIfNeeded(tx, batchCtx, orgId, f, env, patch, meta)) ?? (await this.applyInTx(tx, batchCtx, orgId, f, env, patch, meta)));
      return { correlationId, results };
    });
  }

  /** Flag changes of the flags these services own, in a window: what an incident responder needs first. */
  async recent(orgId: string, services: string[], since: Date, until: Date | undefined, limit = 200): Promise<FlagRecord[]> {
    const r = await this.deps.db.query<{ key: string }>('SELECT key FROM flags WHERE org_id = $1 AND owner_service = ANY($2::text[])', [orgId, services]);
    if (r.rows.length === 0) return [];
    const page = await listAuditEvents(this.deps.db, orgId, { targetType: 'flag', actions: ['flag.created', 'flag.updated', 'flag.deleted'], targetIds: r.rows.map((x) => x.key), since, until }, limit);
    return page.items.map(toFlagRecord);
  }

  /** The flags owned by any of these services (names in lower case): key → owner as stored. Reads two columns, not every flag. */
  async ownersAmong(orgId: string, lowerNames: string[]): Promise<Map<string, string>> {
    return lowerNames.length ? store.flagOwnersAmong(this.deps.db, orgId, lowerNames) : new Map();
  }

  /** The records of flag changes, newest first: by namespace, actor, environment and window. */
  async audit(orgId: string, f: { namespace?: string; actor?: string; env?: string; since?: Date; until?: Date; service?: string }, limit: number, cursor?: string): Promise<{ items: FlagRecord[]; nextCursor: string | null }> {
    // People are asked about by e-mail (the record's display name), tokens and users also by id.
    const byName = f.actor !== undefined && f.actor.includes('@');
    const filter: AuditFilter = { targetType: 'flag', actions: FLAG_ACTIONS, actor: byName ? undefined : f.actor, actorName: byName ? f.actor : undefined, since: f.since, until: f.until };
    if (f.namespace) {
      const ns = namespacePrefix(f.namespace);
      if (ns.exact) filter.targetId = ns.prefix;
      else {
        // The namespace's flags by exact key: each is one (key, time) range of the target index,
        // where a key prefix with a time window could only scan the namespace's whole history.
        // Flags are never deleted, so every record's flag is still listed.
        const keys = await store.flagKeysUnder(this.deps.db, orgId, ns.prefix);
        if (keys.length === 0) return { items: [], nextCursor: null };
        filter.targetIds = keys;
      }
    }
    if (f.service !== undefined) {
      // Flags are never deleted, so the flags the service owns now name every record of theirs.
      const owned = await store.flagKeysOwnedBy(this.deps.db, orgId, ownerNamesOf(f.service.trim()));
      const keys = filter.targetIds ?? (filter.targetId !== undefined ? [filter.targetId] : null);
      filter.targetIds = keys === null ? owned : owned.filter((k) => keys.includes(k));
      filter.targetId = undefined;
      if (filter.targetIds.length === 0) return { items: [], nextCursor: null };
    }
    // Version 1 records kept the environment under `environment`.
    if (f.env) filter.dataField = { keys: ['env', 'environment'], value: f.env };
    const page = await listAuditEvents(this.deps.db, orgId, filter, limit, cursor);
    return { items: page.items.map(toFlagRecord), nextCursor: page.nextCursor };
  }
}
