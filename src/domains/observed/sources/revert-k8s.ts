/**
 * The revert drafted for one Kubernetes write, from its audit event alone. Pure. A person reads it
 * and runs it with their own access; changeledger never does. What an audit event can undo depends
 * on its level: a create names the object to delete; a delete holds the object as it was only when
 * it was logged at RequestResponse level and the apiserver answered with the object; an update or
 * patch holds the new state, never the old one, except that a workload keeps its earlier pod
 * templates as revisions. The command-line helpers at the end are shared with the cloud drafts.
 */
import { Document, visit } from 'yaml';
import { LIMITS, NOT_STORED } from '../observed-types.js';
import type { RevertDraft } from '../unmanaged/unmanaged-types.js';
import { diffBody, type AuditRef } from './k8s-rules.js';

/** What the draft is made from: the audit event's verb, objectRef (name null when not known exactly) and bodies. */
export type K8sWriteFacts = { verb: string; ref: AuditRef; requestObject: unknown; responseObject: unknown };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Workloads whose earlier pod templates the cluster keeps as revisions (`kubectl rollout undo`). */
const ROLLOUT_RESOURCES = new Set(['deployments', 'statefulsets', 'daemonsets']);
/** `extensions` served deployments and daemonsets before apps/v1 (clusters older than 1.16 still log it). */
const ROLLOUT_GROUPS = new Set(['apps', 'extensions']);

/** Server bookkeeping the apiserver refuses or replaces on a create: the re-created object is a new one. */
const SERVER_METADATA = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'];
/** kubectl's copy of the whole object: for a Secret it holds the values in clear, and apply writes a new one anyway. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Deleting these takes more with them than the object the write created. */
const WIDE_DELETES: Record<string, string> = {
  namespaces: 'and everything in it: check first that nothing that must stay was put in it since',
  customresourcedefinitions: 'and every object of that kind: check first that none must stay',
};

const isSecretRef = (ref: AuditRef) => ref.group === '' && ref.resource === 'secrets';

/** `deployments/checkout in namespace shop`: how a person is told which object. */
function objectWords(ref: AuditRef, name: string | null): string {
  const path = [ref.resource, name, ref.subresource].filter(Boolean).join('/');
  return ref.namespace ? `${path} in namespace ${ref.namespace}` : path;
}

/** What the event says about the object, for a draft without a command (nothing of its bodies). */
function knownFacts(w: K8sWriteFacts, name: string | null, extra: Obj = {}): string {
  const { ref } = w;
  return prettyJson({
    verb: w.verb, ...(ref.group ? { apiGroup: ref.group } : {}), resource: ref.resource, ...(ref.subresource ? { subresource: ref.subresource } : {}),
    ...(ref.namespace ? { namespace: ref.namespace } : {}), ...(name ? { name } : {}), ...extra,
  });
}

const nameIn = (o: unknown): string | null => (isObj(o) && isObj(o.metadata) ? text(o.metadata.name) : null);

/** The object as it was, ready to be created again: no server bookkeeping, no status, a Secret's values left out. */
function recreatable(o: Obj, ref: AuditRef): Obj {
  const out: Obj = { ...o };
  delete out.status;
  const meta: Obj = isObj(o.metadata) ? { ...o.metadata } : {};
  for (const k of SERVER_METADATA) delete meta[k];
  if (isObj(meta.annotations)) {
    const rest = Object.fromEntries(Object.entries(meta.annotations).filter(([k]) => k !== LAST_APPLIED));
    if (Object.keys(rest).length) meta.annotations = rest; else delete meta.annotations;
  }
  if (!text(meta.namespace) && ref.namespace) meta.namespace = ref.namespace;
  out.metadata = meta;
  if (o.kind === 'Secret' || isSecretRef(ref)) {
    for (const k of ['data', 'stringData']) {
      const values = out[k];
      if (isObj(values)) out[k] = Object.fromEntries(Object.keys(values).map((key) => [key, NOT_STORED]));
    }
  }
  return out;
}

/** The deleted object the apiserver answered with: a Status (what most deletes answer) holds only its name. */
const isObjectBody = (o: unknown): o is Obj => isObj(o) && text(o.kind) !== null && o.kind !== 'Status' && text(o.apiVersion) !== null && nameIn(o) !== null;

