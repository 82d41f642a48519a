import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import { DEFAULT_CI_NAMESPACES, NOT_STORED, type AdapterContext, type IntakeRequest, type Parsed } from '../observed-types.js';
import { kubernetesIntake } from './kubernetes.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
/** The shared real audit events (Falco's and Panther's test traces, kubernetes/perf-tests' log lines); see its PROVENANCE.md. */
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'kubernetes-audit');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`kubernetes audit: SKIPPING the shared real-payload tests: ${SHARED} is absent`);

const FLUX = 'system:serviceaccount:flux-system:kustomize-controller';
const ctx = (over: Partial<AdapterContext> = {}): AdapterContext => ({ sourceId: 'src_k8s', config: { cluster: 'prod-eu' }, ciNamespaces: [...DEFAULT_CI_NAMESPACES], now: new Date('2026-03-04T12:00:00Z'), ...over });
const req = (body: unknown, headers: IntakeRequest['headers'] = {}): IntakeRequest => ({ headers, rawBody: Buffer.from(JSON.stringify(body) ?? ''), body });
const parse = (body: unknown, c = ctx()): Parsed => kubernetesIntake.parse(req(body), c);
const list = (...items: unknown[]) => ({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items });

let seq = 0;
/** An audit.k8s.io/v1 event as kube-apiserver writes it at RequestResponse level (a person's patch of deployments/checkout). */
function anEvent(over: Record<string, unknown> = {}): Record<string, unknown> {
  seq += 1;
  return {
    level: 'RequestResponse', auditID: `aaaaaaaa-0000-4000-8000-${String(seq).padStart(12, '0')}`, stage: 'ResponseComplete',
    requestURI: '/apis/apps/v1/namespaces/shop/deployments/checkout?fieldManager=kubectl-client-side-apply', verb: 'patch',
    user: { username: 'alice@example.com', uid: 'u-alice', groups: ['devs', 'system:authenticated'] },
    sourceIPs: ['10.0.0.7'], userAgent: 'kubectl/v1.31.0 (linux/amd64) kubernetes/abcdef0',
    objectRef: { resource: 'deployments', namespace: 'shop', name: 'checkout', apiGroup: 'apps', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 200 },
    requestObject: { spec: { template: { spec: { containers: [{ name: 'app', image: 'shop/checkout:1.4.2' }] } } } },
    responseObject: { kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name: 'checkout', namespace: 'shop', labels: { 'app.kubernetes.io/name': 'checkout', app: 'legacy' }, annotations: { 'changeledger.io/change-id': 'CHG-1A2B3C4D' } } },
    requestReceivedTimestamp: '2026-03-04T10:15:00.123456Z', stageTimestamp: '2026-03-04T10:15:00.145678Z',
    annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    ...over,
  };
}
const byFlux = (over: Record<string, unknown> = {}) => anEvent({ user: { username: FLUX }, userAgent: 'kustomize-controller/v1.4.0', ...over });
const badRequestOf = (fn: () => unknown) => {
  try { fn(); } catch (e) { if (e instanceof AppError) return { status: e.status, field: e.field, message: e.message }; throw e; }
  throw new Error('no error thrown');
};

describe('kubernetes audit intake: authentication', () => {
  it('takes the kubeconfig\'s bearer token and nothing else', async () => {
    expect(await kubernetesIntake.authenticate(req({}, { authorization: 'Bearer s3cret-token' }), 's3cret-token')).toBe(true);
    expect(await kubernetesIntake.authenticate(req({}, { authorization: 'Bearer wrong' }), 's3cret-token')).toBe(false);
    expect(await kubernetesIntake.authenticate(req({}, {}), 's3cret-token')).toBe(false);
    expect(await kubernetesIntake.authenticate(req({}, { authorization: 'Basic czNjcmV0LXRva2Vu' }), 's3cret-token')).toBe(false);
  });
});

