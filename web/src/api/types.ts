// Names for the wire types of the changeledger HTTP API. The shapes come from the server's
// OpenAPI document (./schema.d.ts, written by `npm run generate:types`): change a route's schema,
// regenerate, and the UI sees the change where it compiles. Only the names live here.
import type { components, paths } from './schema';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON a route answers with status S (200 unless said). */
export type Answer<P extends keyof paths, M extends keyof paths[P], S extends number = 200> =
  paths[P][M] extends { responses: infer R } ? (S extends keyof R ? Json<R[S]> : never) : never;
/** The JSON body a route takes. */
export type Body<P extends keyof paths, M extends keyof paths[P]> =
  paths[P][M] extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;
type Schema<N extends keyof components['schemas']> = components['schemas'][N];
type Item<A> = A extends readonly (infer I)[] ? I : never;

// ---------- Sessions, audit, tokens ----------

export type Session = Answer<'/api/session', 'get'>;
export type Role = Session['role'];
export type AuditPage = Answer<'/api/audit', 'get'>;
export type AuditEvent = Item<AuditPage['items']>;
export type ActorKind = AuditEvent['actor']['kind'];
export type EventSource = AuditEvent['source'];
export type ChainVerification = Answer<'/api/audit/verify', 'get'>;
export type SettingsCapture = Answer<'/api/audit/settings-captures/{seq}', 'get'>;
export type PipelineListener = Answer<'/api/pipeline-listener', 'get'>;

export type Token = Item<Answer<'/api/tokens', 'get'>['items']>;
export type CreatedToken = Answer<'/api/tokens', 'post', 201>;
export type TokenScope = Item<Body<'/api/tokens', 'post'>['scopes']>;
export const tokenScopes = [
  'changes:read',
  'changes:write',
  'catalogue:read',
  'catalogue:write',
  'flags:read',
  'flags:write',
  'audit:read',
  'alerts:write',
  'alerts:read',
  'logs:write',
] as const satisfies readonly TokenScope[];

// ---------- Feature flags ----------

export type Flag = Answer<'/api/flags/{key}', 'get'>;
export type FlagState = Item<Flag['states']>;
export type FlagRule = Item<FlagState['rules']>;
export type FlagRollout = NonNullable<FlagState['rollout']>;
export type FlagType = Flag['type'];
export type FlagRisk = Flag['risk'];
export type RuleOp = FlagRule['op'];
export const flagTypes = ['boolean', 'string', 'number', 'json'] as const satisfies readonly FlagType[];
export const flagRisks = ['low', 'high'] as const satisfies readonly FlagRisk[];
export const ruleOps = ['equals', 'not_equals', 'in', 'not_in', 'starts_with', 'ends_with', 'contains'] as const satisfies readonly RuleOp[];

export type Environment = Item<Answer<'/api/environments', 'get'>['items']>;
export type ApprovalPolicy = Environment['approvalPolicy'];
export const approvalPolicies = ['none', 'high-risk', 'all'] as const satisfies readonly ApprovalPolicy[];

export type NewFlag = Body<'/api/flags', 'post'>;
export type FlagStatePatch = Body<'/api/flags/{key}/environments/{env}', 'put'>;
export type FlagRecordPage = Answer<'/api/flags/{key}/history', 'get'>;
export type FlagRecord = Item<FlagRecordPage['items']>;
export type FlagSource = FlagRecord['source'];
export type FlagWriteResult = Answer<'/api/flags/{key}/environments/{env}', 'put'>;
export type FlagProposal = Answer<'/api/flags/{key}/environments/{env}', 'put', 202>;
export type ChangeRequest = FlagProposal['changeRequest'];
export type ChangeRequestStatus = ChangeRequest['status'];
// PUT /api/flags/{key}/environments/{env} answers 200 with the applied change, or 202
// with a change request when the flag or the environment holds the change for approval.
export type FlagWriteAnswer =
  | { kind: 'applied'; result: FlagWriteResult }
  | { kind: 'proposed'; changeRequest: ChangeRequest };
