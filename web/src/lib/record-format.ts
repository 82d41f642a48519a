import type { FeedEntry, ListEntry, ObservedLocation, ObservedView, PrincipalClass, RecordPrincipal, ReferenceKind, RegisteredRecord, RevertDraft } from '../api/observed-types';

// How the one list and the observed change page say a record's parts in words.

/** A catalogue key read as its name (svc:checkout-api → checkout-api); '' is a record no service claimed. */
export function serviceLabel(key: string): string {
  if (key === '') return 'unmapped';
  const colon = key.indexOf(':');
  return colon > 0 && colon < key.length - 1 ? key.slice(colon + 1) : key;
}

/** Catalogue entity pages take the key as one path segment. */
export function entityHref(key: string): string {
  return `/catalogue/${encodeURIComponent(key)}`;
}

export const principalKindLabels: Record<RecordPrincipal['kind'], string> = {
  person: 'person',
  token: 'token',
  service: 'service account',
  system: 'system',
  unknown: 'unknown',
};

export const sourceLabels: Record<string, string> = {
  changeledger: 'changeledger',
  flags: 'flags',
  github: 'GitHub',
  gitlab: 'GitLab',
  argocd: 'Argo CD',
  kubernetes: 'Kubernetes',
  aws: 'AWS CloudTrail',
  azure: 'Azure Activity Log',
  pagerduty: 'PagerDuty change event',
  cloudevents: 'CloudEvents',
  webhook: 'generic webhook',
};

export function sourceLabel(source: string): string {
  return sourceLabels[source] ?? source;
}

const locationLabels: Record<keyof ObservedLocation, string> = {
  repo: 'repository',
  ref: 'ref',
  environment: 'environment',
  cluster: 'cluster',
  namespace: 'namespace',
  account: 'account',
  region: 'region',
  subscription: 'subscription',
  resourceGroup: 'resource group',
};

/** [label, value] pairs of a location, in a fixed order, the empty ones left out. */
export function locationParts(location: ObservedLocation): Array<[string, string]> {
  const keys = Object.keys(locationLabels) as Array<keyof ObservedLocation>;
  return keys.flatMap((k) => {
    const v = location[k];
    return v === undefined || v === '' ? [] : [[locationLabels[k], v] as [string, string]];
  });
}

/** A principal's detail keys in words (roleArn → role ARN); unknown keys as they are. */
const detailLabels: Record<string, string> = {
  email: 'e-mail',
  roleArn: 'role ARN',
  sessionIssuer: 'session issuer',
  sourceIdentity: 'source identity',
  ciNamespace: 'CI namespace',
  tokenName: 'token',
  login: 'login',
  username: 'user name',
  accountId: 'account',
};

export function detailLabel(key: string): string {
  return detailLabels[key] ?? key;
}

/** A planned change of the one list (it keeps every Change field). */
export function isRegistered(e: ListEntry): e is RegisteredRecord {
  return e.origin === 'registered';
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function locationOf(v: unknown): ObservedLocation {
  if (typeof v !== 'object' || v === null) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) as ObservedLocation;
}

const principalClassNames: readonly PrincipalClass[] = ['human', 'pipeline', 'changeledger', 'system', 'unknown'];
const referenceNames: readonly ReferenceKind[] = ['change_id', 'itsm_ticket', 'change_window', 'authorized_principal', 'kept'];
const revertTools: ReadonlyArray<RevertDraft['tool']> = ['kubectl', 'aws', 'az', 'none'];

const oneOf = <T extends string>(v: unknown, allowed: readonly T[]): T | null => (allowed.find((a) => a === v) ?? null);

/** A drafted revert as the server sent it, each field checked; null when it is not one. */
export function revertOf(v: unknown): RevertDraft | null {
  if (typeof v !== 'object' || v === null) return null;
  const r = v as Record<string, unknown>;
  const tool = oneOf(r['tool'], revertTools);
  if (tool === null) return null;
  return { tool, summary: text(r['summary']) ?? '', command: text(r['command']), manifest: text(r['manifest']), changed: text(r['changed']) };
}

/** An observed entry's own fields (under detail on the wire) by name, each checked for its type. */
export function observedView(e: FeedEntry): ObservedView {
  const d = e.detail;
  // The unmanaged-change fields are read under detail, or beside it should the entry carry them there.
  const top = e as unknown as Record<string, unknown>;
  const either = (k: string): unknown => d[k] ?? top[k];
  const via = d['serviceVia'];
  return {
    ...e,
    sourceId: text(d['sourceId']),
    connection: text(d['connection']),
    eventId: text(d['eventId']) ?? '',
    receivedAt: text(d['receivedAt']),
    action: text(d['action']),
    resource: text(d['resource']),
    location: locationOf(d['location']),
    serviceVia: via === 'event' || via === 'repo_map' ? via : 'unmapped',
    errorCode: text(d['errorCode']),
    outcome: text(d['outcome']),
    authorizedReason: text(d['authorizedReason']),
    changeRef: text(d['changeRef']),
    principalClass: oneOf(either('principalClass'), principalClassNames),
    principalClassReason: text(either('principalClassReason')),
    reference: oneOf(either('reference'), referenceNames),
    revert: revertOf(either('revert')),
    caseId: text(either('caseId')),
  };
}
