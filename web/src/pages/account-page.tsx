import { useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { useSession } from '../components/session';
import { errorField, errorMessage } from '../lib/errors';
import './account-page.css';

const minPasswordLength = 12;

export function AccountPage() {
  const { session } = useSession();
  const { user, organization, role } = session;

  return (
    <Layout title="Account">
      <section className="card medium" data-testid="account-info">
        <h2>Who you are</h2>
        <dl className="kv kv-wide">
          <dt>Name</dt>
          <dd>
            <NameForm current={user.displayName} />
          </dd>
          <dt>E-mail</dt>
          <dd data-testid="account-email">{user.email}</dd>
          <dt>User id</dt>
          <dd className="mono">{user.id}</dd>
          <dt>Organisation</dt>
          <dd data-testid="account-org">
            {organization.name} <span className="mono muted">({organization.slug})</span>
          </dd>
          <dt>Role</dt>
          <dd>
            <span className="role-pill" data-testid="account-role">
              {role}
            </span>
          </dd>
        </dl>
      </section>
      <PasswordForm />
    </Layout>
  );
}

function PasswordForm() {
  const { session, refreshSession } = useSession();
  const hasPassword = session.user.hasPassword !== false;
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  // Shown when the session says a password exists, or when the server insists on it
  // (an older server may not send hasPassword).
  const [askCurrent, setAskCurrent] = useState(hasPassword);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const fail = (message: string, name: string | null): void => {
    setError(message);
    setField(name);
  };

  // Checked locally first so the obvious mistakes do not cost a round trip.
  const validate = (): { message: string; field: string } | null => {
    if (askCurrent && current === '') return { message: 'Enter your current password.', field: 'currentPassword' };
    if (next.length < minPasswordLength) {
      return { message: `Use at least ${String(minPasswordLength)} characters.`, field: 'newPassword' };
    }
    if (next !== confirm) return { message: 'The two new passwords do not match.', field: 'confirmPassword' };
    return null;
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setDone(false);
    const problem = validate();
    if (problem !== null) {
      fail(problem.message, problem.field);
      return;
    }
    setBusy(true);
    setError(null);
    setField(null);
    try {
      await api.setPassword(askCurrent ? { currentPassword: current, newPassword: next } : { newPassword: next });
      setCurrent('');
      setNext('');
      setConfirm('');
      setDone(true);
      setAskCurrent(true);
      // hasPassword changed server-side; refresh so the form switches to "change" mode.
      await refreshSession().catch(() => undefined);
    } catch (caught) {
      const name = errorField(caught);
      if (name === 'currentPassword') setAskCurrent(true);
      fail(errorMessage(caught), name);
    } finally {
      setBusy(false);
    }
  };

  const invalid = (name: string): true | undefined => (field === name ? true : undefined);

  return (
    <form className="card narrow" onSubmit={(e) => void submit(e)} data-testid="password-form" noValidate>
      <h2>{hasPassword ? 'Change password' : 'Set a password'}</h2>
      {!hasPassword && (
        <p className="muted small">
          You signed in with a one-time link. Set a password to sign in with your email next time.
        </p>
      )}
      <ErrorBanner message={error} testId="password-error" />
      {done && (
        <div className="banner banner-ok" role="status" data-testid="password-success">
          Password saved.
        </div>
      )}
      {askCurrent && (
        <div className="field">
          <label htmlFor="password-current">Current password</label>
          <input
            id="password-current"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => { setCurrent(e.target.value); }}
            aria-invalid={invalid('currentPassword')}
            data-testid="password-current"
          />
        </div>
      )}
      <div className="field">
        <label htmlFor="password-new">New password</label>
        <input
          id="password-new"
          type="password"
          autoComplete="new-password"
          minLength={minPasswordLength}
          value={next}
          onChange={(e) => { setNext(e.target.value); }}
          aria-invalid={invalid('newPassword')}
          aria-describedby="password-new-help"
          data-testid="password-new"
        />
        <span id="password-new-help" className="muted small">
          At least {minPasswordLength} characters. A passphrase is fine.
        </span>
      </div>
      <div className="field">
        <label htmlFor="password-confirm">Repeat password</label>
        <input
          id="password-confirm"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => { setConfirm(e.target.value); }}
          aria-invalid={invalid('confirmPassword')}
          data-testid="password-confirm"
        />
      </div>
      <button type="submit" className="btn btn-primary" disabled={busy} data-testid="password-submit">
        {busy ? 'Saving…' : hasPassword ? 'Change password' : 'Set password'}
      </button>
    </form>
  );
}

// The name every page and e-mail shows for you; saved on its own, recorded in the audit log.
function NameForm({ current }: { current: string }) {
  const { refreshSession } = useSession();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!editing) {
    return (
      <span className="account-name-row">
        <span data-testid="account-name">{current !== '' ? current : '—'}</span>
        <button type="button" className="btn btn-small" onClick={() => { setName(current); setError(null); setEditing(true); }} data-testid="account-name-edit">
          Change
        </button>
      </span>
    );
  }

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (name.trim() === '') {
      setError('Enter a name.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.setDisplayName(name.trim());
      await refreshSession().catch(() => undefined);
      setEditing(false);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="account-name-row" onSubmit={(e) => void submit(e)} noValidate data-testid="account-name-form">
      <input
        type="text"
        aria-label="Name"
        value={name}
        maxLength={200}
        onChange={(e) => { setName(e.target.value); }}
        aria-invalid={error !== null ? true : undefined}
        data-testid="account-name-input"
        autoFocus
      />
      <button type="submit" className="btn btn-small btn-primary" disabled={busy} data-testid="account-name-save">
        {busy ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="btn btn-small" disabled={busy} onClick={() => { setEditing(false); }}>
        Cancel
      </button>
      {error !== null && <span className="field-error small" role="alert" data-testid="account-name-error">{error}</span>}
    </form>
  );
}
