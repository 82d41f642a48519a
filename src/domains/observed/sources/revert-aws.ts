/**
 * The revert drafted for one CloudTrail write: a table of the calls whose inverse the record itself
 * makes known, each turned into an `aws` CLI command from the request (and, for a new access key,
 * the response). Pure. A call whose old value is not in the record (a policy replaced, an
 * attribute modified) gets no command, and says why.
 */
import type { RevertDraft } from '../unmanaged/unmanaged-types.js';
import { awsStoredParams } from './cloud-aws-request.js';
import { isObj, str, type Json } from './cloud-fields.js';
import { commandLine, dashRefused, noInverse, prettyJson, type CommandArg } from './revert-k8s.js';

/** What a rule reads: the request, the response, and the command builder with `--region` added. */
type Call = { params: Json; response: Json; aws: (operation: string, ...args: CommandArg[]) => string | null };
/** A command and what running it does; a string alone when no inverse is known. */
type Drafted = { command: string | null; summary: string } | string;
type Rule = (c: Call) => Drafted;

/** The values of an EC2 `{items: [{key: …}]}` set. */
function items(set: unknown): Json[] {
  return isObj(set) && Array.isArray(set.items) ? set.items.filter(isObj) : [];
}
const valuesOf = (set: unknown, key: string): string[] => items(set).map((i) => str(i[key])).filter((v): v is string => v !== null);

const port = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : null);

/** One rule of a security group as the CLI's --ip-permissions JSON spells it. */
type Permission = Record<string, unknown>;

function withDescription(o: Record<string, unknown>, description: unknown, keep: boolean) {
  return keep && str(description) ? { ...o, Description: description } : o;
}

/**
 * The rules a call named, in the CLI's shape: from `ipPermissions.items` (the SDK's and the
 * console's form) or from the flat `ipProtocol`/`cidrIp` form (`--protocol --port --cidr`).
 * Descriptions are kept when re-adding a rule, left out when removing one (they do not identify it).
 */
function permissionsOf(params: Json, keepDescriptions: boolean): Permission[] {
  const out: Permission[] = items(params.ipPermissions).map((p) => {
    const perm: Permission = { IpProtocol: String(p.ipProtocol ?? '-1') };
    if (port(p.fromPort) !== null) perm.FromPort = port(p.fromPort);
    if (port(p.toPort) !== null) perm.ToPort = port(p.toPort);
    const v4 = items(p.ipRanges).filter((r) => str(r.cidrIp)).map((r) => withDescription({ CidrIp: r.cidrIp }, r.description, keepDescriptions));
    const v6 = items(p.ipv6Ranges).filter((r) => str(r.cidrIpv6)).map((r) => withDescription({ CidrIpv6: r.cidrIpv6 }, r.description, keepDescriptions));
    const groups = items(p.groups).filter((g) => str(g.groupId) || str(g.groupName)).map((g) => withDescription({
      ...(str(g.groupId) ? { GroupId: g.groupId } : { GroupName: g.groupName }), ...(str(g.userId) ? { UserId: g.userId } : {}),
    }, g.description, keepDescriptions));
    const lists = items(p.prefixListIds).filter((l) => str(l.prefixListId)).map((l) => withDescription({ PrefixListId: l.prefixListId }, l.description, keepDescriptions));
    if (v4.length) perm.IpRanges = v4;
    if (v6.length) perm.Ipv6Ranges = v6;
    if (groups.length) perm.UserIdGroupPairs = groups;
    if (lists.length) perm.PrefixListIds = lists;
    return perm;
  }).filter((p) => p.IpRanges || p.Ipv6Ranges || p.UserIdGroupPairs || p.PrefixListIds);
  if (out.length) return out;
  // The flat form: one rule, a CIDR or a source group.
  const flat: Permission = { IpProtocol: String(params.ipProtocol ?? '-1') };
  if (port(params.fromPort) !== null) flat.FromPort = port(params.fromPort);
  if (port(params.toPort) !== null) flat.ToPort = port(params.toPort);
  if (str(params.cidrIp)) flat.IpRanges = [{ CidrIp: params.cidrIp }];
  else if (str(params.sourceSecurityGroupName) || str(params.sourceSecurityGroupId)) {
    flat.UserIdGroupPairs = [{ ...(str(params.sourceSecurityGroupId) ? { GroupId: params.sourceSecurityGroupId } : { GroupName: params.sourceSecurityGroupName }), ...(str(params.sourceSecurityGroupOwnerId) ? { UserId: params.sourceSecurityGroupOwnerId } : {}) }];
  } else return [];
  return [flat];
}

