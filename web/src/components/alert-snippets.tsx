import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { ReceiversSnippet } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { CopyButton } from './copy-button';
import { ErrorBanner } from './error-banner';
import { Link } from './router';
import './alert-snippets.css';

type Loaded = { status: 'loading' } | { status: 'ready'; snippet: ReceiversSnippet } | { status: 'error'; message: string };

// What to paste so alerts reach changeledger: Alertmanager's receiver (webhook, with a token of
// the alerts:write scope) and, for teams without Alertmanager, Prometheus' alertmanagers entry.
export function AlertSnippets() {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    api.receiversSnippet(abort.signal).then(
      (snippet) => { if (!abort.signal.aborted) setLoaded({ status: 'ready', snippet }); },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setLoaded({ status: 'error', message: errorMessage(caught) });
      },
    );
    return () => { abort.abort(); };
  }, [reloads]);

  return (
    <section className="card alert-settings-card" data-testid="alert-snippets" aria-labelledby="alert-snippets-title">
      <h2 id="alert-snippets-title">Send alerts to changeledger</h2>
      <p className="muted small">
        Alertmanager and Prometheus send with a token of the <code>alerts:write</code> scope: <Link to="/tokens" data-testid="snippets-token">create one</Link> and put it where
        the snippet says <code>&lt;token&gt;</code>.
      </p>
      {loaded.status === 'loading' && <p className="muted small">Loading…</p>}
      {loaded.status === 'error' && <ErrorBanner message={loaded.message} testId="snippets-error" onRetry={() => { setReloads((n) => n + 1); }} />}
      {loaded.status === 'ready' && (
        <>
          <div className="snippet">
            <div className="snippet-head">
              <h3>
                Alertmanager <code>receivers:</code>
              </h3>
              <CopyButton value={loaded.snippet.alertmanager} label="Copy" testId="snippet-alertmanager-copy" />
            </div>
            <pre className="json snippet-text" data-testid="snippet-alertmanager">{loaded.snippet.alertmanager}</pre>
          </div>
          <div className="snippet">
            <div className="snippet-head">
              <h3>
                Prometheus <code>alerting:</code> (without Alertmanager)
              </h3>
              <CopyButton value={loaded.snippet.prometheus} label="Copy" testId="snippet-prometheus-copy" />
            </div>
            <pre className="json snippet-text" data-testid="snippet-prometheus">{loaded.snippet.prometheus}</pre>
          </div>
        </>
      )}
    </section>
  );
}
