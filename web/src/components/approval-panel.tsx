import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import type { ApprovalView, Change } from '../api/types';
import { formatUtc, pluralize } from '../lib/format';
import { errorField, errorMessage } from '../lib/errors';
import { ClassifyForm } from './classify-form';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';
import './approval-panel.css';

type Props = {
  change: Change;
  view: ApprovalView;
  // Opened from the approve link: the panel takes the focus once.
  focus: boolean;
  onDecided: (text: string) => void;
};

function approvalLine(change: Change, view: ApprovalView): string {
  const given = view.approvals.filter((a) => a.decision === 'approved').length;
  const required = view.required ?? change.quorum ?? 0;
  return `${String(given)} of ${pluralize(required, 'approval')}`;
}

function stateText(change: Change, view: ApprovalView): string {
  switch (change.status) {
    case 'pending_mapping':
      return 'Waiting for its components to be mapped; approval comes after.';
    case 'pending_approval':
      return view.expiresAt === null ? 'Waiting for approval.' : `Waiting for approval until ${formatUtc(view.expiresAt)}.`;
    case 'rejected':
      return `Rejected${change.rejectionReason === null ? '' : `: “${change.rejectionReason}”`}.`;
    case 'expired':
      return change.endReason !== null ? `Expired: ${change.endReason}.` : 'Expired.';
    case 'cancelled':
      return change.endReason !== null ? `Cancelled: ${change.endReason}.` : 'Cancelled.';
    default:
      return change.decidedAt === null ? 'Approved.' : `Approved at ${formatUtc(change.decidedAt)}.`;
  }
}

