import type { Logger } from 'pino';
import { AuthService } from './domains/auth/index.js';
import { MembersService } from './domains/auth/members-service.js';
import { CatalogueService } from './domains/catalogue/catalogue-service.js';
import { MappingService } from './domains/catalogue/mapping-service.js';
import { BlastService } from './domains/catalogue/blast-service.js';
import { ApprovalService } from './domains/changes/approval-service.js';
import { ClassService } from './domains/changes/class-service.js';
import { ReviewService } from './domains/changes/review-service.js';
import { BeforeStateService } from './domains/changes/before-state-service.js';
import { RollbackService } from './domains/changes/rollback-service.js';
import { ValidationService } from './domains/changes/validation-service.js';
import { FlagReverts } from './domains/flags/flag-revert.js';
import { TemplateService, WindowService } from './domains/governance/index.js';
import { ChangeMail } from './domains/changes/change-mail.js';
import { readStatus } from './domains/changes/change-view.js';
import { DeliveryService } from './domains/deliveries/delivery-service.js';
import { AlertService } from './domains/alerts/index.js';
import { HoldService } from './domains/alerts/hold-service.js';
import { createAlertmanagerClient } from './domains/alerts/alertmanager-client.js';
import { AlertSettingsService } from './domains/alerts/alert-settings.js';
import { RelayService } from './domains/alerts/relay-service.js';
import { readDeliveriesView } from './domains/deliveries/delivery-store.js';
import { ChangeService, type ChangeNotifier } from './domains/changes/change-service.js';
import { ChangeSettingsService } from './domains/changes/change-settings.js';
import { FlagRequestService } from './domains/flags/flag-request-service.js';
import { FlagService } from './domains/flags/flag-service.js';
import { SdkKeyService } from './domains/flags/sdk-key-service.js';
import { IncidentService } from './domains/incidents/incident-service.js';
import { EvidenceService } from './domains/evidence/evidence-service.js';
import { AiProviderService } from './domains/evidence/ai-provider-service.js';
import { EvidenceSourceService } from './domains/evidence/evidence-source-service.js';
import { promqlReader } from './domains/evidence/validation-reads.js';
import type { Sealer } from './platform/crypto/sealed.js';
import type { OutboundSettings } from './platform/net/outbound.js';
import type { Clock } from './platform/clock.js';
import type { Database } from './platform/db/database.js';
import type { JobHandler } from './platform/jobs/job.js';
import { JobWorker } from './platform/jobs/job-worker.js';
import { CheckpointService } from './domains/ledger/checkpoint-service.js';
import { mailJobHandlers } from './platform/mail/mail-outbox.js';
import { createMailer, type MailConfig, type Mailer } from './platform/mail/mailer.js';
import { createMetrics, type Metrics } from './platform/metrics.js';
import { createOpsMetrics } from './ops/ops-metrics.js';
import { LogIntake } from './domains/evidence/log-intake.js';
import { logRetentionJobHandlers } from './domains/evidence/log-retention.js';
import { ObservedFeed } from './domains/observed/observed-feed.js';
import { IntakeService, relink } from './domains/observed/intake-service.js';
import { CaseService } from './domains/observed/unmanaged/case-service.js';
import { UnmanagedService } from './domains/observed/unmanaged/unmanaged-service.js';
import { SourceService } from './domains/observed/source-service.js';
import { pullJobHandlers, type PullIntake } from './domains/observed/pull-scheduler.js';

