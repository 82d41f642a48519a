import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { LIMITS, NOT_STORED, type AdapterContext } from '../observed-types.js';
import type { AuditRef } from './k8s-rules.js';
import { kubernetesIntake } from './kubernetes.js';
import { commandLine, draftK8sRevert, manifestYaml, shellQuote, type K8sWriteFacts } from './revert-k8s.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'kubernetes-audit');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`kubernetes revert: SKIPPING the shared real audit event tests: ${SHARED} is absent`);

const ref = (over: Partial<AuditRef> = {}): AuditRef => ({ group: '', resource: 'configmaps', subresource: null, namespace: 'shop', name: 'app-config', ...over });
const write = (verb: string, r: Partial<AuditRef> = {}, requestObject?: unknown, responseObject?: unknown): K8sWriteFacts => ({ verb, ref: ref(r), requestObject, responseObject });
const CHECKOUT = { group: 'apps', resource: 'deployments', name: 'checkout' };
const TEMPLATE_PATCH = { spec: { template: { spec: { containers: [{ name: 'app', image: 'shop/checkout:1.4.2' }] } } } };
const STATUS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'app-config', kind: 'configmaps', uid: 'c0ffee00-0000-4000-8000-000000000001' } };

/** A ConfigMap as the apiserver answers a delete of it at RequestResponse level. */
const deletedConfigMap = () => ({
  kind: 'ConfigMap', apiVersion: 'v1',
  metadata: {
    name: 'app-config', namespace: 'shop', uid: 'c0ffee00-0000-4000-8000-000000000001', resourceVersion: '4211', creationTimestamp: '2026-01-05T10:00:00Z', generation: 1,
    selfLink: '/api/v1/namespaces/shop/configmaps/app-config', managedFields: [{ manager: 'kubectl-client-side-apply', operation: 'Update' }],
    deletionTimestamp: '2026-03-04T10:15:00Z', deletionGracePeriodSeconds: 0,
    labels: { app: 'shop' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"MODE":"on"}}', team: 'payments' },
  },
  data: { MODE: 'on', RETRIES: '3', 'nginx.conf': 'gzip on;\nworker_processes 2;\n' },
});
const CONFIGMAP_YAML = [
  'kind: ConfigMap', 'apiVersion: v1', 'metadata:', '  name: app-config', '  namespace: shop', '  labels:', '    app: shop', '  annotations:', '    team: payments',
  'data:', '  MODE: "on"', '  RETRIES: "3"', '  nginx.conf: |', '    gzip on;', '    worker_processes 2;', '',
].join('\n');

type Want = { tool: string; command?: string | null; summary: RegExp; manifest?: string | null; changed?: unknown };

