import { OBSERVED_KINDS, type ChangeFeed, type FeedEntry, type Receipt } from './change-feed.js';
import { PLATFORM_MODE, recordOf, REGISTERED_MODES, serviceCandidates, type RegisteredEntry } from './change-record.js';
import { randomBytes } from 'node:crypto';
import type { RegisteredApproval } from './change-answers.js';
import { timeBound, type Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Tx } from '../../platform/db/database.js';
import { AppError, badRequest, conflict, forbidden, invalid, notFound } from '../../platform/errors.js';
import { randomSecret } from '../../platform/ids.js';
import type { Job, JobHandler } from '../../platform/jobs/job.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import type { Principal } from '../auth/index.js';
import type { Blast, MonitorSource, SilenceMode } from '../catalogue/blast.js';
import type { BlastService } from '../catalogue/blast-service.js';
import type { Criticality } from '../catalogue/criticality.js';
import type { ComponentInput, Resolved, Unresolved } from '../catalogue/matching.js';
import type { MappingService } from '../catalogue/mapping-service.js';
import type { DeliveriesReader } from './change-deliveries.js';
import { unknownReport, type ChangeReporter, type ReportRecord } from './change-reporter.js';
import { noSuppression, type SuppressionReader } from './change-suppression.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { readApprovers, readSettings, type ChangeSettings } from './change-settings.js';
import * as store from './change-store.js';
import { criticalNeed } from './critical-approvers.js';
import { unresolvedMessage } from './unresolved-names.js';
import { CALLBACK_FORMATS, CHANGE_KINDS, type CallbackFormat, type Change, type ChangeKind, type Outcome, type PipelineInfo } from './change-store.js';
import { CHANGE_STATUSES, move, type Action, type ChangeStatus } from './change-lifecycle.js';
import { planExtension, planWindow } from './window.js';
import type { Queryable } from '../../platform/db/database.js';
import type { ChangeClass, ClassDecision, TemplateScope } from './change-class.js';
import type { RiskTier } from './risk-tier.js';
import { environmentOf, govern, NO_GOVERNANCE, windowFacts, type ChangeFactsInput, type GovernanceReader, type Governed, type WindowConflict, type WindowVerdict } from './change-governance.js';
import { approvalDigest, approvedContent } from './approval-digest.js';
import { reopenPatch } from './approval-reopen.js';
import { baseCommitCapture, beforeStateNeed, beforeStateProblem, captureDigest, capturesOf, type BeforeStateInput, type BeforeStateNeed, type CaptureDraft } from './before-state.js';
import { capturedBy, insertCaptures } from './capture-store.js';
import { checkPlan, type ValidationItem } from './validation-plan.js';
import { ROLLBACK_KINDS, type RollbackKind } from './rollback-sweep.js';
import { MAX_ROLLBACK_PLAN_CHARS } from './rollback-plan.js';

export type RegisterInput = {
  title: string; kind?: ChangeKind; description?: string; ticketUrl?: string; components: ComponentInput[]; hops?: 1 | 2;
  startNow?: boolean; windowStart?: string; windowEnd?: string; evidenceMinutes?: number; surveillanceMinutes?: number;
  maxDurationMinutes?: number; autoStart?: boolean; pipeline?: PipelineInfo; callbackUrl?: string; callbackFormat?: CallbackFormat; recipients?: string[];
  releaseHeld?: boolean; confirmLarge?: boolean; silenceInfra?: SilenceMode | null; draft?: boolean;
  emergency?: boolean; emergencyReason?: string; incident?: string; template?: string;
  /** The before-state the pipeline knows: what ran before, and/or an artifact (≤ 256 KiB). */
  previousVersion?: string; previousCommit?: string; beforeState?: Omit<BeforeStateInput, 'previousVersion' | 'previousCommit'>;
  /** The way back, when the registrant knows it better than changeledger would derive it. */
  rollback?: { kind: RollbackKind; plan?: string };
  /** At most 10 checks, fixed at registration and bound into the approval. */
  validationPlan?: unknown[];
};

/** What happened to a change, for whoever delivers the news (e-mail, callbacks, tickets). */
export type ChangeEvent =
  | 'mapping_needed' | 'approval_needed' | 'mapped' | 'approved' | 'rejected' | 'expired' | 'started' | 'completed'
  | 'reported' | 'cancelled' | 'critical_needed'
  /** A running change's window was pushed out (the hold's end follows; nothing is mailed or called back). */
  | 'window_extended'
  /** A rollback was released (by a person or the sweep): the pipeline is asked to roll back, or changeledger reverted its flags. */
  | 'rollback_requested'
  /** The pipeline (or changeledger, for flags) completed the rollback. */
  | 'rolled_back'
  /** The sweep found a failed change it must not roll back by itself: the approvers decide. */
  | 'rollback_escalated'
  /** The validation plan was checked after the finish: cleared, still_present or uncertain. */
  | 'validated'
  /** A post-implementation review is due and has not been written after 3 days: its owner is reminded once. */
  | 'review_due';
export type ChangeNotifier = { notify(tx: Tx, change: Change, event: ChangeEvent, extra?: Record<string, unknown>): Promise<void> };
export const silentNotifier: ChangeNotifier = { notify: async () => {} };

export const TIMER_JOB = 'change.timer';
type TimerStep = 'approval_expiry' | 'start_deadline' | 'window_start' | 'window_open' | 'window_end' | 'horizon';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const minutes = (n: number) => n * 60_000;

export type Registered = {
  change: Change; blast: Blast | null; match: { matched: number; unresolved: string[] }; callbackSecret?: string;
  approval?: RegisteredApproval; mapping?: { unresolved: Unresolved[]; hint: string };
  /** Registered, but something will not work as sent (a private callback address not allowed yet). */
  warnings?: string[];
  /** Its class, tier and what the tier asks. */
  governance?: { changeClass: ChangeClass; changeClassReason: string; riskTier: RiskTier; riskReason: string; policy: string };
  /** The windows at its planned start, and what its planned window runs into (freezes, outside change windows). */
  windows?: { verdict: WindowVerdict; conflicts: WindowConflict[] };
};

/** 409 for a start while the windows are closed: the window, why, and when it next opens. */
export function windowClosed(v: WindowVerdict): AppError {
  const next = v.nextOpening ? `; it may start from ${v.nextOpening}` : '';
  return conflict(`the change cannot start now: ${v.reason}${next}`, { blockedOn: 'window', window: v.window, nextOpening: v.nextOpening });
}

/** The filters of the changes list, as the query string spells them (comma lists where several may be given). */
export type ListQuery = {
  status?: string; q?: string; mine?: boolean; criticality?: string; limit?: number;
  since?: string; until?: string; awaiting?: 'me'; component?: string;
  kind?: string; source?: string; mode?: string; service?: string;
  /** Several services at once, any of them (what_changed's entity and its neighbours); joins service. */
  services?: string[];
  unauthorized?: boolean; denied?: boolean; requests?: boolean; includeProposed?: boolean;
  /** Answer neverCaptured empty without asking (what_changed's second list: its first one asks). */
  skipNeverCaptured?: boolean;
};

/** The one change list, and what the connected sources cannot see (so an empty list reads right). */
export type ListAnswer = { changes: Array<RegisteredEntry | FeedEntry>; neverCaptured: string[] };

/** Changes: registration, the lifecycle and its timers. Approvals live in ApprovalService. */
export class ChangeService {
  constructor(private readonly deps: {
    db: Database; clock: Clock; sealer: Sealer; blast: BlastService; mappings: MappingService; notifier: ChangeNotifier; baseUrl: () => string;
    /** The outbound client's judgement of an address literal, so a callbackUrl that can never be delivered is refused now. */
    outbound: Pick<OutboundClient, 'judgeLiteral'>;
    /** The deliveries of a change for /status: deliveries is a higher domain, so compose.ts plugs its reader in here. */
    deliveries: DeliveriesReader;
    /** The live hold on the change's alerts for GET /api/changes/{id} and /status: alerts is a higher domain, so compose.ts plugs its reader in. */
    suppression?: SuppressionReader;
    /** What happens at the horizon: evidence is a higher domain, so compose.ts plugs its reporter in (setReporter). */
    reporter?: ChangeReporter;
  }) {}

