import { useState, type SubmitEvent } from 'react';
import { ApiError, api, type ChangeAction } from '../api/client';
import { outcomes, type Change, type ChangeStatus, type Outcome } from '../api/types';
import { outcomeLabels, statusLabels } from '../lib/change-format';
import { errorField, errorMessage } from '../lib/errors';
import { sentence } from '../lib/format';
import { instantWords } from '../lib/governance-format';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';
import './change-actions.css';

type Open = 'complete' | 'abort' | 'cancel' | 'evaluate' | null;

// A start the windows refused (409 blockedOn: window): the server's words, and when it may start.
type WindowRefusal = { message: string; window: { name: string; kind: string } | null; nextOpening: string | null };

function windowRefusalOf(caught: unknown): WindowRefusal | null {
  if (!(caught instanceof ApiError) || caught.status !== 409 || caught.details['blockedOn'] !== 'window') return null;
  const w = caught.details['window'] as { name?: unknown; kind?: unknown } | null | undefined;
  const next = caught.details['nextOpening'];
  return {
    message: caught.message,
    window: w !== null && w !== undefined && typeof w.name === 'string' ? { name: w.name, kind: typeof w.kind === 'string' ? w.kind : 'change' } : null,
    nextOpening: typeof next === 'string' ? next : null,
  };
}

const cancellable: readonly ChangeStatus[] = ['draft', 'scheduled', 'pending_mapping', 'pending_approval', 'approved'];

type Props = { change: Change; canWrite: boolean; onDone: (text: string) => void };

