import type { Logger } from 'pino';
import { AuthService } from './domains/auth/index.js';
import { FlagRequestService } from './domains/flags/flag-request-service.js';
import { FlagService } from './domains/flags/flag-service.js';
import { SdkKeyService } from './domains/flags/sdk-key-service.js';
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
  worker: JobWorker;
};

/** The only place that constructs services and workers. */
export function compose(o: { db: Database; clock: Clock; logger: Logger; workerPollMs?: number; extraHandlers?: Record<string, JobHandler<unknown>> }): Services {
  const metrics = createMetrics();
  const auth = new AuthService({ db: o.db, clock: o.clock });
  const flags = new FlagService({ db: o.db, clock: o.clock });
  const flagRequests = new FlagRequestService({ db: o.db, clock: o.clock, flags });
  const sdkKeys = new SdkKeyService({ db: o.db, clock: o.clock });
  // Later capabilities (expiry, window ends, deliveries) add their handlers here.
  const handlers: Record<string, JobHandler<unknown>> = { ...flagRequests.jobHandlers(), ...(o.extraHandlers ?? {}) };
  const worker = new JobWorker({ db: o.db, clock: o.clock, logger: o.logger, metrics, handlers, pollMs: o.workerPollMs ?? 1_000 });
  return { db: o.db, clock: o.clock, logger: o.logger, metrics, auth, flags, flagRequests, sdkKeys, worker };
}
