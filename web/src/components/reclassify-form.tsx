import { useState, type SubmitEvent } from 'react';
import { governanceApi } from '../api/governance-client';
import { changeClasses, type ChangeClass } from '../api/governance-types';
import type { Change } from '../api/types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { classHints, classLabels } from '../lib/governance-format';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';

// An approver's reclassification of a change that has not started: the class and why. Its tier
// and approval policy follow and the approvals given so far are voided — said before sending.
export function ReclassifyForm({ change, onDone }: { change: Change; onDone: (text: string) => void }) {
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState<ChangeClass>(change.changeClass === 'normal' ? 'standard' : 'normal');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setField(null);
    try {
      const answer = await governanceApi.reclassify(change.id, target, note.trim());
      const c = answer.change;
      setOpen(false);
      setNote('');
      onDone(`Reclassified as ${classLabels[c.changeClass]}${c.riskTier === null ? '' : ` (risk ${c.riskTier})`}: approvals given before are void.`);
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <div className="reclassify">
        <button type="button" className="btn btn-small" onClick={() => { setOpen(true); }} data-testid="reclassify-open">
          Reclassify…
        </button>
      </div>
    );
  }

  const loose = error !== null && !fieldMatches(field, 'changeClass') && !fieldMatches(field, 'note') ? error : null;
  return (
    <form className="reclassify reclassify-form" onSubmit={(e) => void submit(e)} noValidate data-testid="reclassify-form">
      <h3>Reclassify</h3>
      <div className="reclassify-grid">
        <div className="field">
          <label htmlFor="reclassify-class">Class</label>
          <select id="reclassify-class" value={target} onChange={(e) => { setTarget(e.target.value as ChangeClass); setError(null); setField(null); }} aria-invalid={fieldMatches(field, 'changeClass') ? true : undefined} data-testid="reclassify-class">
            {changeClasses.map((c) => (
              <option key={c} value={c}>
                {classLabels[c]}
                {c === change.changeClass ? ' (now)' : ''}
              </option>
            ))}
          </select>
          <FieldError field={field} name="changeClass" message={error} />
        </div>
        <div className="field">
          <label htmlFor="reclassify-note">Why (at least 5 characters)</label>
          <input id="reclassify-note" type="text" maxLength={2000} value={note} placeholder="Touches the payment path: a normal change" onChange={(e) => { setNote(e.target.value); if (fieldMatches(field, 'note')) { setError(null); setField(null); } }} aria-invalid={fieldMatches(field, 'note') ? true : undefined} data-testid="reclassify-note" />
          <FieldError field={field} name="note" message={error} />
        </div>
      </div>
      <p className="muted small">{classHints[target]} The tier and approval policy follow; approvals given so far are voided and the change waits for approval again where it needs one.</p>
      <ErrorBanner message={loose} testId="reclassify-error" />
      <div className="request-actions">
        <button type="submit" className="btn btn-small btn-primary" disabled={busy} data-testid="reclassify-submit">
          {busy ? 'Reclassifying…' : 'Reclassify'}
        </button>
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => { setOpen(false); setError(null); setField(null); }}>
          Back
        </button>
      </div>
    </form>
  );
}
