import type { AuditEvent } from '../ledger/index.js';
import type { FlagSource, Json } from './flag.js';

/**
 * A flag's change record as readers see it, whatever version it was written in. `actor` is a
 * display string (so `jq '.actor'` prints a name); the whole actor is under `actorDetail`.
 */
export type FlagRecord = {
  seq: number;
  ts: string;
  change: 'created' | 'updated' | 'unchanged' | 'deleted';
  flag: string;
  env: string | null;
  /** The value that changed, before and after; a creation is `(absent)` → off (`false`). */
  from: Json;
  to: Json;
  fields: string[];
  /** For a creation, what the flag was created as (type, risk, owner, values…); else null. */
  definition: Json;
  actor: string;
  actorDetail: AuditEvent['actor'];
  reason: string;
  approvers: string[];
  source: FlagSource;
  correlationId: string | null;
  requestId: string | null;
  gitops: { commitSha: string; deployRun: string | null } | null;
  /** Turned off past the approval policy during an incident: due a review. */
  breakGlass: boolean;
  /** The freeze a break-glass write passed, or null. */
  freezeBypassed: { window: string; until: string } | null;
  /** The planned change the write belongs to, and for a rollback's write the record it wrote back. */
  changeId: string | null;
  revertOf: string | null;
  schemaVersion: number;
  hash: string;
};

/**
 * Version 3 is what is written now: a creation's from/to is the switch (null → false, as every flag
 * starts off) and its definition has a field of its own. Version 2 kept the definition as the
 * creation's `to`. Version 1 (the first shape) named the values `old`/`new`, kept the environment
 * under `environment` and had no `fields`, `approvers` or `gitops`. Older records are read as they
 * were written, never rewritten, and shown in the current shape, so a query across the changes
 * still returns every record, each complete.
 */
export const FLAG_RECORD_VERSION = 3;

export type FlagRecordData = {
  flag: string;
  env: string | null;
  from: Json;
  to: Json;
  fields: string[];
  definition?: Json;
  reason: string;
  approvers: string[];
  source: FlagSource;
  gitops: { commitSha: string; deployRun: string | null } | null;
  breakGlass?: boolean;
  /** Break glass during a freeze: the freeze it passed. */
  freezeBypassed?: { window: string; until: string };
  changeId?: string;
  revertOf?: string;
};

const CHANGES: Record<string, FlagRecord['change']> = {
  'flag.created': 'created',
  'flag.updated': 'updated',
  'flag.unchanged': 'unchanged',
  'flag.deleted': 'deleted',
};

export function isFlagRecord(e: AuditEvent): boolean {
  return e.target.type === 'flag' && e.action in CHANGES;
}

/** What from/to say where there was nothing: before a creation, after a deletion. */
export const ABSENT = '(absent)';
/** What the reason says where none was given: only low-risk flags accept that. */
export const NO_REASON = '(no reason required)';

/** A creation's from/to and definition, whichever version wrote it. */
function creation(stored: { from: Json; to: Json; definition: Json }, version: number): { from: Json; to: Json; definition: Json } {
  if (version >= 3) return { from: ABSENT, to: stored.to ?? false, definition: stored.definition };
  // Up to version 2 the creation's `to` was the definition; every flag was created off.
  return { from: ABSENT, to: false, definition: stored.to };
}

/**
 * The record as readers see it: the spec's six fields (ts, actor, flag, from, to, reason) are
 * present and non-empty for every kind, so `jq '"\(.from)->\(.to) (\(.reason))"'` reads right.
 */
export function toFlagRecord(e: AuditEvent): FlagRecord {
  const d = e.data as Record<string, unknown>;
  const v1 = e.schemaVersion === 1;
  const change = CHANGES[e.action] ?? 'updated';
  let from = ((v1 ? d.old : d.from) as Json | undefined) ?? null;
  let to = ((v1 ? d.new : d.to) as Json | undefined) ?? null;
  let definition: Json = null;
  if (change === 'created') ({ from, to, definition } = creation({ from, to, definition: (d.definition as Json | undefined) ?? null }, e.schemaVersion));
  if (change === 'deleted' && to === null) to = ABSENT;
  const reason = ((d.reason as string | undefined) ?? '').trim() ? (d.reason as string) : NO_REASON;
  return {
    seq: e.seq,
    ts: e.occurredAt,
    change,
    flag: (d.flag as string | undefined) ?? e.target.id,
    env: ((v1 ? d.environment : d.env) as string | null | undefined) ?? null,
    from,
    to,
    // A creation's from/to is the switch, in whichever version it was written.
    fields: change === 'created' ? ['enabled'] : v1 ? [] : ((d.fields as string[] | undefined) ?? []),
    definition,
    actor: e.actor.name,
    actorDetail: e.actor,
    reason,
    approvers: v1 ? [] : ((d.approvers as string[] | undefined) ?? []),
    source: ((d.source as FlagSource | undefined) ?? (e.source === 'api' ? 'api' : e.source === 'cli' ? 'cli' : 'ui')),
    correlationId: e.correlationId,
    requestId: e.requestId,
    gitops: v1 ? null : ((d.gitops as FlagRecord['gitops'] | undefined) ?? null),
    breakGlass: d.breakGlass === true,
    freezeBypassed: (d.freezeBypassed as FlagRecord['freezeBypassed'] | undefined) ?? null,
    changeId: (d.changeId as string | undefined) ?? null,
    revertOf: (d.revertOf as string | undefined) ?? null,
    schemaVersion: e.schemaVersion,
    hash: e.hash,
  };
}
