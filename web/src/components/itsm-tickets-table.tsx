import type { ItsmTicket } from '../api/unmanaged-types';
import { formatUtcMinute } from '../lib/format';

const systemNames: Record<ItsmTicket['system'], string> = { servicenow: 'ServiceNow', jira: 'Jira' };

function Window({ t }: { t: ItsmTicket }) {
  if (t.plannedStart === null && t.plannedEnd === null) return <span className="muted">none</span>;
  return <>{formatUtcMinute(t.plannedStart)} – {formatUtcMinute(t.plannedEnd)}</>;
}

// The change tickets the ITSM tools sent, newest first: each one's key (linked to the tool), state,
// planned window, items, and whether it can vouch for a write, and why not.
export function ItsmTicketsTable({ tickets }: { tickets: readonly ItsmTicket[] }) {
  return (
    <section className="card card-flush unmanaged-card" data-testid="itsm-tickets" aria-labelledby="itsm-tickets-title">
      <h2 id="itsm-tickets-title" className="card-title">Recent change tickets</h2>
      {tickets.length === 0 ? (
        <p className="muted pad" data-testid="itsm-tickets-empty">No change ticket has arrived yet. Once your ITSM tool posts them, they are listed here, newest first.</p>
      ) : (
        <table className="data-table itsm-tickets-table">
          <thead>
            <tr>
              <th scope="col">Ticket</th>
              <th scope="col">State</th>
              <th scope="col">Window (UTC)</th>
              <th scope="col">Items</th>
              <th scope="col">Counts</th>
              <th scope="col">Received (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {tickets.map((t) => (
              <tr key={`${t.system}:${t.key}`} data-testid="itsm-ticket" data-key={t.key} data-verified={String(t.verified)}>
                <td className="itsm-ticket-cell">
                  {t.link !== null ? (
                    <a className="mono" href={t.link} target="_blank" rel="noreferrer noopener" data-testid="itsm-ticket-key">{t.key}</a>
                  ) : (
                    <span className="mono" data-testid="itsm-ticket-key">{t.key}</span>
                  )}{' '}
                  <span className="pill pill-source">{systemNames[t.system]}</span>
                  <div className="small itsm-ticket-title">{t.title}</div>
                  {t.assignmentGroup !== null && <div className="muted small">{t.assignmentGroup}</div>}
                </td>
                <td className="nowrap">{t.state ?? <span className="muted">none</span>}{t.approval !== null && <div className="muted small">approval: {t.approval}</div>}</td>
                <td className="mono small nowrap"><Window t={t} /></td>
                <td className="small">{t.items.length > 0 ? t.items.join(', ') : <span className="muted">none</span>}</td>
                <td data-testid="itsm-ticket-counts">
                  {t.verified ? (
                    <span className="itsm-counts-yes">yes</span>
                  ) : (
                    <>
                      <span className="itsm-counts-no">no</span>
                      {t.unverifiedReason !== null && <div className="muted small">{t.unverifiedReason}</div>}
                    </>
                  )}
                </td>
                <td className="mono small nowrap">{formatUtcMinute(t.receivedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
