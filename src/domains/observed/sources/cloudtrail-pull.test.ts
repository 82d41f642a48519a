import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCloudTrailApi, type CloudTrailApi } from '../../../../test/support/cloudtrail-api.js';
import { createOutboundClient } from '../../../platform/net/outbound.js';
import { NOT_STORED, type AdapterContext, type PullDeps } from '../observed-types.js';
import { cloudtrailPull, pullRegions } from './aws.js';

/** A CloudTrail record as the service logs it (the shape of the shared real fixtures). */
function write(id: string, at: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventVersion: '1.09', eventID: id, eventTime: at, eventSource: 'ec2.amazonaws.com', eventName: 'StopInstances', awsRegion: 'eu-west-1',
    eventType: 'AwsApiCall', eventCategory: 'Management', managementEvent: true, readOnly: false, recipientAccountId: '111122223333',
    userIdentity: { type: 'IAMUser', arn: 'arn:aws:iam::111122223333:user/alice', userName: 'alice', accountId: '111122223333', accessKeyId: 'AKIAEXAMPLE' },
    requestParameters: { instancesSet: { items: [{ instanceId: 'i-0abc' }] } },
    ...over,
  };
}

const credential = JSON.stringify({ accessKeyId: 'AKIDLOOPBACK', secretAccessKey: 'loopback-secret-key', sessionToken: 'loopback-session' });
const since = new Date('2026-11-30T10:00:00Z');
const until = new Date('2026-11-30T11:00:00Z');

let api: CloudTrailApi;
let deps: PullDeps;
const ctx = (config: Record<string, unknown>, cred: string | null = credential): AdapterContext & { credential: string | null } =>
  ({ sourceId: 'src_aws', config, ciNamespaces: [], now: until, credential: cred });

beforeAll(async () => {
  api = await startCloudTrailApi();
  deps = { outbound: createOutboundClient({ testOnlyAllowLoopback: true }), allowLoopback: true };
});
afterAll(async () => api.close());
beforeEach(() => {
  api.requests.length = 0;
  api.fail(null);
});

