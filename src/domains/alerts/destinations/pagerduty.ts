import type { AlertRecord } from '../alert-types.js';
import { occasionSummary, type RelayContext } from './relay-message.js';

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';
/** PagerDuty cuts a summary at 1024 characters; we cut it ourselves so nothing is refused for it. */
const MAX_SUMMARY = 1024;
const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
type Severity = (typeof SEVERITIES)[number];

/** One Events API v2 event without its routing key: the key is sealed and joined only when sent. */
export type PagerDutyEvent = {
  event_action: 'trigger' | 'resolve';
  dedup_key: string;
  payload?: { summary: string; source: string; severity: Severity; timestamp: string; custom_details: Record<string, unknown> };
  client?: string;
  client_url?: string;
  links?: Array<{ href: string; text: string }>;
};

/** The alert's `severity` label in PagerDuty's four words; anything else is an error. */
export function pagerDutySeverity(label: string | undefined): Severity {
  const s = (label ?? '').toLowerCase();
  if ((SEVERITIES as readonly string[]).includes(s)) return s as Severity;
  if (s === 'page' || s === 'fatal' || s === 'emergency') return 'critical';
  if (s === 'warn') return 'warning';
  if (s === 'none' || s === 'notice' || s === 'debug') return 'info';
  return 'error';
}

/**
 * One event per alert, keyed by its fingerprint, so PagerDuty folds a repeat into the open alert
 * and a resolution closes it. A held release triggers again with the prefixed summary.
 */
export function pagerDutyEvents(alerts: AlertRecord[], ctx: RelayContext): PagerDutyEvent[] {
  return alerts.map((a) => {
    if (a.state === 'resolved' && ctx.occasion.kind !== 'held-release') return { event_action: 'resolve', dedup_key: a.fingerprint };
    const summary = occasionSummary(a, ctx.occasion);
    return {
      event_action: 'trigger',
      dedup_key: a.fingerprint,
      payload: {
        summary: summary.length > MAX_SUMMARY ? `${summary.slice(0, MAX_SUMMARY - 1)}…` : summary,
        source: a.labels.instance ?? a.source,
        severity: pagerDutySeverity(a.labels.severity),
        timestamp: a.startsAt,
        custom_details: { subject: a.subjectLabel, labels: a.labels, annotations: a.annotations },
      },
      client: 'changeledger',
      client_url: ctx.externalUrl,
      ...(a.generatorURL ? { links: [{ href: a.generatorURL, text: 'Source' }] } : {}),
    };
  });
}

/** PagerDuty's answer in words: its status, message and errors (400 "invalid event"). */
export function pagerDutyAnswer(status: number, body: string): string {
  try {
    const b = JSON.parse(body) as { status?: unknown; message?: unknown; errors?: unknown };
    const parts = [typeof b.status === 'string' ? b.status : null, typeof b.message === 'string' ? b.message : null].filter(Boolean);
    const errors = Array.isArray(b.errors) ? b.errors.filter((e) => typeof e === 'string').join('; ') : '';
    const said = [parts.join(': '), errors].filter(Boolean).join(' — ');
    return said ? `PagerDuty answered ${status}: ${said}` : `PagerDuty answered ${status}`;
  } catch {
    const t = body.trim().slice(0, 200);
    return t ? `PagerDuty answered ${status}: ${t}` : `PagerDuty answered ${status}`;
  }
}
