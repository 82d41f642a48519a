import { describe, expect, it } from 'vitest';
import type { LabelMapping, Subject } from './alert-types.js';
import { checkLabelMapping, DEFAULT_LABEL_MAPPING, indexHits, lookupsOf, resolveSubject, stripPort, subjectLabel, workloadsOfPod } from './label-mapping.js';

const hits = indexHits(
  [
    { key: 'svc:checkout', kind: 'service', name: 'Checkout' },
    { key: 'svc:node', kind: 'service', name: 'node' },
    { key: 'svc:payments-api', kind: 'service', name: 'Payments' },
    { key: 'host:db-1', kind: 'host', name: 'db-1' },
    { key: 'vm:batch-7', kind: 'vm', name: 'Batch VM' },
    { key: 'pod:shop/web-0', kind: 'pod', name: 'web-0' },
    { key: 'workload:shop/Deployment/api', kind: 'workload', name: 'api' },
    { key: 'db:pg-1/wallet', kind: 'database', name: 'checkout-db' },
  ],
  [{ id: 'blackbox-checkout', name: 'Checkout probes' }],
);

const svc = (key: string, name: string): Subject => ({ kind: 'service', key, name });
const asset = (key: string, name: string): Subject => ({ kind: 'asset', key, name });
const UNMAPPED: Subject = { kind: 'unmapped', key: null, name: null };

describe('the default label mapping', () => {
  it.each<[string, Record<string, string>, Subject, RegExp]>([
    ['service by key', { service: 'checkout' }, svc('svc:checkout', 'Checkout'), /rule 1/],
    ['service by name, case-insensitive', { app: 'PAYMENTS' }, svc('svc:payments-api', 'Payments'), /rule 1/],
    ['app_kubernetes_io_name', { app_kubernetes_io_name: 'checkout' }, svc('svc:checkout', 'Checkout'), /rule 1/],
    ['an explicit service label beats the host', { service: 'checkout', instance: 'db-1:9100' }, svc('svc:checkout', 'Checkout'), /rule 1/],
    ['a monitoring source by the job, before the instance it probes', { job: 'blackbox-checkout', instance: 'db-1:9115' }, { kind: 'source', key: 'blackbox-checkout', name: 'Checkout probes' }, /monitoring source/],
    ['a monitoring source by the rule group', { rule_group: 'Blackbox-Checkout' }, { kind: 'source', key: 'blackbox-checkout', name: 'Checkout probes' }, /rule 2/],
    ['a pod in the catalogue', { namespace: 'shop', pod: 'web-0' }, asset('pod:shop/web-0', 'web-0'), /rule 3/],
    ['a pod that is not, through its Deployment', { namespace: 'shop', pod: 'api-7d9f8c6b5-x2x9z' }, asset('workload:shop/Deployment/api', 'api'), /rule 3/],
    ['instance with its port stripped', { instance: 'db-1:9100', job: 'nothing-known' }, asset('host:db-1', 'db-1'), /rule 4/],
    ['nodename by the entity name of a vm', { nodename: 'batch vm' }, asset('vm:batch-7', 'Batch VM'), /rule 4/],
    ['job as a service name last: node_exporter on a host is the host', { job: 'node', instance: 'db-1:9100' }, asset('host:db-1', 'db-1'), /rule 4/],
    ['job as a service name when nothing else names one', { job: 'node', instance: 'unknown:9100' }, svc('svc:node', 'node'), /rule 5/],
    ['a name of another kind does not count (a database is not a host)', { host: 'checkout-db' }, UNMAPPED, /no rule/],
    ['nothing the catalogue knows', { alertname: 'Watchdog', severity: 'none' }, UNMAPPED, /no rule/],
    ['a service label naming nothing falls through to the next rule', { service: 'ghost', host: 'db-1' }, asset('host:db-1', 'db-1'), /rule 4/],
  ])('%s', (_what, labels, subject, reason) => {
    const r = resolveSubject(labels, DEFAULT_LABEL_MAPPING, hits);
    expect(r.subject).toEqual(subject);
    expect(r.reason).toMatch(reason);
  });

  it('asks the catalogue about every candidate of a batch at once, lower-cased, each once', () => {
    const q = lookupsOf([{ service: 'Checkout', instance: 'db-1:9100' }, { service: 'checkout', job: 'api' }], DEFAULT_LABEL_MAPPING);
    expect(q.names.sort()).toEqual(['api', 'checkout', 'db-1']);
    expect(q.keys).toContain('svc:checkout');
    expect(q.keys).toContain('host:db-1');
    expect(q.keys.filter((k) => k === 'svc:checkout')).toHaveLength(1);
    expect(q.sources).toEqual(['api']);
  });

  it('follows an organisation\'s own order: host before service', () => {
    const mine: LabelMapping = [{ labels: ['instance'], as: 'asset', kinds: ['host'] }, { labels: ['service'], as: 'service' }];
    expect(resolveSubject({ service: 'checkout', instance: 'db-1:9100' }, mine, hits).subject).toEqual(asset('host:db-1', 'db-1'));
  });
});

