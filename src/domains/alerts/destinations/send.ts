import { signedHeaders } from '../../../platform/crypto/webhook-signing.js';
import { OutboundFailed, OutboundRefused, type OutboundClient } from '../../../platform/net/outbound.js';
import type { DestinationKind } from '../alert-types.js';
import type { DestinationConfig } from '../alert-settings-store.js';
import type { DestinationSecret } from './destination-input.js';
import { PAGERDUTY_EVENTS_URL, pagerDutyAnswer, type PagerDutyEvent } from './pagerduty.js';
import { RELAY_USER_AGENT } from './webhook.js';

/** What is sent, prepared when the message was queued: a body sent byte for byte, or PagerDuty's events. */
export type PreparedMessage = { body: string } | { events: PagerDutyEvent[] };

/** How one send went, in words; `retryable` says whether the worker tries again later. */
export type SendResult = { ok: boolean; status: number | null; error: string | null; retryable: boolean };

/** 2xx is taken; 408, 429 and 5xx may pass later; any other answer says the message itself is refused. */
function judgeAnswer(status: number, said: string): SendResult {
  if (status >= 200 && status <= 299) return { ok: true, status, error: null, retryable: false };
  const redirect = status >= 300 && status <= 399 ? ' (redirects are not followed)' : '';
  return { ok: false, status, error: `${said}${redirect}`, retryable: status >= 500 || status === 408 || status === 429 };
}

function failed(err: unknown): SendResult {
  if (err instanceof OutboundRefused) return { ok: false, status: null, error: err.message, retryable: false };
  if (err instanceof OutboundFailed) return { ok: false, status: null, error: err.message, retryable: true };
  return { ok: false, status: null, error: err instanceof Error ? err.message : String(err), retryable: true };
}

const answered = (status: number, body: string) => {
  const t = body.trim().replace(/\s+/g, ' ').slice(0, 200);
  return t ? `answered ${status}: ${t}` : `answered ${status}`;
};

/**
 * Sends one prepared message through the one outbound client (SSRF guard, 10 s, no redirects).
 * A webhook is signed at each attempt with the same id over the same bytes (Standard Webhooks and
 * X-Changeledger-Signature); PagerDuty gets each event with the routing key joined in.
 */
export async function sendPrepared(o: {
  client: OutboundClient; kind: DestinationKind; config: DestinationConfig; secret: DestinationSecret | null;
  message: PreparedMessage; messageId: string; event: string; at: Date; allowPrivate: boolean;
}): Promise<SendResult> {
  try {
    if (o.kind === 'webhook' || o.kind === 'slack') {
      if (!('body' in o.message) || !o.secret?.url) return { ok: false, status: null, error: 'the destination has no URL', retryable: false };
      const headers = o.kind === 'webhook' && o.secret.signingSecret
        ? signedHeaders({ secret: o.secret.signingSecret, deliveryId: o.messageId, event: o.event, body: o.message.body, at: o.at, userAgent: RELAY_USER_AGENT })
        : { 'content-type': 'application/json', 'user-agent': RELAY_USER_AGENT };
      const res = await o.client.request({ method: 'POST', url: o.secret.url, headers, body: o.message.body, allowPrivate: o.allowPrivate });
      return judgeAnswer(res.status, answered(res.status, res.body));
    }
    if (o.kind === 'pagerduty') {
      if (!('events' in o.message) || !o.secret?.routingKey) return { ok: false, status: null, error: 'the destination has no routing key', retryable: false };
      let last: SendResult = { ok: true, status: null, error: null, retryable: false };
      // PagerDuty takes one event per request; a repeat of one already taken folds into the same alert (dedup_key).
      for (const e of o.message.events) {
        const res = await o.client.request({
          method: 'POST', url: o.config.eventsUrl ?? PAGERDUTY_EVENTS_URL, headers: { 'content-type': 'application/json', 'user-agent': RELAY_USER_AGENT },
          body: JSON.stringify({ routing_key: o.secret.routingKey, ...e }), allowPrivate: o.allowPrivate,
        });
        last = judgeAnswer(res.status, pagerDutyAnswer(res.status, res.body));
        if (!last.ok) return last;
      }
      return last;
    }
    return { ok: false, status: null, error: 'e-mail goes through the mail outbox', retryable: false };
  } catch (err) {
    return failed(err);
  }
}