export type BulkResult = Answer<'/api/flags/bulk', 'post'>;
export type ChangeDecision = Answer<'/api/flags/requests/{id}/approve', 'post'>;

// ---------- Service catalogue ----------

export type InventoryPage = Answer<'/api/catalog/inventory', 'get'>;
export type InventoryEntity = Item<InventoryPage['entities']>;
export type InventoryMeta = InventoryPage['meta'];
export type InventoryEntityAnswer = Answer<'/api/catalog/inventory/{key}', 'get'>;
export type NeighbourSide = InventoryEntity['uses'];
export type Neighbour = Item<NeighbourSide['hop1']>;
export type LinkVia = NonNullable<Neighbour['via']>;
export type CatalogueImportSummary = Answer<'/api/catalog/imports', 'post'>;
export type ImportCounts = CatalogueImportSummary['entities'];
export type CatalogueImportFormat = CatalogueImportSummary['format'];
export const linkVias = ['calls', 'runs-on', 'member'] as const satisfies readonly LinkVia[];
export const catalogueImportFormats = ['changeledger', 'backstage', 'kubernetes', 'jaeger', 'otlp'] as const satisfies readonly CatalogueImportFormat[];
// The kinds an entity may be; the wire types say only `string` (an entity's kind is open-ended there).
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

// ---------- Blast radius (POST /api/changes/preview-blast, preview-contracts) ----------

export type Blast = Schema<'Blast'>;
// A stored snapshot's answer also says where the map was completed from the live graph: the same shape.
export type StoredBlast = Blast;
export type BlastPreview = Answer<'/api/changes/preview-blast', 'post'>;
export type BlastRequest = Body<'/api/changes/preview-blast', 'post'>;
export type BlastComponentInput = Item<NonNullable<BlastRequest['components']>>;
export type SilenceMode = Blast['silenceInfra'];
export const silenceModes = ['dedicated', 'all', 'none'] as const satisfies readonly SilenceMode[];
export type ScopeCounts = Blast['counts'];
export type MapCard = Item<Blast['nodes']>;
export type MapRole = MapCard['role'];
export type KeyPair = Item<NonNullable<Blast['edges']>>;
export type NotSilenced = Item<Blast['notSilenced']>;
export type NotSilencedKind = NotSilenced['kind'];
export type BlastInfra = Item<NonNullable<Blast['infra']>>;
export type EntityRef = Item<BlastPreview['unknownTierComponents']>;
export type ComponentMatch = Item<BlastPreview['resolved']>['match'];
export type CriticalitySource = BlastPreview['criticalitySource'];
export type Tier = NonNullable<BlastPreview['criticality']>;
export const tiers = ['critical', 'important', 'standard'] as const satisfies readonly Tier[];
export type BlastContracts = Answer<'/api/changes/preview-contracts', 'post'>;
export type EdgeContract = Item<BlastContracts['edges']>;
export type ContractRoute = Item<EdgeContract['routes']>;

// ---------- Changes (GET/POST /api/changes, …/approvals, change settings) ----------

export type Change = Schema<'Change'>;
export type ChangeStatus = Change['status'];
export type ChangeKind = Change['kind'];
export type Outcome = NonNullable<Change['outcome']>;
export type ResolvedComponent = Item<Change['components']>;
export type UnresolvedComponent = Item<Change['unresolved']>;
export type TicketRef = NonNullable<Change['ticket']>;
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
] as const satisfies readonly ChangeStatus[];
export const changeKinds = ['deploy', 'config', 'infra', 'other'] as const satisfies readonly ChangeKind[];
export const outcomes = ['success', 'partial', 'rolled_back', 'unknown'] as const satisfies readonly Outcome[];
export type ChangeInput = Body<'/api/changes', 'post'>;
export type PipelineInfo = NonNullable<ChangeInput['pipeline']>;
export const pipelineFields = ['pipeline', 'run', 'runUrl', 'commit', 'version', 'environment', 'repo'] as const satisfies readonly (keyof PipelineInfo)[];
export type RegisteredChange = Answer<'/api/changes', 'post', 201>;
export type ChangeDetail = Answer<'/api/changes/{id}', 'get'>;
export type ChangeReport = Item<NonNullable<ChangeDetail['reports']>>;
export type ChangeStatusAnswer = Answer<'/api/changes/{id}/status', 'get'>;
export type ApprovalView = Answer<'/api/changes/{id}/approvals', 'get'>;
export type ApprovalDecision = Item<ApprovalView['approvals']>;
export type MappingEntry = Item<Body<'/api/changes/{id}/mappings', 'post'>['entries']>;

