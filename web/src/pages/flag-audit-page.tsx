import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, flagAuditFilterKeys, flagAuditQuery, type FlagAuditFilters } from '../api/client';
import type { Environment, FlagRecord } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { FlagAuditFilterBar } from '../components/flag-audit-filters';
import { FlagAuditTable } from '../components/flag-audit-table';
import { Layout } from '../components/layout';
import { useRouter, useSearchParams } from '../components/router';
import { errorMessage, isAbort } from '../lib/errors';
import { pluralize } from '../lib/format';
import './flag-audit-page.css';

type ListState = {
  items: FlagRecord[];
  nextCursor: string | null;
  loading: boolean;
  loaded: boolean;
  error: string | null;
};

const initialList: ListState = { items: [], nextCursor: null, loading: true, loaded: false, error: null };

function filtersFrom(params: URLSearchParams): FlagAuditFilters {
  const filters: FlagAuditFilters = {};
  for (const key of flagAuditFilterKeys) {
    const value = params.get(key);
    if (value !== null && value !== '') filters[key] = value;
  }
  return filters;
}

// The retro questions, each a filter: what changed under a namespace, what did this
// person or automation change, what changed in this environment around the incident.
export function FlagAuditPage() {
  const { navigate } = useRouter();
  const params = useSearchParams();
  const query = flagAuditQuery(filtersFrom(params));
  const filters = useMemo(() => filtersFrom(new URLSearchParams(query)), [query]);

  const [environments, setEnvironments] = useState<Environment[]>([]);
  const [list, setList] = useState<ListState>(initialList);
  const [reloads, setReloads] = useState(0);
  // Same generation guard as the audit log: an answer for old filters never lands in
  // the list of new ones.
  const generation = useRef(0);
  const controller = useRef<AbortController | null>(null);
  const inFlight = useRef(false);

  useEffect(() => {
    let cancelled = false;
    api.listEnvironments().then(
      (answer) => {
        if (!cancelled) setEnvironments([...answer.items].sort((a, b) => a.position - b.position));
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, []);

  const load = useCallback(
    async (cursor: string | null) => {
      if (inFlight.current) return;
      inFlight.current = true;
      const gen = generation.current;
      const abort = new AbortController();
      controller.current = abort;
      setList((s) => ({ ...s, loading: true, error: null }));
      try {
        const page = await api.flagAudit(filters, cursor, abort.signal);
        if (gen !== generation.current) return;
        setList((s) => {
          const seen = new Set(cursor === null ? [] : s.items.map((r) => r.seq));
          const fresh = page.items.filter((r) => !seen.has(r.seq));
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
    void load(null);
  }, [load, reloads]);

  useEffect(() => () => controller.current?.abort(), []);

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
    (next: FlagAuditFilters) => { navigate(`/flags/audit${flagAuditQuery(next)}`); },
    [navigate],
  );
  // Clicking an actor or environment in a row narrows the current question.
  const narrow = useCallback(
    (extra: FlagAuditFilters) => { applyFilters({ ...filters, ...extra }); },
    [applyFilters, filters],
  );

  const hasFilters = query !== '';

  const actions = (
    <button type="button" className="btn" onClick={() => { setReloads((n) => n + 1); }} data-testid="fa-refresh">
      Refresh
    </button>
  );

  return (
    <Layout title="Flag audit" actions={actions}>
      <ul className="questions muted small">
        <li>
          <strong>What changed?</strong> a namespace such as <code>ops.payments.*</code>, or one flag key
        </li>
        <li>
          <strong>Who changed it?</strong> an e-mail, a user or token id (or click a name below)
        </li>
        <li>
          <strong>Where and when?</strong> an environment and a window, or ISO times around the incident
        </li>
      </ul>
      <FlagAuditFilterBar applied={filters} environments={environments} onApply={applyFilters} />
      <ErrorBanner
        message={list.error}
        testId="fa-error"
        onRetry={() => {
          if (list.items.length === 0) setReloads((n) => n + 1);
          else void load(list.nextCursor);
        }}
      />
      <div className="audit-list" hidden={!list.loading && !list.loaded}>
        {list.loaded && list.items.length === 0 && list.error === null ? (
          <div className="empty-state" data-testid="fa-empty">
            {hasFilters ? (
              <>
                No flag changes match these filters.{' '}
                <button type="button" className="link-button" onClick={() => { applyFilters({}); }}>
                  Clear filters
                </button>
              </>
            ) : (
              'No flag changes have been recorded yet.'
            )}
          </div>
        ) : (
          list.items.length > 0 && (
            <FlagAuditTable items={list.items} onFilter={narrow} />
          )
        )}
        <div
          ref={sentinel}
          className="list-footer"
          hidden={!list.loading && list.items.length === 0}
          data-testid="fa-sentinel"
        >
          {list.loading && <span className="muted">Loading changes…</span>}
          {!list.loading && list.items.length > 0 && (
            <span className="muted" data-testid="fa-count">
              {pluralize(list.items.length, 'change')} shown
              {list.nextCursor === null ? ' — end of the records' : ''}
            </span>
          )}
          {canLoadMore && (
            <button type="button" className="btn btn-small" onClick={() => void load(list.nextCursor)} data-testid="fa-load-more">
              Load more
            </button>
          )}
        </div>
      </div>
    </Layout>
  );
}
