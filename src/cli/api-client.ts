import type { Command } from 'commander';
import { CLIENT_HEADER } from '../platform/http/access.js';
import { EXIT } from './common.js';

/**
 * A small HTTP client of the running server's pipeline listener. Commands that talk to a running
 * server use it instead of opening the store, which the server holds locked while it runs.
 */

export const DEFAULT_SERVER = 'http://localhost:4320';
const TIMEOUT_MS = 30_000;

export type ServerOpts = { server?: string; token?: string };

/** A refusal or failure already worded for a person, with the exit code it maps to. */
export class ClientFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ClientFailure';
  }
}

export function withServerOptions(cmd: Command): Command {
  return cmd
    .option('--server <url>', `the server's pipeline listener (default: $CHANGELEDGER_URL or ${DEFAULT_SERVER})`)
    // No default value here: commander would print it in --help, and the token must never be shown.
    .option('--token <token>', 'API token with flags:read (and flags:write to change); prefer $CHANGELEDGER_TOKEN, since arguments show in ps');
}

export type ApiAnswer<T> = { status: number; body: T };
type Query = Record<string, string | number | undefined>;

export const TOKEN_HINT =
  'create one with `changeledger tokens create --user you@example.com --name flagctl --scopes flags:read,flags:write` ' +
  '(where the server keeps its data directory, or with its DATABASE_URL; the server may be running) or in the web UI under API tokens';

export class ApiClient {
  readonly baseUrl: string;
  // A private field: it stays out of JSON.stringify, util.inspect and error messages.
  readonly #token: string;

  constructor(baseUrl: string, token: string) {
    this.baseUrl = baseUrl;
    this.#token = token;
  }

  /** The headers that authenticate a request of another client (the MCP relay's HTTP transport). */
  authHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.#token}`, [CLIENT_HEADER]: 'cli' };
  }

  get<T>(path: string, query: Query = {}): Promise<ApiAnswer<T>> {
    return this.request<T>('GET', path, query, undefined);
  }

  /** A document as the server wrote it (a report's HTML, text or CSV), not JSON; refusals as for get. */
  getText(path: string, query: Query = {}): Promise<ApiAnswer<string>> {
    return this.request<string>('GET', path, query, undefined, true);
  }

  post<T>(path: string, body: unknown): Promise<ApiAnswer<T>> {
    return this.request<T>('POST', path, {}, body);
  }

  put<T>(path: string, body: unknown): Promise<ApiAnswer<T>> {
    return this.request<T>('PUT', path, {}, body);
  }

  private async request<T>(method: string, path: string, query: Query, body: unknown, asText = false): Promise<ApiAnswer<T>> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        // The client header labels what this token writes as coming from the command line (source cli).
        headers: { authorization: `Bearer ${this.#token}`, accept: asText ? '*/*' : 'application/json', [CLIENT_HEADER]: 'cli', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        // Following a redirect could carry the token somewhere the user did not name.
        redirect: 'manual',
      });
    } catch (err) {
      throw unreachable(this.baseUrl, err);
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status >= 200 && res.status < 300) {
      if (asText) return { status: res.status, body: text as T };
      if (parsed === undefined) throw new ClientFailure(`${this.baseUrl} answered ${method} ${path} with something other than JSON; is it a changeledger pipeline listener?`, EXIT.failed);
      return { status: res.status, body: parsed as T };
    }
    throw refusal(this.baseUrl, res, parsed);
  }
}

function refusal(baseUrl: string, res: Response, parsed: unknown): ClientFailure {
  const body = (parsed && typeof parsed === 'object' ? parsed : {}) as { error?: unknown; field?: unknown; requestId?: unknown };
  const error = typeof body.error === 'string' ? body.error : `${res.status} ${res.statusText}`.trim();
  const field = typeof body.field === 'string' ? body.field : undefined;
  if (res.status >= 300 && res.status < 400) {
    return new ClientFailure(`${baseUrl} answered with a redirect (${res.status}) to ${res.headers.get('location') ?? 'elsewhere'}; point --server at the pipeline listener itself`, EXIT.usage, 'server');
  }
  if (res.status === 429) {
    const after = res.headers.get('retry-after');
    return new ClientFailure(/retry/i.test(error) ? error : `${error}; retry later${after ? ` (in ${after} s)` : ''}`, EXIT.unavailable);
  }
  if (res.status >= 400 && res.status < 500) return new ClientFailure(`${error}${field ? ` (field: ${field})` : ''}`, EXIT.usage, field);
  if (res.status === 502 || res.status === 503 || res.status === 504) return new ClientFailure(`the server at ${baseUrl} is unavailable (${res.status}): ${error}`, EXIT.unavailable);
  const requestId = typeof body.requestId === 'string' ? ` (request id ${body.requestId})` : '';
  return new ClientFailure(`the server failed (${res.status}): ${error}${requestId}`, EXIT.failed);
}

/** Only the error's code or its cause is shown: fetch's own messages may quote request headers. */
function unreachable(baseUrl: string, err: unknown): ClientFailure {
  const e = err as { name?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return new ClientFailure(`the changeledger server at ${baseUrl} did not answer within ${TIMEOUT_MS / 1000} s`, EXIT.unavailable);
  const detail = e.cause?.code ?? e.cause?.message ?? e.name ?? 'unknown error';
  return new ClientFailure(`cannot reach the changeledger server at ${baseUrl} (${detail})`, EXIT.unavailable);
}

/** The client for one command: --server / $CHANGELEDGER_URL, --token / $CHANGELEDGER_TOKEN. */
export function connect(o: ServerOpts, env: NodeJS.ProcessEnv = process.env): ApiClient {
  const server = (o.server ?? env.CHANGELEDGER_URL ?? '').trim() || DEFAULT_SERVER;
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new ClientFailure(`--server must be an http(s) URL such as ${DEFAULT_SERVER}, not "${server}"`, EXIT.usage, 'server');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ClientFailure(`--server must be an http(s) URL such as ${DEFAULT_SERVER}`, EXIT.usage, 'server');
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  const baseUrl = url.toString().replace(/\/+$/, '');

  const token = (o.token ?? env.CHANGELEDGER_TOKEN ?? '').trim();
  if (!token) throw new ClientFailure(`no API token: pass --token or set CHANGELEDGER_TOKEN; ${TOKEN_HINT}`, EXIT.usage, 'token');
  // fetch quotes an invalid header value in its error, so a pasted token with a stray character is refused here.
  if (!/^[\x21-\x7e]+$/.test(token)) throw new ClientFailure('the API token contains spaces or control characters; copy it again', EXIT.usage, 'token');
  return new ApiClient(baseUrl, token);
}
