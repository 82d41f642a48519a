/**
 * The inputs of `npm run bench -- intake`, generated (no fixture is needed to run it):
 * a Kubernetes audit EventList as the apiserver's audit webhook posts it (audit.k8s.io/v1, stage
 * ResponseComplete), and a batch of CloudTrail records in EventBridge envelopes as an API
 * destination posts them. Shapes after the real payloads in ../shared/fixtures/real
 * (kubernetes-audit, aws-cloudtrail). Also the connections that deliver them, and what a request
 * does with the bytes before the service.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { SourceRow } from '../src/domains/observed/observed-store.js';
import type { IntakeAdapter, Parsed, SourceKind } from '../src/domains/observed/observed-types.js';
import { INTAKE_ADAPTERS } from '../src/domains/observed/sources/index.js';
import type { Database } from '../src/platform/db/database.js';

/** When the batches start unless told otherwise: the audit list spans 2 s an event (1,000 → 33 min 18 s), the trail 5 s a record. */
export const HOUR0 = Date.UTC(2026, 2, 2, 9);

/**
 * 1,000 audit events: 30 % people's writes (patch/update/create of deployments and configmaps),
 * 30 % a CI service account in the jenkins namespace writing distinct objects (so the 50-an-hour cap
 * bites), 40 % noise: lease renewals by the controllers and node status writes by kubelets.
 */
export function auditEventList(n: number, tag: string, hour0 = HOUR0): unknown {
  const items = Array.from({ length: n }, (_, i) => {
    const at = new Date(hour0 + i * 2_000).toISOString();
    const base = { kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'RequestResponse', auditID: `${tag}-${randomUUID()}`, stage: 'ResponseComplete', requestReceivedTimestamp: at, stageTimestamp: at, sourceIPs: ['10.0.0.7'], userAgent: 'bench' };
    const kind = i % 10;
    if (kind < 3) {
      const name = `app-${i % 40}`;
      return {
        ...base, verb: 'patch', requestURI: `/apis/apps/v1/namespaces/shop/deployments/${name}`,
        user: { username: `person-${i % 7}@example.com`, groups: ['system:authenticated'] },
        objectRef: { resource: 'deployments', namespace: 'shop', name, apiGroup: 'apps', apiVersion: 'v1' },
        responseStatus: { metadata: {}, code: 200 },
        requestObject: { spec: { replicas: 2 + (i % 3), template: { metadata: { labels: { 'app.kubernetes.io/name': name } } } } },
        responseObject: { metadata: { name, namespace: 'shop', labels: { 'app.kubernetes.io/name': name } } },
      };
    }
    if (kind < 6) {
      const name = `cfg-${tag}-${i}`;
      return {
        ...base, verb: 'create', requestURI: '/api/v1/namespaces/shop/configmaps',
        user: { username: 'system:serviceaccount:jenkins:deployer', groups: ['system:serviceaccounts', 'system:serviceaccounts:jenkins'] },
        objectRef: { resource: 'configmaps', namespace: 'shop', name, apiVersion: 'v1' },
        responseStatus: { metadata: {}, code: 201 },
        requestObject: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'shop' }, data: { release: `r${i}`, password: 'hunter2' } },
      };
    }
    if (kind < 8) {
      return {
        ...base, level: 'Metadata', verb: 'update', requestURI: '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager',
        user: { username: 'system:kube-controller-manager', groups: ['system:authenticated'] },
        objectRef: { resource: 'leases', namespace: 'kube-system', name: 'kube-controller-manager', apiGroup: 'coordination.k8s.io', apiVersion: 'v1' },
        responseStatus: { metadata: {}, code: 200 },
      };
    }
    const node = `node-${i % 20}`;
    return {
      ...base, level: 'Metadata', verb: 'patch', requestURI: `/api/v1/nodes/${node}/status`,
      user: { username: `system:node:${node}`, groups: ['system:nodes'] },
      objectRef: { resource: 'nodes', name: node, apiVersion: 'v1', subresource: 'status' },
      responseStatus: { metadata: {}, code: 200 },
    };
  });
  return { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items };
}

