// The wire shapes of the one change list, observed changes and change sources, named from the
// server's OpenAPI document (./schema.d.ts, `npm run generate:types`) as ./types.ts does.
import type { components } from './schema';
import type { Answer, Body, ChangeDetail } from './types';

type Schema<N extends keyof components['schemas']> = components['schemas'][N];
type Item<A> = A extends readonly (infer I)[] ? I : never;

export type SourceKind = Schema<'ChangeSource'>['kind'];
export const sourceKinds = ['github', 'gitlab', 'argocd', 'kubernetes', 'aws', 'azure', 'pagerduty', 'cloudevents', 'webhook'] as const satisfies readonly SourceKind[];
/** Sources with an API a pull reads (the manual "last N minutes" pull and the scheduled one). */
export const pullKinds: readonly SourceKind[] = ['github', 'gitlab', 'aws'];

export type ChangeList = Answer<'/api/changes', 'get'>;
export type ListEntry = Item<ChangeList['changes']>;
/** A flag write, a flag change request or an observed change; `detail` is the origin's own fields. */
export type FeedEntry = Extract<ListEntry, { origin: 'flag' | 'observed' }>;
/** A registered change keeps every Change field and gains the common ones. */
export type RegisteredRecord = Exclude<ListEntry, FeedEntry>;
export type RecordPrincipal = ListEntry['principal'];

/** GET /api/observed-changes/:id: the entry (its own fields under detail) and what the sources cannot see. */
export type ObservedAnswer = Answer<'/api/observed-changes/{id}', 'get'>;
export type Receipt = Item<NonNullable<ChangeDetail['receipts']>>;

export type ChangeSource = Schema<'ChangeSource'>;
export type SourceCounts = Schema<'ChangeSourceCounts'>;
export type ChangeSourceInput = Body<'/api/change-sources', 'post'>;
export type ChangeSourcePatch = Body<'/api/change-sources/{id}', 'put'>;
/** A create or a rotation: the only answers that carry the secret. */
export type SourceWithSecret = Answer<'/api/change-sources', 'post', 201>;
export type SourceTest = Answer<'/api/change-sources/{id}/test', 'post'>;
export type ManualPull = Answer<'/api/change-sources/{id}/pull', 'post'>;
export type ObservedSettings = Answer<'/api/observed-settings', 'get'>;
export type ObservedSettingsPatch = Partial<Pick<ObservedSettings, 'pullIntervalSeconds' | 'ciNamespaces' | 'serviceMap' | 'resourceMap'>>;

export type ObservedLocation = Partial<Record<'repo' | 'ref' | 'environment' | 'cluster' | 'namespace' | 'account' | 'region' | 'subscription' | 'resourceGroup', string>>;

/** Who made an observed write, in five words (the server's principal class). */
export type PrincipalClass = 'human' | 'pipeline' | 'changeledger' | 'system' | 'unknown';
/** What vouched for a write under the reference rule; `kept` when a person kept it. */
export type ReferenceKind = 'change_id' | 'itsm_ticket' | 'change_window' | 'authorized_principal' | 'kept';
/** The revert drafted for a write with no reference: a person runs it with their own access; changeledger never does. */
export type RevertDraft = {
  tool: 'kubectl' | 'aws' | 'az' | 'none';
  summary: string;
  command: string | null;
  manifest: string | null;
  changed: string | null;
};

/** An observed change as its page reads it: the entry, and its detail's fields by name (lib/record-format.ts observedView). */
export type ObservedView = FeedEntry & {
  sourceId: string | null;
  connection: string | null;
  eventId: string;
  receivedAt: string | null;
  action: string | null;
  resource: string | null;
  location: ObservedLocation;
  serviceVia: 'event' | 'repo_map' | 'unmapped';
  errorCode: string | null;
  outcome: string | null;
  authorizedReason: string | null;
  changeRef: string | null;
  principalClass: PrincipalClass | null;
  principalClassReason: string | null;
  reference: ReferenceKind | null;
  revert: RevertDraft | null;
  /** The case this write opened or joined (an unauthorized change, a denied attempt), if any. */
  caseId: string | null;
};
