import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { holdModes, type AlertSettings, type HoldMode } from '../api/types';
import { holdModeLabels, holdModeSentences } from '../lib/alert-format';
import { errorField, errorMessage } from '../lib/errors';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';

type Props = { settings: AlertSettings; canEdit: boolean; onSaved: (next: AlertSettings) => void };

// How the organisation holds the alerts of a running change: by relaying them itself, or by
// silences on its Alertmanagers. Saved on its own, so choosing never touches the label mapping.
export function AlertHoldMode({ settings, canEdit, onSaved }: Props) {
  const [mode, setMode] = useState<HoldMode>(settings.holdMode);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => { setMode(settings.holdMode); }, [settings.holdMode]);

  const save = async (): Promise<void> => {
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      onSaved(await api.updateAlertSettings({ holdMode: mode }));
      setSaved(true);
    } catch (caught) {
      setError({ message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card settings-card" data-testid="alert-hold-mode" aria-labelledby="alert-hold-mode-title">
      <h2 id="alert-hold-mode-title">How alerts are held</h2>
      <p className="muted small">While a change runs, the alerts of its blast radius are recorded with it and not notified.</p>
      <fieldset className="choice-list" disabled={!canEdit || saving}>
        <legend className="visually-hidden">Hold mode</legend>
        {holdModes.map((m) => (
          <label key={m} className={mode === m ? 'choice selected' : 'choice'}>
            <input type="radio" name="hold-mode" value={m} checked={mode === m} onChange={() => { setMode(m); setSaved(false); }} data-testid={`hold-mode-${m}`} />
            <span>
              <strong>{holdModeLabels[m]}</strong>
              <span className="small muted hold-mode-sentence">{holdModeSentences[m]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <FieldError field={error?.field ?? null} name="holdMode" message={error?.message ?? null} />
      {error !== null && error.field !== 'holdMode' && <ErrorBanner message={error.message} testId="hold-mode-error" />}
      {canEdit && (
        <div className="form-actions">
          <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={saving || mode === settings.holdMode} data-testid="hold-mode-save">
            {saving ? 'Saving…' : 'Save the hold mode'}
          </button>
          {saved && <span className="small ok-text" role="status" data-testid="hold-mode-saved">Saved: {holdModeLabels[settings.holdMode]}.</span>}
        </div>
      )}
    </section>
  );
}
