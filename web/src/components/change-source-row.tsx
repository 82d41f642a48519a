import { useState } from 'react';
import { observedApi } from '../api/observed-client';
import { pullKinds, type ChangeSource, type SourceTest, type SourceWithSecret } from '../api/observed-types';
import { errorMessage } from '../lib/errors';
import { formatUtc, pluralize } from '../lib/format';
import { sourceLabel } from '../lib/record-format';
import { CopyButton } from './copy-button';

type Props = {
  source: ChangeSource;
  canEdit: boolean;
  onChanged: () => void;
  onSecret: (made: SourceWithSecret, why: 'rotated') => void;
};

const countNames = ['recorded', 'duplicate', 'noise', 'capped', 'denied', 'receipts'] as const;
const countTitles: Record<(typeof countNames)[number], string> = {
  recorded: 'Observed changes recorded',
  duplicate: 'Events seen before: their id was already recorded',
  noise: 'Left out by the noise rules: plumbing identities, objects a pipeline spawns, dry runs, repeated writes of one object',
  capped: 'Over a cap: 50 objects per cluster · service account · hour, 500 rows a tick',
  denied: 'Writes the source refused: recorded as denied attempts',
  receipts: 'Writes that carried a planned change’s id: folded into that change as its receipt, not recorded as a row',
};

type Busy = null | 'testing' | 'rotating' | 'pulling' | 'removing';

// One connection: the endpoint to paste into the sender, what has arrived, and the actions —
// Test (the answer in words), a new secret, the manual pull of a pull kind, delete with confirm.
export function ChangeSourceRow({ source: s, canEdit, onChanged, onSecret }: Props) {
  const [busy, setBusy] = useState<Busy>(null);
  const [tested, setTested] = useState<SourceTest | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [minutes, setMinutes] = useState('60');
  const pulls = pullKinds.includes(s.kind);

  const run = async (what: Busy, act: () => Promise<void>): Promise<void> => {
    setBusy(what);
    setError(null);
    setSaid(null);
    try {
      await act();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(null);
    }
  };

  const test = (): Promise<void> => run('testing', async () => { setTested(null); setTested(await observedApi.testSource(s.id)); });
  const rotate = (): Promise<void> => run('rotating', async () => { onSecret(await observedApi.rotateSecret(s.id), 'rotated'); onChanged(); });
  const remove = (): Promise<void> => run('removing', async () => { await observedApi.removeSource(s.id); onChanged(); });
  const pull = (): Promise<void> =>
    run('pulling', async () => {
      const answer = await observedApi.pullSource(s.id, Number(minutes));
      const recorded = answer.counts?.recorded ?? undefined;
      setSaid(answer.message ?? (recorded === undefined ? 'Pulled.' : `Pulled the last ${minutes} minutes: ${pluralize(recorded, 'change')} recorded.`));
      onChanged();
    });

  return (
    <li className="source-row" data-testid="source-row" data-id={s.id} data-kind={s.kind}>
      <div className="source-row-head">
        <strong data-testid="source-row-name">{s.name}</strong> <span className="pill pill-source">{sourceLabel(s.kind)}</span>
        <span className="muted small" data-testid="source-last-event">
          {s.lastEventAt === null ? 'No event has arrived yet' : `Last event ${formatUtc(s.lastEventAt)}`}
        </span>
      </div>
      <div className="source-endpoint">
        <span className="muted small">Endpoint to paste</span>
        <code className="mono small" data-testid="source-endpoint">{s.endpoint}</code>
        <CopyButton value={s.endpoint} label="Copy" testId="source-endpoint-copy" />
      </div>
      <ul className="source-counts" data-testid="source-counts">
        {countNames.map((c) => (
          <li key={c} title={countTitles[c]} data-testid="source-count" data-count={c}>
            <span className="source-count-value">{s.counts[c].toLocaleString('en-US')}</span> {c === 'receipts' && s.counts[c] === 1 ? 'receipt' : c}
          </li>
        ))}
      </ul>
      {pulls && (
        <p className="muted small" data-testid="source-pull-state">
          Scheduled pull: {!s.hasCredential ? 'off — no credential' : !s.pullEnabled ? 'off for this connection' : s.notPulledBecause != null ? `off — ${s.notPulledBecause}` : 'on'}
          {s.lastPullAt !== null && ` · last pull ${formatUtc(s.lastPullAt)}`}
          {s.lastPullError !== null && <span className="field-error"> · {s.lastPullError}</span>}
        </p>
      )}
      {tested !== null && (
        <div className={tested.ok ? 'banner banner-ok source-test' : 'banner banner-warn source-test'} role="status" data-testid="source-test-result" data-ok={String(tested.ok)}>
          <span className="banner-text">{tested.message}</span>
          {tested.curl !== undefined && tested.curl !== null && (
            <div className="source-curl">
              <code className="mono small" data-testid="source-test-curl">{tested.curl}</code>
              <CopyButton value={tested.curl} label="Copy the curl line" />
            </div>
          )}
        </div>
      )}
      {said !== null && <p className="muted small" role="status" data-testid="source-said">{said}</p>}
      {error !== null && <p className="field-error small" role="alert" data-testid="source-row-error">{error}</p>}
      {busy === 'testing' && <p className="muted small">Testing…</p>}
      <div className="source-actions">
        <button type="button" className="btn btn-small" onClick={() => void test()} disabled={busy !== null} data-testid="source-test">
          Test
        </button>
        {canEdit && pulls && (
          <span className="source-pull">
            <label htmlFor={`pull-${s.id}`} className="small">Pull the last</label>
            <input id={`pull-${s.id}`} type="number" min={1} max={10080} value={minutes} onChange={(e) => { setMinutes(e.target.value); }} data-testid="source-pull-minutes" />
            <span className="small">minutes</span>
            <button type="button" className="btn btn-small" onClick={() => void pull()} disabled={busy !== null || !s.hasCredential} data-testid="source-pull">
              Pull now
            </button>
          </span>
        )}
        {canEdit && (
          <>
            <button type="button" className="btn btn-small" onClick={() => void rotate()} disabled={busy !== null} data-testid="source-rotate">
              New secret
            </button>
            {confirming ? (
              <>
                <span className="small">Delete {s.name}? Its recorded changes stay.</span>
                <button type="button" className="btn btn-small btn-danger" onClick={() => void remove()} disabled={busy !== null} data-testid="source-delete-confirm">
                  Delete it
                </button>
                <button type="button" className="btn btn-small" onClick={() => { setConfirming(false); }} data-testid="source-delete-cancel">
                  Keep it
                </button>
              </>
            ) : (
              <button type="button" className="btn btn-small btn-danger-outline" onClick={() => { setConfirming(true); }} data-testid="source-delete">
                Delete
              </button>
            )}
          </>
        )}
      </div>
    </li>
  );
}
