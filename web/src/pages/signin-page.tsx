import { useEffect, useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import type { Session } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { safeNextPath, useRouter, useSearchParams } from '../components/router';
import { errorField, errorMessage } from '../lib/errors';
import './signin-page.css';

export function SignInPage({ signedIn, onSession }: { signedIn: boolean; onSession: (s: Session) => void }) {
  const { navigate } = useRouter();
  const params = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  // Already signed in (e.g. a bookmarked /signin): go straight to the destination.
  useEffect(() => {
    if (signedIn) navigate(next, { replace: true });
  }, [signedIn, next, navigate]);

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setField(null);
    try {
      const session = await api.signIn(email.trim(), password);
      onSession(session);
      navigate(next, { replace: true });
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
      setBusy(false);
    }
  };

  return (
    <div className="auth-page">
      <form className="auth-card" onSubmit={(e) => void submit(e)} data-testid="signin-form" noValidate>
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true">◆</span> changeledger
        </div>
        <h1>Sign in</h1>
        <ErrorBanner message={error} testId="signin-error" />
        <div className="field">
          <label htmlFor="signin-email">E-mail</label>
          <input
            id="signin-email"
            type="email"
            autoComplete="username"
            required
            autoFocus
            value={email}
            onChange={(e) => { setEmail(e.target.value); }}
            aria-invalid={field === 'email' ? true : undefined}
            data-testid="signin-email"
          />
        </div>
        <div className="field">
          <label htmlFor="signin-password">Password</label>
          <input
            id="signin-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => { setPassword(e.target.value); }}
            aria-invalid={field === 'password' ? true : undefined}
            data-testid="signin-password"
          />
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy} data-testid="signin-submit">
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">
          No password yet? Ask an owner for a one-time sign-in link.
        </p>
      </form>
    </div>
  );
}
