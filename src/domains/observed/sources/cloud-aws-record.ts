/**
 * One CloudTrail record read into an observed event, or the reason it is not one. Shared by the
 * EventBridge intake and the LookupEvents pull, so both read a record the same way. Pure.
 */
import type { ObservedEvent } from '../observed-types.js';
import { awsChangeRef, awsPrincipal } from './cloud-aws-identity.js';
import { awsStoredParams, awsTarget } from './cloud-aws-request.js';
import { isObj, isoTime, str, type ItemProblem, type Json } from './cloud-fields.js';
import { draftAwsRevert } from './revert-aws.js';

export type RecordReading =
  | { as: 'event'; event: ObservedEvent }
  /** ignored: not something we record (a read, a data event, a sign-in); noise: a write we leave out (a failed call, STS plumbing). */
  | { as: 'ignored' | 'noise'; why: string }
  | { as: 'rejected'; problem: ItemProblem };

/** Refused for want of permission: a denied attempt, not a change. */
export function isDeniedCode(code: string): boolean {
  return code === 'AccessDenied' || code === 'UnauthorizedOperation' || code === 'Client.UnauthorizedOperation'
    || code.includes('AccessDenied') || code.endsWith('UnauthorizedOperation');
}

/** Before CloudTrail wrote `readOnly` (event versions before 1.05 or so), a read shows in its name. */
const READ_NAME = /^(Get|List|Describe|Head|Lookup|Search|Scan|Query|BatchGet|Check|Preview|Estimate|Validate|Simulate|Test|View|Select|Poll|Receive|Download|Decrypt|Verify)[A-Z0-9]/;

/** STS calls hand out credentials; they change nothing, so only a refused one (a denied attempt) is kept. */
const STS = 'sts.amazonaws.com';

/** A region as written into a console URL: letters, digits and dashes only. */
const REGION = /^[a-z0-9-]{2,32}$/;

/**
 * Reads one CloudTrail record. `at` names the record in a problem (`detail`, `Records.3`,
 * `Events.0.CloudTrailEvent`); `fallback` carries what an EventBridge envelope knew (account,
 * region) when the record lacks it.
 */
export function readCloudTrailRecord(record: unknown, at: string, sessionTags: ReadonlyMap<string, string>, fallback: { account?: string | null; region?: string | null } = {}): RecordReading {
  const field = (f: string) => (at ? `${at}.${f}` : f);
  if (!isObj(record)) return { as: 'rejected', problem: { field: at || 'body', message: 'is not a CloudTrail record (a JSON object)' } };
  const r: Json = record;
  const eventType = str(r.eventType);
  if (eventType && eventType !== 'AwsApiCall') return { as: 'ignored', why: `${eventType} is not an API call` };
  const category = str(r.eventCategory);
  if ((category && category !== 'Management') || r.managementEvent === false) return { as: 'ignored', why: 'not a management event' };

  const eventName = str(r.eventName);
  if (!eventName) return { as: 'rejected', problem: { field: field('eventName'), message: 'is missing: a CloudTrail record names the API call it logged' } };
  const eventSource = str(r.eventSource);
  if (!eventSource) return { as: 'rejected', problem: { field: field('eventSource'), message: 'is missing: a CloudTrail record names the service it logged (ec2.amazonaws.com …)' } };
  const readOnly = typeof r.readOnly === 'boolean' ? r.readOnly : READ_NAME.test(eventName);
  if (readOnly) return { as: 'ignored', why: 'a read-only call' };

  const eventId = str(r.eventID);
  if (!eventId) return { as: 'rejected', problem: { field: field('eventID'), message: 'is missing: it is the id every CloudTrail record carries, and the key that keeps a re-sent event from being recorded twice' } };
  const occurredAt = isoTime(r.eventTime);
  if (!occurredAt) return { as: 'rejected', problem: { field: field('eventTime'), message: `is not a time (${JSON.stringify(r.eventTime ?? null)})` } };

  const errorCode = str(r.errorCode);
  const denied = errorCode !== null && isDeniedCode(errorCode);
  // A call that failed for another reason (NoSuchEntity, a throttle, a bad parameter) changed nothing.
  if (errorCode && !denied) return { as: 'noise', why: `the call failed (${errorCode})` };
  if (eventSource === STS && !denied) return { as: 'noise', why: 'an STS call hands out credentials and changes nothing' };

  const region = str(r.awsRegion) ?? fallback.region ?? null;
  const account = str(r.recipientAccountId) ?? (isObj(r.userIdentity) ? str(r.userIdentity.accountId) : null) ?? fallback.account ?? null;
  const { resource, resourceName } = awsTarget(r, region, account);
  const params = awsStoredParams(r);
  const hasParams = isObj(params) && Object.keys(params).length > 0;
  const service = eventSource.replace(/\.amazonaws\.com$/, '');
  const what = resourceName ?? (resource ? resource.slice(resource.lastIndexOf('/') + 1) : null);
  const location: ObservedEvent['location'] = {};
  if (account) location.account = account;
  if (region) location.region = region;
  return {
    as: 'event',
    event: {
      eventId, kind: 'cloud_write', occurredAt,
      title: `${denied ? 'Denied: ' : ''}${service} ${eventName}${what ? ` ${what}` : ''}${region ? ` in ${region}` : ''}`,
      principal: awsPrincipal(r), action: `${eventSource}:${eventName}`, resource, resourceName, location,
      serviceHint: null, repo: null,
      // The request is what changed: shown as the diff, kept as params; the intake scrubs and cuts both.
      diff: hasParams ? JSON.stringify(params, null, 2) : null, params: params ?? null,
      link: region && REGION.test(region) ? `https://${region}.console.aws.amazon.com/cloudtrail/home?region=${region}#/events/${encodeURIComponent(eventId)}` : null,
      denied, errorCode, outcome: denied ? 'failed' : 'succeeded',
      changeRef: awsChangeRef(r, sessionTags), capBucket: null,
      revert: denied ? null : draftAwsRevert(r, region),
    },
  };
}
