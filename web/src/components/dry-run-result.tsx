import type { DryRun } from '../api/unmanaged-types';
import { formatUtcMinute, pluralize } from '../lib/format';
import { referenceLabels, referenceOrder } from '../lib/unmanaged';
import { changeHref } from './change-table';
import { Link } from './router';

// What "Try these settings" answered: how many of the last 7 days' judged writes would have been
// flagged, what vouched for the others, and the first flagged ones, each linked to its page.
export function DryRunResult({ result: r, stale }: { result: DryRun; stale: boolean }) {
  const writes = r.judged === 1 ? 'write' : 'writes';
  return (
    <div className="dry-run" data-testid="dry-run" data-flagged={r.flagged} data-judged={r.judged}>
      {stale && <p className="muted small" data-testid="dry-run-stale">The form has changed since this try: press “Try these settings” again to see the new answer.</p>}
      {r.judged === 0 ? (
        <p data-testid="dry-run-summary">
          No audit-log write of the last {String(r.days)} days to judge. Writes come from AWS CloudTrail, the Azure activity log and the
          Kubernetes audit webhook connected in Change sources.
        </p>
      ) : (
        <p className={r.flagged > 0 ? 'dry-run-summary dry-run-flagged' : 'dry-run-summary'} data-testid="dry-run-summary">
          With these settings, <strong>{r.flagged.toLocaleString('en-US')}</strong> of the last {String(r.days)} days’{' '}
          <strong>{r.judged.toLocaleString('en-US')}</strong> {writes} would have been flagged.
        </p>
      )}
      {r.truncated && <p className="muted small">More writes than a try reads: the newest 20,000 were judged.</p>}
      {r.judged > 0 && (
        <ul className="dry-run-split" data-testid="dry-run-split" aria-label="What vouched for the others">
          <li className="muted">{pluralize(r.authorized, 'write')} vouched for by:</li>
          {referenceOrder.map((k) => (
            <li key={k} data-testid="dry-run-reference" data-reference={k}>
              <span className="dry-run-count">{r.byReference[k].toLocaleString('en-US')}</span> {referenceLabels[k]}
            </li>
          ))}
        </ul>
      )}
      {r.examples.length > 0 && (
        <>
          <h3 className="unmanaged-subhead">{r.examples.length < r.flagged ? `The newest ${String(r.examples.length)} it would flag` : 'The writes it would flag'}</h3>
          <div className="dry-run-wrap">
            <table className="data-table dry-run-examples" data-testid="dry-run-examples">
              <thead>
                <tr>
                  <th scope="col">Change</th>
                  <th scope="col">Title</th>
                  <th scope="col">Who</th>
                  <th scope="col">When (UTC)</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                {r.examples.map((x) => (
                  <tr key={x.id} data-testid="dry-run-example">
                    <td className="nowrap"><Link to={changeHref(x.id)} className="mono" data-testid="dry-run-example-link">{x.displayId}</Link></td>
                    <td>{x.title}</td>
                    <td className="mono small">{x.principal}</td>
                    <td className="mono small nowrap">{formatUtcMinute(x.at)}</td>
                    <td className="small">{x.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
