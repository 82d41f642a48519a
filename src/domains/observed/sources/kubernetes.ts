/**
 * The Kubernetes audit webhook backend: kube-apiserver posts an `audit.k8s.io/v1` EventList
 * (batch mode) or one Event (blocking mode) with the kubeconfig's bearer token. The wire shape is
 * read here; what counts as a change is k8s-rules.ts. Shapes: the audit.k8s.io/v1 reference
 * (kubernetes/website content/en/docs/reference/config-api/apiserver-audit.v1.md); v1beta1 carries
 * the same fields plus `timestamp`, and is read too (older clusters, recorded test traces).
 */
import { badRequest } from '../../../platform/errors.js';
import type { RecordPrincipal } from '../../changes/change-feed.js';
import type { AdapterContext, IntakeAdapter, IntakeRequest, ObservedEvent, Parsed, Rejected } from '../observed-types.js';
import { bearerMatches } from './auth.js';
import { capBucket, changeRefOf, ciNamespaceSet, deniedCode, diffBody, foldKey, identityOf, judge, serviceHintOf, type AuditRef } from './k8s-rules.js';
import { draftK8sRevert } from './revert-k8s.js';

const API_VERSIONS = ['audit.k8s.io/v1', 'audit.k8s.io/v1beta1'];
/** The cluster's name in the connection's settings, else this. */
export const DEFAULT_CLUSTER = 'cluster';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj | null | undefined, k: string): string | null => (o && typeof o[k] === 'string' ? o[k] : null);
const objAt = (o: Obj | null | undefined, k: string): Obj | null => (o && isObj(o[k]) ? o[k] : null);

/** An item the apiserver could not have sent: named by its field so the sender's operator can find it. */
class ItemError extends Error {
  constructor(readonly field: string, message: string) { super(message); }
}

/** An audit event read into the facts the rules and the row need. */
type Read = {
  index: number; auditID: string; stage: string; verb: string; at: Date; requestURI: string;
  user: Obj; username: string; ref: AuditRef | null; exactName: boolean; code: number | null; statusReason: string | null;
  requestObject: unknown; responseObject: unknown; raw: Obj;
};

function timeOf(item: Obj, at: (f: string) => string): Date {
  // requestReceivedTimestamp is when the write was asked for (the cap's hour); v1beta1 also has `timestamp`.
  for (const k of ['requestReceivedTimestamp', 'stageTimestamp', 'timestamp']) {
    const v = item[k];
    if (v === undefined || v === null) continue;
    const d = typeof v === 'string' ? new Date(v) : null;
    if (!d || Number.isNaN(d.getTime())) throw new ItemError(at(k), `${k} must be an RFC 3339 time such as 2026-01-02T15:04:05.000000Z`);
    return d;
  }
  throw new ItemError(at('requestReceivedTimestamp'), 'requestReceivedTimestamp is missing: the apiserver stamps every audit event with it');
}

/**
 * The object's name: in objectRef when the URL named it, else in the bodies (a create's name), else
 * its generateName prefix, which names no one object (exact: false, so it is never folded).
 */
function nameOf(ref: Obj, requestObject: unknown, responseObject: unknown): { name: string | null; exact: boolean } {
  const fromRef = str(ref, 'name');
  if (fromRef) return { name: fromRef, exact: true };
  const metas = [responseObject, requestObject].map((o) => (isObj(o) ? objAt(o, 'metadata') : null));
  for (const m of metas) if (str(m, 'name')) return { name: str(m, 'name'), exact: true };
  for (const m of metas) if (str(m, 'generateName')) return { name: str(m, 'generateName'), exact: false };
  return { name: null, exact: false };
}

