import { useState, type SubmitEvent } from 'react';
import { reviewApi } from '../api/review-client';
import { MAX_FOLLOW_UPS, REVIEW_SUMMARY_MIN, type ReviewView } from '../api/review-types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { followUpOfField, newFollowUp, reviewBody, type FollowUpDraft, type ReviewDraft } from '../lib/review-draft';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';

type Props = { changeId: string; initial: ReviewDraft; version: number; onSaved: (view: ReviewView) => void; onCancel: () => void };

// The review form: what happened (at least 20 characters), the cause, what went well, and the
// follow-ups with who does them by when. The server's refusal is said under the field it names.
export function ReviewForm({ changeId, initial, version, onSaved, onCancel }: Props) {
  const [draft, setDraft] = useState<ReviewDraft>(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);
  const set = (patch: Partial<ReviewDraft>): void => { setDraft((d) => ({ ...d, ...patch })); };
  const setFollowUp = (i: number, patch: Partial<FollowUpDraft>): void => {
    set({ followUps: draft.followUps.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  };
  const invalid = (name: string): true | undefined => (fieldMatches(field, name) ? true : undefined);
  const errorRow = followUpOfField(field);

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setField(null);
    try {
      onSaved(await reviewApi.submit(changeId, reviewBody(draft)));
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
      setBusy(false);
    }
  };

  const placed = ['summary', 'cause', 'whatWentWell', 'followUps'];
  const loose = error !== null && !placed.some((n) => fieldMatches(field, n)) ? error : null;
  const length = draft.summary.trim().length;

  return (
    <form className="review-form" onSubmit={(e) => void submit(e)} noValidate data-testid="review-form">
      <h3>{version === 0 ? 'Write the review' : `Version ${String(version + 1)} of the review`}</h3>
      <ErrorBanner message={loose} testId="review-form-error" />
      <div className="field">
        <label htmlFor="review-summary">Summary</label>
        <textarea id="review-summary" rows={3} maxLength={5000} value={draft.summary} placeholder="What happened, for someone who was not there" onChange={(e) => { set({ summary: e.target.value }); }} aria-invalid={invalid('summary')} autoFocus data-testid="review-summary" />
        <span className={length > 0 && length < REVIEW_SUMMARY_MIN ? 'small review-count-short' : 'muted small'} data-testid="review-summary-count">
          {length} characters; at least {REVIEW_SUMMARY_MIN}.
        </span>
        <FieldError field={field} name="summary" message={error} />
      </div>
      <div className="gov-pair">
        <div className="field">
          <label htmlFor="review-cause">Cause</label>
          <textarea id="review-cause" rows={3} maxLength={5000} value={draft.cause} placeholder="Why it went as it did" onChange={(e) => { set({ cause: e.target.value }); }} aria-invalid={invalid('cause')} data-testid="review-cause" />
          <FieldError field={field} name="cause" message={error} />
        </div>
        <div className="field">
          <label htmlFor="review-well">What went well</label>
          <textarea id="review-well" rows={3} maxLength={5000} value={draft.whatWentWell} placeholder="What to keep doing" onChange={(e) => { set({ whatWentWell: e.target.value }); }} aria-invalid={invalid('whatWentWell')} data-testid="review-well" />
          <FieldError field={field} name="whatWentWell" message={error} />
        </div>
      </div>
      <fieldset className="field review-follow-ups">
        <legend>Follow-ups</legend>
        {draft.followUps.map((f, i) => {
          const n = String(i + 1);
          const at = (name: string): true | undefined => invalid(`followUps.${String(i)}.${name}`);
          return (
            <div key={f.key} className="review-follow-up" data-testid="review-follow-up" data-index={i}>
              <input type="text" aria-label={`Follow-up ${n}`} maxLength={500} value={f.text} placeholder="Add an alert on the processor’s error rate" onChange={(e) => { setFollowUp(i, { text: e.target.value }); }} aria-invalid={at('text')} data-testid="review-follow-up-text" />
              <input type="text" aria-label={`Owner of follow-up ${n}`} maxLength={200} value={f.owner} placeholder="who (e-mail or name)" onChange={(e) => { setFollowUp(i, { owner: e.target.value }); }} aria-invalid={at('owner')} data-testid="review-follow-up-owner" />
              <input type="date" aria-label={`Due date of follow-up ${n}`} value={f.due} onChange={(e) => { setFollowUp(i, { due: e.target.value }); }} aria-invalid={at('due')} data-testid="review-follow-up-due" />
              <button type="button" className="btn btn-small" aria-label={`Remove follow-up ${n}`} onClick={() => { set({ followUps: draft.followUps.filter((_, j) => j !== i) }); }}>
                Remove
              </button>
              {errorRow === i && error !== null && (
                <span className="field-error small review-follow-up-error" role="alert" data-testid="field-error" data-field={field ?? undefined}>
                  {error}
                </span>
              )}
            </div>
          );
        })}
        {field === 'followUps' && <FieldError field={field} name="followUps" message={error} />}
        <div>
          <button type="button" className="btn btn-small" disabled={draft.followUps.length >= MAX_FOLLOW_UPS} onClick={() => { set({ followUps: [...draft.followUps, newFollowUp()] }); }} data-testid="review-follow-up-add">
            Add a follow-up
          </button>
        </div>
      </fieldset>
      <div className="request-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="review-save">
          {busy ? 'Saving…' : version === 0 ? 'Save the review' : `Save version ${String(version + 1)}`}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
