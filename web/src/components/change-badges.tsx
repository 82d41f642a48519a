import { impacts, type Impact } from '../api/report-types';
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

const impactTitles: Record<Impact, string> = {
  outage: 'Outage: a component stayed in error to the end, or was down 5 minutes or more',
  significant: 'Significant: a component moved against every baseline, an alert fired and recovered, or a neighbour stayed in error',
  minor: 'Minor: something moved, but not enough to be significant',
  none: 'None: measured, and nothing moved',
  unknown: 'Unknown: nothing was measured',
};

function asImpact(v: string): Impact {
  return (impacts as readonly string[]).includes(v) ? (v as Impact) : 'unknown';
}

// A report's impact (the rules' verdict, or the AI's tier), coloured by how bad it is.
export function ImpactChip({ impact, testId = 'change-impact', prefix }: { impact: string; testId?: string; prefix?: string }) {
  const i = asImpact(impact);
  return (
    <span className={`impact impact-${i}`} data-testid={testId} data-impact={i} title={impactTitles[i]}>
      {prefix !== undefined && <span className="impact-prefix">{prefix} </span>}
      {i}
    </span>
  );
}

// The list's impact column: the rules' impact once reported, and the AI's tier beside it when
// one was given. When the two disagree both show, so a reader sees it without opening the change.
export function ReportChips({ change }: { change: { impact: string | null; aiImpact?: string | null } }) {
  if (change.impact === null) return <span className="muted small">—</span>;
  const ai = change.aiImpact ?? null;
  return (
    <span className="report-chips">
      <ImpactChip impact={change.impact} />
      {ai !== null && <ImpactChip impact={ai} testId="change-ai-impact" prefix="AI" />}
    </span>
  );
}