export type Services = {
  db: Database;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  auth: AuthService;
  members: MembersService;
  flags: FlagService;
  flagRequests: FlagRequestService;
  sdkKeys: SdkKeyService;
  incidents: IncidentService;
  catalogue: CatalogueService;
  mappings: MappingService;
  blast: BlastService;
  changes: ChangeService;
  approvals: ApprovalService;
  classes: ClassService;
  /** Post-implementation reviews, the due list and the reminder 3 days after a change's finish. */
  reviews: ReviewService;
  /** Before-state captures added after registration. */
  beforeStates: BeforeStateService;
  /** Rollback paths, their release by people, and the automatic sweep. */
  rollbacks: RollbackService;
  /** The validation plan checked after the finish. */
  validations: ValidationService;
  templates: TemplateService;
  windows: WindowService;
  changeSettings: ChangeSettingsService;
  deliveries: DeliveryService;
  /** The hold a running change puts on its blast radius's alerts, and its release. */
  holds: HoldService;
  alerts: AlertService;
  /** Relay mode's sends to the destinations, and the release notices of both modes. */
  relay: RelayService;
  /** Settings → Alert sources: hold mode, label mapping, Alertmanagers, relay destinations. */
  alertSettings: AlertSettingsService;
  /** Collection at a change's horizon: evidence, verdict, AI assessment, the report's forms. */
  evidence: EvidenceService;
  /** POST /v1/logs: OTLP log records kept for the logs part of reports. */
  logIntake: LogIntake;
  /** The one change list's flag writes and observed changes (plugged into changes), and the observed change page. */
  observedFeed: ObservedFeed;
  /** Observed changes: records what a change source delivers or a pull reads. */
  intake: IntakeService;
  /** Settings → Change sources: connections, secrets, tests, manual pulls and the observed-change settings. */
  sources: SourceService;
  /** Settings → Unmanaged changes: the reference rule, the ITSM token and the tickets ITSM tools send. */
  unmanaged: UnmanagedService;
  /** Cases of unauthorized changes and denied attempts, and the approvers' answers. */
  cases: CaseService;
  /** Settings → AI provider: the provider of change assessment. */
  aiProvider: AiProviderService;
  /** Settings → Evidence: evidence sources, thresholds, RED templates, the AI switch. */
  evidenceSources: EvidenceSourceService;
  /** Sends what the outbox holds; close it on shutdown (it pools SMTP connections). */
  mailer: Mailer;
  worker: JobWorker;
  /** Signed checkpoints of the ledger: made on demand and hourly, listed, posted to a witness. */
  checkpoints: CheckpointService;
};

/** The only place that constructs services and workers. */
export type ComposeOptions = {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Seals secrets kept for later use (webhook URLs, signing secrets). */
  sealer: Sealer;
  outbound: OutboundSettings;
  workerPollMs?: number;
  /** Where people reach the UI, for links in e-mails and /status (default http://localhost:8080). */
  publicUrl?: string | null | (() => string);
  /** SMTP for e-mail; without it every e-mail is skipped with a log line, never an error. */
  mail?: MailConfig | null;
  /** Hears of change events besides e-mail (which is always on). */
  notifier?: ChangeNotifier;
  extraHandlers?: Record<string, JobHandler<unknown>>;
  /**
   * Checkpoints: the key's name (default "changeledger"), the operator's own key in PEM (default:
   * the one kept sealed in the database), and the witness that hears of each new checkpoint.
   */
  checkpoints?: { name?: string; pem?: string | null; witnessUrl?: string | null };
  /**
   * TEST ONLY: the time between a change's finish and the release of its alert hold (the product
   * waits 5 minutes; CHANGELEDGER_TEST_ONLY_HOLD_RELEASE_DELAY_MS sets it for a spawned server).
   */
  holdReleaseDelayMs?: number;
  /** TEST ONLY: the AI assessment's budget (the product gives it two minutes). */
  aiBudgetMs?: number;
};

