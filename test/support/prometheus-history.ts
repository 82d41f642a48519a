import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPrometheus, type Prometheus, type PrometheusSettings } from './prometheus.js';

/**
 * Debian's Prometheus with a deterministic past: the hour before a change's window and the same
 * span a week earlier are backfilled (`promtool tsdb create-blocks-from openmetrics`), and a live
 * loopback exporter carries the series on from there, at the RED the test sets while the window runs.
 *
 *   const h = await startPrometheusHistory({ windowStart, windowMinutes: 20,
 *     services: { checkout: { hourBefore: HEALTHY, weekEarlier: HEALTHY } } });
 *   h.set('checkout', { ...HEALTHY, errorRatio: 0.2 });   // from now on, 20 % errors
 *   … h.url is the Prometheus to configure as an evidence source; await h.stop();
 *
 * A service's series carry `job="<service>"` (honoured by the scrape), in the OpenTelemetry HTTP
 * shape (`http_server_request_duration_seconds_count{http_response_status_code}` and `_bucket{le}`)
 * or the classic one (`http_requests_total{code}`, `http_request_duration_seconds_bucket{le}`).
 *
 * The figures are exact in PromQL: counters grow linearly at each span's rate, samples sit on a
 * grid aligned to the window's start, so rate() over a span of whole steps reads the rate back and
 * histogram_quantile(0.95) lands on the p95 asked (see bucketShares). Live figures are as exact as
 * the scrape timing allows (1 s scrapes).
 */

/** Requests per second, error ratio 0..1, p95 latency in seconds. */
export type RedProfile = { rate: number; errorRatio: number; p95: number };

export const HEALTHY: RedProfile = { rate: 10, errorRatio: 0.01, p95: 0.2 };
export const ERRORS: RedProfile = { rate: 10, errorRatio: 0.25, p95: 0.2 };
export const SLOW: RedProfile = { rate: 10, errorRatio: 0.01, p95: 1.5 };
/** No traffic: the series exist but do not grow (rate 0, error ratio and p95 NaN → not measured). */
export const IDLE: RedProfile = { rate: 0, errorRatio: 0, p95: 0.2 };

export type ServiceHistory = {
  hourBefore: RedProfile;
  weekEarlier: RedProfile;
  /** The window's RED until the test calls set(); the hour before's when left out. */
  window?: RedProfile;
};

export type HistoryShape = 'otel' | 'classic';

export type HistoryOptions = {
  /** By service-label value (the catalogue service's name, in the tests). */
  services: Record<string, ServiceHistory>;
  /** When the change's window starts (default: now). The hour before ends there; a start in the past backfills the window too. */
  windowStart?: Date;
  /** The window's length, start → finish + horizon: how much of the week earlier to backfill. */
  windowMinutes: number;
  shape?: HistoryShape;
  /** Backfilled samples are this far apart (default 60 s). */
  stepSeconds?: number;
  /** More of Prometheus: the flip exporter's targets, alert rules, Alertmanagers (see prometheus.ts). */
  prometheus?: Partial<PrometheusSettings>;
};

export type PrometheusHistory = {
  prometheus: Prometheus;
  /** Prometheus' base URL, for an evidence source. */
  url: string;
  windowStart: Date;
  /** The live exporter's scrape target (host:port). */
  target: string;
  /** From now on this service serves this RED (a new service starts its series now). */
  set(service: string, profile: RedProfile): void;
  /** How many times Prometheus scraped the live exporter: wait for one after a set(). */
  scrapes(): number;
  /** Waits until Prometheus has scraped the exporter `n` more times. */
  waitForScrapes(n?: number): Promise<void>;
  stop(): Promise<void>;
};

