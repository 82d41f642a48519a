/** SQL of validation results: one row per item of the plan, written when the plan is checked. */
import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import type { Change } from './change-store.js';
import { validationResult, VALIDATION_DELAY_SECONDS, type ValidationItem, type ValidationResult, type ValidationRow } from './validation-plan.js';

export type StoredRow = ValidationRow & { checkedAt: string };
export type ValidationView = {
  plan: ValidationItem[] | null; result: ValidationResult | null; reason: string | null; checkedAt: string | null;
  /** When the plan is (or was) due to be checked: 30 s after the change finished; null before it finished or without a plan. */
  dueAt: string | null; rows: StoredRow[];
};

export async function listRows(db: Queryable, changeId: string): Promise<StoredRow[]> {
  const r = await db.query<Row & { item_id: string; state: ValidationRow['state']; observed: string | null; detail: string; checked_at: Date }>(
    'SELECT item_id, state, observed, detail, checked_at FROM change_validation_rows WHERE change_id = $1 ORDER BY item_id', [changeId]);
  return r.rows.map((x) => ({ itemId: x.item_id, state: x.state, observed: x.observed, detail: x.detail, checkedAt: new Date(x.checked_at).toISOString() }));
}

/** Replaces the rows of a check: each item ends with exactly one row. */
export async function saveRows(tx: Tx, changeId: string, rows: ValidationRow[], at: string): Promise<void> {
  await tx.query('DELETE FROM change_validation_rows WHERE change_id = $1', [changeId]);
  for (const r of rows) {
    await tx.query('INSERT INTO change_validation_rows (change_id, item_id, state, observed, detail, checked_at) VALUES ($1, $2, $3, $4, $5, $6)', [changeId, r.itemId, r.state, r.observed, r.detail, at]);
  }
}

/** What the change page, /status, the report and the callback say of the plan. */
export async function readValidation(db: Queryable, c: Pick<Change, 'id' | 'validationPlan' | 'validationResult' | 'validationCheckedAt' | 'finishedAt'>): Promise<ValidationView> {
  const plan = c.validationPlan && c.validationPlan.length ? c.validationPlan : null;
  const rows = plan ? await listRows(db, c.id) : [];
  const judged = plan && c.validationCheckedAt ? validationResult(plan, rows) : null;
  return {
    plan, result: judged?.result ?? null, reason: judged?.reason ?? null, checkedAt: c.validationCheckedAt,
    dueAt: plan && c.finishedAt ? new Date(Date.parse(c.finishedAt) + VALIDATION_DELAY_SECONDS * 1000).toISOString() : null, rows,
  };
}
