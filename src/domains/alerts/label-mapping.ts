import type { LabelMapping, LabelRule, Subject } from './alert-types.js';

/**
 * Which labels name the subject of an alert, tried in this order; the first rule whose labels name
 * a catalogue entity wins, and an alert nothing names is `unmapped` (recorded, never held).
 *
 * 1. Explicit service labels: whoever put `service` on a rule said what it is about.
 * 2. A monitoring source of the catalogue whose id is the `job` or the `rule_group` label: the
 *    organisation declared what that job or group watches, which beats guessing from infrastructure
 *    labels (a blackbox probe's `instance` is the prober's target, not the owner).
 * 3. `namespace` + `pod`: the pod, or its workload when the pod itself is not in the catalogue
 *    (pods come and go; their Deployment, StatefulSet or DaemonSet stays).
 * 4. `instance` (without its :port), `host`, `node`, `nodename`: a host, node or vm.
 * 5. `job` as a service name: the weakest hint, since one job often scrapes many services.
 */
export const DEFAULT_LABEL_MAPPING: LabelMapping = [
  { labels: ['service', 'app', 'app_kubernetes_io_name'], as: 'service' },
  { labels: ['job', 'rule_group'], as: 'source' },
  { labels: ['namespace', 'pod'], as: 'pod' },
  { labels: ['instance', 'host', 'node', 'nodename'], as: 'asset', kinds: ['host', 'node', 'vm'] },
  { labels: ['job'], as: 'service' },
];

export const ASSET_KINDS = ['host', 'node', 'vm', 'pod', 'workload', 'database', 'datastore', 'device', 'volume', 'instance'] as const;
const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet'] as const;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const MAX_RULES = 50;
const MAX_LABELS = 20;

