import type { CheckKind, Comparator, ValidationItem } from '../api/rollback-types';

// The validation plan as typed in the register form: one row per item, sent as `validationPlan`
// in the order shown, so the server's field (validationPlan.3.url) names the row it is about.

export type ItemDraft = {
  /** React's key for the row: stable while rows above it are removed. */
  key: number;
  id: string;
  target: string;
  check: CheckKind;
  /** The PromQL query of a promql item, the URL of an http one. */
  read: string;
  op: Comparator;
  value: string;
  group: string;
};

let nextKey = 1;

export function newItemDraft(index: number): ItemDraft {
  nextKey += 1;
  return { key: nextKey, id: `check-${String(index + 1)}`, target: '', check: 'promql', read: '', op: '<', value: '', group: '' };
}

/** An expected value: a number when it reads as one (an HTTP status always should), else the text. */
function valueOf(text: string): number | string {
  const t = text.trim();
  const n = Number(t);
  return t !== '' && Number.isFinite(n) ? n : t;
}

/** The items as the server takes them; every row is sent, so the server names the row it refuses. */
export function validationPlanOf(rows: readonly ItemDraft[]): ValidationItem[] {
  return rows.map((r) => ({
    id: r.id.trim(),
    target: r.target.trim(),
    check: r.check,
    ...(r.check === 'promql' ? { query: r.read.trim() } : { url: r.read.trim() }),
    expected: { op: r.op, value: valueOf(r.value) },
    ...(r.group.trim() === '' ? {} : { group: r.group.trim() }),
  }));
}

/** The row a server field names (validationPlan.3.url → 3), or null. */
export function rowOfField(field: string | null): number | null {
  const m = field === null ? null : /^validationPlan\.(\d+)(\.|$)/.exec(field);
  return m === null ? null : Number(m[1]);
}