  private reporter: ChangeReporter | null = null;

  private feed: ChangeFeed | null = null;

  /** Plugs in the rest of the one change list (flag writes, observed changes): the observed domain. */
  setFeed(f: ChangeFeed): void {
    this.feed = f;
  }

  /** The plugged-in feed, or null: the list then holds planned changes only. */
  get changeFeed(): ChangeFeed | null {
    return this.feed;
  }

  /** Plugs in the reporter of the horizon (the evidence domain); without one, the report is "unknown". */
  setReporter(r: ChangeReporter): void {
    this.reporter = r;
  }

  get readDeliveries(): DeliveriesReader {
    return this.deps.deliveries;
  }

  get readSuppression(): SuppressionReader {
    return this.deps.suppression ?? noSuppression;
  }

  /** Whether the caller may change this change: its owner, an owner or admin of the organisation. */
  static canWrite(p: Principal, c: Change): boolean {
    return c.ownerId === p.user.id || p.role === 'owner' || p.role === 'admin';
  }

  /** A change by id within its organisation, for durable jobs (they carry the organisation, not a principal). */
  async read(orgId: string, id: string): Promise<Change | null> {
    return store.findChange(this.deps.db, orgId, id);
  }

  async get(p: Principal, id: string): Promise<Change> {
    const c = await store.findChange(this.deps.db, p.org.id, id);
    if (!c) throw notFound(`no change ${id}`);
    return c;
  }

  /** A change by its id or by the CHG-XXXXXXXX people read (MCP clients and assistants quote that one). */
  async getByRef(p: Principal, ref: string): Promise<Change> {
    const given = ref.trim();
    if (!/^CHG-[0-9A-F]{8}$/i.test(given)) return this.get(p, given);
    const ids = await store.idsOfDisplayId(this.deps.db, p.org.id, given.toUpperCase());
    if (ids.length > 1) throw badRequest(`${given.toUpperCase()} names more than one change; give its full id`, 'id');
    const c = ids[0] ? await store.findChange(this.deps.db, p.org.id, ids[0]) : null;
    if (!c) throw notFound(`no change ${given}`);
    return c;
  }

  /**
   * The one change list: planned changes, then whatever the feed adds (flag writes, observed
   * changes), merged newest first by `at` and cut at the limit. Filters only planned changes know
   * (mine, awaiting, criticality, component) leave the feed out; filters planned changes can never
   * match (a flag or observed kind, status recorded, unauthorized, denied) leave them out.
   */
  async list(p: Principal, q: ListQuery): Promise<ListAnswer> {
    const split = (s?: string) => [...new Set((s ?? '').split(',').map((x) => x.trim()).filter(Boolean))];
    const refuse = (field: string, given: string[], known: readonly string[], words: string) => {
      const bad = given.find((s) => !known.includes(s));
      if (bad) throw badRequest(`unknown ${words} "${bad}"; ${words === 'kind' ? 'kinds' : `${words}s`} are ${[...new Set(known)].join(', ')}`, field);
    };
    const statuses = split(q.status);
    refuse('status', statuses, [...CHANGE_STATUSES, 'recorded'], 'status');
    const crit = split(q.criticality);
    const badCrit = crit.find((s) => !['critical', 'important', 'standard', 'pending'].includes(s));
    if (badCrit) throw badRequest(`unknown criticality "${badCrit}"; use critical, important, standard or pending`, 'criticality');
    const kinds = split(q.kind);
    refuse('kind', kinds, [...CHANGE_KINDS, ...OBSERVED_KINDS, 'flag'], 'kind');
    const vocabulary = this.feed?.vocabulary ?? { sources: [], modes: [] };
    const sources = split(q.source);
    refuse('source', sources, ['changeledger', ...vocabulary.sources], 'source');
    const modes = split(q.mode);
    refuse('mode', modes, [...REGISTERED_MODES, PLATFORM_MODE, ...vocabulary.modes], 'mode');
    const now = this.deps.clock.now();
    const since = timeBound(q.since, now, 'since');
    const until = timeBound(q.until, now, 'until');
    if (since && until && since > until) throw badRequest('since must be before until', 'since');
    const limit = q.limit ?? 200;
    const services = [...new Set([q.service ?? '', ...(q.services ?? [])].map((s) => s.trim()).filter(Boolean))];
    const text = q.q?.trim() || null;
    // Asked beside the lists below, not before them: one round trip fewer in series.
    const uncaptured = this.feed && !q.skipNeverCaptured ? this.feed.neverCaptured(p.org.id) : Promise.resolve([]);
    // Decisions are made by people, signed in: nothing waits for an API token.
    if (q.awaiting === 'me' && p.kind !== 'session') return { changes: [], neverCaptured: await uncaptured };

    const plannedModes = modes.includes(PLATFORM_MODE) ? [] : modes.filter((m) => (REGISTERED_MODES as readonly string[]).includes(m));
    const plannedKinds = kinds.filter((k) => (CHANGE_KINDS as readonly string[]).includes(k)) as ChangeKind[];
    const plannedStatuses = statuses.filter((s) => s !== 'recorded') as ChangeStatus[];
    const planned = !q.unauthorized && !q.denied && (!sources.length || sources.includes('changeledger')) && (!kinds.length || plannedKinds.length > 0)
      && (!statuses.length || plannedStatuses.length > 0) && (!modes.length || modes.includes(PLATFORM_MODE) || plannedModes.length > 0);
    const plannedOnly = q.mine || q.awaiting === 'me' || crit.length > 0 || Boolean(q.component?.trim());
    const feed = this.feed && !plannedOnly && !(sources.length === 1 && sources[0] === 'changeledger') ? this.feed : null;

    const [registered, fed, neverCaptured] = await Promise.all([
      planned ? store.listChanges(this.deps.db, p.org.id, {
        statuses: plannedStatuses, q: text, ownerId: q.mine ? p.user.id : null, criticalities: crit as store.ListFilter['criticalities'], limit,
        since, until, awaitingUserId: q.awaiting === 'me' ? p.user.id : undefined, component: q.component?.trim() || undefined,
        kinds: plannedKinds, modes: plannedModes, services: services.flatMap(serviceCandidates),
      }) : Promise.resolve([]),
      feed ? feed.list(p.org.id, {
        kinds, sources, modes, statuses, services, unauthorized: q.unauthorized ?? false, denied: q.denied ?? false, q: text, since, until, limit,
        includeProposed: (q.includeProposed ?? false) || (q.requests ?? false), requests: q.requests ?? false,
      }) : Promise.resolve([]),
      uncaptured,
    ]);
    // requests=true: what waits on a person comes first, then newest first.
    const waiting = (e: { status: string }) => (q.requests && (e.status === 'pending_approval' || e.status === 'pending_mapping') ? 1 : 0);
    const changes = [...registered.map(recordOf), ...fed]
      .sort((a, b) => waiting(b) - waiting(a) || b.at.localeCompare(a.at) || b.id.localeCompare(a.id))
      .slice(0, limit);
    return { changes, neverCaptured };
  }

  /** The writes a source saw carrying this change's id (oldest first); none without a feed. */
  async receipts(c: Change): Promise<Receipt[]> {
    return this.feed ? this.feed.receipts(c.orgId, c.id) : [];
  }

  async blastOf(c: Change): Promise<Blast | null> {
    const b = await store.latestBlast(this.deps.db, c.id);
    return b ? this.deps.blast.answer(c.orgId, b.stored) : null;
  }

