import type { AlertHeldBy, AlertState } from '../api/types';
import { changeHref } from './change-table';
import { Link } from './router';
import './alert-badges.css';

export function AlertStateBadge({ state }: { state: AlertState }) {
  return (
    <span className={`alert-state alert-state-${state}`} data-testid="alert-state">
      {state === 'firing' ? 'Firing' : 'Resolved'}
    </span>
  );
}

// The change whose hold keeps this alert from being notified, by title, one click from its page.
export function HeldBadge({ heldBy }: { heldBy: AlertHeldBy }) {
  return (
    <Link
      to={changeHref(heldBy.changeId)}
      className="held-badge"
      title={`Held by ${heldBy.displayId}: not notified while the change runs`}
      data-testid="alert-held-badge"
      onClick={(e) => { e.stopPropagation(); }}
    >
      Held · change {heldBy.title}
    </Link>
  );
}

// The page the alert came from (Prometheus' graph of the rule): another site, so it opens apart.
export function SourceLink({ url, testId = 'alert-source-link' }: { url: string; testId?: string }) {
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className="alert-source-link small"
      data-testid={testId}
      onClick={(e) => { e.stopPropagation(); }}
    >
      Open in source ↗
    </a>
  );
}
