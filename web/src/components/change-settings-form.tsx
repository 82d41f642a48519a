import { useEffect, useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import { approvalModes, silenceModes, type ApprovalMode, type ChangeSettings, type ChangeSettingsPatch, type ChangeSettingsView, type SilenceMode } from '../api/types';
import { classPolicies, type ClassPolicy } from '../api/governance-types';
import { silenceModeHints, silenceModeLabels } from '../lib/blast-preview';
import { classPolicyLabels } from '../lib/governance-format';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { formatUtc } from '../lib/format';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';
import { RollbackSettingsFields, rollbackDraftOf, type RollbackDraft } from './rollback-settings-fields';
import './change-settings-form.css';
import { sentence } from '../lib/format.js';

const approvalLabels: Record<ApprovalMode, { label: string; hint: string }> = {
  none: { label: 'Not required', hint: 'No change waits for approval.' },
  api: { label: 'Changes from pipelines', hint: 'Changes registered with an API token wait for approval; people’s do not.' },
  all: { label: 'Every change', hint: 'Every change waits for a quorum of approvers.' },
};

type Draft = {
  approvalRequired: ApprovalMode;
  quorum: string;
  approvalExpiryMinutes: string;
  startTimeoutMinutes: string;
  surveillanceMinutes: string;
  completionRecipients: string;
  silenceInfra: SilenceMode;
  changeClassPolicy: ClassPolicy;
  l1Approvals: string;
} & RollbackDraft;

function draftOf(s: ChangeSettings): Draft {
  return {
    approvalRequired: s.approvalRequired,
    quorum: String(s.quorum),
    approvalExpiryMinutes: String(s.approvalExpiryMinutes),
    startTimeoutMinutes: String(s.startTimeoutMinutes),
    surveillanceMinutes: String(s.surveillanceMinutes),
    completionRecipients: s.completionRecipients.join('\n'),
    silenceInfra: s.silenceInfra,
    changeClassPolicy: s.changeClassPolicy,
    l1Approvals: String(s.l1Approvals),
    ...rollbackDraftOf(s),
  };
}

const numberFields = ['quorum', 'l1Approvals', 'approvalExpiryMinutes', 'startTimeoutMinutes', 'surveillanceMinutes'] as const;
type NumberField = (typeof numberFields)[number];

const numberLabels: Record<NumberField, { label: string; hint: string }> = {
  quorum: { label: 'Quorum', hint: 'Approvals a normal (L2) change needs: 1 – 25. Above the number of approvers, changes wait until more are designated. L3 changes need at least two.' },
  l1Approvals: { label: 'L1 approvals', hint: 'Approvals a low-risk (L1) change needs — standard changes are L1: 0 – 25. 0: none, they are pre-approved.' },
  approvalExpiryMinutes: { label: 'Approval expires after (minutes)', hint: 'An unapproved change expires: 15 – 10080.' },
  startTimeoutMinutes: { label: 'Start within (minutes)', hint: 'An approved change not started by then expires: 15 – 10080.' },
  surveillanceMinutes: { label: 'Surveillance (minutes)', hint: 'The default evidence horizon after a change: 15 – 1440.' },
};

type Props = { orgId: string; view: ChangeSettingsView; onSaved: (view: ChangeSettingsView) => void };

// The organisation's change settings. Every field goes out on save; the server keeps what is
// unchanged and names the field it refuses, shown under that field.
export function ChangeSettingsForm({ orgId, view, onSaved }: Props) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(view.settings));
  const [busy, setBusy] = useState(false);
  // A refusal, with the approver count it was judged against: designating approvers resolves
  // a quorum refusal as surely as editing the quorum does, so either takes it off the screen.
  const [refusal, setRefusal] = useState<{ message: string; field: string | null; approvers: number } | null>(null);
  const [saved, setSaved] = useState(false);
  const current = refusal !== null && (refusal.approvers === view.approvers.length || !fieldMatches(refusal.field, 'quorum')) ? refusal : null;
  const error = current?.message ?? null;
  const field = current?.field ?? null;
  const refuse = (message: string, named: string | null): void => { setRefusal({ message, field: named, approvers: view.approvers.length }); };

  // Reset to what is stored only when these fields changed there: saving the ticket destination
  // or the approvers answers new settings too, and must not wipe what is being typed here.
  const stored = JSON.stringify(draftOf(view.settings));
  useEffect(() => { setDraft(JSON.parse(stored) as Draft); }, [stored]);

  const set = (patch: Partial<Draft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    setSaved(false);
    // The error was about what was sent: it goes once the input it names changes (any input, for one named by none).
    if (field === null || Object.keys(patch).some((name) => fieldMatches(field, name))) setRefusal(null);
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    // allowPrivateCallbacks is saved with the ticket destination, on its own card.
    const patch: ChangeSettingsPatch = {
      approvalRequired: draft.approvalRequired,
      completionRecipients: draft.completionRecipients.split(/[\s,;]+/).map((a) => a.trim()).filter((a) => a !== ''),
      silenceInfra: draft.silenceInfra,
      changeClassPolicy: draft.changeClassPolicy,
      requireBeforeState: draft.requireBeforeState,
      demoteOnRollback: draft.demoteOnRollback,
    };
    for (const name of numberFields) {
      const n = Number(draft[name]);
      if (draft[name].trim() === '' || !Number.isInteger(n)) {
        refuse(`${numberLabels[name].label}: a whole number.`, name);
        return;
      }
      patch[name] = n;
    }
    const hours = Number(draft.rollbackSweepWindowHours);
    if (draft.rollbackSweepWindowHours.trim() === '' || !Number.isInteger(hours)) {
      refuse('Rollback sweep window: a whole number of hours.', 'rollbackSweepWindowHours');
      return;
    }
    patch.rollbackSweepWindowHours = hours;
    setBusy(true);
    setRefusal(null);
    try {
      onSaved(await api.updateChangeSettings(orgId, patch));
      setSaved(true);
    } catch (caught) {
      refuse(errorMessage(caught), errorField(caught));
    } finally {
      setBusy(false);
    }
  };

  const invalid = (name: string): true | undefined => (fieldMatches(field, name) ? true : undefined);
  const placed = [...numberFields, 'approvalRequired', 'completionRecipients', 'silenceInfra', 'changeClassPolicy', 'requireBeforeState', 'demoteOnRollback', 'rollbackSweepWindowHours'];
  const loose = error !== null && !placed.some((n) => fieldMatches(field, n)) ? error : null;

  return (
    <form className="card change-settings" onSubmit={(e) => void submit(e)} noValidate data-testid="change-settings-form">
      <div className="section-head">
        <h2>Settings</h2>
        {view.settings.updatedAt !== null && <span className="muted small">saved {formatUtc(view.settings.updatedAt)}</span>}
      </div>
      {/* What the settings cannot do yet: taken, and said as a warning, never as an error. */}
      {view.warnings.map((w) => (
        <div key={w.field} className="banner banner-warn" role="status" data-testid={w.field === 'quorum' ? 'settings-warning' : 'settings-critical-warning'} data-field={w.field}>
          <span className="banner-text">{sentence(w.message)}</span>
        </div>
      ))}
      <ErrorBanner message={loose} testId="settings-error" />
      {saved && (
        <div className="banner banner-ok" role="status" data-testid="settings-saved">
          <span className="banner-text">Saved.</span>
        </div>
      )}
      <fieldset className="field">
        <legend>Approval required</legend>
        <div className="segmented" data-testid="settings-approval-required">
          {approvalModes.map((m) => (
            <span key={m} className="segment">
              <input id={`approval-required-${m}`} type="radio" name="approval-required" checked={draft.approvalRequired === m} onChange={() => { set({ approvalRequired: m }); }} data-testid={`approval-required-${m}`} />
              <label htmlFor={`approval-required-${m}`}>{approvalLabels[m].label}</label>
            </span>
          ))}
        </div>
        <span className="muted small">{approvalLabels[draft.approvalRequired].hint}</span>
        <FieldError field={field} name="approvalRequired" message={error} />
      </fieldset>
      <div className="settings-grid">
        {numberFields.map((name) => (
          <div key={name} className="field">
            <label htmlFor={`settings-${name}`}>{numberLabels[name].label}</label>
            <input
              id={`settings-${name}`}
              type="number"
              value={draft[name]}
              min={view.limits[name]?.min}
              max={view.limits[name]?.max}
              onChange={(e) => { set({ [name]: e.target.value }); }}
              aria-invalid={invalid(name)}
              data-testid={`settings-${name}`}
            />
            <span className="muted small">{numberLabels[name].hint}</span>
            <FieldError field={field} name={name} message={error} />
          </div>
        ))}
        <div className="field field-span-2">
          <label htmlFor="settings-class-policy">Change class policy</label>
          <select
            id="settings-class-policy"
            value={draft.changeClassPolicy}
            onChange={(e) => { set({ changeClassPolicy: e.target.value as ClassPolicy }); }}
            aria-invalid={invalid('changeClassPolicy')}
            data-testid="settings-class-policy"
          >
            {classPolicies.map((p) => (
              <option key={p} value={p}>
                {classPolicyLabels[p].label}
              </option>
            ))}
          </select>
          <span className="muted small">
            {classPolicyLabels[draft.changeClassPolicy].hint} Standard changes are L1, normal ones L2, emergencies L3; the tier sets the approvals.
          </span>
          <FieldError field={field} name="changeClassPolicy" message={error} />
        </div>
        <div className="field field-span-2">
          <label htmlFor="settings-recipients">Completion recipients</label>
          <textarea
            id="settings-recipients"
            rows={3}
            value={draft.completionRecipients}
            placeholder={'change-board@acme.io\nsre@acme.io'}
            onChange={(e) => { set({ completionRecipients: e.target.value }); }}
            aria-invalid={invalid('completionRecipients')}
            spellCheck={false}
            data-testid="settings-recipients"
          />
          <span className="muted small">Every report is also mailed to these addresses (at most 25).</span>
          <FieldError field={field} name="completionRecipients" message={error} />
        </div>
        <div className="field field-span-2">
          <label htmlFor="settings-silence-infra">Silence infrastructure (default)</label>
          <select id="settings-silence-infra" value={draft.silenceInfra} onChange={(e) => { set({ silenceInfra: e.target.value as SilenceMode }); }} aria-invalid={invalid('silenceInfra')} data-testid="settings-silence-infra">
            {silenceModes.map((m) => (
              <option key={m} value={m}>
                {silenceModeLabels[m]}
              </option>
            ))}
          </select>
          <span className="muted small">{silenceModeHints[draft.silenceInfra]}</span>
          <FieldError field={field} name="silenceInfra" message={error} />
        </div>
      </div>
      <RollbackSettingsFields draft={draft} onChange={set} field={field} error={error} sweepLimits={view.limits['rollbackSweepWindowHours']} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="settings-save">
          {busy ? 'Saving…' : 'Save settings'}
        </button>
      </div>
    </form>
  );
}
