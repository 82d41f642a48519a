import type { OutboundClient, OutboundResponse } from '../../platform/net/outbound.js';
import { answered, authHeader, outboundReason } from './log-http.js';
import type { LogSource, LogSourceTest } from './log-source-config.js';
import { LOG_MAX_RESPONSE_BYTES } from './log-span.js';

/**
 * Grafana Loki's HTTP API, through the one outbound client. The shapes are the documented ones
 * (https://grafana.com/docs/loki/latest/reference/loki-http-api/):
 * - GET /loki/api/v1/status/buildinfo → {version, revision, branch, …}
 * - GET /loki/api/v1/labels → {status: "success", data: [label names]}
 * - GET /loki/api/v1/query (instant, a metric query) → {status, data: {resultType: "vector",
 *   result: [{metric: {labels}, value: [<unix seconds>, "<value>"]}]}}
 * - GET /loki/api/v1/query_range (a log query) → {status, data: {resultType: "streams",
 *   result: [{stream: {labels}, values: [["<unix nanoseconds>", "<line>"]]}]}}
 * Every failure becomes a LokiError whose message a person reads beside the report's logs part.
 */

export type LokiTarget = Extract<LogSource, { kind: 'loki' }>;
export type LokiSample = { labels: Record<string, string>; value: number };
export type LokiLine = { labels: Record<string, string>; atNs: string; line: string };

export class LokiError extends Error {}

export type LokiClient = {
  buildinfo(t: LokiTarget): Promise<{ version: string | null }>;
  labels(t: LokiTarget, startNs?: string, endNs?: string): Promise<string[]>;
  /** An instant metric query evaluated at `timeSeconds`. */
  query(t: LokiTarget, logql: string, timeSeconds: number): Promise<LokiSample[]>;
  /** A log query over [startNs, endNs), newest first, at most `limit` lines. */
  lines(t: LokiTarget, logql: string, startNs: string, endNs: string, limit: number): Promise<LokiLine[]>;
  test(t: LokiTarget): Promise<LogSourceTest>;
};

export function createLokiClient(outbound: OutboundClient): LokiClient {
  async function get(t: LokiTarget, path: string, params: Record<string, string> = {}): Promise<unknown> {
    const qs = new URLSearchParams(params).toString();
    let res: OutboundResponse;
    try {
      res = await outbound.request({
        method: 'GET', url: `${t.url.replace(/\/+$/, '')}${path}${qs ? `?${qs}` : ''}`, allowPrivate: t.allowPrivate, maxResponseBytes: LOG_MAX_RESPONSE_BYTES,
        headers: { accept: 'application/json', ...authHeader(t.auth) },
      });
    } catch (err) {
      throw new LokiError(outboundReason(err));
    }
    if (res.status < 200 || res.status >= 300) throw new LokiError(answered('Loki', res));
    if (res.truncated) throw new LokiError('Loki answered more than this server reads in one answer');
    try {
      return JSON.parse(res.body) as unknown;
    } catch {
      throw new LokiError(`Loki answered ${res.status} with something that is not JSON`);
    }
  }

  function data(body: unknown, resultType: string): unknown[] {
    const b = body as { status?: string; data?: { resultType?: string; result?: unknown } };
    if (b?.status !== 'success' || !b.data) throw new LokiError('Loki answered without status "success"');
    if (b.data.resultType !== resultType || !Array.isArray(b.data.result)) throw new LokiError(`Loki answered a ${String(b.data.resultType)} where a ${resultType} was asked for`);
    return b.data.result;
  }

  const client: LokiClient = {
    async buildinfo(t) {
      const b = (await get(t, '/loki/api/v1/status/buildinfo')) as { version?: unknown };
      return { version: typeof b?.version === 'string' ? b.version : null };
    },

    async labels(t, startNs, endNs) {
      const b = (await get(t, '/loki/api/v1/labels', { ...(startNs ? { start: startNs } : {}), ...(endNs ? { end: endNs } : {}) })) as { status?: string; data?: unknown };
      if (b?.status !== 'success' || !Array.isArray(b.data)) throw new LokiError('Loki answered labels that are not a list');
      return b.data.filter((x): x is string => typeof x === 'string');
    },

    async query(t, logql, timeSeconds) {
      const result = data(await get(t, '/loki/api/v1/query', { query: logql, time: String(timeSeconds) }), 'vector');
      return result.map((r) => {
        const s = r as { metric?: Record<string, string>; value?: [number, string] };
        return { labels: s.metric ?? {}, value: Number(s.value?.[1]) };
      }).filter((s) => Number.isFinite(s.value));
    },

    async lines(t, logql, startNs, endNs, limit) {
      const result = data(await get(t, '/loki/api/v1/query_range', { query: logql, start: startNs, end: endNs, limit: String(limit), direction: 'backward' }), 'streams');
      const out: LokiLine[] = [];
      for (const r of result) {
        const s = r as { stream?: Record<string, string>; values?: Array<[string, string]> };
        for (const v of s.values ?? []) if (Array.isArray(v) && typeof v[1] === 'string') out.push({ labels: s.stream ?? {}, atNs: String(v[0]), line: v[1] });
      }
      return out;
    },

    async test(t) {
      try {
        // buildinfo is answered by Loki 2.x and later; a gateway may not pass it: the labels decide.
        let version: string | null = null;
        try {
          version = (await client.buildinfo(t)).version;
        } catch {
          version = null;
        }
        const labels = await client.labels(t);
        const has = labels.includes(t.config.serviceLabel);
        const message = has
          ? `Loki${version ? ` ${version}` : ''} answered; its streams carry the label ${t.config.serviceLabel}`
          : `Loki${version ? ` ${version}` : ''} answered, but no stream of the last hours carries the label ${t.config.serviceLabel} (it has ${labels.slice(0, 10).join(', ') || 'no labels'})`;
        return { ok: has, message, ...(version ? { version } : {}) };
      } catch (err) {
        return { ok: false, message: err instanceof Error ? err.message : String(err) };
      }
    },
  };
  return client;
}
