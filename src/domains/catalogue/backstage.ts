import { parseAllDocuments } from 'yaml';
import { filePlace } from '../../platform/field-words.js';
import { TIERS, type Entity, type EntityKind, type Estate, type Link, type Tier } from './entity.js';

export type BackstageResult =
  | { ok: true; estate: Estate; ignored: number; warnings: string[] }
  | { ok: false; error: string; field: string };

export type BackstageText = { ok: true; docs: unknown[] } | { ok: false; error: string; field: string; line: number | null };

export const TIER_ANNOTATION = 'changeledger.io/tier';
export const ENVIRONMENT_ANNOTATION = 'changeledger.io/environment';
export const ENGINE_ANNOTATION = 'changeledger.io/engine';
/**
 * Backstage's repository annotations (`owner/name`, `group/project`): kept in the entity's attrs as
 * githubSlug / gitlabSlug, so an observed push or merge of that repository finds its service.
 */
export const SLUG_ANNOTATIONS = { githubSlug: 'github.com/project-slug', gitlabSlug: 'gitlab.com/project-slug' } as const;

/**
 * The documents of one or more catalog-info.yaml files, as parsed values. An empty document (a
 * trailing `---`) stays in the list as null, so that `documents.N` in an error is the N-th document
 * of the text; a syntax error names its document and line.
 */
export function parseBackstageText(text: string): BackstageText {
  const parsed = parseAllDocuments(text, { prettyErrors: true });
  // An empty text is an EmptyStream, which is array-like but has no documents.
  const docs = Array.isArray(parsed) ? parsed : [];
  const values: unknown[] = [];
  for (const [i, d] of docs.entries()) {
    const err = d.errors[0];
    if (err) {
      const line = err.linePos?.[0].line ?? null;
      return { ok: false, error: `${filePlace(`documents.${i}`)} is not valid YAML${line === null ? '' : ` (line ${line})`}: ${err.message.split('\n')[0]}`, field: `documents.${i}`, line };
    }
    try {
      // Aliases are capped as in our own format: a few hundred bytes must not expand to gigabytes.
      values.push(d.toJS({ maxAliasCount: 100 }) as unknown);
    } catch (e) {
      return { ok: false, error: `${filePlace(`documents.${i}`)} cannot be read: ${(e as Error).message.split('\n')[0]}`, field: `documents.${i}`, line: null };
    }
  }
  return { ok: true, docs: values };
}

type Obj = Record<string, unknown>;
type Fail = { ok: false; error: string; field: string };
type Ref = { kind: string; namespace: string; name: string };
/** A Component, Resource, System or API of the set, validated. */
type Decl = {
  at: string; kind: 'component' | 'resource' | 'system' | 'api'; namespace: string; name: string; spec: Obj;
  /** The catalogue key; APIs have none: they only join providers and consumers. */
  key: string | null; entityKind: EntityKind | null;
};

// Backstage's own rules: a name is at most 63 of [a-zA-Z0-9] separated by - _ or .; a namespace is a DNS label.
const NAME = /^[a-zA-Z0-9]+(?:[-_.][a-zA-Z0-9]+)*$/;
const NAMESPACE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// Templates are scaffolder.backstage.io/v1beta3: any backstage.io group is Backstage's.
const API_VERSION = /^(?:[a-z0-9-]+\.)*backstage\.io\/[a-z0-9]+$/;
const KINDS = ['component', 'resource', 'system', 'api'] as const;
const RESOURCE_KINDS: Record<string, { kind: EntityKind; prefix: string }> = {
  database: { kind: 'database', prefix: 'db' }, vm: { kind: 'vm', prefix: 'vm' }, host: { kind: 'host', prefix: 'host' },
};

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (field: string, error: string): Fail => ({ ok: false, error: `${filePlace(field)} ${error}`, field });

/**
 * `[kind:][namespace/]name`. As in Backstage, a missing namespace is the referring entity's, and
 * kinds and namespaces compare case-insensitively (so do names, through `refId`).
 */