function readItem(raw: unknown, index: number, at: (f: string) => string): Read {
  if (!isObj(raw)) throw new ItemError(at(''), 'an audit event must be a JSON object');
  const need = (k: string, why: string) => {
    const v = str(raw, k);
    if (!v) throw new ItemError(at(k), `${k} is missing: ${why}`);
    return v;
  };
  const auditID = need('auditID', 'it is the event\'s id, which retries are told apart by');
  const stage = need('stage', 'it says whether the request has finished');
  const verb = need('verb', 'it says what the request did');
  const user = objAt(raw, 'user');
  const username = str(user, 'username');
  const refObj = objAt(raw, 'objectRef');
  const requestObject = raw.requestObject;
  const responseObject = raw.responseObject;
  const status = objAt(raw, 'responseStatus');
  const code = typeof status?.code === 'number' ? status.code : null;
  let ref: AuditRef | null = null;
  let exactName = false;
  if (refObj) {
    const resource = str(refObj, 'resource');
    if (!resource) throw new ItemError(at('objectRef.resource'), 'objectRef.resource is missing: it says what kind of object was written');
    const named = nameOf(refObj, requestObject, responseObject);
    ref = { group: str(refObj, 'apiGroup') ?? '', resource, subresource: str(refObj, 'subresource'), namespace: str(refObj, 'namespace'), name: named.name };
    exactName = named.exact;
  }
  return {
    index, auditID, stage, verb, requestURI: str(raw, 'requestURI') ?? '', user: user ?? {}, username: username ?? '',
    ref, exactName, code, statusReason: str(status, 'reason'), requestObject, responseObject, raw,
    // Time and user only matter for a finished write; a RequestReceived event is checked no further.
    at: stage === 'ResponseComplete' ? timeOf(raw, at) : new Date(0),
  };
}

function principalOf(r: Read, ci: ReadonlySet<string>): RecordPrincipal {
  const who = identityOf(r.username, ci);
  const detail: Record<string, string> = {};
  const ua = str(r.raw, 'userAgent');
  if (ua) detail.userAgent = ua;
  const ips = r.raw.sourceIPs;
  if (Array.isArray(ips) && typeof ips[0] === 'string') detail.sourceIp = ips[0];
  const imp = str(objAt(r.raw, 'impersonatedUser'), 'username');
  if (imp) detail.impersonatedUser = imp;
  let kind: RecordPrincipal['kind'] = 'person';
  if (who.class === 'ci') { kind = 'service'; detail.ciNamespace = who.namespace; }
  else if (who.class === 'plumbing' && who.serviceAccount) { kind = 'service'; detail.namespace = who.serviceAccount.namespace; }
  else if (who.class === 'plumbing') kind = 'system';
  return { kind, name: r.username, id: str(r.user, 'uid'), detail };
}

function toEvent(r: Read, ref: AuditRef, denied: boolean, ci: ReadonlySet<string>, cluster: string): ObservedEvent {
  const objectPath = [ref.resource, ref.name, ref.subresource].filter(Boolean).join('/');
  const isSecret = ref.group === '' && ref.resource === 'secrets';
  const body = diffBody(r.verb, r.requestObject, isSecret);
  const principal = principalOf(r, ci);
  const location: ObservedEvent['location'] = { cluster };
  if (ref.namespace) location.namespace = ref.namespace;
  const level = str(r.raw, 'level');
  return {
    eventId: r.auditID,
    kind: 'k8s_write',
    title: `${r.verb} ${objectPath}${ref.namespace ? ` in ${ref.namespace}` : ''}`,
    occurredAt: r.at.toISOString(),
    principal,
    action: r.verb,
    resource: objectPath,
    location,
    serviceHint: serviceHintOf(r.responseObject, r.requestObject),
    repo: null,
    diff: body === null ? null : JSON.stringify(body, null, 2),
    params: { requestURI: r.requestURI, ...(level ? { level } : {}), ...(ref.group ? { apiGroup: ref.group } : {}) },
    link: null,
    denied,
    errorCode: denied ? deniedCode(r.code, r.statusReason) : null,
    outcome: denied ? 'failed' : 'succeeded',
    changeRef: changeRefOf(r.requestObject, r.responseObject),
    // Only a CI service account's successful writes count toward the hourly cap; a refusal never does.
    capBucket: !denied && principal.detail.ciNamespace ? capBucket(cluster, r.username, r.at) : null,
    // A generateName prefix names no object, so the revert is not told it as the name.
    revert: denied ? null : draftK8sRevert({ verb: r.verb, ref: r.exactName ? ref : { ...ref, name: null }, requestObject: r.requestObject, responseObject: r.responseObject }),
  };
}

