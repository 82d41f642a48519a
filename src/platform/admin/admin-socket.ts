import { lstatSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { AppError, type ErrorStatus } from '../errors.js';

/**
 * The local admin socket: a Unix socket in the data directory through which the command line asks
 * a running server to do one of a fixed set of named operations. It is not an HTTP proxy: the
 * server answers only the operations it was given. Mode 0600, so only the account that owns the
 * data directory (and root) can connect.
 *
 * Wire format, one JSON document a line: the client sends `{op, args, operator}`; the server
 * answers zero or more `{event}` lines (progress, streamed items), then `{result}` or `{error}`,
 * and closes.
 */

export const ADMIN_SOCKET_NAME = 'changeledger.sock';
/** An imported file travels inside the request; the HTTP import route takes 64 MiB, JSON quoting adds some. */
export const ADMIN_REQUEST_MAX_BYTES = 128 * 1024 * 1024;
const CLOSE_GRACE_MS = 2_000;
/** sun_path holds 108 bytes on Linux (104 on macOS), including the terminating NUL. */
const SOCKET_PATH_MAX = 103;

export type AdminRequest = { op: string; args: unknown; operator: string };
/** `emit` answers a promise while the client has not read what was sent yet: await it when streaming. */
export type AdminEmit = (event: unknown) => void | Promise<void>;
export type AdminHandler = (req: AdminRequest, emit: AdminEmit) => Promise<unknown>;
export type AdminSocket = { readonly path: string; close(): Promise<void> };
export type WireError = { message: string; status?: number; field?: string; code?: 'unknown_operation' | 'bad_request' };

export const adminSocketPath = (dataDir: string) => join(dataDir, ADMIN_SOCKET_NAME);

/** Raised by the client when the server knows no such operation (a server older than the CLI). */
export class UnknownOperationError extends Error {
  constructor(readonly op: string) {
    super(`the running server does not offer "${op}" over its admin socket (it is older than this command line)`);
    this.name = 'UnknownOperationError';
  }
}

/** Nothing answers on the socket: no server, a server older than the socket, or one that crashed. */
export class NoAdminSocketError extends Error {
  constructor(readonly path: string, readonly code: string) {
    super(`nothing answers on ${path} (${code})`);
    this.name = 'NoAdminSocketError';
  }
}

/**
 * Opens the socket. Call it only while holding the data directory's lock: a socket file left there
 * then belongs to a process that is gone, and is removed (only if it is a socket, never following a
 * link). The socket is created under umask 177, so it is 0600 from its first moment: Node binds a
 * Unix socket synchronously inside listen(), so no other code runs while the umask is narrowed.
 */
export async function openAdminSocket(dataDir: string, handler: AdminHandler, onError: (err: unknown) => void): Promise<AdminSocket> {
  const path = adminSocketPath(dataDir);
  if (Buffer.byteLength(path) > SOCKET_PATH_MAX) throw new Error(`the data directory's path is too long for a Unix socket (${path})`);
  removeStaleSocket(path);
  const connections = new Set<Socket>();
  const inFlight = new Set<Promise<void>>();
  const server: Server = createServer((sock) => {
    connections.add(sock);
    // A client that goes away mid-answer must not take the server down.
    sock.on('error', () => undefined);
    sock.once('close', () => connections.delete(sock));
    const work = serveOne(sock, handler, onError);
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const umask = process.umask(0o177);
    try {
      server.listen(path);
    } finally {
      process.umask(umask);
    }
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', onError);
  const st = lstatSync(path);
  if ((st.mode & 0o077) !== 0) {
    server.close();
    rmSync(path, { force: true });
    throw new Error(`the admin socket ${path} came out with mode ${(st.mode & 0o777).toString(8)}, not 600`);
  }
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    // Only our own socket: the same inode we created.
    try {
      const now = lstatSync(path);
      if (now.ino === st.ino && now.dev === st.dev) rmSync(path, { force: true });
    } catch {
      // already gone
    }
  };
  process.once('exit', remove);
  return {
    path,
    async close() {
      // Stop accepting, let operations in hand finish (the store closes after this), then remove the file.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...inFlight]);
      // Each answer is flushed by its end(); a client that does not read it is cut off after a while.
      const cut = setTimeout(() => {
        for (const c of connections) c.destroy();
      }, CLOSE_GRACE_MS);
      await closed;
      clearTimeout(cut);
      remove();
      process.off('exit', remove);
    },
  };
}

function removeStaleSocket(path: string): void {
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (!st.isSocket()) throw new Error(`${path} exists and is not a socket; move it away so the admin socket can be created`);
  rmSync(path, { force: true });
}

async function serveOne(sock: Socket, handler: AdminHandler, onError: (err: unknown) => void): Promise<void> {
  const send = (msg: unknown) => {
    if (!sock.destroyed) sock.write(`${JSON.stringify(msg)}\n`);
  };
  let req: AdminRequest;
  try {
    req = parseRequest(await readLine(sock, ADMIN_REQUEST_MAX_BYTES));
  } catch (err) {
    send({ error: { message: (err as Error).message, status: 400, code: 'bad_request' } satisfies WireError });
    sock.end();
    return;
  }
  try {
    const emit: AdminEmit = (event) => {
      if (sock.destroyed) throw new Error('the client went away');
      if (sock.write(`${JSON.stringify({ event })}\n`)) return;
      return new Promise<void>((resolve) => {
        const go = () => {
          sock.off('drain', go);
          sock.off('close', go);
          resolve();
        };
        sock.once('drain', go);
        sock.once('close', go);
      });
    };
    const result = await handler(req, emit);
    send({ result: result ?? null });
  } catch (err) {
    if (err instanceof UnknownOperationError) send({ error: { message: err.message, code: 'unknown_operation' } satisfies WireError });
    else if (err instanceof AppError) send({ error: { message: err.message, status: err.status, field: err.field } satisfies WireError });
    else {
      onError(err);
      send({ error: { message: err instanceof Error ? err.message : String(err) } satisfies WireError });
    }
  }
  sock.end();
}

function parseRequest(line: string): AdminRequest {
  const v = JSON.parse(line) as Partial<AdminRequest> | null;
  if (!v || typeof v.op !== 'string' || typeof v.operator !== 'string') throw new Error('a request names op and operator');
  return { op: v.op, args: v.args ?? {}, operator: v.operator };
}

/** Reads up to the first newline; refuses more than `max` bytes. */
function readLine(sock: Socket, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      const nl = c.indexOf(0x0a);
      const part = nl === -1 ? c : c.subarray(0, nl);
      size += part.length;
      if (size > max) return finish(new Error(`a request is at most ${max / 1024 / 1024} MiB`));
      chunks.push(part);
      if (nl !== -1) finish(null);
    };
    const onEnd = () => finish(size > 0 ? null : new Error('the request ended before a line'));
    const finish = (err: Error | null) => {
      sock.off('data', onData);
      sock.off('end', onEnd);
      sock.off('error', finish);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    sock.on('data', onData);
    sock.once('end', onEnd);
    sock.once('error', finish);
  });
}

