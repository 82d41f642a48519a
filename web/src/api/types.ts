// Wire types of the changeledger HTTP API (JSON, camelCase). Kept in one file so a
// contract change shows up as a single diff on the UI side.

export type Role = 'owner' | 'admin' | 'member';

export type Session = {
  user: { id: string; email: string; displayName: string; hasPassword?: boolean };
  organization: { id: string; name: string; slug: string };
  role: Role;
  csrfToken: string;
};

export type ActorKind = 'user' | 'token' | 'service' | 'automation' | 'system';

export type EventSource = 'ui' | 'api' | 'cli' | 'webhook' | 'scheduler' | 'system';

export type AuditEvent = {
  seq: number;
  occurredAt: string;
  actor: {
    kind: ActorKind;
    id: string | null;
    name: string;
    automation?: string | null;
    trigger?: string | null;
  };
  action: string;
  target: { type: string; id: string };
  correlationId: string | null;
  requestId: string | null;
  source: EventSource;
  data: Record<string, unknown>;
  schemaVersion: number;
  prevHash: string;
  hash: string;
};

export type AuditPage = { items: AuditEvent[]; nextCursor: string | null };

export type ChainVerification = {
  ok: boolean;
  checked: number;
  head: { seq: number; hash: string } | null;
  firstBrokenSeq: number | null;
  reason: string | null;
};

export const tokenScopes = [
  'changes:read',
  'changes:write',
  'catalogue:read',
  'catalogue:write',
  'flags:read',
  'flags:write',
  'audit:read',
] as const;

export type TokenScope = (typeof tokenScopes)[number];

export type Token = {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  owner: { id: string; email: string };
};

export type CreatedToken = { token: Token; secret: string };

// ---------- Feature flags ----------

export const flagTypes = ['boolean', 'string', 'number', 'json'] as const;
export type FlagType = (typeof flagTypes)[number];

export const flagRisks = ['low', 'high'] as const;
export type FlagRisk = (typeof flagRisks)[number];

export const ruleOps = ['equals', 'not_equals', 'in', 'not_in', 'starts_with', 'ends_with', 'contains'] as const;
export type RuleOp = (typeof ruleOps)[number];

export const approvalPolicies = ['none', 'high-risk', 'all'] as const;
export type ApprovalPolicy = (typeof approvalPolicies)[number];

export type FlagSource = 'ui' | 'api' | 'cli' | 'gitops' | 'automation';

export type Environment = {
  key: string;
  name: string;
  position: number;
  approvalPolicy: ApprovalPolicy;
  approvalsNeeded: number;
};

export type FlagRule = { attribute: string; op: RuleOp; values: string[]; value: unknown };

export type FlagRollout = { percentage: number; bucketBy: string };

export type FlagState = {
  env: string;
  enabled: boolean;
  value: unknown;
  rules: FlagRule[];
  rollout: FlagRollout | null;
  version: number;
  updatedAt: string;
};

export type Flag = {
  key: string;
  type: FlagType;
  description: string;
  ownerService: string | null;
  risk: FlagRisk;
  tags: string[];
  offValue: unknown;
  // Approvals every change needs whatever the environment; 0 follows each environment's policy.
  approvalsNeeded: number;
  createdAt: string;
  updatedAt: string;
  states: FlagState[];
};

export type NewFlag = {
  key: string;
  type: FlagType;
  risk: FlagRisk;
  description?: string;
  ownerService?: string;
  tags?: string[];
  reason?: string;
};

export type FlagStatePatch = {
  enabled?: boolean;
  value?: unknown;
  rules?: FlagRule[];
  rollout?: FlagRollout | null;
};

export type FlagRecord = {
  seq: number;
  ts: string;
  change: 'created' | 'updated' | 'unchanged' | 'deleted';
  flag: string;
  env: string | null;
  from: unknown;
  to: unknown;
  fields: string[];
  /** For a creation: what the flag was created as; else null. */
  definition?: unknown;
  actor: string;
  actorDetail: {
    kind: string;
    id: string | null;
    name: string;
    automation?: string | null;
    trigger?: string | null;
  };
  reason: string;
  approvers: string[];
  source: FlagSource;
  correlationId: string | null;
  requestId: string | null;
  gitops: { commitSha: string; deployRun: string | null } | null;
  schemaVersion: number;
  hash: string;
};

