import type { OutboundClient } from '../../platform/net/outbound.js';
import type { Compared, ComparedSeries, EvidenceWindow, Figure, MetricsPart, RedSignal, Series, ServiceRed, ServiceRef, SourceRef } from './evidence-types.js';
import type { PrometheusSource } from './evidence-sources-store.js';
import { createPrometheusClient, type MatrixSeries, type PromAnswer, type PrometheusClient, type VectorSample } from './prometheus-client.js';
import { fillTemplate, type RedQueries, type RedTemplates } from './red-templates.js';

/**
 * A change's RED from one Prometheus. ONE query per signal and span answers every service at once
 * (`sum by (<service label>)`): 3 signals × 3 spans instant queries for the figures, and as many
 * range queries for the sparklines, 18 in all however large the blast radius — where asking per
 * service would make 18 per service (bench/evidence.ts measures both). A service with its own
 * queries (catalogue attrs.prometheus) costs its own 18.
 *
 * Label values name services case-insensitively: a value matches the service whose catalogue
 * name, or key, it equals, or whose name equals its last "/" segment (OpenTelemetry's job is
 * `<service.namespace>/<service.name>`); a catalogue `attrs.prometheus.label` says another value.
 * A service no series names has null figures ("—"); an unreachable Prometheus makes the whole
 * part not measured, with the reason.
 */

type SpanName = 'window' | 'hourBefore' | 'weekEarlier';
const SPANS: SpanName[] = ['window', 'hourBefore', 'weekEarlier'];
const SIGNALS: RedSignal[] = ['rate', 'errorRatio', 'p95'];

/** A sparkline has about this many points: enough to see a step, few enough for 300 services in one answer. */
export const SERIES_POINTS = 60;
/** rate() needs two samples in its range: two minutes cover a one-minute scrape interval. */
export const SERIES_MIN_RANGE_SECONDS = 120;
/** Queries in flight at once against one Prometheus. */
export const QUERY_CONCURRENCY = 6;

type SpanPlan = { evalAt: Date; rangeSeconds: number; offset: string | null; from: Date; to: Date };

const secs = (a: string, b: string) => Math.max(1, Math.round((Date.parse(b) - Date.parse(a)) / 1000));

function plan(w: EvidenceWindow): Record<SpanName, SpanPlan> {
  const windowSeconds = secs(w.start, w.end);
  return {
    window: { evalAt: new Date(w.end), rangeSeconds: windowSeconds, offset: null, from: new Date(w.start), to: new Date(w.end) },
    hourBefore: { evalAt: new Date(w.hourBefore.end), rangeSeconds: secs(w.hourBefore.start, w.hourBefore.end), offset: null, from: new Date(w.hourBefore.start), to: new Date(w.hourBefore.end) },
    // The same span a week earlier, read with PromQL's own `offset 1w` at the window's times: its series line up with the window's.
    weekEarlier: { evalAt: new Date(w.end), rangeSeconds: windowSeconds, offset: '1w', from: new Date(w.start), to: new Date(w.end) },
  };
}

/** The sparkline step for a span of this length, whole seconds. */
export function seriesStep(spanSeconds: number): number {
  return Math.max(1, Math.ceil(spanSeconds / SERIES_POINTS));
}

async function limited<T>(tasks: Array<() => Promise<T>>, n: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, tasks.length) }, async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  }));
  return out;
}

/** Which service a label value names, per the rule above; null when none. */
export function serviceMatcher(services: ServiceRef[], overrides: RedTemplates['perService'] = {}): (value: string) => ServiceRef | null {
  const exact = new Map<string, ServiceRef>();
  const byName = new Map<string, ServiceRef>();
  const byKey = new Map<string, ServiceRef>();
  for (const s of services) {
    const o = overrides[s.key.toLowerCase()];
    if (o?.label) exact.set(o.label.toLowerCase(), s);
    if (!byName.has(s.name.toLowerCase())) byName.set(s.name.toLowerCase(), s);
    byKey.set(s.key.toLowerCase(), s);
  }
  return (value) => {
    const v = value.toLowerCase();
    const last = v.slice(v.lastIndexOf('/') + 1);
    return exact.get(v) ?? byName.get(v) ?? byKey.get(v) ?? (last !== v ? byName.get(last) ?? null : null);
  };
}

