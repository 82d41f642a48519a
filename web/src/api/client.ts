import type {
  AlertDestination,
  AlertDestinationInput,
  AlertDetail,
  AlertList,
  AlertListFilters,
  Alertmanager,
  AlertmanagerInput,
  AlertmanagerPatch,
  AlertmanagerTest,
  AlertSettings,
  AlertSettingsPatch,
  DestinationTest,
  ApprovalView,
  AuditPage,
  ChangeAlerts,
  CreatedDestination,
  ReceiversSnippet,
  Suppression,
  BlastContracts,
  KeyPair,
  BlastPreview,
  BlastRequest,
  BulkResult,
  CatalogueImportFormat,
  CatalogueImportSummary,
  ChainVerification,
  SettingsCapture,
  Change,
  ChangeDecision,
  ChangeDetail,
  ChangeInput,
  ChangeListFilters,
  ChangeRequest,
  ChangeRequestStatus,
  ChangeDeliveries,
  ChangeSettingsPatch,
  ChangeSettingsView,
  Delivery,
  CreatedToken,
  Environment,
  Flag,
  FlagProposal,
  FlagRecordPage,
  FlagStatePatch,
  FlagWriteAnswer,
  FlagWriteResult,
  InventoryEntityAnswer,
  InventoryPage,
  MappingEntry,
  Member,
  MemberInvite,
  MemberLinkSent,
  NewFlag,
  OrgDelivery,
  Outcome,
  RegisteredChange,
  Role,
  PipelineListener,
  Session,
  TicketTest,
  TicketingInput,
  Tier,
  Token,
} from './types';

// A deliberately tiny fetch wrapper: same-origin JSON, the CSRF header on unsafe
// methods, and one error type carrying the server's `{error, field}` shape.

export class ApiError extends Error {
  readonly status: number;
  readonly field: string | undefined;
  // The whole error answer: some carry more than {error, field} (candidates of an
  // unrecognised name, needsConfirm and the counts of a large change, a refusal).
  readonly details: Record<string, unknown>;

  constructor(status: number, message: string, field?: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.field = field;
    this.details = details;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// The CSRF token lives in memory only: it comes with every session answer and must
// not outlive the page (the session cookie itself is HttpOnly and invisible to us).
let csrfToken: string | null = null;
let unauthorizedHandler: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

// Called when a signed-in request comes back 401 (session expired or revoked), so the
// app can drop its session and send the user to the sign-in page.
export function onUnauthorized(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

// `body` goes out as JSON; `text` as is, under its own content type (catalogue files).
type RequestOptions = {
  body?: unknown;
  text?: { content: string; contentType: string };
  signal?: AbortSignal;
  quietUnauthorized?: boolean;
};

export async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  return (await send<T>(method, path, options)).body;
}

// Like request, but also answers the status: some writes mean different things by
// 200 (done) and 202 (accepted for approval).
async function send<T>(method: Method, path: string, options: RequestOptions = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET' && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.text !== undefined) headers['content-type'] = options.text.contentType;

  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  else if (options.text !== undefined) init.body = options.text.content;
  if (options.signal !== undefined) init.signal = options.signal;

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'Cannot reach the server. Check your connection and try again.');
  }

  if (response.ok) {
    if (response.status === 204) return { status: 204, body: undefined as T };
    const text = await response.text();
    return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  }

  const { message, field, details } = await readError(response);
  if (response.status === 401 && options.quietUnauthorized !== true) unauthorizedHandler?.();
  throw new ApiError(response.status, message, field, details);
}

async function readError(response: Response): Promise<{ message: string; field?: string; details: Record<string, unknown> }> {
  // A proxy in front of the server may answer with HTML; fall back to the status text
  // rather than showing a JSON parse error to the user.
  try {
    const parsed = (await response.json()) as unknown;
    const body = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    const message = typeof body['error'] === 'string' ? body['error'] : fallbackMessage(response);
    return typeof body['field'] === 'string' ? { message, field: body['field'], details: body } : { message, details: body };
  } catch {
    return { message: fallbackMessage(response), details: {} };
  }
}

function fallbackMessage(response: Response): string {
  return `Request failed: ${String(response.status)} ${response.statusText}`.trim();
}