/** The audit events of a body: an EventList's items, or one Event. Anything else is not an audit backend's post. */
function itemsOf(body: unknown): { items: unknown[]; list: boolean } {
  if (!isObj(body)) throw badRequest('the body must be a JSON audit.k8s.io/v1 EventList, as the apiserver\'s audit webhook sends', 'body');
  const apiVersion = body.apiVersion;
  if (apiVersion !== undefined && !API_VERSIONS.includes(apiVersion as string)) {
    throw badRequest(`apiVersion ${JSON.stringify(apiVersion)} is not an audit version we read (audit.k8s.io/v1 or v1beta1)`, 'apiVersion');
  }
  if (body.kind === 'EventList') {
    if (!Array.isArray(body.items)) throw badRequest('items must be the list of audit events', 'items');
    return { items: body.items, list: true };
  }
  if (body.kind === 'Event') return { items: [body], list: false };
  throw badRequest('kind must be EventList (or Event): this endpoint reads the Kubernetes audit webhook', 'kind');
}

export function parseAudit(body: unknown, ctx: AdapterContext): Parsed {
  const { items, list } = itemsOf(body);
  const ci = ciNamespaceSet(ctx.ciNamespaces);
  const configured = ctx.config.cluster;
  const cluster = typeof configured === 'string' && configured.trim() ? configured.trim() : DEFAULT_CLUSTER;
  const out: Parsed = { events: [], ignored: 0, noise: 0, rejected: [] };
  const rejected: Rejected[] = [];
  /** The newest write of each object by each account in this delivery; the older ones are noise. */
  const newest = new Map<string, { read: Read; ref: AuditRef }>();
  const kept: Array<{ read: Read; ref: AuditRef; denied: boolean }> = [];

  items.forEach((raw, index) => {
    const at = (f: string) => (list ? `items.${index}${f ? `.${f}` : ''}` : f || 'body');
    let r: Read;
    try {
      r = readItem(raw, index, at);
      const verdict = judge({ stage: r.stage, verb: r.verb, code: r.code, requestURI: r.requestURI, username: r.username, ref: r.ref }, ci);
      if (!verdict.keep) { out[verdict.as] += 1; return; }
      if (!r.username) throw new ItemError(at('user.username'), 'user.username is missing: it says who wrote');
      const ref = r.ref!;
      if (verdict.denied) { kept.push({ read: r, ref, denied: true }); return; }
      // Without its own name the object is not known, so such writes are never taken for one another.
      const key = r.exactName ? foldKey(r.username, ref) : `#${r.auditID}`;
      const seen = newest.get(key);
      if (!seen) { newest.set(key, { read: r, ref }); return; }
      out.noise += 1;
      if (r.at.getTime() >= seen.read.at.getTime()) newest.set(key, { read: r, ref });
    } catch (err) {
      if (!(err instanceof ItemError)) throw err;
      if (!list) throw badRequest(err.message, err.field);
      rejected.push({ index, field: err.field, message: `audit event ${index + 1}: ${err.message}` });
    }
  });

  for (const { read, ref } of newest.values()) kept.push({ read, ref, denied: false });
  // Time order (then the order sent): the intake counts the hourly cap in this order.
  kept.sort((a, b) => a.read.at.getTime() - b.read.at.getTime() || a.read.index - b.read.index);
  out.events = kept.map((k) => toEvent(k.read, k.ref, k.denied, ci, cluster));
  out.rejected = rejected;
  return out;
}

export const kubernetesIntake: IntakeAdapter = {
  kind: 'kubernetes',
  authenticate: bearerMatches,
  parse: (req: IntakeRequest, ctx: AdapterContext) => parseAudit(req.body, ctx),
};