describe('draftK8sRevert: what a person is shown for each kind of write', () => {
  const cases: Array<[string, K8sWriteFacts, Want]> = [
    ['a create in a namespace is deleted by name', write('create'),
      { tool: 'kubectl', command: 'kubectl delete configmaps app-config -n shop', summary: /^Deletes configmaps\/app-config in namespace shop, which this write created\.$/, manifest: null, changed: null }],
    ['a create in an API group names the group', write('create', CHECKOUT),
      { tool: 'kubectl', command: 'kubectl delete deployments.apps checkout -n shop', summary: /^Deletes deployments\/checkout in namespace shop/ }],
    ['a cluster-scoped create has no -n', write('create', { group: 'rbac.authorization.k8s.io', resource: 'clusterroles', namespace: null, name: 'reader' }),
      { tool: 'kubectl', command: 'kubectl delete clusterroles.rbac.authorization.k8s.io reader', summary: /^Deletes clusterroles\/reader, which/ }],
    ['a created namespace warns that its contents go with it', write('create', { resource: 'namespaces', namespace: null, name: 'sandbox' }),
      { tool: 'kubectl', command: 'kubectl delete namespaces sandbox', summary: /and everything in it: check first/ }],
    ['a create whose URL had no name takes it from the response', write('create', { name: null }, undefined, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'from-response' } }),
      { tool: 'kubectl', command: 'kubectl delete configmaps from-response -n shop', summary: /^Deletes configmaps\/from-response/ }],
    ['a create of a generated name that was not logged has no command', write('create', { name: null }),
      { tool: 'none', command: null, summary: /name of the created configmaps is not in the audit event/, changed: { verb: 'create', resource: 'configmaps', namespace: 'shop' } }],
    ['an eviction (a subresource create) deletes nothing of its own', write('create', { resource: 'pods', subresource: 'eviction', name: 'web-1' }),
      { tool: 'none', command: null, summary: /eviction subresource of pods\/web-1 in namespace shop made no object of its own/ }],
    ['a delete answered with the object is re-created from a manifest without server fields', write('delete', {}, { kind: 'DeleteOptions', apiVersion: 'v1' }, deletedConfigMap()),
      { tool: 'kubectl', command: 'kubectl apply -f -', summary: /^Creates configmaps\/app-config in namespace shop again as it was before this delete/, manifest: CONFIGMAP_YAML, changed: null }],
    ['a delete answered with a Status holds no object: none, and the uid it had', write('delete', {}, undefined, STATUS),
      { tool: 'none', command: null, manifest: null, summary: /answered this delete with a Status, not with the deleted object/, changed: { verb: 'delete', resource: 'configmaps', namespace: 'shop', name: 'app-config', uid: STATUS.details.uid } }],
    ['a delete logged at Metadata level asks for RequestResponse level', write('delete'),
      { tool: 'none', command: null, summary: /the audit policy must log configmaps at RequestResponse level/, changed: { verb: 'delete', resource: 'configmaps', namespace: 'shop', name: 'app-config' } }],
    ['a deletecollection answered with its list is re-created as one List', write('deletecollection', { name: null }, undefined, { kind: 'ConfigMapList', apiVersion: 'v1', items: [deletedConfigMap(), { ...deletedConfigMap(), metadata: { name: 'other', namespace: 'shop', uid: 'x' } }] }),
      { tool: 'kubectl', command: 'kubectl apply -f -', summary: /^Creates the 2 deleted configmaps in namespace shop again/ }],
    ['a patch of a deployment\'s pod template rolls it back one revision', write('patch', CHECKOUT, TEMPLATE_PATCH),
      { tool: 'kubectl', command: 'kubectl rollout undo deployments/checkout -n shop', summary: /^Returns deployments\/checkout in namespace shop to its previous revision.*rollout history/, changed: null }],
    ['a JSON patch of the template of a statefulset rolls it back', write('patch', { group: 'apps', resource: 'statefulsets', name: 'db' }, [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'pg:17' }]),
      { tool: 'kubectl', command: 'kubectl rollout undo statefulsets/db -n shop', summary: /rollout history` first\.$/ }],
    ['a full update of a daemonset rolls it back and says only the template returns', write('update', { group: 'apps', resource: 'daemonsets', name: 'agent' }, { kind: 'DaemonSet', spec: { template: {} } }),
      { tool: 'kubectl', command: 'kubectl rollout undo daemonsets/agent -n shop', summary: /Only the pod template goes back/ }],
    ['a deployment of the old extensions group rolls back too', write('patch', { group: 'extensions', resource: 'deployments', name: 'legacy' }, TEMPLATE_PATCH),
      { tool: 'kubectl', command: 'kubectl rollout undo deployments/legacy -n shop', summary: /previous revision/ }],
    ['a deployment patch that leaves the template alone is not rolled back', write('patch', CHECKOUT, { metadata: { annotations: { owner: 'payments' } } }),
      { tool: 'none', command: null, summary: /did not change the pod template .* would undo an earlier change instead/, changed: { metadata: { annotations: { owner: 'payments' } } } }],
    ['a JSON patch of replicas alone is not rolled back', write('patch', CHECKOUT, [{ op: 'replace', path: '/spec/replicas', value: 0 }]),
      { tool: 'none', command: null, summary: /did not change the pod template/, changed: [{ op: 'replace', path: '/spec/replicas', value: 0 }] }],
    ['a scale subresource write is not a rollout', write('update', { ...CHECKOUT, subresource: 'scale' }, { kind: 'Scale', spec: { replicas: 0 } }),
      { tool: 'none', command: null, summary: /holds the new state of deployments\/checkout\/scale in namespace shop, not the old one/, changed: { kind: 'Scale', spec: { replicas: 0 } } }],
    ['a replicaset of group apps is not a rollout', write('patch', { group: 'apps', resource: 'replicasets', name: 'checkout-7d9' }, { spec: { replicas: 2 } }),
      { tool: 'none', command: null, summary: /holds the new state/, changed: { spec: { replicas: 2 } } }],
    ['another patch shows what it changed', write('patch', {}, { data: { MODE: 'off' } }),
      { tool: 'none', command: null, manifest: null, summary: /^The audit event holds the new state of configmaps\/app-config in namespace shop, not the old one, so no revert can be drafted\.$/, changed: { data: { MODE: 'off' } } }],
    ['a patch logged at Metadata level says the body is not known either', write('update'),
      { tool: 'none', command: null, summary: /request body was not logged either/, changed: { verb: 'update', resource: 'configmaps', namespace: 'shop', name: 'app-config' } }],
    ['a verb that is not a write has no inverse', write('get'),
      { tool: 'none', command: null, summary: /^No known inverse for the verb get\.$/ }],
  ];

  it.each(cases)('%s', (_name, facts, want) => {
    const d = draftK8sRevert(facts);
    expect(d.tool).toBe(want.tool);
    expect(d.summary).toMatch(want.summary);
    if (want.command !== undefined) expect(d.command).toBe(want.command);
    if (want.manifest !== undefined) expect(d.manifest).toBe(want.manifest);
    if (want.changed !== undefined) expect(want.changed === null ? d.changed : JSON.parse(d.changed!)).toEqual(want.changed);
    // A draft with a command never also lists a change; one without always says what is known.
    expect(d.tool === 'none' ? d.changed : d.command).not.toBeNull();
  });
});

describe('draftK8sRevert: a Secret\'s values never appear, and the person is told to fill them in', () => {
  const secret = {
    kind: 'Secret', apiVersion: 'v1', type: 'Opaque',
    metadata: { name: 'db', namespace: 'shop', uid: 'u', resourceVersion: '9', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"aHVudGVyMg=="}}' } },
    data: { password: 'aHVudGVyMg==', user: 'YWRtaW4=' }, stringData: { apiKey: 'sk_live_abcdef' },
  };

  it('re-creates a deleted Secret with every value [not stored]', () => {
    const d = draftK8sRevert(write('delete', { resource: 'secrets', name: 'db' }, undefined, secret));
    expect(d.command).toBe('kubectl apply -f -');
    expect(d.summary).toMatch(/values are not stored here: every \[not stored\] in the manifest must be filled in by hand/);
    expect(parseYaml(d.manifest!, { version: '1.1' })).toEqual({
      kind: 'Secret', apiVersion: 'v1', type: 'Opaque', metadata: { name: 'db', namespace: 'shop' },
      data: { password: NOT_STORED, user: NOT_STORED }, stringData: { apiKey: NOT_STORED },
    });
    expect(JSON.stringify(d)).not.toMatch(/aHVudGVyMg|YWRtaW4|sk_live/);
  });

  it('shows a Secret patch with its values [not stored]', () => {
    const d = draftK8sRevert(write('patch', { resource: 'secrets', name: 'db' }, { data: { password: 'bmV3' } }));
    expect(JSON.parse(d.changed!)).toEqual({ data: { password: NOT_STORED } });
    expect(d.changed).not.toContain('bmV3');
  });
});

describe('draftK8sRevert: nothing from an audit event reaches the shell unquoted', () => {
  /** Runs the drafted words through bash with printf in kubectl's place: what each argument really is. */
  const argsOf = (command: string, program: string) => execFileSync('bash', ['-c', `printf '%s\\0' ${command.slice(program.length)}`], { encoding: 'utf8' }).split('\0').slice(0, -1);

  it('single-quotes a name like x\'; rm -rf /, and bash reads it back as one word', () => {
    const d = draftK8sRevert(write('create', { name: 'x\'; rm -rf /', namespace: 'shop$(id)' }));
    expect(d.command).toBe(`kubectl delete configmaps 'x'\\''; rm -rf /' -n 'shop$(id)'`);
    expect(argsOf(d.command!, 'kubectl delete')).toEqual(['configmaps', 'x\'; rm -rf /', '-n', 'shop$(id)']);
  });

  it('quotes a rollout target with a backtick or a newline', () => {
    const d = draftK8sRevert(write('patch', { ...CHECKOUT, name: 'a`reboot`\nb' }, TEMPLATE_PATCH));
    expect(argsOf(d.command!, 'kubectl rollout undo')).toEqual(['deployments/a`reboot`\nb', '-n', 'shop']);
  });

  it('drafts no command for a name that kubectl would read as an option', () => {
    const d = draftK8sRevert(write('create', { resource: 'clusterroles', namespace: null, name: '--all' }));
    expect(d).toMatchObject({ tool: 'none', command: null, summary: expect.stringMatching(/starts with a dash/) });
  });

  it.each([
    ['checkout', 'checkout'], ['system:node-problem-detector', 'system:node-problem-detector'], ['', `''`], ['a b', `'a b'`], ['it\'s', `'it'\\''s'`], ['~root', `'~root'`], ['*', `'*'`],
  ])('shellQuote(%j) is %s', (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
  });

  it('commandLine refuses a dash-led value in a flag\'s values too', () => {
    expect(commandLine('aws iam delete-user', ['--user-name', '-x'])).toBeNull();
    expect(commandLine('aws iam delete-user', ['--user-name', 'bob'])).toBe('aws iam delete-user --user-name bob');
  });
});

