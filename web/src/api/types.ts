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

export type EventSource = 'ui' | 'api' | 'cli' | 'webhook' | 'scheduler';

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
