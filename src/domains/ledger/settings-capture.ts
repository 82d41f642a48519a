/**
 * A settings write seen as a before-state capture. Every `settings.*` event of the ledger keeps
 * what the write replaced (as `changed: {field: {from, to}}`, `from`/`to`, or `before`); this reads
 * that earlier value back out, with the same fields a change's capture has: a SHA-256 of its
 * canonical JSON, when and by whom, how complete it is, and whether writing it back restores the
 * earlier settings exactly. Pure: the event in, the capture out.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../platform/canonical-json.js';
import { AUDIT_ACTIONS } from './audit-actions.js';
import type { AuditEvent } from './audit-event.js';

export type SettingsCapture = {
  seq: number;
  action: string;
  /** Which settings, from the action: changes, change_approvers, alerts, flags, catalogue, evidence, incidents, observed, unmanaged. */
  settings: string;
  method: 'settings_write';
  source: 'changeledger';
  capturedAt: string;
  capturedBy: string;
  /** The values the write replaced, field by field; null when the ledger does not hold them. */
  before: Record<string, unknown> | null;
  /** The values it wrote, as far as the ledger holds them. */
  after: Record<string, unknown> | null;
  /** SHA-256 (hex) of the canonical JSON of `before`; null without one. */
  sha256: string | null;
  sizeBytes: number;
  completeness: 'complete' | 'partial' | 'unknown';
  prestateStatus: 'present' | 'absent' | 'unknown';
  restorable: boolean;
  /** Why a capture is not complete, in words. */
  note: string | null;
};

const PREFIX = 'settings.';
/** Two domains name their settings writes the other way round: `observed_settings.updated`. */
const SUFFIX = '_settings.updated';
const isSettingsWrite = (action: string): boolean => action.startsWith(PREFIX) || action.endsWith(SUFFIX);

/** A settings write's name: the action without `settings.` and `_updated` (or `_settings.updated`). */
function settingsName(action: string): string {
  return action.endsWith(SUFFIX) ? action.slice(0, -SUFFIX.length) : action.slice(PREFIX.length).replace(/_updated$/, '');
}

/** Every audit action that is a settings write, by the name of its settings. */
export const SETTINGS_ACTIONS: ReadonlyMap<string, string> = new Map(Object.values(AUDIT_ACTIONS).flatMap((g) => g.actions as readonly string[])
  .filter(isSettingsWrite).map((a) => [settingsName(a), a] as const).sort(([a], [b]) => a.localeCompare(b)));
export const SETTINGS_NAMES: readonly string[] = [...SETTINGS_ACTIONS.keys()];

/** Settings that hold credentials: the ledger never keeps their values, before or after. */
const CREDENTIAL_SETTINGS = new Set(['settings.incidents_updated']);
const NOT_KEPT = 'this event was written before the ledger kept the value a settings write replaced';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The earlier and later values an event keeps, in whichever of the three shapes it was written. */
function beforeAndAfter(data: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> | null } | null {
  if (isObject(data.before)) return { before: data.before, after: isObject(data.after) ? data.after : null };
  const changed = data.changed;
  if (isObject(changed) && Object.values(changed).every((v) => isObject(v) && 'from' in v)) {
    const entries = Object.entries(changed as Record<string, { from: unknown; to: unknown }>);
    return { before: Object.fromEntries(entries.map(([k, v]) => [k, v.from])), after: Object.fromEntries(entries.map(([k, v]) => [k, v.to])) };
  }
  if (isObject(data.from) && isObject(data.to)) return { before: data.from, after: data.to };
  return null;
}

/** The capture of one settings write; null for an event that is not one. */
export function settingsCapture(e: Pick<AuditEvent, 'seq' | 'action' | 'occurredAt' | 'actor' | 'data'>): SettingsCapture | null {
  if (!isSettingsWrite(e.action)) return null;
  const base = {
    seq: e.seq, action: e.action, settings: settingsName(e.action), method: 'settings_write' as const, source: 'changeledger' as const,
    capturedAt: e.occurredAt, capturedBy: e.actor.name ?? e.actor.kind,
  };
  if (CREDENTIAL_SETTINGS.has(e.action)) {
    return {
      ...base, before: null, after: null, sha256: null, sizeBytes: 0, completeness: 'unknown', prestateStatus: 'unknown', restorable: false,
      note: 'these settings hold credentials: the ledger keeps neither their earlier nor their new value',
    };
  }
  const kept = beforeAndAfter(e.data);
  if (!kept) {
    return { ...base, before: null, after: null, sha256: null, sizeBytes: 0, completeness: 'unknown', prestateStatus: 'unknown', restorable: false, note: NOT_KEPT };
  }
  const json = canonicalJson(kept.before);
  return {
    ...base, before: kept.before, after: kept.after, sha256: createHash('sha256').update(json).digest('hex'), sizeBytes: Buffer.byteLength(json),
    // A write's earlier values are the stored values themselves, field by field: writing them back restores them.
    completeness: 'complete', prestateStatus: 'present', restorable: true, note: null,
  };
}
