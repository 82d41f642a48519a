import type { Change, ChangeStatus } from '../api/types';
import { statusLabels, statusTones } from '../lib/change-format';
import './change-badges.css';

export function ChangeStatusChip({ status }: { status: ChangeStatus }) {
  return (
    <span className={`change-status change-status-${statusTones[status]}`} data-testid="change-status" data-status={status}>
      {statusLabels[status]}
    </span>
  );
}

// The criticality next to the status: a tier, or "pending" while a service component has none.
export function CriticalityChip({ change, hideUnknown = false }: { change: Pick<Change, 'criticality' | 'criticalitySource'>; hideUnknown?: boolean }) {
  if (change.criticalitySource === 'pending') {
    return (
      <span
        className="tier tier-pending"
        data-testid="change-criticality"
        data-tier="pending"
        title={change.criticality === null ? 'A service component has no tier yet' : `A component has no tier yet; the highest known is ${change.criticality}`}
      >
        pending
      </span>
    );
  }
  if (change.criticality === null) return hideUnknown ? null : <span className="muted small">—</span>;
  return (
    <span className={`tier tier-${change.criticality}`} data-testid="change-criticality" data-tier={change.criticality}>
      {change.criticality}
    </span>
  );
}
