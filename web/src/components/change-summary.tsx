import type { Change, ChangeStatus } from '../api/types';
import { formatWindow, kindLabels, minutesText, outcomeLabels, personName } from '../lib/change-format';
import { formatUtc, pluralize } from '../lib/format';
import { silenceModeLabels } from '../lib/blast-preview';
import { KindBadge, TierBadge } from './catalogue-badges';
import { ChangeStatusChip, CriticalityChip } from './change-badges';
import { ClassChip, TierChip } from './governance-badges';
import './change-summary.css';

// autoStart speaks of the future only while the change waits for its approval.
const waitingToStart: readonly ChangeStatus[] = ['draft', 'pending_mapping', 'pending_approval'];

// The head of the change page: its id, status and criticality, then what it touches and when.
export function ChangeHeader({ change, scope }: { change: Change; scope: { line: string; breakdown: string } | null }) {
  return (
    <section className="card change-header" data-testid="change-header">
      <div className="change-header-badges">
        <span className="mono strong change-display-id" data-testid="change-display-id">
          {change.displayId}
        </span>
        <ChangeStatusChip status={change.status} />
        <CriticalityChip change={change} hideUnknown />
        <ClassChip changeClass={change.changeClass} reason={change.changeClassReason} />
        {change.riskTier !== null && <TierChip tier={change.riskTier} reason={change.riskReason} />}
        <span className="pill">{kindLabels[change.kind]}</span>
      </div>
      {scope !== null && (
        <p className="scope-line" title={scope.breakdown} data-testid="change-scope-line">
          {scope.line}
        </p>
      )}
      {change.description !== null && change.description !== '' && <p className="change-description">{change.description}</p>}
      <dl className="kv kv-wide">
        <dt>Window</dt>
        <dd className="mono" data-testid="change-window">
          {formatWindow(change.windowStart, change.windowEnd)}
          {change.maxDurationMinutes !== null && <span className="muted"> · pipeline duration {minutesText(change.maxDurationMinutes)}</span>}
          {change.autoStart && waitingToStart.includes(change.status) && <span className="muted" data-testid="change-autostart"> · starts when approved</span>}
        </dd>
        <dt>Components</dt>
        <dd className="blast-resolved" data-testid="change-components">
          {change.components.map((c) => {
            const tier = change.componentTiers[c.key];
            return (
              <span key={c.key} className="resolved-chip" data-testid="change-component" data-key={c.key} title={`${c.key} (${c.match}${c.seen ? '' : ', not in the catalogue'})`}>
                <KindBadge kind={c.kind} /> {c.name}
                {tier != null && <TierBadge tier={tier} />}
                {tier === null && <span className="stale-badge">no tier</span>}
              </span>
            );
          })}
          {change.unresolved.map((u) => (
            <span key={u.query} className="resolved-chip unresolved-chip" title="Not recognised: waiting to be mapped">
              <span className="mono">{u.query}</span> <span className="stale-badge">unmapped</span>
            </span>
          ))}
        </dd>
        <dt>Blast radius</dt>
        <dd>
          {pluralize(change.hops, 'hop')} · {change.silenceInfra === null ? 'organisation default infrastructure silencing' : silenceModeLabels[change.silenceInfra].toLowerCase()}
          {change.blastVersion > 1 && <span className="muted"> · snapshot v{change.blastVersion}</span>}
        </dd>
        <dt>Requester</dt>
        <dd data-testid="change-requester">
          {personName(change.owner)} <span className="muted small">{change.owner.email}</span>
          {change.viaTokenId !== null && <span className="pill pill-token change-via">via an API token</span>}
        </dd>
        <dt>Evidence</dt>
        <dd>
          {minutesText(change.evidenceMinutes)} of surveillance after it ends{change.releaseHeld ? ' · held alerts released at finish' : ' · held alerts not released'}
        </dd>
        {change.recipients.length > 0 && (
          <>
            <dt>Recipients</dt>
            <dd className="mono small">{change.recipients.join(', ')}</dd>
          </>
        )}
        {change.startedAt !== null && (
          <>
            <dt>Ran</dt>
            <dd className="mono">
              {formatUtc(change.startedAt)} – {change.finishedAt === null ? 'running' : formatUtc(change.finishedAt)}
              {change.autoStart && change.gated && <span className="muted"> · started automatically on approval</span>}
            </dd>
          </>
        )}
        {change.outcome !== null && (
          <>
            <dt>Outcome</dt>
            <dd data-testid="change-outcome">
              {outcomeLabels[change.outcome]}
              {change.aborted && ' (aborted)'}
              {change.outcomeBy === 'window' && <span className="muted"> · the window ran out before anyone said</span>}
              {change.impact !== null && <span className="muted"> · impact {change.impact}</span>}
              {change.notes !== null && change.notes !== '' && <div className="reason">{change.notes}</div>}
            </dd>
          </>
        )}
        {change.endReason !== null && (
          <>
            <dt>Ended</dt>
            <dd data-testid="change-end-reason">{change.endReason}</dd>
          </>
        )}
        {change.status === 'approved' && change.startDeadline !== null && (
          <>
            <dt>Start by</dt>
            <dd className="mono">{formatUtc(change.startDeadline)}</dd>
          </>
        )}
        {change.ticketUrl !== null && (
          <>
            <dt>Ticket</dt>
            <dd>
              <a href={change.ticketUrl} target="_blank" rel="noreferrer noopener">
                {change.ticketUrl}
              </a>
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}

