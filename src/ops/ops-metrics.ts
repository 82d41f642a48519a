/**
 * Gauges a team alerts on (/metrics on the main listener), read from PostgreSQL at scrape time.
 *
 * Why src/ops/ and not platform/: DESIGN keeps domain words out of platform/, and these gauges
 * speak of changes, holds, deliveries and harvests. Why not inside one domain: they read the
 * tables of five of them (changes, alerts, deliveries, observed, ledger) plus the platform's jobs
 * table, so any one domain would have to reach above itself. Like compose.ts and app.ts this file
 * sits above every domain, imports only their index.ts (the status lists and limits, so nothing
 * drifts), and runs read-only aggregates over their tables: no rule is decided here and nothing is
 * written (DESIGN forbids writing another domain's tables, not an operations view reading them).
 *
 * All organisations together, no organisation label. Every process of a scale-out reads the same
 * database, so each reports the same values: alert on max without (instance), never on a sum.
 * A scrape whose read fails or takes longer than the budget keeps no sample of these gauges (the
 * rest of /metrics still answers), counts the failure and logs it once.
 */
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { CHANGE_STATUSES } from '../domains/changes/index.js';
import { LIMITS, PULL_KINDS } from '../domains/observed/index.js';
import type { Clock } from '../platform/clock.js';
import type { Queryable } from '../platform/db/database.js';

/** The deliveries table's channels (a callback to the pipeline, a step of the ticket). */
export const DELIVERY_KINDS = ['callback', 'ticket'] as const;
/** What is not delivered yet or never will be; `waiting` (behind an earlier ticket step) counts as pending, as the Pipeline card shows it. */
export const DELIVERY_STATES = ['pending', 'retrying', 'failed'] as const;
/** A scrape waits this long for the database, well inside Prometheus' default 10 s scrape timeout. */
export const OPS_READ_BUDGET_MS = 5_000;

/** Every name this file registers, for the dashboard and rules checks. */
export const OPS_METRIC_NAMES = [
  'changeledger_changes',
  'changeledger_pending_approvals',
  'changeledger_active_holds',
  'changeledger_held_alerts',
  'changeledger_deliveries',
  'changeledger_outbox_oldest_age_seconds',
  'changeledger_harvest_lag_seconds',
  'changeledger_harvest_interval_seconds',
  'changeledger_ledger_events',
  'changeledger_ops_metrics_read_failures_total',
] as const;

export type Harvest = { connection: string; name: string; kind: string; lagSeconds: number; intervalSeconds: number };

export type OpsSnapshot = {
  /** Planned changes per status, every status present (0 when none). */
  changes: Record<string, number>;
  /** Holds in place: active, or releasing (a finished change still holds until its release). */
  activeHolds: number;
  /** Alerts those holds hold now: not yet re-sent, counted recovered or kept by a release. */
  heldAlerts: number;
  deliveries: Array<{ kind: string; state: string; count: number }>;
  /** Seconds the oldest due, unclaimed job has waited; 0 when none waits. */
  outboxOldestAgeSeconds: number;
  harvests: Harvest[];
  /** Audit events in the ledger: the sum of every organisation's head (each chain is gap-free from 1). */
  ledgerEvents: number;
};

const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));

