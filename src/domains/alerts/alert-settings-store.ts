import type { Queryable, Row } from '../../platform/db/database.js';
import type { DestinationKind, LabelMapping } from './alert-types.js';
import { DEFAULT_LABEL_MAPPING } from './label-mapping.js';

/**
 * SQL of the alert settings: alert_settings, alertmanagers and alert_destinations. Intake reads the
 * label mapping here, holds reads the Alertmanagers (and one's sealed auth), relay the destinations.
 */

/** The hold modes are the suppression's, which changes owns. */
import type { HoldMode } from '../changes/index.js';
export type { HoldMode };
export type AlertmanagerAuthKind = 'none' | 'bearer' | 'basic';
export type AlertmanagerRef = { id: string; name: string; url: string; authKind: AlertmanagerAuthKind };

/** How the last send to a destination went; null before the first. */
export type LastDelivery = {
  at: string; ok: boolean; status: number | null; error: string | null;
  /** Attempts made for that message; the next one's time while it is being retried. */
  attempts: number; nextAttemptAt: string | null;
};

/** What is not secret about a destination, as stored in alert_destinations.config. */
export type DestinationConfig = {
  /** webhook, slack: the host the sealed URL points at, for people to recognise it. */
  host?: string;
  /** email: the recipients. */
  to?: string[];
  /** pagerduty: the Events API v2 URL (https://events.pagerduty.com/v2/enqueue by default). */
  eventsUrl?: string;
  /** The last send's result, kept beside the configuration (written by the relay worker). */
  lastDelivery?: LastDelivery | null;
};

export type DestinationRecord = {
  id: string; orgId: string; kind: DestinationKind; name: string; enabled: boolean;
  config: DestinationConfig; hasSecret: boolean; createdAt: string; updatedAt: string;
};

export type AlertSettings = {
  holdMode: HoldMode;
  /** The organisation's mapping, or the documented defaults while none is saved. */
  labelMapping: LabelMapping;
  /** True when labelMapping is the defaults (nothing saved). */
  labelMappingIsDefault: boolean;
  updatedAt: string | null;
  alertmanagers: AlertmanagerRef[];
  destinations: DestinationRecord[];
};

type SettingsRow = Row & { hold_mode: HoldMode; label_mapping: LabelMapping | null; updated_at: Date };
type AlertmanagerRow = Row & { id: string; org_id: string; name: string; url: string; auth_kind: AlertmanagerAuthKind; auth_sealed: string | null; created_at: Date; updated_at: Date };
type DestinationRow = Row & {
  id: string; org_id: string; kind: DestinationKind; name: string; config: DestinationConfig; secret_sealed: string | null;
  enabled: boolean; created_at: Date; updated_at: Date;
};

const iso = (d: Date | string) => new Date(d).toISOString();

export const toAlertmanager = (r: AlertmanagerRow): AlertmanagerRef & { createdAt: string; updatedAt: string; hasAuth: boolean } => ({
  id: r.id, name: r.name, url: r.url, authKind: r.auth_kind, hasAuth: r.auth_sealed !== null, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
});

export const toDestination = (r: DestinationRow): DestinationRecord => ({
  id: r.id, orgId: r.org_id, kind: r.kind, name: r.name, enabled: r.enabled, config: r.config ?? {}, hasSecret: r.secret_sealed !== null,
  createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
});

/** The hold mode and label mapping alone (intake's and holds' hot path: one row). */
export async function readHoldSettings(db: Queryable, orgId: string): Promise<Pick<AlertSettings, 'holdMode' | 'labelMapping' | 'labelMappingIsDefault' | 'updatedAt'>> {
  const r = await db.query<SettingsRow>('SELECT hold_mode, label_mapping, updated_at FROM alert_settings WHERE org_id = $1', [orgId]);
  const x = r.rows[0];
  if (!x) return { holdMode: 'relay', labelMapping: DEFAULT_LABEL_MAPPING, labelMappingIsDefault: true, updatedAt: null };
  return {
    holdMode: x.hold_mode, labelMapping: x.label_mapping ?? DEFAULT_LABEL_MAPPING, labelMappingIsDefault: x.label_mapping === null, updatedAt: iso(x.updated_at),
  };
}

