/**
 * Reading GitHub's and GitLab's REST lists through the one outbound client (SSRF guard): a page at
 * a time, the next page from the answer's headers, and every failure said in words the scheduler
 * can store and a person can act on.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { OutboundFailed, OutboundRefused } from '../../../platform/net/outbound.js';
import { PULLS_ALLOW_PRIVATE, type PullDeps } from '../observed-types.js';
import type { Json } from './git-common.js';

/** A page of 100 pull requests with their repositories runs to megabytes; the client's default cap is 256 KiB. */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;

export type RestService = 'GitHub' | 'GitLab';
export type Page = { body: unknown; headers: IncomingHttpHeaders };

function hint(service: RestService, status: number): string {
  if (status === 401) return ': check the connection’s token';
  if (status === 403) return ': the token may not read this, or the rate limit was reached';
  if (status === 404) return service === 'GitHub' ? ': check the repository name and that the token can see it' : ': check the project and that the token can see it';
  return '';
}

function messageOf(body: string): string {
  try {
    const j = JSON.parse(body) as { message?: unknown; error?: unknown };
    const m = j.message ?? j.error;
    if (typeof m === 'string') return m.slice(0, 200);
    if (m && typeof m === 'object') return JSON.stringify(m).slice(0, 200);
  } catch {
    // not JSON: the status says enough
  }
  return '';
}

/** GET one URL; answers the parsed body and headers or throws an Error that says what failed. */
export async function getJson(deps: PullDeps, service: RestService, url: string, headers: Record<string, string>): Promise<Page> {
  const path = new URL(url).pathname;
  let res;
  try {
    res = await deps.outbound.request({ method: 'GET', url, allowPrivate: PULLS_ALLOW_PRIVATE, headers: { accept: service === 'GitHub' ? 'application/vnd.github+json' : 'application/json', ...headers }, maxResponseBytes: MAX_PAGE_BYTES });
  } catch (err) {
    if (err instanceof OutboundRefused || err instanceof OutboundFailed) throw new Error(`could not reach ${service} at ${new URL(url).host}: ${err.message}`);
    throw err;
  }
  if (res.status < 200 || res.status > 299) {
    const m = messageOf(res.body);
    throw new Error(`${service} answered ${res.status}${m ? ` (${m})` : ''} reading ${path}${hint(service, res.status)}`);
  }
  if (res.truncated) throw new Error(`${service}'s answer to ${path} was larger than ${MAX_PAGE_BYTES / 1024 / 1024} MiB`);
  try {
    return { body: JSON.parse(res.body) as unknown, headers: res.headers };
  } catch {
    throw new Error(`${service} answered ${path} with something that is not JSON`);
  }
}

/** GET a list page: the body must be an array of objects. */
export async function getList(deps: PullDeps, service: RestService, url: string, headers: Record<string, string>): Promise<{ items: Json[]; headers: IncomingHttpHeaders }> {
  const page = await getJson(deps, service, url, headers);
  if (!Array.isArray(page.body) || !page.body.every((x) => typeof x === 'object' && x !== null)) {
    throw new Error(`${service} answered ${new URL(url).pathname} with something that is not a list`);
  }
  return { items: page.body as Json[], headers: page.headers };
}

/**
 * The `rel="next"` URL of a Link header (RFC 8288, as GitHub and GitLab send it), kept only on the
 * API's own origin: the token is never sent to a host a page points at.
 */
export function nextLink(headers: IncomingHttpHeaders, origin: string): string | null {
  const link = headers.link;
  const value = Array.isArray(link) ? link.join(',') : link;
  if (!value) return null;
  for (const part of value.split(',')) {
    const m = /<([^>]+)>\s*;(?:[^,]*;)?\s*rel="?([^";]*)"?/.exec(part.trim());
    if (m && m[2]!.split(/\s+/).includes('next')) {
      try {
        const u = new URL(m[1]!, origin);
        return u.origin === new URL(origin).origin ? u.toString() : null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** How many raw items a pull may still read (window.maxRaw across every repository and list). */
export class RawBudget {
  read = 0;
  constructor(readonly max: number) {}
  get spent(): boolean {
    return this.read >= this.max;
  }
  take(): boolean {
    if (this.read >= this.max) return false;
    this.read += 1;
    return true;
  }
}

export const apiBase = (configured: unknown, fallback: string): string => {
  const v = typeof configured === 'string' && configured.trim() ? configured.trim() : fallback;
  return v.replace(/\/+$/, '');
};

/** Milliseconds of an ISO time, or NaN. */
export const ms = (iso: unknown): number => (typeof iso === 'string' ? Date.parse(iso) : Number.NaN);
