import { useState } from 'react';
import { ApiError } from '../api/client';
import { casesApi } from '../api/case-client';
import type { CaseAnswer, CaseDetail } from '../api/case-types';
import { caseStateText, isOpenCase, type KnownNames } from '../lib/cases';
import { errorField, errorMessage } from '../lib/errors';
import { sentence } from '../lib/format';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';
/** Whether the reader answers cases: the case says (canAnswer). */
type Answerer = 'yes' | 'no';
import './approval-panel.css';
import './case-answer-panel.css';

type Props = {
  c: CaseDetail;
  /** Who answered, by user id, from the audit log (the case record may hold no name). */
  known: KnownNames;
  answerer: Answerer;
  /** The server took the answer: the case as it is now, and what to tell the person. */
  onAnswered: (next: CaseDetail, text: string) => void;
  /** The server refused (its status; 0 when it was not reached): 403 not an approver, 409 the case moved on. */
  onFailed: (status: number) => void;
};

const doneWords: Record<CaseAnswer, string> = {
  'approve-rollback': 'Rollback approved. Run the drafted reverts below with your own access, then mark the rollback as run.',
  'rolled-back': 'The rollback is marked as run: the case is closed.',
  keep: 'Kept as legitimate: every write of the case is authorized now, with your note as the reason.',
  resolve: 'Acknowledged: the case is closed.',
};

/** What did not happen, before the server's reason why (a 403 or a 409). */
const notDone: Record<CaseAnswer, string> = {
  'approve-rollback': 'Not approved.',
  'rolled-back': 'Not marked as run.',
  keep: 'Not kept.',
  resolve: 'Not acknowledged.',
};

const KEEP_MIN = 10;

