import { useState, type SubmitEvent } from 'react';
import { evidenceApi } from '../api/evidence-client';
import type { EvidenceSettings, RedPreset, RedQueries, StoredRedTemplates } from '../api/types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';

type Props = { settings: EvidenceSettings; canEdit: boolean; onSaved: (s: EvidenceSettings) => void };
type Choice = RedPreset | 'custom';

const choiceLabels: Record<Choice, string> = {
  otel: 'OpenTelemetry HTTP (http_server_request_duration_seconds_*)',
  classic: 'Classic (http_requests_total, http_request_duration_seconds)',
  custom: 'This organisation’s own queries',
};
const queryLabels: Record<keyof RedQueries, string> = { rate: 'Request rate (req/s)', errorRatio: 'Error ratio (0..1)', p95: 'p95 latency (s)' };
const queryKeys = ['rate', 'errorRatio', 'p95'] as const;

function storedChoice(s: EvidenceSettings): Choice {
  const t = s.redTemplatesStored;
  if (t === null) return 'otel';
  return 'preset' in t ? t.preset : 'custom';
}

// Which PromQL gives each service's RED: a documented preset, or the organisation's own templates
// ($range, $offset and $by are filled in at collection). One service may differ through its
// catalogue entity's attrs.prometheus.
export function RedTemplatesForm({ settings, canEdit, onSaved }: Props) {
  const [choice, setChoice] = useState<Choice>(() => storedChoice(settings));
  const active = settings.redTemplates;
  const [custom, setCustom] = useState<{ serviceLabel: string } & RedQueries>(() => ({ serviceLabel: active.serviceLabel, ...active.queries }));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const redTemplates: StoredRedTemplates = choice === 'custom' ? custom : { preset: choice };
    setBusy(true);
    setSaved(false);
    setError(null);
    try {
      onSaved(await evidenceApi.updateSettings({ redTemplates }));
      setSaved(true);
    } catch (caught) {
      setError({ message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setBusy(false);
    }
  };

  const field = error?.field ?? null;
  const at = (k: string): boolean => fieldMatches(field, `redTemplates.${k}`);
  const placed = choice === 'custom' && ['serviceLabel', ...queryKeys].some(at);

  return (
    <form className="card settings-card" onSubmit={(e) => void submit(e)} noValidate data-testid="red-templates-form">
      <div className="section-head">
        <h2>RED queries</h2>
        <span className="muted small" data-testid="red-templates-active">running: {active.name}</span>
      </div>
      <fieldset className="choice-list" disabled={!canEdit || busy}>
        <legend className="visually-hidden">RED query templates</legend>
        {(['otel', 'classic', 'custom'] as const).map((c) => (
          <label key={c} className={choice === c ? 'choice selected' : 'choice'}>
            <input type="radio" name="red-choice" checked={choice === c} onChange={() => { setChoice(c); setSaved(false); }} data-testid={`red-templates-${c}`} />
            <span>{choiceLabels[c]}</span>
          </label>
        ))}
      </fieldset>
      {choice === 'custom' ? (
        <>
          <div className="field">
            <label htmlFor="red-service-label">Label naming the service</label>
            <input id="red-service-label" type="text" className="mono-input" value={custom.serviceLabel} disabled={!canEdit} onChange={(e) => { setCustom((c) => ({ ...c, serviceLabel: e.target.value })); }} aria-invalid={at('serviceLabel')} data-testid="red-templates-serviceLabel" />
            <FieldError field={field} name="redTemplates.serviceLabel" message={error?.message ?? null} />
          </div>
          {queryKeys.map((k) => (
            <div className="field" key={k}>
              <label htmlFor={`red-${k}`}>{queryLabels[k]}</label>
              <textarea id={`red-${k}`} rows={2} className="mono-input" value={custom[k]} disabled={!canEdit} onChange={(e) => { setCustom((c) => ({ ...c, [k]: e.target.value })); }} aria-invalid={at(k)} data-testid={`red-templates-${k}`} />
              <FieldError field={field} name={`redTemplates.${k}`} message={error?.message ?? null} />
            </div>
          ))}
          <p className="muted small">
            Each query aggregates <code>by ($by)</code> so one query answers every service; <code>$range</code> is the span, and <code>$offset</code> goes right after
            every range selector (it becomes <code>offset 1w</code> for the week-earlier baseline).
          </p>
        </>
      ) : (
        <dl className="red-queries mono small" data-testid="red-templates-queries">
          {queryKeys.map((k) => (
            <div key={k}>
              <dt>{queryLabels[k]}</dt>
              <dd>{settings.presets[choice].queries[k]}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="muted small">
        One service can differ: in the catalogue, its entity’s <code>attrs.prometheus</code> takes <code>{'{"label": "…"}'}</code> (another label value) or{' '}
        <code>{'{"queries": {"rate", "errorRatio", "p95"}}'}</code> (its own queries).
      </p>
      {error !== null && !placed && <ErrorBanner message={error.message} testId="red-templates-error" />}
      {canEdit && (
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="red-templates-save">
            {busy ? 'Saving…' : 'Save the RED queries'}
          </button>
          {saved && <span className="small ok-text" role="status" data-testid="red-templates-saved">Saved.</span>}
        </div>
      )}
    </form>
  );
}
