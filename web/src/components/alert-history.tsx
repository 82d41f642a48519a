import { useEffect, useRef, useState } from 'react';
import { api } from '../api/client';
import type { AlertDetail, AlertView } from '../api/types';
import { alertSince, newestFirst, safeExternalUrl, viaLabels } from '../lib/alert-format';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc, pluralize } from '../lib/format';
import { AlertStateBadge, HeldBadge, SourceLink } from './alert-badges';
import { changeHref } from './change-table';
import { ErrorBanner } from './error-banner';
import { Link } from './router';
import './alert-history.css';

type Loaded = { status: 'loading' } | { status: 'ready'; detail: AlertDetail } | { status: 'error'; message: string };

// One alert beside the list: what it is about, its labels, and every firing → resolved
// transition it went through, newest first, each marked when a change's hold kept it quiet.
// The list's row shows at once; an alert opened from a link that the list does not hold (older
// than its last 100, or filtered out) shows once read.
export function AlertHistory({ fingerprint, initial, onClose }: { fingerprint: string; initial: AlertView | undefined; onClose: () => void }) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const abort = new AbortController();
    setLoaded({ status: 'loading' });
    api.getAlert(fingerprint, abort.signal).then(
      (detail) => { if (!abort.signal.aborted) setLoaded({ status: 'ready', detail }); },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setLoaded({ status: 'error', message: errorMessage(caught) });
      },
    );
    return () => { abort.abort(); };
  }, [fingerprint, reloads]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => { window.removeEventListener('keydown', onKey); };
  }, [onClose]);
  useEffect(() => { closeRef.current?.focus({ preventScroll: true }); }, [fingerprint]);

  const shown = loaded.status === 'ready' ? loaded.detail.alert : initial;
  if (shown === undefined) {
    return (
      <aside className="side-panel alert-history" aria-label="Alert" data-testid="alert-history">
        <div className="side-panel-head">
          <div className="side-panel-title mono">{fingerprint}</div>
          <button ref={closeRef} type="button" className="btn btn-small" onClick={onClose} aria-label="Close the alert's history" data-testid="alert-history-close">
            Close
          </button>
        </div>
        {loaded.status === 'loading' && <p className="muted small">Reading the alert…</p>}
        {loaded.status === 'error' && <ErrorBanner message={loaded.message} testId="alert-history-error" onRetry={() => { setReloads((n) => n + 1); }} />}
      </aside>
    );
  }
  const url = safeExternalUrl(shown.generatorURL);
  const transitions = loaded.status === 'ready' ? newestFirst(loaded.detail.transitions) : [];
  const heldCount = transitions.filter((t) => t.heldBy !== null).length;
  const labels = Object.entries(shown.labels).sort(([a], [b]) => a.localeCompare(b));
  const summary = shown.annotations['summary'] ?? shown.annotations['description'] ?? null;

  return (
    <aside className="side-panel alert-history" aria-label={`Alert ${shown.subjectLabel}`} data-testid="alert-history">
      <div className="side-panel-head">
        <div>
          <div className="side-panel-title" data-testid="alert-history-title">{shown.subjectLabel}</div>
          <div className="small">
            <AlertStateBadge state={shown.state} /> <span className="muted">{alertSince(shown)}</span>
          </div>
        </div>
        <button ref={closeRef} type="button" className="btn btn-small" onClick={onClose} aria-label="Close the alert's history" data-testid="alert-history-close">
          Close
        </button>
      </div>
      {summary !== null && <p className="alert-summary">{summary}</p>}
      <div className="alert-history-links">
        {shown.heldBy !== null && <HeldBadge heldBy={shown.heldBy} />}
        {url !== null && <SourceLink url={url} testId="alert-history-source" />}
      </div>
      <dl className="kv">
        <dt>Subject</dt>
        <dd>{shown.subject.kind === 'unmapped' ? <span className="muted">unmapped: never held</span> : `${shown.subject.name} (${shown.subject.kind})`}</dd>
        <dt>Sent by</dt>
        <dd className="mono small">{shown.source}</dd>
        <dt>First seen</dt>
        <dd className="mono small">{formatUtc(shown.firstSeen)}</dd>
        <dt>Last seen</dt>
        <dd className="mono small">{formatUtc(shown.lastSeen)}</dd>
      </dl>

      <section>
        <h3 className="alert-history-subhead">
          History {loaded.status === 'ready' && <span className="muted small" data-testid="alert-history-count">{pluralize(transitions.length, 'transition')}{heldCount > 0 ? `, ${String(heldCount)} held` : ''}</span>}
        </h3>
        {loaded.status === 'loading' && <p className="muted small">Reading its history…</p>}
        {loaded.status === 'error' && <ErrorBanner message={loaded.message} testId="alert-history-error" onRetry={() => { setReloads((n) => n + 1); }} />}
        {loaded.status === 'ready' && (
          <ol className="alert-transitions" data-testid="alert-transitions">
            {transitions.map((t) => (
              <li key={`${t.state}:${t.at}`} className={`alert-transition alert-transition-${t.state}`} data-testid="alert-transition" data-state={t.state} data-held={t.heldBy !== null}>
                <span className="alert-transition-what">{t.state === 'firing' ? 'Fired' : 'Resolved'}</span>{' '}
                <span className="mono small">{formatUtc(t.at)}</span>
                <div className="muted small">
                  {viaLabels[t.via]}
                  {t.heldBy !== null && (
                    <>
                      {' · '}
                      <Link to={changeHref(t.heldBy)} className="alert-transition-held" data-testid="alert-transition-held">
                        held by {shown.heldBy?.changeId === t.heldBy ? shown.heldBy.title : 'a change'}
                      </Link>
                    </>
                  )}
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>

      <details className="alert-labels">
        <summary>{pluralize(labels.length, 'label')}</summary>
        <dl className="kv kv-wide" data-testid="alert-labels">
          {labels.map(([k, v]) => (
            <div key={k} className="kv-row">
              <dt className="mono">{k}</dt>
              <dd className="mono small">{v}</dd>
            </div>
          ))}
        </dl>
      </details>
    </aside>
  );
}
