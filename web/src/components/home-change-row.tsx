import type { ReactNode } from 'react';
import type { Change } from '../api/types';
import { formatWindow, personName } from '../lib/change-format';
import { ChangeStatusChip, CriticalityChip } from './change-badges';
import { changeHref } from './change-table';
import { Link } from './router';
import './home-change-row.css';

type Props = {
  change: Change;
  testId?: string;
  /** Opens the change's approval panel. */
  approve?: boolean;
  mine?: boolean;
  children?: ReactNode;
};

// A change in one line: its id and title (links), status, criticality, window and requester.
export function HomeChangeRow({ change: c, testId = 'home-change', approve = false, mine = false, children }: Props) {
  return (
    <li className={mine ? 'home-row home-row-mine' : 'home-row'} data-testid={testId} data-change-id={c.id} data-status={c.status} data-mine={mine ? '1' : '0'}>
      <div className="home-row-main">
        <Link to={changeHref(c.id, approve)} className="mono home-row-id" data-testid="home-change-link">
          {c.displayId}
        </Link>
        <Link to={changeHref(c.id, approve)} className="home-row-title ellipsis" data-testid="home-change-title" title={c.title}>
          {c.title}
        </Link>
      </div>
      <div className="muted small home-row-meta">
        <ChangeStatusChip status={c.status} /> <CriticalityChip change={c} hideUnknown /> {formatWindow(c.windowStart, c.windowEnd)} · {personName(c.owner)}
        {c.components.length > 0 && ` · ${c.components.map((x) => x.name).join(', ')}`}
      </div>
      {children}
    </li>
  );
}
