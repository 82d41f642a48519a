import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import { displayId } from '../changes/index.js';
import type { AlertRecord, AlertState, AlertVia, Subject, Transition } from './alert-types.js';
import type { HoldEntry } from './hold-decision.js';
import type { FoundEntity, FoundSource } from './label-mapping.js';

// SQL of intake: alerts, alert_transitions and held_alerts (writes and reads), and the one look-up
// of live holds on hold_subjects. hold_subjects itself is written by the holds module.

const iso = (d: unknown): string => new Date(d as string).toISOString();
const isoOrNull = (d: unknown): string | null => (d == null ? null : iso(d));

// ── what intake asks per batch ───────────────────────────────────────────────────────────────────

/** A live hold on one subject: the row of hold_subjects with its change's display id and title. */
export type HoldRow = HoldEntry;

/**
 * The one look-up of a batch: catalogue entities by key or by name and monitoring sources by id or
 * name (all lower-cased, stale rows left out) for every candidate of every alert at once, each hit
 * with the live holds on it from hold_subjects' primary key. Services are `svc:` keys (subject
 * kind service), any other entity is an asset, a monitoring source a source. The holds are a
 * primary-key probe per hit (a subquery the planner cannot turn into a scan of every hold), so a
 * thousand live scopes cost what one does.
 */
export async function findSubjectsAndHolds(db: Queryable, orgId: string, q: { keys: string[]; names: string[]; sources: string[] }): Promise<{ entities: FoundEntity[]; sources: FoundSource[]; holds: HoldRow[] }> {
  if (q.keys.length === 0 && q.names.length === 0 && q.sources.length === 0) return { entities: [], sources: [], holds: [] };
  const r = await db.query<{ what: 'entity' | 'source'; key: string; kind: string; name: string; subject_kind: HoldRow['subjectKind']; holds: Array<{ changeId: string; title: string }> | null }>(
    `WITH hits AS (
       SELECT 'entity' AS what, key, kind, name, CASE WHEN key LIKE 'svc:%' THEN 'service' ELSE 'asset' END AS subject_kind FROM catalogue_entities
        WHERE org_id = $1 AND NOT stale AND (lower(key) = ANY($2::text[]) OR lower(name) = ANY($3::text[]))
       UNION ALL
       SELECT 'source', id, '', name, 'source' FROM catalogue_sources
        WHERE org_id = $1 AND NOT stale AND (lower(id) = ANY($4::text[]) OR lower(name) = ANY($4::text[])))
     SELECT hits.*, (SELECT json_agg(json_build_object('changeId', h.change_id, 'title', c.title))
                       FROM hold_subjects h JOIN changes c ON c.id = h.change_id
                      WHERE h.org_id = $1 AND h.subject_kind = hits.subject_kind AND h.subject_key = hits.key) AS holds
       FROM hits`,
    [orgId, q.keys, q.names, q.sources],
  );
  const entities = new Map<string, FoundEntity>();
  const sources = new Map<string, FoundSource>();
  const holds: HoldRow[] = [];
  for (const x of r.rows) {
    if (x.what === 'entity') entities.set(x.key, { key: x.key, kind: x.kind, name: x.name });
    else sources.set(x.key, { id: x.key, name: x.name });
    for (const h of x.holds ?? []) holds.push({ subjectKind: x.subject_kind, subjectKey: x.key, changeId: h.changeId, displayId: displayId(h.changeId), title: h.title });
  }
  return { entities: [...entities.values()], sources: [...sources.values()], holds };
}


