import { checkKinds, comparators, MAX_VALIDATION_ITEMS, type CheckKind, type Comparator } from '../api/rollback-types';
import { fieldMatches } from '../lib/errors';
import { checkLabels } from '../lib/rollback-format';
import { newItemDraft, rowOfField, type ItemDraft } from '../lib/validation-draft';
import './validation-plan-fields.css';

type Props = { rows: readonly ItemDraft[]; onChange: (rows: ItemDraft[]) => void; field: string | null; error: string | null };

// The register form's validation plan: up to 10 checks read after the change completes, each a
// PromQL query or an HTTP URL with the value it should meet. A refusal (validationPlan.3.url) is
// said under its row, the input it names marked.
export function ValidationPlanFields({ rows, onChange, field, error }: Props) {
  const errorRow = rowOfField(field);
  const set = (i: number, patch: Partial<ItemDraft>): void => { onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r))); };
  const invalid = (i: number, name: string): true | undefined => (fieldMatches(field, `validationPlan.${String(i)}.${name}`) ? true : undefined);

  return (
    <div className="validation-plan-fields" data-testid="validation-plan-fields">
      {rows.length === 0 ? (
        <p className="muted small">No checks: nothing is read after the change to say whether it did what it meant to.</p>
      ) : (
        <div className="vp-grid" role="group" aria-label="Validation items">
          <span className="vp-head">Id</span>
          <span className="vp-head">Target</span>
          <span className="vp-head">Check</span>
          <span className="vp-head">Query or URL</span>
          <span className="vp-head">Expected</span>
          <span className="vp-head">Group</span>
          <span className="vp-head" />
          {rows.map((r, i) => {
            const n = String(i + 1);
            const readName = r.check === 'promql' ? 'query' : 'url';
            return (
              <div key={r.key} className="vp-row" data-testid="validation-item" data-index={i} data-invalid={errorRow === i ? 'true' : undefined}>
                <input type="text" aria-label={`Id of check ${n}`} value={r.id} maxLength={64} onChange={(e) => { set(i, { id: e.target.value }); }} aria-invalid={invalid(i, 'id')} spellCheck={false} className="mono-input" data-testid="validation-id" />
                <input type="text" aria-label={`Target of check ${n}`} value={r.target} maxLength={200} placeholder="svc:checkout" onChange={(e) => { set(i, { target: e.target.value }); }} aria-invalid={invalid(i, 'target')} spellCheck={false} data-testid="validation-target" />
                <select aria-label={`Kind of check ${n}`} value={r.check} onChange={(e) => { set(i, { check: e.target.value as CheckKind }); }} aria-invalid={invalid(i, 'check')} data-testid="validation-check">
                  {checkKinds.map((k) => (
                    <option key={k} value={k}>
                      {checkLabels[k]}
                    </option>
                  ))}
                </select>
                <input
                  type="text"
                  aria-label={r.check === 'promql' ? `Query of check ${n}` : `URL of check ${n}`}
                  value={r.read}
                  maxLength={2000}
                  placeholder={r.check === 'promql' ? 'sum(rate(http_errors_total[5m]))' : 'https://checkout.acme.io/health'}
                  onChange={(e) => { set(i, { read: e.target.value }); }}
                  aria-invalid={invalid(i, readName)}
                  spellCheck={false}
                  className="mono-input"
                  data-testid="validation-read"
                />
                <span className="vp-expected">
                  <select aria-label={`Comparison of check ${n}`} value={r.op} onChange={(e) => { set(i, { op: e.target.value as Comparator }); }} aria-invalid={invalid(i, 'expected.op')} data-testid="validation-op">
                    {comparators.map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                  </select>
                  <input type="text" aria-label={`Expected value of check ${n}`} value={r.value} maxLength={200} placeholder={r.check === 'http' ? '200' : '0.01'} onChange={(e) => { set(i, { value: e.target.value }); }} aria-invalid={invalid(i, 'expected.value') ?? (field === `validationPlan.${String(i)}.expected` ? true : undefined)} data-testid="validation-value" />
                </span>
                <input type="text" aria-label={`Group of check ${n}`} value={r.group} maxLength={64} placeholder="optional" onChange={(e) => { set(i, { group: e.target.value }); }} aria-invalid={invalid(i, 'group')} data-testid="validation-group" />
                <button type="button" className="btn btn-small" aria-label={`Remove check ${n}`} onClick={() => { onChange(rows.filter((_, j) => j !== i)); }} data-testid="validation-remove">
                  Remove
                </button>
                {errorRow === i && error !== null && (
                  <span className="field-error small vp-error" role="alert" data-testid="field-error" data-field={field ?? undefined}>
                    {error}
                  </span>
                )}
              </div>
            );
          })}
        </div>
      )}
      {field === 'validationPlan' && error !== null && (
        <span className="field-error small" role="alert" data-testid="field-error" data-field="validationPlan">
          {error}
        </span>
      )}
      <div className="vp-actions">
        <button type="button" className="btn btn-small" disabled={rows.length >= MAX_VALIDATION_ITEMS} onClick={() => { onChange([...rows, newItemDraft(rows.length)]); }} data-testid="validation-add">
          Add a check
        </button>
        <span className="muted small">
          {rows.length} of {MAX_VALIDATION_ITEMS}. Read once, 30 s after the change completes: PromQL through the Prometheus evidence source, HTTP compares the status.
        </span>
      </div>
    </div>
  );
}
