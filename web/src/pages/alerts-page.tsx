import { useCallback, useEffect, useMemo, useState } from 'react';
import { alertListQuery, api } from '../api/client';
import type { AlertListFilters, AlertView } from '../api/types';
import { AlertFilterBar } from '../components/alert-filters';
import { AlertHistory } from '../components/alert-history';
import { AlertTable } from '../components/alert-table';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { Link, useRouter, useSearchParams } from '../components/router';
import { errorMessage, isAbort } from '../lib/errors';
import { pluralize } from '../lib/format';
import './alerts-page.css';

/** What GET /api/alerts answers at most without a limit: the list has no further pages. */
const LIST_LIMIT = 100;

type ListState = { status: 'loading' } | { status: 'ready'; alerts: AlertView[] } | { status: 'error'; message: string };

function filtersFrom(params: URLSearchParams): AlertListFilters {
  const filters: AlertListFilters = {};
  const subject = params.get('subject');
  if (subject !== null && subject !== '') filters.subject = subject;
  const state = params.get('state');
  if (state === 'firing' || state === 'resolved') filters.state = state;
  const change = params.get('change');
  if (change !== null && change !== '') filters.change = change;
  const held = params.get('held');
  if (held === 'true' || held === '1') filters.held = true;
  return filters;
}

// Every alert that reached changeledger, newest first: what it is about (by name), its state and
// since when, the change holding it, the page it came from. The URL keeps the filters and the
// open alert, so a view can be shared as a link.
export function AlertsPage() {
  const { navigate } = useRouter();
  const params = useSearchParams();
  const query = alertListQuery(filtersFrom(params));
  const filters = useMemo(() => filtersFrom(new URLSearchParams(query)), [query]);
  const open = params.get('alert');
  const [list, setList] = useState<ListState>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    setList({ status: 'loading' });
    api.listAlerts(filters, abort.signal).then(
      (answer) => { if (!abort.signal.aborted) setList({ status: 'ready', alerts: answer.alerts }); },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setList({ status: 'error', message: errorMessage(caught) });
      },
    );
    return () => { abort.abort(); };
  }, [filters, reloads]);

  const go = useCallback(
    (next: AlertListFilters, alert: string | null) => {
      const search = new URLSearchParams(alertListQuery(next));
      if (alert !== null) search.set('alert', alert);
      const text = search.toString();
      navigate(`/alerts${text === '' ? '' : `?${text}`}`);
    },
    [navigate],
  );
  const close = useCallback(() => { go(filters, null); }, [go, filters]);

  const alerts = list.status === 'ready' ? list.alerts : [];
  const selected = open === null ? undefined : alerts.find((a) => a.fingerprint === open);
  const panel = open !== null && list.status === 'ready';
  const filtered = query !== '';

  const actions = (
    <>
      <button type="button" className="btn" onClick={() => { setReloads((n) => n + 1); }} data-testid="alerts-refresh">
        Refresh
      </button>
      <Link className="btn" to="/settings/alerts" data-testid="alerts-sources">
        Alert sources
      </Link>
    </>
  );

  return (
    <Layout title="Alerts" actions={actions}>
      <AlertFilterBar applied={filters} onApply={(next) => { go(next, null); }} />
      <ErrorBanner message={list.status === 'error' ? list.message : null} testId="alerts-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {list.status === 'loading' && <p className="muted">Loading alerts…</p>}
      {list.status === 'ready' && alerts.length === 0 && (
        <div className="card empty-state alerts-empty" data-testid="alerts-empty">
          {filtered ? (
            <>
              No alert matches these filters.{' '}
              <button type="button" className="link-button" onClick={() => { go({}, null); }} data-testid="alerts-clear">
                Clear filters
              </button>
            </>
          ) : (
            <>
              <p className="alerts-empty-title">No alert has reached changeledger yet.</p>
              <p>
                Point Alertmanager’s webhook (or Prometheus’ alerting) at changeledger: <Link to="/settings/alerts" data-testid="alerts-empty-sources">Alert sources</Link>{' '}
                has the <code>receivers:</code> snippet to paste and the token it needs. Alerts of a running change’s blast radius are then held and shown here with the change.
              </p>
            </>
          )}
        </div>
      )}
      {(alerts.length > 0 || panel) && (
        <div className={panel ? 'alerts-body with-panel' : 'alerts-body'}>
          <div className="audit-list" hidden={alerts.length === 0}>
            <AlertTable alerts={alerts} selected={selected?.fingerprint ?? null} onSelect={(fp) => { go(filters, fp); }} />
            <div className="list-footer">
              <span className="muted" data-testid="alerts-count">
                {pluralize(alerts.length, 'alert')} shown
                {alerts.length >= LIST_LIMIT ? ` — the ${String(LIST_LIMIT)} last seen; narrow the filters for older ones` : ''}
              </span>
            </div>
          </div>
          {panel && <AlertHistory key={open} fingerprint={open} initial={selected} onClose={close} />}
        </div>
      )}
    </Layout>
  );
}
