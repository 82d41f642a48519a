/**
 * What the GitHub and GitLab adapters share: reading a payload's fields with a 400 that names the
 * field, the change id a commit or a deployment carries, and an event with the git defaults.
 * Pure: no clock, no I/O.
 */
import type { RecordPrincipal } from '../../changes/change-feed.js';
import { badRequest } from '../../../platform/errors.js';
import { wholeChangeRef } from './change-ref.js';
import type { ObservedEvent, Parsed } from '../observed-types.js';

export type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields of one payload, read with the sender's name in every complaint ("the GitHub push has …"). */
export class Fields {
  constructor(readonly what: string) {}

  obj(o: Json, key: string, path = key): Json {
    const v = o[key];
    if (!isObject(v)) throw badRequest(`${this.what} has no ${path} (an object)`, path);
    return v;
  }

  str(o: Json, key: string, path = key): string {
    const v = o[key];
    if (typeof v !== 'string' || v === '') throw badRequest(`${this.what} has no ${path} (a text)`, path);
    return v;
  }

  /** A number or a numeric text (ids): always answered as text. */
  id(o: Json, key: string, path = key): string {
    const v = o[key];
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v === 'string' && /^\d+$/.test(v)) return v;
    throw badRequest(`${this.what} has no ${path} (a number)`, path);
  }

  /** Absent or null is null; any other type than text is a malformed payload. */
  optStr(o: Json, key: string, path = key): string | null {
    const v = o[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw badRequest(`${this.what} has ${path} that is not a text`, path);
    return v;
  }

  optObj(o: Json, key: string, path = key): Json | null {
    const v = o[key];
    if (v === undefined || v === null) return null;
    if (!isObject(v)) throw badRequest(`${this.what} has ${path} that is not an object`, path);
    return v;
  }

  /** An array of objects (commits): absent is empty. */
  list(o: Json, key: string, path = key): Json[] {
    const v = o[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || !v.every(isObject)) throw badRequest(`${this.what} has ${path} that is not a list of objects`, path);
    return v;
  }

  /** A time the sender wrote (ISO 8601, or GitLab's `2021-04-28 21:50:00 +0200` / `… UTC`), as ISO. */
  time(o: Json, key: string, path = key): string | null {
    const v = o[key];
    if (v === undefined || v === null || v === '') return null;
    const iso = typeof v === 'number' ? new Date(v * 1000).toISOString() : typeof v === 'string' ? readTime(v) : null;
    if (!iso) throw badRequest(`${this.what} has ${path} that is not a time`, path);
    return iso;
  }

  body(body: unknown): Json {
    if (!isObject(body)) throw badRequest(`${this.what} is not a JSON object`, 'body');
    return body;
  }
}

/** ISO 8601 as is; GitLab's hook times (`2017-12-10 17:02:46 UTC`, `2021-04-28 21:50:00 +0200`) made ISO. */
export function readTime(s: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/.exec(s.trim());
  if (!m) return null;
  let zone = m[3] ?? 'Z';
  if (zone === 'UTC') zone = 'Z';
  else if (/^[+-]\d{4}$/.test(zone)) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const d = new Date(`${m[1]}T${m[2]}${zone}`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}


/** Field names a pipeline may set in a deployment's payload to carry the planned change's id. */
export const PAYLOAD_CHANGE_FIELDS = ['changeId', 'change_id', 'changeledger_change_id'] as const;

/** A deployment payload's change id (an object, or the JSON text GitHub also allows). */
export function payloadChangeRef(payload: unknown): string | null {
  let p = payload;
  if (typeof p === 'string') {
    try {
      p = JSON.parse(p);
    } catch {
      return null;
    }
  }
  if (!isObject(p)) return null;
  for (const k of PAYLOAD_CHANGE_FIELDS) {
    const ref = wholeChangeRef(p[k]);
    if (ref) return ref;
  }
  return null;
}

/** The first line of a commit message, cut for a title. */
export function firstLine(s: string | null | undefined, max = 120): string {
  const line = (s ?? '').split(/\r?\n/, 1)[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export const shortSha = (sha: string | null | undefined) => (sha ? sha.slice(0, 7) : '');
export const ZERO_SHA = /^0+$/;

/** A person or, when the account is a bot or an app, a service. */
export function gitPrincipal(name: string, id: string | null, service: boolean, detail: Record<string, string | null | undefined>): RecordPrincipal {
  const d: Record<string, string> = {};
  for (const [k, v] of Object.entries(detail)) if (v) d[k] = v;
  return { kind: service ? 'service' : 'person', name, id, detail: d };
}

/** What the push-style text of a diff lists for one commit: its short sha, first line and files. */
export function commitLines(commits: Json[]): string[] {
  const out: string[] = [];
  const files = { added: new Set<string>(), removed: new Set<string>(), modified: new Set<string>() };
  for (const c of commits) {
    out.push(`${shortSha(typeof c.id === 'string' ? c.id : '')} ${firstLine(typeof c.message === 'string' ? c.message : '')}`.trim());
    for (const k of ['added', 'removed', 'modified'] as const) {
      const v = c[k];
      if (Array.isArray(v)) for (const f of v) if (typeof f === 'string') files[k].add(f);
    }
  }
  for (const k of ['added', 'removed', 'modified'] as const) if (files[k].size) out.push(`${k}: ${[...files[k]].join(', ')}`);
  return out;
}

/** An event with the fields git sources never fill (denied, caps, errors). */
export function gitEvent(e: Pick<ObservedEvent, 'eventId' | 'kind' | 'title' | 'occurredAt' | 'principal' | 'repo' | 'location' | 'diff' | 'link' | 'changeRef'> & Partial<ObservedEvent>): ObservedEvent {
  return {
    action: null, resource: null, serviceHint: null, params: null, denied: false, errorCode: null, outcome: null, capBucket: null,
    ...e,
  };
}

export const one = (event: ObservedEvent): Parsed => ({ events: [event], ignored: 0, noise: 0, rejected: [] });
/** An event type, action or branch we do not record: answered 202 and counted as ignored. */
export const ignoredOne = (): Parsed => ({ events: [], ignored: 1, noise: 0, rejected: [] });
