import { useEffect, useState } from 'react';
import { reviewApi } from '../api/review-client';
import type { Review, ReviewView } from '../api/review-types';
import type { Change } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc, pluralize } from '../lib/format';
import { reviewDraftOf } from '../lib/review-draft';
import { ErrorBanner } from './error-banner';
import { ReviewForm } from './review-form';
import { Mark } from './rollback-badges';
import './review-card.css';

type Loaded = { status: 'loading' } | { status: 'ready'; view: ReviewView } | { status: 'error'; message: string };

type Props = { change: Change; canReview: boolean; refresh: number; onSaved: (text: string) => void };

/** The server's rule: a change has run once it is evaluating or reported, or has finished. */
export function hasRun(change: Change): boolean {
  return change.status === 'evaluating' || change.status === 'reported' || change.finishedAt !== null;
}

function ReviewText({ review }: { review: Review }) {
  return (
    <div className="review-text" data-testid="review">
      <dl className="kv kv-wide">
        <dt>Summary</dt>
        <dd className="review-prose" data-testid="review-summary-text">{review.summary}</dd>
        <dt>Cause</dt>
        <dd className="review-prose" data-testid="review-cause-text">{review.cause === '' ? <span className="muted">—</span> : review.cause}</dd>
        <dt>What went well</dt>
        <dd className="review-prose">{review.whatWentWell === '' ? <span className="muted">—</span> : review.whatWentWell}</dd>
        <dt>Follow-ups</dt>
        <dd>
          {review.followUps.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            <ul className="review-follow-up-list">
              {review.followUps.map((f, i) => (
                <li key={i} data-testid="review-follow-up-item">
                  {f.text} <span className="muted small">— {f.owner}, due <span className="mono">{f.due}</span></span>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <p className="muted small review-by" data-testid="review-by">
        Version {review.version}, by {review.author.name.trim() === '' ? review.author.email : review.author.name} at {formatUtc(review.createdAt)}
      </p>
    </div>
  );
}

// The post-implementation review of a change that ran: whether one is required and why, the
// latest version, and — for its owner, owners and admins, and the approvers — the form to write
// it or a new version of it.
export function ReviewCard({ change, canReview, refresh, onSaved }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);
  const [writing, setWriting] = useState(false);
  const ran = hasRun(change);

  useEffect(() => {
    if (!ran) return;
    const abort = new AbortController();
    reviewApi.review(change.id, abort.signal).then(
      (view) => { if (!abort.signal.aborted) setLoaded({ status: 'ready', view }); },
      (caught: unknown) => { if (!abort.signal.aborted && !isAbort(caught)) setLoaded({ status: 'error', message: errorMessage(caught) }); },
    );
    return () => { abort.abort(); };
  }, [change.id, ran, refresh, reloads]);

  if (!ran) return null;
  const view = loaded.status === 'ready' ? loaded.view : null;
  const missing = view !== null && view.required && view.review === null;

  return (
    <section className={missing ? 'card review-card review-card-due' : 'card review-card'} aria-labelledby="review-title" data-testid="review-card">
      <div className="section-head">
        <h2 id="review-title">Post-implementation review</h2>
        {view !== null && (view.review !== null ? (
          <Mark tone="ok" testId="review-state" state="written">{`written${view.versions > 1 ? ` · ${pluralize(view.versions, 'version')}` : ''}`}</Mark>
        ) : view.required ? (
          <Mark tone="warn" testId="review-state" state="due">due</Mark>
        ) : (
          <Mark tone="neutral" testId="review-state" state="optional">optional</Mark>
        ))}
      </div>
      <ErrorBanner message={loaded.status === 'error' ? loaded.message : null} testId="review-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {loaded.status === 'loading' && <p className="muted small">Loading…</p>}
      {view !== null && (
        <>
          <p className="small review-why" data-testid="review-reasons">
            {view.required ? `Required: ${view.reasons.join('; ')}.` : <span className="muted">Not required: it was no emergency, was not rolled back, and no verdict found an outage or significant impact.</span>}
          </p>
          {view.review !== null && !writing && <ReviewText review={view.review} />}
          {view.review === null && !writing && <p className="muted small" data-testid="review-none">No review written yet.</p>}
          {writing ? (
            <ReviewForm
              changeId={change.id}
              initial={reviewDraftOf(view.review)}
              version={view.versions}
              onCancel={() => { setWriting(false); }}
              onSaved={(next) => {
                setWriting(false);
                setLoaded({ status: 'ready', view: next });
                onSaved(`Review saved (version ${String(next.review?.version ?? next.versions)}).`);
              }}
            />
          ) : (
            canReview && (
              <div className="request-actions">
                <button type="button" className={missing ? 'btn btn-primary' : 'btn'} onClick={() => { setWriting(true); }} data-testid="review-write">
                  {view.review === null ? 'Write the review…' : 'Write a new version…'}
                </button>
              </div>
            )
          )}
          {view.required && view.review === null && !canReview && (
            <p className="muted small">Its owner, an owner or admin, or a designated approver writes it.</p>
          )}
        </>
      )}
    </section>
  );
}
