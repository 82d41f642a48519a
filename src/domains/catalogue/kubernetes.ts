import { filePlace } from '../../platform/field-words.js';
import type { Entity, Estate, Link } from './entity.js';

type Meta = { name?: string; namespace?: string; labels?: Record<string, string>; ownerReferences?: Array<{ kind?: string; name?: string; controller?: boolean }> };
type Obj = { kind?: string; metadata?: Meta; spec?: { nodeName?: string }; status?: { phase?: string } };

export type KubernetesResult = { ok: true; estate: Estate; ignored: number } | { ok: false; error: string; field: string };

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/** The service a pod serves: app.kubernetes.io/name, else app. */
function serviceOf(labels: Record<string, string> | undefined): string | null {
  return labels?.['app.kubernetes.io/name'] ?? labels?.app ?? null;
}

/**
 * `kubectl get pods,nodes,deployments,statefulsets,daemonsets,replicasets -A -o json` → nodes,
 * workloads, pods, the services their labels name, and the runs-on links between them: service →
 * pod, pod → node, pod → its workload (through its ReplicaSet for a Deployment).
 */
export function fromKubectl(doc: unknown): KubernetesResult {
  const d = doc as { kind?: string; items?: unknown } | null;
  if (!d || typeof d !== 'object' || !Array.isArray(d.items)) return { ok: false, error: 'expected the JSON of kubectl get … -o json: an object with items', field: 'items' };
  const items = d.items as Obj[];
  const entities = new Map<string, Entity>();
  const links: Link[] = [];
  const add = (e: Entity) => {
    if (!entities.has(e.key)) entities.set(e.key, e);
  };
  const replicaSetOwner = new Map<string, string>();
  let ignored = 0;
  for (const o of items) {
    const m = o.metadata ?? {};
    if (o.kind === 'ReplicaSet' && m.name) {
      const owner = m.ownerReferences?.find((r) => r.kind === 'Deployment' && r.name);
      if (owner) replicaSetOwner.set(`${m.namespace ?? 'default'}/${m.name}`, owner.name!);
    }
  }
  for (const [i, o] of items.entries()) {
    const m = o.metadata ?? {};
    if (!m.name) return { ok: false, error: `${filePlace(`items.${i}.metadata.name`)} is required`, field: `items.${i}.metadata.name` };
    const ns = m.namespace ?? 'default';
    if (o.kind === 'Node') add({ key: `node:${m.name}`, kind: 'node', name: m.name, attrs: { labels: m.labels ?? {} } });
    else if (o.kind && WORKLOADS.has(o.kind)) add({ key: `workload:${ns}/${o.kind}/${m.name}`, kind: 'workload', name: `${m.name}`, attrs: { workloadKind: o.kind, namespace: ns } });
    else if (o.kind === 'Pod') {
      const podKey = `pod:${ns}/${m.name}`;
      add({ key: podKey, kind: 'pod', name: m.name, attrs: { namespace: ns, phase: o.status?.phase ?? null } });
      if (o.spec?.nodeName) {
        add({ key: `node:${o.spec.nodeName}`, kind: 'node', name: o.spec.nodeName });
        links.push({ from: podKey, to: `node:${o.spec.nodeName}`, via: 'runs-on' });
      }
      const owner = m.ownerReferences?.find((r) => r.controller !== false && r.kind && r.name);
      if (owner) {
        const workload = owner.kind === 'ReplicaSet' ? ((d2) => (d2 ? { kind: 'Deployment', name: d2 } : null))(replicaSetOwner.get(`${ns}/${owner.name}`)) : WORKLOADS.has(owner.kind!) ? { kind: owner.kind!, name: owner.name! } : null;
        if (workload) {
          const wKey = `workload:${ns}/${workload.kind}/${workload.name}`;
          add({ key: wKey, kind: 'workload', name: workload.name, attrs: { workloadKind: workload.kind, namespace: ns } });
          links.push({ from: podKey, to: wKey, via: 'runs-on' });
        }
      }
      const svc = serviceOf(m.labels);
      if (svc) {
        add({ key: `svc:${svc}`, kind: 'service', name: svc });
        links.push({ from: `svc:${svc}`, to: podKey, via: 'runs-on' });
      }
    } else if (o.kind !== 'ReplicaSet') ignored += 1;
  }
  return { ok: true, estate: { entities: [...entities.values()], links }, ignored };
}