/** Upper bounds of the latency buckets, in seconds; the first is tiny so that a p95 never falls in it. */
export const BUCKETS = [0.005, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/**
 * The share of requests at or below each bucket's bound (cumulative, like `le`), chosen so that
 * Prometheus' histogram_quantile(0.95) — linear inside the bucket where rank 0.95 falls — answers
 * exactly `p95`. With lo < p95 ≤ hi and t = (p95 − lo)/(hi − lo): a share c sits in the first
 * bucket, the rest f in [lo, hi], so that c + t·f = 0.95; when t > 0.95 nothing sits below lo and
 * the remainder goes to +Inf.
 */
export function bucketShares(p95: number): number[] {
  const i = BUCKETS.findIndex((b) => p95 <= b);
  if (i < 1) throw new Error(`p95 ${p95} s must be above ${BUCKETS[0]} s and at most ${BUCKETS.at(-1)} s`);
  const lo = BUCKETS[i - 1]!;
  const t = (p95 - lo) / (BUCKETS[i]! - lo);
  const [c, f] = t <= 0.95 ? [(0.95 - t) / (1 - t), 1 - (0.95 - t) / (1 - t)] : [0, 0.95 / t];
  return BUCKETS.map((_, k) => (k < i ? c : c + f));
}

type Counters = { ok: number; errors: number; buckets: number[] };

/** One service's counters, grown by `seconds` at a profile's rates. A large start keeps rate()'s zero-point rule out of play. */
function grow(c: Counters, p: RedProfile, seconds: number): Counters {
  const n = p.rate * seconds;
  const shares = bucketShares(p.p95);
  return { ok: c.ok + n * (1 - p.errorRatio), errors: c.errors + n * p.errorRatio, buckets: c.buckets.map((b, k) => b + n * shares[k]!) };
}
const START = (): Counters => ({ ok: 1e6, errors: 1e6, buckets: BUCKETS.map(() => 1e6) });

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/** The lines of one service's counters, with an optional timestamp (seconds) for OpenMetrics. */
function lines(shape: HistoryShape, service: string, c: Counters, at: number | null): string[] {
  const ts = at === null ? '' : ` ${at}`;
  const job = `job="${esc(service)}"`;
  const total = c.ok + c.errors;
  const count = shape === 'otel' ? 'http_server_request_duration_seconds_count' : 'http_requests_total';
  const code = shape === 'otel' ? 'http_response_status_code' : 'code';
  const bucket = shape === 'otel' ? 'http_server_request_duration_seconds_bucket' : 'http_request_duration_seconds_bucket';
  return [
    `${count}{${job},${code}="200"} ${c.ok}${ts}`,
    `${count}{${job},${code}="500"} ${c.errors}${ts}`,
    ...BUCKETS.map((b, k) => `${bucket}{${job},le="${b}"} ${c.buckets[k]}${ts}`),
    `${bucket}{${job},le="+Inf"} ${total}${ts}`,
  ];
}

function header(shape: HistoryShape): string[] {
  return shape === 'otel'
    ? ['# TYPE http_server_request_duration_seconds histogram']
    : ['# TYPE http_requests counter', '# TYPE http_request_duration_seconds histogram'];
}

/** Minutes of samples before each backfilled span, so that every range selector finds its first sample. */
const MARGIN_MINUTES = 10;

/**
 * Writes the OpenMetrics file of the backfill and runs promtool on it. Answers the counters as
 * they stand at `until` (the live exporter goes on from there). Written series by series, each in
 * time order, as promtool wants.
 */
function backfill(o: Required<Pick<HistoryOptions, 'services' | 'windowMinutes' | 'shape' | 'stepSeconds'>> & { start: number; until: number }, dataDir: string): Map<string, Counters> {
  const tmp = mkdtempSync(join(tmpdir(), 'changeledger-backfill-'));
  const file = join(tmp, 'history.om');
  const out: string[] = [...header(o.shape)];
  const at = new Map<string, Counters>();
  const step = o.stepSeconds;
  const week = 7 * 24 * 3600;
  const weekFrom = o.start - week - MARGIN_MINUTES * 60;
  const weekTo = o.start - week + (o.windowMinutes + MARGIN_MINUTES) * 60;
  const nearFrom = o.start - (60 + MARGIN_MINUTES) * 60;
  for (const [service, h] of Object.entries(o.services)) {
    // The week earlier: its own counters (a week of silence between is no reset).
    let c = START();
    for (let t = weekFrom; t <= weekTo; t += step) {
      if (t > weekFrom) c = grow(c, h.weekEarlier, step);
      out.push(...lines(o.shape, service, c, t));
    }
    // The hour before, then the window's past up to `until`; a step is grown at the profile of its end.
    c = START();
    for (let t = nearFrom; t <= o.until; t += step) {
      if (t > nearFrom) c = grow(c, t <= o.start ? h.hourBefore : (h.window ?? h.hourBefore), step);
      out.push(...lines(o.shape, service, c, t));
    }
    at.set(service, c);
    if (out.length > 50_000) flush(file, out);
  }
  out.push('# EOF');
  flush(file, out);
  mkdirSync(dataDir, { recursive: true });
  execFileSync('/usr/bin/promtool', ['tsdb', 'create-blocks-from', 'openmetrics', file, dataDir], { stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  rmSync(tmp, { recursive: true, force: true });
  return at;
}

/** Appends what is gathered to the file (synchronously: this is test set-up, and promtool reads the file next). */
function flush(file: string, out: string[]): void {
  appendFileSync(file, `${out.join('\n')}\n`);
  out.length = 0;
}

type LiveService = { counters: Counters; at: number; profile: RedProfile; next: RedProfile | null };

/**
 * Backfills the history, starts the live exporter and Prometheus (30 d retention, so that the week
 * earlier stays), and answers once Prometheus has scraped the exporter once.
 */
export async function startPrometheusHistory(o: HistoryOptions): Promise<PrometheusHistory> {
  const shape = o.shape ?? 'otel';
  const stepSeconds = o.stepSeconds ?? 60;
  const windowStart = o.windowStart ?? new Date();
  const start = Math.floor(windowStart.getTime() / 1000);
  // Backfill on the step grid up to a little before now: the live exporter's scrapes come after.
  const now = Math.floor(Date.now() / 1000) - 5;
  const until = start + Math.floor((now - start) / stepSeconds) * stepSeconds;
  const services = o.services;
  let counters = new Map<string, Counters>();

  const live = new Map<string, LiveService>();
  let scrapes = 0;
  const advance = (s: LiveService, to: number) => {
    // Before the window's start the hour before's RED goes on; the window's applies from its start.
    if (s.next && s.at < start && to > start) {
      s.counters = grow(s.counters, s.profile, start - s.at);
      s.at = start;
      s.profile = s.next;
      s.next = null;
    }
    if (s.next && s.at >= start) {
      s.profile = s.next;
      s.next = null;
    }
    if (to > s.at) s.counters = grow(s.counters, s.profile, to - s.at);
    s.at = Math.max(s.at, to);
  };
  const server: Server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    scrapes += 1;
    const t = Date.now() / 1000;
    const out = [...header(shape)];
    for (const [name, s] of live) {
      advance(s, t);
      out.push(...lines(shape, name, s.counters, null));
    }
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    // Classic text format: the OpenMetrics TYPE lines read the same there, and no # EOF is needed.
    res.end(`${out.filter((l) => !l.startsWith('# EOF')).join('\n')}\n`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const target = `127.0.0.1:${(server.address() as { port: number }).port}`;

  const extra = o.prometheus ?? {};
  let prometheus: Prometheus;
  try {
    prometheus = await startPrometheus(
      { scrape: extra.scrape ?? [], rules: extra.rules ?? [], alertmanagers: extra.alertmanagers ?? [], ...(extra.group ? { group: extra.group } : {}), jobs: [...(extra.jobs ?? []), { name: 'red', targets: [target], honorLabels: true }] },
      {
        retention: '30d',
        prepareData: (dataDir) => {
          counters = backfill({ services, windowMinutes: o.windowMinutes, shape, stepSeconds, start, until }, dataDir);
        },
      },
    );
  } catch (e) {
    server.close();
    throw e;
  }
  for (const [name, h] of Object.entries(services)) {
    const at = until;
    const profile = at < start ? h.hourBefore : (h.window ?? h.hourBefore);
    live.set(name, { counters: counters.get(name) ?? START(), at, profile, next: at < start ? (h.window ?? null) : null });
  }

  const waitForScrapes = async (n = 1) => {
    const goal = scrapes + n;
    const deadline = Date.now() + 60_000;
    while (scrapes < goal) {
      if (Date.now() > deadline) throw new Error(`prometheus did not scrape the RED exporter ${n} more time(s) in 60 s\n${prometheus.logs().slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  // One scrape to record the live series; a second so that the first scrape's samples are committed.
  await waitForScrapes(2);
  return {
    prometheus,
    url: prometheus.url,
    windowStart,
    target,
    set(service, profile) {
      bucketShares(profile.p95);
      const t = Date.now() / 1000;
      const s = live.get(service);
      if (!s) {
        live.set(service, { counters: START(), at: t, profile, next: null });
        return;
      }
      advance(s, t);
      s.profile = profile;
      s.next = null;
    },
    scrapes: () => scrapes,
    waitForScrapes,
    async stop() {
      await prometheus.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
