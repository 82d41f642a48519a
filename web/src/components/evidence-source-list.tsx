import { useState } from 'react';
import { evidenceApi } from '../api/evidence-client';
import type { EvidenceSource } from '../api/types';
import { errorMessage } from '../lib/errors';
import { authLabels, sourceKindLabels, sourceTestWords } from '../lib/evidence-sources';
import { AlertTestResult } from './alert-test-result';
import { ErrorBanner } from './error-banner';
import { EvidenceSourceForm } from './evidence-source-form';
import { useRowTests } from './use-row-tests';

type Props = { sources: EvidenceSource[]; canEdit: boolean; onChanged: () => void };

const askSource = async (id: string) => sourceTestWords(await evidenceApi.testSource(id));

// Where a change's evidence comes from: Prometheus for RED, Loki, Elasticsearch / OpenSearch or
// our own OTLP intake for logs (alerts come from the alert history). Each can be switched off
// without losing its settings, and each has a Test that asks it and says the answer in words.
export function EvidenceSourceList({ sources, canEdit, onChanged }: Props) {
  const [editing, setEditing] = useState<{ stored: EvidenceSource | null } | null>(null);
  const { tests, test } = useRowTests(askSource);
  const [removing, setRemoving] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);

  const act = async (what: () => Promise<unknown>): Promise<void> => {
    setListError(null);
    try {
      await what();
      setRemoving(null);
      onChanged();
    } catch (caught) {
      setListError(errorMessage(caught));
    }
  };

  return (
    <section className="card settings-card" data-testid="evidence-sources" aria-labelledby="evidence-sources-title">
      <div className="section-head">
        <h2 id="evidence-sources-title">Evidence sources</h2>
        {canEdit && editing === null && (
          <button type="button" className="btn btn-small" onClick={() => { setEditing({ stored: null }); }} data-testid="evidence-source-add">
            Add a source
          </button>
        )}
      </div>
      <p className="muted small">
        Alerts always come from the alert history (Settings → Alert sources). A part with no source is reported as “not measured”, never as 0.
      </p>
      <ErrorBanner message={listError} testId="evidence-sources-error" />
      {sources.length === 0 && editing === null && (
        <p className="muted small" data-testid="evidence-sources-empty">No metrics or log source yet: reports judge from alerts alone.</p>
      )}
      <ul className="item-list">
        {sources.map((s) => {
          const result = tests[s.id];
          return (
            <li key={s.id} className="item-row" data-testid="evidence-source-row" data-id={s.id} data-kind={s.kind} data-enabled={String(s.enabled)}>
              <div className="item-main">
                <strong data-testid="evidence-source-title">{s.name}</strong> <span className="pill">{sourceKindLabels[s.kind]}</span>
                {!s.enabled && <span className="pill pill-off" data-testid="evidence-source-off">off</span>}
                {s.url !== null && <div><code className="mono small">{s.url}</code></div>}
                {s.kind !== 'otlp' && (
                  <div className="muted small">
                    Auth: {authLabels[s.authKind]}
                    {s.authHint !== null && <span className="mono"> {s.authHint}</span>}
                    {s.authKind !== 'none' && <span data-testid="evidence-source-secret"> · secret {s.hasSecret ? 'set' : 'missing'}</span>}
                  </div>
                )}
                {result === 'testing' && <p className="muted small">Asking it…</p>}
                {result !== undefined && result !== 'testing' && <AlertTestResult result={result} testId="evidence-source-test-result" />}
              </div>
              {canEdit && (
                <div className="item-actions">
                  <button type="button" className="btn btn-small" onClick={() => void test(s.id)} disabled={result === 'testing'} data-testid="evidence-source-test">
                    Test
                  </button>
                  <button type="button" className="btn btn-small" onClick={() => void act(() => evidenceApi.updateSource(s.id, { enabled: !s.enabled }))} data-testid="evidence-source-toggle">
                    {s.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button type="button" className="btn btn-small" onClick={() => { setEditing({ stored: s }); }} data-testid="evidence-source-edit">
                    Edit
                  </button>
                  {removing === s.id ? (
                    <button type="button" className="btn btn-small btn-danger" onClick={() => void act(() => evidenceApi.removeSource(s.id))} data-testid="evidence-source-remove-confirm">
                      Delete it
                    </button>
                  ) : (
                    <button type="button" className="btn btn-small btn-danger-outline" onClick={() => { setRemoving(s.id); }} data-testid="evidence-source-remove">
                      Delete
                    </button>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {editing !== null && (
        <EvidenceSourceForm
          stored={editing.stored}
          onCancel={() => { setEditing(null); }}
          onSaved={() => { setEditing(null); onChanged(); }}
        />
      )}
    </section>
  );
}
