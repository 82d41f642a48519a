import type { FlagRecord } from '../api/types';
import { flagHref } from '../lib/flag-format';
import { formatUtcMinute } from '../lib/format';
import { FlagChange } from './flag-change';
import { Link } from './router';
import './home-change-row.css';

// The latest flag change records: which flag, where, from → to, who and when.
export function HomeFlagChanges({ records, testId = 'home-flag-change' }: { records: readonly FlagRecord[]; testId?: string }) {
  return (
    <ul className="home-list">
      {records.map((r) => (
        <li key={r.seq} className="home-row" data-testid={testId} data-flag={r.flag} data-env={r.env ?? ''}>
          <div className="home-row-main">
            <Link to={flagHref(r.flag)} className="mono home-row-title ellipsis" data-testid="home-flag-link">
              {r.flag}
            </Link>
            {r.env !== null && <span className="muted small mono">{r.env}</span>}
            <FlagChange record={r} />
          </div>
          <div className="muted small home-row-meta">
            {formatUtcMinute(r.ts)} · {r.actor}
            {r.reason !== '' && ` · “${r.reason}”`}
          </div>
        </li>
      ))}
    </ul>
  );
}
