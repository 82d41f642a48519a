import { useState, type SubmitEvent } from 'react';
import { evidenceApi } from '../api/evidence-client';
import { evidenceSourceKinds, sourceAuthKinds, type EvidenceSource, type EvidenceSourceKind, type SourceAuthKind } from '../api/types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { authLabels, configFields, draftOf, emptySourceDraft, sourceInput, sourceKindLabels, sourceKindSentences, takesUrl, type SourceDraft } from '../lib/evidence-sources';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';

type Props = { stored: EvidenceSource | null; onSaved: () => void; onCancel: () => void };

// The form of one evidence source: its kind (fixed once saved), name, URL and credentials, and
// the kind's own settings. A stored secret is never shown: the field says it is set, and typing
// replaces it.
export function EvidenceSourceForm({ stored, onSaved, onCancel }: Props) {
  const [d, setD] = useState<SourceDraft>(() => (stored === null ? emptySourceDraft : draftOf(stored)));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  const set = (patch: Partial<SourceDraft>): void => { setD((x) => ({ ...x, ...patch })); };
  const setConfig = (key: string, value: string): void => { setD((x) => ({ ...x, config: { ...x.config, [key]: value } })); };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const body = sourceInput(d, stored);
      if (stored === null) await evidenceApi.createSource({ ...body, kind: d.kind });
      else await evidenceApi.updateSource(stored.id, body);
      onSaved();
    } catch (caught) {
      setError({ message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setSaving(false);
    }
  };

  const field = error?.field ?? null;
  const message = error?.message ?? null;
  // Where a field error shows under its input; any other goes in the banner.
  const placed = ['kind', 'name', ...(takesUrl(d.kind) ? ['url', 'auth'] : []), ...configFields[d.kind].map((f) => `config.${f.key}`)];
  const secretSet = stored !== null && stored.hasSecret && stored.authKind === d.authKind;
  const secretHint = secretSet ? 'set — type to replace' : '';

  return (
    <form className="item-form" onSubmit={(e) => void submit(e)} noValidate data-testid="evidence-source-form">
      <h3>{stored === null ? 'New evidence source' : `Edit ${stored.name}`}</h3>
      <div className="field">
        <label htmlFor="es-kind">Kind</label>
        <select id="es-kind" value={d.kind} disabled={stored !== null} onChange={(e) => { set({ kind: e.target.value as EvidenceSourceKind, config: {} }); }} data-testid="evidence-source-kind">
          {evidenceSourceKinds.map((k) => (
            <option key={k} value={k}>{sourceKindLabels[k]}</option>
          ))}
        </select>
        <span className="muted small">{sourceKindSentences[d.kind]}</span>
        <FieldError field={field} name="kind" message={message} />
      </div>
      <div className="field">
        <label htmlFor="es-name">Name</label>
        <input id="es-name" type="text" value={d.name} onChange={(e) => { set({ name: e.target.value }); }} aria-invalid={fieldMatches(field, 'name')} data-testid="evidence-source-name" />
        <FieldError field={field} name="name" message={message} />
      </div>
      {takesUrl(d.kind) && (
        <>
          <div className="field">
            <label htmlFor="es-url">URL</label>
            <input id="es-url" type="text" className="mono-input" placeholder={d.kind === 'prometheus' ? 'http://prometheus:9090' : d.kind === 'loki' ? 'http://loki:3100' : 'https://elasticsearch:9200'} value={d.url} onChange={(e) => { set({ url: e.target.value }); }} aria-invalid={fieldMatches(field, 'url')} data-testid="evidence-source-url" />
            <FieldError field={field} name="url" message={message} />
          </div>
          <div className="field">
            <label htmlFor="es-auth">Authentication</label>
            <select id="es-auth" value={d.authKind} onChange={(e) => { set({ authKind: e.target.value as SourceAuthKind }); }} data-testid="evidence-source-auth">
              {sourceAuthKinds.map((k) => (
                <option key={k} value={k}>{authLabels[k]}</option>
              ))}
            </select>
          </div>
          {d.authKind === 'bearer' && (
            <div className="field">
              <label htmlFor="es-token">Token</label>
              <input id="es-token" type="password" autoComplete="off" placeholder={secretHint} value={d.token} onChange={(e) => { set({ token: e.target.value }); }} aria-invalid={fieldMatches(field, 'auth')} data-testid="evidence-source-token" />
              {secretSet && <span className="muted small" data-testid="evidence-source-secret-set">A token is set; leave blank to keep it.</span>}
            </div>
          )}
          {d.authKind === 'basic' && (
            <div className="field-pair">
              <div className="field">
                <label htmlFor="es-user">User</label>
                <input id="es-user" type="text" autoComplete="off" placeholder={secretHint} value={d.username} onChange={(e) => { set({ username: e.target.value }); }} aria-invalid={fieldMatches(field, 'auth')} data-testid="evidence-source-username" />
              </div>
              <div className="field">
                <label htmlFor="es-password">Password</label>
                <input id="es-password" type="password" autoComplete="off" placeholder={secretHint} value={d.password} onChange={(e) => { set({ password: e.target.value }); }} aria-invalid={fieldMatches(field, 'auth')} data-testid="evidence-source-password" />
              </div>
              {secretSet && <span className="muted small" data-testid="evidence-source-secret-set">User and password are set; leave both blank to keep them, or enter both to replace them.</span>}
            </div>
          )}
          <FieldError field={field} name="auth" message={message} />
        </>
      )}
      {configFields[d.kind].map((f) => (
        <div className="field" key={f.key}>
          <label htmlFor={`es-config-${f.key}`}>{f.label}</label>
          <input id={`es-config-${f.key}`} type="text" className="mono-input" placeholder={f.placeholder} value={d.config[f.key] ?? ''} onChange={(e) => { setConfig(f.key, e.target.value); }} aria-invalid={fieldMatches(field, `config.${f.key}`)} data-testid={`evidence-source-config-${f.key}`} />
          <FieldError field={field} name={`config.${f.key}`} message={message} />
        </div>
      ))}
      {error !== null && !placed.some((n) => fieldMatches(field, n)) && (
        <ErrorBanner message={error.message} testId="evidence-source-form-error" />
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving} data-testid="evidence-source-save">
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="btn" onClick={onCancel} data-testid="evidence-source-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}
