import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FlagRecord } from '../flags/index.js';

/** An incident as we need it: what, which services, since when. */
export type IncidentNotice = { externalId: string; title: string; services: string[]; startedAt: Date; url: string | null };
export type Parsed = { kind: 'incident'; notice: IncidentNotice } | { kind: 'ignored'; why: string } | { kind: 'invalid'; error: string; field: string };

const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const time = (v: unknown): Date | null => {
  if (typeof v !== 'string') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) || !/\d{4}-\d{2}-\d{2}T/.test(v) ? null : d;
};

/** PagerDuty v3 webhook: `{event: {event_type, occurred_at, data: {id, title, html_url, created_at, service: {summary}}}}`. */
export function parsePagerDuty(body: unknown): Parsed {
  const event = obj(obj(body)?.event);
  if (!event) return { kind: 'invalid', error: 'a PagerDuty v3 webhook has an "event" object', field: 'event' };
  if (event.event_type !== 'incident.triggered') return { kind: 'ignored', why: `event type ${String(event.event_type)} is not incident.triggered` };
  const data = obj(event.data);
  const id = str(data?.id);
  const title = str(data?.title);
  const service = str(obj(data?.service)?.summary);
  const startedAt = time(data?.created_at) ?? time(event.occurred_at);
  if (!data || !id) return { kind: 'invalid', error: 'event.data.id is required', field: 'event.data.id' };
  if (!title) return { kind: 'invalid', error: 'event.data.title is required', field: 'event.data.title' };
  if (!service) return { kind: 'invalid', error: 'event.data.service.summary is required', field: 'event.data.service.summary' };
  if (!startedAt) return { kind: 'invalid', error: 'event.data.created_at must be an ISO-8601 time', field: 'event.data.created_at' };
  return { kind: 'incident', notice: { externalId: id, title, services: [service], startedAt, url: str(data.html_url) } };
}

/** Any tool: `{title, services: [...], startedAt, id?, url?}`. */
export function parseGeneric(body: unknown): Parsed {
  const b = obj(body);
  if (!b) return { kind: 'invalid', error: 'the body must be a JSON object', field: 'body' };
  const title = str(b.title);
  if (!title || title.length > 500) return { kind: 'invalid', error: 'title is required (at most 500 characters)', field: 'title' };
  const services = Array.isArray(b.services) ? b.services.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim()) : [];
  if (services.length === 0 || services.length > 50) return { kind: 'invalid', error: 'services must list 1 to 50 service names', field: 'services' };
  const startedAt = time(b.startedAt);
  if (!startedAt) return { kind: 'invalid', error: 'startedAt must be an ISO-8601 time', field: 'startedAt' };
  const externalId = str(b.id) ?? createHash('sha256').update(`${title}|${startedAt.toISOString()}|${services.join(',')}`).digest('hex').slice(0, 32);
  return { kind: 'incident', notice: { externalId, title, services, startedAt, url: str(b.url) } };
}

/** `X-PagerDuty-Signature: v1=<hex>[,v1=<hex>]`: HMAC-SHA256 of the raw body with the signing secret. */
export function pagerDutySignatureValid(raw: string, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'));
  return header.split(',').some((part) => {
    const [v, sig] = part.trim().split('=');
    if (v !== 'v1' || !sig) return false;
    const got = Buffer.from(sig);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

export function formatChange(r: FlagRecord): string {
  const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  return `${r.ts} ${r.actor} ${r.flag}${r.env ? ` [${r.env}]` : ''}: ${show(r.from)}->${show(r.to)}${r.reason ? ` (${r.reason})` : ''}`;
}

/** The message for the channel: one line per change, oldest first, so it reads as a timeline. */
export function formatMessage(n: IncidentNotice, changes: FlagRecord[]): string {
  const head = `Flag changes in the hour before "${n.title}" (${n.services.join(', ')}), opened ${n.startedAt.toISOString()}${n.url ? ` — ${n.url}` : ''}:`;
  if (changes.length === 0) return `${head}\nnone.`;
  return [head, ...[...changes].reverse().map(formatChange)].join('\n');
}
