/**
 * A drop-in for PagerDuty's change events (Events API v2, `POST /v2/change/enqueue`), so that CI
 * plugins written for PagerDuty (Ansible's pagerduty_change, the Azure DevOps and GitHub actions)
 * report to us unchanged. Shapes from PagerDuty's own documentation:
 * github:PagerDuty/developer-docs docs/events-API-v2/03-Change-Events.md (the body) and
 * 01-Overview.md (202 on acceptance, 400 for a bad body, payloads up to 512 KB).
 *
 * The body carries no bearer: its `routing_key` is the connection's secret (the route finds the
 * connection by the key's hash, authenticate compares it).
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../platform/canonical-json.js';
import { invalid } from '../../../platform/errors.js';
import type { AdapterContext, IntakeAdapter, IntakeRequest, ObservedEvent, Parsed } from '../observed-types.js';
import { sameSecret } from './auth.js';
import { isObj, optLink, optObj, optText, optTime, repoFromUrl, reqText, unknownPrincipal } from './standard-fields.js';

/** What PagerDuty answers an accepted change event (status 202); the route answers the same. */
export const PAGERDUTY_ACCEPTED = { status: 'success', message: 'Change event processed' } as const;
/** PagerDuty's documented limit on `payload.summary`. */
export const PAGERDUTY_SUMMARY_MAX = 1024;

/** The routing key as sent, for the route to find the connection by its hash. */
export function pagerdutyRoutingKey(body: unknown): string | null {
  const k = isObj(body) ? body.routing_key : undefined;
  return typeof k === 'string' && k.trim() !== '' ? k.trim() : null;
}

/** A custom detail a CI plugin commonly sets, as text, or null. */
function detail(d: Record<string, unknown> | null, ...keys: string[]): string | null {
  for (const k of keys) {
    const v = d?.[k];
    if (typeof v === 'string' && v.trim() !== '') return v.trim().slice(0, 300);
  }
  return null;
}

/**
 * PagerDuty change events carry no id of their own, so the dedupe key is a hash of the event as
 * sent (canonical JSON of payload and links, the routing key left out), scoped to the connection: a
 * retry of the same event is a duplicate; two changes differ at least by their timestamp.
 */
export function pagerdutyEventId(sourceId: string, body: Record<string, unknown>): string {
  const hash = createHash('sha256').update(canonicalJson({ payload: body.payload, links: body.links ?? null })).digest('hex');
  return `${sourceId}/${hash.slice(0, 32)}`;
}

export function parsePagerduty(body: unknown, ctx: AdapterContext): Parsed {
  if (!isObj(body)) throw invalid('body', 'must be a JSON object with routing_key and payload');
  const payload = optObj(body.payload, 'payload');
  if (!payload) throw invalid('payload', 'is required');
  const summary = reqText(payload.summary, 'payload.summary', PAGERDUTY_SUMMARY_MAX);
  const source = optText(payload.source, 'payload.source', 500);
  const details = optObj(payload.custom_details, 'payload.custom_details');
  const occurredAt = optTime(payload.timestamp, 'payload.timestamp') ?? ctx.now.toISOString();
  if (body.links !== undefined && body.links !== null && !Array.isArray(body.links)) throw invalid('links', 'must be a list of {href, text}');
  const links = (Array.isArray(body.links) ? body.links : []).map((l, i) => {
    if (!isObj(l)) throw invalid(`links.${i}`, 'must be an object with href and text');
    const href = optLink(l.href, `links.${i}.href`);
    if (href === null) throw invalid(`links.${i}.href`, 'is required');
    return { href, text: optText(l.text, `links.${i}.text`, 500) };
  });
  const environment = detail(details, 'environment', 'env');
  const repo = detail(details, 'repo', 'repository');
  const actor = detail(details, 'actor', 'user', 'author', 'build_developer');
  const event: ObservedEvent = {
    eventId: pagerdutyEventId(ctx.sourceId, body),
    kind: 'change',
    title: summary,
    occurredAt,
    principal: actor ? { kind: 'unknown', name: actor, id: null, detail: source ? { tool: source } : {} } : unknownPrincipal(source ?? 'unknown'),
    action: null,
    resource: null,
    location: environment ? { environment } : {},
    serviceHint: detail(details, 'service') ?? source,
    repo: repoFromUrl(repo) ?? repo,
    // What the sender attached, shown as the change's detail (the intake scrubs and cuts it).
    diff: details && Object.keys(details).length ? JSON.stringify(details, null, 2) : null,
    params: details,
    link: links[0]?.href ?? null,
    denied: false,
    errorCode: null,
    outcome: null,
    // A generic sender cannot stamp a receipt: pagerduty is not a harvest source.
    changeRef: null,
    capBucket: null,
  };
  return { events: [event], ignored: 0, noise: 0, rejected: [] };
}

export const pagerdutyIntake: IntakeAdapter = {
  kind: 'pagerduty',
  authenticate: async (req: IntakeRequest, secret: string) => sameSecret(pagerdutyRoutingKey(req.body) ?? undefined, secret),
  parse: (req, ctx) => parsePagerduty(req.body, ctx),
};