describe('cloudtrailPull against a loopback LookupEvents', () => {
  it('reads every page of every declared region and us-east-1, asking only for writes in the window, signed with the connection\'s key', async () => {
    const fresh = await startCloudTrailApi();
    try {
      for (let i = 0; i < 120; i += 1) fresh.hold('eu-west-1', write(`eu-${i}`, new Date(since.getTime() + i * 20_000).toISOString()));
      fresh.hold('us-east-1', write('iam-1', '2026-11-30T10:30:00Z', { eventSource: 'iam.amazonaws.com', eventName: 'AttachRolePolicy', awsRegion: 'us-east-1', requestParameters: { roleName: 'deployer', policyArn: 'arn:aws:iam::aws:policy/ReadOnlyAccess' } }));
      fresh.hold('eu-west-1', write('read-1', '2026-11-30T10:31:00Z', { eventName: 'DescribeInstances', readOnly: true }));
      fresh.hold('eu-west-1', write('before', '2026-11-30T09:59:00Z'));

      const parsed = await cloudtrailPull.pull(deps, ctx({ regions: ['eu-west-1'], endpoint: fresh.url }), { since, until, maxRaw: 1500 });
      expect(parsed.rejected).toEqual([]);
      expect(parsed.events.map((e) => e.eventId).sort()).toEqual([...Array.from({ length: 120 }, (_, i) => `eu-${i}`), 'iam-1'].sort());
      // 120 writes in eu-west-1 are three pages of 50; us-east-1 one page.
      expect(fresh.requests.map((r) => r.region)).toEqual(['eu-west-1', 'eu-west-1', 'eu-west-1', 'us-east-1']);
      for (const r of fresh.requests) {
        expect(r.target).toMatch(/(^|\.)CloudTrail_20131101\.LookupEvents$/);
        expect(r.contentType).toBe('application/x-amz-json-1.1');
        expect(r.body.LookupAttributes).toEqual([{ AttributeKey: 'ReadOnly', AttributeValue: 'false' }]);
        expect([r.body.StartTime, r.body.EndTime]).toEqual([since.getTime() / 1000, until.getTime() / 1000]);
        expect([r.accessKeyId, r.securityToken]).toEqual(['AKIDLOOPBACK', 'loopback-session']);
      }
      expect(fresh.requests[1]!.body.NextToken).toBeTruthy();
      const iam = parsed.events.find((e) => e.eventId === 'iam-1')!;
      expect(iam).toMatchObject({ action: 'iam.amazonaws.com:AttachRolePolicy', resource: 'deployer', location: { account: '111122223333', region: 'us-east-1' } });
    } finally {
      await fresh.close();
    }
  });

  it('stops at the window\'s raw limit', async () => {
    const fresh = await startCloudTrailApi();
    try {
      for (let i = 0; i < 80; i += 1) fresh.hold('eu-west-1', write(`w-${i}`, new Date(since.getTime() + i * 1000).toISOString()));
      fresh.hold('us-east-1', write('global', '2026-11-30T10:30:00Z', { awsRegion: 'us-east-1' }));
      const parsed = await cloudtrailPull.pull(deps, ctx({ regions: ['eu-west-1'], endpoint: fresh.url }), { since, until, maxRaw: 60 });
      expect(parsed.events).toHaveLength(60);
      expect(fresh.requests.map((r) => r.body.MaxResults)).toEqual([50, 10]);
      expect(fresh.requests.every((r) => r.region === 'eu-west-1')).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('reads each record the intake\'s way: values written to a Lambda environment are not stored, keys kept', async () => {
    api.hold('eu-central-1', write('lambda-1', '2026-11-30T10:05:00Z', {
      eventSource: 'lambda.amazonaws.com', eventName: 'UpdateFunctionConfiguration20150331v2', awsRegion: 'eu-central-1',
      requestParameters: { functionName: 'checkout', environment: { variables: { DB_PASSWORD: 'hunter2', MODE: 'live' } } },
    }));
    const parsed = await cloudtrailPull.pull(deps, ctx({ regions: ['eu-central-1'], endpoint: api.url }), { since, until, maxRaw: 1500 });
    const e = parsed.events.find((x) => x.eventId === 'lambda-1')!;
    expect(e.params).toEqual({ functionName: 'checkout', environment: { variables: { DB_PASSWORD: NOT_STORED, MODE: NOT_STORED } } });
    expect(JSON.stringify(e)).not.toContain('hunter2');
  });

  it('says in words what AWS answered when it refuses (a 4xx), naming the region', async () => {
    api.fail({ status: 400, type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' });
    await expect(cloudtrailPull.pull(deps, ctx({ regions: ['eu-west-1'], endpoint: api.url }), { since, until, maxRaw: 1500 }))
      .rejects.toThrow('CloudTrail in eu-west-1 refused LookupEvents (400 UnrecognizedClientException): The security token included in the request is invalid.');
    api.fail({ status: 403, type: 'AccessDeniedException', message: 'User: arn:aws:iam::111122223333:user/reader is not authorized to perform: cloudtrail:LookupEvents' });
    await expect(cloudtrailPull.pull(deps, ctx({ regions: [], endpoint: api.url }), { since, until, maxRaw: 1500 }))
      .rejects.toThrow(/^CloudTrail in us-east-1 refused LookupEvents \(403 AccessDeniedException\): User: .* is not authorized/);
  });

  it('a throttled page is asked again (LookupEvents allows two calls a second)', async () => {
    api.hold('ap-south-1', write('slow-1', '2026-11-30T10:10:00Z', { awsRegion: 'ap-south-1' }));
    api.fail({ status: 400, type: 'ThrottlingException', message: 'Rate exceeded' }, 1);
    const parsed = await cloudtrailPull.pull(deps, ctx({ regions: ['ap-south-1'], endpoint: api.url }), { since, until, maxRaw: 1500 });
    expect(parsed.events.map((e) => e.eventId)).toContain('slow-1');
    expect(api.requests.filter((r) => r.region === 'ap-south-1')).toHaveLength(2);
  });

  it('says so in words when CloudTrail cannot be reached', async () => {
    const closed = await startCloudTrailApi();
    const url = closed.url;
    await closed.close();
    await expect(cloudtrailPull.pull(deps, ctx({ regions: ['eu-west-1'], endpoint: url }), { since, until, maxRaw: 1500 }))
      .rejects.toThrow(/^CloudTrail in eu-west-1 could not be read: 127\.0\.0\.1:\d+ unreachable \(ECONNREFUSED\)/);
  });

  it('refuses a loopback endpoint unless the tests\' switch allows it, and sends nothing', async () => {
    const strict: PullDeps = { outbound: createOutboundClient(), allowLoopback: false };
    await expect(cloudtrailPull.pull(strict, ctx({ regions: ['eu-west-1'], endpoint: api.url }), { since, until, maxRaw: 1500 }))
      .rejects.toThrow('the CloudTrail endpoint is refused: 127.0.0.1 is a loopback address');
    await expect(cloudtrailPull.pull(strict, ctx({ endpoint: 'http://169.254.169.254/' }), { since, until, maxRaw: 1500 }))
      .rejects.toThrow('169.254.169.254 is a cloud metadata address');
    expect(api.requests).toEqual([]);
  });

  it('says what is wrong with a missing or malformed credential, and with a region that is not one', async () => {
    const window = { since, until, maxRaw: 1500 };
    await expect(cloudtrailPull.pull(deps, ctx({ endpoint: api.url }, null), window)).rejects.toThrow('the connection has no AWS credential');
    await expect(cloudtrailPull.pull(deps, ctx({ endpoint: api.url }, 'AKID:secret'), window)).rejects.toThrow('the AWS credential is not JSON');
    await expect(cloudtrailPull.pull(deps, ctx({ endpoint: api.url }, '{"accessKeyId":"AKID"}'), window)).rejects.toThrow('the AWS credential has no secretAccessKey');
    expect(() => pullRegions({ regions: ['eu-west-1', 'Mars'] })).toThrow('"Mars" is not an AWS region name');
    expect(pullRegions({ regions: ['us-east-1', 'eu-west-1'] })).toEqual(['us-east-1', 'eu-west-1']);
    expect(api.requests).toEqual([]);
  });
});
