import { useEffect, useState } from 'react';
import { rollbackApi } from '../api/rollback-client';
import type { BeforeState, Capture } from '../api/rollback-types';
import type { Change, ChangeStatus } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { sentence, shortHash } from '../lib/format';
import { ArtifactDiff, FlagWriteDiffs } from './before-state-diffs';
import { BeforeStateForm } from './before-state-form';
import { CaptureItem } from './capture-item';
import { ErrorBanner } from './error-banner';
import './before-state-card.css';

const notStarted: readonly ChangeStatus[] = ['draft', 'scheduled', 'pending_mapping', 'pending_approval', 'approved'];

type Loaded = { status: 'loading' } | { status: 'ready'; answer: BeforeState } | { status: 'error'; message: string };

type Props = { change: Change; canWrite: boolean; refresh: number; onAdded: (text: string) => void };

/** The latest two artifact captures, oldest first; null with fewer than two. */
function lastTwoArtifacts(captures: readonly Capture[]): [Capture, Capture] | null {
  const artifacts = captures.filter((c) => c.method === 'artifact').sort((a, b) => a.capturedAt.localeCompare(b.capturedAt));
  const older = artifacts[artifacts.length - 2];
  const newer = artifacts[artifacts.length - 1];
  return older === undefined || newer === undefined ? null : [older, newer];
}

// What the change's target looked like before it: the rule for this change (said loudly when it
// holds the start), every capture as evidence, the two latest artifacts compared, and the flag
// writes it made with their values before and after. Its owner adds a capture before the start.
export function BeforeStateCard({ change, canWrite, refresh, onAdded }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    rollbackApi.beforeState(change.id, abort.signal).then(
      (answer) => { if (!abort.signal.aborted) setLoaded({ status: 'ready', answer }); },
      (caught: unknown) => { if (!abort.signal.aborted && !isAbort(caught)) setLoaded({ status: 'error', message: errorMessage(caught) }); },
    );
    return () => { abort.abort(); };
  }, [change.id, refresh, reloads]);

  const answer = loaded.status === 'ready' ? loaded.answer : null;
  const missing = answer !== null && answer.need.required && !answer.need.satisfied;
  const pair = answer === null ? null : lastTwoArtifacts(answer.captures);

  return (
    <section className="card before-state" aria-labelledby="before-state-title" data-testid="before-state-card">
      <div className="section-head">
        <h2 id="before-state-title">Before-state</h2>
        {answer?.digest != null && (
          <span className="muted small" title={`The digest of the captures, part of what approvers approve: ${answer.digest}`}>
            digest <span className="mono">{shortHash(answer.digest)}</span>
          </span>
        )}
      </div>
      <ErrorBanner message={loaded.status === 'error' ? loaded.message : null} testId="before-state-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {loaded.status === 'loading' && <p className="muted small">Loading…</p>}
      {answer !== null && (
        <>
          <p
            className={missing ? 'before-state-rule before-state-rule-missing' : 'before-state-rule muted small'}
            role={missing ? 'alert' : undefined}
            data-testid="before-state-rule"
            data-required={String(answer.need.required)}
            data-satisfied={String(answer.need.satisfied)}
          >
            {missing && <strong>Before-state required: </strong>}
            {sentence(answer.need.reason)}
          </p>
          {answer.captures.length === 0 ? (
            <p className="muted small" data-testid="before-state-empty">
              {answer.flagWrites.length === 0
                ? 'No before-state was recorded for this change.'
                : 'No capture was sent: the flag writes below keep their own before-state.'}
            </p>
          ) : (
            <ul className="capture-list" data-testid="capture-list">
              {answer.captures.map((c) => <CaptureItem key={c.id} changeId={change.id} capture={c} />)}
            </ul>
          )}
          {pair !== null && <ArtifactDiff changeId={change.id} older={pair[0]} newer={pair[1]} />}
          {answer.flagWrites.length > 0 && <FlagWriteDiffs writes={answer.flagWrites} />}
          {canWrite && notStarted.includes(change.status) && <BeforeStateForm change={change} onAdded={onAdded} />}
        </>
      )}
    </section>
  );
}
