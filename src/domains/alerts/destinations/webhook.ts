import type { AlertRecord } from '../alert-types.js';
import { heldPrefix, occasionSummary, type RelayContext } from './relay-message.js';

/** Alertmanager writes a firing alert's missing end as this instant; receivers of its shape expect it. */
const NO_END = '0001-01-01T00:00:00Z';

function common(maps: Array<Record<string, string>>): Record<string, string> {
  if (maps.length === 0) return {};
  const [first, ...rest] = maps;
  return Object.fromEntries(Object.entries(first!).filter(([k, v]) => rest.every((m) => m[k] === v)));
}

/**
 * A relay message in Alertmanager's webhook shape (version 4), so whatever already receives
 * Alertmanager's webhook receives ours. A held release says so twice: each alert's
 * annotations.summary starts with the prefix, and the top-level `heldDuring` names the change.
 */
export function webhookBody(alerts: AlertRecord[], ctx: RelayContext): string {
  const o = ctx.occasion;
  const shaped = alerts.map((a) => ({
    status: a.state,
    labels: a.labels,
    annotations: { ...a.annotations, summary: occasionSummary(a, o) },
    startsAt: a.startsAt,
    endsAt: a.endsAt ?? NO_END,
    generatorURL: a.generatorURL ?? '',
    fingerprint: a.fingerprint,
  }));
  const body = {
    version: '4',
    groupKey: `changeledger:${ctx.messageId}`,
    truncatedAlerts: 0,
    status: alerts.some((a) => a.state === 'firing') ? 'firing' : 'resolved',
    receiver: ctx.destinationName,
    groupLabels: {},
    commonLabels: common(shaped.map((a) => a.labels)),
    commonAnnotations: common(shaped.map((a) => a.annotations)),
    externalURL: ctx.externalUrl,
    alerts: shaped,
    ...(o.kind === 'held-release' ? { heldDuring: { change: o.change, prefix: heldPrefix(o.change.title) } } : {}),
    ...(o.kind === 'test' ? { test: true } : {}),
  };
  return JSON.stringify(body);
}

export const RELAY_USER_AGENT = 'changeledger-alerts/1';
