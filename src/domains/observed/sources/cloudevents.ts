/**
 * CloudEvents 1.0 over HTTP, read through the `cloudevents` SDK (HTTP.toEvent) in its three modes:
 * structured (application/cloudevents+json), batch (application/cloudevents-batch+json) and binary
 * (ce-* headers, the body is the data). Only CDEvents' deployment and environment types are changes:
 * dev.cdevents.service.deployed|upgraded|rolledback|removed.<version> and
 * dev.cdevents.environment.modified.<version>; every other type is counted as ignored.
 * Shapes: github:cloudevents/spec v1.0 http-protocol-binding.md; github:cdevents/spec
 * continuous-deployment.md and conformance/service_deployed.json.
 *
 * The SDK fills a missing id or time itself and does not validate structured or binary events, so
 * the required attributes are checked on what was sent, before the SDK reads it.
 */
import { HTTP, ValidationError, type CloudEventV1 } from 'cloudevents';
import { invalid } from '../../../platform/errors.js';
import type { AdapterContext, IntakeAdapter, IntakeRequest, ObservedEvent, Parsed, Rejected } from '../observed-types.js';
import { header, bearerMatches } from './auth.js';
import { at, isObj, optObj, optText, optTime, rejectedOf, reqText, unknownPrincipal, type Obj } from './standard-fields.js';

const STRUCTURED = 'application/cloudevents+json';
const BATCH = 'application/cloudevents-batch+json';
/** The attributes CloudEvents 1.0 requires, in the order we name a missing one. */
const REQUIRED = ['specversion', 'id', 'source', 'type'] as const;

/** CDEvents service predicates and how they read in a title. */
const SERVICE_PREDICATES: Record<string, string> = { deployed: 'deployed to', upgraded: 'upgraded in', rolledback: 'rolled back in', removed: 'removed from' };

/** `application/json; charset=utf-8` → `application/json`: the SDK looks its parsers up by the bare type. */
const bareType = (v: string | undefined) => (v ?? '').split(';')[0]!.trim().toLowerCase();

/** The CDEvents subject and predicate of a type, or null for a type we do not record. */
export function cdeventsType(type: string): { subject: 'service' | 'environment'; predicate: string } | null {
  const m = /^dev\.cdevents\.(service|environment)\.([a-z]+)\.\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.exec(type);
  if (!m) return null;
  const [, subject, predicate] = m as unknown as [string, 'service' | 'environment', string];
  if (subject === 'service' && Object.hasOwn(SERVICE_PREDICATES, predicate)) return { subject, predicate };
  if (subject === 'environment' && predicate === 'modified') return { subject, predicate };
  return null;
}