// An approver's answers to a case, in the approval panel's style. An unauthorized change: approve
// the drafted rollback (then mark it as run) or keep it as legitimate with a note. Denied attempts
// changed nothing: they are acknowledged. The server judges every answer: its 400 is shown under
// the note, its 403 and 409 in words above the answers.
export function CaseAnswerPanel({ c, known, answerer, onAnswered, onFailed }: Props) {
  const [notes, setNotes] = useState<Record<CaseAnswer, string>>({ 'approve-rollback': '', 'rolled-back': '', keep: '', resolve: '' });
  const [busy, setBusy] = useState<CaseAnswer | null>(null);
  const [error, setError] = useState<{ answer: CaseAnswer; message: string; field: string | null } | null>(null);
  const open = isOpenCase(c.status);
  const locked = answerer === 'no' || busy !== null;

  const answer = async (what: CaseAnswer): Promise<void> => {
    setBusy(what);
    setError(null);
    try {
      const next = await casesApi.answer(c.id, what, notes[what]);
      setNotes((n) => ({ ...n, [what]: '' }));
      onAnswered(next.case, doneWords[what]);
    } catch (caught) {
      const field = errorField(caught);
      const refused = caught instanceof ApiError && (caught.status === 403 || caught.status === 409);
      const message = refused ? `${notDone[what]} ${sentence(errorMessage(caught)).replace(/[^.!?]$/, '$&.')}` : errorMessage(caught);
      setError({ answer: what, message, field });
      onFailed(caught instanceof ApiError ? caught.status : 0);
    } finally {
      setBusy(null);
    }
  };

  const noteField = (what: CaseAnswer, label: string, hint: string, testId: string) => {
    const id = `case-note-${what}`;
    const mine = error !== null && error.answer === what && error.field !== null;
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <textarea
          id={id}
          rows={2}
          maxLength={2000}
          value={notes[what]}
          disabled={answerer === 'no'}
          onChange={(e) => { setNotes((n) => ({ ...n, [what]: e.target.value })); }}
          aria-invalid={mine ? true : undefined}
          aria-describedby={`${id}-hint`}
          data-testid={testId}
        />
        <span id={`${id}-hint`} className="muted small">{hint}</span>
        <FieldError field={mine ? error.field : null} name="note" message={mine ? error.message : null} />
      </div>
    );
  };

  const keep = (
    <div className="case-option case-option-keep" data-testid="case-option-keep">
      <h3>Keep it</h3>
      <p className="muted small">
        The change was legitimate. Every write of the case becomes authorized, with “kept as legitimate: your note” as the reason.
      </p>
      {noteField('keep', 'Why is it legitimate?', `Required, ${String(KEEP_MIN)} characters or more: an approver reads it later.`, 'case-keep-note')}
      <button type="button" className="btn" disabled={locked} onClick={() => void answer('keep')} data-testid="case-keep">
        {busy === 'keep' ? 'Keeping…' : 'Keep this change (legitimate)'}
      </button>
    </div>
  );

  return (
    <section className="card approval-panel case-answer" aria-labelledby="case-answer-title" data-testid="case-answer" data-status={c.status}>
      <div className="section-head">
        <h2 id="case-answer-title">{c.kind === 'denied_access' ? 'Acknowledge' : 'Answer'}</h2>
      </div>
      <p className="approval-state" data-testid="case-state">{caseStateText(c, known)}</p>
      {/* A rolled-back case's note may be the approval's: the history says whose it is. */}
      {c.note !== null && (c.status === 'kept' || c.status === 'resolved') && (
        <blockquote className="reason" data-testid="case-note">{c.note}</blockquote>
      )}
      {open && answerer === 'no' && (
        <p className="banner banner-warn case-not-approver" data-testid="case-not-approver">
          <span className="banner-text">Only approvers answer cases. Owners and admins make a member an approver in Members (Approver).</span>
        </p>
      )}
      <ErrorBanner message={error !== null && error.field === null ? error.message : null} testId="case-answer-error" />

      {open && c.kind === 'denied_access' && (
        <div className="case-options">
          <div className="case-option" data-testid="case-option-resolve">
            <p className="muted small">There is nothing to roll back or keep: the source refused every call.</p>
            {noteField('resolve', 'Note (optional)', 'Who tried and why, if you found out.', 'case-resolve-note')}
            <button type="button" className="btn btn-primary" disabled={locked} onClick={() => void answer('resolve')} data-testid="case-resolve">
              {busy === 'resolve' ? 'Acknowledging…' : 'Acknowledge'}
            </button>
          </div>
        </div>
      )}

      {c.status === 'open' && c.kind === 'unauthorized_change' && (
        <div className="case-options">
          <div className="case-option" data-testid="case-option-rollback">
            <h3>Roll it back</h3>
            <p className="muted small">
              Approving shows the revert drafted for each write. changeledger never runs it: you run it with your own access, then mark the
              rollback as run.
            </p>
            {noteField('approve-rollback', 'Note (optional)', 'Shown in the case’s history.', 'case-approve-note')}
            <button type="button" className="btn btn-primary" disabled={locked} onClick={() => void answer('approve-rollback')} data-testid="case-approve-rollback">
              {busy === 'approve-rollback' ? 'Approving…' : 'Approve rollback'}
            </button>
          </div>
          {keep}
        </div>
      )}

      {c.status === 'rollback_approved' && (
        <div className="case-options">
          <div className="case-option" data-testid="case-option-rolled-back">
            <h3>Ran the reverts?</h3>
            <p className="muted small">Mark the rollback as run once the drafted reverts are done. The change can then no longer be kept.</p>
            {noteField('rolled-back', 'Note (optional)', 'What you ran, where, anything that differed from the draft.', 'case-rolled-back-note')}
            <button type="button" className="btn btn-primary" disabled={locked} onClick={() => void answer('rolled-back')} data-testid="case-mark-rolled-back">
              {busy === 'rolled-back' ? 'Marking…' : 'Mark rollback as run'}
            </button>
          </div>
          {keep}
        </div>
      )}
    </section>
  );
}
