import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import { NOT_STORED, type AdapterContext, type IntakeRequest, type ObservedEvent, type Parsed } from '../observed-types.js';
import { awsIntake } from './aws.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'aws-cloudtrail');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`aws intake: SKIPPING the shared real CloudTrail payload tests: ${SHARED} is absent`);

const ctx: AdapterContext = { sourceId: 'src_aws', config: {}, ciNamespaces: [], now: new Date('2026-12-01T00:00:00Z') };
const req = (body: unknown, headers: IntakeRequest['headers'] = {}): IntakeRequest => ({ headers, rawBody: Buffer.from(JSON.stringify(body)), body });
const parse = (body: unknown): Parsed => awsIntake.parse(req(body), ctx);
const one = (body: unknown): ObservedEvent => {
  const p = parse(body);
  expect(p.events).toHaveLength(1);
  return p.events[0]!;
};
const badField = (body: unknown): string | undefined => {
  try {
    parse(body);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    return (err as AppError).field;
  }
  throw new Error('expected a 400');
};

/** A CloudTrail record of our own, a management write by an IAM user unless told otherwise. */
function record(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventVersion: '1.09', eventID: 'ev-1', eventTime: '2026-11-30T10:00:00Z', eventSource: 'ec2.amazonaws.com', eventName: 'StopInstances',
    awsRegion: 'eu-west-1', eventType: 'AwsApiCall', eventCategory: 'Management', managementEvent: true, readOnly: false, recipientAccountId: '111122223333',
    userIdentity: { type: 'IAMUser', principalId: 'AIDAEXAMPLE', arn: 'arn:aws:iam::111122223333:user/alice', accountId: '111122223333', userName: 'alice' },
    requestParameters: { instancesSet: { items: [{ instanceId: 'i-0abc' }] } },
    ...over,
  };
}
const envelope = (detail: unknown, over: Record<string, unknown> = {}) => ({
  version: '0', id: 'eb-1', 'detail-type': 'AWS API Call via CloudTrail', source: 'aws.ec2', account: '111122223333', time: '2026-11-30T10:00:00Z', region: 'eu-west-1', resources: [], detail, ...over,
});
const assumed = (session: string, extra: Record<string, unknown> = {}) => ({
  type: 'AssumedRole', principalId: `AROAEXAMPLE:${session}`, arn: `arn:aws:sts::111122223333:assumed-role/deployer/${session}`, accountId: '111122223333', accessKeyId: 'ASIAEXAMPLE1',
  sessionContext: { sessionIssuer: { type: 'Role', arn: 'arn:aws:iam::111122223333:role/deployer', userName: 'deployer', accountId: '111122223333' }, attributes: { mfaAuthenticated: 'false' }, ...extra },
});