/** One scrape's read: a handful of aggregate statements, one after another (a scrape takes one connection). */
export async function readOpsSnapshot(db: Queryable, now: Date): Promise<OpsSnapshot> {
  const changes: Record<string, number> = Object.fromEntries(CHANGE_STATUSES.map((s) => [s, 0]));
  for (const r of (await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM changes GROUP BY status')).rows) changes[r.status] = Number(r.n);

  const holds = (await db.query<{ holds: number; held: number }>(
    `SELECT (SELECT count(*)::int FROM alert_holds WHERE state IN ('active', 'releasing')) AS holds,
            (SELECT count(*)::int FROM alert_holds a JOIN held_alerts h ON h.change_id = a.change_id
              WHERE a.state IN ('active', 'releasing') AND h.outcome = 'held') AS held`,
  )).rows[0]!;

  // Test sends from Settings are left out, as the deliveries lists leave them out.
  const counted = new Map((await db.query<{ kind: string; state: string; n: number }>(
    `SELECT channel AS kind, CASE WHEN state = 'waiting' THEN 'pending' ELSE state END AS state, count(*)::int AS n
     FROM deliveries WHERE state IN ('waiting', 'pending', 'retrying', 'failed') AND action IS DISTINCT FROM 'test'
     GROUP BY 1, 2`,
  )).rows.map((r) => [`${r.kind}/${r.state}`, Number(r.n)]));
  const deliveries = DELIVERY_KINDS.flatMap((kind) => DELIVERY_STATES.map((state) => ({ kind, state, count: counted.get(`${kind}/${state}`) ?? 0 })));

  // The worker's own due-job index (jobs_due_idx) answers this; "due" by the Clock, as the worker judges it.
  const oldest = (await db.query<{ run_at: Date | string | null }>(`SELECT min(run_at) AS run_at FROM jobs WHERE status = 'pending' AND run_at <= $1`, [now.toISOString()])).rows[0]?.run_at ?? null;

  // The connections a scheduled pull reads (pull kind, a credential, not opted out, interval not 0),
  // as pullableSources decides them. The 'scheduled' marker moves only when a pull succeeds; a
  // connection never pulled successfully lags since it was made.
  const harvests = (await db.query<{ id: string; name: string; kind: string; created_at: Date | string; succeeded_at: Date | string | null; interval: number }>(
    `SELECT s.id, s.name, s.kind, s.created_at, m.updated_at AS succeeded_at, COALESCE(o.pull_interval_seconds, $2) AS interval
     FROM change_sources s
     LEFT JOIN observed_settings o ON o.org_id = s.org_id
     LEFT JOIN change_source_markers m ON m.source_id = s.id AND m.name = 'scheduled'
     WHERE s.kind = ANY($1::text[]) AND s.credential_sealed IS NOT NULL AND s.pull_enabled AND COALESCE(o.pull_interval_seconds, $2) > 0
     ORDER BY s.id`,
    [[...PULL_KINDS], LIMITS.defaultIntervalSeconds],
  )).rows.map((r) => ({
    connection: r.id, name: r.name, kind: r.kind, intervalSeconds: Number(r.interval),
    lagSeconds: seconds(now.getTime() - new Date(r.succeeded_at ?? r.created_at).getTime()),
  }));

  const ledger = (await db.query<{ n: number }>('SELECT COALESCE(sum(seq), 0)::bigint AS n FROM audit_heads')).rows[0]!;

  return {
    changes, activeHolds: Number(holds.holds), heldAlerts: Number(holds.held), deliveries,
    outboxOldestAgeSeconds: oldest === null ? 0 : seconds(now.getTime() - new Date(oldest).getTime()),
    harvests, ledgerEvents: Number(ledger.n),
  };
}

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export type OpsMetricsDeps = { registry: Registry; db: Queryable; clock: Clock; logger: Logger; budgetMs?: number };

/** Registers the gauges on the server's registry; they read the database whenever /metrics is scraped. */
export function createOpsMetrics(deps: OpsMetricsDeps): void {
  const registers = [deps.registry];
  const failures = new Counter({
    name: 'changeledger_ops_metrics_read_failures_total', help: 'Scrapes whose database read for the operations gauges failed or timed out (those gauges then have no sample)', registers,
    // Waits for this scrape's read, so the scrape that failed already counts itself.
    async collect() {
      await snapshot();
    },
  });

  // The gauges of one scrape start their collect together (prom-client asks every metric at once):
  // they share one read, so a scrape costs one round of queries and sees one moment.
  // A read that outlives its budget is not started again by the next scrape, which waits on it instead:
  // a database that hangs is never asked twice at once by /metrics.
  let reading: Promise<OpsSnapshot> | null = null;
  const read = () => (reading ??= readOpsSnapshot(deps.db, deps.clock.now()).finally(() => {
    reading = null;
  }));
  let inflight: Promise<OpsSnapshot | null> | null = null;
  const snapshot = (): Promise<OpsSnapshot | null> => (inflight ??= within(read(), deps.budgetMs ?? OPS_READ_BUDGET_MS)
    .catch((err: unknown) => {
      failures.inc();
      deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'ops metrics: the database could not be read; this scrape has no changeledger_changes, holds, deliveries, outbox, harvest or ledger samples');
      return null;
    })
    .finally(() => {
      inflight = null;
    }));

  const gauge = <L extends string>(name: (typeof OPS_METRIC_NAMES)[number], help: string, labelNames: readonly L[], fill: (g: Gauge<L>, s: OpsSnapshot) => void) =>
    new Gauge<L>({
      name, help, labelNames, registers,
      async collect() {
        const s = await snapshot();
        // Set only after the read, so two scrapes at once never interleave a reset and a fill.
        this.reset();
        // reset() leaves a gauge without labels at 0: a failed read must leave no sample, not a false 0.
        if (s === null) this.remove({});
        else fill(this, s);
      },
    });

  gauge('changeledger_changes', 'Planned changes by status, all organisations', ['status'], (g, s) => {
    for (const [status, n] of Object.entries(s.changes)) g.set({ status }, n);
  });
  gauge('changeledger_pending_approvals', 'Changes waiting for approval (status pending_approval)', [], (g, s) => g.set(s.changes.pending_approval ?? 0));
  gauge('changeledger_active_holds', 'Alert holds in place now (active, or releasing after the change finished)', [], (g, s) => g.set(s.activeHolds));
  gauge('changeledger_held_alerts', 'Alerts held now by the holds in place (not yet re-sent or counted recovered at a release)', [], (g, s) => g.set(s.heldAlerts));
  gauge('changeledger_deliveries', 'Callbacks and ticket steps not delivered: pending (due or waiting its turn), retrying, failed (gave up)', ['kind', 'state'], (g, s) => {
    for (const d of s.deliveries) g.set({ kind: d.kind, state: d.state }, d.count);
  });
  gauge('changeledger_outbox_oldest_age_seconds', 'Seconds the oldest due job of the timer/outbox table has waited for a worker; 0 when none waits', [], (g, s) => g.set(s.outboxOldestAgeSeconds));
  gauge('changeledger_harvest_lag_seconds', 'Seconds since the last successful scheduled pull of each pulled change-source connection (since its creation if none succeeded)', ['connection', 'name', 'kind'], (g, s) => {
    for (const h of s.harvests) g.set({ connection: h.connection, name: h.name, kind: h.kind }, h.lagSeconds);
  });
  gauge('changeledger_harvest_interval_seconds', 'The scheduled pull interval of each pulled change-source connection (its organisation\'s setting)', ['connection', 'name', 'kind'], (g, s) => {
    for (const h of s.harvests) g.set({ connection: h.connection, name: h.name, kind: h.kind }, h.intervalSeconds);
  });
  gauge('changeledger_ledger_events', 'Audit events in the ledger, all organisations (the sum of each organisation\'s head seq)', [], (g, s) => g.set(s.ledgerEvents));
}
