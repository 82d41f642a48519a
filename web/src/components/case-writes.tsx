import type { CaseKind } from '../api/case-types';
import type { CaseWrite } from '../lib/cases';
import { formatUtc } from '../lib/format';
import { Link } from './router';
import './case-page-parts.css';

const observedHref = (id: string): string => `/changes/${encodeURIComponent(id)}`;

function Authorization({ w }: { w: CaseWrite }) {
  if (w.authorized === false) {
    return (
      <span className="case-auth case-auth-no" data-testid="case-write-authorization" data-authorized="false">
        <strong>Unauthorized:</strong> {w.authorizedReason ?? 'no reference found'}
      </span>
    );
  }
  if (w.authorized === true) {
    return (
      <span className="case-auth case-auth-yes" data-testid="case-write-authorization" data-authorized="true">
        <strong>Authorized:</strong> {w.authorizedReason ?? 'vouched for'}
      </span>
    );
  }
  return <span className="muted" data-testid="case-write-authorization">not judged</span>;
}

// The writes of a case, oldest first, each linked to its observed change; for denied attempts the
// refused calls: who, what, the error code, when.
export function CaseWrites({ kind, writes }: { kind: CaseKind; writes: readonly CaseWrite[] }) {
  const denied = kind === 'denied_access';
  return (
    <section className="card card-flush case-writes" aria-labelledby="case-writes-title" data-testid="case-writes">
      <h2 id="case-writes-title" className="card-title">{denied ? 'Refused calls' : 'Writes'}</h2>
      <p className="pad muted small">
        {denied
          ? 'Each call the source refused. Nothing changed; each is recorded because someone tried.'
          : 'Each write of the case, oldest first. Its page has the diff, the source event and the principal’s details.'}
      </p>
      <div className="case-writes-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th className="col-time">When</th>
              {denied && <th>Principal</th>}
              <th>{denied ? 'What' : 'Change'}</th>
              <th>Action</th>
              <th>Resource</th>
              <th>{denied ? 'Error code' : 'Authorization'}</th>
            </tr>
          </thead>
          <tbody>
            {writes.map((w) => (
              <tr key={w.id} data-testid="case-write" data-write={w.id}>
                <td className="mono small nowrap">{formatUtc(w.occurredAt)}</td>
                {denied && <td className="case-wrap" data-testid="case-write-principal">{w.principal}</td>}
                <td className="case-wrap">
                  <Link to={observedHref(w.id)} className="mono" data-testid="case-write-link">{w.displayId}</Link>{' '}
                  <span data-testid="case-write-title">{w.title}</span>
                </td>
                <td className="mono small">{w.action ?? '—'}</td>
                <td className="mono small case-wrap">{w.resource ?? '—'}</td>
                <td className="case-wrap">
                  {denied ? <span className="mono" data-testid="case-write-error">{w.errorCode ?? '—'}</span> : <Authorization w={w} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