describe('awsIntake: which CloudTrail events are recorded', () => {
  it('records a management write from an EventBridge event, with action, resource, location, a console link and the request as its diff', () => {
    const e = one(envelope(record()));
    expect(e).toMatchObject({
      eventId: 'ev-1', kind: 'cloud_write', occurredAt: '2026-11-30T10:00:00.000Z', action: 'ec2.amazonaws.com:StopInstances',
      resource: 'arn:aws:ec2:eu-west-1:111122223333:instance/i-0abc', resourceName: 'i-0abc', location: { account: '111122223333', region: 'eu-west-1' },
      link: 'https://eu-west-1.console.aws.amazon.com/cloudtrail/home?region=eu-west-1#/events/ev-1', denied: false, outcome: 'succeeded', capBucket: null,
    });
    expect(e.title).toBe('ec2 StopInstances i-0abc in eu-west-1');
    expect(JSON.parse(e.diff!)).toEqual({ instancesSet: { items: [{ instanceId: 'i-0abc' }] } });
  });

  it.each([
    ['a read (readOnly true)', { readOnly: true, eventName: 'DescribeInstances' }],
    ['a read named so, from before CloudTrail wrote readOnly', { readOnly: undefined, eventName: 'ListBuckets' }],
    ['a data event', { eventCategory: 'Data', eventName: 'PutObject' }],
    ['a non-management event', { managementEvent: false }],
    ['a console sign-in', { eventType: 'AwsConsoleSignIn', eventName: 'ConsoleLogin' }],
  ])('leaves out %s (counted ignored)', (_what, over) => {
    expect(parse({ Records: [record(over)] })).toEqual({ events: [], ignored: 1, noise: 0, rejected: [] });
  });

  it('an event EventBridge sends for something else than an API call is ignored', () => {
    expect(parse(envelope({}, { 'detail-type': 'EC2 Instance State-change Notification' }))).toEqual({ events: [], ignored: 1, noise: 0, rejected: [] });
  });

  it('a write without readOnly (old event versions) counts as a write', () => {
    expect(one({ Records: [record({ readOnly: undefined, eventName: 'CreateBucket', eventSource: 's3.amazonaws.com', requestParameters: { bucketName: 'b1' } })] }).resource).toBe('arn:aws:s3:::b1');
  });

  it.each(['AccessDenied', 'UnauthorizedOperation', 'Client.UnauthorizedOperation', 'AccessDeniedException'])('%s is a denied attempt, recorded with its code', (code) => {
    const e = one({ Records: [record({ errorCode: code, errorMessage: 'not authorized' })] });
    expect(e).toMatchObject({ denied: true, errorCode: code, outcome: 'failed' });
    expect(e.title).toMatch(/^Denied: ec2 StopInstances/);
  });

  it('a call that failed for another reason changed nothing: noise', () => {
    expect(parse({ Records: [record({ errorCode: 'NoSuchEntity' }), record({ eventID: 'ev-2', errorCode: 'ThrottlingException' })] })).toMatchObject({ events: [], noise: 2 });
  });

  it('STS calls are noise unless refused', () => {
    const sts = { eventSource: 'sts.amazonaws.com', eventName: 'AssumeRole', requestParameters: { roleArn: 'arn:aws:iam::111122223333:role/deployer', roleSessionName: 's' } };
    expect(parse({ Records: [record(sts)] })).toMatchObject({ events: [], noise: 1 });
    expect(one({ Records: [record({ ...sts, errorCode: 'AccessDenied' })] }).denied).toBe(true);
  });
});

describe('awsIntake: who made the call', () => {
  it.each([
    ['an IAM user is a person by user name', record().userIdentity, { kind: 'person', name: 'alice', id: 'arn:aws:iam::111122223333:user/alice' }],
    ['root is the person "root"', { type: 'Root', arn: 'arn:aws:iam::111122223333:root', accountId: '111122223333' }, { kind: 'person', name: 'root' }],
    ['an AWS service acting for us is a service', { type: 'AWSService', invokedBy: 'autoscaling.amazonaws.com' }, { kind: 'service', name: 'autoscaling.amazonaws.com', id: null }],
    ['another account is a service', { type: 'AWSAccount', principalId: 'AIDAOTHER', accountId: '444455556666' }, { kind: 'service', name: 'account 444455556666', id: '444455556666' }],
    ['an unknown identity is unknown', undefined, { kind: 'unknown', name: 'unknown' }],
  ])('%s', (_what, userIdentity, expected) => {
    expect(one({ Records: [record({ userIdentity })] }).principal).toMatchObject(expected);
  });

  it('a role session: its ARN, the role as roleArn and sessionIssuer, the session name, the sourceIdentity; a workload unless from the console', () => {
    const p = one({ Records: [record({ userIdentity: assumed('gha-run-42', { sourceIdentity: 'alice@example.com' }) })] }).principal;
    expect(p).toEqual({
      kind: 'service', name: 'deployer/gha-run-42', id: 'arn:aws:sts::111122223333:assumed-role/deployer/gha-run-42',
      detail: expect.objectContaining({ roleArn: 'arn:aws:iam::111122223333:role/deployer', sessionIssuer: 'arn:aws:iam::111122223333:role/deployer', sessionName: 'gha-run-42', sourceIdentity: 'alice@example.com', identityType: 'AssumedRole' }),
    });
    expect(one({ Records: [record({ userIdentity: assumed('alice'), sessionCredentialFromConsole: 'true' })] }).principal.kind).toBe('person');
  });
});

