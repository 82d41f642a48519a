import { useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import { tiers, type Change, type EntityRef, type Tier } from '../api/types';
import { errorField, errorMessage } from '../lib/errors';
import { KindBadge } from './catalogue-badges';
import { ErrorBanner } from './error-banner';
import './classify-form.css';

type Props = { change: Change; components: readonly EntityRef[]; onClassified: (text: string) => void };

// A tier for each service component that has none: saved to the catalogue, so later changes
// know it. Approval waits for it.
export function ClassifyForm({ change, components, onClassified }: Props) {
  const [chosen, setChosen] = useState<Record<string, Tier | ''>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const picked = components.flatMap((c) => {
    const tier = chosen[c.key];
    return tier === undefined || tier === '' ? [] : [{ key: c.key, tier }];
  });

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (picked.length === 0) {
      setError('Pick a tier for at least one component.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.classifyChange(change.id, picked);
      onClassified(`Classified: ${picked.map((p) => `${components.find((c) => c.key === p.key)?.name ?? p.key} is ${p.tier}`).join(', ')}.`);
    } catch (caught) {
      const field = errorField(caught);
      setError(field === null ? errorMessage(caught) : `${errorMessage(caught)} (${field})`);
      setBusy(false);
    }
  };

  return (
    <form className="classify" onSubmit={(e) => void submit(e)} noValidate data-testid="classify-form">
      <h3>Classify before approving</h3>
      <p className="muted small">These service components have no tier yet. The tier is saved to the catalogue.</p>
      <ErrorBanner message={error} testId="classify-error" />
      <ul className="classify-list">
        {components.map((c) => (
          <li key={c.key} className="classify-row" data-testid="classify-row" data-key={c.key}>
            <KindBadge kind={c.kind} />
            <label htmlFor={`tier-${c.key}`} className="strong">
              {c.name}
            </label>
            <span className="mono muted small">{c.key}</span>
            <select
              id={`tier-${c.key}`}
              value={chosen[c.key] ?? ''}
              onChange={(e) => { setChosen({ ...chosen, [c.key]: e.target.value as Tier | '' }); }}
              data-testid="classify-tier"
            >
              <option value="">Tier…</option>
              {tiers.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </li>
        ))}
      </ul>
      <button type="submit" className="btn btn-small btn-primary" disabled={busy} data-testid="classify-save">
        {busy ? 'Saving…' : 'Save tiers'}
      </button>
    </form>
  );
}
