import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per running server, so tests can build many apps in one process. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'changeledger_' });
  return {
    registry,
    httpRequests: new Counter({
      name: 'changeledger_http_requests_total',
      help: 'HTTP requests answered, by listener, method, route and status',
      labelNames: ['listener', 'method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'changeledger_http_request_duration_seconds',
      help: 'Time to answer an HTTP request',
      labelNames: ['listener', 'route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    jobsRun: new Counter({
      name: 'changeledger_jobs_total',
      help: 'Timer and outbox jobs run, by kind and outcome (done, retry, dead)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