describe('awsIntake: the change id that travels with the write', () => {
  it('reads a CHG- id from the sourceIdentity', () => {
    expect(one({ Records: [record({ userIdentity: assumed('ci', { sourceIdentity: 'CHG-1a2b3c4d' }) })] }).changeRef).toBe('CHG-1A2B3C4D');
  });
  it('reads it from the role session name', () => {
    expect(one({ Records: [record({ userIdentity: assumed('deploy-CHG-0F0E0D0C') })] }).changeRef).toBe('CHG-0F0E0D0C');
  });
  it('reads a session tag from the STS call of the same batch that opened the session (CloudTrail writes tags only there)', () => {
    const open = record({
      eventID: 'sts-1', eventSource: 'sts.amazonaws.com', eventName: 'AssumeRole',
      requestParameters: { roleArn: 'arn:aws:iam::111122223333:role/deployer', roleSessionName: 'ci', tags: [{ key: 'team', value: 'shop' }, { key: 'change-id', value: 'CHG-ABCDEF01' }] },
      responseElements: { credentials: { accessKeyId: 'ASIAEXAMPLE1', expiration: 'Dec 1, 2026 1:00:00 AM' } },
    });
    const p = parse({ Records: [open, record({ eventID: 'w-1', userIdentity: assumed('ci') })] });
    expect(p.noise).toBe(1);
    expect(p.events.map((e) => [e.eventId, e.changeRef])).toEqual([['w-1', 'CHG-ABCDEF01']]);
  });
  it('a value that only looks like one is not a reference', () => {
    expect(one({ Records: [record({ userIdentity: assumed('CHG-12345') })] }).changeRef).toBeNull();
    expect(one({ Records: [record({ userIdentity: assumed('xCHG-1A2B3C4Dx') })] }).changeRef).toBeNull();
  });
});

describe('awsIntake: values that are never stored', () => {
  it.each([
    ['Parameter Store', 'ssm.amazonaws.com', 'PutParameter', { name: '/shop/db/password', type: 'SecureString', value: 'hunter2', overwrite: true }, { name: '/shop/db/password', type: 'SecureString', value: NOT_STORED, overwrite: true }],
    ['Secrets Manager (string)', 'secretsmanager.amazonaws.com', 'PutSecretValue', { secretId: 'shop/db', secretString: 'hunter2' }, { secretId: 'shop/db', secretString: NOT_STORED }],
    ['Secrets Manager (binary)', 'secretsmanager.amazonaws.com', 'CreateSecret', { name: 'shop/key', SecretBinary: 'aHVudGVyMg==' }, { name: 'shop/key', SecretBinary: NOT_STORED }],
    ['AppConfig', 'appconfig.amazonaws.com', 'CreateHostedConfigurationVersion', { applicationId: 'app1', configurationProfileId: 'p1', content: 'hunter2' }, { applicationId: 'app1', configurationProfileId: 'p1', content: NOT_STORED }],
    ['a Lambda environment', 'lambda.amazonaws.com', 'UpdateFunctionConfiguration20150331v2', { functionName: 'checkout', Environment: { Variables: { DB_PASSWORD: 'hunter2', REGION: 'eu' } } }, { functionName: 'checkout', Environment: { Variables: { DB_PASSWORD: NOT_STORED, REGION: NOT_STORED } } }],
    ['an ECS task definition environment', 'ecs.amazonaws.com', 'RegisterTaskDefinition',
      { family: 'checkout', containerDefinitions: [{ name: 'web', image: 'shop:1', environment: [{ name: 'DB_PASSWORD', value: 'hunter2' }], secrets: [{ name: 'API', valueFrom: 'arn:aws:ssm:eu-west-1:1:parameter/api' }] }] },
      { family: 'checkout', containerDefinitions: [{ name: 'web', image: 'shop:1', environment: [{ name: 'DB_PASSWORD', value: NOT_STORED }], secrets: [{ name: 'API', valueFrom: 'arn:aws:ssm:eu-west-1:1:parameter/api' }] }] }],
  ])('%s: the value becomes [not stored], the key stays', (_what, eventSource, eventName, requestParameters, stored) => {
    const e = one({ Records: [record({ eventSource, eventName, requestParameters })] });
    expect(e.params).toEqual(stored);
    expect(`${e.diff} ${JSON.stringify(e.params)}`).not.toContain('hunter2');
    expect(`${e.diff}`).not.toContain('aHVudGVyMg==');
  });
});

