import { useState, type SubmitEvent } from 'react';
import { rollbackApi } from '../api/rollback-client';
import type { RollbackResult } from '../api/rollback-types';
import { errorField, errorMessage } from '../lib/errors';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';

// A requested rollback reported by a person: done (rolled back) or failed, with notes. The
// pipeline that ran it usually reports it itself through the same route.
export function RollbackCompleteForm({ changeId, onDone }: { changeId: string; onDone: (text: string) => void }) {
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<RollbackResult>('rolled_back');
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setField(null);
    try {
      await rollbackApi.completeRollback(changeId, result, notes.trim());
      setOpen(false);
      onDone(result === 'rolled_back' ? 'The rollback is recorded as done.' : 'The rollback is recorded as failed.');
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <div className="request-actions rollback-actions">
        <button type="button" className="btn" onClick={() => { setOpen(true); }} data-testid="rollback-report">
          Report the rollback…
        </button>
        <span className="muted small">When it was run by hand, or the pipeline cannot say.</span>
      </div>
    );
  }
  return (
    <form className="action-form" onSubmit={(e) => void submit(e)} noValidate data-testid="rollback-complete-form">
      <ErrorBanner message={field === 'notes' ? null : error} testId="rollback-complete-error" />
      <fieldset className="field rollback-result">
        <legend>Result</legend>
        <span className="check">
          <input id="rollback-result-done" type="radio" name="rollback-result" checked={result === 'rolled_back'} onChange={() => { setResult('rolled_back'); }} data-testid="rollback-result-done" />
          <label htmlFor="rollback-result-done">Rolled back</label>
        </span>
        <span className="check">
          <input id="rollback-result-failed" type="radio" name="rollback-result" checked={result === 'failed'} onChange={() => { setResult('failed'); }} data-testid="rollback-result-failed" />
          <label htmlFor="rollback-result-failed">Failed</label>
        </span>
      </fieldset>
      <div className="field">
        <label htmlFor="rollback-notes">Notes (optional)</label>
        <textarea id="rollback-notes" rows={2} maxLength={5000} value={notes} onChange={(e) => { setNotes(e.target.value); }} aria-invalid={field === 'notes' ? true : undefined} data-testid="rollback-notes" />
        <FieldError field={field} name="notes" message={error} />
      </div>
      <div className="request-actions">
        <button type="submit" className={result === 'failed' ? 'btn btn-danger' : 'btn btn-primary'} disabled={busy} data-testid="rollback-complete">
          {busy ? 'Sending…' : result === 'failed' ? 'Record it failed' : 'Record it done'}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => { setOpen(false); }}>
          Back
        </button>
      </div>
    </form>
  );
}
