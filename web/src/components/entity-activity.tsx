import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { Change, FlagRecord } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { HomeChangeRow } from './home-change-row';
import { HomeFlagChanges } from './home-flag-changes';
import { Link } from './router';
import './entity-activity.css';

type Loaded<T> = { items: T[] } | { error: string } | null;

function useLoaded<T>(load: (signal: AbortSignal) => Promise<T[]>, key: string): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>(null);
  useEffect(() => {
    const abort = new AbortController();
    setState(null);
    load(abort.signal).then(
      (items) => { if (!abort.signal.aborted) setState({ items }); },
      (caught: unknown) => { if (!abort.signal.aborted && !isAbort(caught)) setState({ error: errorMessage(caught) }); },
    );
    return () => { abort.abort(); };
  }, [key]); // `key` stands for what `load` reads
  return state;
}

export function registerHereHref(entityKey: string): string {
  return `/changes/new?${new URLSearchParams({ component: entityKey }).toString()}`;
}

const FLAG_RECORDS_SHOWN = 20;

// What touched the entity: the changes naming it or holding it in their blast radius scope,
// and — for a service — the flag changes of the flags it owns.
export function EntityActivity({ entityKey, kind }: { entityKey: string; kind: string }) {
  const changes = useLoaded<Change>(
    async (signal) => (await api.listChanges({ status: [], criticality: [], mine: false, q: '', component: entityKey }, signal)).changes,
    entityKey,
  );
  const service = kind === 'service';
  const flags = useLoaded<FlagRecord>(
    async (signal) => (service ? (await api.flagAudit({ service: entityKey }, null, signal)).items.slice(0, FLAG_RECORDS_SHOWN) : []),
    `${entityKey}:${String(service)}`,
  );

  return (
    <div className="entity-activity">
      <section className="card" data-testid="entity-changes" aria-labelledby="entity-changes-title">
        <h2 id="entity-changes-title">
          Changes {changes !== null && 'items' in changes && <span className="muted" data-testid="entity-changes-count">{changes.items.length}</span>}
        </h2>
        {changes === null && <p className="muted small">Loading…</p>}
        {changes !== null && 'error' in changes && <p className="home-error" data-testid="entity-changes-error">{changes.error}</p>}
        {changes !== null && 'items' in changes && changes.items.length === 0 && (
          <p className="muted" data-testid="entity-changes-empty">
            No change has named it or held it in its blast radius yet. <Link to={registerHereHref(entityKey)}>Register a change here</Link>
          </p>
        )}
        {changes !== null && 'items' in changes && changes.items.length > 0 && (
          <ul className="home-list">
            {changes.items.map((c) => (
              <HomeChangeRow key={c.id} change={c} testId="entity-change" />
            ))}
          </ul>
        )}
      </section>
      {service && (
        <section className="card" data-testid="entity-flag-changes" aria-labelledby="entity-flags-title">
          <h2 id="entity-flags-title">
            Flag changes {flags !== null && 'items' in flags && <span className="muted" data-testid="entity-flag-changes-count">{flags.items.length}</span>}
          </h2>
          {flags === null && <p className="muted small">Loading…</p>}
          {flags !== null && 'error' in flags && <p className="home-error">{flags.error}</p>}
          {flags !== null && 'items' in flags && flags.items.length === 0 && (
            <p className="muted" data-testid="entity-flag-changes-empty">
              No flag owned by this service has changed. A flag belongs here when its owner is this service.
            </p>
          )}
          {flags !== null && 'items' in flags && flags.items.length > 0 && (
            <>
              <HomeFlagChanges records={flags.items} testId="entity-flag-change" />
              <Link className="small" to={`/flags/audit?${new URLSearchParams({ service: entityKey }).toString()}`} data-testid="entity-flag-audit">
                All of them in the flag audit
              </Link>
            </>
          )}
        </section>
      )}
    </div>
  );
}
