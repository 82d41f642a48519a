/**
 * What a CloudTrail write touched and what it asked for: the resource, the name a resource links
 * itself to a service by, and the request parameters with the values that must never be stored
 * replaced. Pure.
 */
import { NOT_STORED } from '../observed-types.js';
import { isObj, str, type Json } from './cloud-fields.js';

/** The first `items[].<key>` of an EC2-style `{items: [...]}` set. */
function firstItem(set: unknown, key: string): string | null {
  if (!isObj(set) || !Array.isArray(set.items)) return null;
  for (const it of set.items) if (isObj(it) && str(it[key])) return it[key] as string;
  return null;
}

/** The Name tag EC2 was asked to put on a new resource of this type (RunInstances, CreateVolume). */
function nameTag(params: Json, resourceType: 'instance' | 'volume'): string | null {
  const specs = params.tagSpecificationSet;
  if (!isObj(specs) || !Array.isArray(specs.items)) return null;
  for (const spec of specs.items) {
    if (!isObj(spec) || spec.resourceType !== resourceType || !Array.isArray(spec.tags)) continue;
    for (const t of spec.tags) if (isObj(t) && t.key === 'Name' && str(t.value)) return t.value as string;
  }
  return null;
}

const lastPart = (s: string, sep: string) => s.slice(s.lastIndexOf(sep) + 1);

type Target = { resource: string | null; resourceName: string | null };

/**
 * The resource a call wrote, and for an EC2 instance, an EBS volume, an SQS queue or an SNS topic
 * the name it links itself to a service by (an instance's or volume's Name tag when the call set
 * one, else its id; a queue's or topic's name). Resource: the record's first `resources[].ARN`,
 * else an ARN built from the request's identifiers where their form is documented, else the id.
 */
export function awsTarget(record: Json, region: string | null, account: string | null): Target {
  const params = isObj(record.requestParameters) ? record.requestParameters : {};
  const source = str(record.eventSource) ?? '';
  const arnOf = (service: string, rest: string) => `arn:aws:${service}:${region ?? ''}:${account ?? ''}:${rest}`;
  let fromResources: string | null = null;
  if (Array.isArray(record.resources)) for (const r of record.resources) if (isObj(r) && str(r.ARN)) { fromResources = r.ARN as string; break; }

  if (source === 'ec2.amazonaws.com') {
    const instance = str(params.instanceId) ?? firstItem(params.instancesSet, 'instanceId');
    if (instance) return { resource: fromResources ?? arnOf('ec2', `instance/${instance}`), resourceName: nameTag(params, 'instance') ?? instance };
    if (record.eventName === 'RunInstances') return { resource: fromResources, resourceName: nameTag(params, 'instance') };
    const volume = str(params.volumeId);
    if (volume) return { resource: fromResources ?? arnOf('ec2', `volume/${volume}`), resourceName: nameTag(params, 'volume') ?? volume };
    if (record.eventName === 'CreateVolume') return { resource: fromResources, resourceName: nameTag(params, 'volume') };
  }
  if (source === 'sqs.amazonaws.com') {
    const url = str(params.queueUrl);
    const name = url ? lastPart(url.replace(/\/+$/, ''), '/') : str(params.queueName);
    if (name) return { resource: fromResources ?? arnOf('sqs', name), resourceName: name };
  }
  if (source === 'sns.amazonaws.com') {
    const topicArn = str(params.topicArn);
    const name = topicArn ? lastPart(topicArn, ':') : str(params.name);
    if (name) return { resource: fromResources ?? topicArn ?? arnOf('sns', name), resourceName: name };
  }
  if (fromResources) return { resource: fromResources, resourceName: null };
  return { resource: identifierIn(source, params), resourceName: null };
}

/** Request keys that name what a call wrote, most telling first. */
const ID_KEYS = ['bucketName', 'functionName', 'roleName', 'userName', 'groupName', 'policyArn', 'groupId', 'tableName', 'dBInstanceIdentifier',
  'dBClusterIdentifier', 'clusterName', 'cluster', 'serviceName', 'service', 'stackName', 'name', 'keyId', 'secretId', 'repositoryName', 'family', 'hostedZoneId', 'loadBalancerName', 'loadBalancerArn', 'autoScalingGroupName'];

/** A name for what the call wrote when CloudTrail gave no ARN: an S3 bucket as its ARN, else the first identifier found (one level down too). */
function identifierIn(source: string, params: Json): string | null {
  if (source === 's3.amazonaws.com' && str(params.bucketName)) return `arn:aws:s3:::${params.bucketName as string}`;
  for (const k of ID_KEYS) if (str(params[k])) return params[k] as string;
  const nested = [params, ...Object.values(params).filter(isObj)];
  for (const o of nested) {
    for (const [k, v] of Object.entries(o)) if (/(Id|Arn|Name|Identifier)$/.test(k) && str(v)) return v as string;
  }
  return null;
}

/** Each value of a map replaced, its keys kept: `{DB_PASSWORD: '[not stored]'}`. */
const valuesHidden = (m: Json): Json => Object.fromEntries(Object.keys(m).map((k) => [k, NOT_STORED]));

/** A Lambda `environment: {variables: {...}}` (any case) with its values hidden. */
function lambdaEnvironment(env: unknown): unknown {
  if (!isObj(env)) return env;
  const out: Json = { ...env };
  for (const k of Object.keys(out)) if (k.toLowerCase() === 'variables' && isObj(out[k])) out[k] = valuesHidden(out[k] as Json);
  return out;
}

/** An ECS container definition list with each `environment[].value` hidden (names kept). */
function ecsContainers(defs: unknown): unknown {
  if (!Array.isArray(defs)) return defs;
  return defs.map((d) => {
    if (!isObj(d)) return d;
    const out: Json = { ...d };
    for (const k of Object.keys(out)) {
      if (k.toLowerCase() !== 'environment' || !Array.isArray(out[k])) continue;
      out[k] = (out[k] as unknown[]).map((e) => (isObj(e) && 'value' in e ? { ...e, value: NOT_STORED } : e));
    }
    return out;
  });
}

/** Replace the keys of `o` (any case) that `pick` chooses with what `hide` makes of them. */
function hideKeys(o: Json, pick: (lowerKey: string) => boolean, hide: (v: unknown) => unknown): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) out[k] = pick(k.toLowerCase()) ? hide(v) : v;
  return out;
}

/**
 * The request parameters as stored: a value written to Parameter Store (PutParameter's value),
 * Secrets Manager (SecretString / SecretBinary), AppConfig (a hosted configuration's content), a
 * Lambda environment (its variables' values) or an ECS task definition's container environment
 * becomes `[not stored]`; which key changed stays. Everything else is kept for the intake to scrub
 * and cut.
 */
export function awsStoredParams(record: Json): unknown {
  const params = record.requestParameters;
  if (!isObj(params)) return params ?? null;
  switch (str(record.eventSource)) {
    case 'ssm.amazonaws.com':
      return hideKeys(params, (k) => k === 'value', () => NOT_STORED);
    case 'secretsmanager.amazonaws.com':
      return hideKeys(params, (k) => k === 'secretstring' || k === 'secretbinary', () => NOT_STORED);
    case 'appconfig.amazonaws.com':
      return hideKeys(params, (k) => k === 'content', () => NOT_STORED);
    case 'lambda.amazonaws.com':
      return hideKeys(params, (k) => k === 'environment', lambdaEnvironment);
    case 'ecs.amazonaws.com':
      return hideKeys(params, (k) => k === 'containerdefinitions', ecsContainers);
    default:
      return params;
  }
}
