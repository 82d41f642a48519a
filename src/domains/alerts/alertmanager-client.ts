import { OutboundFailed, OutboundRefused, type OutboundClient, type OutboundResponse } from '../../platform/net/outbound.js';

/**
 * Alertmanager's API v2, spoken through the one outbound client (SSRF guard, 10 s, capped answer).
 * Every failure is thrown as an AlertmanagerError whose message a person reads on the change page or
 * beside the Test button: "connection refused", "timed out after 10 s", "Alertmanager answered 400:
 * <its own words>", or the outbound guard's refusal.
 */

export type AlertmanagerAuth =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  | { kind: 'basic'; user: string; password: string };

/** One Alertmanager as the client needs it: its base URL (a path prefix is kept) and its credentials, unsealed. */
export type AlertmanagerTarget = { url: string; auth: AlertmanagerAuth; allowPrivate: boolean };

export type Matcher = { name: string; value: string; isRegex: boolean; isEqual: boolean };

export type PostableSilence = {
  /** An existing silence to update; Alertmanager keeps it only when the matchers are identical (research §1). */
  id?: string;
  matchers: Matcher[];
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
};

export type GettableSilence = PostableSilence & { id: string; status: { state: 'active' | 'pending' | 'expired' }; updatedAt: string };

export type AmStatus = { version: string | null; cluster: string | null; uptime: string | null };

export type GettableAlert = {
  fingerprint: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  updatedAt?: string;
  generatorURL?: string;
  status: { state: 'active' | 'suppressed' | 'unprocessed'; silencedBy: string[]; inhibitedBy: string[] };
};

export type ListAlertsQuery = { silenced?: boolean; active?: boolean; inhibited?: boolean; filter?: string[] };

/** Why an Alertmanager call failed, in words; `retryable` is false only for what a retry cannot change. */
export class AlertmanagerError extends Error {
  constructor(message: string, readonly kind: 'refused' | 'unreachable' | 'timeout' | 'answered', readonly status: number | null, readonly retryable: boolean) {
    super(message);
  }
}

export type AlertmanagerClient = {
  status(t: AlertmanagerTarget): Promise<AmStatus>;
  /** Creates a silence, or updates the one named by `id`; answers Alertmanager's silence id (a new one when it could not update). */
  postSilence(t: AlertmanagerTarget, s: PostableSilence): Promise<string>;
  getSilence(t: AlertmanagerTarget, id: string): Promise<GettableSilence | null>;
  /** Expires a silence (DELETE /api/v2/silence/{id}); an already expired or unknown silence is not an error. */
  expireSilence(t: AlertmanagerTarget, id: string): Promise<void>;
  listAlerts(t: AlertmanagerTarget, q: ListAlertsQuery): Promise<GettableAlert[]>;
};

const MAX_REASON = 300;

function authHeader(auth: AlertmanagerAuth): Record<string, string> {
  if (auth.kind === 'bearer') return { authorization: `Bearer ${auth.token}` };
  if (auth.kind === 'basic') return { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`, 'utf8').toString('base64')}` };
  return {};
}

/** Alertmanager answers errors as a JSON string, a {message} / {error} object, or plain text. */
export function answeredReason(status: number, body: string): string {
  let said = body.trim();
  try {
    const parsed: unknown = JSON.parse(said);
    if (typeof parsed === 'string') said = parsed;
    else if (parsed && typeof parsed === 'object') {
      const o = parsed as Record<string, unknown>;
      const m = o.message ?? o.error ?? o.msg;
      if (typeof m === 'string') said = m;
    }
  } catch {
    // plain text: keep it as it came
  }
  said = said.replace(/\s+/g, ' ').trim();
  if (said.length > MAX_REASON) said = `${said.slice(0, MAX_REASON)}…`;
  return said ? `Alertmanager answered ${status}: ${said}` : `Alertmanager answered ${status}`;
}

