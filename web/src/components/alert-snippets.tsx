import { useEffect, useState, type ReactNode } from 'react';
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
    <section className="card settings-card" data-testid="alert-snippets" aria-labelledby="alert-snippets-title">
      <h2 id="alert-snippets-title">Send alerts to changeledger</h2>
      <p className="muted small">
        Alertmanager and Prometheus send with a token of the <code>alerts:write</code> scope: <Link to="/tokens" data-testid="snippets-token">create one</Link> and put it where
        the snippets say <code>REPLACE_WITH_AN_ALERTS_WRITE_TOKEN</code>.
      </p>
      {loaded.status === 'loading' && <p className="muted small">Loading…</p>}
      {loaded.status === 'error' && <ErrorBanner message={loaded.message} testId="snippets-error" onRetry={() => { setReloads((n) => n + 1); }} />}
      {loaded.status === 'ready' && (
        <>
          {loaded.snippet.pipelineUrl === null && (
            <div className="banner banner-warn small" data-testid="snippets-no-pipeline">
              <span className="banner-text">
                The pipeline listener’s address is not known here: replace <code>changeledger.example:4320</code> with where it listens.
              </span>
            </div>
          )}
          <Snippet
            testId="snippet-alertmanager"
            title={<>Alertmanager: <code>route:</code> and <code>receivers:</code></>}
            hint="Relay mode: changeledger receives every alert and forwards the ones it does not hold."
            text={loaded.snippet.alertmanagerYaml}
          />
          <Snippet
            testId="snippet-child-route"
            title={<>Keeping your own routing: a first child route</>}
            hint="Silence mode: put it first under your route’s routes: (with the changeledger receiver above); every alert is copied to changeledger and your routing stays."
            text={loaded.snippet.alertmanagerChildRouteYaml}
          />
          <Snippet
            testId="snippet-prometheus"
            title={<>Prometheus <code>alerting:</code> (without Alertmanager)</>}
            hint="Prometheus sends its alerts to changeledger directly, as it would to an Alertmanager."
            text={loaded.snippet.prometheusYaml}
          />
        </>
      )}
    </section>
  );
}

function Snippet({ testId, title, hint, text }: { testId: string; title: ReactNode; hint: string; text: string }) {
  return (
    <div className="snippet">
      <div className="snippet-head">
        <h3>{title}</h3>
        <CopyButton value={text} label="Copy" testId={`${testId}-copy`} />
      </div>
      <p className="muted small snippet-hint">{hint}</p>
      <pre className="json snippet-text" data-testid={testId}>
        {text}
      </pre>
    </div>
  );
}
