import { CloudEvent, HTTP } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import { CDEVENTS_SERVICE_DEPLOYED, cloudEventSource, cloudEventType, structuredCallback, type CallbackPayload } from './cloud-event.js';

type Facts = Parameters<typeof cloudEventType>[1];
const deploy: Facts = { kind: 'deploy', outcome: 'success', aborted: false };

describe('the CloudEvents type of a callback event', () => {
  it.each<[string, string, Facts, string]>([
    ['a deploy completed with success is the CDEvents service.deployed', 'change.completed', deploy, CDEVENTS_SERVICE_DEPLOYED],
    ['a deploy completed partially stays ours', 'change.completed', { ...deploy, outcome: 'partial' }, 'dev.changeledger.change.completed'],
    ['an aborted deploy stays ours', 'change.completed', { ...deploy, aborted: true }, 'dev.changeledger.change.completed'],
    ['a config change completed with success stays ours', 'change.completed', { ...deploy, kind: 'config' }, 'dev.changeledger.change.completed'],
    ['a deploy approved is ours', 'change.approved', deploy, 'dev.changeledger.change.approved'],
    ['a rollback done is ours', 'change.rolled_back', deploy, 'dev.changeledger.change.rolled_back'],
    ['a test callback is ours', 'change.test', deploy, 'dev.changeledger.change.test'],
  ])('%s', (_rule, event, facts, type) => {
    expect(cloudEventType(event, facts)).toBe(type);
  });
});

describe('the CloudEvents source', () => {
  it.each([
    ['https://changes.acme.dev', 'acme', 'https://changes.acme.dev/organizations/acme'],
    ['https://acme.dev/changeledger/', 'acme', 'https://acme.dev/changeledger/organizations/acme'],
    ['', 'acme', '/changeledger/organizations/acme'],
  ])('names the installation (%s) and the organisation', (url, slug, source) => {
    expect(cloudEventSource(url, slug)).toBe(source);
  });
});

describe('a structured callback', () => {
  const payload: CallbackPayload = { event: 'change.completed', deliveryId: 'dlv_1', occurredAt: '2025-01-02T03:04:05.000Z', change: { id: 'chg_1' } };
  const change = {
    displayId: 'CHG-ABCDEF12', kind: 'deploy' as const, outcome: 'success' as const, aborted: false, pipeline: null,
    components: [{ kind: 'service', key: 'svc:checkout-api', name: 'checkout-api', match: 'exact' as const, seen: true }],
  };

  it('leaves facts the change does not have as nulls instead of inventing them', () => {
    const m = structuredCallback(payload, change, 'https://x.dev/organizations/acme');
    const e = HTTP.toEvent({ headers: { 'content-type': m.contentType }, body: m.body }) as CloudEvent<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(e.type).toBe(CDEVENTS_SERVICE_DEPLOYED);
    expect(e.subject).toBe('svc:checkout-api');
    expect(e.changeid).toBe('CHG-ABCDEF12');
    expect(e.data!.subject.content).toEqual({ environment: { id: null }, artifactId: null });
  });

  it('names the artifact by the version, else the commit, as a generic package URL', () => {
    const withCommit = structuredCallback(payload, { ...change, pipeline: { commit: '9f1c2ab', environment: 'prod' } }, '/s');
    expect(JSON.parse(withCommit.body).data.subject.content).toEqual({ environment: { id: 'prod' }, artifactId: 'pkg:generic/checkout-api@9f1c2ab' });
    const withVersion = structuredCallback(payload, { ...change, pipeline: { commit: '9f1c2ab', version: '1.4.2+build 7' } }, '/s');
    expect(JSON.parse(withVersion.body).data.subject.content.artifactId).toBe('pkg:generic/checkout-api@1.4.2%2Bbuild%207');
  });
});
