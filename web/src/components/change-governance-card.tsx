import { useEffect, useState } from 'react';
import { governanceApi } from '../api/governance-client';
import type { ApprovalStatus, Template } from '../api/governance-types';
import type { Change, ChangeStatus } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc, pluralize } from '../lib/format';
import { classDropCauses, classSourceWords, isHttpUrl, windowKindLabels } from '../lib/governance-format';
import { ClassChip, TierChip } from './governance-badges';
import { ReclassifyForm } from './reclassify-form';
import { Link } from './router';
import './change-governance-card.css';

const notStarted: readonly ChangeStatus[] = ['draft', 'scheduled', 'pending_mapping', 'pending_approval', 'approved'];

type Props = { change: Change; isApprover: boolean; refresh: number; onReclassified: (text: string) => void };

// The change's class and why, its risk tier and why, what the tier asks of approval, the
// template that made it standard, an emergency's reason and incident — and, for the designated
// approvers, Reclassify while it has not started.
export function ChangeGovernanceCard({ change, isApprover, refresh, onReclassified }: Props) {
  const [approval, setApproval] = useState<ApprovalStatus | null>(null);
  const [template, setTemplate] = useState<Template | null>(null);
  const [error, setError] = useState<string | null>(null);
  const templateId = change.template?.id ?? null;

  // The policy in words comes with the compact status; the template's name from the templates. Neither holds the page up.
  useEffect(() => {
    const abort = new AbortController();
    governanceApi.changeStatus(change.id, abort.signal).then(
      (s) => { if (!abort.signal.aborted) setApproval(s.approval); },
      (caught: unknown) => { if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught)); },
    );
    return () => { abort.abort(); };
  }, [change.id, refresh]);

  useEffect(() => {
    if (templateId === null) return;
    const abort = new AbortController();
    governanceApi.listTemplates(abort.signal).then(
      (list) => { if (!abort.signal.aborted) setTemplate(list.items.find((t) => t.id === templateId) ?? null); },
      () => undefined,
    );
    return () => { abort.abort(); };
  }, [templateId, refresh]);

  const emergency = change.emergency;
  return (
    <section className="card change-governance" aria-labelledby="governance-title" data-testid="change-governance">
      <h2 id="governance-title">Class and risk</h2>
      <dl className="kv kv-wide">
        <dt>Class</dt>
        <dd data-testid="governance-class">
          <ClassChip changeClass={change.changeClass} reason={change.changeClassReason} testId="governance-class-chip" />{' '}
          <span data-testid="change-class-reason">{change.changeClassReason}</span>
          <div className="muted small">decided by {classSourceWords[change.changeClassSource]}</div>
          {change.changeClassCause !== null && (
            <div className="small" data-testid="change-class-cause">
              Its template no longer backs it: {classDropCauses[change.changeClassCause]}.
            </div>
          )}
        </dd>
        <dt>Risk tier</dt>
        <dd data-testid="governance-tier">
          {change.riskTier === null ? (
            <span className="muted">not decided yet (its components are being mapped)</span>
          ) : (
            <>
              <TierChip tier={change.riskTier} reason={change.riskReason} testId="governance-tier-chip" />{' '}
              <span data-testid="change-risk-reason">{change.riskReason}</span>
            </>
          )}
        </dd>
        <dt>Approval policy</dt>
        <dd data-testid="change-policy">
          {approval?.policy ?? (error === null ? <span className="muted">…</span> : <span className="muted">unknown ({error})</span>)}
        </dd>
        {change.template !== null && (
          <>
            <dt>Template</dt>
            <dd data-testid="change-template">
              <Link to="/change-templates">{template?.name ?? 'a standard-change template'}</Link> <span className="mono small">v{change.template.version}</span>
              {template !== null && template.state !== 'certified' && <span className="muted small"> · now {template.state}, version {template.version}</span>}
            </dd>
          </>
        )}
        {emergency !== null && (
          <>
            <dt>Emergency</dt>
            <dd data-testid="change-emergency">
              <span data-testid="change-emergency-reason">{emergency.reason}</span>
              <div className="small">
                Answers{' '}
                {isHttpUrl(emergency.link) ? (
                  <a href={emergency.link} target="_blank" rel="noreferrer noopener" data-testid="change-emergency-link">
                    {emergency.link}
                  </a>
                ) : (
                  <span className="mono" data-testid="change-emergency-link">{emergency.link}</span>
                )}
              </div>
            </dd>
          </>
        )}
        {change.windowBypassed !== null && (
          <>
            <dt>Window</dt>
            <dd data-testid="governance-bypass">
              Passed the {windowKindLabels[change.windowBypassed.kind === 'freeze' ? 'freeze' : 'change'].toLowerCase()} “{change.windowBypassed.window}” at{' '}
              <span className="mono">{formatUtc(change.windowBypassed.at)}</span>, approved by {pluralize(change.windowBypassed.approvals, 'approver')}
            </dd>
          </>
        )}
      </dl>
      {isApprover && notStarted.includes(change.status) && <ReclassifyForm change={change} onDone={onReclassified} />}
    </section>
  );
}

// Said at the top of the page: an emergency that started while its window was closed.
export function WindowBypassedNotice({ change }: { change: Change }) {
  const b = change.windowBypassed;
  if (b === null) return null;
  const what = b.kind === 'freeze' ? 'the freeze' : 'outside the change window';
  return (
    <div className="banner banner-warn window-bypassed" role="status" data-testid="window-bypassed">
      <span className="banner-text">
        <strong>Window bypassed:</strong> this emergency started during {what} “{b.window}” at {formatUtc(b.at)}, approved by {pluralize(b.approvals, 'approver')}.
      </span>
    </div>
  );
}
