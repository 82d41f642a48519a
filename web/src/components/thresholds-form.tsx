import { useEffect, useState, type SubmitEvent } from 'react';
import { evidenceApi } from '../api/evidence-client';
import type { EvidenceSettings, Thresholds } from '../api/types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';

type Props = { settings: EvidenceSettings; canEdit: boolean; onSaved: (s: EvidenceSettings) => void };

/**
 * What each threshold means, as docs/evidence.md says under "Verdict": a RED signal moved when it
 * is worse than BOTH baselines (the hour before and a week earlier) by the step AND the floor.
 */
const meanings: ReadonlyArray<{ key: keyof Thresholds; label: string; meaning: string; step: string }> = [
  { key: 'errorRatioPoints', label: 'Error ratio rise (percentage points)', meaning: 'The error ratio rose by at least this many points (1 = 0.5 % → 1.5 %) …', step: '0.1' },
  { key: 'errorRatioFactor', label: 'Error ratio factor (×)', meaning: '… and to at least this multiple of the baseline.', step: '0.1' },
  { key: 'latencyIncrease', label: 'p95 rise (fraction)', meaning: 'p95 latency rose by at least this fraction (0.5 = +50 %) …', step: '0.05' },
  { key: 'latencyFloorMs', label: 'p95 floor (ms)', meaning: '… and by at least this many milliseconds.', step: '1' },
  { key: 'rateDrop', label: 'Request rate drop (fraction)', meaning: 'The request rate fell by at least this fraction (0.5 = half) …', step: '0.05' },
  { key: 'rateFloor', label: 'Rate floor (req/s)', meaning: '… from a baseline of at least this many requests per second.', step: '0.1' },
  { key: 'downMinutes', label: 'Down after (minutes)', meaning: 'A component in error this long is down: the change is an outage.', step: '1' },
  { key: 'flappingEntries', label: 'Flapping after (entries)', meaning: 'A subject that entered error this many times is flapping: not counted, the change is minor.', step: '1' },
];

type Draft = Record<keyof Thresholds, string>;
const draftOf = (t: Thresholds): Draft => Object.fromEntries(meanings.map((m) => [m.key, String(t[m.key])])) as Draft;

// The thresholds behind "moved against every baseline", per organisation. Every field is sent as
// typed (the server names a bad one); "Back to the defaults" forgets the organisation's own.
export function ThresholdsForm({ settings, canEdit, onSaved }: Props) {
  const initial = JSON.stringify(draftOf(settings.thresholds));
  const [draft, setDraft] = useState<Draft>(() => JSON.parse(initial) as Draft);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  useEffect(() => { setDraft(JSON.parse(initial) as Draft); }, [initial]);

  const send = async (thresholds: Partial<Thresholds> | null): Promise<void> => {
    setBusy(true);
    setSaved(false);
    setError(null);
    try {
      onSaved(await evidenceApi.updateSettings({ thresholds }));
      setSaved(true);
    } catch (caught) {
      setError({ message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    // A field that is not a number goes as typed, so the server names it in its own words.
    const out = Object.fromEntries(meanings.map((m) => {
      const raw = draft[m.key].trim();
      const n = Number(raw);
      return [m.key, raw !== '' && Number.isFinite(n) ? n : raw];
    })) as unknown as Partial<Thresholds>;
    void send(out);
  };

  const field = error?.field ?? null;
  const at = (k: string): boolean => fieldMatches(field, `thresholds.${k}`) || fieldMatches(field, k);
  const custom = !settings.thresholdsAreDefault;

  return (
    <form className="card settings-card" onSubmit={submit} noValidate data-testid="thresholds-form">
      <div className="section-head">
        <h2>Verdict thresholds</h2>
        <span className="muted small" data-testid="thresholds-stored">{custom ? 'this organisation’s own' : 'the documented defaults'}</span>
      </div>
      <p className="muted small">
        A component “moved against every baseline” when a signal is worse than both the hour before and the same span a week earlier, by the step and the floor.
      </p>
      <div className="thresholds-grid">
        {meanings.map((m) => (
          <div className="field" key={m.key}>
            <label htmlFor={`threshold-${m.key}`}>{m.label}</label>
            <input
              id={`threshold-${m.key}`}
              type="number"
              step={m.step}
              disabled={!canEdit}
              value={draft[m.key]}
              onChange={(e) => { setDraft((d) => ({ ...d, [m.key]: e.target.value })); setSaved(false); }}
              aria-invalid={at(m.key)}
              data-testid={`threshold-${m.key}`}
            />
            <span className="muted small">
              {m.meaning} <span className="nowrap">(default {settings.defaultThresholds[m.key]})</span>
            </span>
            {at(m.key) && <FieldError field={field} name={field ?? ''} message={error?.message ?? null} />}
          </div>
        ))}
      </div>
      {error !== null && !meanings.some((m) => at(m.key)) && <ErrorBanner message={error.message} testId="thresholds-error" />}
      {canEdit && (
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="thresholds-save">
            {busy ? 'Saving…' : 'Save the thresholds'}
          </button>
          {custom && (
            <button type="button" className="btn" disabled={busy} onClick={() => void send(null)} data-testid="thresholds-reset">
              Back to the defaults
            </button>
          )}
          {saved && <span className="small ok-text" role="status" data-testid="thresholds-saved">Saved.</span>}
        </div>
      )}
    </form>
  );
}
