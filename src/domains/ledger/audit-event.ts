import { hash as digest } from 'node:crypto';
import { canonicalJson } from '../../platform/canonical-json.js';

export const ACTOR_KINDS = ['user', 'token', 'service', 'automation', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];
export const AUDIT_SOURCES = ['ui', 'api', 'cli', 'webhook', 'scheduler', 'system'] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];

/** Who did it. Automation names itself and what set it off (a pipeline run, a guardrail breach). */
export type Actor = {
  kind: ActorKind;
  id: string | null;
  name: string;
  automation?: string | null;
  trigger?: string | null;
};

/** The circumstances of a write: every use case receives one and hands it to the ledger. */
export type AuditContext = {
  actor: Actor;
  source: AuditSource;
  requestId?: string | null;
  correlationId?: string | null;
};

export type NewAuditEvent = {
  orgId: string;
  action: string;
  target: { type: string; id: string };
  /** Before/after where a thing changed; never a secret. */
  data?: Record<string, unknown>;
  schemaVersion?: number;
};

export type AuditEvent = {
  orgId: string;
  seq: number;
  occurredAt: string;
  actor: Required<Actor>;
  action: string;
  target: { type: string; id: string };
  correlationId: string | null;
  requestId: string | null;
  source: AuditSource;
  data: Record<string, unknown>;
  schemaVersion: number;
  prevHash: string;
  hash: string;
};

/** The schema version of events written now; readers accept every version up to it. */
export const AUDIT_SCHEMA_VERSION = 1;
export const GENESIS_HASH = '0'.repeat(64);

/** A nested object of the body (actor, target) written with its members in the given sorted order. */
function fixedObject(v: unknown, keys: readonly string[]): string {
  // Written in the given (sorted) order only when the object has exactly those members, all defined:
  // then it is the text canonicalJson makes; anything else goes through canonicalJson itself.
  if (v === null || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).length !== keys.length) return canonicalJson(v);
  const o = v as Record<string, unknown>;
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const m = o[keys[i]!];
    if (m === undefined || (m !== null && typeof m === 'object')) return canonicalJson(v);
    out += `${i === 0 ? '' : ','}"${keys[i]}":${canonicalJson(m)}`;
  }
  return `${out}}`;
}
const ACTOR_KEYS = ['automation', 'id', 'kind', 'name', 'trigger'] as const;
const TARGET_KEYS = ['id', 'type'] as const;

/** An event without its number, its hashes and its organisation: what Node knows before the engine numbers it. */
type BodyEvent = Omit<AuditEvent, 'hash' | 'orgId' | 'seq' | 'prevHash'>;

/**
 * The hashed body's text on either side of the sequence number: `before + seq + after` is the
 * canonical JSON of the body, its eleven members written out in sorted order instead of sorted on
 * every call (the text canonicalJson makes of the object, as a test checks; a member that is
 * undefined is left out, as canonicalJson leaves it out). What lets the engine number and hash an append in one statement
 * (ledger-store), with everything but the number written out here first.
 */
export function hashedBodyAround(e: BodyEvent, orgId: string): { before: string; after: string } {
  let out = '{';
  const member = (key: string, v: unknown, json = canonicalJson) => {
    if (v === undefined) return;
    out += `${out.length === 1 ? '' : ','}"${key}":${json(v)}`;
  };
  member('action', e.action);
  member('actor', e.actor, (v) => fixedObject(v, ACTOR_KEYS));
  member('correlationId', e.correlationId);
  member('data', e.data);
  member('occurredAt', e.occurredAt);
  member('orgId', orgId);
  member('requestId', e.requestId);
  member('schemaVersion', e.schemaVersion);
  const before = `${out}${out.length === 1 ? '' : ','}"seq":`;
  // Members after the number always follow it, so each takes a comma.
  out = '{,';
  member('source', e.source);
  member('target', e.target, (v) => fixedObject(v, TARGET_KEYS));
  return { before, after: `${out.slice(2)}}` };
}

function hashedBody(e: Omit<AuditEvent, 'hash' | 'orgId'>, orgId: string): string {
  // An event read from a file may lack its number (or carry something else there): canonicalJson
  // then writes the body as it is, leaving out what is missing.
  if (typeof e.seq !== 'number') {
    const { action, actor, correlationId, data, occurredAt, requestId, schemaVersion, seq, source, target } = e;
    return canonicalJson({ action, actor, correlationId, data, occurredAt, orgId, requestId, schemaVersion, seq, source, target });
  }
  const { before, after } = hashedBodyAround(e, orgId);
  return `${before}${canonicalJson(e.seq)}${after}`;
}

/** SHA-256 over the previous hash and the canonical JSON of everything else in the row. */
export function hashEvent(e: Omit<AuditEvent, 'hash'>): string {
  return hashEventOf(e, e.orgId);
}

/** The same hash of an event read without its organisation (an export's line), given the organisation's id. */
export function hashEventOf(e: Omit<AuditEvent, 'hash' | 'orgId'>, orgId: string): string {
  // The one-shot digest: a third of createHash's cost for an input this small.
  return digest('sha256', `${e.prevHash}\n${hashedBody(e, orgId)}`, 'hex');
}

export function fullActor(a: Actor): Required<Actor> {
  return { kind: a.kind, id: a.id, name: a.name, automation: a.automation ?? null, trigger: a.trigger ?? null };
}

export type ChainBreak = { seq: number; reason: string };

/**
 * Checks one stretch of the chain. `expected` is where the previous stretch ended; the answer
 * names the first event that does not follow from it, or where the next stretch must begin, and
 * how many events it judged: every one that followed, plus a broken one that is there (an event
 * that is missing was not there to judge).
 */
export function checkChain(
  events: readonly AuditEvent[],
  expected: { seq: number; hash: string },
): { ok: true; checked: number; next: { seq: number; hash: string } } | { ok: false; checked: number; broken: ChainBreak } {
  let { seq, hash } = expected;
  let checked = 0;
  for (const e of events) {
    if (e.seq !== seq + 1) return { ok: false, checked, broken: { seq: seq + 1, reason: `event ${seq + 1} is missing (next present is ${e.seq})` } };
    checked += 1;
    if (e.prevHash !== hash) return { ok: false, checked, broken: { seq: e.seq, reason: `event ${e.seq} does not link to the hash of event ${seq}` } };
    const { hash: stored, ...rest } = e;
    if (hashEvent(rest) !== stored) return { ok: false, checked, broken: { seq: e.seq, reason: `event ${e.seq} was altered: its content no longer matches its hash` } };
    seq = e.seq;
    hash = stored;
  }
  return { ok: true, checked, next: { seq, hash } };
}