export type MappingCheck = { ok: true; mapping: LabelMapping } | { ok: false; field: string; problem: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a mapping an organisation sent (or stored); `field` is a dotted path (`2.labels.0`), `problem` reads after its label. */
export function checkLabelMapping(raw: unknown): MappingCheck {
  if (!Array.isArray(raw)) return { ok: false, field: '', problem: 'must be a list of rules' };
  if (raw.length === 0) return { ok: false, field: '', problem: 'must have at least 1 rule' };
  if (raw.length > MAX_RULES) return { ok: false, field: '', problem: `must have at most ${MAX_RULES} rules` };
  const mapping: LabelRule[] = [];
  for (const [i, r] of raw.entries()) {
    const at = (f: string) => (f ? `${i}.${f}` : String(i));
    if (!isObject(r)) return { ok: false, field: at(''), problem: 'must be an object with labels and as' };
    const known = new Set(['labels', 'as', 'kinds']);
    const extra = Object.keys(r).find((k) => !known.has(k));
    if (extra) return { ok: false, field: at(extra), problem: 'is not a known field' };
    const labels = r.labels;
    if (!Array.isArray(labels) || labels.length === 0) return { ok: false, field: at('labels'), problem: 'must be a list of at least 1 label name' };
    if (labels.length > MAX_LABELS) return { ok: false, field: at('labels'), problem: `must have at most ${MAX_LABELS} entries` };
    for (const [j, l] of labels.entries()) {
      if (typeof l !== 'string' || !LABEL_NAME.test(l)) return { ok: false, field: at(`labels.${j}`), problem: 'is not a Prometheus label name (letters, digits and _, not starting with a digit)' };
    }
    if (new Set(labels).size !== labels.length) return { ok: false, field: at('labels'), problem: 'must not list the same label twice' };
    const names = labels as string[];
    switch (r.as) {
      case 'service':
      case 'source':
        if (r.kinds !== undefined) return { ok: false, field: at('kinds'), problem: `is only for rules "as": "asset"` };
        mapping.push({ labels: names, as: r.as });
        break;
      case 'pod':
        if (names.length !== 2) return { ok: false, field: at('labels'), problem: 'must be two labels: the namespace, then the pod' };
        if (r.kinds !== undefined) return { ok: false, field: at('kinds'), problem: `is only for rules "as": "asset"` };
        mapping.push({ labels: [names[0]!, names[1]!], as: 'pod' });
        break;
      case 'asset': {
        const kinds = r.kinds;
        if (!Array.isArray(kinds) || kinds.length === 0) return { ok: false, field: at('kinds'), problem: `must list at least 1 kind (${ASSET_KINDS.join(', ')})` };
        for (const [j, k] of kinds.entries()) {
          if (typeof k !== 'string' || !(ASSET_KINDS as readonly string[]).includes(k)) return { ok: false, field: at(`kinds.${j}`), problem: `must be one of: ${ASSET_KINDS.join(', ')}` };
        }
        mapping.push({ labels: names, as: 'asset', kinds: [...new Set(kinds as string[])] });
        break;
      }
      default:
        return { ok: false, field: at('as'), problem: 'must be one of: service, source, pod, asset' };
    }
  }
  return { ok: true, mapping };
}

// ── candidates: what the catalogue is asked about, per alert ─────────────────────────────────────

/** One way a rule could name a subject: a catalogue entity by key or name, or a monitoring source by id or name. */
export type Candidate =
  | { rule: number; look: 'entity'; as: 'service' | 'asset'; keys: string[]; name: string | null; kinds: string[] }
  | { rule: number; look: 'source'; id: string };

/** `db-1:9100` → `db-1`, `[::1]:9100` → `::1`; anything else as it is. */
export function stripPort(instance: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(instance);
  if (v6) return v6[1]!;
  const m = /^([^:]+):\d+$/.exec(instance);
  return m ? m[1]! : instance;
}

/** The workloads a pod name may belong to: Deployment pods are `<name>-<rs hash>-<id>`, the others `<name>-<suffix>`. */
export function workloadsOfPod(namespace: string, pod: string): string[] {
  const parts = pod.split('-');
  const keys: string[] = [];
  if (parts.length >= 3) keys.push(`workload:${namespace}/Deployment/${parts.slice(0, -2).join('-')}`);
  if (parts.length >= 2) {
    const base = parts.slice(0, -1).join('-');
    for (const k of WORKLOAD_KINDS.filter((w) => w !== 'Deployment')) keys.push(`workload:${namespace}/${k}/${base}`);
  }
  return keys;
}

/** The catalogue look-ups one alert's labels ask for, in the mapping's order. */
export function candidatesOf(labels: Readonly<Record<string, string>>, mapping: LabelMapping): Candidate[] {
  const out: Candidate[] = [];
  mapping.forEach((r, rule) => {
    if (r.as === 'pod') {
      const ns = labels[r.labels[0]];
      const pod = labels[r.labels[1]];
      if (ns && pod) out.push({ rule, look: 'entity', as: 'asset', keys: [`pod:${ns}/${pod}`, ...workloadsOfPod(ns, pod)], name: null, kinds: ['pod', 'workload'] });
      return;
    }
    for (const l of r.labels) {
      const raw = labels[l];
      if (!raw) continue;
      if (r.as === 'source') out.push({ rule, look: 'source', id: raw });
      else if (r.as === 'service') out.push({ rule, look: 'entity', as: 'service', keys: [`svc:${raw}`], name: raw, kinds: [] });
      else {
        const v = l === 'instance' ? stripPort(raw) : raw;
        out.push({ rule, look: 'entity', as: 'asset', keys: r.kinds.map((k) => `${k}:${v}`), name: v, kinds: r.kinds });
      }
    }
  });
  return out;
}

// ── resolution against what the one catalogue query found ────────────────────────────────────────

export type FoundEntity = { key: string; kind: string; name: string };
export type FoundSource = { id: string; name: string };

/** What the one query of a batch found, indexed case-insensitively by key and by name. */
export type CatalogueHits = {
  entityByKey: Map<string, FoundEntity>;
  entitiesByName: Map<string, FoundEntity[]>;
  sourceById: Map<string, FoundSource>;
  sourceByName: Map<string, FoundSource>;
};

export function indexHits(entities: FoundEntity[], sources: FoundSource[]): CatalogueHits {
  const hits: CatalogueHits = { entityByKey: new Map(), entitiesByName: new Map(), sourceById: new Map(), sourceByName: new Map() };
  for (const e of [...entities].sort((a, b) => a.key.localeCompare(b.key))) {
    hits.entityByKey.set(e.key.toLowerCase(), e);
    const n = e.name.toLowerCase();
    hits.entitiesByName.set(n, [...(hits.entitiesByName.get(n) ?? []), e]);
  }
  for (const s of sources) {
    hits.sourceById.set(s.id.toLowerCase(), s);
    if (!hits.sourceByName.has(s.name.toLowerCase())) hits.sourceByName.set(s.name.toLowerCase(), s);
  }
  return hits;
}

export type Resolution = { subject: Subject; rule: number | null; reason: string; source: FoundSource | null };

const isService = (e: FoundEntity) => e.key.startsWith('svc:');

/** The subject of one alert: the first candidate (in the mapping's order) that the catalogue knows. */
export function resolveSubject(labels: Readonly<Record<string, string>>, mapping: LabelMapping, hits: CatalogueHits): Resolution {
  for (const c of candidatesOf(labels, mapping)) {
    if (c.look === 'source') {
      const s = hits.sourceById.get(c.id.toLowerCase()) ?? hits.sourceByName.get(c.id.toLowerCase());
      if (s) return { subject: { kind: 'source', key: s.id, name: s.name }, rule: c.rule, reason: `monitoring source ${s.id} (rule ${c.rule + 1})`, source: s };
      continue;
    }
    // Keys first: an exact key is what an importer wrote; then a name, of the rule's kinds only.
    let e = c.keys.map((k) => hits.entityByKey.get(k.toLowerCase())).find((x) => x !== undefined);
    if (!e && c.name !== null) {
      const named = hits.entitiesByName.get(c.name.toLowerCase()) ?? [];
      e = named.find((x) => (c.as === 'service' ? isService(x) : c.kinds.includes(x.kind)));
    }
    if (!e) continue;
    // A `svc:` key is a service (a data-source instance too) whichever rule found it: that is how scopes list it.
    const kind = isService(e) ? 'service' : 'asset';
    return { subject: { kind, key: e.key, name: e.name }, rule: c.rule, reason: `${kind} ${e.key} (rule ${c.rule + 1})`, source: null };
  }
  return { subject: { kind: 'unmapped', key: null, name: null }, rule: null, reason: 'no rule of the label mapping names a catalogue entity', source: null };
}

/** Every key, name and source id the batch's candidates ask about (lower-cased), for the one catalogue query. */
export function lookupsOf(all: Array<Readonly<Record<string, string>>>, mapping: LabelMapping): { keys: string[]; names: string[]; sources: string[] } {
  const keys = new Set<string>();
  const names = new Set<string>();
  const sources = new Set<string>();
  for (const labels of all) {
    for (const c of candidatesOf(labels, mapping)) {
      if (c.look === 'source') sources.add(c.id.toLowerCase());
      else {
        for (const k of c.keys) keys.add(k.toLowerCase());
        if (c.name !== null) names.add(c.name.toLowerCase());
      }
    }
  }
  return { keys: [...keys], names: [...names], sources: [...sources] };
}

/**
 * "<service> · <alertname> · <source>": the subject's name (or "unmapped"), the alert's name, and
 * where it came from — the matched monitoring source's name, else the job label, else the sender.
 */
export function subjectLabel(subject: Subject, alertname: string, labels: Readonly<Record<string, string>>, matched: FoundSource | null, sender: string): string {
  const where = matched?.name ?? labels.job ?? sender;
  return `${subject.name ?? 'unmapped'} · ${alertname} · ${where}`;
}