describe('the pieces of a subject', () => {
  it.each([['db-1:9100', 'db-1'], ['db-1', 'db-1'], ['[::1]:9100', '::1'], ['https://shop.example', 'https://shop.example'], ['10.0.0.5:80', '10.0.0.5']])('instance %s is %s', (i, h) => {
    expect(stripPort(i)).toBe(h);
  });

  it('derives the workloads a pod name may belong to', () => {
    expect(workloadsOfPod('shop', 'api-7d9f8c6b5-x2x9z')).toEqual(['workload:shop/Deployment/api', 'workload:shop/StatefulSet/api-7d9f8c6b5', 'workload:shop/DaemonSet/api-7d9f8c6b5']);
    expect(workloadsOfPod('db', 'pg-0')).toEqual(['workload:db/StatefulSet/pg', 'workload:db/DaemonSet/pg']);
    expect(workloadsOfPod('db', 'single')).toEqual([]);
  });

  it.each<[string, Subject, Record<string, string>, string]>([
    ['the matched source', { kind: 'source', key: 'bb', name: 'Checkout probes' }, { job: 'bb' }, 'Checkout probes · Down · Checkout probes'],
    ['the job', svc('svc:checkout', 'Checkout'), { job: 'api' }, 'Checkout · Down · api'],
    ['the sender', svc('svc:checkout', 'Checkout'), {}, 'Checkout · Down · am:9093'],
    ['unmapped', UNMAPPED, {}, 'unmapped · Down · am:9093'],
  ])('prints a subject by name, its source being %s', (_w, subject, labels, text) => {
    const matched = subject.kind === 'source' ? { id: subject.key, name: subject.name } : null;
    expect(subjectLabel(subject, 'Down', labels, matched, 'am:9093')).toBe(text);
  });
});

describe('checkLabelMapping', () => {
  it('takes the defaults as they are', () => {
    expect(checkLabelMapping(DEFAULT_LABEL_MAPPING)).toEqual({ ok: true, mapping: DEFAULT_LABEL_MAPPING });
  });

  it.each<[string, unknown, string, RegExp]>([
    ['not a list', { service: 'x' }, '', /list of rules/],
    ['an empty list', [], '', /at least 1 rule/],
    ['a rule of an unknown kind', [{ labels: ['x'], as: 'team' }], '0.as', /one of: service, source, pod, asset/],
    ['a rule without labels', [{ labels: [], as: 'service' }], '0.labels', /at least 1 label/],
    ['a label that is no label name', [{ labels: ['service', 'app.kubernetes.io/name'], as: 'service' }], '0.labels.1', /not a Prometheus label name/],
    ['the same label twice', [{ labels: ['a', 'a'], as: 'service' }], '0.labels', /same label twice/],
    ['a pod rule of one label', [{ labels: ['pod'], as: 'pod' }], '0.labels', /namespace, then the pod/],
    ['an asset rule without kinds', [{ labels: ['host'], as: 'asset' }], '0.kinds', /at least 1 kind/],
    ['an asset of an unknown kind', [{ labels: ['host'], as: 'asset', kinds: ['host', 'toaster'] }], '0.kinds.1', /must be one of/],
    ['kinds on a service rule', [{ labels: ['svc'], as: 'service', kinds: ['host'] }], '0.kinds', /only for rules/],
    ['an unknown field', [{ labels: ['svc'], as: 'service', weight: 2 }], '0.weight', /not a known field/],
  ])('refuses %s, naming the field', (_what, raw, field, problem) => {
    const r = checkLabelMapping(raw);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.field).toBe(field);
    expect(r.problem).toMatch(problem);
  });
});
