/**
 * One HTTP request over a keep-alive agent, timed to the end of its answer: node:http rather than
 * fetch, since undici is not a dependency of the project (Node's fetch hides its dispatcher) and the
 * plain client costs the shared cores less. A failure is an answer too ("ERR code"), never a throw.
 */
import { type Agent, request } from 'node:http';

export type Answer = { status: string; ms: number };

export function send(agent: Agent, url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const h: Record<string, string | number> = { ...headers };
    if (body !== undefined) {
      h['content-type'] = 'application/json';
      h['content-length'] = Buffer.byteLength(body);
    }
    const req = request(url, { method, agent, headers: h, timeout: 30_000 }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: String(res.statusCode ?? 0), ms: performance.now() - t0 }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ status: `ERR ${err.code ?? err.message}`, ms: performance.now() - t0 }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: `ERR ${err.code ?? err.message}`, ms: performance.now() - t0 }));
    req.end(body);
  });
}