describe('awsIntake: the name a resource links itself to a service by', () => {
  it.each([
    ['an EC2 instance by its Name tag', { eventName: 'RunInstances', requestParameters: { instanceType: 't3.small', tagSpecificationSet: { items: [{ resourceType: 'instance', tags: [{ key: 'Name', value: 'checkout-web' }] }] } } }, 'checkout-web'],
    ['an EC2 instance by its id', { eventName: 'RebootInstances', requestParameters: { instancesSet: { items: [{ instanceId: 'i-0123' }] } } }, 'i-0123'],
    ['an EBS volume', { eventName: 'ModifyVolume', requestParameters: { volumeId: 'vol-0456', size: 200 } }, 'vol-0456'],
    ['an SQS queue', { eventSource: 'sqs.amazonaws.com', eventName: 'SetQueueAttributes', requestParameters: { queueUrl: 'https://sqs.eu-west-1.amazonaws.com/111122223333/orders' } }, 'orders'],
    ['an SNS topic', { eventSource: 'sns.amazonaws.com', eventName: 'SetTopicAttributes', requestParameters: { topicArn: 'arn:aws:sns:eu-west-1:111122223333:alerts' } }, 'alerts'],
    ['nothing for an IAM role', { eventSource: 'iam.amazonaws.com', eventName: 'AttachRolePolicy', requestParameters: { roleName: 'deployer' } }, null],
  ])('%s', (_what, over, name) => {
    expect(one({ Records: [record(over)] }).resourceName).toBe(name);
  });

  it('takes the record\'s first resources[].ARN as the resource when CloudTrail gives one', () => {
    expect(one({ Records: [record({ resources: [{ ARN: 'arn:aws:iam::111122223333:role/deployer', type: 'AWS::IAM::Role' }], eventSource: 'iam.amazonaws.com' })] }).resource).toBe('arn:aws:iam::111122223333:role/deployer');
  });
});

describe('awsIntake: malformed bodies and bad items', () => {
  it.each([
    ['a body that is not an object', 'body', 'hello'],
    ['an object that is no CloudTrail shape', 'detail-type', { hello: 'world' }],
    ['Records that is not a list', 'Records', { Records: {} }],
    ['an EventBridge event without its detail', 'detail', envelope(undefined)],
    ['a lone event without eventID', 'detail.eventID', envelope(record({ eventID: undefined }))],
    ['a lone event with a time that is not one', 'detail.eventTime', envelope(record({ eventTime: 'yesterday' }))],
    ['a lone record without eventName', 'eventName', record({ eventName: 5 })],
  ])('%s → 400 naming %s', (_what, field, body) => {
    expect(badField(body)).toBe(field);
  });

  it('any JSON body is read or answered 400 naming a field, never another error (no 500)', () => {
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    const mutated = fc.tuple(fc.constantFrom(...Object.keys(record({ eventID: 'x' }))), anyJson).map(([k, v]) => ({ ...record({ eventID: 'x' }), [k]: v }));
    const bodies = fc.oneof(anyJson, mutated, fc.array(mutated, { maxLength: 3 }), fc.record({ Records: fc.array(mutated, { maxLength: 3 }), records: fc.array(mutated, { maxLength: 3 }), value: fc.array(mutated, { maxLength: 3 }) }, { requiredKeys: [] }));
    fc.assert(fc.property(bodies, (body) => {
      try {
        const p = parse(body);
        for (const e of p.events) expect(typeof e.eventId === 'string' && !Number.isNaN(Date.parse(e.occurredAt))).toBe(true);
      } catch (err) {
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).status).toBe(400);
        expect((err as AppError).field).toBeTruthy();
      }
    }), { numRuns: 400, seed: 15 });
  });

  it('a batch records the good items and reports the bad one by index and field', () => {
    const p = parse({ Records: [record({ eventID: 'a' }), record({ eventID: undefined }), 'nonsense', record({ eventID: 'c' })] });
    expect(p.events.map((e) => e.eventId)).toEqual(['a', 'c']);
    expect(p.rejected).toEqual([
      { index: 1, field: 'Records.1.eventID', message: expect.stringContaining('is missing') },
      { index: 2, field: 'Records.2', message: 'is not a CloudTrail record (a JSON object)' },
    ]);
  });

  it('an array of EventBridge events is a batch too', () => {
    const p = parse([envelope(record({ eventID: 'a' })), envelope(null), envelope(record({ eventID: 'b' }))]);
    expect(p.events.map((e) => e.eventId)).toEqual(['a', 'b']);
    expect(p.rejected).toEqual([{ index: 1, field: '1.detail', message: 'must be the CloudTrail record (a JSON object)' }]);
  });

  it('answers only the Bearer secret', async () => {
    expect(await awsIntake.authenticate(req({}, { authorization: 'Bearer s3cret' }), 's3cret')).toBe(true);
    expect(await awsIntake.authenticate(req({}, { authorization: 'Bearer wrong' }), 's3cret')).toBe(false);
    expect(await awsIntake.authenticate(req({}), 's3cret')).toBe(false);
  });
});

