import type { Queryable } from '../../platform/db/database.js';
import { readChangeScope } from '../changes/index.js';
import type { AlertRecord, AlertState, AlertVia, Subject, Transition } from './alert-types.js';
import { listHeldAlerts, readAlerts, type HeldAlert } from './alert-store.js';

/** A subject that entered error this many times inside one window is flapping (the verdict's word). */
export const FLAPPING_ENTRIES = 3;
/** The most transitions one answer carries; `truncated` says when a window had more. */
export const MAX_EVIDENCE_TRANSITIONS = 5_000;

/** What the evidence needs of a change: its window (started → finished, or now while it runs). */
export type EvidenceChange = {
  id: string; displayId: string; title: string; windowStart: string; startedAt: string | null; finishedAt: string | null;
  /** Where the window judged ends, when not at the finish: a report's horizon (finish + evidence minutes). */
  end?: string;
};

export type SubjectEvidence = {
  subject: Subject; label: string; inScope: boolean; preExisting: boolean;
  enteredError: number; flapping: boolean; fingerprints: string[]; transitions: Transition[];
};

export type AlertEvidence = {
  change: { id: string; displayId: string; title: string };
  window: { start: string; end: string; open: boolean };
  alerts: Array<AlertRecord & { outcome: HeldAlert['outcome'] | null; inScope: boolean }>;
  subjects: SubjectEvidence[];
  preExisting: Array<{ subject: Subject; label: string; fingerprints: string[] }>;
  truncated: boolean;
};

type Row = { fingerprint: string; state: AlertState; at: Date; received_at: Date; via: AlertVia; held_by: string | null };
const iso = (d: unknown) => new Date(d as string).toISOString();

/** Subjects group the evidence; an unmapped alert is its own group, named by its subject label. */
const groupOf = (a: AlertRecord) => (a.subject.kind === 'unmapped' ? `unmapped\u0000${a.subjectLabel}` : `${a.subject.kind}\u0000${a.subject.key}`);

/**
 * The alert evidence of one change, for the verdict: every alert that fired or recovered in the
 * window, the transitions per subject, the subjects already in error when it opened, and how often
 * each subject entered error. Four indexed reads, whatever the size of the alert history.
 */
export async function alertEvidence(db: Queryable, orgId: string, change: EvidenceChange, now: Date): Promise<AlertEvidence> {
  const start = change.startedAt ?? change.windowStart;
  const end = change.end ?? change.finishedAt ?? now.toISOString();
  const inWindow = await db.query<Row>(
    `SELECT fingerprint, state, at, received_at, via, held_by FROM alert_transitions
      WHERE org_id = $1 AND at >= $2 AND at <= $3 ORDER BY at, id LIMIT $4`,
    [orgId, start, end, MAX_EVIDENCE_TRANSITIONS + 1],
  );
  const truncated = inWindow.rows.length > MAX_EVIDENCE_TRANSITIONS;
  const transitions = inWindow.rows.slice(0, MAX_EVIDENCE_TRANSITIONS);
  // In error at the start: the last transition at or before it is a firing. Only alerts firing now,
  // or resolved since the start, can be (anything else was resolved before the window opened).
  const before = await db.query<{ fingerprint: string }>(
    `SELECT a.fingerprint FROM alerts a
       CROSS JOIN LATERAL (SELECT t.state FROM alert_transitions t WHERE t.org_id = a.org_id AND t.fingerprint = a.fingerprint AND t.at <= $2
                            ORDER BY t.at DESC, t.id DESC LIMIT 1) last
      WHERE a.org_id = $1 AND (a.state = 'firing' OR a.ends_at >= $2) AND last.state = 'firing'`,
    [orgId, start],
  );
  const held = await listHeldAlerts(db, change.id);
  const preFps = new Set(before.rows.map((r) => r.fingerprint));
  const fps = [...new Set([...transitions.map((t) => t.fingerprint), ...preFps, ...held.map((h) => h.alert.fingerprint)])];
  const alerts = await readAlerts(db, orgId, fps);
  const scope = await readChangeScope(db, change.id);
  const scoped = new Set([...(scope?.services ?? []).map((s) => `service\u0000${s.key}`), ...(scope?.assets ?? []).map((s) => `asset\u0000${s.key}`), ...(scope?.sourceIds ?? []).map((s) => `source\u0000${s}`)]);
  const outcome = new Map(held.map((h) => [h.alert.fingerprint, h.outcome]));

  const groups = new Map<string, SubjectEvidence>();
  const byFp = new Map(alerts.map((a) => [a.fingerprint, a]));
  for (const a of alerts) {
    const g = groupOf(a);
    const s = groups.get(g) ?? {
      subject: a.subject, label: a.subject.name ?? a.subjectLabel, inScope: scoped.has(g), preExisting: false,
      enteredError: 0, flapping: false, fingerprints: [], transitions: [],
    };
    s.fingerprints.push(a.fingerprint);
    if (preFps.has(a.fingerprint)) s.preExisting = true;
    groups.set(g, s);
  }
  for (const t of transitions) {
    const a = byFp.get(t.fingerprint);
    if (!a) continue;
    const s = groups.get(groupOf(a))!;
    s.transitions.push({ fingerprint: t.fingerprint, state: t.state, at: iso(t.at), receivedAt: iso(t.received_at), via: t.via, heldBy: t.held_by });
    if (t.state === 'firing') s.enteredError += 1;
  }
  const subjects = [...groups.values()].map((s) => ({ ...s, flapping: s.enteredError >= FLAPPING_ENTRIES }))
    .sort((x, y) => y.enteredError - x.enteredError || x.label.localeCompare(y.label));
  return {
    change: { id: change.id, displayId: change.displayId, title: change.title },
    window: { start: iso(start), end: iso(end), open: change.finishedAt === null },
    alerts: alerts.map((a) => ({ ...a, outcome: outcome.get(a.fingerprint) ?? null, inScope: scoped.has(groupOf(a)) }))
      .sort((x, y) => (x.lastSeen < y.lastSeen ? 1 : x.lastSeen > y.lastSeen ? -1 : 0)),
    subjects,
    preExisting: subjects.filter((s) => s.preExisting).map((s) => ({ subject: s.subject, label: s.label, fingerprints: s.fingerprints.filter((f) => preFps.has(f)) })),
    truncated,
  };
}

/**
 * Whether the organisation's alerts were watched before `before`: an Alertmanager is configured, or
 * any alert had reached us by then. Without either, silence in the alert history means nothing.
 */
export async function hasAlertSource(db: Queryable, orgId: string, before: string): Promise<boolean> {
  const r = await db.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM alertmanagers WHERE org_id = $1) OR EXISTS (SELECT 1 FROM alert_transitions WHERE org_id = $1 AND received_at <= $2) AS yes`,
    [orgId, before],
  );
  return r.rows[0]?.yes === true;
}