/** `pkg:oci/myapp@sha256:…` → `myapp`; `pkg:golang/mygit.com/myorg/myapp@v1` → `myapp`. */
export function purlName(purl: string | null): string | null {
  const m = purl ? /^pkg:[^/]+\/(?:[^@?#]*\/)?([^/@?#]+)/.exec(purl) : null;
  return m ? decodeURIComponent(m[1]!) : null;
}

/** A CloudEvent that the SDK read, as an observed event; null when its type is not a change. */
export function cloudEventToObserved(ce: CloudEventV1<unknown>, sentTime: string | null, ctx: AdapterContext): ObservedEvent | null {
  const t = cdeventsType(ce.type);
  if (!t) return null;
  const data = ce.data;
  if (!isObj(data)) throw invalid('data', 'must be a CDEvent: an object with context and subject');
  const subject = optObj(data.subject, 'data.subject');
  if (!subject) throw invalid('data.subject', 'is required');
  const subjectId = reqText(subject.id, 'data.subject.id', 500);
  const content: Obj = optObj(subject.content, 'data.subject.content') ?? {};
  let title: string;
  let serviceHint: string | null = null;
  let environment: string | null;
  if (t.subject === 'service') {
    environment = reqText(at(content, 'environment.id'), 'data.subject.content.environment.id', 300);
    // removed names no artifact; the others must (CDEvents marks artifactId required for them).
    const artifactId = t.predicate === 'removed'
      ? optText(content.artifactId, 'data.subject.content.artifactId', 1000)
      : reqText(content.artifactId, 'data.subject.content.artifactId', 1000);
    // The artifact's package name is the service's usual name; the subject id's last part otherwise.
    serviceHint = purlName(artifactId) ?? subjectId.split('/').filter(Boolean).at(-1) ?? subjectId;
    title = `${serviceHint} ${SERVICE_PREDICATES[t.predicate]} ${environment}${artifactId ? ` (${artifactId})` : ''}`;
  } else {
    environment = optText(content.name, 'data.subject.content.name', 300) ?? subjectId;
    title = `Environment ${environment} modified`;
  }
  const ctxTime = optTime(at(data, 'context.timestamp'), 'data.context.timestamp');
  return {
    // CloudEvents' own uniqueness rule: source and id together identify an event.
    eventId: `${ce.source}#${ce.id}`,
    kind: t.subject === 'service' ? 'deploy' : 'change',
    title: title.slice(0, 1024),
    occurredAt: sentTime ?? ctxTime ?? ctx.now.toISOString(),
    principal: unknownPrincipal(ce.source),
    action: t.predicate,
    resource: subjectId,
    location: { environment },
    serviceHint,
    repo: null,
    diff: Object.keys(content).length ? JSON.stringify(content, null, 2) : null,
    params: { type: ce.type, subject: subjectId, ...(ce.subject ? { ceSubject: ce.subject } : {}) },
    link: null,
    denied: false,
    errorCode: null,
    // A service event reports a finished operation (a rollback too: the rollback itself succeeded).
    outcome: t.subject === 'service' ? 'succeeded' : null,
    changeRef: null,
    capBucket: null,
  };
}

/** The required attributes as sent: an object's members (structured, batch) or ce-* headers (binary). */
function requireAttributes(get: (name: string) => unknown, fieldOf: (name: string) => string): void {
  for (const name of REQUIRED) reqText(get(name), fieldOf(name), 2000);
  const v = String(get('specversion')).trim();
  if (v !== '1.0') throw invalid(fieldOf('specversion'), 'must be 1.0 (CloudEvents 1.0)', v);
}

/** The SDK's reading of one message; its own complaints become a 400 about the event. */
function sdkRead(headers: Record<string, string>, body: unknown, field: string): CloudEventV1<unknown> {
  try {
    const got = HTTP.toEvent({ headers, body });
    if (Array.isArray(got)) throw invalid(field, 'must be one event');
    return got as CloudEventV1<unknown>;
  } catch (e) {
    if (e instanceof ValidationError || e instanceof SyntaxError) throw invalid(field, `is not a readable CloudEvent: ${e.message}`);
    throw e;
  }
}

function structuredItem(item: unknown, ctx: AdapterContext, prefix: string): ObservedEvent | null {
  if (!isObj(item)) throw invalid(prefix || 'body', 'must be a CloudEvent: a JSON object with specversion, id, source and type');
  const p = prefix ? `${prefix}.` : '';
  requireAttributes((n) => item[n], (n) => `${p}${n}`);
  const ce = sdkRead({ 'content-type': STRUCTURED }, item, prefix || 'body');
  return cloudEventToObserved(ce, optTime(item.time, `${p}time`), ctx);
}

function jsonBody(req: IntakeRequest): unknown {
  if (typeof req.body === 'object' && req.body !== null && !Buffer.isBuffer(req.body)) return req.body;
  try {
    return JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    throw invalid('body', 'is not valid JSON');
  }
}

export function parseCloudEvents(req: IntakeRequest, ctx: AdapterContext): Parsed {
  const type = bareType(header(req, 'content-type'));
  const out: Parsed = { events: [], ignored: 0, noise: 0, rejected: [] };
  const add = (e: ObservedEvent | null) => (e ? out.events.push(e) : out.ignored++);
  if (type === BATCH) {
    const items = jsonBody(req);
    if (!Array.isArray(items)) throw invalid('body', 'must be a list of CloudEvents (batch mode)');
    const rejected: Rejected[] = [];
    items.forEach((item, i) => {
      try {
        add(structuredItem(item, ctx, String(i)));
      } catch (e) {
        rejected.push(rejectedOf(i, e, ''));
      }
    });
    out.rejected = rejected;
    return out;
  }
  if (type === STRUCTURED) {
    add(structuredItem(jsonBody(req), ctx, ''));
    return out;
  }
  // Binary mode: the attributes ride as ce-* headers, the body is the data in its own content type.
  if (header(req, 'ce-id') === undefined && header(req, 'ce-specversion') === undefined) {
    throw invalid('ce-specversion', 'is required: send a CloudEvent in structured mode (Content-Type: application/cloudevents+json) or binary mode (ce-specversion, ce-id, ce-source and ce-type headers)');
  }
  requireAttributes((n) => header(req, `ce-${n}`), (n) => `ce-${n}`);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && (k.toLowerCase().startsWith('ce-') || k.toLowerCase() === 'content-type')) headers[k.toLowerCase()] = value;
  }
  if (type) headers['content-type'] = type;
  const raw = req.rawBody.length ? req.rawBody.toString('utf8') : undefined;
  const ce = sdkRead(headers, raw, 'data');
  add(cloudEventToObserved(ce, optTime(header(req, 'ce-time'), 'ce-time'), ctx));
  return out;
}

export const cloudeventsIntake: IntakeAdapter = {
  kind: 'cloudevents',
  authenticate: bearerMatches,
  parse: parseCloudEvents,
};