type Run = { client: PrometheusClient; source: PrometheusSource; count: number };

function ask<T>(run: Run, f: (c: PrometheusClient) => Promise<PromAnswer<T>>): () => Promise<PromAnswer<T>> {
  return () => {
    run.count += 1;
    return f(run.client);
  };
}

function emptySeries(p: SpanPlan, step: number): Series {
  const n = Math.floor((p.to.getTime() - p.from.getTime()) / 1000 / step) + 1;
  return { stepSeconds: step, start: p.from.toISOString(), values: new Array<Figure>(n).fill(null) };
}

function toSeries(p: SpanPlan, step: number, s: MatrixSeries | undefined): Series {
  const out = emptySeries(p, step);
  if (!s) return out;
  const from = p.from.getTime() / 1000;
  for (const [t, v] of s.values) {
    const i = Math.round((t - from) / step);
    if (i >= 0 && i < out.values.length) out.values[i] = v;
  }
  return out;
}

type Answers = {
  figures: Record<RedSignal, Record<SpanName, Map<string, Figure>>>;
  series: Record<RedSignal, Record<SpanName, Map<string, MatrixSeries>>> | null;
};

/**
 * Runs the 18 queries of one template set; `keyOf` says which service a series is about. The
 * first failure of a figure query makes the answer a reason; a failed range query only drops the
 * sparklines.
 */
async function runSet(run: Run, w: EvidenceWindow, queries: RedQueries, by: string | null, keyOf: (metric: Record<string, string>) => string | null): Promise<PromAnswer<Answers>> {
  const spans = plan(w);
  const figureTasks: Array<() => Promise<PromAnswer<VectorSample[]>>> = [];
  const rangeTasks: Array<() => Promise<PromAnswer<MatrixSeries[]>>> = [];
  for (const sig of SIGNALS) {
    for (const sp of SPANS) {
      const p = spans[sp];
      const step = seriesStep(p.rangeSeconds);
      const fill = (range: number) => fillTemplate(queries[sig], { range: `${range}s`, offset: p.offset, by: by ?? '' });
      figureTasks.push(ask(run, (c) => c.query(run.source, fill(p.rangeSeconds), p.evalAt)));
      rangeTasks.push(ask(run, (c) => c.queryRange(run.source, fill(Math.max(step, SERIES_MIN_RANGE_SECONDS)), p.from, p.to, step)));
    }
  }
  const [figs, ranges] = await Promise.all([limited(figureTasks, QUERY_CONCURRENCY), limited(rangeTasks, QUERY_CONCURRENCY)]);
  const figures = {} as Answers['figures'];
  const series = {} as NonNullable<Answers['series']>;
  let seriesOk = true;
  let i = 0;
  for (const sig of SIGNALS) {
    figures[sig] = {} as Record<SpanName, Map<string, Figure>>;
    series[sig] = {} as Record<SpanName, Map<string, MatrixSeries>>;
    for (const sp of SPANS) {
      const f = figs[i]!;
      const r = ranges[i]!;
      i += 1;
      if (!f.ok) return { ok: false, reason: `${sig === 'errorRatio' ? 'error ratio' : sig === 'p95' ? 'p95 latency' : 'request rate'}, ${sp === 'window' ? 'the window' : sp === 'hourBefore' ? 'the hour before' : 'the week earlier'}: ${f.reason}` };
      const m = new Map<string, Figure>();
      for (const s of f.value) {
        const k = keyOf(s.metric);
        if (k !== null && !m.has(k)) m.set(k, s.value);
      }
      figures[sig][sp] = m;
      const rm = new Map<string, MatrixSeries>();
      if (r.ok) {
        for (const s of r.value) {
          const k = keyOf(s.metric);
          if (k !== null && !rm.has(k)) rm.set(k, s);
        }
      } else seriesOk = false;
      series[sig][sp] = rm;
    }
  }
  return { ok: true, value: { figures, series: seriesOk ? series : null } };
}

