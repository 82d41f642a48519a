import type { SourceKind } from './observed-types.js';
import type { SourceRecord } from './source-store.js';

/**
 * The Test button of a pushed source: has anything arrived, and the exact curl line that sends one.
 * The secret is never answered after creation, so the line reads it from a shell variable.
 */

export type SourceTest = { ok: boolean; message: string; curl: string | null };

/** Where the line reads the secret from: the person sets it to the secret shown once. */
export const SECRET_VARIABLE = 'CHANGELEDGER_SOURCE_SECRET';
const SECRET = `$${SECRET_VARIABLE}`;

const AT = '2026-01-01T00:00:00Z';
/**
 * A body each sender's adapter accepts. Where the sender has a kind of event we do not record (a
 * ping, a read), the line sends that: it proves the secret and the endpoint, and is counted as
 * ignored. The generic webhook and PagerDuty record one test change (sent again, a duplicate).
 */
const BODIES: Record<SourceKind, unknown> = {
  github: { zen: 'Test from changeledger', hook_id: 0 },
  gitlab: { object_kind: 'test' },
  argocd: { app: 'changeledger-test', event: 'test' },
  kubernetes: {
    kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {},
    items: [{
      kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: '00000000-0000-4000-8000-00000000c0de', stage: 'ResponseComplete',
      requestURI: '/api/v1/namespaces/default/configmaps/changeledger-test', verb: 'get', user: { username: 'changeledger-test' },
      objectRef: { resource: 'configmaps', namespace: 'default', name: 'changeledger-test', apiVersion: 'v1' }, responseStatus: { code: 200 },
      requestReceivedTimestamp: AT, stageTimestamp: AT,
    }],
  },
  aws: {
    version: '0', id: 'changeledger-test', 'detail-type': 'AWS API Call via CloudTrail', source: 'aws.ec2', account: '123456789012', time: AT, region: 'eu-west-1', resources: [],
    detail: {
      eventVersion: '1.09', eventID: '00000000-0000-4000-8000-00000000c0de', eventTime: AT, eventSource: 'ec2.amazonaws.com', eventName: 'DescribeInstances', awsRegion: 'eu-west-1',
      readOnly: true, eventCategory: 'Management', userIdentity: { type: 'IAMUser', userName: 'changeledger-test', arn: 'arn:aws:iam::123456789012:user/changeledger-test', accountId: '123456789012' },
    },
  },
  azure: {
    records: [{
      time: AT, resourceId: '/SUBSCRIPTIONS/00000000-0000-0000-0000-000000000000/RESOURCEGROUPS/CHANGELEDGER-TEST', operationName: 'MICROSOFT.RESOURCES/SUBSCRIPTIONS/RESOURCEGROUPS/READ',
      category: 'Administrative', resultType: 'Success', correlationId: '00000000-0000-4000-8000-00000000c0de', identity: {}, properties: {},
    }],
  },
  pagerduty: { routing_key: '', payload: { summary: 'Test change sent with curl', source: 'curl' } },
  cloudevents: { specversion: '1.0', id: 'changeledger-test-1', source: 'changeledger/curl', type: 'dev.changeledger.test', data: {} },
  webhook: { id: 'changeledger-test-1', title: 'Test change sent with curl' },
};

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The curl line that sends the test body the way this kind's sender authenticates. */
export function curlLine(kind: SourceKind, endpoint: string): string {
  const body = kind === 'pagerduty'
    ? JSON.stringify(BODIES.pagerduty).replace('"routing_key":""', '"routing_key":"\'"$' + SECRET_VARIABLE + '"\'"')
    : JSON.stringify(BODIES[kind]);
  const type = kind === 'cloudevents' ? 'application/cloudevents+json' : 'application/json';
  const common = `-H 'Content-Type: ${type}'`;
  if (kind === 'github') {
    // GitHub signs the exact bytes with the secret: the line computes the same HMAC, and sends a ping.
    return [
      `body=${q(body)}`,
      `sig=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "${SECRET}" | sed 's/^.* //')`,
      `curl -sS -X POST ${q(endpoint)} ${common} -H 'X-GitHub-Event: ping' -H 'X-GitHub-Delivery: changeledger-test' -H "X-Hub-Signature-256: sha256=$sig" --data-binary "$body"`,
    ].join('\n');
  }
  if (kind === 'gitlab') return `curl -sS -X POST ${q(endpoint)} ${common} -H 'X-Gitlab-Event: Test Hook' -H "X-Gitlab-Token: ${SECRET}" --data-binary ${q(body)}`;
  // The routing key rides in the body: the single-quoted JSON opens to let the shell put the variable in.
  if (kind === 'pagerduty') return `curl -sS -X POST ${q(endpoint)} ${common} --data-binary '${body}'`;
  return `curl -sS -X POST ${q(endpoint)} ${common} -H "Authorization: Bearer ${SECRET}" --data-binary ${q(body)}`;
}

export function pushTest(s: Pick<SourceRecord, 'kind' | 'lastEventAt' | 'counts'>, endpoint: string): SourceTest {
  const curl = curlLine(s.kind, endpoint);
  const send = `Set ${SECRET_VARIABLE} to the connection's secret and run the line below: a 2xx answer means the secret and the endpoint are right.`;
  if (s.lastEventAt === null && s.counts.ignored === 0) {
    return { ok: false, message: `No event has arrived at ${endpoint} yet. ${send}`, curl };
  }
  const last = s.lastEventAt ? `The last event arrived at ${s.lastEventAt}` : 'Deliveries have arrived (none recorded yet)';
  return { ok: true, message: `${last}: ${s.counts.recorded} recorded, ${s.counts.duplicate} duplicates, ${s.counts.ignored} ignored so far. ${send}`, curl };
}
