import { Counter, type Registry } from 'prom-client';
import { timeBound, type Clock } from '../../platform/clock.js';
import { invalid, notFound } from '../../platform/errors.js';
import type { Principal } from '../auth/index.js';
import type { Database, Tx } from '../../platform/db/database.js';
import type { HoldMode } from '../changes/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import type { AlertRecord, AlertState, AlertVia, IncomingAlert, Transition } from './alert-types.js';
import { alertEvidence, type AlertEvidence } from './alert-evidence.js';
import { readHoldSettings } from './alert-settings-store.js';
import {
  findChangeRef, findSubjectsAndHolds, listAlerts, readAlert, readTransitions, stateAsOf, writeBatch, type AlertRow, type TransitionRow,
} from './alert-store.js';
import { decideHold, indexHolds, type HoldDecision } from './hold-decision.js';
import { indexHits, lookupsOf, resolveSubject, subjectLabel } from './label-mapping.js';

/** One alert of an intake batch, as the relay hears of it. */
export type IntakeItem = { alert: AlertRecord; heldBy: string | null; changed: boolean };

/** The seam relay fills in: called inside the intake's transaction, after the rows are written. */
/** `holdMode` is the organisation's, as intake read it for this batch: relay reads no settings again. */
export type IntakeRelay = { afterIntake(tx: Tx, orgId: string, batch: IntakeItem[], holdMode: HoldMode): Promise<void> };

/** Until relay plugs itself in (and in tests of intake alone): forwards nothing. */
export const noRelay: IntakeRelay = { async afterIntake() {} };


/** GET /api/alerts's filters as sent. */
export type AlertListQuery = { subject?: string; state?: AlertState; change?: string; held?: boolean; since?: string; limit?: number };

/** What one batch did: `transitions` new rows; `repeats` alerts that added nothing (Alertmanager's repeat_interval). */
export type IntakeResult = { received: number; transitions: number; repeats: number; held: number; unmapped: number };

const SILENCE_POLL: AuditContext = { actor: { kind: 'system', id: null, name: 'changeledger alert holds' }, source: 'scheduler' };

export class AlertService {
  private readonly repeats: Counter<'via'> | null;
  private readonly received: Counter<'via'> | null;

  constructor(private readonly deps: {
    db: Database; clock: Clock; relay?: IntakeRelay;
    /** Where intake counts what it received and what was a pure repeat (not audited). */
    registry?: Registry;
  }) {
    const registers = deps.registry ? [deps.registry] : [];
    this.received = deps.registry ? new Counter({ name: 'changeledger_alerts_received_total', help: 'Alerts received, by how they came', labelNames: ['via'] as const, registers }) : null;
    this.repeats = deps.registry ? new Counter({ name: 'changeledger_alerts_repeated_total', help: 'Alerts received again with nothing new (Alertmanager repeat_interval re-sends)', labelNames: ['via'] as const, registers }) : null;
  }

  get db(): Database {
    return this.deps.db;
  }

  /** Let relay plug itself in after both are built (compose). */
  setRelay(relay: IntakeRelay): void {
    this.deps.relay = relay;
  }

  /** One intake batch in one transaction: rows, the relay's outbox rows and (when anything is new) one audit event. */
  async receive(ctx: AuditContext, orgId: string, via: Exclude<AlertVia, 'silence'>, alerts: IncomingAlert[], source: string): Promise<IntakeResult> {
    return this.deps.db.transaction((tx) => this.intakeTx(tx, ctx, orgId, via, alerts, source, true));
  }

  /**
   * Silence mode's poll: what Alertmanager holds under a changeledger silence, recorded like any
   * intake (subjects, transitions, held_alerts) in the caller's transaction or a new one. The relay
   * is not called: these alerts are held by Alertmanager itself.
   */
  async recordHeld(tx: Tx | null, orgId: string, via: 'silence', incoming: IncomingAlert[], source: string): Promise<IntakeResult> {
    if (tx) return this.intakeTx(tx, SILENCE_POLL, orgId, via, incoming, source, false);
    return this.deps.db.transaction((t) => this.intakeTx(t, SILENCE_POLL, orgId, via, incoming, source, false));
  }

  // ── reads ─────────────────────────────────────────────────────────────────────────────────────

  async list(p: Principal, q: AlertListQuery): Promise<AlertRecord[]> {
    const since = timeBound(q.since, this.deps.clock.now(), 'since');
    let changeId: string | undefined;
    if (q.change !== undefined) {
      const c = await findChangeRef(this.deps.db, p.org.id, q.change);
      if (!c) throw invalid('change', 'is not a change of this organisation', q.change);
      changeId = c.id;
    }
    const now = this.deps.clock.now();
    const found = await listAlerts(this.deps.db, p.org.id, {
      ...(q.subject !== undefined ? { subject: q.subject } : {}), ...(q.state !== undefined ? { state: q.state } : {}),
      ...(changeId !== undefined ? { changeId } : {}), ...(q.held !== undefined ? { held: q.held } : {}),
      ...(since ? { since: since.toISOString() } : {}), limit: q.limit ?? 100, now: now.toISOString(),
    });
    return found.map((a) => stateAsOf(a, now));
  }

  async get(p: Principal, fingerprint: string): Promise<{ alert: AlertRecord; transitions: Transition[] }> {
    const alert = await readAlert(this.deps.db, p.org.id, fingerprint);
    if (!alert) throw notFound(`no alert with fingerprint ${fingerprint}`);
    return { alert: stateAsOf(alert, this.deps.clock.now()), transitions: await readTransitions(this.deps.db, p.org.id, fingerprint) };
  }

