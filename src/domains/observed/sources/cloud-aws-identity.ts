/**
 * Who made a CloudTrail call, and the planned change it says it belongs to. Pure.
 *
 * Where CloudTrail puts these (AWS IAM User Guide, "Logging IAM and AWS STS API calls with AWS
 * CloudTrail", examples of STS events; awsdocs/iam-user-guide doc_source/cloudtrail-integration.md):
 * - every call made with a role session carries `userIdentity.sessionContext.sessionIssuer` (the
 *   role) and, when one was set, `userIdentity.sessionContext.sourceIdentity`, which then persists
 *   through role chaining and cannot be changed inside the session;
 * - session tags appear only on the STS call that opened the session: `requestParameters.tags`
 *   ([{key, value}], AssumeRole), `requestParameters.principalTags` ({k: v}, AssumeRoleWithSAML /
 *   WithWebIdentity) and `requestParameters.incomingTransitiveTags` ({k: v}, role chaining). The
 *   calls made with the session do not repeat them; they repeat the session's access key id, which
 *   the STS call answered in `responseElements.credentials.accessKeyId`.
 */
import type { RecordPrincipal } from '../../changes/change-feed.js';
import { changeRefIn } from './change-ref.js';
import { isObj, str, type Json } from './cloud-fields.js';

/** The role session's name: the last part of `arn:aws:sts::<acct>:assumed-role/<role>/<session>`. */
function sessionName(arn: string | null): string | null {
  const m = arn ? /:assumed-role\/[^/]+\/(.+)$/.exec(arn) : null;
  return m ? m[1]! : null;
}

/** Roles IAM Identity Center makes for people's permission sets: a session of one is a person. */
const isPeopleRole = (roleName: string | null) => roleName !== null && roleName.startsWith('AWSReservedSSO_');

/**
 * The principal in our one shape. IAM users and root are people; a role session is a person when
 * it came from the console or an Identity Center role, else a workload (CI, a service); AWS
 * services and other accounts acting on ours are services.
 */
export function awsPrincipal(record: Json): RecordPrincipal {
  const u = isObj(record.userIdentity) ? record.userIdentity : {};
  const type = str(u.type);
  const arn = str(u.arn);
  const accountId = str(u.accountId);
  const detail: Record<string, string> = {};
  if (type) detail.identityType = type;
  if (arn) detail.arn = arn;
  if (accountId) detail.accountId = accountId;
  const invokedBy = str(u.invokedBy);
  if (invokedBy) detail.invokedBy = invokedBy;

  switch (type) {
    case 'IAMUser':
      return { kind: 'person', name: str(u.userName) ?? arn ?? 'IAM user', id: arn, detail };
    case 'Root':
      return { kind: 'person', name: 'root', id: arn, detail };
    case 'AssumedRole': {
      const ctx = isObj(u.sessionContext) ? u.sessionContext : {};
      const issuer = isObj(ctx.sessionIssuer) ? ctx.sessionIssuer : {};
      const roleArn = str(issuer.arn);
      const roleName = str(issuer.userName) ?? (roleArn ? roleArn.slice(roleArn.lastIndexOf('/') + 1) : null);
      const session = sessionName(arn);
      const sourceIdentity = str(ctx.sourceIdentity);
      if (roleArn) detail.roleArn = roleArn;
      if (roleArn) detail.sessionIssuer = roleArn;
      if (session) detail.sessionName = session;
      if (sourceIdentity) detail.sourceIdentity = sourceIdentity;
      const fromConsole = str(record.sessionCredentialFromConsole) === 'true';
      const name = [roleName, session].filter((x): x is string => x !== null).join('/') || arn || 'assumed role';
      return { kind: fromConsole || isPeopleRole(roleName) ? 'person' : 'service', name, id: arn, detail };
    }
    case 'FederatedUser': {
      const m = arn ? /:federated-user\/(.+)$/.exec(arn) : null;
      return { kind: 'person', name: m?.[1] ?? arn ?? 'federated user', id: arn, detail };
    }
    case 'AWSService':
      return { kind: 'service', name: invokedBy ?? 'AWS service', id: null, detail };
    case 'AWSAccount':
      return { kind: 'service', name: accountId ? `account ${accountId}` : str(u.principalId) ?? 'another AWS account', id: accountId, detail };
    case 'IdentityCenterUser': case 'SAMLUser': case 'WebIdentityUser':
      return { kind: 'person', name: str(u.userName) ?? str(u.principalId) ?? type, id: arn ?? str(u.principalId), detail };
    default:
      return { kind: 'unknown', name: arn ?? str(u.principalId) ?? 'unknown', id: arn, detail };
  }
}

/** A CHG- id among a session's tags as CloudTrail writes them on the STS call that opened it. */
export function changeRefInSessionTags(requestParameters: unknown): string | null {
  if (!isObj(requestParameters)) return null;
  const values: unknown[] = [];
  if (Array.isArray(requestParameters.tags)) for (const t of requestParameters.tags) if (isObj(t)) values.push(t.value);
  for (const key of ['principalTags', 'incomingTransitiveTags']) {
    const tags = requestParameters[key];
    if (isObj(tags)) values.push(...Object.values(tags));
  }
  for (const v of values) {
    const ref = changeRefIn(v);
    if (ref) return ref;
  }
  return null;
}

/**
 * The CHG- id a call carries, in order: the session's sourceIdentity, the role session name (set
 * by whoever assumed the role, like sourceIdentity, and on every call), a session tag on this very
 * record, then a tag of the session the call's access key belongs to (`sessionTags`, read from the
 * STS calls of the same delivery or pull).
 */
export function awsChangeRef(record: Json, sessionTags: ReadonlyMap<string, string>): string | null {
  const u = isObj(record.userIdentity) ? record.userIdentity : {};
  const ctx = isObj(u.sessionContext) ? u.sessionContext : {};
  const key = str(u.accessKeyId);
  return changeRefIn(ctx.sourceIdentity) ?? changeRefIn(sessionName(str(u.arn))) ?? changeRefInSessionTags(record.requestParameters)
    ?? (key ? sessionTags.get(key) ?? null : null);
}

/** The access key id an STS call answered, mapped to the CHG- id of the tags it set (for the calls made with that key). */
export function sessionTagRefs(records: readonly Json[]): Map<string, string> {
  const refs = new Map<string, string>();
  for (const r of records) {
    if (r.eventSource !== 'sts.amazonaws.com') continue;
    const ref = changeRefInSessionTags(r.requestParameters) ?? (isObj(r.requestParameters) ? changeRefIn(r.requestParameters.sourceIdentity) : null);
    const creds = isObj(r.responseElements) && isObj(r.responseElements.credentials) ? r.responseElements.credentials : null;
    const key = creds ? str(creds.accessKeyId) : null;
    if (ref && key) refs.set(key, ref);
  }
  return refs;
}