export type FlagRecordPage = { items: FlagRecord[]; nextCursor: string | null };

export type FlagWriteResult = {
  flag: string;
  env: string;
  result: 'changed' | 'unchanged';
  record: FlagRecord;
  state: FlagState;
};

export type ChangeRequestStatus = 'proposed' | 'applied' | 'rejected' | 'expired';

export type ChangeRequest = {
  id: string;
  flag: string;
  env: string;
  patch: FlagStatePatch;
  reason: string;
  status: ChangeRequestStatus;
  approvalsNeeded: number;
  approvals: { user: { id: string; email: string }; at: string }[];
  proposer: { kind: string; id: string | null; name: string; automation?: string | null; trigger?: string | null };
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  rejection: { by: string; comment: string } | null;
  recordSeq: number | null;
};

export type FlagProposal = { flag: string; env: string; result: 'proposed'; changeRequest: ChangeRequest };

// PUT /api/flags/{key}/environments/{env} answers 200 with the applied change, or 202
// with a change request when the flag or the environment holds the change for approval.
export type FlagWriteAnswer =
  | { kind: 'applied'; result: FlagWriteResult }
  | { kind: 'proposed'; changeRequest: ChangeRequest };

export type BulkResult = { correlationId: string; results: (FlagWriteResult | FlagProposal)[] };

export type ChangeDecision = { changeRequest: ChangeRequest; result?: FlagWriteResult | null };

// ---------- Service catalogue ----------

export const entityKinds = [
  'service',
  'instance',
  'database',
  'schema',
  'external',
  'vm',
  'host',
  'pod',
  'node',
  'datastore',
  'device',
  'volume',
  'business-process',
  'workload',
] as const;
export type EntityKind = (typeof entityKinds)[number];

export const linkVias = ['calls', 'runs-on', 'member'] as const;
export type LinkVia = (typeof linkVias)[number];

export const catalogueImportFormats = ['changeledger', 'backstage', 'kubernetes', 'jaeger', 'otlp'] as const;
export type CatalogueImportFormat = (typeof catalogueImportFormats)[number];

// `via` and `stale` are only set on hop-1 neighbours.
export type Neighbour = { key: string; kind: string; name: string; via?: LinkVia; stale?: true };

export type NeighbourSide = { hop1: Neighbour[]; hop2: Neighbour[] };

export type InventoryEntity = {
  key: string;
  kind: string;
  name: string;
  stale: boolean;
  engine?: string;
  // Services only, and only when the catalogue knows any of it.
  meta?: { tier: string | null; owner: string | null; team: string | null; environment: string | null };
  uses: NeighbourSide;
  usedBy: NeighbourSide;
  // A neighbour list hit 200 entries or the walk 2,000 edges.
  truncated?: true;
};

export type InventoryMeta = {
  hops: number;
  includeStale: boolean;
  staleAfterDays: number | null;
  lastSweepAt: string | null;
  truncatedEntities: number;
  kinds: Record<string, number>;
};

export type InventoryPage = {
  format: string;
  // The snapshot (at most 60 s old) the page was cut from: when it changes between two
  // pages of one listing, the listing starts again at offset 0.
  snapshotAt: string;
  total: number;
  offset: number;
  limit: number;
  entities: InventoryEntity[];
  meta: InventoryMeta;
};

export type InventoryEntityAnswer = { format: string; snapshotAt: string; entity: InventoryEntity; meta: InventoryMeta };

export type ImportCounts = { added: number; changed: number; unchanged: number; stale: number };

export type CatalogueImportSummary = {
  format: CatalogueImportFormat;
  source: string;
  entities: ImportCounts;
  links: ImportCounts;
  /** Routes (contracts) from traces. */
  routes: number;
  ignored: number;
  warnings: string[];
};

// ---------- Blast radius preview (POST /api/changes/preview-blast, preview-contracts) ----------

export const silenceModes = ['dedicated', 'all', 'none'] as const;
export type SilenceMode = (typeof silenceModes)[number];

export type Tier = 'critical' | 'important' | 'standard';

export type EntityRef = { key: string; kind: string; name: string };

// One line of the editor: a name or a key (resolved like a query), or a key as given.
export type BlastComponentInput = { kind?: string; key?: string; query?: string };

export type BlastRequest = {
  components?: BlastComponentInput[];
  lines?: string;
  hops?: 1 | 2;
  // null (or absent): the organisation's default.
  silenceInfra?: SilenceMode | null;
  title?: string;
};

