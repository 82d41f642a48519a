import { useEffect, useState, type SubmitEvent } from 'react';
import type { AuditFilters } from '../api/client';
import './audit-filters.css';

type TextFilter = 'action' | 'actor' | 'targetType' | 'targetId' | 'correlationId' | 'q';

const textFields: readonly { key: TextFilter; label: string; placeholder: string; testId: string; wide?: boolean }[] = [
  { key: 'action', label: 'Action prefix', placeholder: 'token.', testId: 'filter-action' },
  { key: 'actor', label: 'Actor id', placeholder: 'user or token id', testId: 'filter-actor' },
  { key: 'targetType', label: 'Target type', placeholder: 'token', testId: 'filter-target-type' },
  { key: 'targetId', label: 'Target id', placeholder: 'id', testId: 'filter-target-id' },
  { key: 'correlationId', label: 'Correlation id', placeholder: 'id', testId: 'filter-correlation-id' },
  { key: 'q', label: 'Search', placeholder: 'free text', testId: 'filter-q', wide: true },
];

const sinceOptions: readonly { value: string; label: string }[] = [
  { value: '15m', label: 'Last 15 minutes' },
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '', label: 'All time' },
];

type Props = {
  applied: AuditFilters;
  onApply: (filters: AuditFilters) => void;
};

// Text inputs are drafts until submitted (Enter or Apply) so every keystroke does not
// hit the server or the history stack; the time window applies immediately.
export function AuditFilterBar({ applied, onApply }: Props) {
  const [draft, setDraft] = useState<AuditFilters>(applied);

  // Back/forward or a clicked "same actor" link changes the URL: show what is applied.
  useEffect(() => { setDraft(applied); }, [applied]);

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    onApply(draft);
  };

  const since = draft.since ?? '';
  // A shared link may carry an ISO time or another window; keep it selectable rather than dropping it.
  const customSince = since !== '' && !sinceOptions.some((o) => o.value === since);
  const hasFilters = Object.keys(applied).length > 0;

  return (
    <form className="filter-bar" onSubmit={submit} data-testid="audit-filters" role="search">
      {textFields.map((f) => (
        <div className={f.wide === true ? 'field field-inline field-wide' : 'field field-inline'} key={f.key}>
          <label htmlFor={f.testId}>{f.label}</label>
          <input
            id={f.testId}
            type={f.key === 'q' ? 'search' : 'text'}
            placeholder={f.placeholder}
            value={draft[f.key] ?? ''}
            onChange={(e) => { setDraft({ ...draft, [f.key]: e.target.value }); }}
            spellCheck={false}
            autoComplete="off"
            className={f.key === 'q' ? undefined : 'mono-input'}
            data-testid={f.testId}
          />
        </div>
      ))}
      <div className="field field-inline">
        <label htmlFor="filter-since">Since</label>
        <select
          id="filter-since"
          value={since}
          onChange={(e) => {
            const next = { ...draft, since: e.target.value };
            setDraft(next);
            onApply(next);
          }}
          data-testid="filter-since"
        >
          {customSince && <option value={since}>{since}</option>}
          {sinceOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-actions">
        <button type="submit" className="btn btn-primary" data-testid="filter-apply">
          Apply
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => { onApply({}); }}
          disabled={!hasFilters}
          data-testid="filter-reset"
        >
          Clear
        </button>
      </div>
      {applied.until !== undefined && applied.until !== '' && (
        <div className="filter-chip" data-testid="filter-until">
          until <span className="mono">{applied.until}</span>
          <button
            type="button"
            className="link-button"
            onClick={() => { onApply({ ...applied, until: '' }); }}
            aria-label="Remove the until filter"
          >
            ×
          </button>
        </div>
      )}
    </form>
  );
}
