import type { Change } from '../api/types';
import { formatWindow, personName, pipelineRun } from '../lib/change-format';
import { ChangeStatusChip, CriticalityChip, ReportChips } from './change-badges';
import { Link, useRouter } from './router';
import './change-table.css';

export function changeHref(id: string, approve = false): string {
  return `/changes/${encodeURIComponent(id)}${approve ? '?approve=1' : ''}`;
}

// Newest window first, as the server orders them. A row opens its change; the id and the
// title are real links so they open in a new tab too.
export function ChangeTable({ changes }: { changes: readonly Change[] }) {
  const { navigate } = useRouter();
  return (
    <table className="data-table change-table" data-testid="change-table">
      <thead>
        <tr>
          <th scope="col">Change</th>
          <th scope="col">Title</th>
          <th scope="col">Status</th>
          <th scope="col">Criticality</th>
          <th scope="col">Impact</th>
          <th scope="col">Window (UTC)</th>
          <th scope="col">Requester</th>
          <th scope="col">Pipeline run</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => {
          const run = pipelineRun(c);
          return (
            <tr
              key={c.id}
              className="clickable"
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('a') === null) navigate(changeHref(c.id));
              }}
              data-testid="change-row"
              data-change-id={c.id}
              data-status={c.status}
            >
              <td className="nowrap">
                <Link to={changeHref(c.id)} className="mono" data-testid="change-link">
                  {c.displayId}
                </Link>
              </td>
              <td className="change-title-cell">
                <Link to={changeHref(c.id)} className="change-title-link" data-testid="change-title">
                  {c.title}
                </Link>
                <div className="muted small ellipsis" title={c.components.map((x) => x.key).join(', ')}>
                  {c.kind} · {c.components.length > 0 ? c.components.map((x) => x.name).join(', ') : c.unresolved.map((u) => u.query).join(', ')}
                </div>
              </td>
              <td className="nowrap">
                <ChangeStatusChip status={c.status} />
              </td>
              <td className="nowrap">
                <CriticalityChip change={c} />
              </td>
              <td className="nowrap" data-testid="change-impacts">
                <ReportChips change={c} />
              </td>
              <td className="mono nowrap small" data-testid="change-window">
                {formatWindow(c.windowStart, c.windowEnd)}
              </td>
              <td className="nowrap" title={c.owner.email}>
                {personName(c.owner)}
                {c.viaTokenId !== null && <span className="pill pill-token change-via">token</span>}
              </td>
              <td className="mono small nowrap" data-testid="change-pipeline">
                {run === null ? (
                  <span className="muted">—</span>
                ) : c.pipeline?.runUrl !== undefined ? (
                  <a href={c.pipeline.runUrl} target="_blank" rel="noreferrer noopener">
                    {run}
                  </a>
                ) : (
                  run
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
