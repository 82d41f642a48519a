import { useEffect, useMemo, useState } from 'react';
import { casesApi } from '../api/case-client';
import type { CaseKind, CaseSummary } from '../api/case-types';
import { caseKinds } from '../api/case-types';
import { CaseKindBadge, CaseStatusBadge } from '../components/case-badges';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { Link, useRouter, useSearchParams } from '../components/router';
import { caseCount, caseHour, caseHref, caseKindLabels, caseViewHref, readCaseView, statusesOf, type CaseListView, type CaseStatusFilter } from '../lib/cases';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtcMinute } from '../lib/format';
import './cases-page.css';

const statusFilters: ReadonlyArray<[CaseStatusFilter, string, string]> = [
  ['open', 'Open', 'Waiting for an approver: open, or a rollback approved but not yet run'],
  ['closed', 'Closed', 'Rolled back, kept or acknowledged'],
  ['all', 'All', 'Every case'],
];

const kindChipLabels: Record<CaseKind, string> = {
  unauthorized_change: 'Unauthorized changes',
  denied_access: 'Denied attempts',
};

function emptyText(view: CaseListView): string {
  const what = view.kind === null ? 'cases' : `${caseKindLabels[view.kind]} cases`;
  if (view.status === 'open') return `No open ${what}.`;
  if (view.status === 'closed') return `No closed ${what}.`;
  return `No ${what} yet.`;
}

// Every case of the organisation, most recently touched first: one per kind, account, principal
// and UTC hour. The filters live in the URL: open cases of every kind unless said.
export function CasesPage() {
  const { navigate } = useRouter();
  const params = useSearchParams();
  const view = useMemo(() => readCaseView(params), [params]);
  const [cases, setCases] = useState<CaseSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    setError(null);
    casesApi.list({ statuses: statusesOf(view.status), kinds: view.kind === null ? [] : [view.kind] }, abort.signal).then(
      (answer) => {
        if (!abort.signal.aborted) setCases(answer.cases);
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [view, reloads]);

  const apply = (patch: Partial<CaseListView>): void => { navigate(caseViewHref({ ...view, ...patch })); };

  return (
    <Layout title="Cases">
      <p className="lede muted">
        A case opens when the reference rule flags writes nobody vouched for, or when a source refuses someone’s calls: one per kind, account,
        principal and UTC hour. Approvers keep an unauthorized change or approve its rollback; denied attempts are acknowledged.
      </p>
      <div className="filter-bar case-filters" data-testid="case-filters">
        <div className="filter-row" role="group" aria-label="Status" data-testid="case-status-filter">
          <span className="filter-label muted small">Status</span>
          {statusFilters.map(([f, label, title]) => (
            <button key={f} type="button" className="chip" title={title} aria-pressed={view.status === f} onClick={() => { apply({ status: f }); }} data-testid="case-status-chip" data-status={f}>
              {label}
            </button>
          ))}
        </div>
        <div className="filter-row" role="group" aria-label="Kind" data-testid="case-kind-filter">
          <span className="filter-label muted small">Kind</span>
          <button type="button" className="chip" aria-pressed={view.kind === null} onClick={() => { apply({ kind: null }); }} data-testid="case-kind-chip" data-kind="all">
            All
          </button>
          {caseKinds.map((k) => (
            <button key={k} type="button" className="chip" aria-pressed={view.kind === k} onClick={() => { apply({ kind: view.kind === k ? null : k }); }} data-testid="case-kind-chip" data-kind={k}>
              {kindChipLabels[k]}
            </button>
          ))}
        </div>
      </div>
      <ErrorBanner message={error} testId="cases-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {cases === null && error === null && <p className="muted">Loading cases…</p>}
      {cases !== null && cases.length === 0 && (
        <div className="card empty-state" data-testid="cases-empty">
          <p>{emptyText(view)}</p>
          <p className="small">
            Cases come from the reference rule and denied attempts: <Link to="/settings/unmanaged-changes">Settings → Unmanaged changes</Link>.
          </p>
        </div>
      )}
      {cases !== null && cases.length > 0 && (
        <div className="audit-list">
          <table className="data-table cases-table" data-testid="cases-table">
            <thead>
              <tr>
                <th>Case</th>
                <th>Kind</th>
                <th>Principal</th>
                <th>Account</th>
                <th>Hour (UTC)</th>
                <th className="num">Writes</th>
                <th>Status</th>
                <th className="col-time">Last touched</th>
              </tr>
            </thead>
            <tbody>
              {cases.map((c) => (
                <tr key={c.id} data-testid="case-row" data-case={c.id} data-kind={c.kind} data-status={c.status}>
                  <td className="nowrap">
                    <Link to={caseHref(c.id)} className="mono" data-testid="case-link">{c.displayId}</Link>
                  </td>
                  <td><CaseKindBadge kind={c.kind} testId="case-row-kind" /></td>
                  <td className="cases-principal">
                    <Link to={caseHref(c.id)} data-testid="case-row-principal">{c.principal === '' ? 'unknown' : c.principal}</Link>
                  </td>
                  <td className="mono small">{c.account === '' ? '—' : c.account}</td>
                  <td className="mono small nowrap">{caseHour(c.hour)}</td>
                  <td className="num nowrap" data-testid="case-row-count" data-count={c.changes}>{caseCount(c.kind, c.changes)}</td>
                  <td><CaseStatusBadge status={c.status} testId="case-row-status" /></td>
                  <td className="mono small nowrap">{formatUtcMinute(c.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cases !== null && cases.length >= 100 && <p className="muted small">The 100 most recently touched cases are shown.</p>}
    </Layout>
  );
}