describe('manifestYaml: kubectl reads back what was written', () => {
  it('double-quotes every string YAML 1.1 would take for a boolean, a number or null, keys included', () => {
    const o = { kind: 'ConfigMap', data: { on: 'yes', y: 'n', octal: '0o17', under: '1_000', time: '12:30', nil: '~', merge: '<<', empty: '', list: '[not stored]', image: 'nginx:1.27', plain: 'shop' }, n: 3, b: true };
    const y = manifestYaml(o);
    for (const line of ['"on": "yes"', '"y": "n"', 'octal: "0o17"', 'under: "1_000"', 'time: "12:30"', 'nil: "~"', 'merge: "<<"', 'empty: ""', 'list: "[not stored]"', 'image: "nginx:1.27"', 'plain: shop', '"n": 3', 'b: true']) {
      expect(y).toContain(line);
    }
    expect(parseYaml(y, { version: '1.1', merge: false })).toEqual(o);
    expect(parseYaml(y)).toEqual(o);
  });

  it('keeps a multi-line value a literal block unless a line ends in a space', () => {
    expect(manifestYaml({ a: 'x\ny\n' })).toBe('a: |\n  x\n  y\n');
    // `\ ` is YAML's escaped space (1.1 and 1.2 alike), written so no editor trims it.
    expect(manifestYaml({ a: 'x \ny' })).toBe('a: "x\\ \\ny"\n');
    expect(parseYaml(manifestYaml({ a: 'x \ny' }), { version: '1.1' })).toEqual({ a: 'x \ny' });
  });
});

