import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { rollbackApi } from '../api/rollback-client';
import type { Rollback, RollbackReleased } from '../api/rollback-types';
import type { Change } from '../api/types';
import { errorMessage } from '../lib/errors';
import { pluralize } from '../lib/format';
import { rollbackKindLabels } from '../lib/rollback-format';
import { ErrorBanner } from './error-banner';

const kindWords: Record<Rollback['path']['kind'], string> = {
  revert_flag: 'changeledger writes the flags back at once; each write is recorded on the flag and here.',
  redeploy_previous: 'The pipeline is asked to redeploy the previous version (callback change.rollback_requested) and reports it done or failed.',
  manual: 'It is requested of people: whoever runs it reports it done or failed on this page.',
};

type Props = { change: Change; rollback: Rollback; onClose: () => void; onReleased: (text: string) => void };

/** What the release did, for the page's notice. */
export function releasedWords(answer: RollbackReleased): string {
  const r = answer.rollback;
  if (!answer.executed) return `Your release is recorded: the rollback waits for a second approver (${String(r.releases.length)} of ${String(r.releasesNeeded)}).`;
  if (r.state === 'rolled_back') {
    const changed = answer.reverted.filter((x) => x.result === 'changed').length;
    return `Rolled back: changeledger set ${pluralize(changed, 'flag')} back to what ${changed === 1 ? 'it was' : 'they were'}.`;
  }
  return r.path.kind === 'redeploy_previous'
    ? 'Rollback requested: the pipeline is asked to redeploy the previous version, and reports it done or failed.'
    : 'Rollback requested: run it by hand, then report it done or failed here.';
}

// The confirm before a rollback is released: what will happen (the plan), an optional note for
// the record, and the server's refusal in its own words (403 for anyone not a designated
// approver, 409 when it was requested already or the change never ran).
export function RollbackReleaseDialog({ change, rollback, onClose, onReleased }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (!dialog.open) dialog.showModal();
    return () => { dialog.close(); };
  }, []);

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      onReleased(releasedWords(await rollbackApi.releaseRollback(change.id, note.trim())));
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
      data-testid="rollback-dialog"
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <h2 id={`${id}-title`}>Release the rollback of {change.displayId}?</h2>
        <div className="dialog-summary small">
          <p className="strong">{rollbackKindLabels[rollback.path.kind]}</p>
          <ol className="rollback-steps">
            {rollback.path.steps.map((s, i) => <li key={i}>{s}</li>)}
          </ol>
          <p className="muted">
            {kindWords[rollback.path.kind]}
            {rollback.releasesNeeded > 1 && ' An L3 change: it runs once a second, distinct approver releases it too.'}
          </p>
        </div>
        <ErrorBanner message={error} testId="rollback-dialog-error" />
        <div className="field">
          <label htmlFor={`${id}-note`}>Note (optional)</label>
          <textarea id={`${id}-note`} rows={3} maxLength={2000} value={note} autoFocus placeholder="INC-4411: error rate doubled after the switch" onChange={(e) => { setNote(e.target.value); }} data-testid="rollback-note" />
          <span className="muted small">Recorded with the release.</span>
        </div>
        <div className="dialog-actions request-actions">
          <button type="button" className="btn" onClick={onClose} disabled={busy} data-testid="rollback-cancel">
            Cancel
          </button>
          <button type="submit" className="btn btn-danger" disabled={busy} data-testid="rollback-confirm">
            {busy ? 'Releasing…' : 'Release rollback'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
