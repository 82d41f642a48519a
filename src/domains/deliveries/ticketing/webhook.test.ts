import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../../platform/net/outbound.js';
import { startWebhookServer, type WebhookServer } from '../../../../test/support/vendors/webhook-server.js';
import type { RecordedRequest } from '../../../../test/support/vendors/vendor-server.js';
import { aTicketChange, aTicketStep } from '../../../../test/support/vendors/ticket-steps.js';
import type { AdapterContext, TicketRef, WebhookTicketing } from './ticket-types.js';
import { webhookAdapter } from './webhook.js';

const ctx: AdapterContext = { client: createOutboundClient({ testOnlyAllowLoopback: true }), allowPrivate: false };
const SECRET = 'whook-secret-0123456789abcdef';
const CHANGE_REF: TicketRef = { kind: 'webhook', id: aTicketChange().id, key: 'CHG-1a2b3c4d', url: null };

let receiver: WebhookServer | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

async function bridge(): Promise<{ receiver: WebhookServer; settings: WebhookTicketing }> {
  receiver = await startWebhookServer();
  return { receiver, settings: { kind: 'webhook', url: `${receiver.url}/hooks/changeledger?team=ops`, secret: SECRET } };
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What a receiver does before parsing: our HMAC over the raw body, and the Standard Webhooks signature (computed by hand: the package is not installed). */
function verify(req: RecordedRequest, secret: string): { ours: boolean; standard: boolean; skewSeconds: number } {
  const h = req.headers as Record<string, string>;
  const ours = same(h['x-changeledger-signature']!, `sha256=${createHmac('sha256', secret).update(req.raw, 'utf8').digest('hex')}`);
  const expected = createHmac('sha256', secret).update(`${h['webhook-id']}.${h['webhook-timestamp']}.${req.raw}`, 'utf8').digest('base64');
  const standard = h['webhook-signature']!.split(' ').some((s) => same(s, `v1,${expected}`));
  return { ours, standard, skewSeconds: Math.abs(Math.floor(Date.now() / 1000) - Number(h['webhook-timestamp'])) };
}

describe('the ticket webhook', () => {
  it('posts change.ticket.created, signed both ways, with exactly the contract’s fields', async () => {
    const { receiver, settings } = await bridge();
    const step = aTicketStep();
    const answer = await webhookAdapter.send(ctx, settings, step);

    expect(answer).toEqual({ status: 200, ticket: CHANGE_REF, calls: 1 });
    const req = receiver.requests[0]!;
    expect([req.method, req.url]).toEqual(['POST', '/hooks/changeledger?team=ops']);
    expect(req.headers).toMatchObject({
      'content-type': 'application/json', 'user-agent': 'changeledger-tickets/1',
      'x-changeledger-event': 'change.ticket.created', 'x-changeledger-delivery': step.deliveryId, 'webhook-id': step.deliveryId,
    });
    expect(Object.keys(req.body as object)).toEqual(['event', 'deliveryId', 'occurredAt', 'change']);
    expect(req.body).toEqual({ event: 'change.ticket.created', deliveryId: step.deliveryId, occurredAt: step.occurredAt, change: step.change });
    const check = verify(req, SECRET);
    expect(check.ours).toBe(true);
    expect(check.standard).toBe(true);
    expect(check.skewSeconds).toBeLessThan(300);
    expect(verify(req, 'another-secret-0123456789').ours).toBe(false);
  });

  it('posts change.ticket.updated with the ticket and the update', async () => {
    const { receiver, settings } = await bridge();
    const ticket: TicketRef = { kind: 'webhook', id: 'OPS-42', key: 'OPS-42', url: 'https://tickets.example.com/OPS-42' };
    const step = aTicketStep({ action: 'update', event: 'change.reported', ticket, close: { reason: 'reported', outcome: 'success', impact: 'none' } });
    const answer = await webhookAdapter.send(ctx, settings, step);

    expect(answer).toEqual({ status: 200, calls: 1 });
    const req = receiver.requests[0]!;
    expect(req.headers['x-changeledger-event']).toBe('change.ticket.updated');
    expect(Object.keys(req.body as object)).toEqual(['event', 'deliveryId', 'occurredAt', 'change', 'ticket', 'update']);
    expect(req.body).toEqual({
      event: 'change.ticket.updated', deliveryId: step.deliveryId, occurredAt: step.occurredAt, change: step.change, ticket,
      update: { event: 'change.reported', text: 'Surveillance report: impact none, outcome success.', close: { reason: 'reported', outcome: 'success', impact: 'none' } },
    });
    expect(verify(req, SECRET)).toMatchObject({ ours: true, standard: true });
  });

  it('an update without a ticket names the change instead, and is still sent', async () => {
    const { receiver, settings } = await bridge();
    const answer = await webhookAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.started', ticket: null }));
    expect(answer).toEqual({ status: 200, calls: 1 });
    expect((receiver.requests[0]!.body as { ticket: unknown; update: unknown }).ticket).toEqual(CHANGE_REF);
    expect((receiver.requests[0]!.body as { update: unknown }).update).toEqual({ event: 'change.started', text: 'Started by the deploy pipeline.', close: null });
  });

  it('a retry sends the same delivery id and the same body', async () => {
    const { receiver, settings } = await bridge();
    receiver.failNext(503);
    const step = aTicketStep();
    expect(await webhookAdapter.send(ctx, settings, step)).toEqual({ status: 503, error: 'The webhook answered 503: upstream unavailable', calls: 1 });
    await webhookAdapter.send(ctx, settings, step);
    const [first, second] = receiver.requests;
    expect(second!.raw).toBe(first!.raw);
    expect(second!.headers['x-changeledger-delivery']).toBe(first!.headers['x-changeledger-delivery']);
    expect(second!.headers['x-changeledger-signature']).toBe(first!.headers['x-changeledger-signature']);
  });

  it.each<[string, unknown, TicketRef]>([
    ['{id, key, url}', { id: 'OPS-42', key: 'OPS-42', url: 'https://tickets.example.com/OPS-42' }, { kind: 'webhook', id: 'OPS-42', key: 'OPS-42', url: 'https://tickets.example.com/OPS-42' }],
    ['{ticket: {id, key, url}}', { ticket: { id: 'INC-7', key: 'Incident 7', url: 'https://itsm.example.com/i/7' } }, { kind: 'webhook', id: 'INC-7', key: 'Incident 7', url: 'https://itsm.example.com/i/7' }],
    ['a numeric id and no key or url', { id: 4711 }, { kind: 'webhook', id: '4711', key: '4711', url: null }],
    ['a javascript: url, which is dropped', { id: 'X-1', url: 'javascript:alert(1)' }, { kind: 'webhook', id: 'X-1', key: 'X-1', url: null }],
    ['an empty object: the change names itself', {}, CHANGE_REF],
    ['a body that is not JSON', 'created, thanks', CHANGE_REF],
    ['an id longer than a ref may be', { id: 'x'.repeat(201) }, CHANGE_REF],
  ])('takes the ticket from an answer with %s', async (_what, body, ticket) => {
    const { receiver, settings } = await bridge();
    receiver.answerWith(201, body);
    expect(await webhookAdapter.send(ctx, settings, aTicketStep())).toEqual({ status: 201, ticket, calls: 1 });
  });

  it('reports a refusal with what the bridge said', async () => {
    const { receiver, settings } = await bridge();
    receiver.answerWith(422, { error: 'unknown team ops' });
    expect(await webhookAdapter.send(ctx, settings, aTicketStep())).toEqual({ status: 422, error: 'The webhook answered 422: unknown team ops', calls: 1 });
  });

  it('probe: posts one signed change.ticket.test with a fresh test delivery id', async () => {
    const { receiver, settings } = await bridge();
    const test = await webhookAdapter.probe(ctx, settings);

    expect(test).toEqual({ kind: 'webhook', ok: true, message: 'The webhook answered 200 to a signed change.ticket.test', steps: [{ name: 'signed test delivery', ok: true, status: 200, detail: 'answered 200' }] });
    const req = receiver.requests[0]!;
    const body = req.body as { event: string; deliveryId: string; occurredAt: string };
    expect(Object.keys(body)).toEqual(['event', 'deliveryId', 'occurredAt']);
    expect(body.event).toBe('change.ticket.test');
    expect(body.deliveryId).toMatch(/^dlv_test_[0-9a-f]{32}$/);
    expect(Math.abs(Date.parse(body.occurredAt) - Date.now())).toBeLessThan(60_000);
    expect(req.headers).toMatchObject({ 'x-changeledger-event': 'change.ticket.test', 'x-changeledger-delivery': body.deliveryId, 'webhook-id': body.deliveryId });
    expect(verify(req, SECRET)).toMatchObject({ ours: true, standard: true });
    await webhookAdapter.probe(ctx, settings);
    expect((receiver.requests[1]!.body as { deliveryId: string }).deliveryId).not.toBe(body.deliveryId);
  });

  it('probe: a refusing bridge fails the step with its answer', async () => {
    const { receiver, settings } = await bridge();
    receiver.answerWith(401, { message: 'bad signature' });
    const test = await webhookAdapter.probe(ctx, settings);
    expect(test).toEqual({ kind: 'webhook', ok: false, message: 'signed test delivery failed: The webhook answered 401: bad signature', steps: [{ name: 'signed test delivery', ok: false, status: 401, detail: 'The webhook answered 401: bad signature' }] });
  });

  it('probe: a bridge that never answers is a failed step, not a throw', async () => {
    const { receiver, settings } = await bridge();
    receiver.hangNext();
    const impatient: AdapterContext = { client: createOutboundClient({ testOnlyAllowLoopback: true, timeoutMs: 200 }), allowPrivate: false };
    const test = await webhookAdapter.probe(impatient, settings);
    expect(test.ok).toBe(false);
    expect(test.steps[0]).toMatchObject({ ok: false, status: null, detail: expect.stringMatching(/^no answer from 127\.0\.0\.1:\d+ within 0\.2 s$/) });
  });
});