export type ChangeSettingsView = Answer<'/api/organizations/{id}/change-settings', 'get'>;
export type ChangeSettings = ChangeSettingsView['settings'];
export type ChangeSettingsPatch = Body<'/api/organizations/{id}/change-settings', 'put'>;
export type ApprovalMode = ChangeSettings['approvalRequired'];
export const approvalModes = ['none', 'api', 'all'] as const satisfies readonly ApprovalMode[];
export type Member = Item<Answer<'/api/organizations/{id}/members', 'get'>['members']>;
export type MemberStatus = Member['status'];
export type MemberInvite = Body<'/api/organizations/{id}/members', 'post'>;
/** An invitation or a new link: mailed, or the link itself this once (signInUrl). */
export type MemberLinkSent = Answer<'/api/organizations/{id}/members', 'post', 201>;

/** The change list's filters as the page keeps them (not a wire type). */
export type ChangeListFilters = {
  status: ChangeStatus[]; criticality: Tier[]; mine: boolean; q: string;
  // The window reaches into [since, until] (24h, 7d or an ISO time); awaiting me: my decision.
  since?: string; until?: string; awaiting?: 'me'; component?: string; limit?: number;
};

// ---------- Deliveries (GET /api/changes/{id}/deliveries, callback-test, ticketing-test) ----------

export type ChangeDeliveries = Answer<'/api/changes/{id}/deliveries', 'get'>;
export type Delivery = Item<ChangeDeliveries['deliveries']>;
export type DeliveryState = Delivery['state'];
export type DeliveryAttempt = Item<Delivery['attemptLog']>;
export type TicketKind = TicketRef['kind'];
// GET /api/deliveries: a delivery of the organisation in one state, with its change.
export type OrgDelivery = Omit<Delivery, 'attemptLog'> & { change: { id: string; displayId: string; title: string } };
export const ticketKinds = ['jira', 'asana', 'servicenow', 'webhook'] as const satisfies readonly TicketKind[];
export type TicketTest = Answer<'/api/organizations/{id}/change-settings/ticketing-test', 'post'>;
export type TicketTestStep = Item<TicketTest['steps']>;
// What PUT change-settings and ticketing-test take: one schema for every kind on the wire; the
// form fills the fields of one kind, or {kind: none}.
export type TicketingInput = NonNullable<ChangeSettingsPatch['ticketing']>;
// As GET change-settings answers it: the kind's fields, its secret masked.
export type TicketingView = NonNullable<ChangeSettings['ticketing']>;

// ---------- Alerts (GET /api/alerts, /api/changes/{id}/alerts, Settings → Alert sources) ----------

export type AlertView = Schema<'Alert'>;
export type AlertState = AlertView['state'];
export const alertStates = ['firing', 'resolved'] as const satisfies readonly AlertState[];
export type AlertSubject = AlertView['subject'];
export type AlertHeldBy = NonNullable<AlertView['heldBy']>;
export type AlertTransition = Schema<'AlertTransition'>;
export type AlertList = Answer<'/api/alerts', 'get'>;
export type AlertDetail = Answer<'/api/alerts/{fingerprint}', 'get'>;
/** The Alerts page's filters as it keeps them (not a wire type: held goes out as held=true). */
export type AlertListFilters = { subject?: string; state?: AlertState; change?: string; held?: boolean };

export type Suppression = Schema<'Suppression'>;
export type HoldState = Suppression['state'];
export type HoldMode = NonNullable<Suppression['mode']>;
export const holdModes = ['relay', 'silence'] as const satisfies readonly HoldMode[];
export type SilenceView = Item<Suppression['silences']>;
export type ChangeAlerts = Answer<'/api/changes/{id}/alerts', 'get'>;
export type ChangeAlert = Item<ChangeAlerts['alerts']>;
export type HeldOutcome = NonNullable<ChangeAlert['outcome']>;