function parseRef(raw: string, defaultKind: string, defaultNamespace: string): Ref | null {
  const colon = raw.indexOf(':');
  const kind = colon >= 0 ? raw.slice(0, colon) : defaultKind;
  const rest = colon >= 0 ? raw.slice(colon + 1) : raw;
  const slash = rest.indexOf('/');
  const namespace = slash >= 0 ? rest.slice(0, slash) : defaultNamespace;
  const name = slash >= 0 ? rest.slice(slash + 1) : rest;
  if (!kind || !namespace || !name || name.includes('/') || name.includes(':')) return null;
  return { kind: kind.toLowerCase(), namespace: namespace.toLowerCase(), name };
}
const refId = (r: Ref) => `${r.kind}:${r.namespace}/${r.name.toLowerCase()}`;

/** Reads an optional string field; a present non-string is an error. */
function optString(o: Obj, key: string, at: string): string | null | Fail {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return fail(`${at}.${key}`, 'must be a string');
  return v.trim() === '' ? null : v.trim();
}

/** Reads an optional list of entity references, each checked for its syntax. */
function refList(spec: Obj, key: string, at: string, defaultKind: string, ns: string): Array<{ ref: Ref; at: string }> | Fail {
  const v = spec[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return fail(`${at}.spec.${key}`, 'must be a list of entity references');
  const out: Array<{ ref: Ref; at: string }> = [];
  for (const [j, raw] of v.entries()) {
    const ref = typeof raw === 'string' ? parseRef(raw.trim(), defaultKind, ns) : null;
    if (!ref) return fail(`${at}.spec.${key}.${j}`, 'must be an entity reference like component:default/checkout');
    out.push({ ref, at: `${at}.spec.${key}.${j}` });
  }
  return out;
}

const isFail = (v: unknown): v is Fail => isObj(v) && v.ok === false;

/**
 * The documents of catalog-info.yaml files → services (Components), databases, hosts, VMs and
 * externals (Resources), business processes (Systems) with their members, and calls links from
 * dependsOn, dependencyOf and the APIs one Component provides and another consumes. A reference to
 * something the set does not declare makes no link: it is listed in `warnings`, as the set may be
 * only part of a catalogue. Other kinds (Group, User, Location, Domain, Template…) are counted in
 * `ignored`.
 */
export function fromBackstage(docs: unknown[]): BackstageResult {
  if (!Array.isArray(docs)) return { ok: false, error: 'expected the documents of catalog-info.yaml files: a list', field: 'documents' };
  const decls: Decl[] = [];
  const entities = new Map<string, Entity>();
  const byRef = new Map<string, Decl>();
  const warnings: string[] = [];
  let ignored = 0;

  for (const [i, doc] of docs.entries()) {
    const at = `documents.${i}`;
    if (doc === null || doc === undefined) continue;
    if (!isObj(doc)) return fail(at, 'must be a mapping with apiVersion, kind and metadata');
    if (typeof doc.apiVersion !== 'string' || !API_VERSION.test(doc.apiVersion)) return fail(`${at}.apiVersion`, 'must be a Backstage apiVersion like backstage.io/v1alpha1');
    if (typeof doc.kind !== 'string' || doc.kind.trim() === '') return fail(`${at}.kind`, 'is required');
    if (!isObj(doc.metadata)) return fail(`${at}.metadata`, 'is required');
    const meta = doc.metadata;
    if (typeof meta.name !== 'string' || meta.name.length > 63 || !NAME.test(meta.name)) return fail(`${at}.metadata.name`, 'is required: at most 63 letters and digits, separated by - _ or .');
    if (meta.namespace !== undefined && (typeof meta.namespace !== 'string' || meta.namespace.length > 63 || !NAMESPACE.test(meta.namespace))) return fail(`${at}.metadata.namespace`, 'must be lower-case letters, digits and -');
    const kind = doc.kind.trim().toLowerCase();
    if (!(KINDS as readonly string[]).includes(kind)) {
      ignored += 1;
      continue;
    }
    for (const k of ['annotations', 'labels'] as const) {
      const v = meta[k];
      if (v !== undefined && v !== null && !isObj(v)) return fail(`${at}.metadata.${k}`, 'must be a mapping');
    }
    if (doc.spec !== undefined && doc.spec !== null && !isObj(doc.spec)) return fail(`${at}.spec`, 'must be a mapping');
    const spec = (doc.spec ?? {}) as Obj;
    const namespace = (meta.namespace as string | undefined) ?? 'default';
    const name = meta.name;
    const decl: Decl = { at, kind: kind as Decl['kind'], namespace, name, spec, key: null, entityKind: null };
    const made = entityOf(decl, meta, warnings);
    if (isFail(made)) return made;
    if (made) {
      decl.key = made.key;
      decl.entityKind = made.kind;
      const first = entities.get(made.key);
      if (!first) entities.set(made.key, made);
      else warnings.push(`${at}: ${kind}:${namespace}/${name} has the same key ${made.key} as ${String(first.attrs?.backstageRef)}; the first is kept`);
    }
    const id = refId({ kind, namespace, name });
    if (!byRef.has(id)) byRef.set(id, decl);
    decls.push(decl);
  }

  const links = new Map<string, Link>();
  const link = (from: string, to: string, via: Link['via']) => {
    if (from === to) return;
    const id = `${from}\u0000${to}\u0000${via}`;
    if (!links.has(id)) links.set(id, { from, to, via });
  };
  /** A dependency's link: running on a host or VM is runs-on, anything else it needs is calls. */
  const dependency = (from: Decl, to: Decl) => link(from.key!, to.key!, to.entityKind === 'vm' || to.entityKind === 'host' ? 'runs-on' : 'calls');
  const target = (ref: Ref, at: string, what: string): Decl | null => {
    const d = byRef.get(refId(ref));
    if (d && (d.kind === 'component' || d.kind === 'resource')) return d;
    warnings.push(`${at}: ${what} ${refId(ref)}, which is not a component or resource of this set; no link`);
    return null;
  };

  // Which Components provide each API: a consumer calls every provider of what it consumes.
  const providers = new Map<string, Decl[]>();
  const lists = new Map<Decl, Record<'dependsOn' | 'dependencyOf' | 'providesApis' | 'consumesApis', Array<{ ref: Ref; at: string }>>>();
  for (const d of decls) {
    if (d.kind !== 'component' && d.kind !== 'resource') continue;
    const dependsOn = refList(d.spec, 'dependsOn', d.at, 'component', d.namespace);
    if (isFail(dependsOn)) return dependsOn;
    const dependencyOf = refList(d.spec, 'dependencyOf', d.at, 'component', d.namespace);
    if (isFail(dependencyOf)) return dependencyOf;
    const providesApis = d.kind === 'component' ? refList(d.spec, 'providesApis', d.at, 'api', d.namespace) : [];
    if (isFail(providesApis)) return providesApis;
    const consumesApis = d.kind === 'component' ? refList(d.spec, 'consumesApis', d.at, 'api', d.namespace) : [];
    if (isFail(consumesApis)) return consumesApis;
    lists.set(d, { dependsOn, dependencyOf, providesApis, consumesApis });
    for (const p of providesApis) {
      const list = providers.get(refId(p.ref));
      if (list) list.push(d);
      else providers.set(refId(p.ref), [d]);
    }
  }

  for (const d of decls) {
    if (d.kind !== 'component' && d.kind !== 'resource') continue;
    const l = lists.get(d)!;
    for (const { ref, at } of l.dependsOn) {
      const t = target(ref, at, 'depends on');
      if (t) dependency(d, t);
    }
    for (const { ref, at } of l.dependencyOf) {
      const t = target(ref, at, 'is a dependency of');
      if (t) dependency(t, d);
    }
    for (const { ref, at } of l.consumesApis) {
      const ps = (providers.get(refId(ref)) ?? []).filter((p) => p !== d);
      if (ps.length === 0) warnings.push(`${at}: consumes ${refId(ref)}, which no other component of this set provides; no link`);
      for (const p of ps) link(d.key!, p.key!, 'calls');
    }
    const system = d.spec.system;
    if (typeof system === 'string' && system.trim() !== '') {
      const ref = parseRef(system.trim(), 'system', d.namespace);
      const s = ref ? byRef.get(refId(ref)) : undefined;
      if (s && s.kind === 'system') link(s.key!, d.key!, 'member');
      else warnings.push(`${d.at}.spec.system: ${ref ? refId(ref) : system} is not a system of this set; no member link`);
    }
  }
  return { ok: true, estate: { entities: [...entities.values()], links: [...links.values()] }, ignored, warnings };
}

/** The catalogue entity of a Component, Resource or System; null for an API. */
function entityOf(d: Decl, meta: Obj, warnings: string[]): Entity | null | Fail {
  if (d.kind === 'api') return null;
  const { at, spec, name } = d;
  const annotations = (meta.annotations ?? {}) as Obj;
  const labels = (meta.labels ?? {}) as Obj;
  const annotation = (key: string): string | null | Fail => {
    const v = annotations[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string' || v.trim() === '') return fail(`${at}.metadata.annotations.${key}`, 'must be a non-empty string');
    return v.trim();
  };
  // Our own annotation is explicit, so a wrong value is an error; the `tier` label is a common
  // convention with other vocabularies (frontend, backend), so a value we do not know is only noted.
  let tier: Tier | null = null;
  const tierAnnotation = annotation(TIER_ANNOTATION);
  if (isFail(tierAnnotation)) return tierAnnotation;
  if (tierAnnotation !== null) {
    if (!(TIERS as readonly string[]).includes(tierAnnotation)) return fail(`${at}.metadata.annotations.${TIER_ANNOTATION}`, 'must be critical, important or standard');
    tier = tierAnnotation as Tier;
  } else if (typeof labels.tier === 'string') {
    if ((TIERS as readonly string[]).includes(labels.tier)) tier = labels.tier as Tier;
    else warnings.push(`${at}.metadata.labels.tier: "${labels.tier}" is not critical, important or standard; no tier`);
  }
  const environment = annotation(ENVIRONMENT_ANNOTATION);
  if (isFail(environment)) return environment;
  const engine = annotation(ENGINE_ANNOTATION);
  if (isFail(engine)) return engine;

  const ownerRaw = optString(spec, 'owner', `${at}.spec`);
  if (isFail(ownerRaw)) return ownerRaw;
  // group:default/payments is the team "payments": the kind and namespace are Backstage's bookkeeping.
  const owner = ownerRaw === null ? null : parseRef(ownerRaw, 'group', d.namespace)?.name ?? null;
  if (ownerRaw !== null && owner === null) return fail(`${at}.spec.owner`, 'must be an entity reference like group:default/payments');
  const systemRaw = optString(spec, 'system', `${at}.spec`);
  if (isFail(systemRaw)) return systemRaw;
  const system = systemRaw === null ? null : parseRef(systemRaw, 'system', d.namespace)?.name ?? null;
  if (systemRaw !== null && system === null) return fail(`${at}.spec.system`, 'must be an entity reference like system:default/shop');
  const type = optString(spec, 'type', `${at}.spec`);
  if (isFail(type)) return type;
  const lifecycle = optString(spec, 'lifecycle', `${at}.spec`);
  if (isFail(lifecycle)) return lifecycle;

  const attrs: Record<string, unknown> = { backstageRef: `${d.kind}:${d.namespace}/${name}` };
  if (typeof meta.title === 'string') attrs.title = meta.title;
  for (const [attr, key] of Object.entries(SLUG_ANNOTATIONS)) {
    const slug = annotation(key);
    if (isFail(slug)) return slug;
    if (slug !== null) attrs[attr] = slug;
  }
  const common = { name, owner, tier, environment };
  if (d.kind === 'system') {
    if (typeof spec.domain === 'string') attrs.domain = spec.domain;
    return { key: `bp:${name}`, kind: 'business-process', ...common, attrs };
  }
  if (system !== null) attrs.system = system;
  if (type !== null) attrs.type = type;
  if (d.kind === 'component') {
    if (lifecycle !== null) attrs.lifecycle = lifecycle;
    return { key: `svc:${name}`, kind: 'service', ...common, attrs };
  }
  // A Resource's type decides what it is, so unlike a Component's it is required.
  if (type === null) return fail(`${at}.spec.type`, 'is required for a Resource (database, vm, host, s3-bucket…)');
  const r = RESOURCE_KINDS[type.toLowerCase()] ?? { kind: 'external' as const, prefix: 'ext' };
  return { key: `${r.prefix}:${name}`, kind: r.kind, ...common, engine, attrs };
}
