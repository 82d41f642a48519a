import type { Queryable } from '../../platform/db/database.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { createElasticsearchClient } from './elasticsearch-client.js';
import { elasticsearchSpanReader } from './elasticsearch-logs.js';
import type { Compared, EvidenceWindow, LogFingerprint, LogsPart, ServiceRef, Span } from './evidence-types.js';
import type { LogSource } from './log-source-config.js';
import { countLogs, errorFingerprints } from './log-store.js';
import { lokiSpanReader } from './loki-logs.js';
import { createLokiClient } from './loki-client.js';
import { scrubSecrets } from '../../platform/scrub.js';
import { serviceNames, type SpanLogs, type SpanReader } from './log-span.js';

export { MAX_LOG_LINES, LOG_MAX_RESPONSE_BYTES, serviceNames, type SpanFingerprint, type SpanLogs, type SpanReader } from './log-span.js';

/**
 * The logs part of a change's evidence, from one log source: in the window and both baselines,
 * how many records there were, how many were errors, and which error templates (fingerprints)
 * they held, the window's most frequent first. A template is new when both baselines were
 * measured and neither holds it. A span that could not be read is null ("—"); when the window
 * itself cannot be read the part is "not measured (reason)". Never throws.
 */

/** The most error fingerprints a logs part keeps, most frequent in the window first. */
export const MAX_FINGERPRINTS = 20;

export type LogEvidenceDeps = { db: Queryable; outbound: OutboundClient };

export function otlpSpanReader(db: Queryable, orgId: string, services: ServiceRef[]): SpanReader {
  const names = serviceNames(services);
  return async (span, only) => {
    const counts = await countLogs(db, orgId, names, span.start, span.end);
    const fps = await errorFingerprints(db, orgId, names, span.start, span.end, only ? only.length : MAX_FINGERPRINTS, only);
    return {
      ...counts,
      fingerprints: new Map(fps.map((f) => [f.fingerprint, { count: f.count, services: f.services, sample: f.sample }])),
      // A baseline counted exactly for the templates asked: one it does not name has 0 there.
      complete: true,
    };
  };
}

function readerFor(deps: LogEvidenceDeps, source: LogSource, orgId: string, services: ServiceRef[]): SpanReader {
  if (source.kind === 'otlp') return otlpSpanReader(deps.db, orgId, services);
  if (source.kind === 'loki') return lokiSpanReader(createLokiClient(deps.outbound), source, services);
  return elasticsearchSpanReader(createElasticsearchClient(deps.outbound), source, services);
}

type Attempt = { ok: true; logs: SpanLogs } | { ok: false; reason: string };

async function attempt(read: SpanReader, span: Span, only?: string[]): Promise<Attempt> {
  try {
    return { ok: true, logs: await read(span, only) };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** A template's count in a baseline: its count when seen; 0 when the span's templates are all known; else unknown. */
function baselineCount(a: Attempt, template: string): number | null {
  if (!a.ok) return null;
  const f = a.logs.fingerprints.get(template);
  if (f) return f.count;
  return a.logs.complete ? 0 : null;
}

export const NO_RECORDS = 'no log record of these services in the window or its baselines: check that their logs name them as the catalogue does';

/** The window's span: from start to the horizon. */
const windowSpan = (w: EvidenceWindow): Span => ({ start: w.start, end: w.end });

/** Builds the part from the three spans a reader answered: pure, so the rules are tested apart from any store. */
export function combine(source: LogsPart['source'], win: Attempt, hourBefore: Attempt, weekEarlier: Attempt): LogsPart {
  if (!win.ok) return { source, status: 'not_measured', reason: win.reason };
  // Not one record in any span says the source holds no logs of these services (often a service
  // name the logs spell otherwise), not that they were quiet: 0 would be a made-up value.
  const seen = [win, hourBefore, weekEarlier].reduce((n, a) => n + (a.ok ? a.logs.volume : 0), 0);
  if (seen === 0) return { source, status: 'not_measured', reason: NO_RECORDS };
  const figure = (a: Attempt, k: 'volume' | 'errors') => (a.ok ? a.logs[k] : null);
  const compared = (k: 'volume' | 'errors'): Compared => ({ window: win.logs[k], hourBefore: figure(hourBefore, k), weekEarlier: figure(weekEarlier, k) });
  const ranked = [...win.logs.fingerprints.entries()].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0])).slice(0, MAX_FINGERPRINTS);
  const fingerprints: LogFingerprint[] = ranked.map(([template, f]) => {
    const counts: Compared = { window: f.count, hourBefore: baselineCount(hourBefore, template), weekEarlier: baselineCount(weekEarlier, template) };
    return { template, counts, isNew: counts.hourBefore === 0 && counts.weekEarlier === 0, sample: scrubSecrets(f.sample), services: f.services };
  });
  return { source, status: 'measured', value: { volume: compared('volume'), errors: compared('errors'), fingerprints } };
}

/** The logs part of one source for the blast radius's services over the window and its baselines. */
export async function collectLogs(deps: LogEvidenceDeps, source: LogSource, orgId: string, services: ServiceRef[], window: EvidenceWindow): Promise<LogsPart> {
  const ref = { id: source.id, kind: source.kind, name: source.name };
  if (services.length === 0) return { source: ref, status: 'not_measured', reason: 'the change has no service to read logs of' };
  let read: SpanReader;
  try {
    read = readerFor(deps, source, orgId, services);
  } catch (err) {
    return { source: ref, status: 'not_measured', reason: err instanceof Error ? err.message : String(err) };
  }
  const win = await attempt(read, windowSpan(window));
  if (!win.ok) return combine(ref, win, win, win);
  const only = [...win.logs.fingerprints.entries()].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0])).slice(0, MAX_FINGERPRINTS).map(([t]) => t);
  const [hourBefore, weekEarlier] = await Promise.all([attempt(read, window.hourBefore, only), attempt(read, window.weekEarlier, only)]);
  return combine(ref, win, hourBefore, weekEarlier);
}
