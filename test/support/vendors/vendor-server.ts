import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the vendor saw it. `body` is the parsed JSON (undefined when not JSON); `raw` the bytes as text. */
export type RecordedRequest = {
  method: string;
  /** Path and query, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  raw: string;
  body: unknown;
};

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

/** What a test can do to any fake vendor, besides reading what it received. */
export type VendorControls = {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: RecordedRequest[];
  /** The next answer is this status (503, 429 …) with the vendor's own body for it; requests are still recorded. Queues. */
  failNext(status: number): void;
  /** The next request gets no answer at all: the connection stays open until the client gives up or close(). */
  hangNext(): void;
  close(): Promise<void>;
};

type Fault = { kind: 'status'; status: number } | { kind: 'hang' };

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({ status, body, headers });
/** A body that is not JSON (Jira Cloud's 401, an HTML error page). */
export const text = (status: number, body: string, contentType = 'text/plain;charset=UTF-8'): Reply => ({ status, body, headers: { 'content-type': contentType } });

/**
 * A node:http server on 127.0.0.1 that records every request and answers through `handle`,
 * unless a fault was queued. `faultReply` is the vendor's answer for a queued status: each
 * vendor words its 429 and 503 its own way.
 */
export async function startVendorServer(
  handle: (r: RecordedRequest) => Reply,
  faultReply: (status: number) => Reply,
): Promise<VendorControls> {
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [];
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const u = new URL(req.url ?? '/', 'http://vendor.invalid');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', path: u.pathname, query: u.searchParams, headers: req.headers, raw, body };
      requests.push(recorded);
      const fault = faults.shift();
      if (fault?.kind === 'hang') return;
      let reply: Reply;
      try {
        reply = fault ? faultReply(fault.status) : handle(recorded);
      } catch (err) {
        reply = text(500, `fake vendor failed: ${(err as Error).message}`);
      }
      const isText = typeof reply.body === 'string';
      const payload = reply.body === undefined ? '' : isText ? (reply.body as string) : JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'content-type': 'application/json;charset=UTF-8', ...(reply.headers ?? {}) });
      res.end(payload);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (status) => void faults.push({ kind: 'status', status }),
    hangNext: () => void faults.push({ kind: 'hang' }),
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/** The credentials of a Basic authorization header, or null. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | null {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? null : { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

export function bearerToken(header: string | undefined): string | null {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? null;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
