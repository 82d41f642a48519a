import { useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import { flagRisks, flagTypes, type Flag, type FlagRisk, type FlagType, type NewFlag } from '../api/types';
import { errorField, errorMessage } from '../lib/errors';
import { highRiskReasonRule, reasonProblem } from '../lib/flag-format';
import { ErrorBanner } from './error-banner';
import './flag-create-form.css';

const keyPattern = /^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)*$/;

function splitTags(text: string): string[] {
  return [...new Set(text.split(',').map((t) => t.trim()).filter((t) => t !== ''))];
}

type Props = { onCreated: (flag: Flag) => void; onCancel: () => void };

export function FlagCreateForm({ onCreated, onCancel }: Props) {
  const [key, setKey] = useState('');
  const [type, setType] = useState<FlagType>('boolean');
  const [risk, setRisk] = useState<FlagRisk>('low');
  const [ownerService, setOwnerService] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  const validate = (): { message: string; field: string } | null => {
    const k = key.trim();
    if (k === '') return { message: 'Give the flag a key, e.g. ops.payments.new-processor.', field: 'key' };
    if (!keyPattern.test(k)) {
      return { message: 'Keys are dotted lower-case words: letters, digits, - and _, e.g. ops.payments.new-processor.', field: 'key' };
    }
    const problem = reasonProblem(risk, reason);
    if (problem !== null) return { message: problem, field: 'reason' };
    return null;
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const problem = validate();
    if (problem !== null) {
      setError(problem.message);
      setField(problem.field);
      return;
    }
    setBusy(true);
    setError(null);
    setField(null);
    try {
      const body: NewFlag = { key: key.trim(), type, risk };
      if (description.trim() !== '') body.description = description.trim();
      if (ownerService.trim() !== '') body.ownerService = ownerService.trim();
      const tagList = splitTags(tags);
      if (tagList.length > 0) body.tags = tagList;
      if (reason.trim() !== '') body.reason = reason.trim();
      const flag = await api.createFlag(body);
      onCreated(flag);
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
      setBusy(false);
    }
  };

  const invalid = (name: string): true | undefined => (field === name ? true : undefined);

  return (
    <form className="card flag-form" onSubmit={(e) => void submit(e)} data-testid="flag-create-form" noValidate>
      <h2>New flag</h2>
      <p className="muted small">A new flag is off in every environment until someone turns it on.</p>
      <ErrorBanner message={error} testId="flag-create-error" />
      <div className="form-grid">
        <div className="field field-span-2">
          <label htmlFor="flag-key">Key</label>
          <input
            id="flag-key"
            type="text"
            className="mono-input"
            value={key}
            maxLength={200}
            placeholder="ops.payments.new-processor"
            onChange={(e) => { setKey(e.target.value); }}
            aria-invalid={invalid('key')}
            spellCheck={false}
            autoComplete="off"
            autoFocus
            data-testid="flag-key"
          />
        </div>
        <div className="field">
          <label htmlFor="flag-type">Type</label>
          <select
            id="flag-type"
            value={type}
            onChange={(e) => { setType(e.target.value as FlagType); }}
            aria-invalid={invalid('type')}
            data-testid="flag-type"
          >
            {flagTypes.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="flag-risk">Risk</label>
          <select
            id="flag-risk"
            value={risk}
            onChange={(e) => { setRisk(e.target.value as FlagRisk); }}
            aria-invalid={invalid('risk')}
            data-testid="flag-risk"
          >
            {flagRisks.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="flag-owner">Owner service</label>
          <input
            id="flag-owner"
            type="text"
            className="mono-input"
            value={ownerService}
            maxLength={200}
            placeholder="payments-api"
            onChange={(e) => { setOwnerService(e.target.value); }}
            aria-invalid={invalid('ownerService')}
            spellCheck={false}
            autoComplete="off"
            data-testid="flag-owner"
          />
        </div>
        <div className="field">
          <label htmlFor="flag-tags">Tags</label>
          <input
            id="flag-tags"
            type="text"
            value={tags}
            placeholder="payments, migration"
            onChange={(e) => { setTags(e.target.value); }}
            aria-invalid={invalid('tags')}
            aria-describedby="flag-tags-help"
            autoComplete="off"
            data-testid="flag-tags"
          />
          <span id="flag-tags-help" className="muted small">
            Comma-separated.
          </span>
        </div>
        <div className="field field-span-2">
          <label htmlFor="flag-description">Description</label>
          <textarea
            id="flag-description"
            rows={2}
            value={description}
            maxLength={2000}
            placeholder="What the flag switches and who to ask"
            onChange={(e) => { setDescription(e.target.value); }}
            aria-invalid={invalid('description')}
            data-testid="flag-description"
          />
        </div>
        <div className="field field-span-2">
          <label htmlFor="flag-reason">Reason{risk === 'low' ? ' (optional)' : ''}</label>
          <textarea
            id="flag-reason"
            rows={2}
            value={reason}
            maxLength={2000}
            placeholder={risk === 'high' ? 'OPS-123: migrate card payments' : 'Why this flag exists'}
            onChange={(e) => { setReason(e.target.value); }}
            aria-invalid={invalid('reason')}
            aria-describedby={risk === 'high' ? 'flag-reason-help' : undefined}
            data-testid="flag-reason"
          />
          {risk === 'high' && (
            <span id="flag-reason-help" className="muted small">
              {highRiskReasonRule}
            </span>
          )}
        </div>
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="flag-create-submit">
          {busy ? 'Creating…' : 'Create flag'}
        </button>
        <button type="button" className="btn" onClick={onCancel} disabled={busy} data-testid="flag-create-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}
