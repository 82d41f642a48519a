import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LIMITS, NOT_STORED } from '../observed-types.js';
import { awsIntake } from './aws.js';
import { draftAwsRevert } from './revert-aws.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'aws-cloudtrail');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`aws revert: SKIPPING the shared real CloudTrail payload tests: ${SHARED} is absent`);

/** A CloudTrail record of our own: only the fields a revert reads. */
const rec = (eventSource: string, eventName: string, requestParameters: unknown, responseElements: unknown = null) =>
  ({ eventSource: `${eventSource}.amazonaws.com`, eventName, awsRegion: 'eu-west-1', requestParameters, responseElements });
const draft = (r: Record<string, unknown>) => draftAwsRevert(r, 'eu-west-1');

/** AuthorizeSecurityGroupIngress as the console and the SDKs log it (ipPermissions.items). */
const SSH_FROM_ANYWHERE = {
  groupId: 'sg-0a1b2c3d',
  ipPermissions: { items: [
    { ipProtocol: 'tcp', fromPort: 22, toPort: 22, groups: {}, ipRanges: { items: [{ cidrIp: '0.0.0.0/0', description: 'Bob\'s laptop' }] }, ipv6Ranges: { items: [{ cidrIpv6: '::/0' }] }, prefixListIds: {} },
    { ipProtocol: '-1', groups: { items: [{ groupId: 'sg-0ffff', userId: '111122223333' }] }, ipRanges: {}, ipv6Ranges: {}, prefixListIds: { items: [{ prefixListId: 'pl-12ab' }] } },
  ] },
};
const SSH_JSON_REVOKE = '[{"IpProtocol":"tcp","FromPort":22,"ToPort":22,"IpRanges":[{"CidrIp":"0.0.0.0/0"}],"Ipv6Ranges":[{"CidrIpv6":"::/0"}]},{"IpProtocol":"-1","UserIdGroupPairs":[{"GroupId":"sg-0ffff","UserId":"111122223333"}],"PrefixListIds":[{"PrefixListId":"pl-12ab"}]}]';
const SSH_JSON_AUTHORIZE = SSH_JSON_REVOKE.replace('{"CidrIp":"0.0.0.0/0"}', '{"CidrIp":"0.0.0.0/0","Description":"Bob\'s laptop"}');
const q = (json: string) => `'${json.replace(/'/g, `'\\''`)}'`;
const STOP_RESPONSE = { instancesSet: { items: [
  { instanceId: 'i-0aaa', previousState: { name: 'running' }, currentState: { name: 'stopping' } },
  { instanceId: 'i-0bbb', previousState: { name: 'stopped' }, currentState: { name: 'stopped' } },
] } };

type Want = { tool: 'aws' | 'none'; command?: string | null; summary: RegExp };

describe('draftAwsRevert: the inverse call of each known write', () => {
  const cases: Array<[string, Record<string, unknown>, Want]> = [
    ['AuthorizeSecurityGroupIngress → revoke the same rules, descriptions left out', rec('ec2', 'AuthorizeSecurityGroupIngress', SSH_FROM_ANYWHERE),
      { tool: 'aws', command: `aws ec2 revoke-security-group-ingress --group-id sg-0a1b2c3d --ip-permissions '${SSH_JSON_REVOKE}' --region eu-west-1`, summary: /^Removes the ingress rules this call added to sg-0a1b2c3d: tcp 22 from 0\.0\.0\.0\/0, ::\/0; all traffic from sg-0ffff, pl-12ab\.$/ }],
    ['AuthorizeSecurityGroupEgress → revoke-security-group-egress', rec('ec2', 'AuthorizeSecurityGroupEgress', { groupId: 'sg-1', ipPermissions: { items: [{ ipProtocol: 'udp', fromPort: 53, toPort: 53, ipRanges: { items: [{ cidrIp: '10.0.0.0/8' }] } }] } }),
      { tool: 'aws', command: `aws ec2 revoke-security-group-egress --group-id sg-1 --ip-permissions '[{"IpProtocol":"udp","FromPort":53,"ToPort":53,"IpRanges":[{"CidrIp":"10.0.0.0/8"}]}]' --region eu-west-1`, summary: /egress rules .*: udp 53 to 10\.0\.0\.0\/8\.$/ }],
    ['RevokeSecurityGroupIngress → authorize the same rules again, with their descriptions', rec('ec2', 'RevokeSecurityGroupIngress', SSH_FROM_ANYWHERE),
      { tool: 'aws', command: `aws ec2 authorize-security-group-ingress --group-id sg-0a1b2c3d --ip-permissions ${q(SSH_JSON_AUTHORIZE)} --region eu-west-1`, summary: /^Adds back the ingress rules this call removed from sg-0a1b2c3d/ }],
    ['RevokeSecurityGroupEgress → authorize-security-group-egress', rec('ec2', 'RevokeSecurityGroupEgress', { groupId: 'sg-1', ipPermissions: { items: [{ ipProtocol: 'tcp', fromPort: 443, toPort: 443, ipRanges: { items: [{ cidrIp: '0.0.0.0/0' }] } }] } }),
      { tool: 'aws', command: `aws ec2 authorize-security-group-egress --group-id sg-1 --ip-permissions '[{"IpProtocol":"tcp","FromPort":443,"ToPort":443,"IpRanges":[{"CidrIp":"0.0.0.0/0"}]}]' --region eu-west-1`, summary: /tcp 443 to 0\.0\.0\.0\/0/ }],
    ['a revoke by rule ids holds no rule to add back', rec('ec2', 'RevokeSecurityGroupIngress', { groupId: 'sg-1', securityGroupRuleIds: { items: [{ securityGroupRuleId: 'sgr-1' }] } }),
      { tool: 'none', command: null, summary: /named the rules by their ids: what they allowed is not in the event/ }],
    ['a default VPC\'s ingress rule named by group name', rec('ec2', 'AuthorizeSecurityGroupIngress', { groupName: 'web', ipProtocol: 'tcp', fromPort: 80, toPort: 8080, cidrIp: '192.0.2.0/24' }),
      { tool: 'aws', command: `aws ec2 revoke-security-group-ingress --group-name web --ip-permissions '[{"IpProtocol":"tcp","FromPort":80,"ToPort":8080,"IpRanges":[{"CidrIp":"192.0.2.0/24"}]}]' --region eu-west-1`, summary: /tcp 80-8080 from 192\.0\.2\.0\/24/ }],
    ['StopInstances → start the instances that were running', rec('ec2', 'StopInstances', { instancesSet: { items: [{ instanceId: 'i-0aaa' }, { instanceId: 'i-0bbb' }] }, force: false }, STOP_RESPONSE),
      { tool: 'aws', command: 'aws ec2 start-instances --instance-ids i-0aaa --region eu-west-1', summary: /^Starts the instances this call stopped: i-0aaa\.$/ }],
    ['StopInstances of instances already stopped has nothing to undo', rec('ec2', 'StopInstances', { instancesSet: { items: [{ instanceId: 'i-0bbb' }] } }, STOP_RESPONSE),
      { tool: 'none', command: null, summary: /already stopped before this call/ }],
    ['StartInstances → stop-instances', rec('ec2', 'StartInstances', { instancesSet: { items: [{ instanceId: 'i-1' }, { instanceId: 'i-2' }] } }),
      { tool: 'aws', command: 'aws ec2 stop-instances --instance-ids i-1 i-2 --region eu-west-1', summary: /^Stops the instances this call started: i-1, i-2\.$/ }],
    ['ModifyInstanceAttribute has no inverse: the old value is not in the event', rec('ec2', 'ModifyInstanceAttribute', { instanceId: 'i-1', instanceType: { value: 'm5.24xlarge' } }),
      { tool: 'none', command: null, summary: /value before this call is not in the event/ }],
    ['CreateTags → delete-tags of those keys with those values', rec('ec2', 'CreateTags', { resourcesSet: { items: [{ resourceId: 'i-1' }, { resourceId: 'vol-2' }] }, tagSet: { items: [{ key: 'Owner', value: 'eve' }] } }),
      { tool: 'aws', command: `aws ec2 delete-tags --resources i-1 vol-2 --tags '[{"Key":"Owner","Value":"eve"}]' --region eu-west-1`, summary: /^Removes the tags this call set \(Owner=eve\) from i-1, vol-2\. A tag that had another value before/ }],
    ['DeleteTags with values → create-tags', rec('ec2', 'DeleteTags', { resourcesSet: { items: [{ resourceId: 'i-1' }] }, tagSet: { items: [{ key: 'Env', value: 'prod' }] } }),
      { tool: 'aws', command: `aws ec2 create-tags --resources i-1 --tags '[{"Key":"Env","Value":"prod"}]' --region eu-west-1`, summary: /^Puts back the tags this call deleted from i-1\.$/ }],
    ['DeleteTags by key alone: the values are not known', rec('ec2', 'DeleteTags', { resourcesSet: { items: [{ resourceId: 'i-1' }] }, tagSet: { items: [{ key: 'Env' }] } }),
      { tool: 'none', command: null, summary: /by key alone/ }],
    ['AttachRolePolicy → detach-role-policy', rec('iam', 'AttachRolePolicy', { roleName: 'ci', policyArn: 'arn:aws:iam::aws:policy/AdministratorAccess' }),
      { tool: 'aws', command: 'aws iam detach-role-policy --role-name ci --policy-arn arn:aws:iam::aws:policy/AdministratorAccess --region eu-west-1', summary: /^Detaches the policy arn:aws:iam::aws:policy\/AdministratorAccess this call attached to the role ci\.$/ }],
    ['DetachRolePolicy → attach-role-policy', rec('iam', 'DetachRolePolicy', { roleName: 'ci', policyArn: 'arn:aws:iam::1:policy/Deny' }),
      { tool: 'aws', command: 'aws iam attach-role-policy --role-name ci --policy-arn arn:aws:iam::1:policy/Deny --region eu-west-1', summary: /^Attaches the policy .* again to the role ci/ }],
    ['AttachUserPolicy → detach-user-policy', rec('iam', 'AttachUserPolicy', { userName: 'bob', policyArn: 'arn:aws:iam::aws:policy/ReadOnlyAccess' }),
      { tool: 'aws', command: 'aws iam detach-user-policy --user-name bob --policy-arn arn:aws:iam::aws:policy/ReadOnlyAccess --region eu-west-1', summary: /to the user bob/ }],
    ['DetachUserPolicy → attach-user-policy', rec('iam', 'DetachUserPolicy', { userName: 'bob', policyArn: 'arn:aws:iam::aws:policy/ReadOnlyAccess' }),
      { tool: 'aws', command: 'aws iam attach-user-policy --user-name bob --policy-arn arn:aws:iam::aws:policy/ReadOnlyAccess --region eu-west-1', summary: /again to the user bob/ }],
    ['AttachGroupPolicy → detach-group-policy', rec('iam', 'AttachGroupPolicy', { groupName: 'ops', policyArn: 'arn:aws:iam::aws:policy/PowerUserAccess' }),
      { tool: 'aws', command: 'aws iam detach-group-policy --group-name ops --policy-arn arn:aws:iam::aws:policy/PowerUserAccess --region eu-west-1', summary: /to the group ops/ }],
    ['PutRolePolicy → delete-role-policy, saying a replaced document is not known', rec('iam', 'PutRolePolicy', { roleName: 'ci', policyName: 'inline-admin', policyDocument: '{"Statement":[]}' }),
      { tool: 'aws', command: 'aws iam delete-role-policy --role-name ci --policy-name inline-admin --region eu-west-1', summary: /^Deletes the inline policy inline-admin of the role ci\. If this call replaced a policy of that name, the old document is not in the event/ }],
    ['PutUserPolicy → delete-user-policy', rec('iam', 'PutUserPolicy', { userName: 'bob', policyName: 'p' }),
      { tool: 'aws', command: 'aws iam delete-user-policy --user-name bob --policy-name p --region eu-west-1', summary: /inline policy p of the user bob/ }],
    ['DeleteRolePolicy: the deleted document is not in the event', rec('iam', 'DeleteRolePolicy', { roleName: 'ci', policyName: 'p' }),
      { tool: 'none', command: null, summary: /deleted policy document is not in the event/ }],
    ['CreateAccessKey → delete-access-key, the key id from the response', rec('iam', 'CreateAccessKey', { userName: 'svc-backup' }, { accessKey: { userName: 'svc-backup', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', status: 'Active' } }),
      { tool: 'aws', command: 'aws iam delete-access-key --user-name svc-backup --access-key-id AKIAIOSFODNN7EXAMPLE --region eu-west-1', summary: /^Deletes the access key AKIAIOSFODNN7EXAMPLE this call created for svc-backup/ }],
    ['CreateAccessKey for the caller itself (no request parameters)', rec('iam', 'CreateAccessKey', null, { accessKey: { accessKeyId: 'AKIAEXAMPLE2', status: 'Active' } }),
      { tool: 'aws', command: 'aws iam delete-access-key --access-key-id AKIAEXAMPLE2 --region eu-west-1', summary: /\(for the caller itself\)/ }],
    ['CreateAccessKey without the key id in the response', rec('iam', 'CreateAccessKey', { userName: 'bob' }),
      { tool: 'none', command: null, summary: /id of the new access key is not in the event/ }],
    ['CreateUser → delete-user', rec('iam', 'CreateUser', { userName: 'support-helper' }),
      { tool: 'aws', command: 'aws iam delete-user --user-name support-helper --region eu-west-1', summary: /^Deletes the IAM user support-helper\. AWS refuses while/ }],
    ['CreateBucket → s3api delete-bucket', rec('s3', 'CreateBucket', { bucketName: 'exfil-drop', Host: 'exfil-drop.s3.amazonaws.com' }),
      { tool: 'aws', command: 'aws s3api delete-bucket --bucket exfil-drop --region eu-west-1', summary: /^Deletes the bucket exfil-drop\. S3 refuses while it holds objects/ }],
    ['PutBucketPolicy has no inverse: the old policy is not in the event', rec('s3', 'PutBucketPolicy', { bucketName: 'b', bucketPolicy: { Statement: [] } }),
      { tool: 'none', command: null, summary: /policy the bucket had before is not in the event/ }],
    ['DeleteBucketPolicy has no inverse', rec('s3', 'DeleteBucketPolicy', { bucketName: 'b' }),
      { tool: 'none', command: null, summary: /deleted bucket policy is not in the event/ }],
    ['PutBucketPublicAccessBlock has no inverse: the settings before are not in the event', rec('s3', 'PutBucketPublicAccessBlock', { bucketName: 'b', PublicAccessBlockConfiguration: { BlockPublicAcls: false } }),
      { tool: 'none', command: null, summary: /settings before this call are not in the event/ }],
    ['DeleteBucketPublicAccessBlock → put it back with all four settings on', rec('s3', 'DeleteBucketPublicAccessBlock', { bucketName: 'b', publicAccessBlock: '' }),
      { tool: 'aws', command: 'aws s3api put-public-access-block --bucket b --public-access-block-configuration BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true --region eu-west-1', summary: /all four settings\. Which of them were on before is not in the event/ }],
    ['UpdateFunctionConfiguration (versioned name) has no inverse', rec('lambda', 'UpdateFunctionConfiguration20150331v2', { functionName: 'f', timeout: 900 }),
      { tool: 'none', command: null, summary: /configuration before this call is not in the event/ }],
    ['UpdateFunctionCode has no inverse', rec('lambda', 'UpdateFunctionCode20150331v2', { functionName: 'f', publish: true }),
      { tool: 'none', command: null, summary: /code before this call is not in the event/ }],
    ['an unknown call: no known inverse, named', rec('rds', 'ModifyDBInstance', { dBInstanceIdentifier: 'db1', allocatedStorage: 500 }),
      { tool: 'none', command: null, summary: /^No known inverse for ModifyDBInstance\.$/ }],
  ];

  it.each(cases)('%s', (_name, record, want) => {
    const d = draft(record);
    expect(d.tool).toBe(want.tool);
    expect(d.summary).toMatch(want.summary);
    if (want.command !== undefined) expect(d.command).toBe(want.command);
    expect(d.manifest).toBeNull();
    // With no command, the person sees what the call asked for; with one, nothing more.
    if (d.tool === 'none') expect(JSON.parse(d.changed!)).toEqual(record.requestParameters);
    else expect(d.changed).toBeNull();
  });

  it('shows an unknown call\'s parameters as pretty JSON, and a Lambda environment\'s values [not stored]', () => {
    expect(draft(rec('rds', 'ModifyDBInstance', { dBInstanceIdentifier: 'db1', allocatedStorage: 500 })).changed).toBe('{\n  "dBInstanceIdentifier": "db1",\n  "allocatedStorage": 500\n}');
    const lambda = draft(rec('lambda', 'UpdateFunctionConfiguration20150331v2', { functionName: 'f', environment: { variables: { DB_PASSWORD: 'hunter2' } } }));
    expect(JSON.parse(lambda.changed!)).toEqual({ functionName: 'f', environment: { variables: { DB_PASSWORD: NOT_STORED } } });
    expect(lambda.changed).not.toContain('hunter2');
  });

  it('cuts long parameters at 2,048 characters', () => {
    const d = draft(rec('rds', 'ModifyDBInstance', { blob: 'x'.repeat(4000) }));
    expect(d.changed).toHaveLength(LIMITS.diffChars);
    expect(d.changed!.endsWith('…(cut)')).toBe(true);
  });

  it('leaves --region out when the region is not known', () => {
    expect(draftAwsRevert(rec('iam', 'CreateUser', { userName: 'u' }), null).command).toBe('aws iam delete-user --user-name u');
  });
});

describe('draftAwsRevert: nothing from a record reaches the shell unquoted', () => {
  const argsOf = (command: string) => execFileSync('bash', ['-c', `printf '%s\\0' ${command.slice('aws '.length)}`], { encoding: 'utf8' }).split('\0').slice(0, -1);

  it('quotes a user name like x\'; rm -rf /, and bash reads it back as one word', () => {
    const d = draft(rec('iam', 'CreateUser', { userName: 'x\'; rm -rf /' }));
    expect(d.command).toBe(`aws iam delete-user --user-name 'x'\\''; rm -rf /' --region eu-west-1`);
    expect(argsOf(d.command!)).toEqual(['iam', 'delete-user', '--user-name', 'x\'; rm -rf /', '--region', 'eu-west-1']);
  });

  it('keeps a rule description with a quote and $(…) inside the one --ip-permissions word', () => {
    const d = draft(rec('ec2', 'RevokeSecurityGroupIngress', { groupId: 'sg-1', ipPermissions: { items: [{ ipProtocol: 'tcp', fromPort: 22, toPort: 22, ipRanges: { items: [{ cidrIp: '0.0.0.0/0', description: 'it\'s $(reboot)' }] } }] } }));
    const args = argsOf(d.command!);
    expect(args.slice(0, 5)).toEqual(['ec2', 'authorize-security-group-ingress', '--group-id', 'sg-1', '--ip-permissions']);
    expect(args.slice(6)).toEqual(['--region', 'eu-west-1']);
    expect(JSON.parse(args[5]!)).toEqual([{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0', Description: 'it\'s $(reboot)' }] }]);
  });

  it('drafts no command when a value starts with a dash (it would be read as an option)', () => {
    expect(draft(rec('s3', 'CreateBucket', { bucketName: '--debug' }))).toMatchObject({ tool: 'none', command: null, summary: expect.stringMatching(/starts with a dash/) });
  });
});

