import { useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import { alertmanagerAuthKinds, type Alertmanager, type AlertmanagerAuthInput, type AlertmanagerAuthKind, type AlertmanagerTest } from '../api/types';
import { errorField, errorMessage } from '../lib/errors';
import { AlertTestResult, type TestWords } from './alert-test-result';
import { useRowTests } from './use-row-tests';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';

type Props = { alertmanagers: Alertmanager[]; canEdit: boolean; onChanged: () => void };

type Draft = { name: string; url: string; authKind: AlertmanagerAuthKind; token: string; username: string; password: string };
const emptyDraft: Draft = { name: '', url: '', authKind: 'none', token: '', username: '', password: '' };
const authLabels: Record<AlertmanagerAuthKind, string> = { none: 'None', bearer: 'Bearer token', basic: 'Basic (user and password)' };

// A token or password left blank is left out: on an edit, the server keeps the stored one.
function authOf(d: Draft): AlertmanagerAuthInput {
  if (d.authKind === 'bearer') return d.token === '' ? { kind: 'bearer' } : { kind: 'bearer', token: d.token };
  if (d.authKind === 'basic') return d.password === '' ? { kind: 'basic', username: d.username } : { kind: 'basic', username: d.username, password: d.password };
  return { kind: 'none' };
}

/** The status answer as a sentence. */
export function testWords(t: AlertmanagerTest): TestWords {
  if (!t.ok) return { ok: false, message: t.problem ?? 'It did not answer as an Alertmanager does.' };
  const version = t.version === null ? '' : ` ${t.version}`;
  const cluster = t.cluster === null ? '' : `, cluster ${t.cluster}`;
  return { ok: true, message: `It answered: Alertmanager${version}${cluster}.` };
}

const askAlertmanager = async (id: string): Promise<TestWords> => testWords(await api.testAlertmanager(id));

// The Alertmanagers changeledger talks to: silence mode puts its silences there and reads back
// what they hold. Each has a Test that asks it for its status and says the answer in words.
export function AlertmanagersCard({ alertmanagers, canEdit, onChanged }: Props) {
  const [editing, setEditing] = useState<{ id: string | null; draft: Draft } | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  const { tests, test } = useRowTests(askAlertmanager);
  const [removing, setRemoving] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);

  const start = (am: Alertmanager | null): void => {
    setError(null);
    setEditing(am === null ? { id: null, draft: emptyDraft } : { id: am.id, draft: { ...emptyDraft, name: am.name, url: am.url, authKind: am.authKind } });
  };
  const set = (patch: Partial<Draft>): void => { setEditing((e) => (e === null ? e : { ...e, draft: { ...e.draft, ...patch } })); };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (editing === null) return;
    setSaving(true);
    setError(null);
    const d = editing.draft;
    const stored = alertmanagers.find((a) => a.id === editing.id);
    // Editing keeps the stored credentials unless the kind changed or a new secret was typed.
    const keepAuth = stored !== undefined && stored.authKind === d.authKind && d.token === '' && d.password === '' && d.username === '';
    const auth = d.authKind === 'none' && editing.id === null ? {} : { auth: authOf(d) };
    try {
      if (editing.id === null) await api.createAlertmanager({ name: d.name.trim(), url: d.url.trim(), ...auth });
      else await api.updateAlertmanager(editing.id, { name: d.name.trim(), url: d.url.trim(), ...(keepAuth ? {} : { auth: authOf(d) }) });
      setEditing(null);
      onChanged();
    } catch (caught) {
      setError({ message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setSaving(false);
    }
  };

  const remove = async (id: string): Promise<void> => {
    setListError(null);
    try {
      await api.removeAlertmanager(id);
      setRemoving(null);
      onChanged();
    } catch (caught) {
      setListError(errorMessage(caught));
    }
  };

  const fieldError = error?.field ?? null;
  const named = (name: string): boolean => fieldError !== null && (fieldError === name || fieldError.startsWith(`${name}.`));
  const d = editing?.draft;

  return (
    <section className="card settings-card" data-testid="alertmanagers-card" aria-labelledby="alertmanagers-title">
      <div className="section-head">
        <h2 id="alertmanagers-title">Alertmanagers</h2>
        {canEdit && editing === null && (
          <button type="button" className="btn btn-small" onClick={() => { start(null); }} data-testid="alertmanager-add">
            Add an Alertmanager
          </button>
        )}
      </div>
      <ErrorBanner message={listError} testId="alertmanagers-error" />
      {alertmanagers.length === 0 && editing === null && (
        <p className="muted small" data-testid="alertmanagers-empty">
          None yet. Silence mode needs at least one: its API v2 URL (for example <code>http://alertmanager:9093</code>).
        </p>
      )}
      <ul className="item-list">
        {alertmanagers.map((am) => {
          const result = tests[am.id];
          return (
            <li key={am.id} className="item-row" data-testid="alertmanager-row" data-id={am.id}>
              <div className="item-main">
                <strong data-testid="alertmanager-name">{am.name}</strong> <code className="mono small">{am.url}</code>
                <div className="muted small">
                  Auth: {authLabels[am.authKind]}
                  {am.authHint !== null && <span className="mono"> {am.authHint}</span>}
                </div>
                {result === 'testing' && <p className="muted small">Asking it…</p>}
                {result !== undefined && result !== 'testing' && <AlertTestResult result={result} testId="alertmanager-test-result" />}
              </div>
              <div className="item-actions">
                {canEdit && (
                  <>
                    <button type="button" className="btn btn-small" onClick={() => void test(am.id)} disabled={result === 'testing'} data-testid="alertmanager-test">
                      Test
                    </button>
                    <button type="button" className="btn btn-small" onClick={() => { start(am); }} data-testid="alertmanager-edit">
                      Edit
                    </button>
                    {removing === am.id ? (
                      <button type="button" className="btn btn-small btn-danger" onClick={() => void remove(am.id)} data-testid="alertmanager-remove-confirm">
                        Remove it
                      </button>
                    ) : (
                      <button type="button" className="btn btn-small btn-danger-outline" onClick={() => { setRemoving(am.id); }} data-testid="alertmanager-remove">
                        Remove
                      </button>
                    )}
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {editing !== null && d !== undefined && (
        <form className="item-form" onSubmit={(e) => void submit(e)} data-testid="alertmanager-form">
          <h3>{editing.id === null ? 'New Alertmanager' : 'Edit the Alertmanager'}</h3>
          <div className="field">
            <label htmlFor="am-name">Name</label>
            <input id="am-name" type="text" value={d.name} onChange={(e) => { set({ name: e.target.value }); }} aria-invalid={named('name')} data-testid="alertmanager-name-input" />
            <FieldError field={fieldError} name="name" message={error?.message ?? null} />
          </div>
          <div className="field">
            <label htmlFor="am-url">URL</label>
            <input id="am-url" type="text" className="mono-input" placeholder="http://alertmanager:9093" value={d.url} onChange={(e) => { set({ url: e.target.value }); }} aria-invalid={named('url')} data-testid="alertmanager-url-input" />
            <FieldError field={fieldError} name="url" message={error?.message ?? null} />
          </div>
          <div className="field">
            <label htmlFor="am-auth">Authentication</label>
            <select id="am-auth" value={d.authKind} onChange={(e) => { set({ authKind: e.target.value as AlertmanagerAuthKind }); }} data-testid="alertmanager-auth-input">
              {alertmanagerAuthKinds.map((k) => (
                <option key={k} value={k}>
                  {authLabels[k]}
                </option>
              ))}
            </select>
          </div>
          {d.authKind === 'bearer' && (
            <div className="field">
              <label htmlFor="am-token">Token</label>
              <input id="am-token" type="password" autoComplete="off" placeholder={editing.id === null ? '' : 'unchanged'} value={d.token} onChange={(e) => { set({ token: e.target.value }); }} aria-invalid={named('auth')} data-testid="alertmanager-token-input" />
            </div>
          )}
          {d.authKind === 'basic' && (
            <div className="field-pair">
              <div className="field">
                <label htmlFor="am-user">User</label>
                <input id="am-user" type="text" autoComplete="off" value={d.username} onChange={(e) => { set({ username: e.target.value }); }} aria-invalid={named('auth')} data-testid="alertmanager-username-input" />
              </div>
              <div className="field">
                <label htmlFor="am-password">Password</label>
                <input id="am-password" type="password" autoComplete="off" placeholder={editing.id === null ? '' : 'unchanged'} value={d.password} onChange={(e) => { set({ password: e.target.value }); }} aria-invalid={named('auth')} data-testid="alertmanager-password-input" />
              </div>
            </div>
          )}
          <FieldError field={fieldError} name="auth" message={error?.message ?? null} />
          {error !== null && !['name', 'url', 'auth'].some(named) && <ErrorBanner message={error.message} testId="alertmanager-form-error" />}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={saving} data-testid="alertmanager-save">
              {saving ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="btn" onClick={() => { setEditing(null); }} data-testid="alertmanager-cancel">
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