describe('kubernetes audit intake: one write read into an observed event', () => {
  it('reads who, what, where, the patch, the service label and the change id', () => {
    const e = anEvent();
    const out = parse(list(e));
    expect(out).toMatchObject({ ignored: 0, noise: 0, rejected: [] });
    expect(out.events).toEqual([{
      eventId: e.auditID, kind: 'k8s_write', title: 'patch deployments/checkout in shop', occurredAt: '2026-03-04T10:15:00.123Z',
      principal: { kind: 'person', name: 'alice@example.com', id: 'u-alice', detail: { userAgent: 'kubectl/v1.31.0 (linux/amd64) kubernetes/abcdef0', sourceIp: '10.0.0.7' } },
      action: 'patch', resource: 'deployments/checkout', location: { cluster: 'prod-eu', namespace: 'shop' },
      serviceHint: 'checkout', repo: null, diff: JSON.stringify(e.requestObject, null, 2),
      params: { requestURI: e.requestURI, level: 'RequestResponse', apiGroup: 'apps' }, link: null,
      denied: false, errorCode: null, outcome: 'succeeded', changeRef: 'CHG-1A2B3C4D', capBucket: null,
      revert: { tool: 'kubectl', command: 'kubectl rollout undo deployments/checkout -n shop', manifest: null, changed: null, summary: expect.stringContaining('previous revision') },
    }]);
  });

  it('reads one Event posted alone (blocking mode), and v1beta1 with only its `timestamp`', () => {
    expect(parse({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', ...anEvent() }).events).toHaveLength(1);
    const old = anEvent({ requestReceivedTimestamp: undefined, stageTimestamp: undefined, timestamp: '2018-10-26T13:13:03Z' });
    const [ev] = parse({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1beta1', items: [old] }).events;
    expect(ev!.occurredAt).toBe('2018-10-26T13:13:03.000Z');
  });

  it('names a cluster-scoped object without a namespace, a subresource after the name, and a collection by its resource', () => {
    const out = parse(list(
      anEvent({ verb: 'update', objectRef: { resource: 'clusterroles', name: 'reader', apiGroup: 'rbac.authorization.k8s.io' } }),
      anEvent({ verb: 'update', objectRef: { resource: 'deployments', namespace: 'shop', name: 'cart', subresource: 'scale', apiGroup: 'apps' } }),
      anEvent({ verb: 'deletecollection', objectRef: { resource: 'configmaps', namespace: 'shop' }, requestObject: undefined, responseObject: undefined }),
    ));
    expect(out.events.map((e) => [e.title, e.resource, e.location])).toEqual([
      ['update clusterroles/reader', 'clusterroles/reader', { cluster: 'prod-eu' }],
      ['update deployments/cart/scale in shop', 'deployments/cart/scale', { cluster: 'prod-eu', namespace: 'shop' }],
      ['deletecollection configmaps in shop', 'configmaps', { cluster: 'prod-eu', namespace: 'shop' }],
    ]);
    expect(out.events[2]!.diff).toBeNull();
  });

  it('names the cluster "cluster" when the connection gives none', () => {
    const [ev] = parse(list(byFlux()), ctx({ config: {} })).events;
    expect(ev!.location.cluster).toBe('cluster');
    expect(ev!.capBucket).toBe(`cluster · ${FLUX} · 2026-03-04T10`);
  });

  it('never keeps a Secret\'s values, in the diff or anywhere else in the event', () => {
    const secret = anEvent({
      verb: 'create', requestURI: '/api/v1/namespaces/shop/secrets', objectRef: { resource: 'secrets', namespace: 'shop', apiVersion: 'v1' },
      requestObject: { kind: 'Secret', apiVersion: 'v1', metadata: { name: 'db', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"aHVudGVyMg=="}}' } }, data: { password: 'aHVudGVyMg==' }, stringData: { apiKey: 'sk_live_abcdef' } },
      responseObject: { kind: 'Secret', apiVersion: 'v1', metadata: { name: 'db', namespace: 'shop' }, data: { password: 'aHVudGVyMg==', apiKey: 'c2tfbGl2ZV9hYmNkZWY=' } },
      responseStatus: { code: 201 },
    });
    const [ev] = parse(list(secret)).events;
    expect(ev!.resource).toBe('secrets/db');
    expect(JSON.parse(ev!.diff!)).toMatchObject({ data: { password: NOT_STORED }, stringData: { apiKey: NOT_STORED } });
    const everything = JSON.stringify(ev);
    for (const value of ['aHVudGVyMg==', 'sk_live_abcdef', 'c2tfbGl2ZV9hYmNkZWY=']) expect(everything).not.toContain(value);
  });
});

describe('kubernetes audit intake: the noise rules over a delivery', () => {
  it('counts reads and unfinished stages as ignored, status writes, dry runs and plumbing as noise', () => {
    const out = parse(list(
      anEvent({ verb: 'get' }), anEvent({ verb: 'list', objectRef: { resource: 'pods', namespace: 'shop' } }),
      anEvent({ stage: 'RequestReceived' }),
      anEvent({ objectRef: { resource: 'deployments', namespace: 'shop', name: 'checkout', apiGroup: 'apps', subresource: 'status' } }),
      byFlux({ requestURI: '/apis/apps/v1/namespaces/shop/deployments/checkout?dryRun=All&fieldManager=kustomize-controller' }),
      anEvent({ user: { username: 'system:kube-controller-manager' } }),
      anEvent({ user: { username: 'system:serviceaccount:argocd:argocd-application-controller' } }),
      byFlux({ verb: 'create', objectRef: { resource: 'pods', namespace: 'flux-system', apiVersion: 'v1' } }),
      anEvent({ objectRef: { resource: 'deployments', namespace: 'shop', name: 'cart', apiGroup: 'apps' } }),
    ), ctx({ ciNamespaces: [...DEFAULT_CI_NAMESPACES, 'argocd'] }));
    expect({ ignored: out.ignored, noise: out.noise }).toEqual({ ignored: 3, noise: 5 });
    expect(out.events.map((e) => e.resource)).toEqual(['deployments/cart']);
  });

  it('keeps the newest of many writes of one object by one account, by time, whatever order they came in', () => {
    const at = (t: string) => ({ requestReceivedTimestamp: t, stageTimestamp: t });
    const newest = byFlux({ ...at('2026-03-04T10:20:00Z'), requestObject: { spec: { replicas: 3 } } });
    const out = parse(list(
      byFlux({ ...at('2026-03-04T10:10:00Z'), requestObject: { spec: { replicas: 1 } } }),
      newest,
      byFlux({ ...at('2026-03-04T10:15:00Z'), requestObject: { spec: { replicas: 2 } } }),
      anEvent(at('2026-03-04T10:16:00Z')),
      byFlux({ ...at('2026-03-04T10:17:00Z'), objectRef: { resource: 'deployments', namespace: 'shop', name: 'cart', apiGroup: 'apps' } }),
    ));
    expect(out.noise).toBe(2);
    expect(out.events.map((e) => [e.principal.name, e.resource, e.occurredAt])).toEqual([
      ['alice@example.com', 'deployments/checkout', '2026-03-04T10:16:00.000Z'],
      [FLUX, 'deployments/cart', '2026-03-04T10:17:00.000Z'],
      [FLUX, 'deployments/checkout', '2026-03-04T10:20:00.000Z'],
    ]);
    expect(out.events[2]!.eventId).toBe(newest.auditID);
    expect(JSON.parse(out.events[2]!.diff!)).toEqual({ spec: { replicas: 3 } });
  });

  it('does not fold unnamed creates, or creates named only by a generateName prefix, into one another', () => {
    const cm = { resource: 'configmaps', namespace: 'shop', apiVersion: 'v1' };
    const out = parse(list(anEvent({ verb: 'create', objectRef: cm, requestObject: {}, responseObject: {} }), anEvent({ verb: 'create', objectRef: cm, requestObject: {}, responseObject: {} })));
    expect(out.events).toHaveLength(2);
    const generated = () => anEvent({ verb: 'create', objectRef: { resource: 'jobs', namespace: 'shop', apiGroup: 'batch' }, requestObject: { metadata: { generateName: 'migrate-' } }, responseObject: undefined });
    const jobs = parse(list(generated(), generated()));
    expect(jobs.events.map((e) => e.resource)).toEqual(['jobs/migrate-', 'jobs/migrate-']);
    // A name found in the resulting object is the object's own: those writes fold.
    const named = () => anEvent({ verb: 'update', objectRef: { resource: 'jobs', namespace: 'shop', apiGroup: 'batch' }, responseObject: { metadata: { name: 'migrate-x1' } } });
    expect(parse(list(named(), named())).events.map((e) => e.resource)).toEqual(['jobs/migrate-x1']);
  });

  it('gives a CI account\'s writes their hourly cap bucket and a service principal with its CI namespace; a person none', () => {
    const out = parse(list(byFlux(), anEvent({ objectRef: { resource: 'deployments', namespace: 'shop', name: 'cart', apiGroup: 'apps' }, requestReceivedTimestamp: '2026-03-04T11:00:00Z' })));
    expect(out.events.map((e) => e.capBucket)).toEqual([`prod-eu · ${FLUX} · 2026-03-04T10`, null]);
    expect(out.events[0]!.principal).toMatchObject({ kind: 'service', name: FLUX, detail: { ciNamespace: 'flux-system' } });
  });

  it('takes a CI namespace from the organisation\'s settings', () => {
    const deployer = 'system:serviceaccount:ci-pipelines:deployer';
    expect(parse(list(anEvent({ user: { username: deployer } })), ctx({ ciNamespaces: ['ci-pipelines'] })).events[0]!.capBucket).toBe(`prod-eu · ${deployer} · 2026-03-04T10`);
    expect(parse(list(anEvent({ user: { username: deployer } }))).noise).toBe(1);
  });

  it('records a denied write as a denied attempt even by a system identity: never noise, never folded, never capped', () => {
    const refused = (username: string, code = 403) => anEvent({ user: { username }, verb: 'create', requestURI: '/api/v1/namespaces/kube-system/pods',
      objectRef: { resource: 'pods', namespace: 'kube-system', name: 'miner', apiVersion: 'v1' }, responseStatus: { metadata: {}, status: 'Failure', reason: code === 401 ? 'Unauthorized' : 'Forbidden', code },
      requestObject: { kind: 'Pod', metadata: { name: 'miner' } }, responseObject: { kind: 'Status', status: 'Failure', code } });
    const out = parse(list(refused('system:node:worker-1'), refused(FLUX), refused(FLUX), refused('system:anonymous', 401)));
    expect({ noise: out.noise, ignored: out.ignored }).toEqual({ noise: 0, ignored: 0 });
    expect(out.events.map((e) => [e.principal.kind, e.denied, e.errorCode, e.capBucket, e.outcome])).toEqual([
      ['system', true, '403 Forbidden', null, 'failed'],
      ['service', true, '403 Forbidden', null, 'failed'],
      ['service', true, '403 Forbidden', null, 'failed'],
      ['system', true, '401 Unauthorized', null, 'failed'],
    ]);
    expect(out.events[0]!.title).toBe('create pods/miner in kube-system');
  });

  it('leaves out a write that failed for another reason (nothing changed)', () => {
    const out = parse(list(anEvent({ responseStatus: { code: 409, reason: 'Conflict' } }), anEvent({ responseStatus: { code: 422 } })));
    expect(out).toMatchObject({ events: [], ignored: 2, noise: 0 });
  });
});

describe('kubernetes audit intake: bad bodies', () => {
  it.each([
    ['a body that is not an object', 'body', 'not json'],
    ['an array', 'body', [anEvent()]],
    ['another kind', 'kind', { kind: 'Policy', apiVersion: 'audit.k8s.io/v1', rules: [] }],
    ['another apiVersion', 'apiVersion', { kind: 'EventList', apiVersion: 'v1', items: [] }],
    ['items that are not a list', 'items', { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', items: {} }],
    ['one Event without auditID', 'auditID', { kind: 'Event', ...anEvent({ auditID: undefined }) }],
    ['one Event with a time that is not one', 'requestReceivedTimestamp', { kind: 'Event', ...anEvent({ requestReceivedTimestamp: 'yesterday' }) }],
  ])('%s is a 400 naming %s', (_name, field, body) => {
    const err = badRequestOf(() => parse(body));
    expect(err).toMatchObject({ status: 400, field });
    expect(err.message.length).toBeGreaterThan(10);
  });

  it('records the good items of a batch and reports the bad ones by position and field', () => {
    const good = anEvent();
    const out = parse(list(good, anEvent({ auditID: '' }), 'oops', anEvent({ user: {} }), anEvent({ objectRef: { namespace: 'shop' } }), anEvent({ requestReceivedTimestamp: undefined, stageTimestamp: undefined })));
    expect(out.events.map((e) => e.eventId)).toEqual([good.auditID]);
    expect(out.rejected.map((r) => [r.index, r.field])).toEqual([[1, 'items.1.auditID'], [2, 'items.2'], [3, 'items.3.user.username'], [4, 'items.4.objectRef.resource'], [5, 'items.5.requestReceivedTimestamp']]);
    expect(out.rejected[0]!.message).toMatch(/^audit event 2: auditID is missing/);
  });

  it('answers any JSON with events or a 400, never another error: whole bodies, and events whose every field may be of any type', () => {
    const field = fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined });
    const nearlyAnEvent = fc.record({
      auditID: fc.oneof(fc.uuid(), field), stage: fc.oneof(fc.constant('ResponseComplete'), field), verb: fc.oneof(fc.constantFrom('create', 'patch', 'delete', 'get'), field),
      user: fc.oneof(fc.record({ username: fc.oneof(fc.constantFrom('alice', FLUX, 'system:node:n'), field) }), field),
      objectRef: fc.oneof(fc.record({ resource: fc.oneof(fc.constantFrom('secrets', 'pods', 'deployments'), field), name: field, namespace: field, apiGroup: field, subresource: field }), field),
      responseStatus: fc.oneof(fc.record({ code: fc.oneof(fc.constantFrom(200, 403, 409), field), reason: field }), field),
      requestObject: field, responseObject: field, requestURI: field, sourceIPs: field, impersonatedUser: field,
      requestReceivedTimestamp: fc.oneof(fc.constant('2026-03-04T10:00:00Z'), field),
    }, { requiredKeys: [] });
    const bodies = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({ kind: fc.constant('EventList'), apiVersion: fc.constantFrom('audit.k8s.io/v1', 'audit.k8s.io/v1beta1'), items: fc.array(fc.oneof(nearlyAnEvent, fc.jsonValue({ maxDepth: 2 })), { maxLength: 8 }) }),
      nearlyAnEvent.map((e) => ({ kind: 'Event', ...e })),
    );
    fc.assert(fc.property(bodies, (body) => {
      try {
        const out = parse(body);
        for (const e of out.events) expect(e.eventId).toEqual(expect.any(String));
      } catch (err) {
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).status).toBe(400);
      }
    }), { numRuns: 400, seed: 15 });
  });

  it('answers an empty EventList with nothing at all', () => {
    expect(parse(list())).toEqual({ events: [], ignored: 0, noise: 0, rejected: [] });
  });
});

describe.skipIf(!hasShared)('kubernetes audit intake: the shared real payloads', () => {
  const read = (f: string) => JSON.parse(readFileSync(join(SHARED, f), 'utf8')) as Record<string, unknown>;
  /** Panther's test cases are partial events: they lack the envelope the apiserver always writes. */
  const envelope = (e: Record<string, unknown>, i: number) => ({ auditID: `panther-${i}`, stage: 'ResponseComplete', requestReceivedTimestamp: '2024-05-06T07:08:09Z', ...e });

  it('covers every file of the folder', () => {
    const files = readdirSync(SHARED).filter((f) => f.endsWith('.json') || f.endsWith('.ndjson')).sort();
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  type Want = { events?: Array<Record<string, unknown>>; ignored?: number; noise?: number; status400?: string };
  const EXPECTED: Record<string, Want> = {
    'falco-v1-create-secret-kube-system.json': { events: [{ title: 'create secrets/bootstrap-token-ne7bxu in kube-system', principal: { kind: 'person', name: 'admin' }, diff: null, denied: false }] },
    'falco-v1-delete-secret-by-user.json': { events: [{ title: 'delete secrets/example-secret in default', action: 'delete', diff: null, occurredAt: '2020-04-21T17:58:49.691Z' }] },
    'falco-v1beta1-create-configmap-by-user.json': { events: [{ title: 'create configmaps/my-config in default', principal: { kind: 'person', name: 'minikube-user' }, eventId: '155b887c-c27c-4fdb-9667-999f74512d0a' }] },
    'falco-v1beta1-create-namespace-anonymous.json': { events: [], noise: 1 },
    'falco-v1beta1-create-pod-by-serviceaccount-replicaset-controller.json': { events: [], noise: 1 },
    'falco-v1beta1-create-pod-exec-subresource.json': { events: [], ignored: 1 },
    'falco-v1beta1-delete-deployment-by-user.json': { events: [{ title: 'delete deployments/nginx-deployment in default', diff: null, location: { cluster: 'prod-eu', namespace: 'default' } }] },
    'falco-v1beta1-patch-clusterrole-by-user.json': { events: [{ title: 'patch clusterroles/system:node-problem-detector', action: 'patch', location: { cluster: 'prod-eu' } }] },
    'panther-denied-403-create-clusterrole.json': { status400: 'auditID', events: [{ title: 'create clusterroles/write-role', denied: true, errorCode: '403 Forbidden', principal: { kind: 'person', name: 'attacker@example.com' } }] },
    'panther-denied-403-create-clusterrolebinding.json': { status400: 'auditID', events: [{ title: 'create clusterrolebindings/backdoor', denied: true, errorCode: '403 Forbidden' }] },
    'panther-v1-create-secret-by-user.json': { status400: 'auditID', events: [{ title: 'create secrets/new-secret in production', denied: false, principal: { kind: 'person', name: 'developer@example.com' } }] },
    'panther-v1-eks-pod-eviction-429-subresource.json': { status400: 'auditID', events: [], ignored: 1 },
    'panther-v1-update-system-clusterrole.json': { status400: 'auditID', events: [{ title: 'update clusterroles/system:node', action: 'update', denied: false }] },
    'perf-tests-gce-v1-lease-update-and-node-status-patch.ndjson': { events: [], noise: 3 },
  };

  it.each(Object.entries(EXPECTED))('%s', (file, want) => {
    let body: unknown;
    if (file.endsWith('.ndjson')) {
      // The log backend's lines; the webhook would have posted them as one EventList.
      body = list(...readFileSync(join(SHARED, file), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown));
    } else {
      body = read(file);
    }
    if (want.status400) {
      expect(badRequestOf(() => parse(body))).toMatchObject({ status: 400, field: want.status400 });
      body = envelope(body as Record<string, unknown>, 1);
    }
    const out = parse(body);
    expect(out.rejected).toEqual([]);
    expect({ ignored: out.ignored, noise: out.noise }).toEqual({ ignored: want.ignored ?? 0, noise: want.noise ?? 0 });
    expect(out.events).toHaveLength(want.events!.length);
    want.events!.forEach((w, i) => expect(out.events[i]).toMatchObject(w));
  });

  it('keeps the rules of a ClusterRole patch as its diff, without kubectl\'s copy of the object', () => {
    const [ev] = parse(read('falco-v1beta1-patch-clusterrole-by-user.json')).events;
    expect(JSON.parse(ev!.diff!)).toMatchObject({ rules: [{ resources: ['nodes'], verbs: ['get'] }, { resources: ['nodes/status'] }, { resources: ['events'] }] });
    expect(ev!.diff).not.toContain('last-applied-configuration');
  });

  it('leaves the perf-tests lease and node-status lines out as noise even with every namespace listed as CI', () => {
    const lines = readFileSync(join(SHARED, 'perf-tests-gce-v1-lease-update-and-node-status-patch.ndjson'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);
    const out = parse(list(...lines), ctx({ ciNamespaces: ['kube-node-lease', 'kube-system', 'default'] }));
    expect(out).toMatchObject({ events: [], noise: 3, ignored: 0, rejected: [] });
  });
});
