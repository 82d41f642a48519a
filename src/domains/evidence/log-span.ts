import type { ServiceRef, Span } from './evidence-types.js';

/** What every log source's reader of one span answers, and the limits they share. */

/**
 * Loki and Elasticsearch cannot group by our templates, so we read the newest error lines of a
 * span and mask them ourselves: at most this many a span. Counts per template are then counts
 * among those lines; a span with more error lines than this says so by `complete: false`.
 */
export const MAX_LOG_LINES = 1_000;
/** What one answer of a log store may weigh: 1,000 lines of up to a few KiB. */
export const LOG_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** One error template of a span: how many of its error records had it, which services, one message. */
export type SpanFingerprint = { count: number; services: string[]; sample: string };

/** What a reader found in one span. */
export type SpanLogs = {
  volume: number;
  errors: number;
  fingerprints: Map<string, SpanFingerprint>;
  /**
   * Every error record of the span was read (its templates are all known): false when a sample
   * was capped, so a template it does not show may still be there.
   */
  complete: boolean;
};

/**
 * Reads one span. `only`, for the baselines, names the window's templates: a reader that can
 * count exactly (our own table) counts just those.
 */
export type SpanReader = (span: Span, only?: string[]) => Promise<SpanLogs>;

/** Which services' records count: the blast radius's names and keys, as a log's service is either. */
export function serviceNames(services: ServiceRef[]): string[] {
  const names = new Set<string>();
  for (const s of services) {
    names.add(s.name.toLowerCase());
    const bare = s.key.replace(/^[a-z]+:/i, '').toLowerCase();
    if (bare) names.add(bare);
  }
  return [...names].sort();
}
