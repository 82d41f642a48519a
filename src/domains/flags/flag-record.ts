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
  from: Json;
  to: Json;
  fields: string[];
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
  schemaVersion: number;
  hash: string;
};

/**
 * Version 2 is what is written now. Version 1 (the first shape) named the values `old`/`new`, kept
 * the environment under `environment` and had no `fields`, `approvers` or `gitops`; it is read as
 * it was, never rewritten, so a query across the change still returns every record.
 */
export const FLAG_RECORD_VERSION = 2;

export type FlagRecordDataV2 = {
  flag: string;
  env: string | null;
  from: Json;
  to: Json;
  fields: string[];
  reason: string;
  approvers: string[];
  source: FlagSource;
  gitops: { commitSha: string; deployRun: string | null } | null;
  breakGlass?: boolean;
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

export function toFlagRecord(e: AuditEvent): FlagRecord {
  const d = e.data as Record<string, unknown>;
  const v1 = e.schemaVersion === 1;
  return {
    seq: e.seq,
    ts: e.occurredAt,
    change: CHANGES[e.action] ?? 'updated',
    flag: (d.flag as string | undefined) ?? e.target.id,
    env: ((v1 ? d.environment : d.env) as string | null | undefined) ?? null,
    from: ((v1 ? d.old : d.from) as Json | undefined) ?? null,
    to: ((v1 ? d.new : d.to) as Json | undefined) ?? null,
    fields: v1 ? [] : ((d.fields as string[] | undefined) ?? []),
    actor: e.actor.name,
    actorDetail: e.actor,
    reason: (d.reason as string | undefined) ?? '',
    approvers: v1 ? [] : ((d.approvers as string[] | undefined) ?? []),
    source: ((d.source as FlagSource | undefined) ?? (e.source === 'api' ? 'api' : e.source === 'cli' ? 'cli' : 'ui')),
    correlationId: e.correlationId,
    requestId: e.requestId,
    gitops: v1 ? null : ((d.gitops as FlagRecord['gitops'] | undefined) ?? null),
    breakGlass: d.breakGlass === true,
    schemaVersion: e.schemaVersion,
    hash: e.hash,
  };
}
