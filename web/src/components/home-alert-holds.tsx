import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { Change, Suppression } from '../api/types';
import { holdLine } from '../lib/alert-format';
import { errorMessage, isAbort } from '../lib/errors';
import { sentence } from '../lib/format';
import { changeHref } from './change-table';
import { ErrorBanner } from './error-banner';
import { Link } from './router';
import './home-alert-holds.css';

/** A hold lasts until five minutes after the change finished: older finishes hold nothing. */
const RELEASE_LOOKBACK_MS = 30 * 60_000;

type Hold = { change: Change; suppression: Suppression };
type Loaded = { status: 'loading' } | { status: 'ready'; holds: Hold[] } | { status: 'error'; message: string };

/** The changes that may hold alerts now: the running ones, and those that finished moments ago (releasing). */
export function holdCandidates(changes: readonly Change[], now: Date): Change[] {
  const seen = new Set<string>();
  return changes.filter((c) => {
    if (seen.has(c.id)) return false;
    seen.add(c.id);
    if (c.status === 'active') return true;
    return c.finishedAt !== null && now.getTime() - new Date(c.finishedAt).getTime() < RELEASE_LOOKBACK_MS;
  });
}

// The holds in place now: each change whose hold is active or releasing, by title, with how many
// alerts it holds and, loudly, a hold that is not where it should be. A quiet line when none.
export function HomeAlertHolds({ changes, at }: { changes: readonly Change[]; at: Date }) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const ids = holdCandidates(changes, at).map((c) => c.id).join(',');

  useEffect(() => {
    const abort = new AbortController();
    const candidates = holdCandidates(changes, at);
    Promise.all(candidates.map((c) => api.changeSuppression(c.id, abort.signal).then((suppression) => ({ change: c, suppression })))).then(
      (all) => {
        if (!abort.signal.aborted) setLoaded({ status: 'ready', holds: all.filter((h) => h.suppression.state === 'active' || h.suppression.state === 'releasing') });
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setLoaded({ status: 'error', message: errorMessage(caught) });
      },
    );
    return () => { abort.abort(); };
    // Keyed on the candidates' ids: the lists are new objects on every home load.
  }, [ids]);

  return (
    <section className="card home-section" data-testid="home-holds" aria-labelledby="home-holds-title">
      <div className="home-section-head">
        <h2 id="home-holds-title">
          Alert holds {loaded.status === 'ready' && <span className="muted" data-testid="home-holds-count">{loaded.holds.length}</span>}
        </h2>
        <Link to="/alerts?held=true" className="small" data-testid="home-holds-more">
          Held alerts
        </Link>
      </div>
      {loaded.status === 'loading' && <p className="muted small">Loading…</p>}
      {loaded.status === 'error' && <ErrorBanner message={loaded.message} testId="home-holds-error" />}
      {loaded.status === 'ready' && loaded.holds.length === 0 && (
        <p className="muted small home-holds-none" data-testid="home-holds-empty">
          No alerts are held now: holds start with a change and end five minutes after it.
        </p>
      )}
      {loaded.status === 'ready' && loaded.holds.length > 0 && (
        <ul className="home-list">
          {loaded.holds.map(({ change: c, suppression: s }) => (
            <li key={c.id} className="home-row home-hold" data-testid="home-hold" data-change-id={c.id} data-state={s.state}>
              <div className="home-row-main">
                <Link to={changeHref(c.id)} className="mono home-row-id">
                  {c.displayId}
                </Link>
                <Link to={changeHref(c.id)} className="home-row-title ellipsis" data-testid="home-hold-title" title={c.title}>
                  {c.title}
                </Link>
              </div>
              <div className="small home-row-meta">
                <strong data-testid="home-hold-held">{s.held} held</strong> <span className="muted">· {holdLine(s)}</span>
              </div>
              {s.problem !== null && (
                <div className="small field-error home-hold-problem" role="alert" data-testid="home-hold-problem">
                  {sentence(s.problem)}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
