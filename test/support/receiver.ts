import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export type Received = { method: string; path: string; headers: IncomingHttpHeaders; raw: Buffer; json: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** How the receiver answers one request: a status and body, or no answer at all. */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

/**
 * A real HTTP receiver on loopback that records every request byte for byte. Answers come from
 * a queue (then the default), so a test scripts "503, 503, then 204".
 */
export async function startReceiver(defaultAnswer: Answer = { status: 204 }): Promise<{
  url: string; received: Received[]; answers: Answer[]; setDefault(a: Answer): void; close(): Promise<void>;
}> {
  const received: Received[] = [];
  const answers: Answer[] = [];
  let fallback = defaultAnswer;
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json = {};
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = {};
      }
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, json });
      const a = answers.shift() ?? fallback;
      if (a === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(a.status, a.headers ?? (a.body ? { 'content-type': 'application/json' } : {}));
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`, received, answers,
    setDefault: (a) => {
      fallback = a;
    },
    close: () => new Promise<void>((r) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
