import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, api } from '../api/client';
import type { CatalogueImportFormat, InventoryPage } from '../api/types';
import { CatalogueFilters } from '../components/catalogue-filters';
import { CatalogueImport } from '../components/catalogue-import';
import { CatalogueTable } from '../components/catalogue-table';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { useRouter, useSearchParams } from '../components/router';
import { catalogueHref, listingKey, pageSizes, viewFrom, type CatalogueView } from '../lib/catalogue';
import { errorField, errorMessage, isAbort } from '../lib/errors';
import { formatUtc, pluralize } from '../lib/format';
import './catalogue-page.css';

// Every import source by a short name, for the empty catalogue's invitation; the record's type
// makes a new format name itself here too.
const importSourceNames: Record<CatalogueImportFormat, string> = {
  changeledger: 'our own format',
  backstage: 'a Backstage catalog-info.yaml',
  kubernetes: 'a kubectl dump',
  jaeger: 'Jaeger dependencies',
  otlp: 'OpenTelemetry traces',
};
const importSources = new Intl.ListFormat('en', { type: 'disjunction' }).format(Object.values(importSourceNames));

type Failure = { message: string; field: string | null };

export function CataloguePage() {
  const { navigate } = useRouter();
  const params = useSearchParams();
  // The URL is the source of truth (kinds, search, hops, stale edges, page) so a view can
  // be shared as a link; the canonical href doubles as the effect's dependency.
  const href = catalogueHref(viewFrom(params));
  const view = useMemo(() => viewFrom(new URLSearchParams(href.split('?')[1] ?? '')), [href]);

  const [page, setPage] = useState<InventoryPage | null>(null);
  // Where the page on screen starts: the range reads from it, not from the URL, which moves first.
  const [pageAt, setPageAt] = useState(0);
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [reloads, setReloads] = useState(0);
  const [importing, setImporting] = useState(false);
  const [restarted, setRestarted] = useState(false);
  // The snapshot the last page of this listing was cut from: a later page from another
  // snapshot would skip or repeat entities, so the listing starts over instead.
  const lastSnapshot = useRef<{ listing: string; snapshotAt: string } | null>(null);
  const offeredImport = useRef(false);

  useEffect(() => {
    const abort = new AbortController();
    const listing = listingKey(view);
    setLoading(true);
    api.catalogueInventory(view, view.offset, view.limit, abort.signal).then(
      (answer) => {
        if (abort.signal.aborted) return;
        const previous = lastSnapshot.current;
        if (view.offset > 0 && previous?.listing === listing && previous.snapshotAt !== answer.snapshotAt) {
          lastSnapshot.current = null;
          setRestarted(true);
          navigate(catalogueHref({ ...view, offset: 0 }), { replace: true });
          return;
        }
        lastSnapshot.current = { listing, snapshotAt: answer.snapshotAt };
        setPage(answer);
        setPageAt(view.offset);
        setFailure(null);
        setLoading(false);
        // An empty catalogue: the one useful thing to do is to import (offered once, so
        // closing the card sticks).
        if (Object.keys(answer.meta.kinds).length === 0 && !offeredImport.current) {
          offeredImport.current = true;
          setImporting(true);
        }
      },
      (caught: unknown) => {
        if (abort.signal.aborted || isAbort(caught)) return;
        setFailure({ message: errorMessage(caught), field: errorField(caught) });
        setLoading(false);
        if (caught instanceof ApiError && caught.status === 400) setPage(null);
      },
    );
    return () => { abort.abort(); };
  }, [view, reloads, navigate]);

  // Every move the user makes (filters, paging) goes through here; the notice about a
  // restarted listing has then been read.
  const go = useCallback(
    (next: CatalogueView) => {
      setRestarted(false);
      navigate(catalogueHref(next));
    },
    [navigate],
  );

  const reload = useCallback(() => { setReloads((n) => n + 1); }, []);

  const total = page?.total ?? 0;
  const shown = page?.entities.length ?? 0;
  const first = shown === 0 ? 0 : pageAt + 1;
  const last = pageAt + shown;
  const hasFilters = view.kinds.length > 0 || view.q !== '';

  const actions = (
    <>
      <button type="button" className="btn" onClick={reload} data-testid="catalogue-refresh">
        Refresh
      </button>
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => { setImporting(true); }}
        disabled={importing}
        data-testid="catalogue-import-open"
      >
        Import
      </button>
    </>
  );

  return (
    <Layout title="Catalogue" actions={actions}>
      {importing && <CatalogueImport onImported={reload} onClose={() => { setImporting(false); }} />}
      <CatalogueFilters view={view} kindCounts={page?.meta.kinds ?? null} onChange={go} />
      {restarted && (
        <div className="banner banner-warn" role="status" data-testid="catalogue-restarted">
          <span className="banner-text">The catalogue changed — back to the first page.</span>
          <button type="button" className="btn btn-small" onClick={() => { setRestarted(false); }}>
            Dismiss
          </button>
        </div>
      )}
      {/* A refused parameter (an unknown kind) fails the same way again: no retry then. */}
      <ErrorBanner
        message={failure?.message ?? null}
        testId="catalogue-error"
        onRetry={failure?.field == null ? reload : undefined}
      >
        {failure?.field === 'kind' && (
          <button type="button" className="btn btn-small" onClick={() => { go({ ...view, kinds: [], offset: 0 }); }}>
            All kinds
          </button>
        )}
      </ErrorBanner>
      {page !== null && page.meta.truncatedEntities > 0 && (
        <div className="banner banner-warn" role="status" data-testid="catalogue-truncated">
          <span className="banner-text">
            {pluralize(page.meta.truncatedEntities, 'entity', 'entities')} on this page{' '}
            {page.meta.truncatedEntities === 1 ? 'has' : 'have'} more neighbours than are listed (200 per list, 2,000
            edges per walk).
          </span>
        </div>
      )}
      <section className="card card-flush" hidden={page === null && failure !== null}>
        {page === null && failure === null && <p className="muted pad pad-top">Loading the catalogue…</p>}
        {page !== null && shown === 0 && (
          <div className="empty-state" data-testid="catalogue-empty">
            {view.offset > 0 && total > 0 ? (
              <>
                Nothing on this page.{' '}
                <button type="button" className="link-button" onClick={() => { go({ ...view, offset: 0 }); }}>
                  First page
                </button>
              </>
            ) : hasFilters ? (
              <>
                No entities match.{' '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => { go({ ...view, kinds: [], q: '', offset: 0 }); }}
                >
                  Clear filters
                </button>
              </>
            ) : (
              `The catalogue is empty. Import an estate: ${importSources}.`
            )}
          </div>
        )}
        {page !== null && shown > 0 && <CatalogueTable entities={page.entities} walk={view} busy={loading} />}
        {page !== null && (total > 0 || view.offset > 0) && (
          <div className="list-footer pager" data-testid="catalogue-pager">
            <span className="muted" data-testid="catalogue-range">
              {first.toLocaleString('en-US')}–{last.toLocaleString('en-US')} of {total.toLocaleString('en-US')}
            </span>
            <button
              type="button"
              className="btn btn-small"
              disabled={view.offset === 0 || loading}
              onClick={() => { go({ ...view, offset: Math.max(0, view.offset - view.limit) }); }}
              data-testid="catalogue-previous"
            >
              Previous
            </button>
            <button
              type="button"
              className="btn btn-small"
              disabled={last >= total || loading}
              onClick={() => { go({ ...view, offset: view.offset + view.limit }); }}
              data-testid="catalogue-next"
            >
              Next
            </button>
            <span className="field-row">
              <label htmlFor="catalogue-limit" className="inline-label">
                Per page
              </label>
              <select
                id="catalogue-limit"
                value={view.limit}
                onChange={(e) => { go({ ...view, limit: Number(e.target.value), offset: 0 }); }}
                data-testid="catalogue-limit"
              >
                {!(pageSizes as readonly number[]).includes(view.limit) && <option value={view.limit}>{view.limit}</option>}
                {pageSizes.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </span>
            <span className="muted small" title="Pages of one listing come from one snapshot of at most 60 s">
              snapshot <span className="mono">{formatUtc(page.snapshotAt)}</span>
            </span>
          </div>
        )}
      </section>
    </Layout>
  );
}
