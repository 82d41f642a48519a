/**
 * `npm run bench -- evidence`: a 300-service change's metrics from Debian's Prometheus (2.42),
 * with a backfilled history (promtool): the window, the hour before and the week earlier.
 * (a) collectMetrics: one query per signal and span `by (job)`, 18 in all (goal ≤ 10 s).
 * (b) The baseline, measured side by side in the same run: the same 18 queries asked once per
 *     service (`{job="<service>"}`), through the same client at the same concurrency.
 * Printed with the ratio, p50 and max over the rounds. The figures are checked against the
 * backfilled values, so a fast wrong answer cannot pass. Runs without a database.
 */
import { existsSync } from 'node:fs';
import type { EvidenceWindow, ServiceRef } from '../src/domains/evidence/evidence-types.js';
import { createPrometheusClient } from '../src/domains/evidence/prometheus-client.js';
import { collectMetrics, QUERY_CONCURRENCY, seriesStep, SERIES_MIN_RANGE_SECONDS } from '../src/domains/evidence/prometheus-evidence.js';
import { fillTemplate, RED_PRESETS } from '../src/domains/evidence/red-templates.js';
import { createOutboundClient } from '../src/platform/net/outbound.js';
import { startPrometheusHistory, type RedProfile, type ServiceHistory } from '../test/support/prometheus-history.js';
import { busy, Cleanup, latencyStats, machine, parseOptions, positiveInt, say, seconds, seededRandom, table, UsageError } from './bench-support.js';

const USAGE = `usage: npm run bench -- evidence [options]
  --services N   services in the blast radius (default 300)
  --minutes N    the window's length, start → finish + horizon (default 30)
  --rounds N     timed rounds of each side (default 3)
Needs Debian's prometheus package (/usr/bin/prometheus and /usr/bin/promtool).`;

const GOAL_MS = 10_000;
const MIN = 60_000;

type Options = { services: number; minutes: number; rounds: number };

function options(args: string[]): Options {
  const { values, flags } = parseOptions(args, { values: ['services', 'minutes', 'rounds'], flags: ['help'] });
  if (flags.has('help')) throw new UsageError(USAGE);
  return {
    services: positiveInt('--services', values.get('services')) ?? 300,
    minutes: positiveInt('--minutes', values.get('minutes')) ?? 30,
    rounds: positiveInt('--rounds', values.get('rounds')) ?? 3,
  };
}

/** Deterministic, varied RED: rates 1–50 rps, errors 0–10 %, p95 60 ms–2 s. */
function profile(rand: () => number): RedProfile {
  return { rate: Math.round(1 + rand() * 49), errorRatio: Math.round(rand() * 100) / 1000, p95: Math.round(60 + rand() * 1940) / 1000 };
}

/** Puts `job="<service>"` into every selector of the OpenTelemetry metrics, as a per-service query would. */
function forService(query: string, service: string): string {
  return query.replace(/(http_server_request_duration_seconds_(?:count|bucket))(\{([^}]*)\})?/g, (_m, name: string, _b, inner: string | undefined) => `${name}{job="${service}"${inner ? `,${inner}` : ''}}`);
}

async function limited(tasks: Array<() => Promise<unknown>>, n: number): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, tasks.length) }, async () => {
    while (next < tasks.length) await tasks[next++]!();
  }));
}

