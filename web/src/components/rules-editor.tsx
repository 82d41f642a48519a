import type { ReactNode } from 'react';
import { ruleOps, type FlagType, type RuleOp } from '../api/types';
import { emptyRuleDraft, type RuleDraft } from '../lib/flag-values';
import { ValueInput } from './value-input';
import './rules-editor.css';

type Props = {
  idPrefix: string;
  type: FlagType;
  drafts: readonly RuleDraft[];
  invalidRow: number | null;
  onChange: (drafts: RuleDraft[]) => void;
  // Shown beside "Add rule", e.g. the card's save button.
  actions?: ReactNode;
};

const opLabels: Record<RuleOp, string> = {
  equals: 'equals',
  not_equals: 'not equals',
  in: 'in',
  not_in: 'not in',
  starts_with: 'starts with',
  ends_with: 'ends with',
  contains: 'contains',
};

// Targeting rules, first match wins: "if <attribute> <op> <values> serve <value>".
// Controlled: the card owns the drafts and saves them through the reason dialog.
export function RulesEditor({ idPrefix, type, drafts, invalidRow, onChange, actions }: Props) {
  const update = (id: number, patch: Partial<RuleDraft>): void => {
    onChange(drafts.map((d) => (d.id === id ? { ...d, ...patch } : d)));
  };

  return (
    <div className="rules" data-testid="rules-editor">
      {drafts.length === 0 ? (
        <p className="muted small rules-empty">No rules: every context gets the same answer.</p>
      ) : (
        <div className="rule-head" aria-hidden="true">
          <span>Attribute</span>
          <span>Operator</span>
          <span>Values (a, b)</span>
          <span>Serve</span>
          <span />
        </div>
      )}
      {drafts.map((draft, index) => {
        const n = index + 1;
        const base = `${idPrefix}-rule-${String(draft.id)}`;
        return (
          <div
            className={invalidRow === n ? 'rule-row invalid' : 'rule-row'}
            key={draft.id}
            data-testid="rule-row"
          >
            <label htmlFor={`${base}-attribute`} className="visually-hidden">
              Rule {n} attribute
            </label>
            <input
              id={`${base}-attribute`}
              type="text"
              className="mono-input"
              value={draft.attribute}
              placeholder="country"
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => { update(draft.id, { attribute: e.target.value }); }}
              data-testid="rule-attribute"
            />
            <label htmlFor={`${base}-op`} className="visually-hidden">
              Rule {n} operator
            </label>
            <select
              id={`${base}-op`}
              value={draft.op}
              onChange={(e) => { update(draft.id, { op: e.target.value as RuleOp }); }}
              data-testid="rule-op"
            >
              {ruleOps.map((op) => (
                <option key={op} value={op}>
                  {opLabels[op]}
                </option>
              ))}
            </select>
            <label htmlFor={`${base}-values`} className="visually-hidden">
              Rule {n} values
            </label>
            <input
              id={`${base}-values`}
              type="text"
              className="mono-input"
              value={draft.values}
              placeholder="DE, FR"
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => { update(draft.id, { values: e.target.value }); }}
              data-testid="rule-values"
            />
            <label htmlFor={`${base}-value`} className="visually-hidden">
              Rule {n} serves
            </label>
            <ValueInput
              id={`${base}-value`}
              type={type}
              text={draft.value}
              compact
              onText={(text) => { update(draft.id, { value: text }); }}
              testId="rule-value"
            />
            <button
              type="button"
              className="btn btn-small"
              onClick={() => { onChange(drafts.filter((d) => d.id !== draft.id)); }}
              aria-label={`Remove rule ${String(n)}`}
              data-testid="rule-remove"
            >
              Remove
            </button>
          </div>
        );
      })}
      <div className="rules-actions">
        <button
          type="button"
          className="btn btn-small"
          onClick={() => { onChange([...drafts, emptyRuleDraft(type)]); }}
          data-testid="rule-add"
        >
          Add rule
        </button>
        {actions}
      </div>
    </div>
  );
}
