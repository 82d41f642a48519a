import { useState, type SubmitEvent } from 'react';
import { rollbackApi } from '../api/rollback-client';
import type { Change } from '../api/types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { emptyBeforeState, beforeStateBody, type BeforeStateDraft } from '../lib/before-state-draft';
import { statusLabels } from '../lib/change-format';
import { BeforeStateFieldset } from './before-state-fields';
import { ErrorBanner } from './error-banner';

type Props = { change: Change; onAdded: (text: string) => void };

// A capture added before the start (a pipeline often knows what runs only just before it
// deploys). It joins what approvers approve: approvals given before it stop counting, said here.
export function BeforeStateForm({ change, onAdded }: Props) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<BeforeStateDraft>(emptyBeforeState);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const body = beforeStateBody(draft);
    if (body === null) {
      setError('Give the previous version, the previous commit or an artifact.');
      setField('beforeState');
      return;
    }
    setBusy(true);
    setError(null);
    setField(null);
    try {
      const answer = await rollbackApi.addBeforeState(change.id, body);
      setOpen(false);
      setDraft(emptyBeforeState);
      const reopened = answer.change.status !== change.status ? ` It waits for approval again — now ${statusLabels[answer.change.status]}.` : '';
      onAdded(`Before-state added (${String(answer.captures.length)} captures).${reopened}`);
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <div className="before-state-add">
        <button type="button" className="btn btn-small" onClick={() => { setOpen(true); }} data-testid="before-state-add">
          Add a before-state…
        </button>
      </div>
    );
  }
  const placed = ['previousVersion', 'previousCommit', 'beforeState.artifact', 'beforeState.artifactName', 'beforeState.completeness', 'artifact', 'artifactName'];
  const loose = error !== null && !placed.some((n) => fieldMatches(field, n)) ? error : null;
  return (
    <form className="action-form before-state-form" onSubmit={(e) => void submit(e)} noValidate data-testid="before-state-form">
      <ErrorBanner message={loose} testId="before-state-form-error" />
      <BeforeStateFieldset draft={draft} onChange={setDraft} field={field} error={error} idPrefix="add-before" />
      {(change.status === 'pending_approval' || change.status === 'approved') && (
        <p className="muted small" data-testid="before-state-voids">
          Approvers approve the before-state too: approvals given so far stop counting, and the change waits for approval again.
        </p>
      )}
      <div className="request-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="before-state-save">
          {busy ? 'Adding…' : 'Add the before-state'}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => { setOpen(false); setError(null); setField(null); }}>
          Back
        </button>
      </div>
    </form>
  );
}
