import { useEffect, useState, type SubmitEvent } from 'react';
import type { FlagAuditFilters } from '../api/client';
import type { Environment } from '../api/types';

const windows: readonly { value: string; label: string }[] = [
  { value: '15m', label: 'Last 15 minutes' },
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '', label: 'All time' },
  { value: 'custom', label: 'From / until (ISO)…' },
];

const presetValues = new Set(windows.map((w) => w.value).filter((v) => v !== 'custom'));

function windowOf(filters: FlagAuditFilters): string {
  const since = filters.since ?? '';
  if ((filters.until ?? '') !== '') return 'custom';
  return presetValues.has(since) ? since : 'custom';
}

type Props = {
  applied: FlagAuditFilters;
  environments: readonly Environment[];
  onApply: (filters: FlagAuditFilters) => void;
};

// Text filters are drafts until Enter or Apply; a preset window applies at once. A custom
// window takes ISO times (2025-06-01T14:00Z) for "around the incident" questions.
export function FlagAuditFilterBar({ applied, environments, onApply }: Props) {
  const [draft, setDraft] = useState<FlagAuditFilters>(applied);
  const [windowChoice, setWindowChoice] = useState(() => windowOf(applied));

  useEffect(() => {
    setDraft(applied);
    setWindowChoice(windowOf(applied));
  }, [applied]);

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    onApply(draft);
  };

  const hasFilters = Object.values(applied).some((v) => v !== undefined && v !== '');
  const envKnown = (draft.env ?? '') === '' || environments.some((e) => e.key === draft.env);

  return (
    <form className="filter-bar" onSubmit={submit} role="search" data-testid="flag-audit-filters">
      <div className="field field-inline field-wide">
        <label htmlFor="fa-namespace">Namespace or flag</label>
        <input
          id="fa-namespace"
          type="text"
          className="mono-input"
          placeholder="ops.payments.*"
          value={draft.namespace ?? ''}
          onChange={(e) => { setDraft({ ...draft, namespace: e.target.value }); }}
          spellCheck={false}
          autoComplete="off"
          data-testid="fa-namespace"
        />
      </div>
      <div className="field field-inline">
        <label htmlFor="fa-actor">Actor (e-mail or id)</label>
        <input
          id="fa-actor"
          type="text"
          className="mono-input"
          placeholder="alice@example.com, usr_…, token id"
          value={draft.actor ?? ''}
          onChange={(e) => { setDraft({ ...draft, actor: e.target.value }); }}
          spellCheck={false}
          autoComplete="off"
          data-testid="fa-actor"
        />
      </div>
      <div className="field field-inline">
        <label htmlFor="fa-env">Environment</label>
        <select
          id="fa-env"
          value={draft.env ?? ''}
          onChange={(e) => {
            const next = { ...draft, env: e.target.value };
            setDraft(next);
            onApply(next);
          }}
          data-testid="fa-env"
        >
          <option value="">All environments</option>
          {!envKnown && <option value={draft.env}>{draft.env}</option>}
          {environments.map((e) => (
            <option key={e.key} value={e.key}>
              {e.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-inline">
        <label htmlFor="fa-window">Window</label>
        <select
          id="fa-window"
          value={windowChoice}
          onChange={(e) => {
            const choice = e.target.value;
            setWindowChoice(choice);
            if (choice === 'custom') {
              // Keep an ISO since already typed; a preset duration makes no sense as "from".
              const since = presetValues.has(draft.since ?? '') ? '' : (draft.since ?? '');
              setDraft({ ...draft, since });
              return;
            }
            const next = { ...draft, since: choice, until: '' };
            setDraft(next);
            onApply(next);
          }}
          data-testid="fa-window"
        >
          {windows.map((w) => (
            <option key={w.value} value={w.value}>
              {w.label}
            </option>
          ))}
        </select>
      </div>
      {windowChoice === 'custom' && (
        <>
          <div className="field field-inline">
            <label htmlFor="fa-since">From (ISO)</label>
            <input
              id="fa-since"
              type="text"
              className="mono-input"
              placeholder="2025-06-01T14:00Z"
              value={draft.since ?? ''}
              onChange={(e) => { setDraft({ ...draft, since: e.target.value }); }}
              spellCheck={false}
              autoComplete="off"
              data-testid="fa-since"
            />
          </div>
          <div className="field field-inline">
            <label htmlFor="fa-until">Until (ISO)</label>
            <input
              id="fa-until"
              type="text"
              className="mono-input"
              placeholder="2025-06-01T16:00Z"
              value={draft.until ?? ''}
              onChange={(e) => { setDraft({ ...draft, until: e.target.value }); }}
              spellCheck={false}
              autoComplete="off"
              data-testid="fa-until"
            />
          </div>
        </>
      )}
      <div className="filter-actions">
        <button type="submit" className="btn btn-primary" data-testid="fa-apply">
          Apply
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => { onApply({}); }}
          disabled={!hasFilters}
          data-testid="fa-reset"
        >
          Clear
        </button>
      </div>
    </form>
  );
}
