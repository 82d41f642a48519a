import type { Subject } from './alert-types.js';

/** A live hold on one subject, as hold_subjects gives it (with the change's words for people). */
export type HoldEntry = { subjectKind: 'service' | 'asset' | 'source'; subjectKey: string; changeId: string; displayId: string; title: string };

/** The live holds of a batch, indexed by subject: deciding one alert is one Map look-up. */
export type HoldIndex = ReadonlyMap<string, readonly HoldEntry[]>;

export type HoldDecision =
  | { held: true; by: readonly HoldEntry[]; reason: string }
  | { held: false; by: readonly []; reason: string };

const keyOf = (kind: string, key: string) => `${kind}\u0000${key}`;

/** Builds the index once per batch; holders of one subject in change-id order, so every decision is repeatable. */
export function indexHolds(rows: readonly HoldEntry[]): HoldIndex {
  const index = new Map<string, HoldEntry[]>();
  for (const r of rows) {
    const k = keyOf(r.subjectKind, r.subjectKey);
    const list = index.get(k);
    if (list) {
      if (!list.some((x) => x.changeId === r.changeId)) list.push(r);
    } else index.set(k, [r]);
  }
  for (const list of index.values()) list.sort((a, b) => (a.changeId < b.changeId ? -1 : a.changeId > b.changeId ? 1 : 0));
  return index;
}

/**
 * Whether a live hold covers the alert's subject. An unmapped alert is never held (a monitor with
 * no service identity keeps alerting), and nothing outside every hold's subjects is.
 */
export function decideHold(subject: Subject, index: HoldIndex): HoldDecision {
  if (subject.kind === 'unmapped') return { held: false, by: [], reason: 'unmapped: an alert with no subject is never held' };
  const by = index.get(keyOf(subject.kind, subject.key));
  if (!by || by.length === 0) return { held: false, by: [], reason: `${subject.kind} ${subject.key} is in no active change's scope` };
  return { held: true, by, reason: `${subject.kind} ${subject.key} is in the scope of ${by.map((b) => b.displayId).join(', ')}` };
}
