/**
 * The organisation's ticket destination as stored and as shown: the fields in clear, the one
 * secret of each kind sealed apart and shown as `••••` with `hasSecret`. Pure: validation
 * answers the field it refuses.
 */
import { badRequest, invalid } from '../../platform/errors.js';
import type { LiteralJudgement } from '../../platform/net/outbound.js';
import { TICKET_KINDS, type Ticketing, type TicketKind } from './ticket-destination.js';

export const MASK = '••••';
export const SECRET_FIELD: Record<TicketKind, 'apiToken' | 'token' | 'password' | 'secret'> = {
  jira: 'apiToken', asana: 'token', servicenow: 'password', webhook: 'secret',
};

/** What arrives in PUT change-settings / ticketing-test: every field optional, checked here. */
export type TicketingInput = { kind: TicketKind | 'none'; [field: string]: unknown };

type WithoutSecret<T> = T extends unknown ? Omit<T, 'apiToken' | 'token' | 'password' | 'secret'> : never;
/** Stored without its secret. */
export type StoredTicketing = WithoutSecret<Ticketing>;

/** As GET answers it. */
export type TicketingView = Record<string, unknown> & { kind: TicketKind; hasSecret: boolean };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const FIELDS: Record<TicketKind, readonly string[]> = {
  jira: ['kind', 'baseUrl', 'deployment', 'email', 'apiToken', 'projectKey', 'issueType', 'labels'],
  asana: ['kind', 'apiUrl', 'token', 'workspaceGid', 'projectGid', 'completeOnReport'],
  servicenow: ['kind', 'instanceUrl', 'username', 'password', 'changeType', 'assignmentGroup', 'closeOnReport'],
  webhook: ['kind', 'url', 'secret'],
};

const f = (name: string) => `ticketing.${name}`;

function text(x: TicketingInput, name: string, o: { required?: boolean; max?: number; pattern?: RegExp; hint?: string } = {}): string | undefined {
  const v = x[name];
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
    if (o.required) throw invalid(f(name), `is required for ${x.kind}`);
    return undefined;
  }
  if (typeof v !== 'string') throw invalid(f(name), 'must be a string');
  const s = v.trim();
  if (s.length > (o.max ?? 200)) throw invalid(f(name), `must be at most ${o.max ?? 200} characters`);
  if (o.pattern && !o.pattern.test(s)) throw invalid(f(name), o.hint ?? 'is not valid');
  return s;
}

/**
 * Judges a URL that will be called later, without DNS: an address no setting opens (loopback,
 * link-local, metadata, …) is refused now. The outbound client's judgeLiteral, so one rule decides.
 */
export type JudgeUrl = (url: string) => LiteralJudgement;