/**
 * Sends one request and answers its result; `onEvent` hears each event first. A refusal comes back
 * as an AppError with the server's status and field, so it maps to the same exit code as when the
 * command ran against the store itself.
 */
export function callAdminSocket(path: string, req: AdminRequest, onEvent: (event: unknown) => void = () => undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const sock = createConnection(path);
    let answered = false;
    let buffer = '';
    const settle = (fn: () => void) => {
      if (answered) return;
      answered = true;
      fn();
      sock.destroy();
    };
    sock.once('connect', () => sock.write(`${JSON.stringify(req)}\n`));
    sock.on('data', (c: Buffer) => {
      buffer += c.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const msg = JSON.parse(line) as { event?: unknown; result?: unknown; error?: WireError };
        if ('event' in msg) onEvent(msg.event);
        else if ('result' in msg) return settle(() => resolve(msg.result));
        else if (msg.error) return settle(() => reject(wireError(req.op, msg.error!)));
      }
    });
    sock.once('error', (err: NodeJS.ErrnoException) => {
      const code = err.code ?? 'error';
      settle(() => reject(code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'ENOTSOCK' ? new NoAdminSocketError(path, code) : err));
    });
    sock.once('close', () => settle(() => reject(new Error('the server closed the admin socket before it answered'))));
  });
}

function wireError(op: string, e: WireError): Error {
  if (e.code === 'unknown_operation') return new UnknownOperationError(op);
  if (e.status && e.status >= 400 && e.status < 600) return new AppError(e.status as ErrorStatus, e.message, e.field);
  return new Error(e.message);
}
