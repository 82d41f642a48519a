import { Type } from 'typebox';
import { SOURCE_KINDS } from './observed-types.js';

/** Settings → Change sources: request and response schemas, one per direction. */

const Str = Type.String();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const SourceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, title: 'ID' }) });

const Kind = Type.Enum([...SOURCE_KINDS], { title: 'Kind', description: 'Which sender: github, gitlab, argocd, kubernetes (audit webhook), aws (CloudTrail via EventBridge), azure (Activity Log), pagerduty (change events), cloudevents, webhook (generic)' });

const fields = {
  name: Type.String({ minLength: 1, maxLength: 100, title: 'Name' }),
  config: Type.Optional(Type.Unknown({
    title: 'Settings',
    description: 'github: {apiUrl?, repos[]}; gitlab: {apiUrl?, projects[]}; aws: {regions[], endpoint?}; kubernetes: {cluster?}; azure: {subscription?}; none for the others',
  })),
  credential: Type.Optional(Type.Unknown({
    title: 'Credential',
    description: 'What a pull signs in with (write-only, sealed): a GitHub or GitLab token, AWS keys {accessKeyId, secretAccessKey, sessionToken?}; on a PUT, null removes it and leaving it out keeps it',
  })),
  pullEnabled: Type.Optional(Type.Boolean({ title: 'Scheduled pull', description: 'false: this connection opts out of the scheduled pull (webhooks still arrive)' })),
};

export const SourceCreate = Type.Object({ kind: Kind, ...fields }, { additionalProperties: false });
export const SourceUpdate = Type.Object({ ...fields, kind: Type.Optional(Kind), name: Type.Optional(fields.name) }, { additionalProperties: false });

const Counts = Type.Object({
  recorded: Type.Integer(), duplicate: Type.Integer(), enriched: Type.Integer(), noise: Type.Integer(), capped: Type.Integer(),
  denied: Type.Integer(), ignored: Type.Integer(), rejected: Type.Integer(), receipts: Type.Integer(),
}, { $id: 'ChangeSourceCounts' });
const Marker = Nullable(Type.Object({ position: Str, note: Nullable(Str), updatedAt: Str }));

export const Source = Type.Object({
  id: Str, orgId: Str, kind: Kind, name: Str,
  endpoint: Type.String({ description: 'The URL to paste into the sender (the pipeline listener and the path of this kind)' }),
  config: Type.Record(Str, Type.Unknown()), hasCredential: Type.Boolean(), pullEnabled: Type.Boolean(), pullable: Type.Boolean(),
  notPulledBecause: Nullable(Str), counts: Counts, lastEventAt: Nullable(Str), lastPullAt: Nullable(Str), lastPullError: Nullable(Str),
  markers: Type.Object({ scheduled: Marker, manual: Marker }), createdAt: Str, updatedAt: Str,
}, { $id: 'ChangeSource' });

export const SourceWithSecret = Type.Object({
  source: Source,
  secret: Type.String({ description: 'The connection\'s secret: shown this once, never again (rotate it to get a new one)' }),
});

export const SourceTest = Type.Object({
  ok: Type.Boolean(), message: Str,
  curl: Nullable(Type.String({ description: 'A pushed source: the curl line that sends one event (the secret read from $CHANGELEDGER_SOURCE_SECRET)' })),
}, { $id: 'ChangeSourceTest' });

export const PullInput = Type.Object({
  minutes: Type.Integer({ minimum: 1, maximum: 10_080, title: 'Minutes', description: 'Read the last N minutes (1 to 10,080, a week)' }),
}, { additionalProperties: false });

export const PullResult = Type.Object({
  ok: Type.Boolean(), message: Str, counts: Nullable(Counts), since: Str, until: Str,
}, { $id: 'ChangeSourcePull' });

const ServiceMap = Type.Record(Str, Str);
const ResourceMap = Type.Record(Str, Type.Union([Str, Type.Array(Str)]));

export const ObservedSettings = Type.Object({
  pullIntervalSeconds: Type.Integer(), ciNamespaces: Type.Array(Str), serviceMap: ServiceMap, resourceMap: ResourceMap, updatedAt: Nullable(Str),
  relinked: Type.Optional(Nullable(Type.Integer({ description: 'After a PUT that edited a map: how many records of the last 48 hours were relinked' }))),
}, { $id: 'ObservedSettings' });

export const ObservedSettingsInput = Type.Object({
  pullIntervalSeconds: Type.Optional(Type.Unknown({ title: 'Pull interval', description: 'Seconds between scheduled pulls (60 to 86,400); 0 turns them off; default 900' })),
  ciNamespaces: Type.Optional(Type.Unknown({ title: 'CI namespaces', description: 'Kubernetes namespaces whose service accounts are CI (default flux-system, jenkins, gitlab-runner, tekton); argocd, kube-system, kube-public and kube-node-lease are refused' })),
  serviceMap: Type.Optional(Type.Unknown({ title: 'Service map', description: '{repository glob: service}' })),
  resourceMap: Type.Optional(Type.Unknown({ title: 'Resource map', description: '{resource glob: service or [services]}: links only, at most 200 globs of 10 services' })),
}, { additionalProperties: false });
