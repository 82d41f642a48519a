import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../../src/platform/clock.js';

/**
 * The spec's own Node callback receiver (test/fixtures/callbacks/receiver.cjs) as a child process,
 * and the recording relay that the server calls back (see test/e2e/callback-receivers.test.ts for
 * why a relay sits in front of it).
 */

const FIXTURES = fileURLToPath(new URL('../fixtures/callbacks/', import.meta.url));
const RECEIVER = join(FIXTURES, 'receiver.cjs');
const LISTEN_ANYWHERE = join(FIXTURES, 'listen-anywhere.cjs');

/** One callback as the server sent it, and when (by the app's clock) it arrived. */
export type Captured = { path: string; headers: IncomingHttpHeaders; raw: Buffer; at: Date; answered: number };

/** The spec's receiver, unchanged, with its .listen(8080) moved to a free loopback port by the preload. */
export async function startSpecReceiver(secret: string): Promise<{ port: number; lines(): string[]; waitForLines(n: number): Promise<string[]>; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, ['--require', LISTEN_ANYWHERE, RECEIVER], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', CHANGELEDGER_CALLBACK_SECRET: secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the receiver never said its port:\n${stderr}`)), 10_000);
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the receiver exited (${code}) before listening:\n${stderr}`));
    });
  });
  const lines = () => stdout.split('\n').filter(Boolean);
  return {
    port, lines,
    async waitForLines(n) {
      const until = new Date().getTime() + 10_000;
      while (lines().length < n) {
        if (child.exitCode !== null || new Date().getTime() > until) throw new Error(`the receiver printed ${lines().length} of ${n} lines:\n${stdout}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return lines();
    },
    stop: () => {
      child.kill();
    },
  };
}

/** Records each request byte for byte, passes it on unchanged to the receiver, and answers what the receiver answered. */
export async function startRelay(clock: Clock): Promise<{ url: string; received: Captured[]; target: number | null; close(): Promise<void> }> {
  const state = { received: [] as Captured[], target: null as number | null };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const captured: Captured = { path: req.url ?? '', headers: req.headers, raw, at: clock.now(), answered: 0 };
      state.received.push(captured);
      if (state.target === null) {
        res.writeHead(503).end('no receiver yet');
        return;
      }
      const { host: _host, connection: _connection, 'transfer-encoding': _te, ...headers } = req.headers;
      const out = request({ host: '127.0.0.1', port: state.target, method: req.method, path: req.url, headers: { ...headers, 'content-length': String(raw.length) } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          captured.answered = answer.statusCode ?? 0;
          res.writeHead(captured.answered, answer.headers['content-type'] ? { 'content-type': answer.headers['content-type'] } : {}).end(Buffer.concat(body));
        });
      });
      out.on('error', (err) => res.writeHead(502).end(String(err)));
      out.end(raw);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  });
}

