/**
 * Field readers shared by the sources whose body we document or a standard defines (Argo CD
 * notifications, PagerDuty change events, CloudEvents, the generic webhook). Each throws a
 * FieldError naming the dotted field, so a single event answers 400 and a batch item is rejected
 * with the same words.
 */
import { AppError, FieldError, invalid } from '../../../platform/errors.js';
import { fieldSentence } from '../../../platform/field-words.js';
import type { RecordPrincipal } from '../../changes/change-feed.js';
import type { Rejected } from '../observed-types.js';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at a dotted path of nested objects, or undefined. */
export function at(o: unknown, path: string): unknown {
  let cur: unknown = o;
  for (const k of path.split('.')) {
    if (!isObj(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** Text or nothing: an absent, null or blank value is nothing; anything but text is refused. */
export function optText(v: unknown, field: string, max = 2000): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw invalid(field, 'must be text');
  const t = v.trim();
  if (t === '') return null;
  if (t.length > max) throw invalid(field, `must be at most ${max} characters`);
  return t;
}

export function reqText(v: unknown, field: string, max = 2000): string {
  const t = optText(v, field, max);
  if (t === null) throw invalid(field, 'is required');
  return t;
}

export function optObj(v: unknown, field: string): Obj | null {
  if (v === undefined || v === null) return null;
  if (!isObj(v)) throw invalid(field, 'must be an object');
  return v;
}

/**
 * A time as ISO 8601. A time without a zone is read as UTC (as the spec reads every zoneless time);
 * epoch numbers are refused, since seconds and milliseconds cannot be told apart reliably.
 */
export function optTime(v: unknown, field: string): string | null {
  const t = optText(v, field, 100);
  if (t === null) return null;
  const zoned = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(t) || !/T|\d{2}:\d{2}/.test(t) ? t : `${t}Z`;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(zoned) ? Date.parse(zoned.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : Number.NaN;
  if (!Number.isFinite(ms)) throw invalid(field, 'must be a date and time such as 2026-01-31T09:00:00Z', t);
  return new Date(ms).toISOString();
}

/** A link shown to people: only http(s), so a sender cannot plant a javascript: URL on a page. */
export function optLink(v: unknown, field: string): string | null {
  const t = optText(v, field, 2000);
  if (t === null) return null;
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    throw invalid(field, 'is not a URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid(field, 'must be an http or https URL');
  return u.toString();
}

/**
 * `owner/name` (or `group/sub/project`) from a Git remote: https://github.com/foo/bar.git,
 * git@github.com:foo/bar.git, ssh://git@host/foo/bar. Null when the URL names no repository path
 * (a Helm chart repository's root, an OCI registry without a path).
 */
export function repoFromUrl(url: string | null): string | null {
  if (!url) return null;
  const t = url.trim();
  const scp = /^[\w.-]+@[\w.-]+:(?!\/\/)(.+)$/.exec(t);
  let path: string;
  if (scp) path = scp[1]!;
  else {
    try {
      path = new URL(t).pathname;
    } catch {
      // Already a slug ("owner/name").
      path = t;
    }
  }
  const slug = path.replace(/^\/+|\/+$/g, '').replace(/\.git$/i, '');
  return slug.includes('/') ? slug : null;
}

/** What to show when a sender does not say who made the change. */
export const unknownPrincipal = (name = 'unknown'): RecordPrincipal => ({ kind: 'unknown', name, id: null, detail: {} });

/** A bad batch item in the same words a single event's 400 would use. */
export function rejectedOf(index: number, e: unknown, prefix: string): Rejected {
  if (e instanceof FieldError) {
    // The item itself was wrong (not an object): name the item, not a `body` inside it.
    const field = e.field === undefined || e.field === 'body' ? prefix.replace(/\.$/, '') : `${prefix}${e.field}`;
    return { index, field, message: fieldSentence({ field, problem: e.problem, value: e.value }) };
  }
  if (e instanceof AppError && e.status === 400) return { index, field: e.field ?? prefix.replace(/\.$/, ''), message: e.message };
  // Anything else is our bug, not the sender's: let it surface.
  throw e;
}

