import { OutboundFailed, OutboundRefused, type OutboundClient } from '../../platform/net/outbound.js';
import type { SourceAuth } from './evidence-sources-store.js';

/**
 * Prometheus' HTTP API (https://prometheus.io/docs/prometheus/latest/querying/api/), spoken through
 * the one outbound client: instant queries, range queries and the build information, answered in
 * its documented envelope `{status: "success" | "error", data | errorType + error}`. Nothing here
 * throws to a report: every failure becomes `{ok: false, reason}` in words a person reads
 * ("connection refused", "Prometheus answered 400: parse error …").
 */

export type PrometheusTarget = { url: string; auth: SourceAuth; allowPrivate: boolean };

/** One series of an instant vector; NaN and ±Inf (0/0, a quantile of nothing) are null: nobody measured them. */
export type VectorSample = { metric: Record<string, string>; value: number | null };
/** One series of a range query: [unix seconds, value] pairs. */
export type MatrixSeries = { metric: Record<string, string>; values: Array<[number, number | null]> };

export type PromAnswer<T> = { ok: true; value: T } | { ok: false; reason: string };

export type BuildInfo = { version: string; revision: string | null };

export type PrometheusClient = {
  query(t: PrometheusTarget, expr: string, time: Date): Promise<PromAnswer<VectorSample[]>>;
  queryRange(t: PrometheusTarget, expr: string, start: Date, end: Date, stepSeconds: number): Promise<PromAnswer<MatrixSeries[]>>;
  buildInfo(t: PrometheusTarget): Promise<PromAnswer<BuildInfo>>;
};

/**
 * A range query for 300 services × 60 steps answers a few MiB: more than the client's default
 * 256 KiB, which suits webhooks. Still a cap, so that a wrong URL cannot fill the memory.
 */
export const PROMETHEUS_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const MAX_REASON = 300;

function authHeader(auth: SourceAuth): Record<string, string> {
  if (auth.kind === 'bearer') return { authorization: `Bearer ${auth.token}` };
  if (auth.kind === 'basic') return { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`, 'utf8').toString('base64')}` };
  return {};
}

function words(err: unknown): string {
  if (err instanceof OutboundRefused) return err.message;
  if (err instanceof OutboundFailed) {
    if (err.kind === 'timeout') return `timed out after ${Math.max(1, Math.round(err.durationMs / 1000))} s`;
    if (/ECONNREFUSED/.test(err.message)) return 'connection refused';
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

const short = (s: string) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > MAX_REASON ? `${t.slice(0, MAX_REASON)}…` : t;
};

/** Prometheus writes numbers as strings: "1.5", "NaN", "+Inf". */
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

type Envelope = { status?: unknown; data?: unknown; errorType?: unknown; error?: unknown };

export function createPrometheusClient(outbound: OutboundClient): PrometheusClient {
  async function call(t: PrometheusTarget, path: string, form: Record<string, string> | null): Promise<PromAnswer<unknown>> {
    const base = t.url.replace(/\/+$/, '');
    let res;
    try {
      res = await outbound.request({
        method: form ? 'POST' : 'GET',
        url: `${base}${path}`,
        allowPrivate: t.allowPrivate,
        maxResponseBytes: PROMETHEUS_MAX_RESPONSE_BYTES,
        // Queries go as a form (POST): a query for many services may be longer than a URL may be.
        headers: { accept: 'application/json', ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...authHeader(t.auth) },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
    } catch (err) {
      return { ok: false, reason: words(err) };
    }
    if (res.truncated) return { ok: false, reason: `Prometheus answered more than ${PROMETHEUS_MAX_RESPONSE_BYTES / 1024 / 1024} MiB` };
    let body: Envelope | null = null;
    try {
      const parsed: unknown = JSON.parse(res.body);
      if (parsed && typeof parsed === 'object') body = parsed as Envelope;
    } catch {
      // not JSON: said below with the status
    }
    if (body?.status === 'error') {
      const what = typeof body.error === 'string' ? body.error : 'an error';
      return { ok: false, reason: short(`Prometheus answered ${res.status}: ${typeof body.errorType === 'string' ? `${body.errorType}: ` : ''}${what}`) };
    }
    if (res.status === 401 || res.status === 403) return { ok: false, reason: `Prometheus answered ${res.status}: check the credentials` };
    if (res.status < 200 || res.status >= 300) return { ok: false, reason: short(`Prometheus answered ${res.status}${res.body.trim() ? `: ${res.body}` : ''}`) };
    if (!body || body.status !== 'success') return { ok: false, reason: 'the answer is not Prometheus\' API JSON: is this the Prometheus URL?' };
    return { ok: true, value: body.data };
  }

  function resultOf(data: unknown, type: 'vector' | 'matrix'): unknown[] | string {
    const d = data as { resultType?: unknown; result?: unknown } | null;
    if (!d || d.resultType !== type || !Array.isArray(d.result)) {
      return `the query answered ${typeof d?.resultType === 'string' ? `a ${d.resultType}` : 'something else'}, not an instant vector`;
    }
    return d.result;
  }

  const labels = (m: unknown): Record<string, string> => (m && typeof m === 'object' ? m as Record<string, string> : {});

  return {
    async query(t, expr, time) {
      const a = await call(t, '/api/v1/query', { query: expr, time: String(time.getTime() / 1000) });
      if (!a.ok) return a;
      const r = resultOf(a.value, 'vector');
      if (typeof r === 'string') return { ok: false, reason: r };
      return {
        ok: true,
        value: r.map((x) => {
          const s = x as { metric?: unknown; value?: unknown[] };
          return { metric: labels(s.metric), value: num(Array.isArray(s.value) ? s.value[1] : undefined) };
        }),
      };
    },
    async queryRange(t, expr, start, end, stepSeconds) {
      const a = await call(t, '/api/v1/query_range', { query: expr, start: String(start.getTime() / 1000), end: String(end.getTime() / 1000), step: String(stepSeconds) });
      if (!a.ok) return a;
      const r = resultOf(a.value, 'matrix');
      if (typeof r === 'string') return { ok: false, reason: r.replace('an instant vector', 'a range vector') };
      return {
        ok: true,
        value: r.map((x) => {
          const s = x as { metric?: unknown; values?: unknown[] };
          const values = (Array.isArray(s.values) ? s.values : []).map((p) => {
            const pair = Array.isArray(p) ? p : [];
            return [Number(pair[0]), num(pair[1])] as [number, number | null];
          });
          return { metric: labels(s.metric), values };
        }),
      };
    },
    async buildInfo(t) {
      const a = await call(t, '/api/v1/status/buildinfo', null);
      if (!a.ok) return a;
      const d = a.value as { version?: unknown; revision?: unknown } | null;
      if (!d || typeof d.version !== 'string') return { ok: false, reason: 'the answer carries no Prometheus version: is this the Prometheus URL?' };
      return { ok: true, value: { version: d.version, revision: typeof d.revision === 'string' ? d.revision : null } };
    },
  };
}
