import type { Matcher } from './alertmanager-client.js';
import type { LabelMapping } from './alert-types.js';

/**
 * The silences a hold puts on an Alertmanager, from the change's scope and the label mapping. Pure.
 *
 * Alertmanager ANDs the matchers of one silence, while the mapping ORs labels (a service is named
 * by `service`, or `app`, or `job`): so there is one silence per label name, each matching the
 * names of the scope's entities as one anchored RE2 alternation. A pod is named by two labels, so
 * pods get one silence per namespace: `namespace="shop", pod=~"web-1|web-2"`. What intake would
 * hold, a silence silences: the same names, the same label rules.
 */

export type ScopeNames = {
  services: Array<{ key: string; name: string }>;
  /** Hosts, nodes, vms, pods, workloads …: `kind` as the catalogue has it. */
  assets: Array<{ key: string; kind: string; name: string }>;
  sources: Array<{ id: string; name: string }>;
};

/** One silence: `label` names it among the hold's silences ("service", "instance", "pod:shop"). */
export type SilenceSpec = { label: string; matchers: Matcher[] };

/** RE2 metacharacters; Alertmanager anchors the whole value, so an escaped name matches only itself. */
export function escapeRe2(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

const suffix = (key: string) => key.slice(key.indexOf(':') + 1);
const sorted = (values: Iterable<string>) => [...new Set(values)].filter((v) => v !== '').sort();

/** `workload:shop/Deployment/web` → the pods intake maps to it: `web-<rs hash>-<id>` for a Deployment, `web-<suffix>` otherwise. */
function podPatternOf(workloadKey: string): { namespace: string; pattern: string } | null {
  const m = /^workload:([^/]+)\/([^/]+)\/(.+)$/.exec(workloadKey);
  if (!m) return null;
  const [, namespace, kind, name] = m as unknown as [string, string, string, string];
  const base = escapeRe2(name);
  return { namespace, pattern: kind === 'Deployment' ? `${base}-[^-]+-[^-]+` : `${base}-[^-]+` };
}

export function silencesFor(scope: ScopeNames, mapping: LabelMapping): SilenceSpec[] {
  // label name → the regex alternatives it must match (already escaped where they are names)
  const byLabel = new Map<string, { values: Set<string>; hostPort: boolean }>();
  const add = (label: string, values: string[], hostPort = false) => {
    if (values.length === 0) return;
    const at = byLabel.get(label) ?? { values: new Set<string>(), hostPort: false };
    for (const v of values) at.values.add(v);
    at.hostPort ||= hostPort;
    byLabel.set(label, at);
  };
  // namespace label + pod label + namespace → the pod alternatives (escaped patterns)
  const pods = new Map<string, { ns: string; pod: string; namespace: string; patterns: Set<string> }>();

  const serviceNames = sorted(scope.services.flatMap((s) => [s.name, suffix(s.key)]));
  const sourceNames = sorted(scope.sources.flatMap((s) => [s.id, s.name]));

  for (const rule of mapping) {
    switch (rule.as) {
      case 'service':
        for (const l of rule.labels) add(l, serviceNames.map(escapeRe2));
        break;
      case 'source':
        for (const l of rule.labels) add(l, sourceNames.map(escapeRe2));
        break;
      case 'asset': {
        const names = sorted(scope.assets.filter((a) => rule.kinds.includes(a.kind)).flatMap((a) => [a.name, suffix(a.key)]));
        // `instance` carries a port (db-1:9100); intake strips it, the silence allows it.
        for (const l of rule.labels) add(l, names.map(escapeRe2), l === 'instance');
        break;
      }
      case 'pod': {
        const [nsLabel, podLabel] = rule.labels;
        const put = (namespace: string, pattern: string) => {
          const id = `${nsLabel}\u0000${podLabel}\u0000${namespace}`;
          const at = pods.get(id) ?? { ns: nsLabel, pod: podLabel, namespace, patterns: new Set<string>() };
          at.patterns.add(pattern);
          pods.set(id, at);
        };
        for (const a of scope.assets) {
          if (a.kind === 'pod' || a.key.startsWith('pod:')) {
            const m = /^pod:([^/]+)\/(.+)$/.exec(a.key);
            if (m) put(m[1]!, escapeRe2(m[2]!));
          } else if (a.kind === 'workload' || a.key.startsWith('workload:')) {
            const p = podPatternOf(a.key);
            if (p) put(p.namespace, p.pattern);
          }
        }
        break;
      }
    }
  }

  const out: SilenceSpec[] = [];
  for (const [label, { values, hostPort }] of [...byLabel].sort(([a], [b]) => a.localeCompare(b))) {
    const alts = [...values].sort();
    const value = hostPort ? `(${alts.join('|')})(:[0-9]+)?` : alts.join('|');
    out.push({ label, matchers: [{ name: label, value, isRegex: true, isEqual: true }] });
  }
  for (const p of [...pods.values()].sort((a, b) => `${a.pod}:${a.namespace}`.localeCompare(`${b.pod}:${b.namespace}`))) {
    out.push({
      label: `${p.pod}:${p.namespace}`,
      matchers: [{ name: p.ns, value: p.namespace, isRegex: false, isEqual: true }, { name: p.pod, value: [...p.patterns].sort().join('|'), isRegex: true, isEqual: true }],
    });
  }
  return out;
}

/** "CHG-1A2B3C4D Upgrade checkout https://…/?view=changes&change=…": who made the silence and why, for people reading Alertmanager. */
export function silenceComment(displayId: string, title: string, link: string): string {
  return `${displayId} ${title} ${link}`;
}

export const SILENCE_CREATED_BY = 'changeledger';