  /** GET /api/changes/{id}/alerts: the change's alert evidence, by its id or CHG- id. */
  async evidence(p: Principal, changeId: string): Promise<AlertEvidence> {
    const c = await findChangeRef(this.deps.db, p.org.id, changeId);
    if (!c) throw notFound(`no change ${changeId}`);
    return alertEvidence(this.deps.db, p.org.id, c, this.deps.clock.now());
  }

  private async intakeTx(tx: Tx, ctx: AuditContext, orgId: string, via: AlertVia, alerts: IncomingAlert[], source: string, relay: boolean): Promise<IntakeResult> {
    const now = this.deps.clock.now().toISOString();
    // One read of the settings per batch: the label mapping (the defaults while none is saved) and the hold mode.
    const { labelMapping: mapping, holdMode } = await readHoldSettings(tx, orgId);
    // One query: the catalogue entities and sources every alert's labels may name, with the live holds on them.
    const found = await findSubjectsAndHolds(tx, orgId, lookupsOf(alerts.map((a) => a.labels), mapping));
    const hits = indexHits(found.entities, found.sources);
    const index = indexHolds(found.holds);

    const decided = alerts.map((a) => {
      const r = resolveSubject(a.labels, mapping, hits);
      const alertname = a.labels.alertname ?? '(no alertname)';
      const row: AlertRow = {
        fingerprint: a.fingerprint, alertname, labels: a.labels, annotations: a.annotations, generatorURL: a.generatorURL,
        subjectKind: r.subject.kind, subjectKey: r.subject.key, subjectLabel: subjectLabel(r.subject, alertname, a.labels, r.source, source),
        source, state: a.state, startsAt: a.startsAt, endsAt: a.endsAt,
      };
      return { a, r, row, hold: decideHold(r.subject, index) };
    });

    const transitions: TransitionRow[] = decided.flatMap(({ a, hold }) => {
      const heldBy = hold.by[0]?.changeId ?? null;
      const firing: TransitionRow = { fingerprint: a.fingerprint, state: 'firing', at: a.startsAt, heldBy };
      // A resolution we hear of first still fired: its firing is part of the history too.
      return a.state === 'firing' ? [firing] : [firing, { fingerprint: a.fingerprint, state: 'resolved', at: a.endsAt!, heldBy }];
    });
    const held = decided.flatMap(({ a, hold }) => hold.by.map((b) => ({ changeId: b.changeId, fingerprint: a.fingerprint })));
    const { firstSeen, inserted } = await writeBatch(tx, orgId, via, { alerts: decided.map((d) => d.row), transitions, held }, now);
    const stateOf = new Map(alerts.map((a) => [a.fingerprint, a.state]));
    // Changed: the alert's own state is new (a resolution, a new firing), not only a back-filled firing.
    const changed = new Set(inserted.filter((t) => t.state === stateOf.get(t.fingerprint)).map((t) => t.fingerprint));
    const newOnes = new Set(inserted.map((t) => t.fingerprint));

    const items: IntakeItem[] = decided.map(({ a, row, hold }) => ({ alert: toRecord(orgId, a, row, hold, firstSeen.get(a.fingerprint) ?? now, now), heldBy: hold.by[0]?.changeId ?? null, changed: changed.has(a.fingerprint) }));
    if (relay) await (this.deps.relay ?? noRelay).afterIntake(tx, orgId, items, holdMode);

    const result: IntakeResult = {
      received: alerts.length, transitions: inserted.length, repeats: alerts.filter((a) => !newOnes.has(a.fingerprint)).length,
      held: decided.filter((d) => d.hold.held).length, unmapped: decided.filter((d) => d.r.subject.kind === 'unmapped').length,
    };
    // A batch that adds nothing is Alertmanager's repeat: counted, not audited (it would fill the ledger every repeat_interval).
    if (inserted.length > 0) {
      const holders = [...new Set(decided.flatMap((d) => d.hold.by.map((b) => b.displayId)))].sort();
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId, action: 'alerts.received', target: { type: 'alert_source', id: source },
        data: {
          via, ...result,
          firing: inserted.filter((t) => t.state === 'firing').length, resolved: inserted.filter((t) => t.state === 'resolved').length,
          heldBy: holders, fingerprints: [...newOnes].sort().slice(0, 20),
        },
      });
    }
    this.received?.inc({ via }, result.received);
    this.repeats?.inc({ via }, result.repeats);
    return result;
  }
}

function toRecord(orgId: string, a: IncomingAlert, row: AlertRow, hold: HoldDecision, firstSeen: string, now: string): AlertRecord {
  const r = hold.by[0];
  return {
    ...a, orgId, alertname: row.alertname, subject: resolvedSubject(row), subjectLabel: row.subjectLabel, source: row.source,
    firstSeen, lastSeen: now, heldBy: r ? { changeId: r.changeId, displayId: r.displayId, title: r.title } : null,
  };
}

function resolvedSubject(row: AlertRow): AlertRecord['subject'] {
  if (row.subjectKind === 'unmapped' || row.subjectKey === null) return { kind: 'unmapped', key: null, name: null };
  return { kind: row.subjectKind, key: row.subjectKey, name: row.subjectLabel.split(' · ')[0] ?? row.subjectKey };
}