export type AuditFilters = {
  action?: string;
  actor?: string;
  targetType?: string;
  targetId?: string;
  correlationId?: string;
  since?: string;
  until?: string;
  q?: string;
};

export const auditFilterKeys = [
  'action',
  'actor',
  'targetType',
  'targetId',
  'correlationId',
  'since',
  'until',
  'q',
] as const satisfies readonly (keyof AuditFilters)[];

export function auditQuery(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const key of auditFilterKeys) {
    const value = filters[key]?.trim();
    if (value !== undefined && value !== '') params.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

export type FlagAuditFilters = {
  namespace?: string;
  // The owning service: its catalogue key (svc:payments-api) or its name.
  service?: string;
  actor?: string;
  env?: string;
  since?: string;
  until?: string;
};

export const flagAuditFilterKeys = ['namespace', 'service', 'actor', 'env', 'since', 'until'] as const satisfies readonly (keyof FlagAuditFilters)[];

export function flagAuditQuery(filters: FlagAuditFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const key of flagAuditFilterKeys) {
    const value = filters[key]?.trim();
    if (value !== undefined && value !== '') params.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

// How the inventory walks the graph: one or two hops, and whether call edges a source
// no longer reports (stale) count.
export type CatalogueWalk = { hops: 1 | 2; includeStale: boolean };

export type CatalogueListing = CatalogueWalk & { kinds: readonly string[]; q: string };

function walkParams(walk: CatalogueWalk): URLSearchParams {
  return new URLSearchParams({ hops: String(walk.hops), includeStale: walk.includeStale ? '1' : '0' });
}

export function inventoryQuery(listing: CatalogueListing, offset: number, limit: number): string {
  const params = new URLSearchParams();
  if (listing.kinds.length > 0) params.set('kind', listing.kinds.join(','));
  const q = listing.q.trim();
  if (q !== '') params.set('q', q);
  for (const [key, value] of walkParams(listing)) params.set(key, value);
  params.set('offset', String(offset));
  params.set('limit', String(limit));
  return `?${params.toString()}`;
}

function flagPath(key: string): string {
  return `/api/flags/${encodeURIComponent(key)}`;
}

function pageExtra(limit: number, cursor: string | null, env?: string): Record<string, string> {
  const extra: Record<string, string> = { limit: String(limit) };
  if (env !== undefined && env !== '') extra['env'] = env;
  if (cursor !== null) extra['cursor'] = cursor;
  return extra;
}

function changePath(id: string, suffix = ''): string {
  return `/api/changes/${encodeURIComponent(id)}${suffix}`;
}

function orgPath(orgId: string, suffix: string): string {
  return `/api/organizations/${encodeURIComponent(orgId)}/${suffix}`;
}

export function changeListQuery(filters: ChangeListFilters): string {
  const params = new URLSearchParams();
  if (filters.status.length > 0) params.set('status', filters.status.join(','));
  if (filters.criticality.length > 0) params.set('criticality', filters.criticality.join(','));
  if (filters.mine) params.set('mine', '1');
  const q = filters.q.trim();
  if (q !== '') params.set('q', q);
  for (const key of ['since', 'until', 'awaiting', 'component'] as const) {
    const value = filters[key];
    if (value !== undefined && value !== '') params.set(key, value);
  }
  if (filters.limit !== undefined) params.set('limit', String(filters.limit));
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

export function alertListQuery(filters: AlertListFilters): string {
  const params = new URLSearchParams();
  const subject = filters.subject?.trim() ?? '';
  if (subject !== '') params.set('subject', subject);
  if (filters.state !== undefined) params.set('state', filters.state);
  const change = filters.change?.trim() ?? '';
  if (change !== '') params.set('change', change);
  if (filters.held === true) params.set('held', 'true');
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

// What a decision or an action answers beyond the change itself.
export type ApproveAnswer = {
  status: Change['status'];
  approvals: number;
  required: number | null;
  criticalRequired: boolean;
  criticalApproved: boolean | null;
  blockedOn: 'classification' | 'critical_approver' | null;
};

export type ChangeAction =
  | { kind: 'start' }
  | { kind: 'complete'; outcome: Outcome; notes?: string }
  | { kind: 'abort'; notes?: string }
  | { kind: 'cancel'; reason?: string }
  | { kind: 'evaluate'; evidenceMinutes?: number };

export function withSignal(signal: AbortSignal | undefined): RequestOptions {
  return signal === undefined ? {} : { signal };
}

export const api = {
  // 401 here just means "not signed in" and is handled by the caller.
  getSession: (): Promise<Session> =>
    request<Session>('GET', '/api/session', { quietUnauthorized: true }),
  signIn: (email: string, password: string): Promise<Session> =>
    request<Session>('POST', '/api/session', { body: { email, password }, quietUnauthorized: true }),
  signInWithLink: (token: string): Promise<Session> =>
    request<Session>('POST', '/api/session/link', { body: { token }, quietUnauthorized: true }),
  signOut: (): Promise<void> => request<undefined>('DELETE', '/api/session', { quietUnauthorized: true }),
  setPassword: (body: { currentPassword?: string; newPassword: string }): Promise<void> =>
    request<undefined>('PUT', '/api/me/password', { body }),

  listAudit: (filters: AuditFilters, cursor: string | null, signal?: AbortSignal): Promise<AuditPage> => {
    const extra: Record<string, string> = { limit: '50' };
    if (cursor !== null) extra['cursor'] = cursor;
    return request<AuditPage>('GET', `/api/audit${auditQuery(filters, extra)}`, signal === undefined ? {} : { signal });
  },
  verifyAudit: (): Promise<ChainVerification> => request<ChainVerification>('GET', '/api/audit/verify'),
  settingsCapture: (seq: number, signal?: AbortSignal): Promise<SettingsCapture> =>
    request<SettingsCapture>('GET', `/api/audit/settings-captures/${String(seq)}`, withSignal(signal)),
  auditExportUrl: (filters: AuditFilters): string => `/api/audit/export${auditQuery(filters)}`,

  pipelineListener: (signal?: AbortSignal): Promise<PipelineListener> =>
    request<PipelineListener>('GET', '/api/pipeline-listener', withSignal(signal)),
  listTokens: (): Promise<{ items: Token[] }> => request<{ items: Token[] }>('GET', '/api/tokens'),
  createToken: (body: { name: string; scopes: string[]; expiresInDays?: number }): Promise<CreatedToken> =>
    request<CreatedToken>('POST', '/api/tokens', { body }),
  revokeToken: (id: string): Promise<{ token: Token }> =>
    request<{ token: Token }>('DELETE', `/api/tokens/${encodeURIComponent(id)}`),

  listEnvironments: (): Promise<{ items: Environment[] }> =>
    request<{ items: Environment[] }>('GET', '/api/environments'),
  createEnvironment: (body: { key: string; name: string }): Promise<Environment> =>
    request<Environment>('POST', '/api/environments', { body }),
  updateEnvironment: (
    key: string,
    body: { approvalPolicy?: Environment['approvalPolicy']; approvalsNeeded?: number },
  ): Promise<Environment> => request<Environment>('PUT', `/api/environments/${encodeURIComponent(key)}`, { body }),

  listFlags: (namespace: string, signal?: AbortSignal): Promise<{ items: Flag[] }> => {
    const query = namespace.trim() === '' ? '' : `?${new URLSearchParams({ namespace: namespace.trim() }).toString()}`;
    return request<{ items: Flag[] }>('GET', `/api/flags${query}`, withSignal(signal));
  },
  createFlag: (body: NewFlag): Promise<Flag> => request<Flag>('POST', '/api/flags', { body }),
  getFlag: (key: string, signal?: AbortSignal): Promise<Flag> => request<Flag>('GET', flagPath(key), withSignal(signal)),
  setFlagState: async (key: string, env: string, patch: FlagStatePatch, reason: string): Promise<FlagWriteAnswer> => {
    const answer = await send<FlagWriteResult | FlagProposal>(
      'PUT',
      `${flagPath(key)}/environments/${encodeURIComponent(env)}`,
      { body: { ...patch, reason } },
    );
    if (answer.status === 202 && 'changeRequest' in answer.body) {
      return { kind: 'proposed', changeRequest: answer.body.changeRequest };
    }
    return { kind: 'applied', result: answer.body as FlagWriteResult };
  },
  bulkSetFlags: (body: { namespace: string; env: string; enabled: boolean; reason: string }): Promise<BulkResult> =>
    request<BulkResult>('POST', '/api/flags/bulk', { body }),
  flagHistory: (key: string, env: string, cursor: string | null, signal?: AbortSignal): Promise<FlagRecordPage> =>
    request<FlagRecordPage>(
      'GET',
      `${flagPath(key)}/history${flagAuditQuery({}, pageExtra(50, cursor, env))}`,
      withSignal(signal),
    ),
  flagAudit: (filters: FlagAuditFilters, cursor: string | null, signal?: AbortSignal): Promise<FlagRecordPage> =>
    request<FlagRecordPage>('GET', `/api/flags/audit${flagAuditQuery(filters, pageExtra(50, cursor))}`, withSignal(signal)),

  catalogueInventory: (
    listing: CatalogueListing,
    offset: number,
    limit: number,
    signal?: AbortSignal,
  ): Promise<InventoryPage> =>
    request<InventoryPage>('GET', `/api/catalog/inventory${inventoryQuery(listing, offset, limit)}`, withSignal(signal)),
  catalogueEntity: (key: string, walk: CatalogueWalk, signal?: AbortSignal): Promise<InventoryEntityAnswer> =>
    request<InventoryEntityAnswer>(
      'GET',
      `/api/catalog/inventory/${encodeURIComponent(key)}?${walkParams(walk).toString()}`,
      withSignal(signal),
    ),
  // Every file goes out as application/yaml, JSON ones too (JSON is YAML): the server
  // then reads either with its catalogue parser, whose errors name the line, rather than
  // an application/json body meeting the framework's own JSON parser first.
  importCatalogue: (format: CatalogueImportFormat, source: string, content: string): Promise<CatalogueImportSummary> => {
    const params = new URLSearchParams({ format });
    if (source.trim() !== '') params.set('source', source.trim());
    return request<CatalogueImportSummary>('POST', `/api/catalog/imports?${params.toString()}`, {
      text: { content, contentType: 'application/yaml' },
    });
  },

  // The live preview of a change's blast radius: computed, never stored.
  previewBlast: (body: BlastRequest, signal?: AbortSignal): Promise<BlastPreview> =>
    request<BlastPreview>('POST', '/api/changes/preview-blast', { body, ...withSignal(signal) }),
  previewContracts: (body: BlastRequest & { edges?: KeyPair[] }, signal?: AbortSignal): Promise<BlastContracts> =>
    request<BlastContracts>('POST', '/api/changes/preview-contracts', { body, ...withSignal(signal) }),

  // Planned changes only (the home page and an entity's activity, which list flag writes apart):
  // source=changeledger keeps the one list's flag writes and observed changes out.
  listChanges: (filters: ChangeListFilters, signal?: AbortSignal): Promise<{ changes: Change[] }> => {
    const query = changeListQuery(filters);
    return request<{ changes: Change[] }>('GET', `/api/changes${query === '' ? '?' : `${query}&`}source=changeledger`, withSignal(signal));
  },
  // The stored blast radius of a change: its silence scope line (what the home page shows of holds).
  changeScope: (id: string, signal?: AbortSignal): Promise<Pick<ChangeDetail, 'change' | 'scopeLine' | 'scopeBreakdown'>> =>
    request<ChangeDetail>('GET', changePath(id, '?include=blast'), withSignal(signal)),
  listDeliveries: (state: 'failed' | 'retrying', signal?: AbortSignal): Promise<{ deliveries: OrgDelivery[] }> =>
    request<{ deliveries: OrgDelivery[] }>('GET', `/api/deliveries?state=${state}`, withSignal(signal)),
  registerChange: (body: ChangeInput): Promise<RegisteredChange> =>
    request<RegisteredChange>('POST', '/api/changes', { body }),
  getChange: (id: string, signal?: AbortSignal): Promise<ChangeDetail> =>
    request<ChangeDetail>('GET', changePath(id, '?include=blast,events,reports'), withSignal(signal)),
  changeApprovals: (id: string, signal?: AbortSignal): Promise<ApprovalView> =>
    request<ApprovalView>('GET', changePath(id, '/approvals'), withSignal(signal)),
  changeContracts: (id: string, signal?: AbortSignal): Promise<BlastContracts> =>
    request<BlastContracts>('GET', changePath(id, '/contracts'), withSignal(signal)),
  approveChange: (id: string, comment: string): Promise<ApproveAnswer> =>
    request<ApproveAnswer>('POST', changePath(id, '/approve'), { body: comment === '' ? {} : { comment } }),
  rejectChange: (id: string, reason: string): Promise<{ status: Change['status'] }> =>
    request<{ status: Change['status'] }>('POST', changePath(id, '/reject'), { body: { reason } }),
  classifyChange: (id: string, components: { key: string; tier: Tier }[]): Promise<unknown> =>
    request<unknown>('POST', changePath(id, '/classify'), { body: { components } }),
  mapChange: (id: string, entries: MappingEntry[], confirmLarge: boolean): Promise<{ change: Change; remaining: number; status: string }> =>
    request<{ change: Change; remaining: number; status: string }>('POST', changePath(id, '/mappings'), {
      body: confirmLarge ? { entries, confirmLarge } : { entries },
    }),
  changeAction: (id: string, action: ChangeAction): Promise<{ change: Change }> => {
    const { kind, ...body } = action;
    return request<{ change: Change }>('POST', changePath(id, `/${kind}`), { body });
  },
  changeSettings: (orgId: string, signal?: AbortSignal): Promise<ChangeSettingsView> =>
    request<ChangeSettingsView>('GET', orgPath(orgId, 'change-settings'), withSignal(signal)),
  updateChangeSettings: (orgId: string, patch: ChangeSettingsPatch): Promise<ChangeSettingsView> =>
    request<ChangeSettingsView>('PUT', orgPath(orgId, 'change-settings'), { body: patch }),
  // Probes a draft destination (nothing is saved); a blank or •••• secret is the stored one.
  testTicketing: (orgId: string, draft: { ticketing: TicketingInput; allowPrivateCallbacks: boolean }): Promise<TicketTest> =>
    request<TicketTest>('POST', orgPath(orgId, 'change-settings/ticketing-test'), { body: draft }),
  changeDeliveries: (id: string, signal?: AbortSignal): Promise<ChangeDeliveries> =>
    request<ChangeDeliveries>('GET', changePath(id, '/deliveries'), withSignal(signal)),
  sendTestCallback: (id: string): Promise<{ delivery: Delivery }> =>
    request<{ delivery: Delivery }>('POST', changePath(id, '/callback-test'), { body: {} }),
  setChangeApprovers: (orgId: string, userIds: string[], criticalUserIds: string[]): Promise<ChangeSettingsView> =>
    request<ChangeSettingsView>('PUT', orgPath(orgId, 'change-approvers'), { body: { userIds, criticalUserIds } }),
  listMembers: (orgId: string, signal?: AbortSignal): Promise<{ members: Member[] }> =>
    request<{ members: Member[] }>('GET', orgPath(orgId, 'members'), withSignal(signal)),
  inviteMember: (orgId: string, body: MemberInvite): Promise<MemberLinkSent> =>
    request<MemberLinkSent>('POST', orgPath(orgId, 'members'), { body }),
  newMemberLink: (orgId: string, userId: string): Promise<MemberLinkSent> =>
    request<MemberLinkSent>('POST', orgPath(orgId, `members/${encodeURIComponent(userId)}/sign-in-link`)),
  setMemberRole: (orgId: string, userId: string, role: Role): Promise<{ member: Member }> =>
    request<{ member: Member }>('PATCH', orgPath(orgId, `members/${encodeURIComponent(userId)}`), { body: { role } }),
  removeMember: (orgId: string, userId: string): Promise<void> =>
    request<undefined>('DELETE', orgPath(orgId, `members/${encodeURIComponent(userId)}`)),
  setDisplayName: (displayName: string): Promise<{ user: Session['user'] }> =>
    request<{ user: Session['user'] }>('PATCH', '/api/me', { body: { displayName } }),

  listChangeRequests: (
    filters: { status?: ChangeRequestStatus; flag?: string },
    signal?: AbortSignal,
  ): Promise<{ items: ChangeRequest[] }> => {
    const params = new URLSearchParams();
    if (filters.status !== undefined) params.set('status', filters.status);
    if (filters.flag !== undefined) params.set('flag', filters.flag);
    const query = params.toString();
    return request<{ items: ChangeRequest[] }>('GET', `/api/flags/requests${query === '' ? '' : `?${query}`}`, withSignal(signal));
  },
  approveChangeRequest: (id: string): Promise<ChangeDecision> =>
    request<ChangeDecision>('POST', `/api/flags/requests/${encodeURIComponent(id)}/approve`, { body: {} }),
  rejectChangeRequest: (id: string, comment: string): Promise<{ changeRequest: ChangeRequest }> =>
    request<{ changeRequest: ChangeRequest }>('POST', `/api/flags/requests/${encodeURIComponent(id)}/reject`, {
      body: { comment },
    }),

  listAlerts: (filters: AlertListFilters, signal?: AbortSignal): Promise<AlertList> =>
    request<AlertList>('GET', `/api/alerts${alertListQuery(filters)}`, withSignal(signal)),
  getAlert: (fingerprint: string, signal?: AbortSignal): Promise<AlertDetail> =>
    request<AlertDetail>('GET', `/api/alerts/${encodeURIComponent(fingerprint)}`, withSignal(signal)),
  // The live hold of a change, as GET /api/changes/{id} answers it (no include: the lightest read).
  changeSuppression: async (id: string, signal?: AbortSignal): Promise<Suppression> =>
    (await request<ChangeDetail>('GET', changePath(id), withSignal(signal))).suppression,
  changeAlerts: (id: string, signal?: AbortSignal): Promise<ChangeAlerts> =>
    request<ChangeAlerts>('GET', changePath(id, '/alerts'), withSignal(signal)),
  alertSettings: (signal?: AbortSignal): Promise<AlertSettings> =>
    request<AlertSettings>('GET', '/api/alert-settings', withSignal(signal)),
  updateAlertSettings: (patch: AlertSettingsPatch): Promise<AlertSettings> =>
    request<AlertSettings>('PUT', '/api/alert-settings', { body: patch }),
  listAlertmanagers: (signal?: AbortSignal): Promise<{ alertmanagers: Alertmanager[] }> =>
    request<{ alertmanagers: Alertmanager[] }>('GET', '/api/alertmanagers', withSignal(signal)),
  createAlertmanager: (body: AlertmanagerInput): Promise<{ alertmanager: Alertmanager }> =>
    request<{ alertmanager: Alertmanager }>('POST', '/api/alertmanagers', { body }),
  updateAlertmanager: (id: string, body: AlertmanagerPatch): Promise<{ alertmanager: Alertmanager }> =>
    request<{ alertmanager: Alertmanager }>('PUT', `/api/alertmanagers/${encodeURIComponent(id)}`, { body }),
  removeAlertmanager: (id: string): Promise<void> =>
    request<undefined>('DELETE', `/api/alertmanagers/${encodeURIComponent(id)}`),
  testAlertmanager: (id: string): Promise<AlertmanagerTest> =>
    request<AlertmanagerTest>('POST', `/api/alertmanagers/${encodeURIComponent(id)}/test`, { body: {} }),
  listAlertDestinations: (signal?: AbortSignal): Promise<{ destinations: AlertDestination[] }> =>
    request<{ destinations: AlertDestination[] }>('GET', '/api/alert-destinations', withSignal(signal)),
  createAlertDestination: (body: AlertDestinationInput): Promise<CreatedDestination> =>
    request<CreatedDestination>('POST', '/api/alert-destinations', { body }),
  removeAlertDestination: (id: string): Promise<void> =>
    request<undefined>('DELETE', `/api/alert-destinations/${encodeURIComponent(id)}`),
  testAlertDestination: (id: string): Promise<DestinationTest> =>
    request<DestinationTest>('POST', `/api/alert-destinations/${encodeURIComponent(id)}/test`, { body: {} }),
  receiversSnippet: (signal?: AbortSignal): Promise<ReceiversSnippet> =>
    request<ReceiversSnippet>('GET', '/api/alert-settings/receivers', withSignal(signal)),
};