export type AlertSettings = Answer<'/api/alert-settings', 'get'>;
export type WireLabelRule = Item<AlertSettings['labelMapping']>;
export type LabelRuleKind = WireLabelRule['as'];
export const labelRuleKinds = ['service', 'source', 'pod', 'asset'] as const satisfies readonly LabelRuleKind[];
// The route takes any list and checks each rule itself (its refusals name the row): the shape sent.
export type LabelRule =
  | { labels: string[]; as: 'service' | 'source' | 'pod' }
  | { labels: string[]; as: 'asset'; kinds: string[] };
export type AlertSettingsPatch = Omit<Body<'/api/alert-settings', 'put'>, 'labelMapping'> & { labelMapping?: LabelRule[] | null };

export type Alertmanager = Schema<'Alertmanager'>;
export type AlertmanagerAuthKind = Alertmanager['authKind'];
export const alertmanagerAuthKinds = ['none', 'bearer', 'basic'] as const satisfies readonly AlertmanagerAuthKind[];
export type AlertmanagerInput = Body<'/api/alertmanagers', 'post'>;
export type AlertmanagerAuthInput = NonNullable<AlertmanagerInput['auth']>;
export type AlertmanagerPatch = Body<'/api/alertmanagers/{id}', 'put'>;
export type AlertmanagerTest = Answer<'/api/alertmanagers/{id}/test', 'post'>;

export type AlertDestination = Schema<'AlertDestination'>;
export type DestinationKind = AlertDestination['kind'];
export const destinationKinds = ['webhook', 'email', 'slack', 'pagerduty'] as const satisfies readonly DestinationKind[];
export type AlertDestinationInput = Body<'/api/alert-destinations', 'post'>;
export type CreatedDestination = Answer<'/api/alert-destinations', 'post', 201>;
export type DestinationTest = Answer<'/api/alert-destinations/{id}/test', 'post'>;
export type ReceiversSnippet = Answer<'/api/alert-settings/receivers', 'get'>;

// ---------- Evidence (Settings → Evidence; a change's report, whose evidence is report-types.ts) ----------

export type EvidenceSource = Schema<'EvidenceSource'>;
export type EvidenceSourceKind = EvidenceSource['kind'];
export const evidenceSourceKinds = ['prometheus', 'loki', 'elasticsearch', 'otlp'] as const satisfies readonly EvidenceSourceKind[];
export type SourceAuthKind = EvidenceSource['authKind'];
export const sourceAuthKinds = ['none', 'bearer', 'basic'] as const satisfies readonly SourceAuthKind[];
export type EvidenceSourceInput = Body<'/api/evidence-sources', 'post'>;
export type EvidenceSourcePatch = Body<'/api/evidence-sources/{id}', 'put'>;
export type SourceTest = Answer<'/api/evidence-sources/{id}/test', 'post'>;
export type EvidenceSettings = Answer<'/api/evidence-settings', 'get'>;
export type EvidenceSettingsPatch = Body<'/api/evidence-settings', 'put'>;
export type Thresholds = EvidenceSettings['thresholds'];
export type RedTemplates = EvidenceSettings['redTemplates'];
export type RedPreset = keyof EvidenceSettings['presets'];
export type RedQueries = RedTemplates['queries'];
export type StoredRedTemplates = NonNullable<EvidenceSettings['redTemplatesStored']>;
export type AiProvider = Schema<'AiProvider'>;
export type AiProviderKind = AiProvider['kind'];
export const aiProviderKinds = ['openai', 'anthropic'] as const satisfies readonly AiProviderKind[];
export type AiProviderInput = Body<'/api/ai-provider', 'put'>;
export type AiProviderTest = Answer<'/api/ai-provider/test', 'post'>;
export type ReportJson = Answer<'/api/changes/{id}/report.json', 'get'>;

