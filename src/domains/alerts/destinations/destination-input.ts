import { randomBytes } from 'node:crypto';
import { invalid } from '../../../platform/errors.js';
import type { LiteralJudgement } from '../../../platform/net/outbound.js';
import { checkUrl } from '../../../platform/net/url-input.js';
import type { DestinationKind } from '../alert-types.js';
import type { DestinationConfig } from '../alert-settings-store.js';
import { PAGERDUTY_EVENTS_URL } from './pagerduty.js';

export const MAX_EMAIL_RECIPIENTS = 25;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ROUTING_KEY = /^[A-Za-z0-9_-]{8,128}$/;

/** What a person sends to create or change a destination; fields of other kinds are refused. */
export type DestinationInput = {
  kind?: DestinationKind;
  name?: string;
  enabled?: boolean;
  /** webhook, slack: where to post (kept sealed). */
  url?: string;
  /** email: the recipients. */
  to?: string[];
  /** pagerduty: the integration's routing key (kept sealed). */
  routingKey?: string;
  /** pagerduty: the Events API v2 URL; the default is PagerDuty's own. */
  eventsUrl?: string | null;
};

/** The secret part of a destination, sealed as JSON. */
export type DestinationSecret = { url?: string; signingSecret?: string; routingKey?: string };

export type ParsedDestination = {
  kind: DestinationKind; name: string; enabled: boolean; config: DestinationConfig; secret: DestinationSecret | null;
  /** A webhook's signing secret made now: answered once, at creation. */
  newSigningSecret: string | null;
  /** Which fields changed, for the audit event (never their values when they are secret). */
  changed: string[];
};

const FIELDS: Record<DestinationKind, ReadonlyArray<keyof DestinationInput>> = {
  webhook: ['url'], slack: ['url'], email: ['to'], pagerduty: ['routingKey', 'eventsUrl'],
};

/** The name of a destination or an Alertmanager: 1–200 characters a page can show. */
export function checkName(raw: string | undefined, before: string | null): string {
  const name = (raw ?? before ?? '').trim();
  if (!name) throw invalid('name', 'is required');
  if (name.length > 200) throw invalid('name', 'must be at most 200 characters');
  if (/[\u0000-\u001f\u007f]/.test(name)) throw invalid('name', 'must not contain control characters (tabs, new lines, NUL)');
  return name;
}

/** The one URL rule lives in platform (observed's change sources use it too). */
export { checkUrl };

/**
 * Checks a destination against its kind and merges it over the stored one (an update leaves out
 * what it keeps). A webhook gets a signing secret at creation; the URL and routing key are the
 * secret part. `judge` is the outbound guard's literal judgement (private allowed: the
 * organisation's allowPrivateCallbacks decides at each send).
 */
export function parseDestination(
  input: DestinationInput,
  before: { kind: DestinationKind; name: string; enabled: boolean; config: DestinationConfig; secret: DestinationSecret | null } | null,
  judge: (url: string) => LiteralJudgement,
): ParsedDestination {
  const kind = before?.kind ?? input.kind;
  if (!kind) throw invalid('kind', 'is required: webhook, email, slack or pagerduty');
  if (before && input.kind !== undefined && input.kind !== before.kind) throw invalid('kind', `cannot change (this destination is ${before.kind}): delete it and create another`);
  for (const k of ['url', 'to', 'routingKey', 'eventsUrl'] as const) {
    if (input[k] !== undefined && !FIELDS[kind].includes(k)) throw invalid(k, `is not a field of a ${kind} destination`);
  }
  const name = checkName(input.name, before?.name ?? null);
  const changed: string[] = [];
  if (before && name !== before.name) changed.push('name');
  const enabled = input.enabled ?? before?.enabled ?? true;
  if (before && enabled !== before.enabled) changed.push('enabled');
  let config: DestinationConfig = { ...(before?.config ?? {}) };
  let secret: DestinationSecret | null = before?.secret ?? null;
  let newSigningSecret: string | null = null;

  if (kind === 'webhook' || kind === 'slack') {
    if (input.url !== undefined) {
      const u = checkUrl('url', input.url, judge);
      if (secret?.url !== input.url) changed.push('url');
      config = { ...config, host: u.host };
      secret = { ...(secret ?? {}), url: input.url };
    }
    if (!secret?.url) throw invalid('url', `is required for a ${kind} destination`);
    if (kind === 'webhook' && !secret.signingSecret) {
      newSigningSecret = `whsec_${randomBytes(24).toString('base64url')}`;
      secret = { ...secret, signingSecret: newSigningSecret };
    }
  } else if (kind === 'email') {
    if (input.to !== undefined) {
      const to = [...new Set(input.to.map((x) => x.trim()))];
      if (to.length === 0) throw invalid('to', 'must list at least 1 e-mail address');
      if (to.length > MAX_EMAIL_RECIPIENTS) throw invalid('to', `must list at most ${MAX_EMAIL_RECIPIENTS} addresses`);
      const bad = to.findIndex((x) => !EMAIL.test(x) || x.length > 320);
      if (bad >= 0) throw invalid(`to.${bad}`, 'is not an e-mail address', to[bad]);
      if (JSON.stringify(to) !== JSON.stringify(config.to ?? [])) changed.push('to');
      config = { ...config, to };
    }
    if (!config.to?.length) throw invalid('to', 'is required for an e-mail destination');
    secret = null;
  } else {
    if (input.routingKey !== undefined) {
      if (!ROUTING_KEY.test(input.routingKey)) throw invalid('routingKey', 'is not a PagerDuty routing key (the integration key of an Events API v2 integration)');
      if (secret?.routingKey !== input.routingKey) changed.push('routingKey');
      secret = { routingKey: input.routingKey };
    }
    if (!secret?.routingKey) throw invalid('routingKey', 'is required for a PagerDuty destination');
    if (input.eventsUrl !== undefined) {
      const url = input.eventsUrl ?? PAGERDUTY_EVENTS_URL;
      if (input.eventsUrl !== null) checkUrl('eventsUrl', url, judge);
      if (url !== config.eventsUrl) changed.push('eventsUrl');
      config = { ...config, eventsUrl: url };
    }
    config = { eventsUrl: PAGERDUTY_EVENTS_URL, ...config };
  }
  return { kind, name, enabled, config, secret, newSigningSecret, changed: before ? changed : ['created'] };
}

/** What people see of a destination's secret: never the secret, only that it is there and a hint. */
export function secretHint(kind: DestinationKind, config: DestinationConfig, secret: DestinationSecret | null): string | null {
  if (kind === 'email') return null;
  if (kind === 'pagerduty') return secret?.routingKey ? `routing key ••••${secret.routingKey.slice(-4)}` : null;
  return config.host ? `${config.host}/••••` : null;
}
