import { useEffect, useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import { approvalPolicies, type ApprovalPolicy, type Environment } from '../api/types';
import { errorField, errorMessage } from '../lib/errors';
import { ErrorBanner } from './error-banner';
import './environment-settings.css';

const policyLabels: Record<ApprovalPolicy, string> = {
  none: 'No approval',
  'high-risk': 'High-risk flags',
  all: 'Every change',
};

type Props = {
  environments: readonly Environment[];
  canEdit: boolean;
  onChanged: () => void;
};

// Who must approve a flag change, per environment. Owners and admins edit it; everyone
// else sees what applies, so a 202 "proposed" answer never comes as a surprise.
export function EnvironmentSettings({ environments, canEdit, onChanged }: Props) {
  return (
    <section className="card card-flush" data-testid="environment-settings">
      <h2 className="card-title">Environments and approvals</h2>
      <p className="muted small pad">
        A change to a flag in an environment that needs approval is proposed, not applied: it takes effect once enough
        other people approve it.
      </p>
      {environments.length === 0 ? (
        <p className="empty-state">No environments yet: production and staging are created with the first flag.</p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Environment</th>
              <th scope="col">Key</th>
              <th scope="col">Approval needed for</th>
              <th scope="col">Approvals</th>
              <th scope="col" className="col-actions">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {environments.map((env) => (
              <EnvironmentRow key={env.key} env={env} canEdit={canEdit} onChanged={onChanged} />
            ))}
          </tbody>
        </table>
      )}
      {canEdit && <EnvironmentAddForm onAdded={onChanged} />}
    </section>
  );
}

function EnvironmentRow({ env, canEdit, onChanged }: { env: Environment; canEdit: boolean; onChanged: () => void }) {
  const [policy, setPolicy] = useState<ApprovalPolicy>(env.approvalPolicy);
  const [needed, setNeeded] = useState(String(env.approvalsNeeded));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    setPolicy(env.approvalPolicy);
    setNeeded(String(env.approvalsNeeded));
  }, [env.approvalPolicy, env.approvalsNeeded]);

  const dirty = policy !== (env.approvalPolicy) || needed !== String(env.approvalsNeeded);

  const save = async (): Promise<void> => {
    const count = Number(needed);
    if (!Number.isInteger(count) || count < 1) {
      setError('Approvals must be a whole number of at least 1.');
      return;
    }
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await api.updateEnvironment(env.key, { approvalPolicy: policy, approvalsNeeded: count });
      setSaved(true);
      onChanged();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  const policyId = `env-policy-${env.key}`;
  const neededId = `env-approvals-${env.key}`;

  return (
    <tr data-testid="environment-row" data-env={env.key}>
      <td className="strong">{env.name}</td>
      <td className="mono">{env.key}</td>
      <td>
        {canEdit ? (
          <>
            <label htmlFor={policyId} className="visually-hidden">
              Approval policy for {env.name}
            </label>
            <select
              id={policyId}
              value={policy}
              onChange={(e) => {
                setPolicy(e.target.value as ApprovalPolicy);
                setSaved(false);
              }}
              data-testid="env-policy"
            >
              {approvalPolicies.map((p) => (
                <option key={p} value={p}>
                  {policyLabels[p]}
                </option>
              ))}
            </select>
          </>
        ) : (
          <span data-testid="env-policy">{policyLabels[env.approvalPolicy]}</span>
        )}
      </td>
      <td>
        {canEdit ? (
          <>
            <label htmlFor={neededId} className="visually-hidden">
              Approvals needed in {env.name}
            </label>
            <input
              id={neededId}
              type="number"
              className="input-number"
              min={1}
              max={10}
              step={1}
              value={needed}
              disabled={policy === 'none'}
              onChange={(e) => {
                setNeeded(e.target.value);
                setSaved(false);
              }}
              data-testid="env-approvals"
            />
          </>
        ) : (
          <span className="mono">{env.approvalPolicy === 'none' ? '—' : String(env.approvalsNeeded)}</span>
        )}
      </td>
      <td className="col-actions nowrap">
        {error !== null && (
          <span className="field-error small" role="alert" data-testid="env-save-error">
            {error}{' '}
          </span>
        )}
        {saved && !dirty && (
          <span className="ok-text small" role="status" data-testid="env-saved">
            Saved{' '}
          </span>
        )}
        {canEdit && (
          <button
            type="button"
            className="btn btn-small"
            disabled={busy || !dirty}
            onClick={() => void save()}
            data-testid="env-save"
          >
            {busy ? 'Saving…' : 'Save'}
          </button>
        )}
      </td>
    </tr>
  );
}

function EnvironmentAddForm({ onAdded }: { onAdded: () => void }) {
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (key.trim() === '' || name.trim() === '') {
      setError('Give the environment a key (e.g. eu-west) and a name.');
      setField(key.trim() === '' ? 'key' : 'name');
      return;
    }
    setBusy(true);
    setError(null);
    setField(null);
    try {
      await api.createEnvironment({ key: key.trim(), name: name.trim() });
      setKey('');
      setName('');
      onAdded();
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)} data-testid="environment-add-form" noValidate>
      <ErrorBanner message={error} testId="environment-add-error" />
      <div className="field">
        <label htmlFor="env-new-key">New environment key</label>
        <input
          id="env-new-key"
          type="text"
          className="mono-input"
          value={key}
          maxLength={32}
          placeholder="eu-west"
          onChange={(e) => { setKey(e.target.value); }}
          aria-invalid={field === 'key' ? true : undefined}
          spellCheck={false}
          autoComplete="off"
          data-testid="env-new-key"
        />
      </div>
      <div className="field">
        <label htmlFor="env-new-name">Name</label>
        <input
          id="env-new-name"
          type="text"
          value={name}
          maxLength={100}
          placeholder="EU West"
          onChange={(e) => { setName(e.target.value); }}
          aria-invalid={field === 'name' ? true : undefined}
          autoComplete="off"
          data-testid="env-new-name"
        />
      </div>
      <button type="submit" className="btn" disabled={busy} data-testid="env-add">
        {busy ? 'Adding…' : 'Add environment'}
      </button>
    </form>
  );
}
