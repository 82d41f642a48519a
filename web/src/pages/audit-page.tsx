import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, auditFilterKeys, auditQuery, type AuditFilters } from '../api/client';
import type { AuditEvent } from '../api/types';
import { AuditFilterBar } from '../components/audit-filters';
import { AuditTable } from '../components/audit-table';
import { ErrorBanner } from '../components/error-banner';
import { EventPanel } from '../components/event-panel';
import { Layout } from '../components/layout';
import { useRouter, useSearchParams } from '../components/router';
import { VerifyBadge } from '../components/verify-badge';
import { errorMessage, isAbort } from '../lib/errors';
import { pluralize } from '../lib/format';
import './audit-page.css';

type ListState = {
  items: AuditEvent[];
  nextCursor: string | null;
  loading: boolean;
  loaded: boolean;
  error: string | null;
};

const initialList: ListState = { items: [], nextCursor: null, loading: true, loaded: false, error: null };

function filtersFrom(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const key of auditFilterKeys) {
    const value = params.get(key);
    if (value !== null && value !== '') filters[key] = value;
  }
  return filters;
}

export function AuditPage() {
  const { navigate } = useRouter();
  const params = useSearchParams();
  // The URL is the source of truth for filters so a view can be shared as a link.
  const query = auditQuery(filtersFrom(params));
  const filters = useMemo(() => filtersFrom(new URLSearchParams(query)), [query]);

  const [list, setList] = useState<ListState>(initialList);
  const [selectedSeq, setSelectedSeq] = useState<number | null>(null);
  const [reloads, setReloads] = useState(0);
  // Each filter change starts a new generation; answers from older ones are dropped so
  // a slow page for the previous filters can never be appended to the new result.
  const generation = useRef(0);
  const controller = useRef<AbortController | null>(null);
  const inFlight = useRef(false);

  const load = useCallback(
    async (cursor: string | null) => {
      if (inFlight.current) return;
      inFlight.current = true;
      const gen = generation.current;
      const abort = new AbortController();
      controller.current = abort;
      setList((s) => ({ ...s, loading: true, error: null }));
      try {
        const page = await api.listAudit(filters, cursor, abort.signal);
        if (gen !== generation.current) return;
        setList((s) => {
          const seen = new Set(cursor === null ? [] : s.items.map((e) => e.seq));
          const fresh = page.items.filter((e) => !seen.has(e.seq));
          const items = cursor === null ? page.items : [...s.items, ...fresh];
          return { items, nextCursor: page.nextCursor, loading: false, loaded: true, error: null };
        });
      } catch (error) {
        if (gen !== generation.current || isAbort(error)) return;
        setList((s) => ({ ...s, loading: false, error: errorMessage(error) }));
      } finally {
        if (gen === generation.current) inFlight.current = false;
      }
    },
    [filters],
  );

  useEffect(() => {
    generation.current += 1;
    controller.current?.abort();
    inFlight.current = false;
    setList(initialList);
    setSelectedSeq(null);
    void load(null);
  }, [load, reloads]);

  useEffect(() => () => controller.current?.abort(), []);

  // Infinite scroll: when the sentinel below the table comes into view, fetch the next page.
  const sentinel = useRef<HTMLDivElement>(null);
  const canLoadMore = list.nextCursor !== null && !list.loading && list.error === null;
  useEffect(() => {
    const node = sentinel.current;
    const cursor = list.nextCursor;
    if (node === null || cursor === null || !canLoadMore) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void load(cursor);
      },
      { rootMargin: '300px 0px' },
    );
    observer.observe(node);
    return () => { observer.disconnect(); };
  }, [canLoadMore, list.nextCursor, load]);

  const applyFilters = useCallback(
    (next: AuditFilters) => { navigate(`/audit${auditQuery(next)}`); },
    [navigate],
  );
  const closePanel = useCallback(() => { setSelectedSeq(null); }, []);

  const selected = selectedSeq === null ? undefined : list.items.find((e) => e.seq === selectedSeq);
  const hasFilters = query !== '';

  const actions = (
    <>
      <VerifyBadge refreshKey={reloads} />
      <button type="button" className="btn" onClick={() => { setReloads((n) => n + 1); }} data-testid="audit-refresh">
        Refresh
      </button>
      <a className="btn" href={api.auditExportUrl(filters)} download data-testid="audit-export">
        Export NDJSON
      </a>
    </>
  );

  return (
    <Layout title="Audit log" actions={actions}>
      <AuditFilterBar applied={filters} onApply={applyFilters} />
      <ErrorBanner
        message={list.error}
        testId="audit-error"
        onRetry={() => {
          // A failed first page restarts the query; a failed later page retries that page.
          if (list.items.length === 0) setReloads((n) => n + 1);
          else void load(list.nextCursor);
        }}
      />
      <div className={selected === undefined ? 'audit-body' : 'audit-body with-panel'}>
        <div className="audit-list" hidden={!list.loading && !list.loaded}>
          {list.loaded && list.items.length === 0 && list.error === null ? (
            <div className="empty-state" data-testid="audit-empty">
              {hasFilters ? (
                <>
                  No events match these filters.{' '}
                  <button type="button" className="link-button" onClick={() => { applyFilters({}); }}>
                    Clear filters
                  </button>
                </>
              ) : (
                'No events have been recorded yet.'
              )}
            </div>
          ) : (
            list.items.length > 0 && (
              <AuditTable items={list.items} selectedSeq={selectedSeq} onSelect={setSelectedSeq} />
            )
          )}
          <div
            ref={sentinel}
            className="list-footer"
            hidden={!list.loading && list.items.length === 0}
            data-testid="audit-sentinel"
          >
            {list.loading && <span className="muted">Loading events…</span>}
            {!list.loading && list.items.length > 0 && (
              <span className="muted" data-testid="audit-count">
                {pluralize(list.items.length, 'event')} shown
                {list.nextCursor === null ? ' — end of log' : ''}
              </span>
            )}
            {canLoadMore && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => void load(list.nextCursor)}
                data-testid="audit-load-more"
              >
                Load more
              </button>
            )}
          </div>
        </div>
        {selected !== undefined && <EventPanel event={selected} onClose={closePanel} onFilter={applyFilters} />}
      </div>
    </Layout>
  );
}
