import { useState, type SubmitEvent } from 'react';
import { observedApi } from '../api/observed-client';
import { pullKinds, sourceKinds, type SourceKind, type SourceWithSecret } from '../api/observed-types';
import { errorField, errorMessage } from '../lib/errors';
import { sourceLabel } from '../lib/record-format';
import { FieldError } from './field-error';

type Field = { name: string; label: string; hint: string; list?: true; placeholder?: string };

// What each kind needs besides a name (stored in the connection's config; never a secret).
const kindFields: Record<SourceKind, Field[]> = {
  github: [
    { name: 'apiUrl', label: 'API URL', hint: 'Leave blank for github.com; GitHub Enterprise: https://ghe.example.com/api/v3', placeholder: 'https://api.github.com' },
    { name: 'repos', label: 'Repositories to pull', hint: 'owner/name, one per line (the scheduled pull reads their deployments and merged pull requests)', list: true },
  ],
  gitlab: [
    { name: 'apiUrl', label: 'API URL', hint: 'Leave blank for gitlab.com', placeholder: 'https://gitlab.com/api/v4' },
    { name: 'projects', label: 'Projects to pull', hint: 'group/project, one per line', list: true },
  ],
  aws: [
    { name: 'regions', label: 'Regions to pull', hint: 'One per line, e.g. eu-west-1', list: true },
    { name: 'endpoint', label: 'CloudTrail endpoint', hint: 'Leave blank for AWS’s own; a VPC endpoint or a compatible API', placeholder: 'https://cloudtrail.eu-west-1.amazonaws.com' },
  ],
  kubernetes: [{ name: 'cluster', label: 'Cluster name', hint: 'How this cluster is named on its changes (the audit events do not say)', placeholder: 'prod-eu-1' }],
  azure: [{ name: 'subscription', label: 'Subscription', hint: 'Optional: the subscription id these records come from', placeholder: '00000000-0000-0000-0000-000000000000' }],
  argocd: [],
  pagerduty: [],
  cloudevents: [],
  webhook: [],
};

const credentialHints: Partial<Record<SourceKind, string>> = {
  github: 'A token that may read the repositories (fine-grained: Deployments and Pull requests, read).',
  gitlab: 'A personal or project access token with read_api.',
  aws: 'An access key pair as JSON: {"accessKeyId": "…", "secretAccessKey": "…"} (cloudtrail:LookupEvents).',
};

type Draft = { kind: SourceKind; name: string; values: Record<string, string>; credential: string };

function configOf(d: Draft): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const f of kindFields[d.kind]) {
    const raw = (d.values[f.name] ?? '').trim();
    if (raw === '') continue;
    config[f.name] = f.list === true ? raw.split(/[\n,]/).map((x) => x.trim()).filter((x) => x !== '') : raw;
  }
  return config;
}

// A new connection: its kind picks the fields. The answer carries the secret, once.
export function ChangeSourceForm({ onCreated, onCancel }: { onCreated: (made: SourceWithSecret) => void; onCancel: () => void }) {
  const [d, setD] = useState<Draft>({ kind: 'webhook', name: '', values: {}, credential: '' });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  const pulls = pullKinds.includes(d.kind);

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const config = configOf(d);
      const made = await observedApi.createSource({
        kind: d.kind,
        name: d.name.trim(),
        ...(Object.keys(config).length > 0 ? { config } : {}),
        ...(pulls && d.credential.trim() !== '' ? { credential: d.credential.trim() } : {}),
      });
      onCreated(made);
    } catch (caught) {
      setError({ message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setSaving(false);
    }
  };

  const field = error?.field ?? null;
  const message = error?.message ?? null;
  const invalid = (name: string): boolean => field !== null && (field === name || field.startsWith(`${name}.`) || field === `config.${name}` || field.startsWith(`config.${name}.`));
  const known = field === null || ['kind', 'name', 'credential'].some(invalid) || kindFields[d.kind].some((f) => invalid(f.name));

  return (
    <form className="source-form" onSubmit={(e) => void submit(e)} data-testid="source-form">
      <h3>New change source</h3>
      <div className="field">
        <label htmlFor="source-kind">Kind</label>
        <select id="source-kind" value={d.kind} onChange={(e) => { setD({ ...d, kind: e.target.value as SourceKind, values: {} }); }} data-testid="source-kind">
          {sourceKinds.map((k) => (
            <option key={k} value={k}>{sourceLabel(k)}</option>
          ))}
        </select>
        <FieldError field={field} name="kind" message={message} />
      </div>
      <div className="field">
        <label htmlFor="source-name">Name</label>
        <input id="source-name" type="text" value={d.name} placeholder="prod cluster, shop-org repos…" onChange={(e) => { setD({ ...d, name: e.target.value }); }} aria-invalid={invalid('name')} data-testid="source-name" />
        <FieldError field={field} name="name" message={message} />
      </div>
      {kindFields[d.kind].map((f) => {
        const id = `source-config-${f.name}`;
        const value = d.values[f.name] ?? '';
        const set = (v: string): void => { setD({ ...d, values: { ...d.values, [f.name]: v } }); };
        return (
          <div className="field" key={`${d.kind}-${f.name}`}>
            <label htmlFor={id}>{f.label}</label>
            {f.list === true ? (
              <textarea id={id} rows={3} value={value} onChange={(e) => { set(e.target.value); }} aria-invalid={invalid(f.name)} data-testid={id} spellCheck={false} />
            ) : (
              <input id={id} type="text" value={value} placeholder={f.placeholder} onChange={(e) => { set(e.target.value); }} aria-invalid={invalid(f.name)} data-testid={id} spellCheck={false} />
            )}
            <span className="muted small">{f.hint}</span>
            <FieldError field={field} name={f.name} message={message} />
            <FieldError field={field} name={`config.${f.name}`} message={message} />
          </div>
        );
      })}
      {pulls && (
        <div className="field">
          <label htmlFor="source-credential">Credential for the scheduled pull</label>
          <input id="source-credential" type="password" autoComplete="off" value={d.credential} onChange={(e) => { setD({ ...d, credential: e.target.value }); }} aria-invalid={invalid('credential')} data-testid="source-credential" />
          <span className="muted small">{credentialHints[d.kind]} Optional: without one, only pushed events arrive. It is sealed and never shown again.</span>
          <FieldError field={field} name="credential" message={message} />
        </div>
      )}
      {error !== null && !known && <p className="field-error small" role="alert" data-testid="source-form-error">{error.message}</p>}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving} data-testid="source-create">
          {saving ? 'Creating…' : 'Create the connection'}
        </button>
        <button type="button" className="btn" onClick={onCancel} data-testid="source-cancel">Cancel</button>
      </div>
    </form>
  );
}
