import type { Logger } from 'pino';
import { AuthService } from './domains/auth/index.js';
import { CatalogueService } from './domains/catalogue/catalogue-service.js';
import { MappingService } from './domains/catalogue/mapping-service.js';
import { BlastService } from './domains/catalogue/blast-service.js';
import { ApprovalService } from './domains/changes/approval-service.js';
import { ChangeService, silentNotifier, type ChangeNotifier } from './domains/changes/change-service.js';
import { ChangeSettingsService } from './domains/changes/change-settings.js';
import { FlagRequestService } from './domains/flags/flag-request-service.js';
import { FlagService } from './domains/flags/flag-service.js';
import { SdkKeyService } from './domains/flags/sdk-key-service.js';
import { IncidentService } from './domains/incidents/incident-service.js';
import type { Sealer } from './platform/crypto/sealed.js';
import type { OutboundPolicy } from './platform/net/outbound.js';
import type { Clock } from './platform/clock.js';
import type { Database } from './platform/db/database.js';
import type { JobHandler } from './platform/jobs/job.js';
import { JobWorker } from './platform/jobs/job-worker.js';
import { createMetrics, type Metrics } from './platform/metrics.js';

export type Services = {
  db: Database;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  auth: AuthService;
  flags: FlagService;
  flagRequests: FlagRequestService;
  sdkKeys: SdkKeyService;
  incidents: IncidentService;
  catalogue: CatalogueService;
  mappings: MappingService;
  blast: BlastService;
  changes: ChangeService;
  approvals: ApprovalService;
  changeSettings: ChangeSettingsService;
  worker: JobWorker;
};

/** The only place that constructs services and workers. */
export type ComposeOptions = {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Seals secrets kept for later use (webhook URLs, signing secrets). */
  sealer: Sealer;
  outbound: OutboundPolicy;
  workerPollMs?: number;
  /** Where people reach the UI, for links in e-mails and /status (default http://localhost:8080). */
  publicUrl?: string | null;
  notifier?: ChangeNotifier;
  extraHandlers?: Record<string, JobHandler<unknown>>;
};

export function compose(o: ComposeOptions): Services {
  const metrics = createMetrics();
  const flags = new FlagService({ db: o.db, clock: o.clock });
  const auth = new AuthService({ db: o.db, clock: o.clock, initializers: [(tx, ctx, orgId) => flags.initOrganization(tx, ctx, orgId)] });
  const flagRequests = new FlagRequestService({ db: o.db, clock: o.clock, flags });
  const sdkKeys = new SdkKeyService({ db: o.db, clock: o.clock });
  const catalogue = new CatalogueService({ db: o.db, clock: o.clock });
  const mappings = new MappingService({ db: o.db, clock: o.clock, catalogue });
  const blast = new BlastService({ db: o.db, clock: o.clock, catalogue, mappings });
  const notifier = o.notifier ?? silentNotifier;
  const changes = new ChangeService({ db: o.db, clock: o.clock, sealer: o.sealer, blast, mappings, notifier, baseUrl: () => o.publicUrl ?? 'http://localhost:8080' });
  const approvals = new ApprovalService({ db: o.db, clock: o.clock, changes, blast, mappings, catalogue, notifier });
  const changeSettings = new ChangeSettingsService({ db: o.db, clock: o.clock });
  const incidents = new IncidentService({ db: o.db, clock: o.clock, flags, sealer: o.sealer, outbound: o.outbound });
  // Later capabilities (expiry, window ends, deliveries) add their handlers here.
  const handlers: Record<string, JobHandler<unknown>> = { ...flagRequests.jobHandlers(), ...incidents.jobHandlers(), ...catalogue.jobHandlers(), ...changes.jobHandlers(), ...(o.extraHandlers ?? {}) };
  const worker = new JobWorker({ db: o.db, clock: o.clock, logger: o.logger, metrics, handlers, pollMs: o.workerPollMs ?? 1_000 });
  return { db: o.db, clock: o.clock, logger: o.logger, metrics, auth, flags, flagRequests, sdkKeys, incidents, catalogue, mappings, blast, changes, approvals, changeSettings, worker };
}