export type ScopeCounts = {
  services: number;
  databases: number;
  schemas: number;
  items: number;
  workloads: number;
  vms: number;
  hosts: number;
  nodes: number;
  datastores: number;
  devices: number;
  volumes: number;
  pods: number;
  shared: number;
  capped: number;
  externals: number;
  sources: number;
};

export type MapRole = 'component' | 'caller' | 'callee' | 'both' | 'infra';

// A card of the dependency map. Infrastructure cards carry the hop of the service they
// were reached from; `shared` marks infrastructure left alerting (other services run on it).
export type MapCard = EntityRef & {
  role: MapRole;
  hop: number;
  silenced: boolean;
  shared?: true;
  details?: { tier?: string; engine?: string; instance?: EntityRef; workloadKind?: string; pods?: number };
};

export type KeyPair = { from: string; to: string };

export type NotSilencedKind =
  | 'monitors'
  | 'multi-service-source'
  | 'external'
  | 'unseen'
  | 'shared-infra'
  | 'capped'
  | 'infra-off';

export type NotSilenced = {
  kind: NotSilencedKind;
  name: string;
  why: string;
  // Entity refs ({key, kind, name}) or, for monitoring sources, {id, name, …}.
  items: Record<string, unknown>[];
  count: number;
};

export type BlastInfra = EntityRef & {
  silenced: boolean;
  shared: boolean;
  capped?: boolean;
  pods?: number;
  hop: number;
  depth: number;
  // The keys from a service of the change down to this item.
  reason?: string[];
};

export type Blast = {
  format: string;
  scope: { serviceKeys: string[]; assetKeys: string[]; hvEntityKeys: string[]; sourceIds: string[]; integrationIds: string[] };
  counts: ScopeCounts;
  silenceInfra: SilenceMode;
  hops: number;
  notSilenced: NotSilenced[];
  services?: (EntityRef & { hop: number; side: 'component' | 'caller' | 'callee' | 'both'; reason?: string[] })[];
  infra?: BlastInfra[];
  // Call edges among the services (from calls to).
  edges?: KeyPair[];
  nodes: MapCard[];
  // Runs-on links among the cards (from runs on to).
  lineage: Array<KeyPair & { through?: string }>;
  refused: string | null;
  large: boolean;
  warnings: string[];
  mapInfra?: 'live';
  edgesDropped?: boolean;
};

export type ComponentMatch = 'exact' | 'alias' | 'manual' | 'key';

export type CriticalitySource = 'components' | 'blast' | 'none' | 'pending';

export type BlastPreview = {
  blast: Blast;
  resolved: (EntityRef & { match: ComponentMatch; query?: string; seen: boolean })[];
  // A line that is not exactly one thing, with up to 10 candidates.
  unresolved: { query: string; candidates: EntityRef[] }[];
  match: { matched: number; unresolved: string[] };
  // Set when a save would be refused (422).
  refused: string | null;
  // 100 services or more: a save needs confirmation.
  large: boolean;
  counts: ScopeCounts;
  silenceInfra: SilenceMode;
  criticality: Tier | null;
  criticalitySource: CriticalitySource;
  componentTiers: Record<string, Tier | null>;
  unknownTierComponents: EntityRef[];
  scopeLine: string;
  scopeBreakdown: string;
};

export type ContractRoute = {
  method: string | null;
  route: string;
  calls: number;
  errorShare: number;
  p95Ms: number;
  samplePath: string | null;
  lastSeen: string;
  probe: boolean;
  // The same route is also reached from outside the estate.
  externalIngress: boolean;
};

export type EdgeContract = {
  caller: { key: string; name: string };
  callee: { key: string; name: string };
  routes: ContractRoute[];
  // "no traces seen for this edge" when no trace showed it.
  note?: string;
};

export type BlastContracts = {
  edges: EdgeContract[];
  withContract: number;
  total: number;
  routes: number;
  header: string;
};

// ---------- Changes (GET/POST /api/changes, …/approvals, change settings) ----------

export const changeStatuses = [
  'draft',
  'scheduled',
  'pending_mapping',
  'pending_approval',
  'approved',
  'rejected',
  'expired',
  'active',
  'evaluating',
  'reported',
  'cancelled',
] as const;
export type ChangeStatus = (typeof changeStatuses)[number];

