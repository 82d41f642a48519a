/** Rows of the changes tables and their mapping to the domain shape. */
import type { TicketRef } from './ticket-destination.js';
import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import type { SilenceMode } from '../catalogue/blast.js';
import type { CompactBlast } from '../catalogue/blast-snapshot.js';
import type { Criticality } from '../catalogue/criticality.js';
import type { Tier } from '../catalogue/entity.js';
import type { Resolved, Unresolved } from '../catalogue/matching.js';
import type { ChangeStatus } from './change-lifecycle.js';
import type { ChangeClass, ClassDropCause, ClassSource } from './change-class.js';
import type { RiskTier } from './risk-tier.js';
import { MAX_WINDOW_MS } from './window.js';
import type { ValidationItem } from './validation-plan.js';

export const CHANGE_KINDS = ['deploy', 'config', 'infra', 'other'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
export const OUTCOMES = ['success', 'partial', 'rolled_back', 'unknown'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const IMPACTS = ['outage', 'significant', 'minor', 'none', 'unknown'] as const;
export type Impact = (typeof IMPACTS)[number];
/** baseCommit: the repository commit the change starts from, which is its before-state (the rule exempts it). */
export const PIPELINE_FIELDS = ['pipeline', 'run', 'runUrl', 'commit', 'version', 'environment', 'repo', 'baseCommit'] as const;
export type PipelineInfo = Partial<Record<(typeof PIPELINE_FIELDS)[number], string>>;
/** How callbacks are shaped: changeledger's own JSON, or a CloudEvents 1.0 structured-mode event. */
export const CALLBACK_FORMATS = ['changeledger', 'cloudevents'] as const;
export type CallbackFormat = (typeof CALLBACK_FORMATS)[number];

export type Change = {
  id: string;
  displayId: string;
  orgId: string;
  title: string;
  kind: ChangeKind;
  description: string | null;
  ticketUrl: string | null;
  status: ChangeStatus;
  outcome: Outcome | null;
  impact: Impact | null;
  /** The AI assessment's tier of the latest report, beside the verdict's impact (null: none was made). */
  aiImpact: Impact | null;
  hops: 1 | 2;
  windowStart: string;
  windowEnd: string;
  evidenceMinutes: number;
  maxDurationMinutes: number | null;
  autoStart: boolean;
  releaseHeld: boolean;
  silenceInfra: SilenceMode | null;
  pipeline: PipelineInfo | null;
  callbackUrl: string | null;
  callbackFormat: CallbackFormat;
  recipients: string[];
  components: Resolved[];
  unresolved: Unresolved[];
  criticality: Tier | null;
  criticalitySource: Criticality['criticalitySource'] | null;
  componentTiers: Record<string, Tier | null>;
  gated: boolean;
  quorum: number | null;
  ownerId: string;
  owner: { id: string; email: string; name: string };
  viaTokenId: string | null;
  viaProxyId: null;
  approvalExpiresAt: string | null;
  startDeadline: string | null;
  decidedAt: string | null;
  rejectionReason: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  aborted: boolean;
  notes: string | null;
  /** Why it expired or was cancelled. */
  endReason: string | null;
  outcomeBy: 'pipeline' | 'person' | 'window' | null;
  /** The window was given from now (startNow, or no start): it moves with the start. */
  relativeWindow: boolean;
  evaluateAt: string | null;
  reportedAt: string | null;
  blastVersion: number;
  reportVersion: number;
  /** The ticket opened for it in the organisation's ticket destination. */
  ticket: TicketRef | null;
  /** Its ITIL class, the rule that decided it (change-class.ts) and why, in words. */
  changeClass: ChangeClass;
  changeClassSource: ClassSource;
  changeClassReason: string;
  /** Why it lost the class a template gave it (CLASS_DROP_CAUSES), or null. */
  changeClassCause: ClassDropCause | null;
  template: { id: string; version: number } | null;
  /** An emergency's reason and the incident or ticket it answers. */
  emergency: { reason: string; link: string } | null;
  riskTier: RiskTier | null;
  riskReason: string | null;
  /** The closed window an emergency passed with its full quorum (stamped once). */
  windowBypassed: { window: string; kind: string; at: string; approvals: number } | null;
  /** The digest of its content now, and the digest its approvals approved (null until approved). */
  approvalDigest: string | null;
  approvedDigest: string | null;
  /** The digest of its before-state captures (null: none yet), bound into the approval digest. */
  captureDigest: string | null;
  /** The way back as registered ({kind, plan?}) and who gave it; the path shown is derived (rollback-plan.ts). */
  rollbackGiven: { kind: 'revert_flag' | 'redeploy_previous' | 'manual'; plan?: string; by: 'pipeline' | 'person' } | null;
  /** A released rollback: asked of the pipeline (or made, for flags), then done or failed. */
  rollbackState: 'requested' | 'rolled_back' | 'failed' | null;
  rollbackRequestedAt: string | null;
  rollbackCompletedAt: string | null;
  /** Who released it: people (an L3 rollback needs two) or the sweep. */
  rollbackReleasedBy: Array<{ kind: 'person' | 'sweep'; id: string | null; email: string | null; at: string }> | null;
  /** The sweep's one decision on it, and when. */
  rollbackDecision: { decision: 'execute' | 'escalate' | 'skip'; reason: string; at: string } | null;
  /** The validation plan fixed at registration, its result and when it was checked. */
  validationPlan: ValidationItem[] | null;
  validationResult: 'cleared' | 'still_present' | 'uncertain' | null;
  validationCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

type ChangeRow = Row & {
  id: string; org_id: string; title: string; kind: ChangeKind; description: string | null; ticket_url: string | null; status: ChangeStatus;
  outcome: Outcome | null; impact: Impact | null; ai_impact: Impact | null; hops: number; window_start: Date; window_end: Date; evidence_minutes: number;
  max_duration_minutes: number | null; auto_start: boolean; release_held: boolean; silence_infra: SilenceMode | null; pipeline: PipelineInfo | null;
  callback_url: string | null; callback_format: CallbackFormat | null; callback_secret_sealed: string | null; recipients: string[]; components: Resolved[]; unresolved: Unresolved[];
  criticality: Tier | null; criticality_source: Change['criticalitySource']; component_tiers: Record<string, Tier | null>; gated: boolean; quorum: number | null;
  owner_id: string; owner_email: string; owner_name: string; via_token_id: string | null;
  approval_expires_at: Date | null; start_deadline: Date | null; decided_at: Date | null; rejection_reason: string | null;
  started_at: Date | null; finished_at: Date | null; aborted: boolean; notes: string | null; end_reason: string | null; outcome_by: Change['outcomeBy']; relative_window: boolean; evaluate_at: Date | null; reported_at: Date | null;
  blast_version: number; report_version: number; ticket: TicketRef | null; created_at: Date; updated_at: Date;
  change_class: ChangeClass; change_class_source: ClassSource; change_class_reason: string; change_class_cause: ClassDropCause | null;
  template_id: string | null; template_version: number | null; emergency: Change['emergency']; risk_tier: RiskTier | null; risk_reason: string | null;
  window_bypassed: Change['windowBypassed']; approval_digest: string | null; approved_digest: string | null;
  capture_digest: string | null; rollback: Change['rollbackGiven']; rollback_state: Change['rollbackState']; rollback_requested_at: Date | null;
  rollback_completed_at: Date | null; rollback_released_by: Change['rollbackReleasedBy']; rollback_decision: Change['rollbackDecision'];
  validation_plan: ValidationItem[] | null; validation_result: Change['validationResult']; validation_checked_at: Date | null;
};

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

/** `CHG-` and the first 8 characters of the id's random part. */
export const displayId = (id: string) => `CHG-${id.slice(id.indexOf('_') + 1, id.indexOf('_') + 9).toUpperCase()}`;

export function toChange(r: ChangeRow): Change {
  return {
    id: r.id, displayId: displayId(r.id), orgId: r.org_id, title: r.title, kind: r.kind, description: r.description, ticketUrl: r.ticket_url,
    status: r.status, outcome: r.outcome, impact: r.impact, aiImpact: r.ai_impact ?? null, hops: r.hops as 1 | 2, windowStart: iso(r.window_start), windowEnd: iso(r.window_end),
    evidenceMinutes: r.evidence_minutes, maxDurationMinutes: r.max_duration_minutes, autoStart: r.auto_start, releaseHeld: r.release_held,
    silenceInfra: r.silence_infra, pipeline: r.pipeline, callbackUrl: r.callback_url, callbackFormat: r.callback_format ?? 'changeledger', recipients: r.recipients, components: r.components,
    unresolved: r.unresolved, criticality: r.criticality, criticalitySource: r.criticality_source, componentTiers: r.component_tiers,
    gated: r.gated, quorum: r.quorum, ownerId: r.owner_id, owner: { id: r.owner_id, email: r.owner_email, name: r.owner_name },
    viaTokenId: r.via_token_id, viaProxyId: null, approvalExpiresAt: isoOrNull(r.approval_expires_at), startDeadline: isoOrNull(r.start_deadline),
    decidedAt: isoOrNull(r.decided_at), rejectionReason: r.rejection_reason, startedAt: isoOrNull(r.started_at), finishedAt: isoOrNull(r.finished_at),
    aborted: r.aborted, notes: r.notes, endReason: r.end_reason, outcomeBy: r.outcome_by, relativeWindow: r.relative_window, evaluateAt: isoOrNull(r.evaluate_at), reportedAt: isoOrNull(r.reported_at),
    blastVersion: r.blast_version, reportVersion: r.report_version, ticket: r.ticket,
    changeClass: r.change_class ?? 'normal', changeClassSource: r.change_class_source ?? 'default', changeClassReason: r.change_class_reason ?? '', changeClassCause: r.change_class_cause ?? null,
    template: r.template_id ? { id: r.template_id, version: r.template_version ?? 1 } : null, emergency: r.emergency ?? null,
    riskTier: r.risk_tier ?? null, riskReason: r.risk_reason ?? null, windowBypassed: r.window_bypassed ?? null,
    approvalDigest: r.approval_digest ?? null, approvedDigest: r.approved_digest ?? null,
    captureDigest: r.capture_digest ?? null, rollbackGiven: r.rollback ?? null, rollbackState: r.rollback_state ?? null,
    rollbackRequestedAt: isoOrNull(r.rollback_requested_at ?? null), rollbackCompletedAt: isoOrNull(r.rollback_completed_at ?? null),
    rollbackReleasedBy: r.rollback_released_by ?? null, rollbackDecision: r.rollback_decision ?? null,
    validationPlan: r.validation_plan ?? null, validationResult: r.validation_result ?? null, validationCheckedAt: isoOrNull(r.validation_checked_at ?? null),
    createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
  };
}

/** A change with its owner's e-mail and name, read from `from` (the table, or a CTE that returns its rows). */
const readFrom = (from: string) => `SELECT c.*, u.email AS owner_email, u.display_name AS owner_name FROM ${from} c JOIN users u ON u.id = c.owner_id`;
const SELECT = readFrom('changes');

/**
 * Inserts a change, its first blast when it has one, and reads the change back as findChange does,
 * in one statement. `insert` is the INSERT INTO changes over `params`, without RETURNING; the blast
 * takes the change's id, blast version and time from the row inserted.
 */
export async function insertChangeRead(tx: Tx, insert: string, params: readonly unknown[], blast: { stored: CompactBlast; bytes: number } | null): Promise<Change> {
  const n = params.length;
  const withBlast = blast
    ? `, blast AS (INSERT INTO change_blasts (change_id, version, stored, bytes, created_at) SELECT id, blast_version, $${n + 1}::jsonb, $${n + 2}::int, created_at FROM inserted)`
    : '';
  const r = await tx.query<ChangeRow>(
    `WITH inserted AS (${insert} RETURNING *)${withBlast} ${readFrom('inserted')}`,
    blast ? [...params, JSON.stringify(blast.stored), blast.bytes] : params,
  );
  return toChange(r.rows[0]!);
}

export async function findChange(db: Queryable, orgId: string, id: string, lock = false): Promise<Change | null> {
  if (lock) await db.query('SELECT 1 FROM changes WHERE id = $1 AND org_id = $2 FOR UPDATE', [id, orgId]);
  const r = await db.query<ChangeRow>(`${SELECT} WHERE c.id = $1 AND c.org_id = $2`, [id, orgId]);
  return r.rows[0] ? toChange(r.rows[0]) : null;
}

/** The ids of the organisation's changes whose display id is this (CHG-XXXXXXXX): one, or none. */
export async function idsOfDisplayId(db: Queryable, orgId: string, shown: string): Promise<string[]> {
  const hex = shown.slice('CHG-'.length).toLowerCase();
  if (!/^[0-9a-f]{8}$/.test(hex)) return [];
  // A prefix of the id, through its text_pattern_ops index.
  const r = await db.query<{ id: string }>(`SELECT id FROM changes WHERE org_id = $1 AND id LIKE $2 LIMIT 2`, [orgId, `chg_${hex}%`]);
  return r.rows.map((x) => x.id);
}

/** A change by id alone, for timers (they carry no organisation). */
export async function findChangeForTimer(tx: Tx, id: string): Promise<Change | null> {
  await tx.query('SELECT 1 FROM changes WHERE id = $1 FOR UPDATE', [id]);
  const r = await tx.query<ChangeRow>(`${SELECT} WHERE c.id = $1`, [id]);
  return r.rows[0] ? toChange(r.rows[0]) : null;
}

export async function callbackSecretSealed(db: Queryable, id: string): Promise<string | null> {
  const r = await db.query<{ s: string | null }>('SELECT callback_secret_sealed AS s FROM changes WHERE id = $1', [id]);
  return r.rows[0]?.s ?? null;
}

export type ListFilter = {
  statuses: ChangeStatus[]; q: string | null; ownerId: string | null; criticalities: Array<Tier | 'pending'>; limit: number;
  /** The window reaches into [since, until]: it ends at or after since and starts at or before until. */
  since?: Date; until?: Date;
  /** Waiting for this person's decision: the same rule as the approval panel's canApprove. */
  awaitingUserId?: string;
  /** The entity is one of its components or in its latest blast radius scope (services and silenced assets). */
  component?: string;
  /** Any of these kinds (empty: every kind). */
  kinds?: ChangeKind[];
  /** Any of these channels (change-record's modeOf, in SQL): ui, api, pipeline. */
  modes?: string[];
  /** A component whose key or name is one of these (lower case). */
  services?: string[];
};

/**
 * No window is longer than MAX_WINDOW_MS (registration, edits and extensions all refuse more), so a
 * window that reaches `since` started at most that long before it. Saying so bounds the newest-first
 * walk of the window index; without it, a filter that matches few changes reads back to the first.
 */
const MAX_WINDOW_SQL = `interval '${MAX_WINDOW_MS / 1000} seconds'`;

export async function listChanges(db: Queryable, orgId: string, f: ListFilter): Promise<Change[]> {
  const r = await db.query<ChangeRow>(
    `${SELECT} WHERE c.org_id = $1
       AND (cardinality($2::text[]) = 0 OR c.status = ANY($2::text[]))
       AND ($3::text IS NULL OR strpos(lower(c.title), lower($3)) > 0 OR upper('CHG-' || substr(c.id, 5, 8)) = upper($3) OR c.id = $3
         OR EXISTS (SELECT 1 FROM jsonb_array_elements(c.components) x WHERE strpos(lower(x->>'name'), lower($3)) > 0 OR lower(x->>'key') = lower($3)))
       AND ($4::text IS NULL OR c.owner_id = $4)
       AND (cardinality($5::text[]) = 0 OR c.criticality = ANY($5::text[]) OR ('pending' = ANY($5::text[]) AND c.criticality_source = 'pending'))
       AND ($7::timestamptz IS NULL OR (c.window_end >= $7::timestamptz AND c.window_start >= $7::timestamptz - ${MAX_WINDOW_SQL}))
       AND ($8::timestamptz IS NULL OR c.window_start <= $8::timestamptz)
       AND ($9::text IS NULL OR (c.status = 'pending_approval' AND c.owner_id <> $9::text
         AND EXISTS (SELECT 1 FROM change_approvers a JOIN memberships m ON m.org_id = a.org_id AND m.user_id = a.user_id WHERE a.org_id = c.org_id AND a.user_id = $9::text)
         AND NOT EXISTS (SELECT 1 FROM change_approvals d WHERE d.change_id = c.id AND d.user_id = $9::text)))
       AND ($10::text IS NULL OR c.components @> jsonb_build_array(jsonb_build_object('key', $10::text))
         OR (c.scope_keys_version = c.blast_version AND c.scope_keys @> ARRAY[$10::text])
         OR (c.blast_version > 0 AND c.scope_keys_version IS DISTINCT FROM c.blast_version
           AND EXISTS (SELECT 1 FROM change_blasts b, jsonb_array_elements_text(b.stored->'k') WITH ORDINALITY AS k(key, n)
           WHERE b.change_id = c.id AND b.version = (SELECT max(version) FROM change_blasts WHERE change_id = c.id) AND k.key = $10::text
             AND ((b.stored->'scope'->'s') @> to_jsonb(k.n - 1) OR (b.stored->'scope'->'a') @> to_jsonb(k.n - 1)))))
       AND (cardinality($11::text[]) = 0 OR c.kind = ANY($11::text[]))
       AND (cardinality($12::text[]) = 0 OR (CASE WHEN c.pipeline IS NOT NULL AND c.pipeline <> '{}'::jsonb THEN 'pipeline' WHEN c.via_token_id IS NOT NULL THEN 'api' ELSE 'ui' END) = ANY($12::text[]))
       AND (cardinality($13::text[]) = 0 OR EXISTS (SELECT 1 FROM jsonb_array_elements(c.components) x WHERE lower(x->>'key') = ANY($13::text[]) OR lower(x->>'name') = ANY($13::text[])))
     ORDER BY c.window_start DESC, c.id DESC LIMIT $6`,
    [orgId, f.statuses, f.q, f.ownerId, f.criticalities, f.limit, f.since?.toISOString() ?? null, f.until?.toISOString() ?? null, f.awaitingUserId ?? null, f.component ?? null,
      f.kinds ?? [], f.modes ?? [], f.services ?? []],
  );
  return r.rows.map(toChange);
}

/** The catalogue keys in a stored blast radius's scope (services and assets), each once. */
export const scopeKeysOf = (c: Pick<CompactBlast, 'k' | 'scope'>): string[] => [...new Set([...c.scope.s, ...c.scope.a].map((i) => c.k[i]!))];

export async function insertBlast(tx: Tx, changeId: string, version: number, stored: CompactBlast, bytes: number, at: string): Promise<void> {
  // The change row keeps the scope's keys and the version they are of (see changesCovering), in the same statement.
  await tx.query(
    `WITH blast AS (INSERT INTO change_blasts (change_id, version, stored, bytes, created_at) VALUES ($1, $2, $3, $4, $5))
     UPDATE changes SET scope_keys = $6::text[], scope_keys_version = $2 WHERE id = $1`,
    [changeId, version, JSON.stringify(stored), bytes, at, scopeKeysOf(stored)]);
}

export async function latestBlast(db: Queryable, changeId: string): Promise<{ version: number; stored: CompactBlast } | null> {
  const r = await db.query<{ version: number; stored: CompactBlast }>('SELECT version, stored FROM change_blasts WHERE change_id = $1 ORDER BY version DESC LIMIT 1', [changeId]);
  return r.rows[0] ?? null;
}

export type Decision = { userId: string; email: string; name: string; decision: 'approved' | 'rejected'; comment: string | null; critical: boolean; at: string; digest: string | null };

export async function listDecisions(db: Queryable, changeId: string): Promise<Decision[]> {
  const r = await db.query<Row & { user_id: string; email: string; display_name: string; decision: Decision['decision']; comment: string | null; critical: boolean; at: Date; digest: string | null }>(
    'SELECT a.*, u.email, u.display_name FROM change_approvals a JOIN users u ON u.id = a.user_id WHERE a.change_id = $1 ORDER BY a.at, a.user_id',
    [changeId],
  );
  return r.rows.map((x) => ({ userId: x.user_id, email: x.email, name: x.display_name, decision: x.decision, comment: x.comment, critical: x.critical, at: iso(x.at), digest: x.digest }));
}

/**
 * Moves a change's decisions out of the count (an edit after them, a class drop, a reclassification):
 * they are kept in change_voided_approvals with the cause. Returns who had decided.
 */
export async function voidDecisions(tx: Tx, changeId: string, at: string, cause: string): Promise<Array<{ userId: string; decision: string; digest: string | null }>> {
  const r = await tx.query<{ user_id: string; decision: string; digest: string | null }>(
    `WITH gone AS (DELETE FROM change_approvals WHERE change_id = $1 RETURNING *)
     INSERT INTO change_voided_approvals (change_id, user_id, decision, comment, critical, at, digest, voided_at, cause)
     SELECT change_id, user_id, decision, comment, critical, at, digest, $2, $3 FROM gone RETURNING user_id, decision, digest`,
    [changeId, at, cause]);
  return r.rows.map((x) => ({ userId: x.user_id, decision: x.decision, digest: x.digest }));
}

/**
 * One stored report version. `body` is the evidence it was judged on (old "unknown" reports: their
 * own small body); verdict and ai are the evidence domain's answers, kept opaque here since changes
 * never imports evidence. html, textBody and csv are the rendered forms (null on old reports).
 */
export type Report = {
  version: number; impact: Impact; aiImpact: Impact | null; rule: string | null; outcome: Outcome | null; summary: string;
  body: Record<string, unknown>; verdict: Record<string, unknown> | null; ai: Record<string, unknown> | null;
  html: string | null; textBody: string | null; csv: string | null; createdAt: string;
};

type ReportRow = Row & {
  version: number; impact: Impact; ai_impact: Impact | null; rule: string | null; outcome: Outcome | null; summary: string; body: Record<string, unknown>;
  verdict: Record<string, unknown> | null; ai: Record<string, unknown> | null; html: string | null; text_body: string | null; csv: string | null; created_at: Date;
};

const toReport = (x: ReportRow): Report => ({
  version: x.version, impact: x.impact, aiImpact: x.ai_impact, rule: x.rule, outcome: x.outcome, summary: x.summary, body: x.body,
  verdict: x.verdict, ai: x.ai, html: x.html, textBody: x.text_body, csv: x.csv, createdAt: iso(x.created_at),
});

export async function listReports(db: Queryable, changeId: string): Promise<Report[]> {
  const r = await db.query<ReportRow>('SELECT * FROM change_reports WHERE change_id = $1 ORDER BY version', [changeId]);
  return r.rows.map(toReport);
}

/** One version of a change's report, or its latest when version is omitted. */
export async function findReport(db: Queryable, changeId: string, version?: number): Promise<Report | null> {
  const r = version === undefined
    ? await db.query<ReportRow>('SELECT * FROM change_reports WHERE change_id = $1 ORDER BY version DESC LIMIT 1', [changeId])
    : await db.query<ReportRow>('SELECT * FROM change_reports WHERE change_id = $1 AND version = $2', [changeId, version]);
  return r.rows[0] ? toReport(r.rows[0]) : null;
}

export type NewReport = Omit<Report, 'version' | 'createdAt' | 'outcome'>;

export async function insertReport(tx: Tx, changeId: string, version: number, outcome: Outcome | null, r: NewReport, at: string): Promise<void> {
  await tx.query(
    `INSERT INTO change_reports (change_id, version, impact, outcome, summary, body, created_at, rule, verdict, ai, ai_impact, html, text_body, csv)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [changeId, version, r.impact, outcome, r.summary, JSON.stringify(r.body), at, r.rule, r.verdict === null ? null : JSON.stringify(r.verdict),
      r.ai === null ? null : JSON.stringify(r.ai), r.aiImpact, r.html, r.textBody, r.csv],
  );
}
