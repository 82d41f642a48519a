import { invalid } from '../../platform/errors.js';
import type { AlertState, IncomingAlert } from './alert-types.js';
import { labelSetFingerprint } from './fingerprint.js';

/** The most alerts one request may carry (a 1 MiB body holds a few thousand). */
export const MAX_ALERTS_PER_BATCH = 5_000;
/** Alertmanager writes "no end yet" as Go's zero time. */
const ZERO_TIME = /^0001-01-01T00:00:00(\.0+)?Z$/;

/** One alert of Alertmanager's webhook (payload version 4). */
export type WebhookAlert = {
  status: AlertState; labels: Record<string, string>; annotations?: Record<string, string>;
  startsAt: string; endsAt?: string; generatorURL?: string; fingerprint?: string;
};
export type WebhookPayload = {
  version: string; groupKey?: string; status?: string; receiver?: string; externalURL?: string;
  groupLabels?: Record<string, string>; commonLabels?: Record<string, string>; commonAnnotations?: Record<string, string>;
  truncatedAlerts?: number; alerts: WebhookAlert[];
};
/** One alert of Alertmanager's API v2 `POST /api/v2/alerts` (what Prometheus sends). */
export type PostableAlert = { labels: Record<string, string>; annotations?: Record<string, string>; startsAt?: string; endsAt?: string; generatorURL?: string };

/** A parsed batch: its alerts (one per fingerprint, the last sent wins) and who sent it. */
export type ParsedBatch = { alerts: IncomingAlert[]; sender: string };

function time(field: string, text: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw invalid(field, 'must be a date and time such as 2026-01-31T09:00:00Z', text);
  return ms;
}

const isZero = (t: string | undefined) => t === undefined || t === '' || ZERO_TIME.test(t);

/** Alertmanager's own words for where a batch came from: its external URL's host, else the receiver. */
function senderOf(url: string | undefined, fallback: string): string {
  if (!url) return fallback;
  try {
    return new URL(url).host || fallback;
  } catch {
    return fallback;
  }
}

/** The last alert of each fingerprint: a batch that names one alert twice records it once. */
function lastPerFingerprint(alerts: IncomingAlert[]): IncomingAlert[] {
  const by = new Map<string, IncomingAlert>();
  for (const a of alerts) {
    by.delete(a.fingerprint);
    by.set(a.fingerprint, a);
  }
  return [...by.values()];
}

/** PostgreSQL text cannot hold NUL: refused here, by field, rather than by the database. */
/**
 * Times to the millisecond: Alertmanager's webhook writes nanoseconds and its API milliseconds for
 * the same moment, and a firing is identified by its start, so both must read alike.
 */
const toMillis = (ms: number) => new Date(ms).toISOString();

function checkText(field: string, map: Record<string, string>): void {
  for (const [k, v] of Object.entries(map)) {
    if (k.includes('\u0000') || v.includes('\u0000')) throw invalid(`${field}.${k.replaceAll('\u0000', '')}`, 'must not contain the NUL character');
  }
}

function checkLabels(field: string, labels: Record<string, string>, annotations: Record<string, string> | undefined, annotationsField: string): void {
  if (Object.keys(labels).length === 0) throw invalid(field, 'must have at least 1 label');
  checkText(field, labels);
  if (annotations) checkText(annotationsField, annotations);
}

/**
 * The webhook: its status is Alertmanager's verdict. The fingerprint is always the labels' own, so
 * one alert is one row whichever way it came; a sender whose fingerprints are computed otherwise
 * (another Alertmanager-compatible router) is not refused for it, since a 400 would drop its alerts.
 */
export function parseWebhook(body: WebhookPayload): ParsedBatch {
  if (body.version !== '4') throw invalid('version', 'must be "4" (Alertmanager\'s webhook payload version)', body.version);
  if (body.alerts.length > MAX_ALERTS_PER_BATCH) throw invalid('alerts', `must have at most ${MAX_ALERTS_PER_BATCH} entries`);
  const alerts = body.alerts.map((a, i): IncomingAlert => {
    const at = (f: string) => `alerts.${i}.${f}`;
    checkLabels(at('labels'), a.labels, a.annotations, at('annotations'));
    const starts = time(at('startsAt'), a.startsAt);
    const endless = isZero(a.endsAt);
    if (!endless) time(at('endsAt'), a.endsAt!);
    if (a.status === 'resolved' && endless) throw invalid(at('endsAt'), 'is required for a resolved alert');
    if (a.status === 'resolved' && Date.parse(a.endsAt!) < starts) throw invalid(at('endsAt'), 'must not be before startsAt', a.endsAt);
    return {
      fingerprint: labelSetFingerprint(a.labels), labels: a.labels, annotations: a.annotations ?? {}, state: a.status,
      startsAt: toMillis(starts), endsAt: endless ? null : toMillis(Date.parse(a.endsAt!)), generatorURL: a.generatorURL || null,
    };
  });
  return { alerts: lastPerFingerprint(alerts), sender: senderOf(body.externalURL, body.receiver || 'alertmanager') };
}

/**
 * The API v2 list. Like Alertmanager: no startsAt is now, and the alert is resolved once its
 * endsAt has passed, firing while it is absent, zero or still ahead.
 */
export function parsePostable(list: PostableAlert[], now: Date): ParsedBatch {
  if (list.length > MAX_ALERTS_PER_BATCH) throw invalid('', `The list must have at most ${MAX_ALERTS_PER_BATCH} alerts`);
  let sender: string | null = null;
  const alerts = list.map((a, i): IncomingAlert => {
    const at = (f: string) => `${i}.${f}`;
    checkLabels(at('labels'), a.labels, a.annotations, at('annotations'));
    const startsAt = isZero(a.startsAt) ? now.toISOString() : a.startsAt!;
    const starts = time(at('startsAt'), startsAt);
    const endless = isZero(a.endsAt);
    const ends = endless ? null : time(at('endsAt'), a.endsAt!);
    if (ends !== null && ends < starts) throw invalid(at('endsAt'), 'must not be before startsAt', a.endsAt);
    const state: AlertState = ends !== null && ends <= now.getTime() ? 'resolved' : 'firing';
    if (sender === null && a.generatorURL) sender = senderOf(a.generatorURL, '');
    return {
      fingerprint: labelSetFingerprint(a.labels), labels: a.labels, annotations: a.annotations ?? {}, state,
      startsAt: toMillis(starts), endsAt: ends === null ? null : toMillis(ends), generatorURL: a.generatorURL || null,
    };
  });
  return { alerts: lastPerFingerprint(alerts), sender: sender || 'prometheus' };
}
