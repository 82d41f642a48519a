import { newId } from '../../../platform/ids.js';
import { signedHeaders } from '../../../platform/crypto/webhook-signing.js';
import { TICKET_USER_AGENT } from '../signing.js';
import type { AdapterContext, ProbeStep, StepAnswer, TicketAdapter, TicketRef, TicketStep, WebhookTicketing } from './ticket-types.js';
import { asText, isRecord, isSuccess, parseJson, probeCall, probeResult, unanswered, vendorError } from './ticket-http.js';

/**
 * The ticket webhook: for any other system, a signed POST of the change.ticket.* contract to a
 * bridge of the organisation's own. Signed like pipeline callbacks (X-Changeledger-Signature and
 * the Standard Webhooks headers), with the delivery id unchanged on every retry.
 */

export type TicketWebhookEvent = 'change.ticket.created' | 'change.ticket.updated' | 'change.ticket.test';
export type TicketWebhookBody = { event: TicketWebhookEvent; deliveryId: string; occurredAt: string; [field: string]: unknown };

/** Bounds on what a receiver may hand back as its ticket: it is shown on pages and in reports. */
const MAX_REF_CHARS = 200;
const MAX_URL_CHARS = 2048;

/** The ref a change gets when the receiver names no ticket of its own. */
export function changeRef(step: Pick<TicketStep, 'change'>): TicketRef {
  return { kind: 'webhook', id: step.change.id, key: step.change.displayId, url: null };
}

export function webhookBody(step: TicketStep): TicketWebhookBody {
  const base = { deliveryId: step.deliveryId, occurredAt: step.occurredAt, change: step.change };
  if (step.action === 'create') return { event: 'change.ticket.created', ...base };
  return {
    event: 'change.ticket.updated', ...base,
    ticket: step.ticket ?? changeRef(step),
    update: { event: step.event, text: step.text, close: step.close },
  };
}

/** Only http(s) links are kept: the URL becomes a link on the change page. */
function safeUrl(v: unknown): string | null {
  const text = asText(v);
  if (!text || text.length > MAX_URL_CHARS) return null;
  try {
    const u = new URL(text);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** `{id, key, url}` or `{ticket: {id, key, url}}` from the answer to change.ticket.created; null when it names none. */
export function ticketFromAnswer(body: string): TicketRef | null {
  const json = parseJson(body);
  if (!isRecord(json)) return null;
  const t = isRecord(json.ticket) ? json.ticket : json;
  const id = asText(t.id)?.trim();
  if (!id || id.length > MAX_REF_CHARS) return null;
  const key = asText(t.key)?.trim();
  return { kind: 'webhook', id, key: key && key.length <= MAX_REF_CHARS ? key : id, url: safeUrl(t.url) };
}

/** A bridge's error body is whatever it likes: `{error}` or `{message}` when JSON, else its text. */
function bridgeErrors(json: unknown): string[] {
  if (!isRecord(json)) return [];
  const said = asText(json.error) ?? (isRecord(json.error) ? asText(json.error.message) : null) ?? asText(json.message);
  return said ? [said] : [];
}

async function post(ctx: AdapterContext, s: WebhookTicketing, deliveryId: string, payload: TicketWebhookBody) {
  const body = JSON.stringify(payload);
  const headers = signedHeaders({ secret: s.secret, deliveryId, event: payload.event, body, at: new Date(), userAgent: TICKET_USER_AGENT });
  return ctx.client.request({ method: 'POST', url: s.url, headers, body, allowPrivate: ctx.allowPrivate });
}

export const webhookAdapter: TicketAdapter<WebhookTicketing> = {
  async send(ctx, s, step): Promise<StepAnswer> {
    const res = await post(ctx, s, step.deliveryId, webhookBody(step));
    if (!isSuccess(res.status)) return { status: res.status, error: vendorError('The webhook', res, bridgeErrors), calls: 1 };
    if (step.action === 'update') return { status: res.status, calls: 1 };
    return { status: res.status, ticket: ticketFromAnswer(res.body) ?? changeRef(step), calls: 1 };
  },

  async probe(ctx, s) {
    const name = 'signed test delivery';
    const deliveryId = newId('dlv_test');
    const res = await probeCall(() => post(ctx, s, deliveryId, { event: 'change.ticket.test', deliveryId, occurredAt: new Date().toISOString() }));
    let step: ProbeStep;
    if (res instanceof Error) step = unanswered(name, res);
    else if (!isSuccess(res.status)) step = { name, ok: false, status: res.status, detail: vendorError('The webhook', res, bridgeErrors) };
    else step = { name, ok: true, status: res.status, detail: `answered ${res.status}` };
    return probeResult('webhook', [step], () => `The webhook ${step.detail} to a signed change.ticket.test`);
  },
};
