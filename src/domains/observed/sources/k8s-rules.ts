/**
 * The Kubernetes audit rules, pure: which audit events are writes worth a row, which are the
 * cluster's own plumbing or a pipeline's by-products, and what is safe to keep of a write's body.
 * kubernetes.ts reads the wire shape and applies these; each rule answers with its reason so a
 * table of cases can pin it.
 */
import { NEVER_CI_NAMESPACES, NOT_STORED } from '../observed-types.js';
import { changeRefIn } from './change-ref.js';

/** The verbs that change an object. deletecollection is kept: `kubectl delete cm --all` removes objects as surely as one delete. */
export const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;
export type WriteVerb = (typeof WRITE_VERBS)[number];
export const isWriteVerb = (verb: string): verb is WriteVerb => (WRITE_VERBS as readonly string[]).includes(verb);

/** What an audit event says it touched (objectRef, with the name found in the bodies when the URL had none). */
export type AuditRef = { group: string; resource: string; subresource: string | null; namespace: string | null; name: string | null };

/** The facts of one audit event the rules look at. */
export type AuditFacts = { stage: string; verb: string; code: number | null; requestURI: string; username: string; ref: AuditRef | null };

export type Verdict =
  | { keep: true; denied: boolean; reason: string }
  | { keep: false; as: 'ignored' | 'noise'; reason: string };

/** Who wrote: a person (anything outside `system:`), a CI service account, or the cluster's plumbing. */
export type Identity =
  | { class: 'person' }
  | { class: 'ci'; namespace: string; account: string }
  | { class: 'plumbing'; serviceAccount: { namespace: string; account: string } | null };

/** The organisation's CI namespaces, less the ones that can never be (Argo CD's own, and the cluster's). */
export function ciNamespaceSet(ciNamespaces: readonly string[]): Set<string> {
  const never = new Set<string>(NEVER_CI_NAMESPACES);
  return new Set(ciNamespaces.filter((ns) => !never.has(ns)));
}

const SERVICE_ACCOUNT = /^system:serviceaccount:([^:]+):([^:]+)$/;

export function identityOf(username: string, ci: ReadonlySet<string>): Identity {
  const sa = SERVICE_ACCOUNT.exec(username);
  if (sa) {
    const [, namespace, account] = sa as unknown as [string, string, string];
    return ci.has(namespace) ? { class: 'ci', namespace, account } : { class: 'plumbing', serviceAccount: { namespace, account } };
  }
  return username.startsWith('system:') ? { class: 'plumbing', serviceAccount: null } : { class: 'person' };
}

/** `?dryRun=All` anywhere in the query: the server validated the write and kept nothing (Flux diffs every object this way). */
export function isDryRunAll(requestURI: string): boolean {
  const q = requestURI.indexOf('?');
  if (q < 0) return false;
  return new URLSearchParams(requestURI.slice(q + 1)).getAll('dryRun').some((v) => v === 'All');
}

/** Objects a pipeline starts in order to run, not the change it ships. */
const SPAWNED_RESOURCES = new Set(['pods', 'taskruns', 'pipelineruns', 'customruns', 'runs']);
/** Flux's and Tekton's own objects: `tekton.dev` itself is Tekton's core group, so the bare domain counts too. */
const CONTROLLER_GROUPS = ['fluxcd.io', 'tekton.dev'];
/** GitLab Runner's Kubernetes executor names each job's pod, secrets and services this way (8-character runner token). */
const GITLAB_RUNNER_JOB = /^runner-[a-z0-9]+-project-\d+-concurrent-\d+/;

const inGroup = (group: string, domain: string) => group === domain || group.endsWith(`.${domain}`);

/** A pipeline's by-product: what its own runs spawn, its controller's objects, a GitLab Runner job's objects. */
export function spawnedReason(ref: AuditRef): string | null {
  if (SPAWNED_RESOURCES.has(ref.resource)) return `${ref.resource}: what a pipeline spawns to run`;
  const controller = CONTROLLER_GROUPS.find((d) => inGroup(ref.group, d));
  if (controller) return `an object of the ${controller} controller`;
  if (ref.name && GITLAB_RUNNER_JOB.test(ref.name)) return 'a GitLab Runner job object';
  return null;
}

