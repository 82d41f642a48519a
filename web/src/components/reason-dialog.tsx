import { useEffect, useId, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import type { FlagRisk } from '../api/types';
import { errorField, errorMessage } from '../lib/errors';
import { highRiskReasonRule, reasonProblem } from '../lib/flag-format';
import { pluralize } from '../lib/format';
import { ErrorBanner } from './error-banner';

type Props = {
  title: string;
  summary?: ReactNode;
  risk: FlagRisk;
  // Approvals the UI expects this change to need: the button then says "Propose".
  approvals?: number;
  confirmLabel?: string;
  // Resolves when the change is done (the dialog is then closed by the parent); a
  // rejection keeps the dialog open and shows the server's message in it.
  onSubmit: (reason: string) => Promise<void>;
  onClose: () => void;
};

// Every flag write goes through this dialog so the record says why. A modal <dialog>
// keeps focus inside and closes on Escape; the parent mounts it only while open.
export function ReasonDialog({ title, summary, risk, approvals = 0, confirmLabel, onSubmit, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (!dialog.open) dialog.showModal();
    return () => { dialog.close(); };
  }, []);

  const problem = reasonProblem(risk, reason);
  const showProblem = problem !== null && reason.trim() !== '';

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (problem !== null || busy) return;
    setBusy(true);
    setError(null);
    setField(null);
    try {
      await onSubmit(reason.trim());
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
      setBusy(false);
    }
  };

  const label = confirmLabel ?? (approvals > 0 ? 'Propose change' : 'Save');

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
      data-testid="reason-dialog"
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <h2 id={`${id}-title`}>{title}</h2>
        {summary !== undefined && <div className="dialog-summary">{summary}</div>}
        {approvals > 0 && (
          <p className="banner banner-warn small" data-testid="reason-approval-hint">
            This environment needs {pluralize(approvals, 'approval')}: the change is proposed and applied once approved.
          </p>
        )}
        <ErrorBanner message={error} testId="reason-error" />
        <div className="field">
          <label htmlFor={`${id}-reason`}>Reason{risk === 'low' ? ' (optional)' : ''}</label>
          <textarea
            id={`${id}-reason`}
            rows={3}
            value={reason}
            maxLength={2000}
            autoFocus
            placeholder={risk === 'high' ? 'INC-4411: roll back the new processor' : 'Why, for whoever reads the history'}
            onChange={(e) => { setReason(e.target.value); }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) e.currentTarget.form?.requestSubmit();
            }}
            aria-invalid={showProblem || field === 'reason' ? true : undefined}
            aria-describedby={`${id}-rule`}
            data-testid="reason-text"
          />
          {risk === 'high' ? (
            <span id={`${id}-rule`} className="muted small" data-testid="reason-rule">
              {highRiskReasonRule}
            </span>
          ) : (
            <span id={`${id}-rule`} className="muted small">
              Recorded with the change.
            </span>
          )}
          {showProblem && (
            <span className="field-error small" role="status" data-testid="reason-problem">
              {problem}
            </span>
          )}
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose} disabled={busy} data-testid="reason-cancel">
            Cancel
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || problem !== null}
            data-testid="reason-save"
          >
            {busy ? 'Saving…' : label}
          </button>
        </div>
      </form>
    </dialog>
  );
}
