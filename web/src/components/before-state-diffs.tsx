import { useEffect, useMemo, useState } from 'react';
import { rollbackApi } from '../api/rollback-client';
import type { Capture, FlagBefore } from '../api/rollback-types';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc } from '../lib/format';
import { jsonDiff, textDiff } from '../lib/text-diff';
import { DiffView } from './diff-view';

type Pair = { status: 'loading' } | { status: 'ready'; older: Capture; newer: Capture } | { status: 'error'; message: string };

const label = (c: Capture): string => `${c.artifactName ?? 'artifact'} (${formatUtc(c.capturedAt)})`;

// What changed between the two latest artifacts of the change: both are read, then compared line by line.
export function ArtifactDiff({ changeId, older, newer }: { changeId: string; older: Capture; newer: Capture }) {
  const [pair, setPair] = useState<Pair>({ status: 'loading' });

  useEffect(() => {
    const abort = new AbortController();
    setPair({ status: 'loading' });
    Promise.all([rollbackApi.capture(changeId, older.id, abort.signal), rollbackApi.capture(changeId, newer.id, abort.signal)]).then(
      ([a, b]) => { if (!abort.signal.aborted) setPair({ status: 'ready', older: a, newer: b }); },
      (caught: unknown) => { if (!abort.signal.aborted && !isAbort(caught)) setPair({ status: 'error', message: errorMessage(caught) }); },
    );
    return () => { abort.abort(); };
  }, [changeId, older.id, newer.id]);

  const diff = useMemo(() => (pair.status === 'ready' ? textDiff(pair.older.artifact ?? '', pair.newer.artifact ?? '') : null), [pair]);

  return (
    <div className="before-state-block" data-testid="artifact-diff">
      <h3>Between the last two artifacts</h3>
      {pair.status === 'loading' && <p className="muted small">Reading both artifacts…</p>}
      {pair.status === 'error' && <p className="field-error small" role="alert">{pair.message}</p>}
      {diff !== null && <DiffView diff={diff} before={label(older)} after={label(newer)} testId="artifact-diff-view" />}
    </div>
  );
}

// Each flag write the change made, its value before and after as pretty JSON: the before-state
// changeledger keeps itself, and what its rollback writes back.
export function FlagWriteDiffs({ writes }: { writes: readonly FlagBefore[] }) {
  return (
    <div className="before-state-block" data-testid="flag-writes">
      <h3>Flag writes of this change</h3>
      {writes.map((w) => (
        <div key={w.hash} className="flag-write" data-testid="flag-write" data-flag={w.flag} data-env={w.env}>
          <div className="small">
            <span className="mono strong">{w.flag}</span> in <span className="mono">{w.env}</span>
            <span className="muted"> at {formatUtc(w.at)}</span>
          </div>
          <DiffView diff={jsonDiff(w.from, w.to)} before="before" after="after" testId="flag-write-diff" />
        </div>
      ))}
    </div>
  );
}
