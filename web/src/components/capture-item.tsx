import { useEffect, useState } from 'react';
import { rollbackApi } from '../api/rollback-client';
import type { Capture } from '../api/rollback-types';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc, shortHash } from '../lib/format';
import { methodLabels, restorableHint, sizeWords } from '../lib/rollback-format';
import { CaptureMarks } from './capture-marks';

type Artifact = { status: 'closed' } | { status: 'loading' } | { status: 'open'; text: string } | { status: 'error'; message: string };

// One before-state capture: how it was taken and what it holds, how good it is as evidence
// (complete, existed before, restorable), its hash, who sent it and when; an artifact opens on Show.
export function CaptureItem({ changeId, capture }: { changeId: string; capture: Capture }) {
  const [artifact, setArtifact] = useState<Artifact>({ status: 'closed' });
  const loading = artifact.status === 'loading';

  useEffect(() => {
    if (!loading) return;
    const abort = new AbortController();
    rollbackApi.capture(changeId, capture.id, abort.signal).then(
      (c) => { if (!abort.signal.aborted) setArtifact({ status: 'open', text: c.artifact ?? '' }); },
      (caught: unknown) => { if (!abort.signal.aborted && !isAbort(caught)) setArtifact({ status: 'error', message: errorMessage(caught) }); },
    );
    return () => { abort.abort(); };
  }, [changeId, capture.id, loading]);

  const c = capture;
  const shown = artifact.status === 'open' || loading;
  return (
    <li className="capture" data-testid="capture" data-capture-id={c.id} data-method={c.method}>
      <div className="capture-head">
        <span className="strong">{methodLabels[c.method]}</span>
        {c.previousVersion !== null && <span className="mono" data-testid="capture-version">{c.previousVersion}</span>}
        {c.previousCommit !== null && <span className="mono" data-testid="capture-commit">{c.previousCommit}</span>}
        {c.method === 'artifact' && (
          <span data-testid="capture-artifact-name">
            <span className="mono">{c.artifactName ?? 'unnamed'}</span>
            <span className="muted small"> · {c.artifactType === 'json' ? 'JSON' : 'text'}, {sizeWords(c.sizeBytes)}</span>
          </span>
        )}
        {c.method === 'artifact' && (
          <button
            type="button"
            className="btn btn-small capture-show"
            aria-expanded={shown}
            onClick={() => { setArtifact(shown ? { status: 'closed' } : { status: 'loading' }); }}
            data-testid="capture-show"
          >
            {shown ? 'Hide' : 'Show'}
          </button>
        )}
      </div>
      <CaptureMarks completeness={c.completeness} prestateStatus={c.prestateStatus} restorable={c.restorable} restorableTitle={c.restorable ? restorableHint.yes : restorableHint.no} />
      <div className="muted small capture-meta">
        sha256 <span className="mono" title={c.sha256} data-testid="capture-sha">{shortHash(c.sha256)}</span> · by{' '}
        <span data-testid="capture-by">{c.capturedBy.name}</span> ({c.source === 'pipeline' ? 'pipeline' : 'a person'}) at <span className="mono">{formatUtc(c.capturedAt)}</span>
      </div>
      {loading && <p className="muted small">Loading the artifact…</p>}
      {artifact.status === 'error' && <p className="field-error small" role="alert">{artifact.message}</p>}
      {artifact.status === 'open' && (
        <pre className="json capture-artifact" data-testid="capture-artifact">
          {artifact.text}
        </pre>
      )}
    </li>
  );
}
