import type { ChangeSettings } from '../api/types';
import { fieldMatches } from '../lib/errors';
import { beforeStateRuleLabels, beforeStateRules } from '../lib/rollback-format';
import { FieldError } from './field-error';

export type RollbackDraft = { requireBeforeState: ChangeSettings['requireBeforeState']; demoteOnRollback: boolean; rollbackSweepWindowHours: string };

export function rollbackDraftOf(s: ChangeSettings): RollbackDraft {
  return { requireBeforeState: s.requireBeforeState, demoteOnRollback: s.demoteOnRollback, rollbackSweepWindowHours: String(s.rollbackSweepWindowHours) };
}

type Props = { draft: RollbackDraft; onChange: (patch: Partial<RollbackDraft>) => void; field: string | null; error: string | null; sweepLimits: { min?: number; max: number } | undefined };

// The settings of the way back: which changes wait for a before-state, whether a rollback
// demotes the template that made the change standard, how far back the rollback sweep looks.
export function RollbackSettingsFields({ draft, onChange, field, error, sweepLimits }: Props) {
  const invalid = (name: string): true | undefined => (fieldMatches(field, name) ? true : undefined);
  return (
    <div className="rollback-settings" role="group" aria-labelledby="settings-rollback-title" data-testid="settings-rollback">
      <h3 id="settings-rollback-title">Before-state and rollback</h3>
      <div className="settings-grid">
        <div className="field field-span-2">
          <label htmlFor="settings-require-before-state">Before-state required for</label>
          <select
            id="settings-require-before-state"
            value={draft.requireBeforeState}
            onChange={(e) => { onChange({ requireBeforeState: e.target.value as RollbackDraft['requireBeforeState'] }); }}
            aria-invalid={invalid('requireBeforeState')}
            data-testid="settings-require-before-state"
          >
            {beforeStateRules.map((r) => (
              <option key={r} value={r}>
                {beforeStateRuleLabels[r].label}
              </option>
            ))}
          </select>
          <span className="muted small" data-testid="settings-require-before-state-hint">
            {beforeStateRuleLabels[draft.requireBeforeState].hint}
          </span>
          <FieldError field={field} name="requireBeforeState" message={error} />
        </div>
        <div className="field">
          <label htmlFor="settings-rollbackSweepWindowHours">Rollback sweep window (hours)</label>
          <input
            id="settings-rollbackSweepWindowHours"
            type="number"
            value={draft.rollbackSweepWindowHours}
            min={sweepLimits?.min ?? 1}
            max={sweepLimits?.max ?? 168}
            onChange={(e) => { onChange({ rollbackSweepWindowHours: e.target.value }); }}
            aria-invalid={invalid('rollbackSweepWindowHours')}
            data-testid="settings-rollbackSweepWindowHours"
          />
          <span className="muted small">How far back the automatic sweep looks for failed changes: 1 – 168.</span>
          <FieldError field={field} name="rollbackSweepWindowHours" message={error} />
        </div>
        <div className="field">
          <span className="check check-field">
            <input id="settings-demote-on-rollback" type="checkbox" checked={draft.demoteOnRollback} onChange={(e) => { onChange({ demoteOnRollback: e.target.checked }); }} data-testid="settings-demote-on-rollback" />
            <label htmlFor="settings-demote-on-rollback">Demote a template on rollback</label>
          </span>
          <span className="muted small">The first rollback of a change a template made standard makes the template a draft again.</span>
          <FieldError field={field} name="demoteOnRollback" message={error} />
        </div>
      </div>
    </div>
  );
}
