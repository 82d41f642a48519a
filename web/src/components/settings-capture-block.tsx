import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { SettingsCapture } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { shortHash } from '../lib/format';
import { CopyButton } from './copy-button';
import { CaptureMarks } from './capture-marks';

type State = { status: 'loading' } | { status: 'ready'; capture: SettingsCapture } | { status: 'error'; message: string };

/** Whether an audit action is a settings write, as the server names them. */
export const isSettingsWrite = (action: string): boolean => action.startsWith('settings.') || action.endsWith('_settings.updated');

// A settings write as a before-state capture, under the event's diff: how good the earlier values
// are as evidence (complete, existed before, restorable), their SHA-256, and a copy of them to
// write back; or why the ledger does not hold them.
export function SettingsCaptureBlock({ seq }: { seq: number }) {
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    const abort = new AbortController();
    setState({ status: 'loading' });
    api.settingsCapture(seq, abort.signal).then(
      (capture) => { if (!abort.signal.aborted) setState({ status: 'ready', capture }); },
      (caught: unknown) => { if (!abort.signal.aborted && !isAbort(caught)) setState({ status: 'error', message: errorMessage(caught) }); },
    );
    return () => { abort.abort(); };
  }, [seq]);

  return (
    <section className="settings-capture" aria-label="Before-state capture" data-testid="event-capture">
      <h3 className="small strong">Before-state capture</h3>
      {state.status === 'loading' && <p className="muted small">Loading…</p>}
      {state.status === 'error' && <p className="field-error small" role="alert">{state.message}</p>}
      {state.status === 'ready' && <CaptureBody c={state.capture} />}
    </section>
  );
}

function CaptureBody({ c }: { c: SettingsCapture }) {
  return (
    <div data-restorable={String(c.restorable)}>
      <CaptureMarks completeness={c.completeness} prestateStatus={c.prestateStatus} restorable={c.restorable} />
      {c.note !== null && <p className="muted small" data-testid="capture-note">{c.note}</p>}
      {c.before !== null && (
        <p className="muted small capture-meta">
          {c.restorable ? 'Writing these values back with the same settings page restores them. ' : ''}
          sha256 <span className="mono" title={c.sha256 ?? ''} data-testid="capture-sha">{shortHash(c.sha256 ?? '')}</span>
          {' '}<CopyButton value={JSON.stringify(c.before, null, 2)} label="Copy the earlier values" />
        </p>
      )}
    </div>
  );
}
