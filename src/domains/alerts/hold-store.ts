import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import type { Suppression, SilenceView } from '../changes/index.js';
import type { Matcher } from './alertmanager-client.js';

/**
 * SQL of holds: alert_holds, hold_subjects, hold_silences and the outcome of held_alerts (intake
 * writes the held rows themselves). Bulk writes go through unnest so a release of 1,000 held
 * alerts is a handful of statements.
 */

export type HoldState = 'active' | 'releasing' | 'released';
/** The hold modes are the suppression's, which changes owns. */
import type { HoldMode } from '../changes/index.js';
export type { HoldMode };
export type Outcome = 'held' | 'resent' | 'recovered' | 'kept';

export type Hold = {
  changeId: string; orgId: string; mode: HoldMode; state: HoldState; since: string; until: string; releaseAt: string | null; releasedAt: string | null;
  releaseHeld: boolean; held: number; resent: number; recovered: number; problem: string | null; updatedAt: string;
};

export type SilenceState = 'pending' | 'active' | 'expired' | 'failed';
export type HoldSilence = {
  changeId: string; alertmanagerId: string; alertmanagerName: string; label: string; silenceId: string | null; state: SilenceState;
  endsAt: string; attempts: number; problem: string | null; matchers: Matcher[];
};

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

type HoldRow = Row & {
  change_id: string; org_id: string; mode: HoldMode; state: HoldState; since: Date; until: Date; release_at: Date | null; released_at: Date | null;
  release_held: boolean; held: number; resent: number; recovered: number; problem: string | null; updated_at: Date;
};
const toHold = (r: HoldRow): Hold => ({
  changeId: r.change_id, orgId: r.org_id, mode: r.mode, state: r.state, since: iso(r.since), until: iso(r.until), releaseAt: isoOrNull(r.release_at),
  releasedAt: isoOrNull(r.released_at), releaseHeld: r.release_held, held: Number(r.held), resent: Number(r.resent), recovered: Number(r.recovered),
  problem: r.problem, updatedAt: iso(r.updated_at),
});

/** Writes the hold of a change that started; a second start of the same change changes nothing. */
export async function insertHold(tx: Tx, h: { changeId: string; orgId: string; mode: HoldMode; since: string; until: string; releaseHeld: boolean; now: string }): Promise<boolean> {
  const r = await tx.query(
    `INSERT INTO alert_holds (change_id, org_id, mode, state, since, until, release_held, updated_at)
     VALUES ($1, $2, $3, 'active', $4, $5, $6, $7) ON CONFLICT (change_id) DO NOTHING`,
    [h.changeId, h.orgId, h.mode, h.since, h.until, h.releaseHeld, h.now],
  );
  return r.rowCount > 0;
}