export const changeKinds = ['deploy', 'config', 'infra', 'other'] as const;
export type ChangeKind = (typeof changeKinds)[number];

export const outcomes = ['success', 'partial', 'rolled_back', 'unknown'] as const;
export type Outcome = (typeof outcomes)[number];

export const tiers = ['critical', 'important', 'standard'] as const;

export const pipelineFields = ['pipeline', 'run', 'runUrl', 'commit', 'version', 'environment', 'repo'] as const;
export type PipelineInfo = Partial<Record<(typeof pipelineFields)[number], string>>;

export type ResolvedComponent = EntityRef & { match: ComponentMatch; query?: string; seen: boolean };
export type UnresolvedComponent = { query: string; candidates: EntityRef[] };

export type Change = {
  id: string;
  displayId: string;
  title: string;
  kind: ChangeKind;
  description: string | null;
  ticketUrl: string | null;
  status: ChangeStatus;
  outcome: Outcome | null;
  impact: string | null;
  hops: number;
  windowStart: string;
  windowEnd: string;
  evidenceMinutes: number;
  maxDurationMinutes: number | null;
  autoStart: boolean;
  releaseHeld: boolean;
  silenceInfra: SilenceMode | null;
  pipeline: PipelineInfo | null;
  callbackUrl: string | null;
  recipients: string[];
  components: ResolvedComponent[];
  unresolved: UnresolvedComponent[];
  criticality: Tier | null;
  criticalitySource: CriticalitySource | null;
  componentTiers: Record<string, Tier | null>;
  gated: boolean;
  quorum: number | null;
  owner: { id: string; email: string; name: string };
  viaTokenId: string | null;
  approvalExpiresAt: string | null;
  startDeadline: string | null;
  decidedAt: string | null;
  rejectionReason: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  aborted: boolean;
  notes: string | null;
  // Why it was rejected, expired or cancelled.
  endReason: string | null;
  // Who said the outcome: the window running out leaves it to a later pipeline call.
  outcomeBy: 'pipeline' | 'person' | 'window' | null;
  evaluateAt: string | null;
  reportedAt: string | null;
  blastVersion: number;
  reportVersion: number;
  // The ticket opened for it in the organisation's ticket destination.
  ticket?: TicketRef | null;
  createdAt: string;
  updatedAt: string;
};

export type ChangeInput = {
  title: string;
  kind?: ChangeKind;
  description?: string;
  components: BlastComponentInput[];
  hops?: 1 | 2;
  startNow?: boolean;
  windowStart?: string;
  windowEnd?: string;
  evidenceMinutes?: number;
  maxDurationMinutes?: number;
  autoStart?: boolean;
  recipients?: string[];
  releaseHeld?: boolean;
  confirmLarge?: boolean;
  silenceInfra?: SilenceMode | null;
  draft?: boolean;
};

export type RegisteredChange = {
  change: Change;
  blast: Blast | null;
  match: { matched: number; unresolved: string[] };
  approval?: Record<string, unknown>;
  mapping?: { unresolved: UnresolvedComponent[]; hint: string };
};

// Blast radius answers of a stored snapshot say where the map was completed from the live graph.
export type StoredBlast = Blast & { infraFromLive?: boolean; edgesFromLive?: boolean; derivedFromLive?: boolean };

export type ChangeReport = {
  version: number;
  impact: string;
  outcome: Outcome | null;
  summary: string;
  body: Record<string, unknown>;
  createdAt: string;
};

export type ChangeDetail = {
  change: Change;
  blast?: StoredBlast | null;
  // With the blast: the scope line and its per-kind tooltip, worded by the server.
  scopeLine?: string;
  scopeBreakdown?: string;
  events?: AuditEvent[];
  reports?: ChangeReport[];
};

export type ApprovalDecision = {
  userId: string;
  name: string;
  decision: 'approved' | 'rejected';
  comment: string | null;
  at: string;
  critical: boolean;
};

