import { useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import { tokenScopes, type CreatedToken } from '../api/types';
import { errorField, errorMessage } from '../lib/errors';
import { ErrorBanner } from './error-banner';
import './token-create-form.css';

const expiryOptions: readonly { value: string; label: string }[] = [
  { value: '', label: 'Never' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '365 days' },
];

const scopeHelp: Record<string, string> = {
  'changes:read': 'read change records',
  'changes:write': 'record and update changes',
  'catalogue:read': 'read the service catalogue',
  'catalogue:write': 'import into the service catalogue',
  'flags:read': 'read feature flags',
  'flags:write': 'change feature flags',
  'audit:read': 'read and export the audit log',
  'alerts:write': 'send alerts (Alertmanager webhook, Prometheus)',
  'alerts:read': 'read alerts and a change\'s alert evidence',
  'logs:write': 'send OTLP logs (an OpenTelemetry SDK or collector posting to /v1/logs)',
};

export function TokenCreateForm({ onCreated }: { onCreated: (created: CreatedToken) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expiry, setExpiry] = useState('90');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  const toggle = (scope: string, on: boolean): void => {
    // Keep the canonical order so the request and the list read the same way.
    setScopes((current) => tokenScopes.filter((s) => (s === scope ? on : current.includes(s))));
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (name.trim() === '') {
      setError('Give the token a name that says where it is used, e.g. "ci-deploy".');
      setField('name');
      return;
    }
    if (scopes.length === 0) {
      setError('Select at least one scope.');
      setField('scopes');
      return;
    }
    setBusy(true);
    setError(null);
    setField(null);
    try {
      const body: { name: string; scopes: string[]; expiresInDays?: number } = { name: name.trim(), scopes };
      if (expiry !== '') body.expiresInDays = Number(expiry);
      const created = await api.createToken(body);
      setName('');
      setScopes([]);
      onCreated(created);
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card token-form" onSubmit={(e) => void submit(e)} data-testid="token-create-form" noValidate>
      <h2>Create a token</h2>
      <ErrorBanner message={error} testId="token-create-error" />
      <div className="form-row">
        <div className="field">
          <label htmlFor="token-name">Name</label>
          <input
            id="token-name"
            type="text"
            value={name}
            maxLength={100}
            placeholder="ci-deploy"
            onChange={(e) => { setName(e.target.value); }}
            aria-invalid={field === 'name' ? true : undefined}
            data-testid="token-name"
            autoComplete="off"
          />
        </div>
        <div className="field">
          <label htmlFor="token-expiry">Expires</label>
          <select
            id="token-expiry"
            value={expiry}
            onChange={(e) => { setExpiry(e.target.value); }}
            aria-invalid={field === 'expiresInDays' ? true : undefined}
            data-testid="token-expiry"
          >
            {expiryOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className={field === 'scopes' ? 'scopes invalid' : 'scopes'} aria-invalid={field === 'scopes' ? true : undefined}>
        <legend>Scopes</legend>
        {tokenScopes.map((scope) => (
          <div key={scope} className="check">
            <input
              id={`scope-${scope}`}
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) => { toggle(scope, e.target.checked); }}
              aria-describedby={`scope-${scope}-help`}
              data-testid={`token-scope-${scope}`}
            />
            <label htmlFor={`scope-${scope}`} className="mono">
              {scope}
            </label>
            <span id={`scope-${scope}-help`} className="muted small">
              {scopeHelp[scope]}
            </span>
          </div>
        ))}
      </fieldset>
      <button type="submit" className="btn btn-primary" disabled={busy} data-testid="token-create-submit">
        {busy ? 'Creating…' : 'Create token'}
      </button>
    </form>
  );
}
