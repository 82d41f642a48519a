import { json, startVendorServer, text, type Reply, type VendorControls } from './vendor-server.js';

/**
 * A ticket bridge of someone's own: records what it receives (the raw body too, for checking
 * signatures) and answers 200 `{}` unless told otherwise.
 */
export type WebhookServer = VendorControls & {
  /** Every later request gets this answer (a status, and a JSON body or a text). */
  answerWith(status: number, body?: unknown): void;
};

export async function startWebhookServer(): Promise<WebhookServer> {
  let answer: Reply = json(200, {});
  const server = await startVendorServer(() => answer, (status) => (status === 429
    ? text(429, 'Too Many Requests', 'text/plain')
    : text(status, 'upstream unavailable', 'text/plain')));
  return Object.assign(server, {
    answerWith(status: number, body: unknown = {}) {
      answer = typeof body === 'string' ? text(status, body) : json(status, body);
    },
  });
}
