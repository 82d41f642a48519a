import type { AlertView } from '../api/types';
import { alertSince, safeExternalUrl } from '../lib/alert-format';
import { AlertStateBadge, HeldBadge, SourceLink } from './alert-badges';
import './alert-table.css';

type Props = {
  alerts: readonly AlertView[];
  selected: string | null;
  onSelect: (fingerprint: string) => void;
};

// Newest first, as the server orders them. A row opens the alert's history beside the list; the
// Held badge goes to the change and the source link to the page the alert came from.
export function AlertTable({ alerts, selected, onSelect }: Props) {
  return (
    <table className="data-table alert-table" data-testid="alert-table">
      <thead>
        <tr>
          <th scope="col">Alert</th>
          <th scope="col">State</th>
          <th scope="col">Hold</th>
          <th scope="col">Source</th>
        </tr>
      </thead>
      <tbody>
        {alerts.map((a) => {
          const url = safeExternalUrl(a.generatorURL);
          const isSelected = a.fingerprint === selected;
          return (
            <tr
              key={a.fingerprint}
              className={isSelected ? 'clickable selected' : 'clickable'}
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('a') === null) onSelect(a.fingerprint);
              }}
              data-testid="alert-row"
              data-fingerprint={a.fingerprint}
              data-state={a.state}
              aria-selected={isSelected}
            >
              <td className="alert-subject-cell">
                <button type="button" className="link-button alert-subject" onClick={() => { onSelect(a.fingerprint); }} data-testid="alert-subject">
                  {a.subjectLabel}
                </button>
                {a.subject.kind === 'unmapped' && (
                  <div className="muted small" data-testid="alert-unmapped">
                    No catalogue entity matches its labels: recorded, never held.
                  </div>
                )}
              </td>
              <td className="alert-state-cell">
                <AlertStateBadge state={a.state} /> <span className="muted small" data-testid="alert-since">{alertSince(a)}</span>
              </td>
              <td className={a.heldBy === null ? 'alert-hold-cell alert-hold-none' : 'alert-hold-cell'}>
                {a.heldBy === null ? <span className="muted small">—</span> : <HeldBadge heldBy={a.heldBy} />}
              </td>
              <td className="nowrap">
                {url === null ? <span className="muted small">no link</span> : <SourceLink url={url} />}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