/** Why the event holds no object as it was: the apiserver answered with a Status, or the body was not logged. */
function missingBefore(w: K8sWriteFacts, name: string | null, what: string): RevertDraft {
  const res = w.responseObject;
  if (isObj(res) && res.kind === 'Status') {
    const details = isObj(res.details) ? res.details : {};
    return noInverse(
      `The apiserver answered this delete with a Status, not with the deleted object, so the audit event does not hold ${what} as it was. Re-create it from where it is defined (Git, a Helm chart) or from a backup.`,
      knownFacts(w, name, text(details.uid) ? { uid: details.uid } : {}),
    );
  }
  return noInverse(
    `The audit event does not hold ${what} as it was: the audit policy logs ${w.ref.resource} below RequestResponse level. For the object before a delete to be known, the audit policy must log ${w.ref.resource} at RequestResponse level. Until then, re-create it from where it is defined (Git, a Helm chart) or from a backup.`,
    knownFacts(w, name),
  );
}

function draftDelete(w: K8sWriteFacts, name: string | null): RevertDraft {
  const what = objectWords(w.ref, name);
  const before = w.responseObject;
  const collection = w.verb === 'deletecollection';
  let manifestOf: Obj | null = null;
  let secret = false;
  if (collection && isObj(before) && Array.isArray(before.items)) {
    const items = before.items.filter(isObjectBody).map((item) => recreatable(item, w.ref));
    // A List keeps the many objects one manifest, which `kubectl apply -f -` reads as it reads one object.
    if (items.length) manifestOf = { apiVersion: 'v1', kind: 'List', items };
    secret = items.some((i) => i.kind === 'Secret');
  } else if (!collection && isObjectBody(before)) {
    manifestOf = recreatable(before, w.ref);
    secret = manifestOf.kind === 'Secret';
  }
  if (!manifestOf) return missingBefore(w, name, collection ? `the deleted ${w.ref.resource}` : what);
  const again = collection ? `the ${(manifestOf.items as unknown[]).length} deleted ${w.ref.resource}${w.ref.namespace ? ` in namespace ${w.ref.namespace}` : ''}` : what;
  return {
    tool: 'kubectl',
    summary: `Creates ${again} again as it was before this delete (a new object, with a new uid): give the manifest to the command on its standard input.`
      + (secret ? ` The Secret's values are not stored here: every ${NOT_STORED} in the manifest must be filled in by hand (base64 under data) before it is applied.` : ''),
    command: 'kubectl apply -f -',
    manifest: manifestYaml(manifestOf),
    changed: null,
  };
}

/** Whether a patch body touches the pod template; null when that cannot be told (a full update, or no body logged). */
function touchesTemplate(verb: string, body: unknown): boolean | null {
  if (verb !== 'patch' || body === undefined || body === null) return null;
  if (Array.isArray(body)) return body.some((op) => isObj(op) && typeof op.path === 'string' && (op.path === '/spec' || op.path.startsWith('/spec/template')));
  if (!isObj(body)) return null;
  return isObj(body.spec) && 'template' in body.spec;
}

function draftUpdate(w: K8sWriteFacts, name: string | null): RevertDraft {
  const { ref } = w;
  const body = diffBody(w.verb, w.requestObject, isSecretRef(ref));
  const changedBody = body === null ? null : prettyJson(body);
  const workload = ROLLOUT_RESOURCES.has(ref.resource) && ROLLOUT_GROUPS.has(ref.group) && !ref.subresource;
  if (workload && name) {
    const template = touchesTemplate(w.verb, w.requestObject);
    if (template === false) {
      return noInverse(
        `This write did not change the pod template of ${objectWords(ref, name)}, so rolling back to the previous revision would undo an earlier change instead. The audit event holds the new values, not the old ones.`,
        changedBody ?? knownFacts(w, name),
      );
    }
    const command = commandLine('kubectl rollout undo', `${ref.resource}/${name}`, ...(ref.namespace ? [['-n', ref.namespace] as const] : []));
    if (!command) return dashRefused(changedBody ?? knownFacts(w, name));
    return {
      tool: 'kubectl',
      summary: `Returns ${objectWords(ref, name)} to its previous revision, the pod template it ran before this write. If it was rolled out again since, the previous revision is no longer the one before this write: look at \`kubectl rollout history\` first.`
        + (template === null ? ' Only the pod template goes back; anything else this write changed (replicas, strategy) stays as it is.' : ''),
      command, manifest: null, changed: null,
    };
  }
  const notLogged = body === null ? ' The request body was not logged either (the audit policy logs this resource at Metadata level), so what it changed is not known.' : '';
  return noInverse(`The audit event holds the new state of ${objectWords(ref, name)}, not the old one, so no revert can be drafted.${notLogged}`, changedBody ?? knownFacts(w, name));
}

