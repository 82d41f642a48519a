import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { Session } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { Link, useRouter } from '../components/router';
import { errorMessage } from '../lib/errors';
import './signin-page.css';

// Link tokens are single-use: React's StrictMode runs effects twice in development,
// and a second POST would burn the token and report a bogus failure. Sharing the
// in-flight promise per token makes the exchange idempotent on our side.
const exchanges = new Map<string, Promise<Session>>();

function exchange(token: string): Promise<Session> {
  let pending = exchanges.get(token);
  if (pending === undefined) {
    pending = api.signInWithLink(token);
    exchanges.set(token, pending);
  }
  return pending;
}

function readToken(): string {
  const hash = window.location.hash.replace(/^#/, '');
  try {
    return decodeURIComponent(hash).trim();
  } catch {
    return hash.trim();
  }
}

export function SignInLinkPage({ onSession }: { onSession: (s: Session) => void }) {
  const { navigate } = useRouter();
  // Read once on first render: the hash is wiped right after so the secret does not
  // linger in the address bar, in history or in screenshots.
  const [token] = useState(readToken);
  const [error, setError] = useState<string | null>(
    token === '' ? 'This sign-in link is incomplete. Copy the whole link, including the part after #.' : null,
  );

  useEffect(() => {
    if (token === '') return;
    if (window.location.hash !== '') window.history.replaceState(null, '', '/signin/link');
    let cancelled = false;
    exchange(token).then(
      (session) => {
        if (cancelled) return;
        onSession(session);
        // The owner arrives here to set a password, hence the account page.
        navigate('/account', { replace: true });
      },
      (caught: unknown) => {
        if (!cancelled) setError(errorMessage(caught));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [token, onSession, navigate]);

  return (
    <div className="auth-page">
      <div className="auth-card" data-testid="signin-link">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true">◆</span> changeledger
        </div>
        <h1>Signing in with a link</h1>
        {error === null ? (
          <p className="muted" data-testid="signin-link-pending">Checking your sign-in link…</p>
        ) : (
          <>
            <ErrorBanner message={error} testId="signin-link-error" />
            <p className="muted small">
              Links work once and expire. Ask an owner for a new one, or <Link to="/signin">sign in with a password</Link>.
            </p>
          </>
        )}
      </div>
    </div>
  );
}