/** `tcp 22 from 0.0.0.0/0`: one rule in words. */
function ruleWords(p: Permission, direction: 'ingress' | 'egress'): string {
  const proto = p.IpProtocol === '-1' ? 'all traffic' : String(p.IpProtocol);
  const ports = p.FromPort === undefined || p.FromPort === -1 ? '' : p.FromPort === p.ToPort ? ` ${String(p.FromPort)}` : ` ${String(p.FromPort)}-${String(p.ToPort)}`;
  const peers = [...(p.IpRanges as Json[] ?? []).map((r) => r.CidrIp), ...(p.Ipv6Ranges as Json[] ?? []).map((r) => r.CidrIpv6),
    ...(p.UserIdGroupPairs as Json[] ?? []).map((g) => g.GroupId ?? g.GroupName), ...(p.PrefixListIds as Json[] ?? []).map((l) => l.PrefixListId)];
  return `${proto}${ports} ${direction === 'ingress' ? 'from' : 'to'} ${peers.map(String).join(', ')}`;
}

/** AuthorizeSecurityGroup* ↔ RevokeSecurityGroup*: the same rules, the other way. */
function securityGroupRule(direction: 'ingress' | 'egress', undo: 'revoke' | 'authorize'): Rule {
  return ({ params, aws }) => {
    if ('securityGroupRuleIds' in params || 'SecurityGroupRuleIds' in params) return 'This call named the rules by their ids: what they allowed is not in the event.';
    const perms = permissionsOf(params, undo === 'authorize');
    const groupId = str(params.groupId);
    // Only a default VPC's ingress rules may name their group by name; egress always takes the id.
    const groupName = direction === 'ingress' ? str(params.groupName) : null;
    if (!perms.length || !(groupId || groupName)) return 'The event does not name the security group and its rules in a form a command can be made from.';
    const group = (groupId ?? groupName)!;
    const command = aws(`ec2 ${undo}-security-group-${direction}`, [groupId ? '--group-id' : '--group-name', group], ['--ip-permissions', JSON.stringify(perms)]);
    const rules = perms.map((p) => ruleWords(p, direction)).join('; ');
    return { command, summary: undo === 'revoke' ? `Removes the ${direction} rules this call added to ${group}: ${rules}.` : `Adds back the ${direction} rules this call removed from ${group}: ${rules}.` };
  };
}

/** StopInstances ↔ StartInstances, for the instances the call moved (the response says which were already so). */
function instances(undo: 'start' | 'stop'): Rule {
  const alreadyThere = undo === 'start' ? ['stopped', 'stopping'] : ['running', 'pending'];
  return ({ params, response, aws }) => {
    const before = new Map(items(response.instancesSet).map((i) => [str(i.instanceId), isObj(i.previousState) ? str(i.previousState.name) : null]));
    const ids = valuesOf(params.instancesSet, 'instanceId').filter((id) => !alreadyThere.includes(before.get(id) ?? ''));
    if (!ids.length) return `Every instance named was already ${undo === 'start' ? 'stopped' : 'running'} before this call: there is nothing to undo.`;
    return { command: aws(`ec2 ${undo}-instances`, ['--instance-ids', ...ids]), summary: `${undo === 'start' ? 'Starts' : 'Stops'} the instances this call ${undo === 'start' ? 'stopped' : 'started'}: ${ids.join(', ')}.` };
  };
}

const tagsJson = (tags: Json[], withValues: boolean) => JSON.stringify(tags.map((t) => (withValues ? { Key: t.key, Value: t.value } : { Key: t.key })));