describe.skipIf(!hasShared)('awsIntake on the shared real CloudTrail payloads', () => {
  const load = (f: string) => JSON.parse(readFileSync(join(SHARED, f), 'utf8')) as Record<string, unknown>;
  const asBody = (f: string) => {
    const v = load(f);
    return 'detail-type' in v ? v : { Records: [v] };
  };

  it('reads every file without a 5xx: an event, a denial, noise or a reported bad item each', () => {
    const files = readdirSync(SHARED).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const p = parse(asBody(f));
      expect([f, p.events.length + p.noise + p.ignored + p.rejected.length]).toEqual([f, 1]);
    }
  });

  it('the EventBridge envelopes: an assumed role\'s write with its session issuer', () => {
    const e = one(load('eventbridge-envelope-ec2-DeleteTransitGatewayVpcAttachment.json'));
    expect(e).toMatchObject({ eventId: '10fe783b-14ea-4f67-8dbc-b1596716e57c', action: 'ec2.amazonaws.com:DeleteTransitGatewayVpcAttachment', resource: 'tgw-attach-0814a77755bf02f0e', location: { account: '012345678912', region: 'us-west-2' } });
    // The console's credentials: a person behind the role session.
    expect(e.principal).toMatchObject({ kind: 'person', name: 'c7nbot/pmuniswamy', detail: { roleArn: 'arn:aws:iam::012345678912:role/c7nbot', sessionName: 'pmuniswamy' } });
    const s3 = one(load('eventbridge-envelope-s3-CreateBucket-assumedrole.json'));
    expect(s3).toMatchObject({ resource: 'arn:aws:s3:::cwe-test', principal: { kind: 'service', name: 'Sandbox_Dev/user' } });
  });

  it('the denied ones are denied attempts; the NoSuchEntity failure is noise', () => {
    for (const f of ['panther-s3-PutBucketPolicy-AccessDenied.json', 'stratus-ec2-RunInstances-UnauthorizedOperation.json', 'stratus-organizations-LeaveOrganization-AccessDenied.json']) {
      expect([f, one(asBody(f)).denied]).toEqual([f, true]);
    }
    expect(parse(asBody('panther-iam-AttachRolePolicy-NoSuchEntity.json'))).toMatchObject({ events: [], noise: 1 });
  });

  it('IAM users are people; EC2 instance writes link by instance id', () => {
    const stop = one(asBody('panther-ec2-StopInstances-awsdocs-example.json'));
    expect(stop).toMatchObject({ principal: { kind: 'person', name: 'Nikki' }, resourceName: 'i-EXAMPLE56126103cb', link: 'https://us-east-1.console.aws.amazon.com/cloudtrail/home?region=us-east-1#/events/9357a8cc-a0eb-46a1-b67e-EXAMPLE19b14' });
    expect(one(asBody('stratus-ec2-StartInstances.json')).resourceName).toBe('i-DDd6c7B0e18F0E35f');
  });

  it('a record without its eventID (a detection rule\'s trimmed test case) is reported, naming the field', () => {
    const p = parse(asBody('panther-ec2-ModifyInstanceAttribute-userData-assumedrole.json'));
    expect(p.rejected).toEqual([{ index: 0, field: 'Records.0.eventID', message: expect.stringContaining('is missing') }]);
  });
});
