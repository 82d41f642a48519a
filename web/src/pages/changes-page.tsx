import { useEffect, useMemo, useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import type { Change, ChangeStatus } from '../api/types';
import { ChangeTable } from '../components/change-table';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { Link, useRouter, useSearchParams } from '../components/router';
import { statusFilterOrder, statusLabels } from '../lib/change-format';
import {
  criticalityFilters,
  isFiltered,
  keepChange,
  listViewHref,
  readListView,
  serverFilters,
  type ChangeListView,
  type CriticalityFilter,
} from '../lib/change-list';
import { errorMessage, isAbort } from '../lib/errors';
import { pluralize } from '../lib/format';
import './changes-page.css';

function toggle<T>(items: readonly T[], item: T, order: readonly T[]): T[] {
  const next = items.includes(item) ? items.filter((x) => x !== item) : [...items, item];
  return order.filter((x) => next.includes(x));
}

// Every change of the organisation, newest window first; the filters live in the URL so a
// filtered list can be shared ("critical changes waiting for approval").
export function ChangesPage() {
  const { navigate } = useRouter();
  const params = useSearchParams();
  const view = useMemo(() => readListView(params), [params]);
  const [draft, setDraft] = useState(view.q);
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => { setDraft(view.q); }, [view.q]);

  useEffect(() => {
    const abort = new AbortController();
    setError(null);
    api.listChanges(serverFilters(view), abort.signal).then(
      (answer) => {
        if (!abort.signal.aborted) setChanges(answer.changes.filter((c) => keepChange(view, c)));
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [view, reloads]);

  const apply = (patch: Partial<ChangeListView>): void => { navigate(listViewHref({ ...view, ...patch })); };

  const search = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    apply({ q: draft.trim() });
  };

  const actions = (
    <Link className="btn btn-primary" to="/changes/new" data-testid="change-new">
      Register a change
    </Link>
  );

  return (
    <Layout title="Changes" actions={actions}>
      <form className="filter-bar change-filters" onSubmit={search} role="search" data-testid="change-filters">
        <div className="filter-row" role="group" aria-label="Status" data-testid="status-chips">
          <span className="filter-label muted small">Status</span>
          <button type="button" className="chip" aria-pressed={view.status.length === 0} onClick={() => { apply({ status: [] }); }} data-testid="status-chip-all">
            any
          </button>
          {statusFilterOrder.map((s: ChangeStatus) => (
            <button
              key={s}
              type="button"
              className="chip"
              aria-pressed={view.status.includes(s)}
              onClick={() => { apply({ status: toggle(view.status, s, statusFilterOrder) }); }}
              data-testid="status-chip"
              data-status={s}
            >
              {statusLabels[s]}
            </button>
          ))}
        </div>
        <div className="filter-row" role="group" aria-label="Criticality" data-testid="criticality-chips">
          <span className="filter-label muted small">Criticality</span>
          <button type="button" className="chip" aria-pressed={view.criticality.length === 0} onClick={() => { apply({ criticality: [] }); }} data-testid="criticality-chip-all">
            any
          </button>
          {criticalityFilters.map((c: CriticalityFilter) => (
            <button
              key={c}
              type="button"
              className={`chip chip-tier chip-tier-${c}`}
              aria-pressed={view.criticality.includes(c)}
              onClick={() => { apply({ criticality: toggle(view.criticality, c, criticalityFilters) }); }}
              title={c === 'pending' ? 'A service component is waiting for a tier' : undefined}
              data-testid="criticality-chip"
              data-tier={c}
            >
              {c}
            </button>
          ))}
          <span className="check change-mine">
            <input id="changes-mine" type="checkbox" checked={view.mine} onChange={(e) => { apply({ mine: e.target.checked }); }} data-testid="changes-mine" />
            <label htmlFor="changes-mine">Mine only</label>
          </span>
        </div>
        <div className="search-row">
          <div className="field field-inline field-wide">
            <label htmlFor="changes-q">Search</label>
            <input
              id="changes-q"
              type="search"
              value={draft}
              placeholder="Part of the title, or CHG-1A2B3C4D"
              onChange={(e) => { setDraft(e.target.value); }}
              spellCheck={false}
              autoComplete="off"
              data-testid="changes-q"
            />
          </div>
          <div className="filter-actions">
            <button type="submit" className="btn btn-primary" data-testid="changes-search">
              Search
            </button>
            <button type="button" className="btn" disabled={!isFiltered(view)} onClick={() => { navigate('/changes'); }} data-testid="changes-clear">
              Clear
            </button>
          </div>
        </div>
      </form>
      <ErrorBanner message={error} testId="changes-error" onRetry={() => { setReloads((n) => n + 1); }} />
      <section className="card card-flush">
        {changes === null && error === null && <p className="muted pad pad-top">Loading changes…</p>}
        {changes !== null && changes.length === 0 && (
          <p className="empty-state" data-testid="changes-empty">
            {isFiltered(view) ? 'No change matches these filters.' : 'No changes yet. Register the first one with “Register a change”.'}
          </p>
        )}
        {changes !== null && changes.length > 0 && (
          <>
            <ChangeTable changes={changes} />
            <div className="list-footer muted" data-testid="changes-count">
              {pluralize(changes.length, 'change')}
              {changes.length >= 200 && ' — the newest 200; narrow the filters to see older ones'}
            </div>
          </>
        )}
      </section>
    </Layout>
  );
}
