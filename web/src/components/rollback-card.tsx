import { useEffect, useState } from 'react';
import { rollbackApi } from '../api/rollback-client';
import type { Rollback } from '../api/rollback-types';
import type { Change } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc, pluralize, sentence } from '../lib/format';
import { canRelease, decisionLabels, generatedByWords, ranStatuses, rollbackKindLabels, rollbackStateLabels } from '../lib/rollback-format';
import { ErrorBanner } from './error-banner';
import { Mark, type MarkTone } from './rollback-badges';
import { RollbackCompleteForm } from './rollback-complete-form';
import { RollbackReleaseDialog } from './rollback-release-dialog';
import './rollback-card.css';

type Loaded = { status: 'loading' } | { status: 'ready'; rollback: Rollback } | { status: 'error'; message: string };

type Props = {
  change: Change;
  isApprover: boolean;
  canWrite: boolean;
  names: ReadonlyMap<string, string>;
  refresh: number;
  onDone: (text: string) => void;
};

const stateTone: Record<NonNullable<Rollback['state']> | 'none', MarkTone> = { none: 'neutral', requested: 'warn', rolled_back: 'ok', failed: 'bad' };
const decisionTone: Record<NonNullable<Rollback['decision']>['decision'], MarkTone> = { execute: 'ok', escalate: 'warn', skip: 'neutral' };

// The way back from the change: its kind and who wrote it, the plan as numbered steps, what
// became of it (requested, rolled back, failed; who released it), and the sweep's one decision
// with its reason. A change that ran offers Release; a requested rollback is reported done or failed.
export function RollbackCard({ change, isApprover, canWrite, names, refresh, onDone }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);
  const [releasing, setReleasing] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    rollbackApi.rollback(change.id, abort.signal).then(
      (rollback) => { if (!abort.signal.aborted) setLoaded({ status: 'ready', rollback }); },
      (caught: unknown) => { if (!abort.signal.aborted && !isAbort(caught)) setLoaded({ status: 'error', message: errorMessage(caught) }); },
    );
    return () => { abort.abort(); };
  }, [change.id, refresh, reloads]);

  const r = loaded.status === 'ready' ? loaded.rollback : null;
  const state = r?.state ?? null;
  const nameOf = (id: string | null, email: string | null): string => (id !== null ? names.get(id) : undefined) ?? email ?? 'someone';
  // Every approver who released it (an L3 rollback has two), else who ran it: the sweep.
  const releasers = r === null ? [] : r.releases.length > 0 ? r.releases.map((x) => nameOf(x.userId, null)) : (r.releasedBy ?? []).map((b) => (b.kind === 'sweep' ? 'the rollback sweep' : nameOf(b.id, b.email)));
  const waiting = r !== null && state === null && r.releases.length > 0 && r.releases.length < r.releasesNeeded;

  return (
    <section className="card rollback-card" aria-labelledby="rollback-title" data-testid="rollback-card" data-state={state ?? 'none'}>
      <div className="section-head">
        <h2 id="rollback-title">Rollback</h2>
        {r !== null && (
          <Mark tone={stateTone[state ?? 'none']} testId="rollback-state" state={state ?? 'none'}>
            {rollbackStateLabels[state ?? 'none']}
          </Mark>
        )}
      </div>
      <ErrorBanner message={loaded.status === 'error' ? loaded.message : null} testId="rollback-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {loaded.status === 'loading' && <p className="muted small">Loading…</p>}
      {r !== null && (
        <>
          <dl className="kv kv-wide">
            <dt>Way back</dt>
            <dd>
              <span className="strong" data-testid="rollback-kind" data-kind={r.path.kind}>{rollbackKindLabels[r.path.kind]}</span>
              <span className="muted small" data-testid="rollback-generated-by"> · {generatedByWords[r.path.generatedBy]}</span>
            </dd>
            <dt>Plan</dt>
            <dd>
              <ol className="rollback-steps" data-testid="rollback-steps">
                {r.path.steps.map((step, i) => <li key={i} data-testid="rollback-step">{step}</li>)}
              </ol>
            </dd>
            {r.requestedAt !== null && (
              <>
                <dt>Released</dt>
                <dd data-testid="rollback-released">
                  {formatUtc(r.requestedAt)}
                  {releasers.length > 0 && <span className="muted small"> by {releasers.join(' and ')}</span>}
                  {r.completedAt !== null && <div className="small">{state === 'failed' ? 'Reported failed' : 'Done'} at {formatUtc(r.completedAt)}</div>}
                </dd>
              </>
            )}
            {waiting && (
              <>
                <dt>Releases</dt>
                <dd data-testid="rollback-waiting">
                  Waits for a second approver ({r.releases.length} of {r.releasesNeeded}): released by {r.releases.map((x) => nameOf(x.userId, null)).join(', ')}
                </dd>
              </>
            )}
            {(r.decision !== null || ranStatuses.includes(change.status)) && (
              <>
                <dt>Sweep</dt>
                <dd data-testid="rollback-decision" data-decision={r.decision?.decision ?? 'none'}>
                  {r.decision === null ? (
                    <span className="muted small">Not decided: the automatic sweep looks only at a change that failed (outcome partial or rolled back, or an outage or significant verdict).</span>
                  ) : (
                    <>
                      <Mark tone={decisionTone[r.decision.decision]} testId="rollback-decision-chip" state={r.decision.decision}>
                        {decisionLabels[r.decision.decision]}
                      </Mark>{' '}
                      <span data-testid="rollback-decision-reason">{sentence(r.decision.reason)}</span>
                      <div className="muted small">decided {formatUtc(r.decision.at)}</div>
                    </>
                  )}
                </dd>
              </>
            )}
          </dl>
          {canRelease(change.status, state) && (
            <div className="request-actions rollback-actions">
              <button
                type="button"
                className="btn btn-danger-outline"
                onClick={() => { setReleasing(true); }}
                title={isApprover ? undefined : 'Only the organisation’s designated approvers release a rollback'}
                data-testid="rollback-release"
              >
                Release rollback…
              </button>
              <span className="muted small" data-testid="rollback-release-hint">
                {!isApprover
                  ? 'Only the designated approvers release a rollback.'
                  : r.releasesNeeded > 1
                    ? `An L3 change: ${pluralize(r.releasesNeeded, 'distinct approver')} release it.`
                    : 'A designated approver releases it.'}
              </span>
            </div>
          )}
          {state === 'requested' && canWrite && <RollbackCompleteForm changeId={change.id} onDone={onDone} />}
          {releasing && (
            <RollbackReleaseDialog
              change={change}
              rollback={r}
              onClose={() => { setReleasing(false); }}
              onReleased={(text) => {
                setReleasing(false);
                onDone(text);
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