// Where approval stands and what the signed-in person may do about it: the quorum so far,
// the approvers (critical ones marked on a critical change, the requester never counts), Approve with an
// optional comment or Reject with a reason, the tier pickers while a component has none.
export function ApprovalPanel({ change, view, focus, onDecided }: Props) {
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const focused = useRef(false);
  const [comment, setComment] = useState('');
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<'approve' | 'reject' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  useEffect(() => {
    if (!focus || focused.current || heading.current === null) return;
    focused.current = true;
    (panel.current ?? heading.current).scrollIntoView({ block: 'start' });
    heading.current.focus({ preventScroll: true });
  }, [focus]);

  const decide = async (what: 'approve' | 'reject'): Promise<void> => {
    setBusy(what);
    setError(null);
    setField(null);
    try {
      if (what === 'approve') {
        const answer = await api.approveChange(change.id, comment.trim());
        onDecided(
          answer.status === 'approved' || answer.status === 'active'
            ? `Approved: the quorum is reached (${String(answer.approvals)} of ${String(answer.required ?? answer.approvals)})${answer.status === 'active' ? ' and the change started automatically' : ''}.`
            : `Your approval is recorded (${String(answer.approvals)} of ${String(answer.required ?? '?')}).`,
        );
      } else {
        await api.rejectChange(change.id, reason.trim());
        onDecided('Rejected: the requester is told why.');
      }
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
      setBusy(null);
    }
  };

  const reject = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (reason.trim() === '') {
      setError('Give the reason for the rejection: the requester reads it.');
      setField('reason');
      return;
    }
    void decide('reject');
  };

  const waiting = change.status === 'pending_approval';
  const decisions = new Map(view.approvals.map((a) => [a.userId, a]));

  return (
    <section
      ref={panel}
      className={focus ? 'card approval-panel approval-focused' : 'card approval-panel'}
      id="approval"
      aria-labelledby="approval-title"
      data-testid="approval-panel"
      data-focused={focus}
    >
      <div className="section-head">
        <h2 id="approval-title" ref={heading} tabIndex={-1}>
          Approval
        </h2>
        {view.gated && (
          <span className="approval-count strong" data-testid="approval-count">
            {approvalLine(change, view)}
          </span>
        )}
      </div>
      {!view.gated && change.status !== 'pending_mapping' ? (
        <p className="muted" data-testid="approval-not-required">
          Approval is not required for this change.
        </p>
      ) : (
        <p className="approval-state" data-testid="approval-state">
          {stateText(change, view)}
          {view.criticalRequired && <span className="muted"> A critical change: one approval must come from a critical approver.</span>}
        </p>
      )}
      {view.blockedReason !== null && (
        <div className="banner banner-warn" role="status" data-testid="approval-blocked" data-blocked-on={view.blockedOn ?? undefined}>
          <span className="banner-text">{view.blockedReason}</span>
        </div>
      )}

      {view.approvers.length > 0 && (view.gated || change.status === 'pending_mapping') && (
        <ul className="approver-list" data-testid="approvers">
          {view.approvers.map((a) => {
            const d = decisions.get(a.userId);
            return (
              <li key={a.userId} className="approver" data-testid="approver" data-user-id={a.userId} data-decision={d?.decision ?? 'none'}>
                <span className="approver-name">{a.name === '' ? a.userId : a.name}</span>
                {/* Only a critical change needs a critical approver: elsewhere the marking would read as the change's criticality. */}
                {a.critical && view.criticalRequired && (
                  <span className="pill approver-critical" title="Their approval counts as the critical approval this change needs" data-testid="approver-critical">
                    critical approver
                  </span>
                )}
                {a.requester && <span className="muted small">requester — does not decide</span>}
                {d !== undefined && (
                  <span className={d.decision === 'approved' ? 'decision decision-approved' : 'decision decision-rejected'}>
                    {d.decision} <span className="mono muted small">{formatUtc(d.at)}</span>
                  </span>
                )}
                {d?.comment != null && d.comment !== '' && <span className="approver-comment">“{d.comment}”</span>}
              </li>
            );
          })}
        </ul>
      )}
      {view.approvers.length === 0 && view.gated && (
        <p className="muted small" data-testid="approvers-none">
          No approver is designated: the change waits until it expires. Owners and admins designate them in Settings → Change approvals.
        </p>
      )}

      {view.canClassify && <ClassifyForm change={change} components={view.unknownTierComponents} onClassified={onDecided} />}

      {view.canApprove && (
        <div className="approval-decide" data-testid="approval-decide">
          <ErrorBanner message={field === 'reason' || field === 'comment' ? null : error} testId="approval-error" />
          {!rejecting ? (
            <>
              <div className="field">
                <label htmlFor="approval-comment">Comment (optional)</label>
                <textarea
                  id="approval-comment"
                  rows={2}
                  maxLength={2000}
                  value={comment}
                  onChange={(e) => { setComment(e.target.value); }}
                  data-testid="approval-comment"
                />
                <FieldError field={field} name="comment" message={error} />
              </div>
              <div className="request-actions">
                <button type="button" className="btn btn-primary" disabled={busy !== null || view.blockedOn === 'classification'} onClick={() => void decide('approve')} data-testid="approve">
                  {busy === 'approve' ? 'Approving…' : 'Approve'}
                </button>
                <button type="button" className="btn btn-danger-outline" disabled={busy !== null} onClick={() => { setRejecting(true); setError(null); }} data-testid="reject">
                  Reject…
                </button>
              </div>
            </>
          ) : (
            <form onSubmit={reject} noValidate className="request-reject">
              <div className="field">
                <label htmlFor="approval-reason">Why reject it?</label>
                <textarea
                  id="approval-reason"
                  rows={2}
                  maxLength={2000}
                  value={reason}
                  autoFocus
                  onChange={(e) => { setReason(e.target.value); }}
                  aria-invalid={field === 'reason' ? true : undefined}
                  data-testid="reject-reason"
                />
                <FieldError field={field} name="reason" message={error} />
              </div>
              <div className="request-actions">
                <button type="submit" className="btn btn-danger" disabled={busy !== null} data-testid="reject-confirm">
                  {busy === 'reject' ? 'Rejecting…' : 'Reject the change'}
                </button>
                <button type="button" className="btn" disabled={busy !== null} onClick={() => { setRejecting(false); setError(null); setField(null); }}>
                  Cancel
                </button>
              </div>
            </form>
          )}
        </div>
      )}
      {waiting && !view.canApprove && (
        <p className="muted small" data-testid="approval-why-not">
          {view.mine !== null
            ? `You ${view.mine.decision} this change at ${formatUtc(view.mine.at)}.`
            : view.isRequester
              ? 'You registered this change: other approvers decide on it.'
              : view.isApprover
                ? 'You cannot decide on this change.'
                : 'Only the designated approvers decide on changes.'}
        </p>
      )}
    </section>
  );
}