/**
 * 100 CloudTrail records in EventBridge envelopes: Parameter Store and Lambda configuration writes
 * by a CI role (values never stored), EC2 and SQS writes, one in ten refused (AccessDenied).
 */
export function cloudTrailBatch(n: number, tag: string, hour0 = HOUR0): unknown {
  return Array.from({ length: n }, (_, i) => {
    const at = new Date(hour0 + i * 5_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const denied = i % 10 === 9;
    const call = [
      { eventSource: 'ssm.amazonaws.com', eventName: 'PutParameter', requestParameters: { name: `/shop/${tag}/p${i}`, value: 'super-secret', type: 'SecureString', overwrite: true } },
      { eventSource: 'lambda.amazonaws.com', eventName: 'UpdateFunctionConfiguration20150331v2', requestParameters: { functionName: `checkout-${i % 5}`, environment: { variables: { DB_PASSWORD: 'x', MODE: 'fast' } } } },
      { eventSource: 'ec2.amazonaws.com', eventName: 'StopInstances', requestParameters: { instancesSet: { items: [{ instanceId: `i-0${(1000 + i).toString(16)}` }] }, force: false } },
      { eventSource: 'sqs.amazonaws.com', eventName: 'SetQueueAttributes', requestParameters: { queueUrl: `https://sqs.eu-west-1.amazonaws.com/123456789012/orders-${i % 3}`, attributes: { VisibilityTimeout: '60' } } },
    ][i % 4]!;
    const detail = {
      eventVersion: '1.08',
      userIdentity: {
        type: 'AssumedRole', principalId: 'AROAEXAMPLEID:ci-run', arn: 'arn:aws:sts::123456789012:assumed-role/deployer/ci-run', accountId: '123456789012',
        sessionContext: { sessionIssuer: { type: 'Role', principalId: 'AROAEXAMPLEID', arn: 'arn:aws:iam::123456789012:role/deployer', accountId: '123456789012', userName: 'deployer' }, attributes: { creationDate: at, mfaAuthenticated: 'false' } },
      },
      eventTime: at, awsRegion: 'eu-west-1', sourceIPAddress: '203.0.113.7', userAgent: 'aws-cli/2.15', ...call,
      ...(denied ? { errorCode: 'AccessDenied', errorMessage: 'User is not authorized to perform this operation' } : { responseElements: null }),
      requestID: randomUUID(), eventID: `${tag}-${randomUUID()}`, readOnly: false, eventType: 'AwsApiCall', managementEvent: true, recipientAccountId: '123456789012', eventCategory: 'Management',
    };
    return { version: '0', id: randomUUID(), 'detail-type': 'AWS API Call via CloudTrail', source: `aws.${call.eventSource.split('.')[0]}`, account: '123456789012', time: at, region: 'eu-west-1', resources: [], detail };
  });
}

/** A connection that delivers the batches, with its adapter. */
export type Source = SourceRow & { adapter: IntakeAdapter };

export async function addSource(db: Database, orgId: string, kind: SourceKind, config: Record<string, unknown>): Promise<Source> {
  const id = `src_${randomBytes(16).toString('hex')}`;
  const secret = randomBytes(24).toString('base64url');
  await db.query(
    `INSERT INTO change_sources (id, org_id, kind, name, secret_sealed, secret_hash, config, created_at, updated_at) VALUES ($1, $2, $3, $4, 'unused', $5, $6::jsonb, now(), now())`,
    [id, orgId, kind, `bench ${kind}`, createHash('sha256').update(secret).digest('hex'), JSON.stringify(config)]);
  return { id, orgId, kind, name: `bench ${kind}`, secretSealed: 'unused', adapter: INTAKE_ADAPTERS[kind], config };
}

/** What a request does before the service: JSON.parse of the bytes, then the adapter's rules. */
export function read(s: Source, raw: Buffer, ciNamespaces: string[]): Parsed {
  const body = JSON.parse(raw.toString('utf8')) as unknown;
  return s.adapter.parse({ headers: {}, rawBody: raw, body }, { sourceId: s.id, config: s.config, ciNamespaces, now: new Date() });
}