function httpUrl(x: TicketingInput, name: string, required: boolean, judge: JudgeUrl | undefined): string | undefined {
  const s = text(x, name, { required, max: 1000 });
  if (s === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw invalid(f(name), 'is not a URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid(f(name), 'must be an http(s) URL');
  if (u.username || u.password) throw invalid(f(name), 'must not carry credentials; use the fields for them');
  const judged = judge?.(s);
  if (judged?.verdict === 'refused') throw invalid(f(name), `: ${judged.what}, where nothing is ever sent`);
  return s.replace(/\/+$/, '');
}

function bool(x: TicketingInput, name: string, fallback: boolean): boolean {
  const v = x[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw invalid(f(name), 'must be true or false');
  return v;
}

/** The URL a destination sends to. */
export function destinationUrl(t: StoredTicketing): string {
  return t.kind === 'jira' ? t.baseUrl : t.kind === 'asana' ? t.apiUrl : t.kind === 'servicenow' ? t.instanceUrl : t.url;
}

/**
 * Who the secret is handed to: the destination's origin (scheme, host and port) and the account
 * it signs in as (the Jira e-mail, the ServiceNow user). A stored secret is only ever sent to the
 * same recipient it was entered for.
 */
function recipient(t: StoredTicketing): { origin: string; account: string | null } {
  let origin: string;
  try {
    origin = new URL(destinationUrl(t)).origin;
  } catch {
    origin = destinationUrl(t);
  }
  const account = t.kind === 'jira' ? t.email?.toLowerCase() ?? null : t.kind === 'servicenow' ? t.username : null;
  return { origin, account };
}

/** The stored destination and its opened secret, the one a blank or •••• secret may keep. */
export type StoredDestination = { ticketing: StoredTicketing; secret: string | null };

/**
 * Validates a destination sent by a manager. The secret may be left blank or sent as `••••` to
 * keep the stored one, but only for the same kind, origin and account: a stored secret never
 * follows a destination to another host or user. Answers null for `{kind: none}` / null (the
 * destination is cleared).
 */
export function parseTicketing(x: TicketingInput | null, stored: StoredDestination | null, o: { judgeUrl?: JudgeUrl } = {}): Ticketing | null {
  if (x === null || x.kind === 'none') return null;
  if (typeof x !== 'object' || !TICKET_KINDS.includes(x.kind)) throw badRequest(`ticketing.kind must be one of ${[...TICKET_KINDS, 'none'].join(', ')}`, f('kind'));
  const stray = Object.keys(x).find((k) => !FIELDS[x.kind as TicketKind].includes(k) && k !== 'hasSecret');
  if (stray) throw invalid(f(stray), `is not a field of a ${x.kind} destination (fields: ${FIELDS[x.kind as TicketKind].join(', ')})`);
  const secretName = SECRET_FIELD[x.kind];
  const sent = x[secretName];
  let secret: string | null = null;
  if (!(sent === undefined || sent === null || sent === '' || sent === MASK)) {
    if (typeof sent !== 'string') throw invalid(f(secretName), 'must be a string');
    secret = sent.trim();
    if (secret.length > 2000) throw invalid(f(secretName), 'must be at most 2000 characters');
    if (x.kind === 'webhook' && secret.length < 16) throw invalid(f('secret'), 'must be at least 16 characters');
  }
  const fields = destinationFields(x, o.judgeUrl);
  if (secret === null) {
    if (!stored || stored.ticketing.kind !== x.kind || !stored.secret) throw invalid(f(secretName), `is required: no ${x.kind} ${secretName} is stored to keep`);
    const was = recipient(stored.ticketing);
    const now = recipient(fields);
    if (was.origin !== now.origin || was.account !== now.account) {
      const moved = was.origin !== now.origin ? `from ${was.origin} to ${now.origin}` : `from the account ${was.account ?? '(none)'} to ${now.account ?? '(none)'}`;
      throw invalid(f(secretName), `: re-enter the secret for the new destination — the stored one is never sent elsewhere, and the destination moved ${moved}`);
    }
    secret = stored.secret;
  }
  return joinSecret(fields, secret);
}

/** The destination's fields without its secret, each checked. */
function destinationFields(x: TicketingInput, judge: JudgeUrl | undefined): StoredTicketing {
  switch (x.kind as TicketKind) {
    case 'jira': {
      const deployment = (text(x, 'deployment') ?? 'cloud') as 'cloud' | 'datacenter';
      if (deployment !== 'cloud' && deployment !== 'datacenter') throw invalid(f('deployment'), 'must be cloud or datacenter');
      const email = text(x, 'email', { required: deployment === 'cloud', max: 320, pattern: EMAIL, hint: 'is not an e-mail address' }) ?? null;
      const labels = x.labels ?? [];
      if (!Array.isArray(labels) || labels.length > 10) throw invalid(f('labels'), 'must be a list of at most 10 labels');
      labels.forEach((l, i) => {
        if (typeof l !== 'string' || !/^\S{1,255}$/.test(l)) throw invalid(f(`labels.${i}`), 'must be a label without spaces', l);
      });
      return {
        kind: 'jira', baseUrl: httpUrl(x, 'baseUrl', true, judge)!, deployment, email,
        projectKey: text(x, 'projectKey', { required: true, max: 50, pattern: /^[A-Z][A-Z0-9_]+$/, hint: 'must be a Jira project key such as OPS (capital letters, digits, _)' })!,
        issueType: text(x, 'issueType', { max: 100 }) ?? 'Task', labels: labels as string[],
      };
    }
    case 'asana':
      return {
        kind: 'asana', apiUrl: httpUrl(x, 'apiUrl', false, judge) ?? 'https://app.asana.com',
        workspaceGid: text(x, 'workspaceGid', { required: true, max: 40, pattern: /^[0-9]+$/, hint: 'must be digits (a gid)' })!,
        projectGid: text(x, 'projectGid', { required: true, max: 40, pattern: /^[0-9]+$/, hint: 'must be digits (a gid)' })!,
        completeOnReport: bool(x, 'completeOnReport', true),
      };
    case 'servicenow': {
      const changeType = (text(x, 'changeType') ?? 'normal') as 'normal' | 'standard';
      if (changeType !== 'normal' && changeType !== 'standard') throw invalid(f('changeType'), 'must be normal or standard');
      return {
        kind: 'servicenow', instanceUrl: httpUrl(x, 'instanceUrl', true, judge)!, username: text(x, 'username', { required: true })!,
        changeType, assignmentGroup: text(x, 'assignmentGroup') ?? null, closeOnReport: bool(x, 'closeOnReport', true),
      };
    }
    case 'webhook':
      return { kind: 'webhook', url: httpUrl(x, 'url', true, judge)! };
  }
}

/** Splits a destination into what is stored in clear and its secret. */
export function splitSecret(t: Ticketing): { stored: StoredTicketing; secret: string } {
  const name = SECRET_FIELD[t.kind];
  const { [name]: secret, ...rest } = t as Ticketing & Record<string, string>;
  return { stored: rest as StoredTicketing, secret: secret as string };
}

export function joinSecret(stored: StoredTicketing, secret: string): Ticketing {
  return { ...stored, [SECRET_FIELD[stored.kind]]: secret } as Ticketing;
}

/** The destination as a manager sees it: the secret masked. */
export function viewTicketing(stored: StoredTicketing | null, hasSecret: boolean): TicketingView | null {
  if (!stored) return null;
  return { ...stored, [SECRET_FIELD[stored.kind]]: hasSecret ? MASK : '', hasSecret };
}

/** Where a destination sends to, for the audit trail (never a secret, never a path with tokens). */
export function destinationHost(t: StoredTicketing): string {
  try {
    return new URL(destinationUrl(t)).host;
  } catch {
    return '';
  }
}