describe('the adapter carries the revert', () => {
  const body = (r: Record<string, unknown>) => ({ Records: [{ eventVersion: '1.09', eventID: 'ev-1', eventTime: '2026-11-30T10:00:00Z', eventType: 'AwsApiCall', readOnly: false, recipientAccountId: '111122223333', userIdentity: { type: 'IAMUser', arn: 'arn:aws:iam::111122223333:user/alice', userName: 'alice' }, ...r }] });
  const parse = (b: unknown) => awsIntake.parse({ headers: {}, rawBody: Buffer.from(JSON.stringify(b)), body: b }, { sourceId: 's', config: {}, ciNamespaces: [], now: new Date('2026-12-01T00:00:00Z') });

  it('an applied write carries its drafted inverse; a denied one carries null', () => {
    expect(parse(body(rec('iam', 'CreateUser', { userName: 'u' }))).events[0]!.revert).toMatchObject({ tool: 'aws', command: 'aws iam delete-user --user-name u --region eu-west-1' });
    expect(parse(body({ ...rec('iam', 'CreateUser', { userName: 'u' }), errorCode: 'AccessDenied' })).events[0]).toMatchObject({ denied: true, revert: null });
  });
});

describe.skipIf(!hasShared)('draftAwsRevert on the shared real CloudTrail payloads (../shared/fixtures/real/aws-cloudtrail)', () => {
  const load = (f: string) => JSON.parse(readFileSync(join(SHARED, f), 'utf8')) as Record<string, unknown>;
  const record = (f: string) => {
    const v = load(f);
    return (v.detail ?? v) as Record<string, unknown>;
  };
  const asBody = (f: string) => {
    const v = load(f);
    return 'detail-type' in v ? v : { Records: [v] };
  };
  const event = (f: string) => awsIntake.parse({ headers: {}, rawBody: Buffer.from('{}'), body: asBody(f) }, { sourceId: 's', config: {}, ciNamespaces: [], now: new Date('2026-12-01T00:00:00Z') }).events[0]!;

  it.each([
    ['stratus-ec2-AuthorizeSecurityGroupIngress.json', `aws ec2 revoke-security-group-ingress --group-id sg-003dc7f1f1c686164 --ip-permissions '[{"IpProtocol":"tcp","FromPort":22,"ToPort":22,"IpRanges":[{"CidrIp":"208.236.235.254/0"}]}]' --region us-northeast-1r`],
    ['stratus-iam-AttachRolePolicy.json', 'aws iam detach-role-policy --role-name stratus-red-team-malicious-iam-role --policy-arn arn:aws:iam::aws:policy/AdministratorAccess --region sagov-west-2r'],
    ['stratus-ec2-StopInstances.json', 'aws ec2 start-instances --instance-ids i-DDd6c7B0e18F0E35f --region ca-northsouth-2r'],
    ['stratus-ec2-StartInstances.json', 'aws ec2 stop-instances --instance-ids i-DDd6c7B0e18F0E35f --region ca-northsouth-2r'],
    ['panther-ec2-StopInstances-awsdocs-example.json', 'aws ec2 start-instances --instance-ids i-EXAMPLE56126103cb i-EXAMPLEaff4840c22 --region us-east-1'],
    ['eventbridge-envelope-s3-CreateBucket-assumedrole.json', 'aws s3api delete-bucket --bucket cwe-test --region us-east-1'],
  ])('%s, read by the adapter: %s', (file, command) => {
    expect(event(file).revert).toMatchObject({ tool: 'aws', command, manifest: null, changed: null });
  });

  it.each([
    ['stratus-ec2-ModifyInstanceAttribute-userData.json', /value before this call is not in the event/],
    ['stratus-lambda-UpdateFunctionCode20150331v2.json', /code before this call is not in the event/],
    ['stratus-lambda-UpdateFunctionConfiguration20150331v2.json', /configuration before this call is not in the event/],
    ['eventbridge-envelope-ec2-DeleteTransitGatewayVpcAttachment.json', /^No known inverse for DeleteTransitGatewayVpcAttachment\.$/],
  ])('%s has no command, and shows what the call asked', (file, summary) => {
    const d = event(file).revert!;
    expect(d).toMatchObject({ tool: 'none', command: null, summary: expect.stringMatching(summary) });
    expect(JSON.parse(d.changed!)).toEqual(expect.objectContaining(Object.fromEntries(Object.entries(record(file).requestParameters as object).filter(([k]) => k !== 'environment'))));
  });

  it('the denied attempts carry revert null', () => {
    for (const f of ['panther-s3-PutBucketPolicy-AccessDenied.json', 'stratus-ec2-RunInstances-UnauthorizedOperation.json', 'stratus-organizations-LeaveOrganization-AccessDenied.json']) {
      expect([f, event(f).revert]).toEqual([f, null]);
    }
  });

  it('a detection rule\'s trimmed ModifyInstanceAttribute (no eventID) still drafts: no inverse', () => {
    expect(draftAwsRevert(record('panther-ec2-ModifyInstanceAttribute-userData-assumedrole.json'), 'us-east-2')).toMatchObject({ tool: 'none', command: null });
  });
});