describe('draftK8sRevert: a long change is cut to the diff limit', () => {
  it('cuts what it shows at 2,048 characters', () => {
    const d = draftK8sRevert(write('patch', {}, { data: { big: 'x'.repeat(5000) } }));
    expect(d.changed).toHaveLength(LIMITS.diffChars);
    expect(d.changed!.endsWith('…(cut)')).toBe(true);
  });
});

describe('the adapter carries the revert', () => {
  const ctx: AdapterContext = { sourceId: 'src_k8s', config: { cluster: 'prod-eu' }, ciNamespaces: [], now: new Date('2026-03-04T12:00:00Z') };
  const parse = (body: unknown) => kubernetesIntake.parse({ headers: {}, rawBody: Buffer.from(JSON.stringify(body)), body }, ctx);
  const event = (over: Record<string, unknown>) => ({
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'RequestResponse', auditID: 'aaaaaaaa-0000-4000-8000-000000000001', stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/shop/configmaps', verb: 'create', user: { username: 'alice@example.com' },
    objectRef: { resource: 'configmaps', namespace: 'shop', apiVersion: 'v1' }, responseStatus: { code: 201 },
    requestObject: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { generateName: 'job-cfg-' } }, requestReceivedTimestamp: '2026-03-04T10:15:00.000000Z', ...over,
  });

  it('a refused write gets revert null: nothing changed', () => {
    const [e] = parse(event({ responseStatus: { code: 403, reason: 'Forbidden' }, requestObject: { metadata: { name: 'x' } } })).events;
    expect(e).toMatchObject({ denied: true, revert: null });
  });

  it('an object named by generateName alone is not deleted by its prefix', () => {
    const [e] = parse(event({})).events;
    expect(e!.revert).toMatchObject({ tool: 'none', command: null });
    expect(JSON.stringify(e!.revert)).not.toContain('job-cfg-');
  });

  it('a create whose response named the object is deleted by that name', () => {
    const [e] = parse(event({ responseObject: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'job-cfg-x7k2p', namespace: 'shop' } } })).events;
    expect(e!.revert).toMatchObject({ tool: 'kubectl', command: 'kubectl delete configmaps job-cfg-x7k2p -n shop' });
  });
});

