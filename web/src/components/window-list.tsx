import { useState } from 'react';
import { governanceApi } from '../api/governance-client';
import type { ChangeWindow } from '../api/governance-types';
import { errorMessage } from '../lib/errors';
import { scheduleText, scopeText } from '../lib/governance-format';
import { WindowKindChip } from './governance-badges';

type Props = { windows: readonly ChangeWindow[]; canManage: boolean; onDeleted: (text: string) => void };

// The organisation's windows: kind in words, schedule, what they apply to, where they came from
// (added here, or an iCalendar feed), and Delete (asked twice) for owners and admins.
export function WindowList({ windows, canManage, onDeleted }: Props) {
  return (
    <table className="data-table window-table" data-testid="window-table">
      <thead>
        <tr>
          <th scope="col">Window</th>
          <th scope="col">Kind</th>
          <th scope="col">Schedule</th>
          <th scope="col">Applies to</th>
          <th scope="col">Source</th>
          {canManage && (
            <th scope="col" className="col-actions">
              <span className="visually-hidden">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {windows.map((w) => (
          <WindowRow key={w.id} w={w} canManage={canManage} onDeleted={onDeleted} />
        ))}
      </tbody>
    </table>
  );
}

function WindowRow({ w, canManage, onDeleted }: { w: ChangeWindow; canManage: boolean; onDeleted: (text: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await governanceApi.deleteWindow(w.id);
      onDeleted(`Deleted the ${w.kind === 'freeze' ? 'freeze' : 'change window'} “${w.name}”.`);
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  };

  return (
    <tr className={confirming ? 'confirming' : undefined} data-testid="window-row" data-window-id={w.id} data-name={w.name} data-kind={w.kind}>
      <td>
        <span className="strong">{w.name}</span>
        {w.description !== null && w.description !== '' && <div className="muted small">{w.description}</div>}
      </td>
      <td className="nowrap">
        <WindowKindChip kind={w.kind} />
      </td>
      <td className="small" data-testid="window-schedule">
        <span className="mono">{scheduleText(w.schedule)}</span>
      </td>
      <td className="small" data-testid="window-scope">{scopeText(w.scope)}</td>
      <td className="small">{w.feed === null ? <span className="muted">added here</span> : <span title={w.sourceUid ?? undefined}>feed <span className="mono">{w.feed}</span></span>}</td>
      {canManage && (
        <td className="col-actions">
          <div className="window-actions">
            {!confirming ? (
              <button type="button" className="btn btn-small btn-danger-outline" onClick={() => { setConfirming(true); setError(null); }} data-testid="window-delete">
                Delete
              </button>
            ) : (
              <>
                <button type="button" className="btn btn-small btn-danger" disabled={busy} onClick={() => void remove()} data-testid="window-delete-confirm">
                  {busy ? 'Deleting…' : 'Delete it'}
                </button>
                <button type="button" className="btn btn-small" disabled={busy} onClick={() => { setConfirming(false); setError(null); }}>
                  Keep
                </button>
              </>
            )}
          </div>
          {error !== null && (
            <div className="field-error small" role="alert" data-testid="window-delete-error">
              {error}
            </div>
          )}
        </td>
      )}
    </tr>
  );
}