/** Everything of an organisation's alert settings; secrets stay in the database, sealed. */
export async function readAlertSettings(db: Queryable, orgId: string): Promise<AlertSettings> {
  const settings = await readHoldSettings(db, orgId);
  const alertmanagers = (await listAlertmanagers(db, orgId)).map(({ id, name, url, authKind }) => ({ id, name, url, authKind }));
  return { ...settings, alertmanagers, destinations: await listDestinations(db, orgId) };
}

export async function listAlertmanagers(db: Queryable, orgId: string) {
  const r = await db.query<AlertmanagerRow>('SELECT * FROM alertmanagers WHERE org_id = $1 ORDER BY lower(name), id', [orgId]);
  return r.rows.map(toAlertmanager);
}

/** One Alertmanager with its auth still sealed (open it with openAlertmanagerAuth in alert-settings.ts). */
export async function readAlertmanagerAuth(db: Queryable, orgId: string, id: string): Promise<(AlertmanagerRef & { authSealed: string | null }) | null> {
  const r = await db.query<AlertmanagerRow>('SELECT * FROM alertmanagers WHERE org_id = $1 AND id = $2', [orgId, id]);
  const x = r.rows[0];
  return x ? { id: x.id, name: x.name, url: x.url, authKind: x.auth_kind, authSealed: x.auth_sealed } : null;
}

export async function listDestinations(db: Queryable, orgId: string, only?: { enabled: true }): Promise<DestinationRecord[]> {
  const r = await db.query<DestinationRow>(
    `SELECT * FROM alert_destinations WHERE org_id = $1 ${only?.enabled ? 'AND enabled' : ''} ORDER BY lower(name), id`, [orgId],
  );
  return r.rows.map(toDestination);
}

/** One destination with its secret still sealed, for the worker that sends to it. */
export async function readDestinationSecret(db: Queryable, orgId: string, id: string): Promise<(DestinationRecord & { secretSealed: string | null }) | null> {
  const r = await db.query<DestinationRow>('SELECT * FROM alert_destinations WHERE org_id = $1 AND id = $2', [orgId, id]);
  const x = r.rows[0];
  return x ? { ...toDestination(x), secretSealed: x.secret_sealed } : null;
}

/**
 * An e-mail destination's last message as the mail outbox knows it (relay queues e-mail there,
 * one job per recipient, keyed `alert.relay:<destination>:…`): sent, being retried, or given up.
 * Null while nothing was sent or the last one is still waiting for its first attempt.
 */
export async function readMailDelivery(db: Queryable, orgId: string, destinationId: string): Promise<LastDelivery | null> {
  const prefix = `alert.relay:${destinationId}:`.replace(/[\\%_]/g, (c) => `\\${c}`);
  const r = await db.query<Row & { status: string; attempts: number; last_error: string | null; run_at: Date; updated_at: Date }>(
    `SELECT status, attempts, last_error, run_at, updated_at FROM jobs
     WHERE org_id = $1 AND kind = 'mail.send' AND dedupe_key LIKE $2 AND attempts > 0 ORDER BY updated_at DESC, id DESC LIMIT 1`,
    [orgId, `${prefix}%`],
  );
  const j = r.rows[0];
  if (!j) return null;
  const at = iso(j.updated_at);
  if (j.status === 'done') return { at, ok: true, status: null, error: null, attempts: j.attempts, nextAttemptAt: null };
  if (j.status === 'dead') return { at, ok: false, status: null, error: `${j.last_error ?? 'not sent'}; gave up after ${j.attempts} attempts`, attempts: j.attempts, nextAttemptAt: null };
  if (j.status === 'pending' && j.last_error) return { at, ok: false, status: null, error: j.last_error, attempts: j.attempts, nextAttemptAt: iso(j.run_at) };
  return null;
}
