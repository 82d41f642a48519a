import type { MemberLinkSent } from '../api/types';
import { formatUtcMinute } from '../lib/format';
import { SecretBox } from './secret-box';

// The answer to an invitation or a new link. Mailed: say so. Shown: the link itself, this once.
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
    <SecretBox
      testId="member-link"
      title={<>Sign-in link for {who}</>}
      aside={<>works once, until {formatUtcMinute(sent.expiresAt)}</>}
      warning={<>Shown once: it was not mailed, so copy it now and send it to {who} yourself. It will not be shown again — if it is lost, make a new link from the list.</>}
      value={sent.signInUrl}
      copyLabel="Copy link"
      dismissLabel="I have sent it"
      onDismiss={onDismiss}
    />
  );
}
