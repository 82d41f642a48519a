import { useEffect, useMemo, useState, type SubmitEvent } from 'react';
import { observedApi } from '../api/observed-client';
import type { ListEntry } from '../api/observed-types';
import type { ChangeStatus } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { RecordTable } from '../components/record-table';
import { Link, useRouter, useSearchParams } from '../components/router';
import { statusFilterOrder, statusLabels } from '../lib/change-format';
import {
  criticalityFilters,
  isFiltered,
  keepChange,
  listViewHref,
  readListView,
  recordListQuery,
  sourceChipLabels,
  sourceChips,
  type ChangeListView,
  type CriticalityFilter,
} from '../lib/change-list';
import { errorMessage, isAbort } from '../lib/errors';
import { pluralize } from '../lib/format';
import { isRegistered } from '../lib/record-format';
import './changes-page.css';

function toggle<T>(items: readonly T[], item: T, order: readonly T[]): T[] {
  const next = items.includes(item) ? items.filter((x) => x !== item) : [...items, item];
  return order.filter((x) => next.includes(x));
}

// A criticality is a planned change's: asking for one keeps planned changes only (the server
// leaves the feed out for it too, except "pending", which it cannot filter on).
function keepEntry(view: ChangeListView, e: ListEntry): boolean {
  if (!isRegistered(e)) return view.criticality.length === 0;
  return keepChange(view, e);
}

type Loaded = { entries: ListEntry[]; neverCaptured: string[] };

// Every change of the organisation in one list, newest first: planned changes, flag writes and
// what the connected sources observed. The filters live in the URL so a filtered list can be
// shared ("Kubernetes writes to checkout-api"); under the list, what the sources cannot see, so
// an empty list reads as "nothing in what we can see", not "nothing changed".
export function ChangesPage() {
  const { navigate } = useRouter();
  const params = useSearchParams();
  const view = useMemo(() => readListView(params), [params]);
  const [draft, setDraft] = useState(view.q);
  const [serviceDraft, setServiceDraft] = useState(view.service);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => { setDraft(view.q); }, [view.q]);
  useEffect(() => { setServiceDraft(view.service); }, [view.service]);

  useEffect(() => {
    const abort = new AbortController();
    setError(null);
    observedApi.listRecords(recordListQuery(view), abort.signal).then(
      (answer) => {
        if (!abort.signal.aborted) setLoaded({ entries: answer.changes.filter((e) => keepEntry(view, e)), neverCaptured: answer.neverCaptured });
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
    apply({ q: draft.trim(), service: serviceDraft.trim() });
  };

  const actions = (
    <Link className="btn btn-primary" to="/changes/new" data-testid="change-new">
      Register a change
    </Link>
  );
  const changes = loaded?.entries ?? null;

  return (
    <Layout title="Changes" actions={actions}>
      <form className="filter-bar change-filters" onSubmit={search} role="search" data-testid="change-filters">
        <div className="filter-row" role="group" aria-label="Source" data-testid="source-chips">
          <span className="filter-label muted small">Source</span>
          <button type="button" className="chip" aria-pressed={view.chip === null} onClick={() => { apply({ chip: null }); }} data-testid="source-chip-all">
            all
          </button>
          {sourceChips.map((c) => (
            <button
              key={c}
              type="button"
              className={c === 'denied' || c === 'unauthorized' ? 'chip chip-denied' : 'chip'}
              title={c === 'unauthorized' ? 'Writes the reference rule flagged: nothing vouched for them' : undefined}
              aria-pressed={view.chip === c}
              onClick={() => { apply({ chip: view.chip === c ? null : c }); }}
              data-testid="source-chip"
              data-chip={c}
            >
              {sourceChipLabels[c]}
            </button>
          ))}
        </div>
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
          <div className="field field-inline">
            <label htmlFor="changes-service">Service</label>
            <input
              id="changes-service"
              type="search"
              value={serviceDraft}
              placeholder="checkout-api"
              onChange={(e) => { setServiceDraft(e.target.value); }}
              spellCheck={false}
              autoComplete="off"
              data-testid="changes-service"
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
            {view.chip === 'unauthorized' && !isFiltered({ ...view, chip: null })
              ? 'No unauthorized write in what we can see. Writes are judged only while the reference rule is on (Settings → Unmanaged changes).'
              : isFiltered(view) ? 'No change matches these filters in what we can see.' : 'No changes yet in what we can see. Register one with “Register a change”, or connect a source in Settings → Change sources.'}
          </p>
        )}
        {changes !== null && changes.length > 0 && (
          <>
            <RecordTable entries={changes} />
            <div className="list-footer muted" data-testid="changes-count">
              {pluralize(changes.length, 'change')}
              {changes.length >= 200 && ' — the newest 200; narrow the filters to see older ones'}
            </div>
          </>
        )}
      </section>
      {loaded !== null && <NeverCaptured lines={loaded.neverCaptured} />}
    </Layout>
  );
}

function NeverCaptured({ lines }: { lines: string[] }) {
  return (
    <section className="card never-captured" data-testid="never-captured" aria-labelledby="never-captured-title">
      <h2 id="never-captured-title">What we cannot see</h2>
      <p className="muted small">
        This list holds what reached changeledger. With the sources connected now, these changes never do — so nothing listed
        here does not mean nothing happened. <Link to="/settings/change-sources">Change sources</Link>
      </p>
      <ul className="never-captured-list">
        {lines.map((line) => (
          <li key={line} data-testid="never-captured-line">{line}</li>
        ))}
      </ul>
    </section>
  );
}
