/**
 * The shapes the observed domain is built on: what a source adapter hands the intake, and an
 * observed change as stored. Adapters are pure (headers + body in, events out); the intake service
 * dedupes, caps, scrubs, resolves services, folds receipts and writes.
 */
import type { ObservedKind, RecordPrincipal } from '../changes/change-feed.js';
import type { PrincipalClass, ReferenceKind, RevertDraft } from './unmanaged/unmanaged-types.js';

export const SOURCE_KINDS = ['github', 'gitlab', 'argocd', 'kubernetes', 'aws', 'azure', 'pagerduty', 'cloudevents', 'webhook'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/** Sources that read a system's own record of a write: only these may fold a write into a receipt. */
export const HARVEST_KINDS: readonly SourceKind[] = ['github', 'gitlab', 'argocd', 'kubernetes', 'aws', 'azure'];
/** Sources with an API the scheduled pull reads. */
export const PULL_KINDS: readonly SourceKind[] = ['github', 'gitlab', 'aws'];

/** Where a change happened; every key optional. */
export type Location = Partial<Record<'repo' | 'ref' | 'environment' | 'cluster' | 'namespace' | 'account' | 'region' | 'subscription' | 'resourceGroup', string>>;

/** One event as an adapter read it, before dedupe, caps, scrubbing and service resolution. */
export type ObservedEvent = {
  /** The sender's own id: delivery id, auditID, eventID, eventDataId … (the dedupe key). */
  eventId: string;
  kind: ObservedKind;
  title: string;
  occurredAt: string;
  principal: RecordPrincipal;
  /** create / update / patch / delete, or the API call (PutParameter, Microsoft.Web/sites/write …). */
  action: string | null;
  /** What was written: `deployments/checkout` (with namespace in location), an ARN, an Azure resource id. */
  resource: string | null;
  location: Location;
  /** A cloud resource that links itself to a service of its own name: an EC2 instance (its Name tag, else its id), an EBS volume, an SQS queue, an SNS topic. */
  resourceName?: string | null;
  /** The event's own service: a K8s label (app.kubernetes.io/name …), an Argo CD app, a CDEvents subject. */
  serviceHint: string | null;
  /** `owner/name` (GitHub) or `group/project` (GitLab) when the event belongs to a repository. */
  repo: string | null;
  /** Not yet scrubbed or cut: the intake does both. */
  diff: string | null;
  params: unknown;
  link: string | null;
  denied: boolean;
  errorCode: string | null;
  outcome: 'succeeded' | 'failed' | 'degraded' | null;
  /** A CHG-XXXXXXXX the write carried (annotation, session tag, commit trailer, payload field). */
  changeRef: string | null;
  /** Kubernetes service-account writes: `cluster · account · YYYY-MM-DDTHH` for the 50-object cap. */
  capBucket: string | null;
  /** The revert a person would run if nothing vouches for the write; drafted from the raw event (unmanaged/). */
  revert?: RevertDraft | null;
};

/** A bad item of a batch: reported, the good ones still recorded. */
export type Rejected = { index: number; field: string; message: string };

/** What an adapter read from one delivery or one pull page. */
export type Parsed = {
  events: ObservedEvent[];
  /** Event types we do not record (a GitHub `star`, a read in an audit batch …). */
  ignored: number;
  /** Left out by the noise rules (plumbing identities, spawned objects, dry runs, folded writes). */
  noise: number;
  rejected: Rejected[];
};

/** A connection as adapters see it: its kind-specific settings and the organisation's. */
export type AdapterContext = {
  sourceId: string;
  config: Record<string, unknown>;
  /** observed_settings.ci_namespaces */
  ciNamespaces: string[];
  now: Date;
};

export type IntakeRequest = {
  headers: Record<string, string | string[] | undefined>;
  /** The exact bytes sent (GitHub signs them). */
  rawBody: Buffer;
  /** The parsed JSON body (or null when the body is not JSON, e.g. a CloudEvent in binary mode with another type). */
  body: unknown;
};

/** A pushed source: how its sender proves itself, and how its body reads. */
export type IntakeAdapter = {
  kind: SourceKind;
  /** True when the request carries the connection's secret the way this sender sends it. */
  authenticate(req: IntakeRequest, secret: string): Promise<boolean>;
  /**
   * Read the body. Throws AppError badRequest(message, field) for a malformed body (nothing stored);
   * answers { events: [], ignored: 1 } for an event type it does not record; a `ping` is ignored too.
   */
  parse(req: IntakeRequest, ctx: AdapterContext): Parsed;
};

/** The window a pull reads. */
export type PullWindow = { since: Date; until: Date; maxRaw: number };

/** A source with an API: read its writes between since and until (at most maxRaw raw items). */
export type PullAdapter = {
  kind: SourceKind;
  pull(deps: PullDeps, ctx: AdapterContext & { credential: string | null }, window: PullWindow): Promise<Parsed>;
};

export type PullDeps = {
  /** The one outbound client (SSRF guard); GitHub/GitLab REST go through it. */
  outbound: import('../../platform/net/outbound.js').OutboundClient;
  /** Whether tests may reach loopback (the CloudTrail SDK's endpoint is judged with it). */
  allowLoopback: boolean;
};

/** An observed change as stored and answered. */
export type ObservedChange = {
  id: string; displayId: string; orgId: string; sourceId: string | null; source: SourceKind; kind: ObservedKind; eventId: string;
  title: string; occurredAt: string; receivedAt: string; principal: RecordPrincipal; action: string | null; resource: string | null;
  location: Location; service: string; serviceVia: 'event' | 'repo_map' | 'unmapped'; services: string[]; diff: string | null;
  params: unknown; link: string | null; denied: boolean; errorCode: string | null; outcome: ObservedEvent['outcome'];
  authorized: boolean | null; authorizedReason: string | null; capBucket: string | null; changeRef: string | null; status: 'recorded';
  /** Who made it, in five words, and why we say so. */
  principalClass: PrincipalClass | null; principalClassReason: string | null;
  /** What vouched for it (the reference rule's answer; `kept` when a person kept it); null when nothing did or it was not judged. */
  reference: ReferenceKind | 'kept' | null;
  revert: RevertDraft | null;
  /** The case it opened or joined (an unauthorized change, a denied attempt), if any. */
  caseId: string | null;
};

/** Counts of one delivery or pull: added to the connection's totals. */
export type IntakeCounts = { recorded: number; duplicate: number; enriched: number; noise: number; capped: number; denied: number; ignored: number; rejected: number; receipts: number };

/** The caps and limits of 000, named once. */
export const LIMITS = {
  /** Rows recorded per connection per tick, and raw items read. */
  rowsPerTick: 500,
  rawPerTick: 1500,
  /** Kubernetes objects per cluster · service account · UTC hour. */
  objectsPerAccountHour: 50,
  /** Diffs and request parameters after scrubbing. */
  diffChars: 2048,
  /** A drafted revert's manifest (the object as it was before a delete): past this it is not kept. */
  manifestBytes: 64 * 1024,
  /** A pull reads from its marker minus this overlap. */
  overlapMinutes: 20,
  defaultIntervalSeconds: 900,
  /** Editing a map relinks the records of this many hours. */
  relinkHours: 48,
  resourceMapGlobs: 200,
  servicesPerGlob: 10,
} as const;

/**
 * A pull may ask an API on the organisation's own network (GitHub Enterprise Server, a self-managed
 * GitLab, a CloudTrail VPC endpoint), as evidence sources and Alertmanagers may: private addresses
 * are allowed; loopback, link-local and cloud metadata never are (the outbound guard).
 */
export const PULLS_ALLOW_PRIVATE = true;

/** Values written here are stored as this; which key changed is kept. */
export const NOT_STORED = '[not stored]';
/** Namespaces that can never be CI namespaces. */
export const NEVER_CI_NAMESPACES = ['argocd', 'kube-system', 'kube-public', 'kube-node-lease'] as const;
export const DEFAULT_CI_NAMESPACES = ['flux-system', 'jenkins', 'gitlab-runner', 'tekton'] as const;