/** A hold row, as a test or the holds module writes it. */
export async function insertHoldSubject(db: Queryable, orgId: string, kind: HoldRow['subjectKind'], key: string, changeId: string): Promise<void> {
  await db.query('INSERT INTO hold_subjects (org_id, subject_kind, subject_key, change_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [orgId, kind, key, changeId]);
}

// ── intake writes ───────────────────────────────────────────────────────────────────────────────

export type AlertRow = {
  fingerprint: string; alertname: string; labels: Record<string, string>; annotations: Record<string, string>;
  generatorURL: string | null; subjectKind: Subject['kind']; subjectKey: string | null; subjectLabel: string; source: string;
  state: AlertState; startsAt: string; endsAt: string | null;
};
export type TransitionRow = { fingerprint: string; state: AlertState; at: string; heldBy: string | null };
export type HeldRow = { changeId: string; fingerprint: string };

/** Whether what was sent is at least as new as what is stored: the moment of each one's state. */
const FRESH = `(CASE EXCLUDED.state WHEN 'firing' THEN EXCLUDED.starts_at ELSE EXCLUDED.ends_at END)
  >= (CASE alerts.state WHEN 'firing' THEN alerts.starts_at ELSE alerts.ends_at END)`;
const fresh = (col: string) => `${col} = CASE WHEN ${FRESH} THEN EXCLUDED.${col} ELSE alerts.${col} END`;

/**
 * The batch's rows in one statement:
 * - alerts: new ones inserted; known ones take the sent labels and state unless what was sent is
 *   older than what is stored (a late re-send of a firing after its resolution keeps the
 *   resolution); last_seen always moves;
 * - alert_transitions: a repeat (same fingerprint, state and moment) is no row;
 * - held_alerts: first and last time each holding change held each alert.
 * Answers each alert's first_seen and the transitions that are new.
 */
export async function writeBatch(tx: Tx, orgId: string, via: AlertVia, rows: { alerts: AlertRow[]; transitions: TransitionRow[]; held: HeldRow[] }, now: string): Promise<{ firstSeen: Map<string, string>; inserted: Array<{ fingerprint: string; state: AlertState }> }> {
  if (rows.alerts.length === 0) return { firstSeen: new Map(), inserted: [] };
  const r = await tx.query<{ k: 'a' | 't'; fingerprint: string; first_seen: Date | null; state: AlertState | null }>(
    `WITH a AS (
       INSERT INTO alerts (org_id, fingerprint, alertname, labels, annotations, generator_url, subject_kind, subject_key, subject_label, source, state, starts_at, ends_at, first_seen, last_seen)
       SELECT $1, r.fingerprint, r.alertname, r.labels, r.annotations, r."generatorURL", r."subjectKind", r."subjectKey", r."subjectLabel", r.source, r.state, r."startsAt", r."endsAt", $5, $5
         FROM jsonb_to_recordset($2::jsonb) AS r(fingerprint text, alertname text, labels jsonb, annotations jsonb, "generatorURL" text, "subjectKind" text,
              "subjectKey" text, "subjectLabel" text, source text, state text, "startsAt" timestamptz, "endsAt" timestamptz)
       ON CONFLICT (org_id, fingerprint) DO UPDATE SET
         last_seen = EXCLUDED.last_seen, ${['alertname', 'labels', 'annotations', 'generator_url', 'state', 'starts_at', 'ends_at'].map(fresh).join(', ')},
         subject_kind = EXCLUDED.subject_kind, subject_key = EXCLUDED.subject_key, subject_label = EXCLUDED.subject_label, source = EXCLUDED.source
       RETURNING fingerprint, first_seen),
     t AS (
       INSERT INTO alert_transitions (org_id, fingerprint, state, at, received_at, via, held_by)
       SELECT $1, r.fingerprint, r.state, r.at, $5, $6, r."heldBy" FROM jsonb_to_recordset($3::jsonb) AS r(fingerprint text, state text, at timestamptz, "heldBy" text)
       ON CONFLICT (org_id, fingerprint, state, at) DO NOTHING
       RETURNING fingerprint, state),
     h AS (
       INSERT INTO held_alerts (change_id, org_id, fingerprint, first_held_at, last_held_at)
       SELECT r."changeId", $1, r.fingerprint, $5, $5 FROM jsonb_to_recordset($4::jsonb) AS r("changeId" text, fingerprint text)
       ON CONFLICT (change_id, fingerprint) DO UPDATE SET last_held_at = EXCLUDED.last_held_at)
     SELECT 'a' AS k, fingerprint, first_seen, NULL AS state FROM a
     UNION ALL SELECT 't', fingerprint, NULL, state FROM t`,
    [orgId, JSON.stringify(rows.alerts), JSON.stringify(rows.transitions), JSON.stringify(rows.held), now, via],
  );
  const firstSeen = new Map<string, string>();
  const inserted: Array<{ fingerprint: string; state: AlertState }> = [];
  for (const x of r.rows) {
    if (x.k === 'a') firstSeen.set(x.fingerprint, iso(x.first_seen));
    else inserted.push({ fingerprint: x.fingerprint, state: x.state! });
  }
  return { firstSeen, inserted };
}

// ── reads ───────────────────────────────────────────────────────────────────────────────────────

type AlertDbRow = Row & {
  org_id: string; fingerprint: string; alertname: string; labels: Record<string, string>; annotations: Record<string, string>;
  generator_url: string | null; subject_kind: Subject['kind']; subject_key: string | null; subject_label: string; source: string;
  state: AlertState; starts_at: Date; ends_at: Date | null; first_seen: Date; last_seen: Date;
  held_change: string | null; held_title: string | null;
};

/** The subject's name is the first part of its label ("checkout · HighLatency · api"). */
const subjectOf = (r: AlertDbRow): Subject =>
  r.subject_kind === 'unmapped' || r.subject_key === null
    ? { kind: 'unmapped', key: null, name: null }
    : { kind: r.subject_kind, key: r.subject_key, name: r.subject_label.split(' · ')[0] ?? r.subject_key };

function toRecord(r: AlertDbRow): AlertRecord {
  return {
    orgId: r.org_id, fingerprint: r.fingerprint, alertname: r.alertname, labels: r.labels, annotations: r.annotations,
    state: r.state, startsAt: iso(r.starts_at), endsAt: isoOrNull(r.ends_at), generatorURL: r.generator_url,
    subject: subjectOf(r), subjectLabel: r.subject_label, source: r.source, firstSeen: iso(r.first_seen), lastSeen: iso(r.last_seen),
    heldBy: r.held_change ? { changeId: r.held_change, displayId: displayId(r.held_change), title: r.held_title ?? '' } : null,
  };
}

/** An alert is held while a change's hold has it and its release has not decided it yet. */
const ALERT_SELECT = `SELECT a.*, hc.change_id AS held_change, hc.title AS held_title FROM alerts a
  LEFT JOIN LATERAL (SELECT h.change_id, c.title FROM held_alerts h JOIN changes c ON c.id = h.change_id
                      WHERE h.org_id = a.org_id AND h.fingerprint = a.fingerprint AND h.outcome = 'held'
                      ORDER BY h.first_held_at LIMIT 1) hc ON true`;

export type AlertFilter = {
  subject?: string; state?: AlertState; changeId?: string; held?: boolean; since?: string; limit: number;
  /** The moment a state filter is judged at: a firing whose endsAt has passed is resolved (Alertmanager's rule). */
  now?: string;
};

/**
 * Alertmanager's rule for the API v2 shape: a firing alert whose endsAt has passed is resolved,
 * even when no resolution was sent (Prometheus stopped re-sending it). The row keeps what was
 * sent; reads answer the state as of now.
 */
export function stateAsOf<T extends Pick<AlertRecord, 'state' | 'endsAt'>>(a: T, now: Date): T {
  return a.state === 'firing' && a.endsAt !== null && Date.parse(a.endsAt) <= now.getTime() ? { ...a, state: 'resolved' } : a;
}

export async function listAlerts(db: Queryable, orgId: string, f: AlertFilter): Promise<AlertRecord[]> {
  const where = ['a.org_id = $1'];
  const params: unknown[] = [orgId];
  const p = (v: unknown) => `$${params.push(v)}`;
  if (f.subject !== undefined) {
    const s = p(f.subject.toLowerCase());
    where.push(`(lower(a.subject_key) = ${s} OR lower(split_part(a.subject_label, ' · ', 1)) = ${s})`);
  }
  if (f.state !== undefined) {
    const now = f.now === undefined ? 'a.state' : `(CASE WHEN a.state = 'firing' AND a.ends_at <= ${p(f.now)} THEN 'resolved' ELSE a.state END)`;
    where.push(`${now} = ${p(f.state)}`);
  }
  if (f.changeId !== undefined) where.push(`EXISTS (SELECT 1 FROM held_alerts x WHERE x.change_id = ${p(f.changeId)} AND x.org_id = a.org_id AND x.fingerprint = a.fingerprint)`);
  if (f.held === true) where.push('hc.change_id IS NOT NULL');
  if (f.held === false) where.push('hc.change_id IS NULL');
  if (f.since !== undefined) where.push(`a.last_seen >= ${p(f.since)}`);
  const r = await db.query<AlertDbRow>(`${ALERT_SELECT} WHERE ${where.join(' AND ')} ORDER BY a.last_seen DESC, a.fingerprint LIMIT ${p(f.limit)}`, params);
  return r.rows.map(toRecord);
}

export async function readAlert(db: Queryable, orgId: string, fingerprint: string): Promise<AlertRecord | null> {
  const r = await db.query<AlertDbRow>(`${ALERT_SELECT} WHERE a.org_id = $1 AND a.fingerprint = $2`, [orgId, fingerprint]);
  return r.rows[0] ? toRecord(r.rows[0]) : null;
}

/** Alerts by fingerprint, as one query (the holds module's re-check of what is still failing). */
export async function readAlerts(db: Queryable, orgId: string, fingerprints: string[]): Promise<AlertRecord[]> {
  if (fingerprints.length === 0) return [];
  const r = await db.query<AlertDbRow>(`${ALERT_SELECT} WHERE a.org_id = $1 AND a.fingerprint = ANY($2::text[]) ORDER BY a.fingerprint`, [orgId, fingerprints]);
  return r.rows.map(toRecord);
}

export type LatestState = { fingerprint: string; state: AlertState; startsAt: string; endsAt: string | null; lastSeen: string };

/** The latest state of each alert, by fingerprint: what the release re-checks ("still failing?"). */
export async function latestStates(db: Queryable, orgId: string, fingerprints: string[]): Promise<Map<string, LatestState>> {
  if (fingerprints.length === 0) return new Map();
  const r = await db.query<{ fingerprint: string; state: AlertState; starts_at: Date; ends_at: Date | null; last_seen: Date }>(
    'SELECT fingerprint, state, starts_at, ends_at, last_seen FROM alerts WHERE org_id = $1 AND fingerprint = ANY($2::text[])',
    [orgId, fingerprints],
  );
  return new Map(r.rows.map((x) => [x.fingerprint, { fingerprint: x.fingerprint, state: x.state, startsAt: iso(x.starts_at), endsAt: isoOrNull(x.ends_at), lastSeen: iso(x.last_seen) }]));
}

export type HeldAlert = { alert: AlertRecord; changeId: string; firstHeldAt: string; lastHeldAt: string; outcome: 'held' | 'resent' | 'recovered' | 'kept'; decidedAt: string | null };

/** Everything one change's hold held, oldest first, with each alert's latest state. */
export async function listHeldAlerts(db: Queryable, changeId: string): Promise<HeldAlert[]> {
  const r = await db.query<AlertDbRow & { h_change: string; first_held_at: Date; last_held_at: Date; outcome: HeldAlert['outcome']; decided_at: Date | null }>(
    `SELECT q.*, h.change_id AS h_change, h.first_held_at, h.last_held_at, h.outcome, h.decided_at
       FROM held_alerts h JOIN LATERAL (${ALERT_SELECT} WHERE a.org_id = h.org_id AND a.fingerprint = h.fingerprint) q ON true
      WHERE h.change_id = $1 ORDER BY h.first_held_at, h.fingerprint`,
    [changeId],
  );
  return r.rows.map((x) => ({ alert: toRecord(x), changeId: x.h_change, firstHeldAt: iso(x.first_held_at), lastHeldAt: iso(x.last_held_at), outcome: x.outcome, decidedAt: isoOrNull(x.decided_at) }));
}

type TransitionDbRow = { fingerprint: string; state: AlertState; at: Date; received_at: Date; via: AlertVia; held_by: string | null };
const toTransition = (x: TransitionDbRow): Transition => ({ fingerprint: x.fingerprint, state: x.state, at: iso(x.at), receivedAt: iso(x.received_at), via: x.via, heldBy: x.held_by });

export async function readTransitions(db: Queryable, orgId: string, fingerprint: string): Promise<Transition[]> {
  const r = await db.query<TransitionDbRow>('SELECT fingerprint, state, at, received_at, via, held_by FROM alert_transitions WHERE org_id = $1 AND fingerprint = $2 ORDER BY at, id', [orgId, fingerprint]);
  return r.rows.map(toTransition);
}

/** A change of the organisation by its id or its CHG- id, with what the alert evidence needs of it. */
export async function findChangeRef(db: Queryable, orgId: string, idOrDisplay: string): Promise<{ id: string; displayId: string; title: string; windowStart: string; startedAt: string | null; finishedAt: string | null } | null> {
  const r = await db.query<{ id: string; title: string; window_start: Date; started_at: Date | null; finished_at: Date | null }>(
    `SELECT id, title, window_start, started_at, finished_at FROM changes
      WHERE org_id = $1 AND (id = $2 OR upper('CHG-' || substr(id, 5, 8)) = upper($2)) ORDER BY id LIMIT 1`,
    [orgId, idOrDisplay],
  );
  const x = r.rows[0];
  return x ? { id: x.id, displayId: displayId(x.id), title: x.title, windowStart: iso(x.window_start), startedAt: isoOrNull(x.started_at), finishedAt: isoOrNull(x.finished_at) } : null;
}
