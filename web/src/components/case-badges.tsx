import type { CaseKind, CaseStatus } from '../api/case-types';
import { caseKindLabels, caseStatusLabels, caseStatusTone } from '../lib/cases';
import './change-badges.css';
import './case-badges.css';

export function CaseKindBadge({ kind, testId = 'case-kind' }: { kind: CaseKind; testId?: string }) {
  return (
    <span className={`case-kind case-kind-${kind}`} data-testid={testId} data-kind={kind}>
      {caseKindLabels[kind]}
    </span>
  );
}

export function CaseStatusBadge({ status, testId = 'case-status' }: { status: CaseStatus; testId?: string }) {
  return (
    <span className={`change-status change-status-${caseStatusTone[status]}`} data-testid={testId} data-status={status}>
      {caseStatusLabels[status]}
    </span>
  );
}