/**
 * Writes that are bookkeeping whoever makes them: leader-election leases and Event objects change
 * every few seconds (Flux's controllers, running in a CI namespace, write both). The audit policy in
 * docs/observed.md drops them; this keeps a looser policy from filling the list.
 */
function bookkeepingReason(ref: AuditRef): string | null {
  if (ref.resource === 'leases' && ref.group === 'coordination.k8s.io') return 'a lease (leader election, node heartbeat)';
  if (ref.resource === 'events' && (ref.group === '' || ref.group === 'events.k8s.io')) return 'an Event object';
  return null;
}

/** Requests sent with verb create that store nothing: questions to the API and connections to a pod. */
const REVIEW_RESOURCES = new Set(['tokenreviews', 'subjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'localsubjectaccessreviews', 'selfsubjectreviews']);
const CONNECT_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy']);

/** 401 and 403 are refusals: a denied attempt, never a failed write. */
export function deniedCode(code: number | null, reason?: string | null): string | null {
  if (code === 401) return `401 ${reason || 'Unauthorized'}`;
  if (code === 403) return `403 ${reason || 'Forbidden'}`;
  return null;
}

/** One audit event: a row (and whether it was refused), or left out as ignored or noise, with why. */
export function judge(f: AuditFacts, ci: ReadonlySet<string>): Verdict {
  if (f.stage !== 'ResponseComplete') return { keep: false, as: 'ignored', reason: `stage ${f.stage}: only ResponseComplete says how a write ended` };
  if (!isWriteVerb(f.verb)) return { keep: false, as: 'ignored', reason: `verb ${f.verb} is not a write` };
  if (!f.ref) return { keep: false, as: 'ignored', reason: 'not an object of the API (a non-resource URL)' };
  if (REVIEW_RESOURCES.has(f.ref.resource)) return { keep: false, as: 'ignored', reason: `${f.ref.resource} asks the API a question and stores nothing` };
  if (f.ref.subresource && CONNECT_SUBRESOURCES.has(f.ref.subresource)) return { keep: false, as: 'ignored', reason: `${f.ref.subresource} opens a connection to a pod, it writes no object` };
  // A refusal is kept before any noise rule: a pipeline or a node refused is exactly what SecOps must see.
  if (deniedCode(f.code)) return { keep: true, denied: true, reason: `refused with ${f.code}` };
  if (f.code !== null && (f.code < 200 || f.code > 299)) return { keep: false, as: 'ignored', reason: `the write failed with ${f.code}: nothing changed` };
  if (f.ref.subresource === 'status') return { keep: false, as: 'noise', reason: 'a status write' };
  if (isDryRunAll(f.requestURI)) return { keep: false, as: 'noise', reason: 'a server-side dry run (dryRun=All)' };
  const bookkeeping = bookkeepingReason(f.ref);
  if (bookkeeping) return { keep: false, as: 'noise', reason: bookkeeping };
  const who = identityOf(f.username, ci);
  if (who.class === 'plumbing') return { keep: false, as: 'noise', reason: who.serviceAccount ? `service account of ${who.serviceAccount.namespace}, not a CI namespace` : 'a system: identity (plumbing)' };
  if (who.class === 'ci') {
    const spawned = spawnedReason(f.ref);
    if (spawned) return { keep: false, as: 'noise', reason: spawned };
  }
  return { keep: true, denied: false, reason: who.class === 'ci' ? `CI service account in ${who.namespace}` : 'a person' };
}

/** One object (group/resource/namespace/name) written by one account: many such writes in a delivery keep the newest. */
export const foldKey = (username: string, ref: AuditRef) => JSON.stringify([username, ref.group, ref.resource, ref.namespace ?? '', ref.name ?? '']);

/** The 50-objects-an-hour bucket of a CI service account: `<cluster> · <account> · <YYYY-MM-DDTHH>` in UTC. */
export const capBucket = (cluster: string, username: string, at: Date) => `${cluster} · ${username} · ${at.toISOString().slice(0, 13)}`;

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** kubectl's copy of the whole applied object (a Secret's values included) rides in this annotation. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const LAST_APPLIED_PATH = '/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration';

/** Values of a Secret's data/stringData become NOT_STORED; the keys stay, so which one changed is known. */
function maskValues(v: Json): Json {
  if (!isObject(v)) return v === null ? null : NOT_STORED;
  return Object.fromEntries(Object.keys(v).map((k) => [k, v[k] === null ? null : NOT_STORED]));
}

/** Metadata that says what the object is, without the server's bookkeeping (uid, managedFields …) or kubectl's copy. */
function trimMetadata(m: Json): Json {
  if (!isObject(m)) return m;
  const out: Record<string, Json> = {};
  for (const k of ['name', 'generateName', 'namespace', 'labels', 'annotations', 'finalizers']) if (m[k] !== undefined && m[k] !== null) out[k] = m[k];
  if (isObject(out.annotations)) {
    const rest = Object.fromEntries(Object.entries(out.annotations).filter(([k]) => k !== LAST_APPLIED));
    if (Object.keys(rest).length) out.annotations = rest; else delete out.annotations;
  }
  return out;
}

/**
 * What a write's body says changed, as shown in its diff: a patch as sent (a JSON patch array, or a
 * merge patch), a create/update's object without status and server metadata; a Secret's values are
 * never kept. null when the body was not recorded (Metadata level) or the write was a delete.
 */
export function diffBody(verb: string, requestObject: Json, isSecret: boolean): Json | null {
  if (verb === 'delete' || verb === 'deletecollection' || requestObject === undefined || requestObject === null) return null;
  if (Array.isArray(requestObject)) {
    // A JSON patch: for a Secret every value is masked, whatever its path (`/data`, `/stringData`, `/`).
    return requestObject
      .filter((op) => !(isObject(op) && typeof op.path === 'string' && (op.path === LAST_APPLIED_PATH || op.path.startsWith('/metadata/managedFields'))))
      .map((op) => (isSecret && isObject(op) && 'value' in op ? { ...op, value: NOT_STORED } : op));
  }
  if (!isObject(requestObject)) return requestObject;
  const out: Record<string, Json> = { ...requestObject };
  if (verb !== 'patch') delete out.status;
  if ('metadata' in out) out.metadata = trimMetadata(out.metadata);
  if (isObject(out.metadata) && !Object.keys(out.metadata).length) delete out.metadata;
  if (isSecret) for (const k of ['data', 'stringData']) if (k in out) out[k] = maskValues(out[k]);
  return out;
}

/** The labels a workload names its service by, most specific first. */
const SERVICE_LABELS = ['app.kubernetes.io/name', 'app.kubernetes.io/instance', 'app'];

const metadataOf = (o: Json): Record<string, Json> | null => (isObject(o) && isObject(o.metadata) ? o.metadata : null);
const stringMap = (m: Record<string, Json> | null, key: string): Record<string, string> => {
  const v = m?.[key];
  return isObject(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
};

/** The object's own service from its labels: the resulting object (responseObject) first, then what was sent. */
export function serviceHintOf(...objects: Json[]): string | null {
  for (const label of SERVICE_LABELS) {
    for (const o of objects) {
      const v = stringMap(metadataOf(o), 'labels')[label]?.trim();
      if (v) return v;
    }
  }
  return null;
}

export const CHANGE_ID_ANNOTATION = 'changeledger.io/change-id';
const CHANGE_ID_PATH = '/metadata/annotations/changeledger.io~1change-id';

/** A planned change's id the write carried in `changeledger.io/change-id` (an object's annotation, or a JSON patch adding it). */
export function changeRefOf(...objects: Json[]): string | null {
  for (const o of objects) {
    const values = Array.isArray(o)
      ? o.filter((op) => isObject(op) && op.path === CHANGE_ID_PATH).map((op) => (op as Record<string, Json>).value)
      : [stringMap(metadataOf(o), 'annotations')[CHANGE_ID_ANNOTATION]];
    for (const v of values) {
      const ref = changeRefIn(v);
      if (ref) return ref;
    }
  }
  return null;
}