describe.skipIf(!hasShared)('draftK8sRevert on the shared real audit events (../shared/fixtures/real/kubernetes-audit)', () => {
  const load = (f: string) => JSON.parse(readFileSync(join(SHARED, f), 'utf8')) as Record<string, unknown>;
  /** The facts as kubernetes.ts reads them from one raw event. */
  const facts = (raw: Record<string, unknown>): K8sWriteFacts => {
    const o = raw.objectRef as Record<string, string | undefined>;
    return { verb: raw.verb as string, ref: { group: o.apiGroup ?? '', resource: o.resource!, subresource: o.subresource ?? null, namespace: o.namespace ?? null, name: o.name ?? null }, requestObject: raw.requestObject, responseObject: raw.responseObject };
  };
  const ctx: AdapterContext = { sourceId: 'src_k8s', config: {}, ciNamespaces: [], now: new Date('2026-01-01T00:00:00Z') };

  it.each([
    ['falco-v1beta1-create-configmap-by-user.json', 'kubectl delete configmaps my-config -n default'],
    ['panther-v1-create-secret-by-user.json', 'kubectl delete secrets new-secret -n production'],
    ['falco-v1-create-secret-kube-system.json', 'kubectl delete secrets bootstrap-token-ne7bxu -n kube-system'],
    ['falco-v1beta1-create-namespace-anonymous.json', 'kubectl delete namespaces foo'],
  ])('%s: deleted by name (%s)', (file, command) => {
    expect(draftK8sRevert(facts(load(file)))).toMatchObject({ tool: 'kubectl', command, manifest: null, changed: null });
  });

  it('a Secret deleted at Metadata level: the audit policy must log secrets at RequestResponse level', () => {
    const d = draftK8sRevert(facts(load('falco-v1-delete-secret-by-user.json')));
    expect(d).toMatchObject({ tool: 'none', command: null, manifest: null });
    expect(d.summary).toContain('the audit policy must log secrets at RequestResponse level');
    expect(JSON.parse(d.changed!)).toEqual({ verb: 'delete', resource: 'secrets', namespace: 'default', name: 'example-secret' });
  });

  it('a deployment deleted at Request level (its body is DeleteOptions) has no object to re-create', () => {
    const d = draftK8sRevert(facts(load('falco-v1beta1-delete-deployment-by-user.json')));
    expect(d).toMatchObject({ tool: 'none', command: null });
    expect(d.summary).toContain('the audit policy must log deployments at RequestResponse level');
  });

  it('a patched ClusterRole shows its patch, without kubectl\'s copy of the object', () => {
    const d = draftK8sRevert(facts(load('falco-v1beta1-patch-clusterrole-by-user.json')));
    expect(d).toMatchObject({ tool: 'none', command: null });
    expect(d.summary).toMatch(/new state of clusterroles\/system:node-problem-detector, not the old one/);
    expect(JSON.parse(d.changed!).rules).toHaveLength(3);
    expect(d.changed).not.toContain('last-applied-configuration');
  });

  it('an updated system ClusterRole shows the wildcard rules it was given', () => {
    const d = draftK8sRevert(facts(load('panther-v1-update-system-clusterrole.json')));
    expect(JSON.parse(d.changed!)).toMatchObject({ kind: 'ClusterRole', rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] });
  });

  it('through the adapter, the real create carries its revert', () => {
    const [e] = kubernetesIntake.parse({ headers: {}, rawBody: Buffer.from('{}'), body: load('falco-v1beta1-create-configmap-by-user.json') }, ctx).events;
    expect(e!.revert).toMatchObject({ tool: 'kubectl', command: 'kubectl delete configmaps my-config -n default' });
  });
});
