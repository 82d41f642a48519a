import type { MemberLinkSent } from '../api/types';
import { formatUtcMinute } from '../lib/format';
import { CopyButton } from './copy-button';

// The answer to an invitation or a new link. Mailed: say so. Shown: the link itself, this once —
// the server keeps only its hash, so it is loud, selectable and stays until dismissed.
export function MemberLink({ sent, onDismiss }: { sent: MemberLinkSent; onDismiss: () => void }) {
  const who = sent.member.email;
  if (sent.delivery === 'mail' || sent.signInUrl === undefined) {
    return (
      <div className="banner banner-ok" role="status" data-testid="member-link-mailed">
        <span className="banner-text">
          Sign-in link mailed to {who}. It works once, until {formatUtcMinute(sent.expiresAt)}.
        </span>
        <button type="button" className="btn btn-small" onClick={onDismiss}>
          OK
        </button>
      </div>
    );
  }
  return (
    <section className="secret-box" data-testid="member-link" aria-live="polite">
      <div className="secret-head">
        <strong>Sign-in link for {who}</strong>
        <span className="muted small">works once, until {formatUtcMinute(sent.expiresAt)}</span>
      </div>
      <p className="secret-warning" data-testid="member-link-warning">
        Shown once: it was not mailed, so copy it now and send it to {who} yourself. It will not be shown again — if it is lost, make
        a new link from the list.
      </p>
      <div className="secret-value-row">
        <code className="secret-value" data-testid="member-link-value">
          {sent.signInUrl}
        </code>
        <CopyButton value={sent.signInUrl} label="Copy link" testId="member-link-copy" />
      </div>
      <button type="button" className="btn btn-small" onClick={onDismiss} data-testid="member-link-dismiss">
        I have sent it
      </button>
    </section>
  );
}