// What can be done with the change now, by its status: start it, complete it with its
// outcome, abort it, cancel it, evaluate it again. Each says what follows before it is sent.
export function ChangeActions({ change, canWrite, onDone }: Props) {
  const [open, setOpen] = useState<Open>(null);
  const [outcome, setOutcome] = useState<Outcome>('success');
  const [text, setText] = useState('');
  const [minutes, setMinutes] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [closed, setClosed] = useState<WindowRefusal | null>(null);

  const s = change.status;
  const canStart = s === 'scheduled' || s === 'approved';
  const canCancel = cancellable.includes(s);
  // The window ran out before the pipeline said how it went: its outcome is still taken, once.
  const running = s === 'active' || (s === 'evaluating' && change.outcomeBy === 'window');
  const reported = s === 'reported';

  // Only the requester, an owner or an admin acts on a change: nobody else is offered buttons.
  if (!canWrite) return null;
  if (!canStart && !canCancel && !running && !reported) return null;

  const run = async (action: ChangeAction, done: string): Promise<void> => {
    setBusy(true);
    setError(null);
    setField(null);
    setClosed(null);
    try {
      const answer = await api.changeAction(change.id, action);
      setOpen(null);
      setText('');
      setMinutes('');
      onDone(`${done} — now ${statusLabels[answer.change.status]}.`);
    } catch (caught) {
      const refusal = windowRefusalOf(caught);
      setClosed(refusal);
      setError(refusal === null ? errorMessage(caught) : null);
      setField(errorField(caught));
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const notes = text.trim();
    if (open === 'complete') void run({ kind: 'complete', outcome, ...(notes === '' ? {} : { notes }) }, `Completed (${outcomeLabels[outcome]})`);
    else if (open === 'abort') void run({ kind: 'abort', ...(notes === '' ? {} : { notes }) }, 'Aborted');
    else if (open === 'cancel') void run({ kind: 'cancel', ...(notes === '' ? {} : { reason: notes }) }, 'Cancelled');
    else if (open === 'evaluate') {
      const n = minutes.trim() === '' ? undefined : Number(minutes);
      void run({ kind: 'evaluate', ...(n === undefined ? {} : { evidenceMinutes: n }) }, 'A new evaluation is under way');
    }
  };

  const toggle = (which: Open): void => {
    setOpen(open === which ? null : which);
    setError(null);
    setField(null);
  };

  return (
    <section className="card change-actions" data-testid="change-actions">
      <h2>Actions</h2>
      <ErrorBanner message={field === null ? error : null} testId="change-action-error" />
      {closed !== null && (
        <div className="banner banner-error window-refusal" role="alert" data-testid="change-window-refusal">
          <div className="banner-text">
            <div data-testid="change-window-refusal-message">{sentence(closed.message)}</div>
            <div className="window-refusal-next" data-testid="change-next-opening">
              {closed.nextOpening !== null
                ? `It may start from ${instantWords(closed.nextOpening, new Date())}.`
                : 'No opening is known within the next year: ask an owner or admin about the windows, or declare an emergency.'}
            </div>
          </div>
        </div>
      )}
      <div className="request-actions">
        {canStart && (
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void run({ kind: 'start' }, 'Started')} data-testid="action-start">
            Start now
          </button>
        )}
        {running && (
          <>
            <button type="button" className="btn btn-primary" aria-expanded={open === 'complete'} disabled={busy} onClick={() => { toggle('complete'); }} data-testid="action-complete">
              {s === 'active' ? 'Complete…' : 'Record the outcome…'}
            </button>
            {s === 'active' && (
              <button type="button" className="btn btn-danger-outline" aria-expanded={open === 'abort'} disabled={busy} onClick={() => { toggle('abort'); }} data-testid="action-abort">
                Abort…
              </button>
            )}
          </>
        )}
        {reported && (
          <button type="button" className="btn" aria-expanded={open === 'evaluate'} disabled={busy} onClick={() => { toggle('evaluate'); }} data-testid="action-evaluate">
            Evaluate again…
          </button>
        )}
        {canCancel && (
          <button type="button" className="btn btn-danger-outline" aria-expanded={open === 'cancel'} disabled={busy} onClick={() => { toggle('cancel'); }} data-testid="action-cancel">
            Cancel the change…
          </button>
        )}
      </div>
      {s === 'pending_approval' && <p className="muted small">It can start once it is approved.</p>}
      {open !== null && (
        <form className="action-form" onSubmit={submit} noValidate data-testid={`action-form-${open}`}>
          {open === 'complete' && (
            <div className="field field-short">
              <label htmlFor="action-outcome">Outcome</label>
              <select id="action-outcome" value={outcome} onChange={(e) => { setOutcome(e.target.value as Outcome); }} data-testid="action-outcome">
                {outcomes.map((o) => (
                  <option key={o} value={o}>
                    {outcomeLabels[o]}
                  </option>
                ))}
              </select>
              <FieldError field={field} name="outcome" message={error} />
            </div>
          )}
          {open === 'evaluate' ? (
            <div className="field field-short">
              <label htmlFor="action-minutes">Evidence horizon (minutes)</label>
              <input id="action-minutes" type="number" min={15} max={1440} value={minutes} placeholder={String(change.evidenceMinutes)} onChange={(e) => { setMinutes(e.target.value); }} data-testid="action-minutes" />
              <FieldError field={field} name="evidenceMinutes" message={error} />
            </div>
          ) : (
            <div className="field">
              <label htmlFor="action-text">{open === 'cancel' ? 'Reason (optional)' : 'Notes (optional)'}</label>
              <textarea id="action-text" rows={2} maxLength={open === 'cancel' ? 2000 : 5000} value={text} onChange={(e) => { setText(e.target.value); }} data-testid="action-text" />
              <FieldError field={field} name={open === 'cancel' ? 'reason' : 'notes'} message={error} />
            </div>
          )}
          <p className="muted small">
            {open === 'complete' && 'The change enters surveillance until its evidence horizon, then it is reported.'}
            {open === 'abort' && 'The change stops now (outcome rolled back) and enters surveillance.'}
            {open === 'cancel' && 'The change will not run; this cannot be undone.'}
            {open === 'evaluate' && 'A new report version over the same window, from its start to the finish plus this horizon (15 to 1440 minutes; blank keeps the current one). When that horizon has passed already, the evidence is collected now.'}
          </p>
          <div className="request-actions">
            <button type="submit" className={open === 'abort' || open === 'cancel' ? 'btn btn-danger' : 'btn btn-primary'} disabled={busy} data-testid="action-confirm">
              {busy ? 'Sending…' : { complete: 'Complete the change', abort: 'Abort the change', cancel: 'Cancel the change', evaluate: 'Evaluate again' }[open]}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={() => { toggle(null); }}>
              Back
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
