import type { FlagAuditFilters } from '../api/client';
import type { FlagRecord } from '../api/types';
import { flagHref } from '../lib/flag-format';
import { formatUtc } from '../lib/format';
import { SourceBadge } from './flag-badges';
import { FlagChange } from './flag-change';
import { Link } from './router';
import './flag-audit-table.css';

type Props = {
  items: readonly FlagRecord[];
  onFilter: (filters: FlagAuditFilters) => void;
};

// Fixed columns so a long key, reason or correlation id never widens the page: each
// cell pairs what belongs together (flag + environment, actor + source, approvers +
// correlation), and the change and the reason wrap.
export function FlagAuditTable({ items, onFilter }: Props) {
  return (
    <table className="data-table flag-audit-table" data-testid="flag-audit-table">
      <thead>
        <tr>
          <th scope="col" className="col-time">Time (UTC)</th>
          <th scope="col" className="fa-col-flag">Flag · env</th>
          <th scope="col" className="fa-col-change">Change</th>
          <th scope="col" className="fa-col-actor">Actor · source</th>
          <th scope="col">Reason</th>
          <th scope="col" className="fa-col-approvers" title="Approved by, and the correlation id">
            Approved by
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((record) => (
          <tr
            key={record.seq}
            data-testid="flag-audit-row"
            data-seq={record.seq}
            data-flag={record.flag}
            data-env={record.env ?? ''}
            data-change={record.change}
          >
            <td className="mono nowrap" title={`#${String(record.seq)} ${record.ts}`}>
              {formatUtc(record.ts)}
            </td>
            <td>
              <div className="ellipsis-cell">
                <Link to={flagHref(record.flag)} className="mono" title={record.flag} data-testid="fa-flag">
                  {record.flag}
                </Link>
              </div>
              {record.env === null ? (
                <span className="muted small">all environments</span>
              ) : (
                <button
                  type="button"
                  className="pill pill-env pill-button"
                  onClick={() => { onFilter({ env: record.env ?? '' }); }}
                  title={`Only changes in ${record.env}`}
                  data-testid="fa-env-cell"
                >
                  {record.env}
                </button>
              )}
            </td>
            <td>
              <FlagChange record={record} />
            </td>
            <td title={record.actorDetail.id ?? undefined}>
              <div className="ellipsis-cell">
                {record.actorDetail.id !== null ? (
                  <button
                    type="button"
                    className="link-button actor-name"
                    onClick={() => { onFilter({ actor: record.actorDetail.id ?? '' }); }}
                    title={`Only changes by ${record.actor} (${record.actorDetail.id})`}
                    data-testid="fa-actor-cell"
                  >
                    {record.actor}
                  </button>
                ) : (
                  <span className="actor-name">{record.actor}</span>
                )}
              </div>
              <span className={`pill pill-${record.actorDetail.kind}`}>{record.actorDetail.kind}</span>{' '}
              <SourceBadge source={record.source} />
            </td>
            <td title={record.reason || undefined} data-testid="fa-reason">
              <div className="clamp-2">{record.reason === '' ? <span className="muted">—</span> : record.reason}</div>
            </td>
            <td>
              <div className="ellipsis-cell small" data-testid="fa-approvers">
                {record.approvers.length === 0 ? <span className="muted">—</span> : record.approvers.join(', ')}
              </div>
              {record.correlationId !== null && (
                <div className="ellipsis-cell mono small muted" title={record.correlationId} data-testid="fa-correlation">
                  {record.correlationId}
                </div>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