const createTags: Rule = ({ params, aws }) => {
  const resources = valuesOf(params.resourcesSet, 'resourceId');
  const tags = items(params.tagSet).filter((t) => str(t.key));
  if (!resources.length || !tags.length) return 'The event does not name the resources and tags in a form a command can be made from.';
  const pairs = tags.map((t) => `${String(t.key)}=${String(t.value ?? '')}`).join(', ');
  // With the values given, a tag changed again since this call is left alone.
  return {
    command: aws('ec2 delete-tags', ['--resources', ...resources], ['--tags', tagsJson(tags, true)]),
    summary: `Removes the tags this call set (${pairs}) from ${resources.join(', ')}. A tag that had another value before this call loses it too: its old value is not in the event.`,
  };
};

const deleteTags: Rule = ({ params, aws }) => {
  const resources = valuesOf(params.resourcesSet, 'resourceId');
  const tags = items(params.tagSet).filter((t) => str(t.key));
  if (!resources.length || !tags.length) return 'The event does not name the resources and tags in a form a command can be made from.';
  if (tags.some((t) => typeof t.value !== 'string')) return 'This call deleted tags by key alone: the values they had are not in the event.';
  return { command: aws('ec2 create-tags', ['--resources', ...resources], ['--tags', tagsJson(tags, true)]), summary: `Puts back the tags this call deleted from ${resources.join(', ')}.` };
};

type Principal = 'role' | 'user' | 'group';
const NAME_KEY: Record<Principal, string> = { role: 'roleName', user: 'userName', group: 'groupName' };

/** Attach*Policy ↔ Detach*Policy. */
function managedPolicy(who: Principal, undo: 'attach' | 'detach'): Rule {
  return ({ params, aws }) => {
    const name = str(params[NAME_KEY[who]]);
    const arn = str(params.policyArn);
    if (!name || !arn) return `The event does not name the ${who} and the policy.`;
    return {
      command: aws(`iam ${undo}-${who}-policy`, [`--${who}-name`, name], ['--policy-arn', arn]),
      summary: undo === 'detach' ? `Detaches the policy ${arn} this call attached to the ${who} ${name}.` : `Attaches the policy ${arn} again to the ${who} ${name}, as before this call detached it.`,
    };
  };
}

/** Put*Policy → Delete*Policy; the inline policy it replaced, if any, is not in the event. */
function inlinePolicy(who: Principal): Rule {
  return ({ params, aws }) => {
    const name = str(params[NAME_KEY[who]]);
    const policy = str(params.policyName);
    if (!name || !policy) return `The event does not name the ${who} and the inline policy.`;
    return {
      command: aws(`iam delete-${who}-policy`, [`--${who}-name`, name], ['--policy-name', policy]),
      summary: `Deletes the inline policy ${policy} of the ${who} ${name}. If this call replaced a policy of that name, the old document is not in the event: deleting does not bring it back.`,
    };
  };
}

const createAccessKey: Rule = ({ params, response, aws }) => {
  const key = isObj(response.accessKey) ? response.accessKey : {};
  const id = str(key.accessKeyId);
  const user = str(params.userName) ?? str(key.userName);
  if (!id) return 'The id of the new access key is not in the event.';
  return {
    command: aws('iam delete-access-key', ...(user ? [['--user-name', user] as const] : []), ['--access-key-id', id]),
    summary: `Deletes the access key ${id} this call created${user ? ` for ${user}` : ' (for the caller itself)'}: anything using it stops working at once.`,
  };
};

const createUser: Rule = ({ params, aws }) => {
  const user = str(params.userName);
  if (!user) return 'The event does not name the user.';
  return { command: aws('iam delete-user', ['--user-name', user]), summary: `Deletes the IAM user ${user}. AWS refuses while the user still has access keys, a password, policies or groups: remove those first.` };
};

const createBucket: Rule = ({ params, aws }) => {
  const bucket = str(params.bucketName);
  if (!bucket) return 'The event does not name the bucket.';
  return { command: aws('s3api delete-bucket', ['--bucket', bucket]), summary: `Deletes the bucket ${bucket}. S3 refuses while it holds objects: check what was stored in it since, and empty it first.` };
};

/** Which settings were on before is not in the event: all four on is the safe side. */
const ALL_BLOCKED = 'BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true';
const deletePublicAccessBlock: Rule = ({ params, aws }) => {
  const bucket = str(params.bucketName);
  if (!bucket) return 'The event does not name the bucket.';
  return {
    command: aws('s3api put-public-access-block', ['--bucket', bucket], ['--public-access-block-configuration', ALL_BLOCKED]),
    summary: `Turns the public access block of ${bucket} back on with all four settings. Which of them were on before is not in the event, so this may block more than before.`,
  };
};