export function compose(o: ComposeOptions): Services {
  const metrics = createMetrics();
  createOpsMetrics({ registry: metrics.registry, db: o.db, clock: o.clock, logger: o.logger });
  const flags = new FlagService({ db: o.db, clock: o.clock });
  const auth = new AuthService({ db: o.db, clock: o.clock, initializers: [(tx, ctx, orgId) => flags.initOrganization(tx, ctx, orgId)],
    // Called at a removal, long after changeSettings below exists.
    departures: [(tx, ctx, orgId, userId) => changeSettings.forgetApproverTx(tx, ctx, orgId, userId)],
  });
  const flagRequests = new FlagRequestService({ db: o.db, clock: o.clock, flags });
  const sdkKeys = new SdkKeyService({ db: o.db, clock: o.clock });
  const catalogue = new CatalogueService({ db: o.db, clock: o.clock });
  const mappings = new MappingService({ db: o.db, clock: o.clock, catalogue });
  const blast = new BlastService({ db: o.db, clock: o.clock, catalogue, mappings });
  const mailer = createMailer(o.mail ?? null, o.logger);
  const baseUrl = () => (typeof o.publicUrl === 'function' ? o.publicUrl() : o.publicUrl ?? 'http://localhost:8080');
  const members = new MembersService({ db: o.db, clock: o.clock, auth, mailConfigured: mailer.configured, baseUrl });
  // The e-mails link to the change page exactly as ChangeService builds it (it exists by the first event).
  const changeMail = new ChangeMail({ clock: o.clock, link: (c, approve) => changes.link(c, approve) });
  // Callbacks and ticket steps: written with the event, sent by the worker through the one outbound client.
  const deliveries: DeliveryService = new DeliveryService({
    db: o.db, clock: o.clock, sealer: o.sealer, client: o.outbound.client, logger: o.logger,
    statusBody: (db, c) => readStatus(db, c, { change: changes.link(c), approve: changes.link(c, true) }, readDeliveriesView, holds.suppression),
    publicUrl: baseUrl,
  });
  // Alert holds start, follow and end with the change, in its transaction. Before deliveries, so the
  // callback of a start or a finish carries the hold as it just became. Intake records what a silence held.
  const holds: HoldService = new HoldService({
    db: o.db, clock: o.clock, sealer: o.sealer, alertmanager: createAlertmanagerClient(o.outbound.client), logger: o.logger,
    recorder: { recordHeld: (tx, orgId, via, incoming, source) => alerts.recordHeld(tx, orgId, via, incoming, source) },
    link: (c) => changes.link(c), releaseDelayMs: o.holdReleaseDelayMs,
  });
  const notifier = fanOut([changeMail, holds, deliveries, ...(o.notifier ? [o.notifier] : [])]);
  const changes: ChangeService = new ChangeService({ db: o.db, clock: o.clock, sealer: o.sealer, blast, mappings, notifier, baseUrl, outbound: o.outbound.client, deliveries: readDeliveriesView, suppression: holds.suppression });
  const approvals = new ApprovalService({ db: o.db, clock: o.clock, changes, blast, mappings, catalogue, notifier });
  const classes = new ClassService({ db: o.db, clock: o.clock, changes });
  const reviews = new ReviewService({ db: o.db, clock: o.clock, notifier, changes });
  const templates = new TemplateService({ db: o.db, clock: o.clock, classes });
  const beforeStates = new BeforeStateService({ db: o.db, clock: o.clock, changes });
  const rollbacks = new RollbackService({ db: o.db, clock: o.clock, changes, notifier });
  const flagReverts = new FlagReverts(flags);
  rollbacks.setFlagReverter(flagReverts);
  beforeStates.setFlagWrites(flagReverts);
  const validations = new ValidationService({ db: o.db, clock: o.clock, changes, notifier, outbound: o.outbound.client });
  changes.setValidation(validations);
  validations.setPromqlReader(promqlReader({ db: o.db, sealer: o.sealer, outbound: o.outbound.client }));
  rollbacks.setTemplateDemoter((tx, ctx, orgId, id, change) => templates.demote(tx, ctx, orgId, id, change));
  const windows = new WindowService({ db: o.db, clock: o.clock, outbound: o.outbound.client });
  changes.setGovernance(windows.reader());
  flags.setFreezeCheck(windows.freezeCheck());
  const changeSettings = new ChangeSettingsService({ db: o.db, clock: o.clock, sealer: o.sealer, outbound: o.outbound.client });
  const incidents = new IncidentService({ db: o.db, clock: o.clock, flags, sealer: o.sealer, outbound: o.outbound });
  // Alert intake; the relay plugs in with alerts.setRelay (until then nothing is forwarded).
  const alerts = new AlertService({ db: o.db, clock: o.clock, registry: metrics.registry });
  // Relay: intake forwards what it does not hold, a release re-sends what is still failing.
  const relay = new RelayService({ db: o.db, clock: o.clock, sealer: o.sealer, client: o.outbound.client, logger: o.logger, externalUrl: baseUrl, mailer });
  alerts.setRelay(relay);
  holds.setRelay(relay);
  const alertSettings = new AlertSettingsService({ db: o.db, clock: o.clock, sealer: o.sealer, client: o.outbound.client, relay });
  // At a change's horizon, changes calls its reporter seam: evidence collects, judges and hands the report back.
  const evidence = new EvidenceService({
    db: o.db, clock: o.clock, sealer: o.sealer, outbound: o.outbound.client, changes, mailConfigured: mailer.configured, link: (c) => changes.link(c), aiBudgetMs: o.aiBudgetMs,
  });
  changes.setReporter(evidence);
  // The one change list: flag writes and observed changes join the planned ones (changes never imports observed).
  const observedFeed = new ObservedFeed({ db: o.db, flags, flagRequests });
  changes.setFeed(observedFeed);
  const evidenceSources = new EvidenceSourceService({ db: o.db, clock: o.clock, sealer: o.sealer, outbound: o.outbound.client });
  const aiProvider = new AiProviderService({ db: o.db, clock: o.clock, sealer: o.sealer, outbound: o.outbound.client, budgetMs: o.aiBudgetMs });
  // Change sources and their pulls record through the intake (made below) in the pull's own transaction.
  const pullIntake: PullIntake = { recordIn: (tx, ctx, id, parsed, via) => intake.recordIn(tx, ctx, id, parsed, via) };
  const sources = new SourceService({ db: o.db, clock: o.clock, sealer: o.sealer, outbound: o.outbound, intake: pullIntake, relink });
  // Observed changes: the intake of every change source (webhooks, and the scheduled pulls).
  const unmanaged = new UnmanagedService({ db: o.db, clock: o.clock });
  // A case of unmanaged changes is posted to the organisation's channel, which the incidents domain keeps.
  const cases = new CaseService({ db: o.db, clock: o.clock, baseUrl });
  cases.setChannel({ post: async (tx, orgId, posts) => void (await incidents.queueChannelPosts(tx, orgId, posts.map((p) => ({ target: { type: 'case', id: p.caseId }, text: p.text })))) });
  const checkpoints = new CheckpointService({
    db: o.db, clock: o.clock, sealer: o.sealer, name: o.checkpoints?.name ?? 'changeledger', pem: o.checkpoints?.pem ?? null,
    witness: { url: o.checkpoints?.witnessUrl ?? null, client: o.outbound.client, allowPrivate: o.outbound.allowPrivate },
  });
  const handlers: Record<string, JobHandler<unknown>> = { ...checkpoints.jobHandlers(), ...pullJobHandlers({ db: o.db, clock: o.clock, sealer: o.sealer, outbound: o.outbound.client, intake: pullIntake }), ...flagRequests.jobHandlers(), ...incidents.jobHandlers(), ...catalogue.jobHandlers(), ...changes.jobHandlers(), ...reviews.jobHandlers(), ...rollbacks.jobHandlers(), ...validations.jobHandlers(), ...evidence.jobHandlers(), ...deliveries.jobHandlers(), ...holds.jobHandlers(), ...relay.jobHandlers(), ...cases.jobHandlers(), ...mailJobHandlers(mailer), ...logRetentionJobHandlers({ clock: o.clock }), ...(o.extraHandlers ?? {}) };
  const worker = new JobWorker({ db: o.db, clock: o.clock, logger: o.logger, metrics, handlers, pollMs: o.workerPollMs ?? 1_000 });
  // OTLP logs intake (POST /v1/logs): counted in /metrics, not audited.
  const logIntake = new LogIntake({ db: o.db, clock: o.clock, registry: metrics.registry });
  const intake = new IntakeService({ db: o.db, clock: o.clock, sealer: o.sealer, unmanaged, cases });
  return { intake, sources, unmanaged, cases, db: o.db, clock: o.clock, logger: o.logger, metrics, auth, members, flags, flagRequests, sdkKeys, incidents, catalogue, mappings, blast, changes, approvals, classes, reviews, beforeStates, rollbacks, validations, templates, windows, changeSettings, deliveries, holds, alerts, relay, alertSettings, evidence, logIntake, observedFeed, aiProvider, evidenceSources, mailer, worker, checkpoints };
}

/** Every notifier hears every event, in order, inside the same transaction. */
function fanOut(notifiers: ChangeNotifier[]): ChangeNotifier {
  return {
    async notify(tx, change, event, extra) {
      for (const n of notifiers) await n.notify(tx, change, event, extra);
    },
  };
}
