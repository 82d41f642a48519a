/**
 * Kubernetes audit events of our own making, as kube-apiserver's webhook backend posts them: a
 * person's or a service account's write of a Deployment in namespace `shop`, at RequestResponse
 * level. Its body carries the app label (service resolution), a new pod template (what
 * `kubectl rollout undo` takes back) and any annotations (a change id).
 */
export type AuditWrite = {
  username: string; app: string; at: string;
  /** 403 makes it a denied attempt. */
  code?: number; verb?: string; annotations?: Record<string, string>;
};

export function auditWrite(id: string, o: AuditWrite): Record<string, unknown> {
  const { verb = 'patch', code = 200 } = o;
  const body = {
    metadata: { name: o.app, labels: { 'app.kubernetes.io/name': o.app }, annotations: o.annotations ?? {} },
    spec: { template: { spec: { containers: [{ name: o.app, image: `${o.app}:2` }] } } },
  };
  return {
    level: 'RequestResponse', auditID: id, stage: 'ResponseComplete', verb, user: { username: o.username },
    requestURI: `/apis/apps/v1/namespaces/shop/deployments/${o.app}`, objectRef: { resource: 'deployments', namespace: 'shop', name: o.app, apiGroup: 'apps', apiVersion: 'v1' },
    responseStatus: { code }, requestObject: body, responseObject: code < 300 ? body : undefined, requestReceivedTimestamp: o.at, stageTimestamp: o.at,
  };
}

export const auditEventList = (items: unknown[]) => ({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', items });