const none = (why: string): Rule => () => why;

/** Known calls by `<service>:<eventName>` (the service is eventSource without .amazonaws.com). */
const RULES: Record<string, Rule> = {
  'ec2:AuthorizeSecurityGroupIngress': securityGroupRule('ingress', 'revoke'),
  'ec2:AuthorizeSecurityGroupEgress': securityGroupRule('egress', 'revoke'),
  'ec2:RevokeSecurityGroupIngress': securityGroupRule('ingress', 'authorize'),
  'ec2:RevokeSecurityGroupEgress': securityGroupRule('egress', 'authorize'),
  'ec2:StopInstances': instances('start'),
  'ec2:StartInstances': instances('stop'),
  'ec2:ModifyInstanceAttribute': none('The attribute\'s value before this call is not in the event, only the new one.'),
  'ec2:CreateTags': createTags,
  'ec2:DeleteTags': deleteTags,
  'iam:AttachRolePolicy': managedPolicy('role', 'detach'),
  'iam:DetachRolePolicy': managedPolicy('role', 'attach'),
  'iam:AttachUserPolicy': managedPolicy('user', 'detach'),
  'iam:DetachUserPolicy': managedPolicy('user', 'attach'),
  'iam:AttachGroupPolicy': managedPolicy('group', 'detach'),
  'iam:DetachGroupPolicy': managedPolicy('group', 'attach'),
  'iam:PutRolePolicy': inlinePolicy('role'),
  'iam:PutUserPolicy': inlinePolicy('user'),
  'iam:PutGroupPolicy': inlinePolicy('group'),
  'iam:DeleteRolePolicy': none('The deleted policy document is not in the event.'),
  'iam:DeleteUserPolicy': none('The deleted policy document is not in the event.'),
  'iam:CreateAccessKey': createAccessKey,
  'iam:CreateUser': createUser,
  's3:CreateBucket': createBucket,
  's3:PutBucketPolicy': none('The policy the bucket had before is not in the event, only the new one.'),
  's3:DeleteBucketPolicy': none('The deleted bucket policy is not in the event.'),
  's3:PutBucketPublicAccessBlock': none('The public access block settings before this call are not in the event, only the new ones.'),
  's3:DeleteBucketPublicAccessBlock': deletePublicAccessBlock,
  'lambda:UpdateFunctionConfiguration': none('The function\'s configuration before this call is not in the event. If the function publishes versions, an alias can be pointed back at the version before it.'),
  'lambda:UpdateFunctionCode': none('The function\'s code before this call is not in the event. If the function publishes versions, an alias can be pointed back at the version before it.'),
};

/** Lambda and CloudFront log their calls with the API version after the name: UpdateFunctionCode20150331v2. */
const VERSION_SUFFIX = /(\d{8}|\d{4}_\d{2}_\d{2})(v\d+)?$/;

/**
 * The revert of one applied CloudTrail write (a refused one changed nothing and gets none).
 * `region` is where the call was made (the record's awsRegion, else what its envelope knew).
 */
export function draftAwsRevert(record: Json, region: string | null): RevertDraft {
  const eventName = str(record.eventName) ?? '';
  const service = (str(record.eventSource) ?? '').replace(/\.amazonaws\.com$/, '');
  const rule = RULES[`${service}:${eventName.replace(VERSION_SUFFIX, '')}`];
  const stored = awsStoredParams(record);
  const changed = stored === null || stored === undefined ? null : prettyJson(stored);
  if (!rule) return noInverse(`No known inverse for ${eventName}.`, changed);
  const params = isObj(record.requestParameters) ? record.requestParameters : {};
  const response = isObj(record.responseElements) ? record.responseElements : {};
  const aws = (operation: string, ...args: CommandArg[]) => commandLine(`aws ${operation}`, ...args, ...(region ? [['--region', region] as const] : []));
  const drafted = rule({ params, response, aws });
  if (typeof drafted === 'string') return noInverse(drafted, changed);
  if (!drafted.command) return dashRefused(changed);
  return { tool: 'aws', summary: drafted.summary, command: drafted.command, manifest: null, changed: null };
}