  /** CI variables that are not set arrive as "": they mean nothing was said. */
  private static clean(input: RegisterInput): RegisterInput {
    const pipeline = input.pipeline ? Object.fromEntries(Object.entries(input.pipeline).filter(([, v]) => typeof v === 'string' && v.trim() !== '')) : undefined;
    return {
      ...input, pipeline: pipeline && Object.keys(pipeline).length ? pipeline : undefined,
      callbackUrl: input.callbackUrl?.trim() || undefined, ticketUrl: input.ticketUrl?.trim() || undefined, description: input.description?.trim() || undefined,
    };
  }

  /** Validates everything that does not need the catalogue; every refusal names its field. Answers the checked validation plan. */
  private validate(input: RegisterInput): { validationPlan: ValidationItem[] | null } {
    if (!input.title.trim()) throw invalid('title', 'is required');
    if (input.components.length === 0) throw badRequest('name at least one component', 'components');
    for (const [i, c] of input.components.entries()) if (!c.key && !c.query) throw invalid(`components.${i}`, 'needs a key or a query');
    for (const [k, v] of Object.entries(input.pipeline ?? {})) if (typeof v === 'string' && v.length > 200) throw invalid(`pipeline.${k}`, 'must be at most 200 characters');
    for (const [k, v] of [['callbackUrl', input.callbackUrl], ['ticketUrl', input.ticketUrl], ['pipeline.runUrl', input.pipeline?.runUrl]] as const) {
      if (v === undefined) continue;
      let u: URL | null = null;
      try {
        u = new URL(v);
      } catch {
        u = null;
      }
      if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw invalid(k, 'must be an http(s) URL');
    }
    for (const [i, r] of (input.recipients ?? []).entries()) if (!EMAIL.test(r)) throw invalid(`recipients.${i}`, 'is not an e-mail address', r);
    if (input.callbackFormat !== undefined && !(CALLBACK_FORMATS as readonly string[]).includes(input.callbackFormat)) {
      throw invalid('callbackFormat', `must be one of ${CALLBACK_FORMATS.join(', ')}`, input.callbackFormat);
    }
    const prior = ChangeService.beforeStateOf(input);
    if (prior) {
      const problem = beforeStateProblem(prior);
      if (problem) throw new AppError(problem.status, problem.message, problem.field);
    }
    if (input.rollback) {
      if (!(ROLLBACK_KINDS as readonly string[]).includes(input.rollback.kind)) throw invalid('rollback.kind', `must be one of ${ROLLBACK_KINDS.join(', ')}`);
      if ((input.rollback.plan?.length ?? 0) > MAX_ROLLBACK_PLAN_CHARS) throw invalid('rollback.plan', `must be at most ${MAX_ROLLBACK_PLAN_CHARS.toLocaleString('en')} characters`);
    }
    let validationPlan: ValidationItem[] | null = null;
    if (input.validationPlan !== undefined) {
      const checked = checkPlan(input.validationPlan);
      if (!checked.ok) throw badRequest(checked.problem.message, checked.problem.field);
      validationPlan = checked.plan;
    }
    if (input.emergency) {
      if ((input.emergencyReason?.trim().length ?? 0) < 5) throw invalid('emergencyReason', 'an emergency change needs its reason (at least 5 characters)');
      if (!input.incident?.trim() && !input.ticketUrl) throw badRequest('an emergency change must link the incident or ticket it answers: give incident or ticketUrl', 'incident');
    }
    return { validationPlan };
  }

  /** The before-state a registration carries, or null when it carries none. */
  private static beforeStateOf(input: RegisterInput): BeforeStateInput | null {
    const b: BeforeStateInput = { ...(input.beforeState ?? {}) };
    if (input.previousVersion?.trim()) b.previousVersion = input.previousVersion;
    if (input.previousCommit?.trim()) b.previousCommit = input.previousCommit;
    return b.previousVersion || b.previousCommit || b.artifact !== undefined ? b : null;
  }

  /** The captures a registration makes: what it sent, and the repository base commit its pipeline names. */
  private static registrationCaptures(input: RegisterInput): CaptureDraft[] {
    const prior = ChangeService.beforeStateOf(input);
    const drafts = prior ? capturesOf(prior) : [];
    const base = input.pipeline?.baseCommit?.trim();
    if (base) drafts.push(baseCommitCapture(base));
    return drafts;
  }

  /** An emergency's reason and link, or null for any other change. */
  private static emergencyOf(input: RegisterInput): { reason: string; link: string } | null {
    return input.emergency ? { reason: input.emergencyReason!.trim(), link: input.incident?.trim() || input.ticketUrl! } : null;
  }

  private validation: { schedule(tx: Tx, c: Change): Promise<void> } | null = null;

  /** Plugs in the check of the validation plan after the finish (ValidationService). */
  setValidation(v: { schedule(tx: Tx, c: Change): Promise<void> }): void {
    this.validation = v;
  }

  private governance: GovernanceReader = NO_GOVERNANCE;

  /** Plugs in templates and windows (the governance domain). */
  setGovernance(g: GovernanceReader): void {
    this.governance = g;
  }

  get readGovernance(): GovernanceReader {
    return this.governance;
  }

  /** Class, tier and approval policy of a change about to be saved, and whether approval gates it. `templates`: the certified ones, when already read. */
  async decide(db: Queryable, orgId: string, facts: ChangeFactsInput, settings: ChangeSettings, viaToken: boolean, override?: ClassDecision, templates?: TemplateScope[]): Promise<Governed & { gated: boolean }> {
    const certified = override ? [] : templates ?? (await this.governance.prepare(db, orgId, this.deps.clock.now(), this.deps.clock.now())).templates;
    const g = govern(facts, certified, settings, override);
    const byMode = settings.approvalRequired === 'all' || (settings.approvalRequired === 'api' && viaToken);
    return { ...g, gated: byMode && g.policy.approvals > 0 };
  }

  /** The windows' answer for starting this change at an instant. */
  async windowVerdict(db: Queryable, c: Pick<Change, 'orgId' | 'components' | 'pipeline' | 'criticality'>, at: Date): Promise<WindowVerdict> {
    return (await this.governance.prepare(db, c.orgId, at, at)).check(at, windowFacts(c));
  }

