import { useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import type { ChangeRequest, Environment, FlagWriteResult } from '../api/types';
import { errorMessage } from '../lib/errors';
import { describePatch } from '../lib/flag-format';
import { formatUtc, pluralize } from '../lib/format';
import { ErrorBanner } from './error-banner';
import './change-requests.css';

type Props = {
  requests: readonly ChangeRequest[];
  environments: readonly Environment[];
  currentUserId: string;
  onDecided: (request: ChangeRequest, result: FlagWriteResult | null) => void;
};

// Proposed changes waiting for approval. Approving your own proposal is refused by the
// server (403); the button stays so its message explains why rather than a silent gap.
export function ChangeRequestList({ requests, environments, currentUserId, onDecided }: Props) {
  return (
    <ul className="request-list" data-testid="change-requests">
      {requests.map((request) => (
        <ChangeRequestItem
          key={request.id}
          request={request}
          envName={environments.find((e) => e.key === request.env)?.name ?? request.env}
          mine={request.proposer.id !== null && request.proposer.id === currentUserId}
          onDecided={onDecided}
        />
      ))}
    </ul>
  );
}

type ItemProps = {
  request: ChangeRequest;
  envName: string;
  mine: boolean;
  onDecided: Props['onDecided'];
};

function ChangeRequestItem({ request, envName, mine, onDecided }: ItemProps) {
  const [busy, setBusy] = useState<'approve' | 'reject' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState(false);
  const [comment, setComment] = useState('');
  const commentId = `request-${request.id}-comment`;

  const approve = async (): Promise<void> => {
    setBusy('approve');
    setError(null);
    try {
      const answer = await api.approveChangeRequest(request.id);
      onDecided(answer.changeRequest, answer.result ?? null);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(null);
    }
  };

  const reject = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (comment.trim() === '') {
      setError('Say why you reject it: the proposer reads this.');
      return;
    }
    setBusy('reject');
    setError(null);
    try {
      const answer = await api.rejectChangeRequest(request.id, comment.trim());
      onDecided(answer.changeRequest, null);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(null);
    }
  };

  const approved = request.approvals.length;

  return (
    <li className="request" data-testid="change-request" data-request-id={request.id} data-env={request.env}>
      <div className="request-head">
        <span className="pill pill-env">{envName}</span>
        <strong className="request-patch" data-testid="request-patch">
          {describePatch(request.patch)}
        </strong>
        <span className="muted small" data-testid="request-approvals">
          {approved} of {pluralize(request.approvalsNeeded, 'approval')}
        </span>
      </div>
      <div className="request-meta small">
        proposed by <span className="strong">{request.proposer.name}</span>
        {mine && <span className="muted"> (you)</span>} · <span className="mono">{formatUtc(request.createdAt)}</span>
        {' '}
        · expires <span className="mono">{formatUtc(request.expiresAt)}</span>
      </div>
      {request.reason !== '' && <blockquote className="reason">{request.reason}</blockquote>}
      {approved > 0 && (
        <div className="small muted">
          approved by {request.approvals.map((a) => a.user.email).join(', ')}
        </div>
      )}
      <ErrorBanner message={error} testId="request-error" />
      {rejecting ? (
        <form className="request-reject" onSubmit={(e) => void reject(e)} noValidate>
          <div className="field">
            <label htmlFor={commentId}>Why reject it?</label>
            <textarea
              id={commentId}
              rows={2}
              value={comment}
              maxLength={2000}
              autoFocus
              onChange={(e) => { setComment(e.target.value); }}
              data-testid="request-reject-comment"
            />
          </div>
          <div className="request-actions">
            <button type="submit" className="btn btn-small btn-danger" disabled={busy !== null} data-testid="request-reject-confirm">
              {busy === 'reject' ? 'Rejecting…' : 'Reject change'}
            </button>
            <button
              type="button"
              className="btn btn-small"
              disabled={busy !== null}
              onClick={() => {
                setRejecting(false);
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="request-actions">
          <button
            type="button"
            className="btn btn-small btn-primary"
            disabled={busy !== null}
            onClick={() => void approve()}
            title={mine ? 'You proposed this change: someone else must approve it' : undefined}
            data-testid="request-approve"
          >
            {busy === 'approve' ? 'Approving…' : 'Approve'}
          </button>
          <button
            type="button"
            className="btn btn-small btn-danger-outline"
            disabled={busy !== null}
            onClick={() => {
              setRejecting(true);
              setError(null);
            }}
            data-testid="request-reject"
          >
            Reject…
          </button>
        </div>
      )}
    </li>
  );
}