function draftCreate(w: K8sWriteFacts, name: string | null): RevertDraft {
  const { ref } = w;
  if (ref.subresource) {
    return noInverse(`This request on the ${ref.subresource} subresource of ${objectWords({ ...ref, subresource: null }, name)} made no object of its own that could be deleted.`, knownFacts(w, name));
  }
  if (!name) {
    return noInverse(`The name of the created ${ref.resource} is not in the audit event (the name was generated and the response was not logged): find the object with kubectl get and delete it by hand.`, knownFacts(w, null));
  }
  const type = ref.group ? `${ref.resource}.${ref.group}` : ref.resource;
  const command = commandLine('kubectl delete', type, name, ...(ref.namespace ? [['-n', ref.namespace] as const] : []));
  if (!command) return dashRefused(knownFacts(w, name));
  const wide = WIDE_DELETES[ref.resource];
  return { tool: 'kubectl', summary: `Deletes ${objectWords(ref, name)}, which this write created${wide ? `, ${wide}` : ''}.`, command, manifest: null, changed: null };
}

/** The revert of one applied Kubernetes write (a refused one changed nothing and gets none). */
export function draftK8sRevert(w: K8sWriteFacts): RevertDraft {
  const name = w.ref.name ?? nameIn(w.responseObject) ?? nameIn(w.requestObject);
  switch (w.verb) {
    case 'create': return draftCreate(w, name);
    case 'delete': return draftDelete(w, name);
    case 'deletecollection': return draftDelete(w, null);
    case 'update': case 'patch': return draftUpdate(w, name);
    default: return noInverse(`No known inverse for the verb ${w.verb}.`, knownFacts(w, name));
  }
}

/* ----- YAML that kubectl reads back as written ----- */

/** A word every YAML reader takes as a string when written plain. */
const PLAIN_SAFE = /^[A-Za-z][A-Za-z0-9_./-]*$/;
/** kubectl reads YAML 1.1, where these plain words are booleans or null ("on", "y", "no" in a ConfigMap …). */
const YAML11_WORDS = /^(y|yes|n|no|on|off|true|false|null)$/i;

/**
 * The manifest as YAML. Every string that is not a plain word is double-quoted: kubectl's reader
 * follows YAML 1.1, which takes `on`, `0o17` or `1_000` for a boolean or a number, so a value the
 * `yaml` library (YAML 1.2) would leave plain could come back as another type.
 */
export function manifestYaml(o: Obj): string {
  const doc = new Document(o);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      const s = node.value;
      if (s.includes('\n') && !/[ \t\r](\n|$)/.test(s)) node.type = 'BLOCK_LITERAL';
      else node.type = PLAIN_SAFE.test(s) && !YAML11_WORDS.test(s) ? 'PLAIN' : 'QUOTE_DOUBLE';
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/* ----- Shared by the Kubernetes, AWS and Azure drafts ----- */

/** A word the shell takes as it is: anything else is single-quoted, so no event can inject shell. */
const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One shell word: as it is when harmless, else in single quotes (a quote inside written '\''). */
export function shellQuote(word: string): string {
  return SHELL_SAFE.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A value as a command-line word, or a flag written by us followed by its values. */
export type CommandArg = string | readonly [flag: string, ...values: string[]];

/**
 * A command line: the program (our own words), then each value quoted. null when a value from the
 * event starts with a dash: quoting cannot stop the tool reading it as an option (`--all`).
 */
export function commandLine(program: string, ...args: CommandArg[]): string | null {
  const words = [program];
  for (const a of args) {
    const [flag, values] = typeof a === 'string' ? [null, [a]] : [a[0], a.slice(1)];
    if (values.some((v) => v.startsWith('-'))) return null;
    if (flag) words.push(flag);
    words.push(...values.map(shellQuote));
  }
  return words.join(' ');
}

/** What ends a text cut to its limit (the intake cuts diffs the same way). */
const CUT_MARK = '…(cut)';

/** Pretty JSON, cut to the diff limit: what a person is shown of a write no command can undo. */
export function prettyJson(value: unknown): string {
  const t = JSON.stringify(value, null, 2) ?? 'null';
  return t.length <= LIMITS.diffChars ? t : `${t.slice(0, LIMITS.diffChars - CUT_MARK.length)}${CUT_MARK}`;
}

export const noInverse = (summary: string, changed: string | null): RevertDraft => ({ tool: 'none', summary, command: null, manifest: null, changed });

/** A value of the event starts with a dash: no command, and why. */
export const dashRefused = (changed: string | null): RevertDraft =>
  noInverse('A name in the event starts with a dash, which the command would read as an option: no command is drafted, undo this write by hand.', changed);
