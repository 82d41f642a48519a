import type { ListEntry } from '../api/observed-types';
import { formatWindow, personName, pipelineRun } from '../lib/change-format';
import { formatUtcMinute } from '../lib/format';
import { isRegistered, principalKindLabels, serviceLabel, sourceLabel } from '../lib/record-format';
import { ChangeStatusChip, CriticalityChip, ReportChips } from './change-badges';
import { changeHref } from './change-table';
import { BypassMarker, ClassChip, TierChip } from './governance-badges';
import { Link, useRouter } from './router';
import './change-table.css';
import './record-table.css';

/** Where a row opens: a planned or observed change's page, or a flag write's flag. */
export function entryHref(e: ListEntry): string {
  if (e.origin === 'flag' && e.link !== null && e.link.startsWith('/')) return e.link;
  return changeHref(e.id);
}

function Services({ e }: { e: ListEntry }) {
  // A planned change names its components; others the services the record was linked to.
  const keys = isRegistered(e) ? e.components.map((c) => c.key) : e.services.length > 0 ? e.services : [e.service];
  const shown = keys.filter((k) => k !== '');
  if (shown.length === 0) {
    if (isRegistered(e) && e.unresolved.length > 0) return <span className="muted">{e.unresolved.map((u) => u.query).join(', ')}</span>;
    return <span className="record-unmapped" data-testid="record-unmapped">unmapped</span>;
  }
  return <span title={shown.join(', ')}>{shown.map(serviceLabel).join(', ')}</span>;
}

function Who({ e }: { e: ListEntry }) {
  if (isRegistered(e)) {
    const run = pipelineRun(e);
    return (
      <>
        <span title={e.owner.email}>{personName(e.owner)}</span>
        {e.viaTokenId !== null && <span className="pill pill-token change-via">token</span>}
        {run !== null && (
          <div className="mono small" data-testid="change-pipeline">
            {e.pipeline?.runUrl !== undefined ? <a href={e.pipeline.runUrl} target="_blank" rel="noreferrer noopener">{run}</a> : run}
          </div>
        )}
      </>
    );
  }
  return (
    <span title={principalKindLabels[e.principal.kind]} data-principal-kind={e.principal.kind}>
      {e.principal.name === '' ? <span className="muted">unknown</span> : e.principal.name}
    </span>
  );
}

// The one change list, newest first as the server orders it: planned changes (with their
// lifecycle, criticality and impact), flag writes and observed changes, each with its CHG id,
// source, title, who, service (or "unmapped"), when and status.
export function RecordTable({ entries }: { entries: readonly ListEntry[] }) {
  const { navigate } = useRouter();
  return (
    // A narrow screen scrolls the table sideways, not the page.
    <div className="record-table-wrap">
    <table className="data-table change-table record-table" data-testid="change-table">
      <thead>
        <tr>
          <th scope="col">Change</th>
          <th scope="col">Source</th>
          <th scope="col">Title</th>
          <th scope="col">Who</th>
          <th scope="col">Service</th>
          <th scope="col">When (UTC)</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => {
          const href = entryHref(e);
          return (
            <tr
              key={`${e.origin}:${e.id}`}
              className={e.denied ? 'clickable record-denied' : e.authorized === false ? 'clickable record-unauthorized' : 'clickable'}
              onClick={(ev) => {
                if ((ev.target as HTMLElement).closest('a') === null) navigate(href);
              }}
              data-testid="change-row"
              data-change-id={e.id}
              data-origin={e.origin}
              data-source={e.source}
              data-status={e.status}
              data-authorized={e.authorized === null ? undefined : String(e.authorized)}
            >
              <td className="nowrap">
                <Link to={href} className="mono" data-testid="change-link">
                  {e.displayId}
                </Link>
              </td>
              <td className="nowrap" data-testid="record-source">
                <span className="pill pill-source">{sourceLabel(e.source)}</span>
                <div className="muted small">{e.mode}</div>
              </td>
              <td className="change-title-cell">
                <Link to={href} className="change-title-link" data-testid="change-title">
                  {e.title}
                </Link>
                <div className="muted small ellipsis">
                  {e.denied && <span className="record-denied-badge" data-testid="record-denied">Denied attempt</span>}
                  {e.authorized === false && !e.denied && <span className="record-unauthorized-badge" data-testid="record-unauthorized">Unauthorized</span>}
                  {e.kind}
                </div>
              </td>
              <td className="nowrap" data-testid="record-who">
                <Who e={e} />
              </td>
              <td className="nowrap" data-testid="record-service">
                <Services e={e} />
              </td>
              <td className="mono nowrap small" data-testid={isRegistered(e) ? 'change-window' : 'record-at'}>
                {isRegistered(e) ? formatWindow(e.windowStart, e.windowEnd) : formatUtcMinute(e.at)}
              </td>
              <td className="nowrap">
                {isRegistered(e) ? (
                  <>
                    <ChangeStatusChip status={e.status} />{' '}
                    <CriticalityChip change={e} hideUnknown />
                    <div className="record-governance" data-testid="record-governance">
                      <ClassChip changeClass={e.changeClass} reason={e.changeClassReason} />
                      {e.riskTier !== null && <TierChip tier={e.riskTier} reason={e.riskReason} />}
                      {e.windowBypassed !== null && <BypassMarker title={`Started during “${e.windowBypassed.window}”, approved by ${String(e.windowBypassed.approvals)}`} />}
                    </div>
                    {e.impact !== null && <div data-testid="change-impacts"><ReportChips change={e} /></div>}
                  </>
                ) : (
                  <span className="change-status change-status-done" data-testid="record-status" data-status={e.status}>
                    {e.status}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
    </div>
  );
}