export type ApprovalView = {
  status: ChangeStatus;
  gated: boolean;
  required: number | null;
  approvals: ApprovalDecision[];
  approvers: { userId: string; name: string; requester: boolean; critical: boolean }[];
  canApprove: boolean;
  canClassify: boolean;
  isRequester: boolean;
  isApprover: boolean;
  mine: { decision: 'approved' | 'rejected'; comment: string | null; at: string } | null;
  expiresAt: string | null;
  criticality: Tier | null;
  criticalitySource: CriticalitySource | null;
  criticalRequired: boolean;
  criticalApproved: boolean | null;
  criticalApprovers: { userId: string; name: string; requester: boolean }[];
  blockedOn: 'classification' | 'critical_approver' | null;
  blockedReason: string | null;
  unknownTierComponents: EntityRef[];
};

export type MappingEntry =
  | { input: string; key: string; kind?: string; remember?: boolean }
  | { input: string; createService: { name?: string }; remember?: boolean };

export const approvalModes = ['none', 'api', 'all'] as const;
export type ApprovalMode = (typeof approvalModes)[number];

export type ChangeSettings = {
  approvalRequired: ApprovalMode;
  quorum: number;
  approvalExpiryMinutes: number;
  startTimeoutMinutes: number;
  surveillanceMinutes: number;
  completionRecipients: string[];
  allowPrivateCallbacks: boolean;
  silenceInfra: SilenceMode;
  updatedAt: string | null;
  // The one ticket destination, its secret shown as •••• with hasSecret.
  ticketing: TicketingView | null;
  ticketingKind: TicketKind | 'none';
  // The stored secret cannot be opened with the server's data key: it must be entered again.
  ticketingUnreadable: boolean;
};

export type ChangeSettingsPatch = Partial<Omit<ChangeSettings, 'updatedAt' | 'ticketing' | 'ticketingKind' | 'ticketingUnreadable'>> & {
  ticketing?: TicketingInput;
};

export type ChangeSettingsView = {
  settings: ChangeSettings;
  approvers: { userId: string; email: string; name: string; critical: boolean }[];
  criticalApprovers: { userId: string; name: string }[];
  limits: Record<string, { min?: number; max: number }>;
  warning: string | null;
  criticalWarning: string | null;
};

export type Member = { userId: string; email: string; name: string; role: Role };

export type ChangeListFilters = { status: ChangeStatus[]; criticality: Tier[]; mine: boolean; q: string };

// ---------- Deliveries (GET /api/changes/{id}/deliveries, callback-test, ticketing-test) ----------

export const ticketKinds = ['jira', 'asana', 'servicenow', 'webhook'] as const;
export type TicketKind = (typeof ticketKinds)[number];

export type TicketRef = { kind: TicketKind; id: string; key: string; url: string | null };

// As GET change-settings answers it: the kind's fields, its secret masked.
export type TicketingView = { kind: TicketKind; hasSecret: boolean } & Record<string, unknown>;

// What PUT change-settings and ticketing-test take: the fields of one kind, or {kind: none}.
export type TicketingInput =
  | { kind: 'none' }
  | { kind: 'jira'; baseUrl: string; deployment: 'cloud' | 'datacenter'; email?: string; apiToken: string; projectKey: string; issueType: string; labels: string[] }
  | { kind: 'asana'; apiUrl: string; token: string; workspaceGid: string; projectGid: string; completeOnReport: boolean }
  | { kind: 'servicenow'; instanceUrl: string; username: string; password: string; changeType: 'normal' | 'standard'; assignmentGroup: string | null; closeOnReport: boolean }
  | { kind: 'webhook'; url: string; secret: string };

export type TicketTestStep = { name: string; ok: boolean; status: number | null; detail: string | null };
export type TicketTest = { kind: TicketKind; ok: boolean; message: string; steps: TicketTestStep[] };

export type DeliveryState = 'pending' | 'retrying' | 'delivered' | 'failed';

export type DeliveryAttempt = {
  attempt: number;
  at: string;
  httpStatus: number | null;
  durationMs: number;
  error: string | null;
  via: 'server';
  address: string | null;
};

export type Delivery = {
  deliveryId: string;
  event: string;
  action: 'create' | 'update' | 'test' | null;
  state: DeliveryState;
  attempts: number;
  httpStatus: number | null;
  error: string | null;
  // Something the step went through with but a person should know (ServiceNow: "state not changed …").
  note: string | null;
  via: 'server';
  at: string;
  nextAttemptAt: string | null;
  attemptLog: DeliveryAttempt[];
};

export type ChangeDeliveries = {
  callbackUrl: string | null;
  ticket: TicketRef | null;
  deliveries: (Delivery & { channel: 'callback' | 'ticket' })[];
};