  /**
   * Registers a change. Names the catalogue cannot resolve: a pipeline's change waits in
   * pending_mapping, a person gets a 400 with the candidates. Then the blast radius (422 refused,
   * 409 large without confirmLarge), the snapshot, the gate, the timers — one transaction.
   */
  async register(ctx: AuditContext, p: Principal, raw: RegisterInput): Promise<Registered> {
    const input = ChangeService.clean(raw);
    const { validationPlan } = this.validate(input);
    const now = this.deps.clock.now();
    // The reads that depend on nothing but the request go out together: the settings, the matching's
    // aliases, the windows' and templates' version and the monitoring sources of the blast. Each
    // answer, or its refusal, is still taken in the order the checks below make them.
    const windowPlan = settled(() => planWindow(input, now));
    // Where the change is planned to start: its window's start, or now if that has passed.
    const plannedStart = windowPlan.status === 'fulfilled' && windowPlan.value.start > now ? windowPlan.value.start : now;
    const sources = this.deps.blast.sources(p.org.id);
    sources.catch(() => undefined); // awaited only where a blast is computed, which then fails with it
    const [settingsRead, matchRead, viewRead] = await Promise.allSettled([
      readSettings(this.deps.db, p.org.id),
      this.deps.mappings.match(p.org.id, { components: input.components }),
      windowPlan.status === 'fulfilled' ? this.governance.prepare(this.deps.db, p.org.id, plannedStart, windowPlan.value.end) : null,
    ]);
    const settings = taken(settingsRead);
    const warnings = this.judgeCallbackUrl(input.callbackUrl, settings.allowPrivateCallbacks);
    const window = taken(windowPlan);
    const evidenceMinutes = input.evidenceMinutes ?? input.surveillanceMinutes ?? settings.surveillanceMinutes;
    const match = taken(matchRead);
    const viaToken = p.kind === 'token';
    if (match.unresolved.length && !viaToken) {
      throw new AppError(400, unresolvedMessage(match.unresolved), 'components', { unresolved: match.unresolved });
    }
    const hops = input.hops ?? 1;
    let computed: Awaited<ReturnType<BlastService['blastOf']>> | null = null;
    // The organisation's default comes from the settings read above: the blast does not read them again.
    if (!match.unresolved.length) computed = await this.checkedBlast(p.org.id, match.resolved, hops, input.silenceInfra ?? settings.silenceInfra, input.confirmLarge ?? false, sources);
    const crit0: Partial<Criticality> = computed?.criticality ?? {};
    const facts: ChangeFactsInput = {
      kind: input.kind ?? 'other', components: match.resolved, pipeline: input.pipeline ?? null, viaTokenId: viaToken ? p.tokenId : null, hops,
      criticality: crit0.criticality ?? null, blastServices: computed?.blast.counts.services ?? 0, silencedItems: computed?.blast.counts.items ?? 0,
      emergency: ChangeService.emergencyOf(input), template: input.template?.trim() || null,
    };
    const view = taken(viewRead)!;
    const governed = await this.decide(this.deps.db, p.org.id, facts, settings, viaToken, undefined, view.templates);
    const gated = governed.gated;
    // A change that starts now without approval is held to the windows now: refused while closed.
    const startsNow = !input.draft && !match.unresolved.length && !gated && (input.startNow ?? false);
    const planned = windowFacts({ components: match.resolved, pipeline: input.pipeline ?? null, criticality: crit0.criticality ?? null });
    const verdict = input.draft ? null : view.check(plannedStart, planned);
    if (startsNow && verdict && !verdict.allowed) throw windowClosed(verdict);
    const captures = ChangeService.registrationCaptures(input);
    const digestOfCaptures = captureDigest(captures);
    if (startsNow) {
      const need = beforeStateNeed({ rule: settings.requireBeforeState, environment: environmentOf(input.pipeline ?? null), captures: captures.length, baseCommit: input.pipeline?.baseCommit?.trim() || null });
      if (need.required && !need.satisfied) throw conflict(`the change cannot start now: ${need.reason}`, { blockedOn: 'before_state' });
    }
    const conflicts = input.draft ? [] : view.conflicts(plannedStart, window.end, planned);
    const status: ChangeStatus = input.draft ? 'draft' : match.unresolved.length ? 'pending_mapping' : gated ? 'pending_approval' : input.startNow ? 'active' : 'scheduled';
    const id = `chg_${randomBytes(16).toString('hex')}`;
    const callbackSecret = input.callbackUrl ? `cs_${randomSecret()}` : undefined;
    const at = now.toISOString();
    const waiting = status === 'pending_mapping' || status === 'pending_approval';
    const crit = crit0;
    const relative = input.startNow === true || input.windowStart === undefined;

    // What the answer reports is what the transaction wrote: the change as read back in it, and the blast as stored.
    // The blast as stored, and the scope keys the change row keeps of it (see changesCovering).
    const storedBlast = computed ? this.deps.blast.store(computed.blast) : null;
    const change = await this.deps.db.transaction(async (tx) => {
      // The change, its first blast and the change as read back go in one statement.
      const change = await store.insertChangeRead(tx,
        `INSERT INTO changes (id, org_id, title, kind, description, ticket_url, status, hops, window_start, window_end, evidence_minutes, max_duration_minutes,
           auto_start, release_held, silence_infra, pipeline, callback_url, callback_secret_sealed, recipients, components, unresolved, criticality,
           criticality_source, component_tiers, gated, quorum, owner_id, via_token_id, approval_expires_at, started_at, blast_version, created_at, updated_at, relative_window,
           change_class, change_class_source, change_class_reason, template_id, template_version, emergency, risk_tier, risk_reason, approval_digest,
           capture_digest, validation_plan, rollback, callback_format, scope_keys, scope_keys_version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $32, $33,
           $34, $35, $36, $37, $38, $39, $40, $41, $42, $43, $44, $45, $46, $47::text[], $48::int)`,
        [
          id, p.org.id, input.title.trim(), input.kind ?? 'other', input.description ?? null, input.ticketUrl ?? null, status, hops,
          // startNow under approval means: start the moment it is approved.
          window.start.toISOString(), window.end.toISOString(), evidenceMinutes, input.maxDurationMinutes ?? null, (input.autoStart ?? false) || (gated && (input.startNow ?? false)),
          input.releaseHeld ?? true, input.silenceInfra ?? null, input.pipeline ? JSON.stringify(input.pipeline) : null, input.callbackUrl ?? null,
          callbackSecret ? this.deps.sealer.seal(callbackSecret) : null, input.recipients ?? [], JSON.stringify(match.resolved), JSON.stringify(match.unresolved),
          crit.criticality ?? null, crit.criticalitySource ?? null, JSON.stringify(crit.componentTiers ?? {}), gated, gated ? governed.policy.approvals : null,
          p.user.id, viaToken ? p.tokenId : null, waiting ? new Date(now.getTime() + minutes(settings.approvalExpiryMinutes)).toISOString() : null,
          status === 'active' ? at : null, computed ? 1 : 0, at, relative,
          governed.decision.changeClass, governed.decision.source, governed.decision.reason, governed.decision.template?.id ?? null, governed.decision.template?.version ?? null,
          facts.emergency ? JSON.stringify(facts.emergency) : null, governed.tier.tier, governed.tier.reason,
          approvalDigest(approvedContent({
            title: input.title, components: match.resolved, windowStart: window.start.toISOString(), windowEnd: window.end.toISOString(), maxDurationMinutes: input.maxDurationMinutes ?? null,
            relativeWindow: relative, hops, blastVersion: computed ? 1 : 0, changeClass: governed.decision.changeClass, riskTier: governed.tier.tier, pipeline: input.pipeline ?? null,
            validationPlan, captureDigest: digestOfCaptures,
          })),
          digestOfCaptures, validationPlan ? JSON.stringify(validationPlan) : null,
          input.rollback ? JSON.stringify({ kind: input.rollback.kind, ...(input.rollback.plan?.trim() ? { plan: input.rollback.plan.trim() } : {}), by: viaToken ? 'pipeline' : 'person' }) : null,
          input.callbackFormat ?? 'changeledger',
          storedBlast ? store.scopeKeysOf(storedBlast.stored) : null, storedBlast ? 1 : null,
        ],
        storedBlast,
      );
      if (captures.length) {
        await insertCaptures(tx, p.org.id, id, captures, viaToken ? 'pipeline' : 'person', capturedBy(p), at);
      }
      // Written with the COMMIT: the organisation's other writes do not wait on what follows.
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'change.registered', target: { type: 'change', id },
        data: {
          title: change.title, status, components: match.resolved.map((r) => r.key), unresolved: match.unresolved.map((u) => u.query), hops,
          windowStart: change.windowStart, windowEnd: change.windowEnd, gated, criticality: change.criticality, silenceInfra: computed?.silenceInfra ?? null,
          scope: computed ? { services: computed.blast.counts.services, items: computed.blast.counts.items } : null,
          changeClass: governed.decision.changeClass, changeClassSource: governed.decision.source, changeClassReason: governed.decision.reason,
          template: governed.decision.template, emergency: facts.emergency, riskTier: governed.tier.tier, riskReason: governed.tier.reason, approvalPolicy: governed.policy.policy,
          ...(status === 'active' && verdict?.window ? { window: verdict.window.name } : {}),
          ...(captures.length ? { beforeState: { captures: captures.map((x) => ({ method: x.method, sha256: x.sha256, completeness: x.completeness, restorable: x.restorable })), digest: digestOfCaptures } } : {}),
          ...(validationPlan ? { validationPlan: validationPlan.map((x) => x.id) } : {}),
          ...(input.rollback ? { rollback: input.rollback.kind } : {}),
          ...(input.callbackUrl ? { callbackFormat: change.callbackFormat } : {}),
        },
      });
      await this.afterEntering(tx, change);
      return change;
    });
    const out: Registered = { change, blast: storedBlast ? await this.deps.blast.answer(change.orgId, storedBlast.stored) : null, match: match.match };
    if (callbackSecret) out.callbackSecret = callbackSecret;
    if (status === 'pending_mapping') out.mapping = { unresolved: match.unresolved, hint: `map them on the change page: ${this.link(change)}` };
    if (status === 'pending_approval') out.approval = await this.approvalSummary(change, settings);
    if (warnings.length) out.warnings = warnings;
    out.governance = { changeClass: governed.decision.changeClass, changeClassReason: governed.decision.reason, riskTier: governed.tier.tier, riskReason: governed.tier.reason, policy: governed.policy.policy };
    if (verdict) out.windows = { verdict, conflicts };
    return out;
  }

  /**
   * A callbackUrl whose address the outbound guard always refuses (loopback, link-local, metadata,
   * unspecified …) is a 400 now rather than a failed delivery later; a private one is registered
   * with a warning until the organisation allows private callbacks. Names are judged when sent.
   */
  private judgeCallbackUrl(url: string | undefined, allowPrivate: boolean): string[] {
    if (!url) return [];
    const judged = this.deps.outbound.judgeLiteral(url, allowPrivate);
    if (judged.verdict === 'refused') throw badRequest(`callbackUrl: ${judged.what}, where no callback is ever delivered`, 'callbackUrl');
    if (judged.verdict === 'private') {
      return [`callbackUrl: ${judged.what}; its callbacks are refused until an owner or admin allows private callbacks (allowPrivateCallbacks in the change settings)`];
    }
    return [];
  }

  /** The blast radius a save may use: refused → 422, large without confirmation → 409. */
  async checkedBlast(orgId: string, resolved: Resolved[], hops: 1 | 2, silenceInfra: SilenceMode | null | undefined, confirmLarge: boolean, sources?: Promise<MonitorSource[]>) {
    const computed = await this.deps.blast.blastOf(orgId, resolved, hops, silenceInfra, sources);
    const { blast } = computed;
    if (blast.refused) throw new AppError(422, `the change is refused: ${blast.refused}`, undefined, { refused: blast.refused, counts: blast.counts, silenceInfra: computed.silenceInfra });
    if (blast.large && !confirmLarge) throw conflict(`the blast radius has ${blast.counts.services} services (100 or more): resend with confirmLarge to register it`, { needsConfirm: true, counts: blast.counts });
    return computed;
  }

  private async approvalSummary(c: Change, settings: ChangeSettings): Promise<RegisteredApproval> {
    const all = await readApprovers(this.deps.db, c.orgId);
    const approvers = all.filter((a) => a.userId !== c.ownerId);
    const critical = approvers.filter((a) => a.critical);
    const out: RegisteredApproval = {
      required: c.quorum ?? settings.quorum, approvers: approvers.length, expiresAt: c.approvalExpiresAt, criticality: c.criticality,
      criticalitySource: c.criticalitySource, criticalRequired: c.criticality === 'critical', criticalApprovers: critical.length,
      unknownTierComponents: unknownTier(c),
    };
    const warnings = [];
    if (approvers.length < (c.quorum ?? settings.quorum)) warnings.push(`only ${approvers.length} approver(s) other than the requester for a quorum of ${c.quorum}: it will wait until it expires`);
    if (c.criticality === 'critical' && critical.length === 0) warnings.push(`a critical change needs a critical approver: ${criticalNeed(c.ownerId, all).detail}`);
    if (warnings.length) out.warning = warnings.join('; ');
    return out;
  }

  /** Where people reach the UI: the base of every link. */
  publicUrl(): string {
    return this.deps.baseUrl();
  }

  link(c: Pick<Change, 'id'>, approve = false): string {
    return `${this.deps.baseUrl()}/?view=changes&change=${c.id}${approve ? '&approve=1' : ''}`;
  }

  /** Timers and news for the status a change has just entered. */
  async afterEntering(tx: Tx, c: Change): Promise<void> {
    switch (c.status) {
      case 'pending_mapping':
        await this.timer(tx, c, 'approval_expiry', c.approvalExpiresAt!);
        await this.deps.notifier.notify(tx, c, 'mapping_needed');
        break;
      case 'pending_approval':
        await this.timer(tx, c, 'approval_expiry', c.approvalExpiresAt!);
        await this.deps.notifier.notify(tx, c, 'approval_needed');
        break;
      case 'approved':
        await this.timer(tx, c, 'start_deadline', c.startDeadline!);
        break;
      case 'scheduled':
        await this.timer(tx, c, 'window_start', c.windowStart);
        break;
      case 'active':
        await this.timer(tx, c, 'window_end', c.windowEnd);
        await this.deps.notifier.notify(tx, c, 'started');
        break;
      case 'evaluating':
        await this.timer(tx, c, 'horizon', c.evaluateAt!);
        if (this.validation) await this.validation.schedule(tx, c);
        break;
      default:
        break;
    }
  }

  private async timer(tx: Tx, c: Change, step: TimerStep, at: string): Promise<void> {
    // A re-evaluation may reach the very horizon of an earlier report: the report version keeps its timer apart.
    const key = step === 'horizon' ? `${TIMER_JOB}:${c.id}:${step}:${at}:v${c.reportVersion + 1}` : `${TIMER_JOB}:${c.id}:${step}:${at}`;
    await scheduleJob(tx, this.deps.clock, { kind: TIMER_JOB, orgId: c.orgId, runAt: new Date(at), payload: { changeId: c.id, step, at }, dedupeKey: key });
  }

  /**
   * Moves a locked change by an action (409 with the current status when the lifecycle refuses),
   * writes the patch and the audit event in the caller's transaction, then sets what follows.
   */
  async transition(tx: Tx, ctx: AuditContext, c: Change, action: Action, patch: Record<string, unknown>, data: Record<string, unknown> = {}, routing?: { gated: boolean; startNow: boolean }, verb?: string): Promise<Change> {
    const m = move(c.status, action, routing, verb);
    if (!m.ok) throw conflict(m.reason, { status: c.status });
    const sets = Object.keys(patch).map((k, i) => `${k} = $${i + 3}`);
    await tx.query(`UPDATE changes SET status = $2, updated_at = $${sets.length + 3}${sets.length ? `, ${sets.join(', ')}` : ''} WHERE id = $1`,
      [c.id, m.to, ...Object.values(patch), this.deps.clock.now().toISOString()]);
    const next = (await store.findChange(tx, c.orgId, c.id))!;
    await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: `change.${EVENT_OF[action]}`, target: { type: 'change', id: c.id }, data: { from: c.status, to: m.to, ...data } });
    // News of the move first, then what the new status brings: an approval that starts the change
    // at once is told as approved, then started (a ticket opens before it is updated).
    const news = NEWS_OF[action];
    if (news) await this.deps.notifier.notify(tx, next, news);
    await this.afterEntering(tx, next);
    return next;
  }

  /** Locks the change for a write by the caller; 404 outside the organisation, 403 without write access. */
  private async locked(tx: Tx, p: Principal, id: string): Promise<Change> {
    const c = await store.findChange(tx, p.org.id, id, true);
    if (!c) throw notFound(`no change ${id}`);
    if (!ChangeService.canWrite(p, c)) throw forbidden('only the change’s owner, an owner or an admin changes it');
    return c;
  }

  /** Starts a scheduled or approved change now; a pipeline window is re-stamped now … now + d. */
  /** Starts a change now; `started` is false when it was active already and this call changed nothing. */
  async start(ctx: AuditContext, p: Principal, id: string): Promise<{ change: Change; started: boolean }> {
    try {
      return await this.deps.db.transaction(async (tx) => {
        const c = await this.locked(tx, p, id);
        // A pipeline that polled until `active` and then starts anyway has nothing left to do.
        if (c.status === 'active') return { change: c, started: false };
        return { change: await this.startLocked(tx, ctx, c), started: true };
      });
    } catch (e) {
      // The refused start wrote nothing; the refusal itself is on the record.
      if (e instanceof AppError && e.extra?.blockedOn === 'before_state') {
        await this.deps.db.transaction((tx) => appendAtCommit(tx, this.deps.clock, ctx, {
          orgId: p.org.id, action: 'change.prestate_blocked', target: { type: 'change', id }, data: { reason: e.message, by: 'start' },
        }));
      }
      throw e;
    }
  }

  /** The before-state rule for this change now (before-state.ts), from its captures and the organisation's setting. */
  async beforeStateNeed(db: Queryable, c: Pick<Change, 'id' | 'orgId' | 'pipeline'>): Promise<BeforeStateNeed> {
    const settings = await readSettings(db, c.orgId);
    const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM change_captures WHERE change_id = $1', [c.id]);
    return beforeStateNeed({ rule: settings.requireBeforeState, environment: environmentOf(c.pipeline), captures: r.rows[0]?.n ?? 0, baseCommit: c.pipeline?.baseCommit?.trim() || null });
  }

  /**
   * Starts a locked change, held to the windows: a freeze, or no open change window when change
   * windows apply, refuses the start (`refuse`: 409) or defers it to the next opening (`wait`: the
   * timers and autoStart, audited change.start_deferred). An emergency with its full quorum
   * (≥ 2 distinct approvers) passes a closed window: stamped once and audited change.window_bypassed once.
   */
  async startLocked(tx: Tx, ctx: AuditContext, c: Change, onClosed: 'refuse' | 'wait' = 'refuse'): Promise<Change> {
    const now = this.deps.clock.now();
    const need = await this.beforeStateNeed(tx, c);
    if (need.required && !need.satisfied) {
      if (onClosed === 'refuse') throw conflict(`the change cannot start: ${need.reason}`, { blockedOn: 'before_state' });
      // A timer or autoStart: the change stays where it is, and starts once its before-state arrives.
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.prestate_blocked', target: { type: 'change', id: c.id }, data: { reason: need.reason, by: 'timer' } });
      return c;
    }
    const verdict = await this.windowVerdict(tx, c, now);
    let bypass: Change['windowBypassed'] = null;
    if (!verdict.allowed) {
      const approvals = c.changeClass === 'emergency' ? (await store.listDecisions(tx, c.id)).filter((d) => d.decision === 'approved').length : 0;
      if (c.changeClass === 'emergency' && approvals >= Math.max(2, c.quorum ?? 0)) {
        bypass = c.windowBypassed ?? { window: verdict.window?.name ?? 'closed window', kind: verdict.window?.kind ?? 'change', at: now.toISOString(), approvals };
      } else if (onClosed === 'wait') {
        // A window planned at fixed times that the closed window outlasts cannot run as planned: it expires rather than start late.
        const fixed = !c.relativeWindow && !c.maxDurationMinutes;
        if (fixed && (verdict.nextOpening === null || Date.parse(verdict.nextOpening) >= Date.parse(c.windowEnd))) {
          const why = `${verdict.reason}: it outlasts the change’s planned window (until ${c.windowEnd})`;
          return this.transition(tx, ctx, c, 'expire', { end_reason: why }, { reason: why, window: verdict.window });
        }
        await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.start_deferred', target: { type: 'change', id: c.id }, data: { window: verdict.window, reason: verdict.reason, nextOpening: verdict.nextOpening } });
        if (verdict.nextOpening) await this.timer(tx, c, 'window_open', verdict.nextOpening);
        return c;
      } else {
        throw windowClosed(verdict);
      }
    }
    const patch: Record<string, unknown> = { started_at: now.toISOString() };
    if (bypass && !c.windowBypassed) {
      patch.window_bypassed = JSON.stringify(bypass);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.window_bypassed', target: { type: 'change', id: c.id }, data: { ...bypass, reason: verdict.reason } });
    }
    if (c.maxDurationMinutes) {
      patch.window_start = now.toISOString();
      patch.window_end = new Date(now.getTime() + minutes(c.maxDurationMinutes)).toISOString();
    } else if (new Date(c.windowStart) > now || c.relativeWindow) {
      // Started early, or a window given as "from now" that waited for approval: it opens now and keeps its length.
      patch.window_start = now.toISOString();
      patch.window_end = new Date(now.getTime() + (new Date(c.windowEnd).getTime() - new Date(c.windowStart).getTime())).toISOString();
    }
    return this.transition(tx, ctx, c, 'start', patch);
  }

  /** complete / finish: the change enters surveillance until the evidence horizon. */
  async finish(ctx: AuditContext, p: Principal, id: string, how: { outcome?: Outcome; notes?: string; abort?: boolean; defaultOutcome: Outcome | null; verb?: 'complete' }): Promise<Change> {
    return this.deps.db.transaction(async (tx) => {
      const c = await this.locked(tx, p, id);
      const now = this.deps.clock.now();
      const outcome = how.outcome ?? (how.abort ? 'rolled_back' : how.defaultOutcome);
      const by = p.kind === 'token' ? 'pipeline' : 'person';
      if (c.status === 'evaluating' && c.outcomeBy === 'window' && !how.abort) {
        // The window ran out before the pipeline finished: its outcome is still taken, once.
        await tx.query('UPDATE changes SET outcome = $2, notes = $3, outcome_by = $4, updated_at = $5 WHERE id = $1', [c.id, outcome ?? 'unknown', how.notes ?? null, by, now.toISOString()]);
        await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.outcome_recorded', target: { type: 'change', id: c.id }, data: { outcome: outcome ?? 'unknown', was: c.outcome, after: 'the window ended' } });
        return (await store.findChange(tx, c.orgId, c.id))!;
      }
      return this.transition(tx, ctx, c, how.abort ? 'abort' : 'finish', {
        finished_at: now.toISOString(), outcome, notes: how.notes ?? null, aborted: how.abort ?? false, outcome_by: by,
        evaluate_at: new Date(now.getTime() + minutes(c.evidenceMinutes)).toISOString(),
      }, { outcome }, undefined, how.verb);
    });
  }

  /**
   * Pushes a running change's window out: later than its current end (400 naming windowEnd
   * otherwise), active changes only (409). The window_end timer is set anew (the old one finds
   * windowEnd changed and does nothing), and the hold's end follows through the notifier.
   */
  async extend(ctx: AuditContext, p: Principal, id: string, windowEnd: string): Promise<Change> {
    return this.deps.db.transaction(async (tx) => {
      const c = await this.locked(tx, p, id);
      if (c.status !== 'active') throw conflict(`only a running change's window can be extended; this change is ${c.status}`, { status: c.status });
      const now = this.deps.clock.now();
      const end = planExtension(c, windowEnd, now).toISOString();
      await tx.query('UPDATE changes SET window_end = $2, updated_at = $3 WHERE id = $1', [c.id, end, now.toISOString()]);
      const next = (await store.findChange(tx, c.orgId, c.id))!;
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.window_extended', target: { type: 'change', id: c.id }, data: { windowEnd: { from: c.windowEnd, to: next.windowEnd } } });
      await this.timer(tx, next, 'window_end', next.windowEnd);
      await this.deps.notifier.notify(tx, next, 'window_extended');
      return next;
    });
  }

  async cancel(ctx: AuditContext, p: Principal, id: string, reason?: string): Promise<Change> {
    const why = reason?.trim() || `cancelled by ${p.kind === 'token' ? `token "${p.tokenName}" of ${p.user.email}` : p.user.email}`;
    return this.deps.db.transaction(async (tx) => this.transition(tx, ctx, await this.locked(tx, p, id), 'cancel', { end_reason: why }, { reason: why }));
  }

  /**
   * A reported change is evaluated again: a new report version over the same window, start →
   * finish + the horizon (the new evidenceMinutes when given). When that horizon has passed already
   * its timer is due at once, so the collection runs now rather than waiting.
   */
  async evaluate(ctx: AuditContext, p: Principal, id: string, evidenceMinutes?: number): Promise<Change> {
    return this.deps.db.transaction(async (tx) => {
      const c = await this.locked(tx, p, id);
      const mins = evidenceMinutes ?? c.evidenceMinutes;
      const finish = new Date(c.finishedAt ?? c.windowEnd).getTime();
      const horizon = new Date(finish + minutes(mins));
      const now = this.deps.clock.now();
      return this.transition(tx, ctx, c, 'evaluate', { evidence_minutes: mins, evaluate_at: horizon.toISOString() },
        { evidenceMinutes: mins, horizon: horizon.toISOString(), collectsNow: horizon <= now });
    });
  }

  /** Edits a draft or scheduled change; a new blast-radius version is snapshotted. `draft: false` submits a draft. */
  async edit(ctx: AuditContext, p: Principal, id: string, input: Partial<RegisterInput>): Promise<Registered> {
    const before = await this.get(p, id);
    if (!ChangeService.canWrite(p, before)) throw forbidden('only the change’s owner, an owner or an admin changes it');
    const merged: RegisterInput = {
      title: input.title ?? before.title, kind: input.kind ?? before.kind, description: input.description ?? before.description ?? undefined,
      ticketUrl: input.ticketUrl ?? before.ticketUrl ?? undefined,
      components: input.components ?? before.components.map((c) => ({ kind: c.kind, key: c.key })),
      hops: input.hops ?? before.hops, windowStart: input.windowStart ?? (input.startNow || input.maxDurationMinutes ? undefined : before.windowStart),
      windowEnd: input.windowEnd ?? (input.windowStart || input.startNow || input.maxDurationMinutes ? undefined : before.windowEnd),
      startNow: input.startNow, evidenceMinutes: input.evidenceMinutes ?? input.surveillanceMinutes ?? before.evidenceMinutes,
      maxDurationMinutes: input.maxDurationMinutes ?? before.maxDurationMinutes ?? undefined, autoStart: input.autoStart ?? before.autoStart,
      pipeline: input.pipeline ?? before.pipeline ?? undefined, recipients: input.recipients ?? before.recipients, releaseHeld: input.releaseHeld ?? before.releaseHeld,
      silenceInfra: input.silenceInfra === undefined ? before.silenceInfra : input.silenceInfra, confirmLarge: input.confirmLarge,
      emergency: input.emergency ?? before.emergency !== null, emergencyReason: input.emergencyReason ?? before.emergency?.reason,
      incident: input.incident ?? (before.emergency && before.emergency.link !== before.ticketUrl ? before.emergency.link : undefined),
      template: input.template ?? before.template?.id, callbackFormat: input.callbackFormat ?? before.callbackFormat,
    };
    this.validate(merged);
    const now = this.deps.clock.now();
    const window = planWindow(merged, now);
    const match = await this.deps.mappings.match(p.org.id, { components: merged.components });
    if (match.unresolved.length) throw new AppError(400, unresolvedMessage(match.unresolved), 'components', { unresolved: match.unresolved });
    const computed = await this.checkedBlast(p.org.id, match.resolved, merged.hops ?? 1, merged.silenceInfra, merged.confirmLarge ?? false);
    const settings = await readSettings(this.deps.db, p.org.id);
    await this.deps.db.transaction(async (tx) => {
      const c = await this.locked(tx, p, id);
      const submit = c.status === 'draft' && input.draft === false;
      const m = move(c.status, submit ? 'submit' : 'edit');
      if (!m.ok) throw conflict(m.reason, { status: c.status });
      const version = c.blastVersion + 1;
      const viaToken = c.viaTokenId !== null;
      const emergency = ChangeService.emergencyOf(merged);
      // An approver's reclassification holds through edits that do not declare an emergency or name a template.
      const kept = c.changeClassSource === 'reclassified' && input.emergency === undefined && input.template === undefined
        ? { changeClass: c.changeClass, source: c.changeClassSource, reason: c.changeClassReason, template: null } : undefined;
      const governed = await this.decide(tx, c.orgId, {
        kind: merged.kind ?? 'other', components: match.resolved, pipeline: merged.pipeline ?? null, viaTokenId: c.viaTokenId, hops: merged.hops ?? 1,
        criticality: computed.criticality.criticality, blastServices: computed.blast.counts.services, silencedItems: computed.blast.counts.items,
        emergency, template: merged.template ?? null,
      }, settings, viaToken, kept);
      const relative = merged.startNow === true || merged.windowStart === undefined;
      const digest = approvalDigest(approvedContent({
        title: merged.title, components: match.resolved, windowStart: window.start.toISOString(), windowEnd: window.end.toISOString(), maxDurationMinutes: merged.maxDurationMinutes ?? null,
        relativeWindow: relative, hops: merged.hops ?? 1, blastVersion: version, changeClass: governed.decision.changeClass, riskTier: governed.tier.tier, pipeline: merged.pipeline ?? null,
        validationPlan: c.validationPlan, captureDigest: c.captureDigest,
      }));
      const s = this.deps.blast.store(computed.blast);
      await store.insertBlast(tx, c.id, version, s.stored, s.bytes, now.toISOString());
      await tx.query(
        `UPDATE changes SET title = $2, kind = $3, description = $4, ticket_url = $5, hops = $6, window_start = $7, window_end = $8, evidence_minutes = $9,
           max_duration_minutes = $10, auto_start = $11, pipeline = $12, recipients = $13, release_held = $14, silence_infra = $15, components = $16,
           criticality = $17, criticality_source = $18, component_tiers = $19, blast_version = $20, updated_at = $21,
           change_class = $22, change_class_source = $23, change_class_reason = $24, change_class_cause = NULL, template_id = $25, template_version = $26,
           emergency = $27, risk_tier = $28, risk_reason = $29, approval_digest = $30, relative_window = $31, callback_format = $32 WHERE id = $1`,
        [c.id, merged.title.trim(), merged.kind, merged.description ?? null, merged.ticketUrl ?? null, merged.hops, window.start.toISOString(), window.end.toISOString(),
          merged.evidenceMinutes, merged.maxDurationMinutes ?? null, merged.autoStart, merged.pipeline ? JSON.stringify(merged.pipeline) : null, merged.recipients,
          merged.releaseHeld, merged.silenceInfra ?? null, JSON.stringify(match.resolved), computed.criticality.criticality, computed.criticality.criticalitySource,
          JSON.stringify(computed.criticality.componentTiers), version, now.toISOString(),
          governed.decision.changeClass, governed.decision.source, governed.decision.reason, governed.decision.template?.id ?? null, governed.decision.template?.version ?? null,
          emergency ? JSON.stringify(emergency) : null, governed.tier.tier, governed.tier.reason, digest, relative, merged.callbackFormat],
      );
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: c.orgId, action: 'change.edited', target: { type: 'change', id: c.id },
        data: {
          blastVersion: version, fields: Object.keys(input), digest: { from: c.approvalDigest, to: digest },
          ...(governed.decision.changeClass !== c.changeClass ? { changeClass: { from: c.changeClass, to: governed.decision.changeClass, reason: governed.decision.reason } } : {}),
          ...(governed.tier.tier !== c.riskTier ? { riskTier: { from: c.riskTier, to: governed.tier.tier, reason: governed.tier.reason } } : {}),
          ...(merged.callbackFormat !== c.callbackFormat ? { callbackFormat: { from: c.callbackFormat, to: merged.callbackFormat } } : {}),
        },
      });
      const edited = (await store.findChange(tx, c.orgId, c.id))!;
      const approvalPatch = (gated: boolean) => reopenPatch(gated, governed.policy.approvals, settings.approvalExpiryMinutes, now);
      if (submit) {
        const patch = approvalPatch(governed.gated);
        if (!governed.gated && input.startNow) {
          const verdict = await this.windowVerdict(tx, edited, now);
          if (!verdict.allowed) throw windowClosed(verdict);
          patch.started_at = now.toISOString();
        }
        await this.transition(tx, ctx, edited, 'submit', patch, {}, { gated: governed.gated, startNow: input.startNow ?? false });
      } else if (c.status === 'pending_approval' || c.status === 'approved' || governed.gated !== c.gated) {
        // What was approved is no longer what would run: the approvals given so far stop counting, and it waits again.
        const voided = await store.voidDecisions(tx, c.id, now.toISOString(), 'edited');
        if (voided.length) {
          await appendAtCommit(tx, this.deps.clock, ctx, {
            orgId: c.orgId, action: 'change.approvals_voided', target: { type: 'change', id: c.id },
            data: { cause: 'edited', voided: voided.map((v) => ({ userId: v.userId, decision: v.decision, digest: v.digest })), digest: { from: c.approvalDigest, to: digest } },
          });
        }
        await this.transition(tx, ctx, edited, 'reopen', approvalPatch(governed.gated), { voided: voided.length, cause: 'edited' }, { gated: governed.gated, startNow: false });
      } else if (edited.status === 'scheduled') {
        await this.afterEntering(tx, edited);
      }
    });
    const change = await this.get(p, id);
    return { change, blast: await this.blastOf(change), match: match.match };
  }

  /** The durable timers of changes. Each checks that the change still waits for exactly this moment. */
  jobHandlers(): Record<string, JobHandler<unknown>> {
    return { [TIMER_JOB]: { commit: async (tx: Tx, job: Job) => this.onTimer(tx, job) } };
  }

  private async onTimer(tx: Tx, job: Job): Promise<void> {
    const { changeId, step, at } = job.payload as { changeId: string; step: TimerStep; at: string };
    const c = await store.findChangeForTimer(tx, changeId);
    if (!c) return;
    const ctx: AuditContext = { actor: { kind: 'system', id: null, name: 'changeledger scheduler' }, source: 'scheduler' };
    const now = this.deps.clock.now();
    switch (step) {
      case 'approval_expiry':
        if ((c.status === 'pending_approval' || c.status === 'pending_mapping') && c.approvalExpiresAt === at) {
          const why = c.status === 'pending_mapping' ? 'its components were not mapped before the deadline' : 'it was not approved before the deadline';
          await this.transition(tx, ctx, c, 'expire', { decided_at: now.toISOString(), end_reason: why }, { reason: why });
        }
        return;
      case 'start_deadline':
        if (c.status === 'approved' && c.startDeadline === at) {
          const why = 'it was approved but not started before the start deadline';
          await this.transition(tx, ctx, c, 'expire', { end_reason: why }, { reason: why });
        }
        return;
      case 'window_start':
        if (c.status === 'scheduled' && c.windowStart === at) await this.startLocked(tx, ctx, c, 'wait');
        return;
      case 'window_open':
        // A start the windows deferred: a scheduled change, or an approved one with autoStart.
        if (c.status === 'scheduled' || (c.status === 'approved' && c.autoStart)) {
          if (!c.relativeWindow && !c.maxDurationMinutes && new Date(c.windowEnd) <= now) {
            const why = 'its planned window ended while a closed window held its start';
            await this.transition(tx, ctx, c, 'expire', { end_reason: why }, { reason: why });
          } else await this.startLocked(tx, ctx, c, 'wait');
        }
        return;
      case 'window_end':
        if (c.status === 'active' && c.windowEnd === at) {
          await this.transition(tx, ctx, c, 'window_end', {
            finished_at: now.toISOString(), outcome: c.outcome ?? 'unknown', outcome_by: 'window', evaluate_at: new Date(now.getTime() + minutes(c.evidenceMinutes)).toISOString(),
          }, { outcome: c.outcome ?? 'unknown' });
        }
        return;
      case 'horizon':
        if (c.status === 'evaluating' && c.evaluateAt === at) {
          const reporter = this.reporter ?? this.deps.reporter;
          if (reporter) await reporter.horizonReached(tx, ctx, c);
          else await this.recordReport(tx, ctx, c.id, at, unknownReport(c));
        }
        return;
    }
  }

  /**
   * Writes the next report version and moves the change to reported, in the caller's transaction:
   * the row, the change's impact and aiImpact, the audit event, and the news (mail, callback,
   * ticket, which read the row just written). A change that moved on since the collection began
   * (no longer evaluating, or another horizon) gets nothing: null.
   */
  async recordReport(tx: Tx, ctx: AuditContext, changeId: string, expectedEvaluateAt: string, record: ReportRecord): Promise<Change | null> {
    const c = await store.findChangeForTimer(tx, changeId);
    if (!c || c.status !== 'evaluating' || c.evaluateAt !== expectedEvaluateAt) return null;
    const version = c.reportVersion + 1;
    if (record.version !== undefined && record.version !== version) return null;
    const now = record.createdAt ?? this.deps.clock.now().toISOString();
    const { version: _v, createdAt: _at, ...row } = record;
    await store.insertReport(tx, c.id, version, c.outcome, row, now);
    return this.transition(tx, ctx, c, 'report', { impact: record.impact, ai_impact: record.aiImpact, reported_at: now, report_version: version },
      { reportVersion: version, impact: record.impact, aiImpact: record.aiImpact, ...(record.rule ? { rule: record.rule } : {}) });
  }

  /**
   * A reported change's report, written again as the next version with its post-implementation
   * review (the reporter renders it from the stored evidence; nothing is collected again), in the
   * caller's transaction, which holds the change's row lock. Audited change.report_revised. The
   * verdict, impact and status stay; no news is sent. Answers the new version, or null when there
   * is nothing to revise (not reported, no reporter, a report without evidence, or nothing new).
   */
  async reviseReport(tx: Tx, ctx: AuditContext, changeId: string, reason: 'review'): Promise<number | null> {
    const reporter = this.reporter ?? this.deps.reporter;
    const c = await store.findChangeForTimer(tx, changeId);
    if (!c || c.status !== 'reported' || c.reportVersion < 1 || !reporter?.revise) return null;
    const record = await reporter.revise(tx, c);
    const version = c.reportVersion + 1;
    if (!record || (record.version !== undefined && record.version !== version)) return null;
    const now = record.createdAt ?? this.deps.clock.now().toISOString();
    const { version: _v, createdAt: _at, ...row } = record;
    await store.insertReport(tx, c.id, version, c.outcome, row, now);
    await tx.query('UPDATE changes SET report_version = $2, updated_at = $3 WHERE id = $1', [c.id, version, now]);
    await appendAtCommit(tx, this.deps.clock, ctx, {
      orgId: c.orgId, action: 'change.report_revised', target: { type: 'change', id: c.id },
      data: { version, from: c.reportVersion, reason, impact: c.impact },
    });
    return version;
  }
}

export function unknownTier(c: Change): Array<{ key: string; name: string; kind: string }> {
  return c.components.filter((x) => c.componentTiers[x.key] === null).map((x) => ({ key: x.key, name: x.name, kind: x.kind }));
}

const EVENT_OF: Record<Action, string> = {
  submit: 'submitted', mapped: 'mapped', approve: 'approved', reject: 'rejected', expire: 'expired', start: 'started', finish: 'completed', abort: 'aborted',
  window_end: 'window_ended', report: 'reported', evaluate: 'evaluation_requested', cancel: 'cancelled', edit: 'edited', reopen: 'reopened',
};
const NEWS_OF: Partial<Record<Action, ChangeEvent>> = {
  mapped: 'mapped', approve: 'approved', reject: 'rejected', expire: 'expired', finish: 'completed', abort: 'completed', window_end: 'completed', report: 'reported', cancel: 'cancelled',
};

/** A step's answer or its refusal, in the form Promise.allSettled gives, to be taken when the checks ask for it. */
function settled<T>(f: () => T): PromiseSettledResult<T> {
  try {
    return { status: 'fulfilled', value: f() };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}

function taken<T>(s: PromiseSettledResult<T>): T {
  if (s.status === 'rejected') throw s.reason;
  return s.value;
}
