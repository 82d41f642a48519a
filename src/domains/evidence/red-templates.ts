/**
 * The PromQL behind request rate, error ratio and p95 latency (RED). A template is a query with
 * three placeholders, filled in at collection:
 *   `$range`  the span's length as a PromQL duration (`75m`, or a series' step),
 *   `$offset` `offset 1w` for the week-earlier baseline, empty otherwise — put it right after every
 *             range selector, where PromQL wants an offset,
 *   `$by`     the service label, so that ONE query answers every service (`sum by ($by) (…)`).
 * Rate is requests per second, error ratio 0..1, p95 in seconds.
 *
 * Which label names the service: `job`, for both presets. The OpenTelemetry → Prometheus mapping
 * (OpenTelemetry specification, "Prometheus and OpenMetrics Compatibility": resource attributes)
 * turns `service.name` into `job` — `<service.namespace>/<service.name>` when a namespace is set —
 * and `service.instance.id` into `instance`; `service_name` only exists where someone copied the
 * resource attribute onto every point. Classic client libraries get `job` from the scrape, which
 * the Prometheus Operator sets to the Kubernetes Service's name. An organisation whose services
 * carry another label says so in its own templates (`serviceLabel`).
 */
import type { RedSignal } from './evidence-types.js';

export type RedPreset = 'otel' | 'classic';

export type RedQueries = Record<RedSignal, string>;

/** How one service of the catalogue differs: another label value, or its own queries (no `$by`). */
export type ServiceOverride = { label?: string; queries?: RedQueries };

export type RedTemplates = {
  /** Which templates run: a preset, or the organisation's own. */
  name: RedPreset | 'custom';
  serviceLabel: string;
  queries: RedQueries;
  /** By service key (lower case): from the catalogue entity's attrs.prometheus. */
  perService?: Record<string, ServiceOverride>;
};

/**
 * The error ratio's numerator is `or`-ed with the denominator times 0: a service that answered no
 * 5xx at all has no 5xx series, and "no series" would read as "not measured" instead of 0 %.
 */
function errorRatio(total: string, errors: string): string {
  return `(sum by ($by) (rate(${errors}[$range] $offset)) or sum by ($by) (rate(${total}[$range] $offset)) * 0)`
    + ` / sum by ($by) (rate(${total}[$range] $offset))`;
}

const OTEL_COUNT = 'http_server_request_duration_seconds_count';
const CLASSIC_COUNT = 'http_requests_total';

export const RED_PRESETS: Record<RedPreset, RedTemplates> = {
  /** OpenTelemetry HTTP semantic conventions: the `http.server.request.duration` histogram, in seconds. */
  otel: {
    name: 'otel',
    serviceLabel: 'job',
    queries: {
      rate: `sum by ($by) (rate(${OTEL_COUNT}[$range] $offset))`,
      errorRatio: errorRatio(OTEL_COUNT, `${OTEL_COUNT}{http_response_status_code=~"5.."}`),
      p95: 'histogram_quantile(0.95, sum by ($by, le) (rate(http_server_request_duration_seconds_bucket[$range] $offset)))',
    },
  },
  /** The classic client libraries: `http_requests_total{code}` and `http_request_duration_seconds`. */
  classic: {
    name: 'classic',
    serviceLabel: 'job',
    queries: {
      rate: `sum by ($by) (rate(${CLASSIC_COUNT}[$range] $offset))`,
      errorRatio: errorRatio(CLASSIC_COUNT, `${CLASSIC_COUNT}{code=~"5.."}`),
      p95: 'histogram_quantile(0.95, sum by ($by, le) (rate(http_request_duration_seconds_bucket[$range] $offset)))',
    },
  },
};

export const DEFAULT_RED_TEMPLATES: RedTemplates = RED_PRESETS.otel;

export const MAX_TEMPLATE_LENGTH = 2000;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SIGNALS: RedSignal[] = ['rate', 'errorRatio', 'p95'];

/** Fills a template for one span: `offset` is a PromQL duration (`1w`) or null. */
export function fillTemplate(template: string, t: { range: string; offset: string | null; by: string }): string {
  return template
    .replaceAll('$range', t.range)
    .replaceAll('$offset', t.offset ? `offset ${t.offset}` : '')
    .replaceAll('$by', t.by);
}