export async function run(args: string[]): Promise<void> {
  const o = options(args);
  if (!existsSync('/usr/bin/prometheus') || !existsSync('/usr/bin/promtool')) throw new UsageError('evidence: Debian\'s prometheus package is not installed (apt-get install prometheus)');
  const cleanup = new Cleanup();
  try {
    const rand = seededRandom(14);
    const names = Array.from({ length: o.services }, (_, i) => `svc-${String(i).padStart(3, '0')}`);
    const histories: Record<string, ServiceHistory> = {};
    for (const n of names) histories[n] = { weekEarlier: profile(rand), hourBefore: profile(rand), window: profile(rand) };
    // The window ended five minutes ago: all of it backfilled, so every figure is known.
    const start = new Date(Math.floor((Date.now() - (o.minutes + 5) * MIN) / MIN) * MIN);
    const t0 = performance.now();
    const h = await startPrometheusHistory({ services: histories, windowStart: start, windowMinutes: o.minutes });
    cleanup.add('prometheus', () => h.stop());
    const setupMs = performance.now() - t0;

    const s = start.getTime();
    const end = s + o.minutes * MIN;
    const iso = (t: number) => new Date(t).toISOString();
    const w: EvidenceWindow = {
      start: iso(s), finish: iso(end), end: iso(end), evidenceMinutes: 0,
      hourBefore: { start: iso(s - 60 * MIN), end: iso(s) }, weekEarlier: { start: iso(s - 7 * 24 * 60 * MIN), end: iso(end - 7 * 24 * 60 * MIN) },
    };
    const services: ServiceRef[] = names.map((n, i) => ({ key: `svc:${n}`, name: n, role: i < 3 ? 'component' : 'neighbour' }));
    const outbound = createOutboundClient({ testOnlyAllowLoopback: true });
    const source = { id: 'evs_bench', name: 'bench', kind: 'prometheus' as const, url: h.url, auth: { kind: 'none' as const }, allowPrivate: false };
    const t = RED_PRESETS.otel;

    // (a) ours, checked against what was backfilled.
    const ours: number[] = [];
    let queries = 0;
    for (let r = 0; r < o.rounds; r += 1) {
      const a = performance.now();
      const part = await collectMetrics({ outbound }, source, services, w, t);
      ours.push(performance.now() - a);
      if (part.status !== 'measured') throw new Error(`collectMetrics did not measure: ${part.reason}`);
      queries = part.value.queries;
      for (const red of part.value.services) {
        const want = histories[red.name]!;
        const off = (got: number | null, exp: number) => got === null || Math.abs(got - exp) > 1e-6 * Math.max(1, exp);
        if (off(red.rate.window, want.window!.rate) || off(red.errorRatio.hourBefore, want.hourBefore.errorRatio) || off(red.p95.weekEarlier, want.weekEarlier.p95)) {
          throw new Error(`${red.name}: read ${JSON.stringify([red.rate.window, red.errorRatio.hourBefore, red.p95.weekEarlier])}, backfilled ${JSON.stringify([want.window!.rate, want.hourBefore.errorRatio, want.weekEarlier.p95])}`);
        }
      }
    }

    // (b) the baseline: the same 18 queries per service.
    const client = createPrometheusClient(outbound);
    const spans = [
      { at: new Date(end), range: (end - s) / 1000, offset: null as string | null, from: new Date(s), to: new Date(end) },
      { at: new Date(s), range: 3600, offset: null, from: new Date(s - 60 * MIN), to: new Date(s) },
      { at: new Date(end), range: (end - s) / 1000, offset: '1w', from: new Date(s), to: new Date(end) },
    ];
    const base: number[] = [];
    let baseQueries = 0;
    for (let r = 0; r < o.rounds; r += 1) {
      const tasks: Array<() => Promise<unknown>> = [];
      for (const n of names) {
        for (const q of Object.values(t.queries)) {
          for (const sp of spans) {
            const step = seriesStep(sp.range);
            const fill = (range: number) => forService(fillTemplate(q, { range: `${range}s`, offset: sp.offset, by: 'job' }), n);
            tasks.push(async () => {
              const a = await client.query(source, fill(sp.range), sp.at);
              if (!a.ok || a.value.length !== 1) throw new Error(`baseline ${n}: ${a.ok ? `${a.value.length} series` : a.reason}`);
            });
            tasks.push(() => client.queryRange(source, fill(Math.max(step, SERIES_MIN_RANGE_SECONDS)), sp.from, sp.to, step));
          }
        }
      }
      baseQueries = tasks.length;
      const a = performance.now();
      await limited(tasks, QUERY_CONCURRENCY);
      base.push(performance.now() - a);
    }

    const so = latencyStats(ours);
    const sb = latencyStats(base);
    say(`evidence: ${o.services} services' RED over a ${o.minutes}-minute window, the hour before and the week earlier (Debian Prometheus, backfilled and started in ${seconds(setupMs)})`);
    for (const line of machine()) say(line);
    say(`load average: ${busy()}; ${o.rounds} rounds each; ${QUERY_CONCURRENCY} queries in flight`);
    say();
    say(table(['side', 'PromQL queries', 'p50', 'max', 'goal'], [
      ['collectMetrics (by job)', String(queries), seconds(so.p50), seconds(so.max), `≤ ${seconds(GOAL_MS)}: ${so.max <= GOAL_MS ? 'met' : 'MISSED'}`],
      ['one query per service (baseline)', String(baseQueries), seconds(sb.p50), seconds(sb.max), ''],
    ]));
    say();
    say(`ratio: collectMetrics takes ${(so.p50 / sb.p50).toFixed(3)} of the baseline's time (${(sb.p50 / so.p50).toFixed(1)}× faster), with ${(baseQueries / queries).toFixed(0)}× fewer queries`);
  } finally {
    await cleanup.run();
  }
}
