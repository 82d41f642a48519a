import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

export type Hit = { method: string; path: string; event: string | null; headers: IncomingHttpHeaders; json: Record<string, unknown> };
export type Reply = { status: number; body?: unknown };

/**
 * A loopback HTTP receiver for callbacks and ticket webhooks that answers by what it is sent:
 * `answer` sees each request (its X-Changeledger-Event) and may be swapped mid-test, so the
 * same receiver says 204 now and 503 later. Every request is recorded.
 */
export async function startDeliveriesReceiver(answer: (hit: Hit) => Reply): Promise<{
  url: string; hits: Hit[]; answerWith(next: (hit: Hit) => Reply): void; close(): Promise<void>;
}> {
  let current = answer;
  const hits: Hit[] = [];
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        json = {};
      }
      const event = req.headers['x-changeledger-event'];
      const hit: Hit = { method: req.method ?? '', path: req.url ?? '', event: typeof event === 'string' ? event : null, headers: req.headers, json };
      hits.push(hit);
      const reply = current(hit);
      if (reply.body === undefined) {
        res.writeHead(reply.status);
        res.end();
      } else {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${String(port)}`,
    hits,
    answerWith: (next) => {
      current = next;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => { resolve(); });
    }),
  };
}
