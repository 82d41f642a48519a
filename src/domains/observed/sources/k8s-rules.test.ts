import { describe, expect, it } from 'vitest';
import { DEFAULT_CI_NAMESPACES, NOT_STORED } from '../observed-types.js';
import { capBucket, changeRefOf, ciNamespaceSet, diffBody, foldKey, identityOf, isDryRunAll, judge, serviceHintOf, type AuditFacts, type AuditRef } from './k8s-rules.js';

const CI = ciNamespaceSet([...DEFAULT_CI_NAMESPACES]);
const FLUX = 'system:serviceaccount:flux-system:kustomize-controller';
const ref = (r: Partial<AuditRef> = {}): AuditRef => ({ group: 'apps', resource: 'deployments', subresource: null, namespace: 'shop', name: 'checkout', ...r });
const facts = (f: Partial<AuditFacts> = {}): AuditFacts => ({ stage: 'ResponseComplete', verb: 'patch', code: 200, requestURI: '/apis/apps/v1/namespaces/shop/deployments/checkout', username: 'alice@example.com', ref: ref(), ...f });

describe('judge: which audit events become rows', () => {
  const cases: Array<[string, Partial<AuditFacts>, 'row' | 'denied' | 'ignored' | 'noise']> = [
    ['a person\'s patch', {}, 'row'],
    ['a person\'s create', { verb: 'create', code: 201 }, 'row'],
    ['a person\'s update', { verb: 'update' }, 'row'],
    ['a person\'s delete', { verb: 'delete' }, 'row'],
    ['a person\'s deletecollection (kubectl delete --all)', { verb: 'deletecollection', ref: ref({ name: null }) }, 'row'],
    ['a read: get', { verb: 'get' }, 'ignored'],
    ['a read: list', { verb: 'list' }, 'ignored'],
    ['a read: watch', { verb: 'watch' }, 'ignored'],
    ['stage RequestReceived', { stage: 'RequestReceived' }, 'ignored'],
    ['stage ResponseStarted', { stage: 'ResponseStarted' }, 'ignored'],
    ['stage Panic', { stage: 'Panic' }, 'ignored'],
    ['a non-resource URL', { ref: null }, 'ignored'],
    ['kubectl auth can-i (selfsubjectaccessreviews)', { verb: 'create', ref: ref({ group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews', namespace: null, name: null }) }, 'ignored'],
    ['kubectl exec (pods/exec)', { verb: 'create', ref: ref({ group: '', resource: 'pods', subresource: 'exec' }) }, 'ignored'],
    ['a write that failed with 409', { code: 409 }, 'ignored'],
    ['a write that failed with 422', { code: 422 }, 'ignored'],
    ['an eviction refused with 429', { verb: 'create', code: 429, ref: ref({ group: '', resource: 'pods', subresource: 'eviction' }) }, 'ignored'],
    ['a status subresource write', { ref: ref({ subresource: 'status' }) }, 'noise'],
    ['a server-side dry run', { requestURI: '/apis/apps/v1/namespaces/shop/deployments/checkout?fieldManager=kustomize-controller&dryRun=All' }, 'noise'],
    ['a node\'s write (system:node:…)', { username: 'system:node:worker-1' }, 'noise'],
    ['a controller\'s write (system:kube-controller-manager)', { username: 'system:kube-controller-manager' }, 'noise'],
    ['system:anonymous (a system: identity)', { username: 'system:anonymous' }, 'noise'],
    ['a service account outside the CI namespaces', { username: 'system:serviceaccount:shop:checkout' }, 'noise'],
    ['a service account of kube-system', { username: 'system:serviceaccount:kube-system:replicaset-controller' }, 'noise'],
    ['Flux applying a deployment (flux-system is a CI namespace)', { username: FLUX }, 'row'],
    ['Jenkins applying a configmap', { username: 'system:serviceaccount:jenkins:deployer', ref: ref({ group: '', resource: 'configmaps', name: 'checkout-config' }) }, 'row'],
    ['a lease (leader election) by a CI account', { username: FLUX, verb: 'update', ref: ref({ group: 'coordination.k8s.io', resource: 'leases', namespace: 'flux-system', name: 'kustomize-controller-leader-election' }) }, 'noise'],
    ['an Event object by a CI account', { username: FLUX, verb: 'create', ref: ref({ group: '', resource: 'events', namespace: 'flux-system', name: 'checkout.17a' }) }, 'noise'],
    ['an events.k8s.io Event by a person', { verb: 'create', ref: ref({ group: 'events.k8s.io', resource: 'events', name: 'x' }) }, 'noise'],
    ['a pod a CI account spawned', { username: 'system:serviceaccount:jenkins:jenkins', verb: 'create', ref: ref({ group: '', resource: 'pods', namespace: 'jenkins', name: 'agent-1' }) }, 'noise'],
    ['a taskrun (tekton.dev)', { username: 'system:serviceaccount:tekton:pipeline', verb: 'create', ref: ref({ group: 'tekton.dev', resource: 'taskruns', name: 'build-1' }) }, 'noise'],
    ['a pipelinerun', { username: 'system:serviceaccount:tekton:pipeline', verb: 'create', ref: ref({ group: 'tekton.dev', resource: 'pipelineruns', name: 'p-1' }) }, 'noise'],
    ['a customrun', { username: 'system:serviceaccount:tekton:pipeline', verb: 'create', ref: ref({ group: 'tekton.dev', resource: 'customruns', name: 'c-1' }) }, 'noise'],
    ['a run', { username: 'system:serviceaccount:tekton:pipeline', verb: 'create', ref: ref({ group: 'tekton.dev', resource: 'runs', name: 'r-1' }) }, 'noise'],
    ['a triggers.tekton.dev object', { username: 'system:serviceaccount:tekton:pipeline', ref: ref({ group: 'triggers.tekton.dev', resource: 'eventlisteners', name: 'l' }) }, 'noise'],
    ['a Flux Kustomization (kustomize.toolkit.fluxcd.io)', { username: FLUX, ref: ref({ group: 'kustomize.toolkit.fluxcd.io', resource: 'kustomizations', namespace: 'flux-system', name: 'apps' }) }, 'noise'],
    ['a GitLab Runner job secret', { username: 'system:serviceaccount:gitlab-runner:gitlab-runner', verb: 'create', ref: ref({ group: '', resource: 'secrets', namespace: 'gitlab-runner', name: 'runner-xgfzpbz1-project-42-concurrent-0-abc12' }) }, 'noise'],
    ['a GitLab Runner job service', { username: 'system:serviceaccount:gitlab-runner:gitlab-runner', verb: 'create', ref: ref({ group: '', resource: 'services', namespace: 'gitlab-runner', name: 'runner-xgfzpbz1-project-42-concurrent-3' }) }, 'noise'],
    ['a GitLab Runner deploying a real service', { username: 'system:serviceaccount:gitlab-runner:gitlab-runner', ref: ref({ namespace: 'shop', name: 'checkout' }) }, 'row'],
    ['a person\'s pod (spawned-object rules are for pipelines)', { verb: 'create', ref: ref({ group: '', resource: 'pods', name: 'debug' }) }, 'row'],
    ['a person editing a Flux HelmRelease', { ref: ref({ group: 'helm.toolkit.fluxcd.io', resource: 'helmreleases', name: 'checkout' }) }, 'row'],
    // A refusal is kept whatever would have left it out.
    ['a node refused (403)', { username: 'system:node:worker-1', code: 403 }, 'denied'],
    ['a pipeline refused creating pods in kube-system', { username: FLUX, verb: 'create', code: 403, ref: ref({ group: '', resource: 'pods', namespace: 'kube-system', name: 'x' }) }, 'denied'],
    ['an anonymous write refused (401)', { username: 'system:anonymous', code: 401 }, 'denied'],
    ['a refused status write', { code: 403, ref: ref({ subresource: 'status' }) }, 'denied'],
    ['a refused dry run', { code: 403, requestURI: '/apis/apps/v1/namespaces/shop/deployments/checkout?dryRun=All' }, 'denied'],
    ['a refused write by a service account outside CI', { username: 'system:serviceaccount:shop:checkout', code: 403 }, 'denied'],
    ['a person refused', { code: 403 }, 'denied'],
    ['a refused read is still a read', { verb: 'get', code: 403 }, 'ignored'],
  ];
  it.each(cases)('%s → %s', (_name, f, expected) => {
    const v = judge(facts(f), CI);
    const got = v.keep ? (v.denied ? 'denied' : 'row') : v.as;
    expect(got, v.reason).toBe(expected);
    expect(v.reason).not.toBe('');
  });

  it('a namespace becomes CI when the organisation lists it, except argocd and the cluster\'s own', () => {
    const mine = ciNamespaceSet(['ci-pipelines', 'argocd', 'kube-system', 'kube-public', 'kube-node-lease']);
    expect([...mine]).toEqual(['ci-pipelines']);
    expect(judge(facts({ username: 'system:serviceaccount:ci-pipelines:deployer' }), mine).keep).toBe(true);
    expect(judge(facts({ username: 'system:serviceaccount:argocd:argocd-application-controller' }), mine)).toMatchObject({ keep: false, as: 'noise' });
    expect(judge(facts({ username: 'system:serviceaccount:kube-system:deployer' }), mine)).toMatchObject({ keep: false, as: 'noise' });
    // flux-system is only a default: an organisation that replaced the list no longer counts it.
    expect(judge(facts({ username: FLUX }), mine)).toMatchObject({ keep: false, as: 'noise' });
  });
});

describe('the identity, the dry run, the fold key and the cap bucket', () => {
  it('classes an identity', () => {
    expect(identityOf('alice@example.com', CI)).toEqual({ class: 'person' });
    expect(identityOf(FLUX, CI)).toEqual({ class: 'ci', namespace: 'flux-system', account: 'kustomize-controller' });
    expect(identityOf('system:serviceaccount:shop:app', CI)).toEqual({ class: 'plumbing', serviceAccount: { namespace: 'shop', account: 'app' } });
    expect(identityOf('system:kube-scheduler', CI)).toEqual({ class: 'plumbing', serviceAccount: null });
  });

  it('reads dryRun=All from the query only', () => {
    expect(isDryRunAll('/api/v1/namespaces/a/configmaps/b?dryRun=All')).toBe(true);
    expect(isDryRunAll('/api/v1/namespaces/a/configmaps/b?fieldManager=x&dryRun=All&force=true')).toBe(true);
    expect(isDryRunAll('/api/v1/namespaces/a/configmaps/b')).toBe(false);
    expect(isDryRunAll('/api/v1/namespaces/dryRun=All/configmaps/b')).toBe(false);
    expect(isDryRunAll('/api/v1/namespaces/a/configmaps/b?dryRun=')).toBe(false);
  });

  it('keys one object by account, group, resource, namespace and name', () => {
    expect(foldKey('a', ref())).toBe(foldKey('a', ref()));
    expect(foldKey('a', ref())).not.toBe(foldKey('b', ref()));
    expect(foldKey('a', ref())).not.toBe(foldKey('a', ref({ namespace: 'other' })));
    expect(foldKey('a', ref())).not.toBe(foldKey('a', ref({ group: 'extensions' })));
    // The scale subresource is the same object: a patch and a scale of one deployment fold.
    expect(foldKey('a', ref({ subresource: 'scale' }))).toBe(foldKey('a', ref()));
  });

  it('buckets by cluster, account and UTC hour', () => {
    expect(capBucket('prod-eu', FLUX, new Date('2026-03-04T10:59:59.999+00:00'))).toBe(`prod-eu · ${FLUX} · 2026-03-04T10`);
    expect(capBucket('prod-eu', FLUX, new Date('2026-03-04T11:30:00+01:00'))).toBe(`prod-eu · ${FLUX} · 2026-03-04T10`);
    expect(capBucket('prod-eu', FLUX, new Date('2026-03-04T11:00:00Z'))).toBe(`prod-eu · ${FLUX} · 2026-03-04T11`);
  });
});

describe('the body kept as a diff', () => {
  it('keeps a Secret\'s keys and never its values (create, merge patch, JSON patch)', () => {
    const created = diffBody('create', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"c2VjcmV0"}}' } }, data: { password: 'c2VjcmV0', user: 'YWRtaW4=' }, stringData: { token: 'plain-token' } }, true);
    expect(created).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, data: { password: NOT_STORED, user: NOT_STORED }, stringData: { token: NOT_STORED } });
    expect(diffBody('patch', { data: { password: 'bmV3' } }, true)).toEqual({ data: { password: NOT_STORED } });
    expect(diffBody('patch', [{ op: 'replace', path: '/data/password', value: 'bmV3' }, { op: 'remove', path: '/data/old' }], true))
      .toEqual([{ op: 'replace', path: '/data/password', value: NOT_STORED }, { op: 'remove', path: '/data/old' }]);
    // A ConfigMap is not a Secret: its data is shown (the intake still scrubs secret-looking values).
    expect(diffBody('create', { kind: 'ConfigMap', data: { 'ui.properties': 'color=blue' } }, false)).toEqual({ kind: 'ConfigMap', data: { 'ui.properties': 'color=blue' } });
  });

  it('shows a create/update without status, server metadata or kubectl\'s copy; a patch as sent; a delete not at all', () => {
    const sent = { kind: 'Deployment', metadata: { name: 'checkout', uid: 'u', resourceVersion: '9', managedFields: [{}], labels: { app: 'checkout' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } }, spec: { replicas: 3 }, status: { readyReplicas: 1 } };
    expect(diffBody('update', sent, false)).toEqual({ kind: 'Deployment', metadata: { name: 'checkout', labels: { app: 'checkout' } }, spec: { replicas: 3 } });
    expect(diffBody('patch', { spec: { replicas: 5 } }, false)).toEqual({ spec: { replicas: 5 } });
    expect(diffBody('patch', [{ op: 'replace', path: '/spec/parallelism', value: 0 }, { op: 'add', path: '/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration', value: '{}' }], false))
      .toEqual([{ op: 'replace', path: '/spec/parallelism', value: 0 }]);
    expect(diffBody('delete', { kind: 'DeleteOptions', propagationPolicy: 'Background' }, false)).toBeNull();
    expect(diffBody('create', undefined, false)).toBeNull();
  });
});

describe('the service hint and the change id a write carries', () => {
  it('takes app.kubernetes.io/name, then app.kubernetes.io/instance, then app, the resulting object first', () => {
    const o = (labels: Record<string, string>) => ({ metadata: { labels } });
    expect(serviceHintOf(o({ app: 'a', 'app.kubernetes.io/instance': 'i', 'app.kubernetes.io/name': 'n' }))).toBe('n');
    expect(serviceHintOf(o({ app: 'a', 'app.kubernetes.io/instance': 'i' }))).toBe('i');
    expect(serviceHintOf(o({ app: 'a' }))).toBe('a');
    expect(serviceHintOf(o({ app: 'from-response' }), o({ app: 'from-request' }))).toBe('from-response');
    expect(serviceHintOf(undefined, o({ app: 'from-request' }))).toBe('from-request');
    expect(serviceHintOf(o({ tier: 'web' }), [{ op: 'add' }], null)).toBeNull();
  });

  it('reads changeledger.io/change-id from an annotation or a JSON patch that adds it', () => {
    expect(changeRefOf({ metadata: { annotations: { 'changeledger.io/change-id': 'chg-1a2b3c4d' } } })).toBe('CHG-1A2B3C4D');
    expect(changeRefOf(undefined, { metadata: { annotations: { 'changeledger.io/change-id': 'CHG-0000ABCD' } } })).toBe('CHG-0000ABCD');
    expect(changeRefOf([{ op: 'add', path: '/metadata/annotations/changeledger.io~1change-id', value: 'CHG-DEADBEEF' }])).toBe('CHG-DEADBEEF');
    expect(changeRefOf({ metadata: { annotations: { 'changeledger.io/change-id': 'see the ticket' } } })).toBeNull();
    expect(changeRefOf({ metadata: { annotations: { 'other.io/change-id': 'CHG-DEADBEEF' } } })).toBeNull();
  });
});