export async function readHold(db: Queryable, changeId: string, forUpdate = false): Promise<Hold | null> {
  const r = await db.query<HoldRow>(`SELECT * FROM alert_holds WHERE change_id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [changeId]);
  return r.rows[0] ? toHold(r.rows[0]) : null;
}

export async function insertSubjects(tx: Tx, orgId: string, changeId: string, subjects: Array<{ kind: 'service' | 'asset' | 'source'; key: string }>): Promise<void> {
  if (subjects.length === 0) return;
  await tx.query(
    `INSERT INTO hold_subjects (org_id, subject_kind, subject_key, change_id)
     SELECT $1, k, s, $2 FROM unnest($3::text[], $4::text[]) AS t(k, s) ON CONFLICT DO NOTHING`,
    [orgId, changeId, subjects.map((s) => s.kind), subjects.map((s) => s.key)],
  );
}

export async function deleteSubjects(tx: Tx, changeId: string): Promise<void> {
  await tx.query('DELETE FROM hold_subjects WHERE change_id = $1', [changeId]);
}

export async function countSubjects(db: Queryable, changeId: string): Promise<number> {
  const r = await db.query<{ n: string }>('SELECT count(*) AS n FROM hold_subjects WHERE change_id = $1', [changeId]);
  return Number(r.rows[0]!.n);
}

export async function markReleasing(tx: Tx, changeId: string, releaseAt: string, now: string): Promise<void> {
  await tx.query(`UPDATE alert_holds SET state = 'releasing', release_at = $2, until = $2, updated_at = $3 WHERE change_id = $1 AND state = 'active'`, [changeId, releaseAt, now]);
}

export async function setUntil(tx: Tx, changeId: string, until: string, now: string): Promise<void> {
  await tx.query(`UPDATE alert_holds SET until = $2, updated_at = $3 WHERE change_id = $1 AND state = 'active'`, [changeId, until, now]);
}

export async function setProblem(tx: Tx, changeId: string, problem: string | null, now: string): Promise<void> {
  await tx.query('UPDATE alert_holds SET problem = $2, updated_at = $3 WHERE change_id = $1', [changeId, problem, now]);
}

export async function markReleased(tx: Tx, changeId: string, counts: { held: number; resent: number; recovered: number }, now: string): Promise<void> {
  await tx.query(
    `UPDATE alert_holds SET state = 'released', released_at = $2, held = $3, resent = $4, recovered = $5, problem = NULL, updated_at = $2 WHERE change_id = $1`,
    [changeId, now, counts.held, counts.resent, counts.recovered],
  );
}

// ── silences ─────────────────────────────────────────────────────────────────────────────────────

type SilenceRow = Row & {
  change_id: string; alertmanager_id: string; name: string | null; label: string; silence_id: string | null; state: SilenceState; ends_at: Date;
  attempts: number; problem: string | null; matchers: Matcher[];
};
const toSilence = (r: SilenceRow): HoldSilence => ({
  changeId: r.change_id, alertmanagerId: r.alertmanager_id, alertmanagerName: r.name ?? r.alertmanager_id, label: r.label, silenceId: r.silence_id,
  state: r.state, endsAt: iso(r.ends_at), attempts: Number(r.attempts), problem: r.problem, matchers: r.matchers ?? [],
});

export async function listSilences(db: Queryable, changeId: string, alertmanagerId?: string): Promise<HoldSilence[]> {
  const r = await db.query<SilenceRow>(
    `SELECT s.*, a.name FROM hold_silences s LEFT JOIN alertmanagers a ON a.id = s.alertmanager_id
     WHERE s.change_id = $1 ${alertmanagerId ? 'AND s.alertmanager_id = $2' : ''} ORDER BY lower(a.name), s.alertmanager_id, s.label`,
    alertmanagerId ? [changeId, alertmanagerId] : [changeId],
  );
  return r.rows.map(toSilence);
}

/** The silences one Alertmanager should hold for a change, written before they are posted. */
export async function planSilences(tx: Tx, changeId: string, alertmanagerId: string, specs: Array<{ label: string; matchers: Matcher[] }>, endsAt: string, now: string): Promise<void> {
  if (specs.length === 0) return;
  await tx.query(
    `INSERT INTO hold_silences (change_id, alertmanager_id, label, matchers, state, ends_at, updated_at)
     SELECT $1, $2, l, m::jsonb, 'pending', $3, $4 FROM unnest($5::text[], $6::text[]) AS t(l, m)
     ON CONFLICT (change_id, alertmanager_id, label) DO NOTHING`,
    [changeId, alertmanagerId, endsAt, now, specs.map((s) => s.label), specs.map((s) => JSON.stringify(s.matchers))],
  );
}

export async function recordSilence(tx: Tx, s: { changeId: string; alertmanagerId: string; label: string; silenceId: string | null; state: SilenceState; problem: string | null; now: string }): Promise<void> {
  await tx.query(
    `UPDATE hold_silences SET silence_id = coalesce($4, silence_id), state = $5, problem = $6, attempts = attempts + 1, updated_at = $7
     WHERE change_id = $1 AND alertmanager_id = $2 AND label = $3`,
    [s.changeId, s.alertmanagerId, s.label, s.silenceId, s.state, s.problem, s.now],
  );
}

/** Moves the end of every live silence of a change (the DB's record; the job posts it). */
export async function setSilencesEnd(tx: Tx, changeId: string, endsAt: string, now: string): Promise<void> {
  await tx.query(`UPDATE hold_silences SET ends_at = $2, updated_at = $3 WHERE change_id = $1 AND state <> 'expired'`, [changeId, endsAt, now]);
}

export async function expireSilences(tx: Tx, changeId: string, alertmanagerIds: string[], now: string): Promise<void> {
  if (alertmanagerIds.length === 0) return;
  await tx.query(`UPDATE hold_silences SET state = 'expired', problem = NULL, updated_at = $3 WHERE change_id = $1 AND alertmanager_id = ANY($2::text[])`, [changeId, alertmanagerIds, now]);
}

// ── held alerts ──────────────────────────────────────────────────────────────────────────────────

export async function countHeld(db: Queryable, changeId: string): Promise<number> {
  const r = await db.query<{ n: string }>('SELECT count(*) AS n FROM held_alerts WHERE change_id = $1', [changeId]);
  return Number(r.rows[0]!.n);
}

export async function setOutcomes(tx: Tx, changeId: string, rows: Array<{ fingerprint: string; outcome: Outcome; reason: string }>, now: string): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `UPDATE held_alerts h SET outcome = t.o, outcome_reason = t.r, decided_at = $2
     FROM unnest($3::text[], $4::text[], $5::text[]) AS t(f, o, r) WHERE h.change_id = $1 AND h.fingerprint = t.f`,
    [changeId, now, rows.map((r) => r.fingerprint), rows.map((r) => r.outcome), rows.map((r) => r.reason)],
  );
}

// ── the summary GET /api/changes/{id}, /status and callbacks carry ──────────────────────────────────

/** The suppression of a change as stored now: none before it ran; counts live while it holds. */
export async function readSuppression(db: Queryable, changeId: string): Promise<Suppression> {
  const hold = await readHold(db, changeId);
  if (!hold) return { state: 'none', mode: null, since: null, until: null, held: 0, resent: 0, recovered: 0, silences: [], problem: null };
  const held = hold.state === 'released' ? hold.held : await countHeld(db, changeId);
  const silences: SilenceView[] = (await listSilences(db, changeId)).map((s) => ({ alertmanager: s.alertmanagerName, id: s.silenceId, state: s.state }));
  return {
    state: hold.state, mode: hold.mode, since: hold.since, until: hold.until, held, resent: hold.resent, recovered: hold.recovered, silences, problem: hold.problem,
  };
}

// ── reads of lower domains' rows a hold names ─────────────────────────────────────────────────────

/** The catalogue names of a scope's monitoring sources (a source may be matched by id or by name). */
export async function sourceNames(db: Queryable, orgId: string, ids: string[]): Promise<Array<{ id: string; name: string }>> {
  if (ids.length === 0) return [];
  const r = await db.query<{ id: string; name: string }>('SELECT id, name FROM catalogue_sources WHERE org_id = $1 AND id = ANY($2::text[])', [orgId, ids]);
  const named = new Map(r.rows.map((x) => [x.id, x.name]));
  return ids.map((id) => ({ id, name: named.get(id) ?? id }));
}

/** The title of a change, for the release's notices and the silence comment. */
export async function changeTitle(db: Queryable, changeId: string): Promise<string | null> {
  const r = await db.query<{ title: string }>('SELECT title FROM changes WHERE id = $1', [changeId]);
  return r.rows[0]?.title ?? null;
}