function redOf(s: ServiceRef, a: Answers, w: EvidenceWindow): ServiceRed {
  const spans = plan(w);
  const compared = (sig: RedSignal): Compared => ({
    window: a.figures[sig].window.get(s.key) ?? null,
    hourBefore: a.figures[sig].hourBefore.get(s.key) ?? null,
    weekEarlier: a.figures[sig].weekEarlier.get(s.key) ?? null,
  });
  let series: ServiceRed['series'] = null;
  if (a.series) {
    const all = a.series;
    const of = (sig: RedSignal): ComparedSeries => ({
      window: toSeries(spans.window, seriesStep(spans.window.rangeSeconds), all[sig].window.get(s.key)),
      weekEarlier: toSeries(spans.weekEarlier, seriesStep(spans.weekEarlier.rangeSeconds), all[sig].weekEarlier.get(s.key)),
      hourBefore: toSeries(spans.hourBefore, seriesStep(spans.hourBefore.rangeSeconds), all[sig].hourBefore.get(s.key)),
    });
    series = { rate: of('rate'), errorRatio: of('errorRatio'), p95: of('p95') };
  }
  return { key: s.key, name: s.name, role: s.role, rate: compared('rate'), errorRatio: compared('errorRatio'), p95: compared('p95'), series };
}

const NOTHING: Answers = {
  figures: Object.fromEntries(SIGNALS.map((g) => [g, Object.fromEntries(SPANS.map((p) => [p, new Map()]))])) as Answers['figures'],
  series: null,
};

/** The RED of every service of the blast radius from one Prometheus, compared with both baselines. Never throws. */
export async function collectMetrics(
  deps: { outbound: OutboundClient }, source: PrometheusSource, services: ServiceRef[], window: EvidenceWindow, templates: RedTemplates,
): Promise<MetricsPart> {
  const ref: SourceRef = { id: source.id, kind: 'prometheus', name: source.name };
  const run: Run = { client: createPrometheusClient(deps.outbound), source, count: 0 };
  try {
    const perService = templates.perService ?? {};
    const own = services.filter((s) => perService[s.key.toLowerCase()]?.queries);
    const shared = services.filter((s) => !perService[s.key.toLowerCase()]?.queries);
    const match = serviceMatcher(shared, perService);
    const label = templates.serviceLabel;
    const main = shared.length === 0 ? { ok: true as const, value: NOTHING } : await runSet(run, window, templates.queries, label, (m) => {
      const v = m[label];
      return v === undefined ? null : match(v)?.key ?? null;
    });
    if (!main.ok) return { source: ref, status: 'not_measured', reason: main.reason };
    const reds = new Map<string, ServiceRed>();
    for (const s of shared) reds.set(s.key, redOf(s, main.value, window));
    for (const s of own) {
      // Its own queries answer one series (no $by): whatever they answer is about this service.
      const a = await runSet(run, window, perService[s.key.toLowerCase()]!.queries!, null, () => s.key);
      reds.set(s.key, redOf(s, a.ok ? a.value : NOTHING, window));
    }
    return {
      source: ref,
      status: 'measured',
      value: { templates: own.length > 0 ? 'custom' : templates.name, queries: run.count, services: services.map((s) => reds.get(s.key)!) },
    };
  } catch (err) {
    // Nothing above should throw; if it does, the report says so instead of failing the collection.
    return { source: ref, status: 'not_measured', reason: err instanceof Error ? err.message : String(err) };
  }
}
