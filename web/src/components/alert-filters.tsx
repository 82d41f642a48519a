import { useEffect, useState, type SubmitEvent } from 'react';
import { alertStates, type AlertListFilters, type AlertState } from '../api/types';
import './alert-filters.css';

type Props = {
  applied: AlertListFilters;
  onApply: (filters: AlertListFilters) => void;
};

const stateLabels: Record<AlertState, string> = { firing: 'Firing', resolved: 'Resolved' };

// Subject and change are typed, so they are drafts until Apply (or Enter); state and held apply at once.
export function AlertFilterBar({ applied, onApply }: Props) {
  const [draft, setDraft] = useState<AlertListFilters>(applied);
  useEffect(() => { setDraft(applied); }, [applied]);

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    onApply(draft);
  };
  const applyNow = (next: AlertListFilters): void => {
    setDraft(next);
    onApply(next);
  };
  const hasFilters = Object.values(applied).some((v) => v !== undefined && v !== '' && v !== false);

  return (
    <form className="filter-bar alert-filters" onSubmit={submit} role="search" data-testid="alert-filters">
      <div className="field field-inline field-wide">
        <label htmlFor="alert-filter-subject">Subject</label>
        <input
          id="alert-filter-subject"
          type="search"
          placeholder="a service or host, by name or key"
          value={draft.subject ?? ''}
          onChange={(e) => { setDraft({ ...draft, subject: e.target.value }); }}
          spellCheck={false}
          autoComplete="off"
          data-testid="alert-filter-subject"
        />
      </div>
      <div className="field field-inline">
        <label htmlFor="alert-filter-state">State</label>
        <select
          id="alert-filter-state"
          value={draft.state ?? ''}
          onChange={(e) => {
            const value = e.target.value;
            const { state: _drop, ...rest } = draft;
            applyNow(value === '' ? rest : { ...rest, state: value as AlertState });
          }}
          data-testid="alert-filter-state"
        >
          <option value="">Any state</option>
          {alertStates.map((s) => (
            <option key={s} value={s}>
              {stateLabels[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-inline">
        <label htmlFor="alert-filter-change">Change</label>
        <input
          id="alert-filter-change"
          type="text"
          className="mono-input"
          placeholder="CHG-…"
          value={draft.change ?? ''}
          onChange={(e) => { setDraft({ ...draft, change: e.target.value }); }}
          spellCheck={false}
          autoComplete="off"
          data-testid="alert-filter-change"
        />
      </div>
      <div className="check alert-filter-held">
        <input
          id="alert-filter-held"
          type="checkbox"
          checked={draft.held === true}
          onChange={(e) => {
            const { held: _drop, ...rest } = draft;
            applyNow(e.target.checked ? { ...rest, held: true } : rest);
          }}
          data-testid="alert-filter-held"
        />
        <label htmlFor="alert-filter-held">Held only</label>
      </div>
      <div className="filter-actions">
        <button type="submit" className="btn btn-primary" data-testid="alert-filter-apply">
          Apply
        </button>
        {hasFilters && (
          <button type="button" className="btn" onClick={() => { applyNow({}); }} data-testid="alert-filter-clear">
            Clear
          </button>
        )}
      </div>
    </form>
  );
}