export type TemplatesCheck<T> = { ok: true; value: T } | { ok: false; field: string; problem: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkQueries(raw: unknown, needBy: boolean, at: string): TemplatesCheck<RedQueries> {
  if (!isObject(raw)) return { ok: false, field: at, problem: 'must be an object with rate, errorRatio and p95 queries' };
  const out: Partial<RedQueries> = {};
  for (const s of SIGNALS) {
    const q = raw[s];
    const f = at ? `${at}.${s}` : s;
    if (typeof q !== 'string' || !q.trim()) return { ok: false, field: f, problem: 'must be a PromQL query' };
    if (q.length > MAX_TEMPLATE_LENGTH) return { ok: false, field: f, problem: `must be at most ${MAX_TEMPLATE_LENGTH} characters` };
    if (!q.includes('$range')) return { ok: false, field: f, problem: 'must use $range (the span, e.g. rate(x[$range] $offset))' };
    if (!q.includes('$offset')) return { ok: false, field: f, problem: 'must use $offset right after each range selector (it becomes "offset 1w" for the week earlier)' };
    if (needBy && !q.includes('$by')) return { ok: false, field: f, problem: 'must aggregate by the service label with $by (e.g. sum by ($by) (…)), so that one query answers every service' };
    if (!needBy && q.includes('$by')) return { ok: false, field: f, problem: 'is one service\'s own query: it must not use $by' };
    out[s] = q.trim();
  }
  const extra = Object.keys(raw).find((k) => !SIGNALS.includes(k as RedSignal) && !(needBy && k === 'serviceLabel'));
  if (extra) return { ok: false, field: at ? `${at}.${extra}` : extra, problem: 'is not a known field (known: rate, errorRatio, p95)' };
  return { ok: true, value: out as RedQueries };
}

/**
 * What an organisation sends as its RED templates: null (the default preset), `{preset}`, or its
 * own `{serviceLabel?, rate, errorRatio, p95}`. Answers the stored form.
 */
export function checkRedTemplates(raw: unknown): TemplatesCheck<StoredRedTemplates | null> {
  if (raw === null) return { ok: true, value: null };
  if (!isObject(raw)) return { ok: false, field: '', problem: 'must be {preset: "otel" | "classic"} or {rate, errorRatio, p95}' };
  if ('preset' in raw) {
    if (Object.keys(raw).length !== 1) return { ok: false, field: 'preset', problem: 'comes alone: a preset has its own queries' };
    if (raw.preset !== 'otel' && raw.preset !== 'classic') return { ok: false, field: 'preset', problem: 'must be "otel" or "classic"' };
    return { ok: true, value: { preset: raw.preset } };
  }
  const label = raw.serviceLabel ?? 'job';
  if (typeof label !== 'string' || !LABEL_NAME.test(label)) return { ok: false, field: 'serviceLabel', problem: 'is not a Prometheus label name (letters, digits and _, not starting with a digit)' };
  const q = checkQueries(raw, true, '');
  if (!q.ok) return q;
  return { ok: true, value: { serviceLabel: label, ...q.value } };
}

/** evidence_settings.red_templates as stored. */
export type StoredRedTemplates = { preset: RedPreset } | ({ serviceLabel: string } & RedQueries);

export function templatesOf(stored: StoredRedTemplates | null): RedTemplates {
  if (stored === null) return DEFAULT_RED_TEMPLATES;
  if ('preset' in stored) return RED_PRESETS[stored.preset];
  return { name: 'custom', serviceLabel: stored.serviceLabel, queries: { rate: stored.rate, errorRatio: stored.errorRatio, p95: stored.p95 } };
}

/**
 * A catalogue entity's `attrs.prometheus`: `{label}` (its series carry another service-label
 * value than its name) or `{rate, errorRatio, p95}` (its own queries, without `$by`). Anything
 * else is ignored with a reason, since the catalogue stores attrs as they came.
 */
export function checkServiceOverride(raw: unknown): TemplatesCheck<ServiceOverride> {
  if (!isObject(raw)) return { ok: false, field: 'attrs.prometheus', problem: 'must be {label} or {rate, errorRatio, p95}' };
  if ('label' in raw) {
    if (typeof raw.label !== 'string' || !raw.label.trim() || raw.label.length > 200) return { ok: false, field: 'attrs.prometheus.label', problem: 'must be the service label\'s value, 1–200 characters' };
    if (Object.keys(raw).length !== 1) return { ok: false, field: 'attrs.prometheus', problem: 'has either label or its own queries, not both' };
    return { ok: true, value: { label: raw.label.trim() } };
  }
  const q = checkQueries(raw, false, 'attrs.prometheus');
  return q.ok ? { ok: true, value: { queries: q.value } } : q;
}
