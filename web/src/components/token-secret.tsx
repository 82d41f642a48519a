import type { CreatedToken } from '../api/types';
import { CopyButton } from './copy-button';
import './token-secret.css';

// The server stores only a hash of the secret: this box is the one and only time the
// user can see it, so it is loud, selectable and stays until explicitly dismissed.
export function TokenSecret({ created, onDismiss }: { created: CreatedToken; onDismiss: () => void }) {
  return (
    <section className="secret-box" data-testid="token-secret" aria-live="polite">
      <div className="secret-head">
        <strong>
          Token “{created.token.name}” created
        </strong>
        <span className="mono muted small">id {created.token.id}</span>
      </div>
      <p className="secret-warning" data-testid="token-secret-warning">
        Copy this secret now. It will not be shown again — if you lose it, revoke the token and create a new one.
      </p>
      <div className="secret-value-row">
        <code className="secret-value" data-testid="token-secret-value">
          {created.secret}
        </code>
        <CopyButton value={created.secret} label="Copy" testId="token-secret-copy" />
      </div>
      <button type="button" className="btn btn-small" onClick={onDismiss} data-testid="token-secret-dismiss">
        I have stored it
      </button>
    </section>
  );
}
