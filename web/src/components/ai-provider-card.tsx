import { useEffect, useState, type SubmitEvent } from 'react';
import { evidenceApi } from '../api/evidence-client';
import { aiProviderKinds, type AiProvider, type AiProviderKind, type AiProviderTest, type EvidenceSettings } from '../api/types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { AlertTestResult, type TestWords } from './alert-test-result';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';

type Props = {
  provider: AiProvider | null;
  settings: EvidenceSettings;
  canEdit: boolean;
  isOwner: boolean;
  onChanged: () => void;
  onSettings: (s: EvidenceSettings) => void;
};

const kindLabels: Record<AiProviderKind, string> = { openai: 'OpenAI-compatible (chat completions)', anthropic: 'Anthropic Messages API' };
// Either a base URL or the full endpoint: the server adds /chat/completions or /v1/messages.
const urlPlaceholders: Record<AiProviderKind, string> = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' };

/** The Test answer as a sentence. */
export function aiTestWords(t: AiProviderTest): TestWords {
  if (!t.ok) return { ok: false, message: t.problem ?? 'It did not answer as the provider does.' };
  const took = t.durationMs === null ? '' : ` in ${String(t.durationMs)} ms`;
  return { ok: true, message: `It answered: ${t.model ?? 'the model'}${took}.` };
}

type Draft = { kind: AiProviderKind; url: string; model: string; key: string };
const draftOf = (p: AiProvider | null): Draft => ({ kind: p?.kind ?? 'openai', url: p?.url ?? '', model: p?.model ?? '', key: '' });

// The AI assessment beside the verdict: which model reads the evidence (its key is sealed and never
// shown again), a Test, and the owner's switch. The assessment never changes the verdict.
export function AiProviderCard({ provider, settings, canEdit, isOwner, onChanged, onSettings }: Props) {
  const [d, setD] = useState<Draft>(() => draftOf(provider));
  const [busy, setBusy] = useState<'save' | 'test' | 'remove' | 'switch' | null>(null);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  const [test, setTest] = useState<TestWords | { error: string } | null>(null);
  useEffect(() => { setD(draftOf(provider)); }, [provider]);

  const run = async (what: typeof busy, action: () => Promise<void>): Promise<void> => {
    setBusy(what);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError({ message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setBusy(null);
    }
  };

  const save = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setTest(null);
    void run('save', async () => {
      // A blank URL is the provider's own; a blank key keeps the stored one.
      const url = d.url.trim();
      await evidenceApi.saveAiProvider({ kind: d.kind, model: d.model.trim(), ...(url === '' ? {} : { url }), ...(d.key === '' ? {} : { key: d.key }) });
      onChanged();
    });
  };

  const probe = (): void => {
    setTest(null);
    void run('test', async () => {
      try {
        const answer = await evidenceApi.testAiProvider();
        setTest(aiTestWords(answer));
      } catch (caught) {
        setTest({ error: errorMessage(caught) });
      }
    });
  };

  const field = error?.field ?? null;
  const keySet = provider !== null && provider.hasKey && provider.kind === d.kind;
  const placed = ['kind', 'url', 'model', 'key', 'aiEnabled'].some((n) => fieldMatches(field, n));

  return (
    <section className="card settings-card" data-testid="ai-provider-card" aria-labelledby="ai-provider-title">
      <div className="section-head">
        <h2 id="ai-provider-title">AI assessment</h2>
        <span className="muted small" data-testid="ai-provider-stored">{provider === null ? 'no provider' : `${kindLabels[provider.kind]} · ${provider.model}`}</span>
      </div>
      <div className="field">
        <span className="check">
          <input
            id="ai-enabled"
            type="checkbox"
            checked={settings.aiEnabled}
            disabled={!isOwner || busy !== null}
            onChange={(e) => {
              const aiEnabled = e.target.checked;
              void run('switch', async () => { onSettings(await evidenceApi.updateSettings({ aiEnabled })); });
            }}
            data-testid="ai-enabled"
          />
          <label htmlFor="ai-enabled">AI assessment of change reports</label>
        </span>
        {!isOwner && <span className="muted small" data-testid="ai-enabled-reason">Only an owner switches this.</span>}
        <span className="muted small">
          The model receives only the report’s evidence and the rules’ verdict, log samples scrubbed of secrets; at most 30 assessments an hour, each within
          2 minutes, so the report never waits longer.
        </span>
        <FieldError field={field} name="aiEnabled" message={error?.message ?? null} />
      </div>
      <form className="ai-provider-form" onSubmit={save} noValidate data-testid="ai-provider-form">
        <div className="field">
          <label htmlFor="ai-kind">Provider</label>
          <select id="ai-kind" value={d.kind} disabled={!canEdit} onChange={(e) => { setD((x) => ({ ...x, kind: e.target.value as AiProviderKind })); }} data-testid="ai-provider-kind">
            {aiProviderKinds.map((k) => (
              <option key={k} value={k}>{kindLabels[k]}</option>
            ))}
          </select>
          <FieldError field={field} name="kind" message={error?.message ?? null} />
        </div>
        <div className="field">
          <label htmlFor="ai-url">URL</label>
          <input id="ai-url" type="text" className="mono-input" disabled={!canEdit} placeholder={urlPlaceholders[d.kind]} value={d.url} onChange={(e) => { setD((x) => ({ ...x, url: e.target.value })); }} aria-invalid={fieldMatches(field, 'url')} data-testid="ai-provider-url" />
          <FieldError field={field} name="url" message={error?.message ?? null} />
        </div>
        <div className="field">
          <label htmlFor="ai-model">Model</label>
          <input id="ai-model" type="text" className="mono-input" disabled={!canEdit} value={d.model} onChange={(e) => { setD((x) => ({ ...x, model: e.target.value })); }} aria-invalid={fieldMatches(field, 'model')} data-testid="ai-provider-model" />
          <FieldError field={field} name="model" message={error?.message ?? null} />
        </div>
        <div className="field">
          <label htmlFor="ai-key">API key</label>
          <input id="ai-key" type="password" autoComplete="off" disabled={!canEdit} placeholder={keySet ? 'set — type to replace' : ''} value={d.key} onChange={(e) => { setD((x) => ({ ...x, key: e.target.value })); }} aria-invalid={fieldMatches(field, 'key')} data-testid="ai-provider-key" />
          {keySet && <span className="muted small" data-testid="ai-provider-key-set">A key is set; leave blank to keep it.</span>}
          <FieldError field={field} name="key" message={error?.message ?? null} />
        </div>
        {error !== null && !placed && <ErrorBanner message={error.message} testId="ai-provider-error" />}
        {test !== null && <AlertTestResult result={test} testId="ai-provider-test-result" />}
        {canEdit && (
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy !== null} data-testid="ai-provider-save">
              {busy === 'save' ? 'Saving…' : 'Save the provider'}
            </button>
            <button type="button" className="btn" disabled={busy !== null || provider === null} title={provider === null ? 'Save a provider first' : 'Ask the saved provider a small question'} onClick={probe} data-testid="ai-provider-test">
              {busy === 'test' ? 'Testing…' : 'Test'}
            </button>
            {provider !== null && (
              <button type="button" className="btn btn-danger-outline" disabled={busy !== null} onClick={() => void run('remove', async () => { await evidenceApi.removeAiProvider(); onChanged(); })} data-testid="ai-provider-remove">
                Remove the provider
              </button>
            )}
          </div>
        )}
      </form>
    </section>
  );
}
