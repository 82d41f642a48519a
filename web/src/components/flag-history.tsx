import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api/client';
import type { Environment, FlagRecord } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc, pluralize } from '../lib/format';
import { ErrorBanner } from './error-banner';
import { SourceBadge } from './flag-badges';
import { FlagChange } from './flag-change';

type Props = {
  flagKey: string;
  environments: readonly Environment[];
  // Bumped by the page after a write so the newest record shows up.
  reloadKey: number;
};

type HistoryState = { items: FlagRecord[]; nextCursor: string | null; loading: boolean; error: string | null };

const initial: HistoryState = { items: [], nextCursor: null, loading: true, error: null };

export function FlagHistory({ flagKey, environments, reloadKey }: Props) {
  const [env, setEnv] = useState('');
  const [state, setState] = useState<HistoryState>(initial);
  const generation = useRef(0);

  const load = useCallback(
    async (cursor: string | null, signal?: AbortSignal) => {
      const gen = generation.current;
      setState((s) => ({ ...s, loading: true, error: null }));
      try {
        const page = await api.flagHistory(flagKey, env, cursor, signal);
        if (gen !== generation.current) return;
        setState((s) => {
          const seen = new Set(cursor === null ? [] : s.items.map((r) => r.seq));
          const items = cursor === null ? page.items : [...s.items, ...page.items.filter((r) => !seen.has(r.seq))];
          return { items, nextCursor: page.nextCursor, loading: false, error: null };
        });
      } catch (caught) {
        if (gen !== generation.current || isAbort(caught)) return;
        setState((s) => ({ ...s, loading: false, error: errorMessage(caught) }));
      }
    },
    [flagKey, env],
  );

  useEffect(() => {
    generation.current += 1;
    const abort = new AbortController();
    void load(null, abort.signal);
    return () => { abort.abort(); };
  }, [load, reloadKey]);

  return (
    <section className="card history" data-testid="flag-history" aria-labelledby="flag-history-title">
      <div className="section-head">
        <h2 id="flag-history-title">History</h2>
        <div className="field field-row">
          <label htmlFor="history-env">Environment</label>
          <select id="history-env" value={env} onChange={(e) => { setEnv(e.target.value); }} data-testid="history-env-filter">
            <option value="">All</option>
            {environments.map((e) => (
              <option key={e.key} value={e.key}>
                {e.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorBanner message={state.error} testId="history-error" onRetry={() => void load(null)} />
      {!state.loading && state.items.length === 0 && state.error === null && (
        <p className="empty-state" data-testid="history-empty">
          No changes recorded{env === '' ? '' : ` in ${env}`}.
        </p>
      )}
      <ol className="timeline">
        {state.items.map((record) => (
          <HistoryEntry key={record.seq} record={record} />
        ))}
      </ol>
      <div className="list-footer">
        {state.loading && <span className="muted">Loading history…</span>}
        {!state.loading && state.items.length > 0 && (
          <span className="muted" data-testid="history-count">
            {pluralize(state.items.length, 'record')}
            {state.nextCursor === null ? ' — the beginning' : ''}
          </span>
        )}
        {!state.loading && state.nextCursor !== null && (
          <button type="button" className="btn btn-small" onClick={() => void load(state.nextCursor)} data-testid="history-more">
            Older changes
          </button>
        )}
      </div>
    </section>
  );
}

function HistoryEntry({ record }: { record: FlagRecord }) {
  const { actorDetail } = record;
  return (
    <li
      className={`timeline-entry change-${record.change}`}
      data-testid="history-entry"
      data-seq={record.seq}
      data-env={record.env ?? ''}
      data-change={record.change}
    >
      <div className="timeline-head">
        <time className="mono small" dateTime={record.ts} data-testid="history-time">
          {formatUtc(record.ts)}
        </time>
        {record.env !== null ? (
          <span className="pill pill-env" data-testid="history-entry-env">
            {record.env}
          </span>
        ) : (
          <span className="pill">all environments</span>
        )}
        <span className="timeline-change">
          <FlagChange record={record} />
        </span>
        <SourceBadge source={record.source} />
      </div>
      <div className="timeline-meta small">
        by <span className={`pill pill-${actorDetail.kind}`}>{actorDetail.kind}</span>{' '}
        <span className="actor-name" data-testid="history-actor" title={actorDetail.id ?? undefined}>
          {record.actor}
        </span>
        {actorDetail.trigger != null && actorDetail.trigger !== '' && (
          <span className="muted"> · triggered by {actorDetail.trigger}</span>
        )}
        {record.approvers.length > 0 && (
          <span data-testid="history-approvers">
            {' '}
            · approved by <span className="strong">{record.approvers.join(', ')}</span>
          </span>
        )}
      </div>
      {record.reason !== '' && (
        <blockquote className="reason" data-testid="history-reason">
          {record.reason}
        </blockquote>
      )}
      <div className="timeline-ids mono small muted">
        #{record.seq}
        {record.correlationId !== null && (
          <span data-testid="history-correlation"> · correlation {record.correlationId}</span>
        )}
        {record.gitops !== null && (
          <span>
            {' '}
            · commit {record.gitops.commitSha.slice(0, 12)}
            {record.gitops.deployRun !== null && ` (${record.gitops.deployRun})`}
          </span>
        )}
      </div>
    </li>
  );
}
