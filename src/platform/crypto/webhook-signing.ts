import { createHmac } from 'node:crypto';

/**
 * Headers of a signed delivery. Two signatures over the same raw body and the same secret:
 * ours (`X-Changeledger-Signature: sha256=<hex HMAC-SHA256 of the body>`) and the Standard
 * Webhooks ones (`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), so a
 * receiver can also refuse replays by their timestamp. The HMAC key is the secret's own
 * characters (a Standard Webhooks library takes it with `{ format: 'raw' }`).
 */
export function signedHeaders(o: { secret: string; deliveryId: string; event: string; body: string; at: Date; userAgent: string }): Record<string, string> {
  const timestamp = Math.floor(o.at.getTime() / 1000).toString();
  return {
    'content-type': 'application/json',
    'user-agent': o.userAgent,
    'x-changeledger-event': o.event,
    'x-changeledger-delivery': o.deliveryId,
    'x-changeledger-signature': `sha256=${createHmac('sha256', o.secret).update(o.body, 'utf8').digest('hex')}`,
    'webhook-id': o.deliveryId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${createHmac('sha256', o.secret).update(`${o.deliveryId}.${timestamp}.${o.body}`, 'utf8').digest('base64')}`,
  };
}
