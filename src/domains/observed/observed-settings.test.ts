import { describe, expect, it } from 'vitest';
import { FieldError } from '../../platform/errors.js';
import { applySettings, DEFAULT_OBSERVED_SETTINGS, globProblem, type ObservedSettingsInput } from './observed-settings.js';

const refused = (input: ObservedSettingsInput): { field: string; message: string } => {
  try {
    applySettings(DEFAULT_OBSERVED_SETTINGS, input);
  } catch (err) {
    if (err instanceof FieldError) return { field: err.field!, message: err.message };
    throw err;
  }
  throw new Error('not refused');
};

describe('observed-change settings', () => {
  it('defaults: a 900-second interval and the four CI namespaces of 000', () => {
    expect(DEFAULT_OBSERVED_SETTINGS).toEqual({ pullIntervalSeconds: 900, ciNamespaces: ['flux-system', 'jenkins', 'gitlab-runner', 'tekton'], serviceMap: {}, resourceMap: {} });
  });

  it('takes 0 (off) and an interval of a minute to a day', () => {
    expect(applySettings(DEFAULT_OBSERVED_SETTINGS, { pullIntervalSeconds: 0 }).next.pullIntervalSeconds).toBe(0);
    expect(applySettings(DEFAULT_OBSERVED_SETTINGS, { pullIntervalSeconds: 86_400 }).changed).toEqual(['pullIntervalSeconds']);
  });

  it.each<[string, ObservedSettingsInput, string, RegExp]>([
    ['a negative interval', { pullIntervalSeconds: -1 }, 'pullIntervalSeconds', /from 0 \(no scheduled pulls\) to 86400/],
    ['a fractional interval', { pullIntervalSeconds: 90.5 }, 'pullIntervalSeconds', /whole number/],
    ['an interval under a minute', { pullIntervalSeconds: 30 }, 'pullIntervalSeconds', /at least 60 seconds/],
    ['an interval as text', { pullIntervalSeconds: '900' }, 'pullIntervalSeconds', /whole number/],
    ['argocd as a CI namespace (its syncs come through the Argo CD connection)', { ciNamespaces: ['jenkins', 'argocd'] }, 'ciNamespaces.1', /Argo CD connection.*twice/],
    ['kube-system as a CI namespace', { ciNamespaces: ['kube-system'] }, 'ciNamespaces.0', /belongs to the cluster itself/],
    ['kube-public as a CI namespace', { ciNamespaces: ['kube-public'] }, 'ciNamespaces.0', /belongs to the cluster itself/],
    ['kube-node-lease as a CI namespace', { ciNamespaces: ['kube-node-lease'] }, 'ciNamespaces.0', /belongs to the cluster itself/],
    ['a namespace that is no namespace name', { ciNamespaces: ['Jenkins CI'] }, 'ciNamespaces.0', /not a Kubernetes namespace name/],
    ['namespaces that are not a list', { ciNamespaces: 'jenkins' }, 'ciNamespaces', /list/],
    ['a repo glob with an unclosed bracket', { serviceMap: { 'acme/[check': 'checkout' } }, 'serviceMap.acme/[check', /not a valid pattern: Missing closing: "]"/],
    ['a repo glob with an unclosed brace', { serviceMap: { 'acme/{a,b': 'x' } }, 'serviceMap.acme/{a,b', /Missing closing: "}"/],
    ['a repo glob mapped to no service', { serviceMap: { 'acme/*': '' } }, 'serviceMap.acme/*', /service name/],
    ['a service map that is a list', { serviceMap: ['acme/*'] }, 'serviceMap', /object \{repository glob: service\}/],
    ['a resource glob that can never match', { resourceMap: { 'arn:[z-a]': 'x' } }, 'resourceMap.arn:[z-a]', /cannot|can match anything/],
    ['a resource glob with 11 services', { resourceMap: { 'arn:aws:sqs:*': Array.from({ length: 11 }, (_, i) => `s${i}`) } }, 'resourceMap.arn:aws:sqs:*', /1 to 10 services/],
    ['a resource glob with no service', { resourceMap: { 'arn:aws:sqs:*': [] } }, 'resourceMap.arn:aws:sqs:*', /1 to 10 services/],
    ['201 resource globs', { resourceMap: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`r${i}/*`, 'x'])) }, 'resourceMap', /at most 200 globs/],
    ['201 repo globs', { serviceMap: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`acme/r${i}`, 'x'])) }, 'serviceMap', /at most 200 globs/],
  ])('refuses %s, naming the field', (_name, input, field, words) => {
    const r = refused(input);
    expect(r.field).toBe(field);
    expect(r.message).toMatch(words);
  });

  it('takes 200 globs of 10 services, a single service or a list', () => {
    const resourceMap = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`arn:aws:sqs:*:*:q${i}-*`, Array.from({ length: 10 }, (_, j) => `svc${j}`)]));
    expect(applySettings(DEFAULT_OBSERVED_SETTINGS, { resourceMap }).changed).toEqual(['resourceMap']);
    expect(applySettings(DEFAULT_OBSERVED_SETTINGS, { resourceMap: { 'i-*': 'fleet' } }).next.resourceMap).toEqual({ 'i-*': 'fleet' });
  });

  it('counts as changed only what differs: the same values, or a map in another key order, change nothing', () => {
    const before = { ...DEFAULT_OBSERVED_SETTINGS, serviceMap: { 'a/*': 'x', 'b/*': 'y' } };
    expect(applySettings(before, {}).changed).toEqual([]);
    expect(applySettings(before, { pullIntervalSeconds: 900, ciNamespaces: ['flux-system', 'jenkins', 'gitlab-runner', 'tekton'], serviceMap: { 'b/*': 'y', 'a/*': 'x' } }).changed).toEqual([]);
    expect(applySettings(before, { serviceMap: { 'a/*': 'x' } }).changed).toEqual(['serviceMap']);
  });

  it('a glob problem, in words', () => {
    expect(globProblem('acme/*')).toBeNull();
    expect(globProblem('  ')).toBe('is an empty pattern');
    expect(globProblem('a\tb')).toBe('contains control characters');
  });
});