function failureOf(err: unknown): AlertmanagerError {
  if (err instanceof AlertmanagerError) return err;
  if (err instanceof OutboundRefused) return new AlertmanagerError(err.message, 'refused', null, false);
  if (err instanceof OutboundFailed) {
    if (err.kind === 'timeout') return new AlertmanagerError(`timed out after ${Math.max(1, Math.round(err.durationMs / 1000))} s`, 'timeout', null, true);
    if (/ECONNREFUSED/.test(err.message)) return new AlertmanagerError('connection refused', 'unreachable', null, true);
    return new AlertmanagerError(err.message, 'unreachable', null, true);
  }
  return new AlertmanagerError(err instanceof Error ? err.message : String(err), 'unreachable', null, true);
}

export function createAlertmanagerClient(outbound: OutboundClient): AlertmanagerClient {
  async function call(t: AlertmanagerTarget, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<OutboundResponse> {
    const base = t.url.replace(/\/+$/, '');
    let res: OutboundResponse;
    try {
      res = await outbound.request({
        method, url: `${base}/api/v2${path}`, allowPrivate: t.allowPrivate,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...authHeader(t.auth) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (err) {
      throw failureOf(err);
    }
    return res;
  }

  function ok(res: OutboundResponse, also: number[] = []): void {
    if (res.status >= 200 && res.status < 300) return;
    if (also.includes(res.status)) return;
    // 4xx but 408/429 says our request is wrong or not allowed: a retry sends the same request.
    const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
    throw new AlertmanagerError(answeredReason(res.status, res.body), 'answered', res.status, retryable);
  }

  function json<T>(res: OutboundResponse): T {
    try {
      return JSON.parse(res.body) as T;
    } catch {
      throw new AlertmanagerError(`Alertmanager answered ${res.status} with something that is not JSON`, 'answered', res.status, true);
    }
  }

  return {
    async status(t) {
      const res = await call(t, 'GET', '/status');
      ok(res);
      const b = json<{ versionInfo?: { version?: string }; cluster?: { status?: string }; uptime?: string }>(res);
      return { version: b.versionInfo?.version ?? null, cluster: b.cluster?.status ?? null, uptime: b.uptime ?? null };
    },

    async postSilence(t, s) {
      const res = await call(t, 'POST', '/silences', s);
      ok(res);
      const b = json<{ silenceID?: string }>(res);
      if (!b.silenceID) throw new AlertmanagerError('Alertmanager answered without a silence id', 'answered', res.status, true);
      return b.silenceID;
    },

    async getSilence(t, id) {
      const res = await call(t, 'GET', `/silence/${encodeURIComponent(id)}`);
      if (res.status === 404) return null;
      ok(res);
      return json<GettableSilence>(res);
    },

    async expireSilence(t, id) {
      const res = await call(t, 'DELETE', `/silence/${encodeURIComponent(id)}`);
      // 404: gone already (retention passed); 500 "silence … already expired" in some versions.
      if (res.status === 404) return;
      if (res.status === 500 && /already expired/i.test(res.body)) return;
      ok(res);
    },

    async listAlerts(t, q) {
      const params = new URLSearchParams();
      if (q.silenced !== undefined) params.set('silenced', String(q.silenced));
      if (q.active !== undefined) params.set('active', String(q.active));
      if (q.inhibited !== undefined) params.set('inhibited', String(q.inhibited));
      for (const f of q.filter ?? []) params.append('filter', f);
      const qs = params.toString();
      const res = await call(t, 'GET', `/alerts${qs ? `?${qs}` : ''}`);
      ok(res);
      const list = json<GettableAlert[]>(res);
      if (!Array.isArray(list)) throw new AlertmanagerError('Alertmanager answered alerts that are not a list', 'answered', res.status, true);
      return list;
    },
  };
}

/** A matcher as the alerts filter writes it: name="v", name=~"v", name!="v", name!~"v". */
export function matcherText(m: Matcher): string {
  const op = m.isEqual ? (m.isRegex ? '=~' : '=') : (m.isRegex ? '!~' : '!=');
  return `${m.name}${op}${JSON.stringify(m.value)}`;
}
