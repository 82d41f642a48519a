import { useEffect, useRef, useState } from 'react';
import { api } from '../api/client';
import { pipelineFields, type Change, type ChangeDeliveries, type Delivery } from '../api/types';
import { personName } from '../lib/change-format';
import { nextLookMs, ticketKindLabels } from '../lib/delivery-format';
import { pluralize } from '../lib/format';
import { errorMessage, isAbort } from '../lib/errors';
import { DeliveryBadge, DeliveryRow } from './delivery-row';
import './pipeline-card.css';

const pipelineLabels: Record<string, string> = {
  pipeline: 'Pipeline',
  run: 'Run',
  runUrl: 'Run link',
  commit: 'Commit',
  version: 'Version',
  environment: 'Environment',
  repo: 'Repository',
};

type Props = {
  change: Change;
  // May send a test callback: the change's owner, an owner or an admin.
  canWrite: boolean;
  // Bumped each time the page reloads the change: the deliveries are read again with it.
  refresh: number;
  // After a test callback: the page reloads the change (its timeline tells of the test).
  onTested: () => void;
};

type Loaded = { status: 'loading' } | { status: 'ready'; answer: ChangeDeliveries } | { status: 'error'; message: string };

function orderedPipeline(change: Change): [string, string][] {
  const order = (k: string): number => {
    const at = (pipelineFields as readonly string[]).indexOf(k);
    return at === -1 ? pipelineFields.length : at;
  };
  return Object.entries(change.pipeline ?? {})
    .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '')
    .sort(([a], [b]) => order(a) - order(b));
}

// The pipeline that registered the change and what changeledger told it and the ticket
// destination: the last callback (earlier ones behind a disclosure), the ticket and each of
// its steps, and a test callback for who may write the change.
export function PipelineCard({ change, canWrite, refresh, onTested }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [look, setLook] = useState(0);
  const quietLooks = useRef(0);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<{ delivery: Delivery } | { error: string } | null>(null);

  useEffect(() => {
    quietLooks.current = 0;
  }, [change.id, refresh]);

  useEffect(() => {
    const abort = new AbortController();
    api.changeDeliveries(change.id, abort.signal).then(
      (answer) => { if (!abort.signal.aborted) setLoaded({ status: 'ready', answer }); },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setLoaded({ status: 'error', message: errorMessage(caught) });
      },
    );
    return () => { abort.abort(); };
  }, [change.id, refresh, look]);

  // Deliveries go out from the worker: look again while one is due, and at the next retry.
  const answer = loaded.status === 'ready' ? loaded.answer : null;
  useEffect(() => {
    if (answer === null) return;
    const wait = nextLookMs(answer.deliveries, quietLooks.current, Date.now());
    if (wait === null) return;
    const timer = window.setTimeout(() => {
      quietLooks.current += 1;
      setLook((n) => n + 1);
    }, wait);
    return () => { window.clearTimeout(timer); };
  }, [answer]);

  const sendTest = async (): Promise<void> => {
    setTesting(true);
    setTested(null);
    try {
      setTested(await api.sendTestCallback(change.id));
      quietLooks.current = 0;
      onTested();
    } catch (caught) {
      setTested({ error: errorMessage(caught) });
    } finally {
      setTesting(false);
    }
  };

  const entries = orderedPipeline(change);
  const deliveries = answer?.deliveries ?? [];
  const callbacks = deliveries.filter((d) => d.channel === 'callback');
  const steps = deliveries.filter((d) => d.channel === 'ticket');
  const ticket = answer?.ticket ?? change.ticket ?? null;
  const callbackUrl = answer?.callbackUrl ?? change.callbackUrl;
  if (entries.length === 0 && callbackUrl === null && change.viaTokenId === null && ticket === null && deliveries.length === 0) return null;

  const last = callbacks.at(-1) ?? null;
  const earlier = callbacks.slice(0, -1).reverse();

  return (
    <section className="card pipeline-card" data-testid="change-pipeline-card">
      <h2>Pipeline</h2>
      {(entries.length > 0 || change.viaTokenId !== null) && (
        <dl className="kv kv-wide">
          {entries.map(([k, v]) => (
            <div key={k} className="kv-row">
              <dt>{pipelineLabels[k] ?? k}</dt>
              <dd className="mono break" data-testid={`pipeline-${k}`}>
                {k === 'runUrl' && /^https?:\/\//.test(v) ? (
                  <a href={v} target="_blank" rel="noreferrer noopener">
                    {v}
                  </a>
                ) : (
                  v
                )}
              </dd>
            </div>
          ))}
          {change.viaTokenId !== null && (
            <div className="kv-row">
              <dt>Registered by</dt>
              <dd>
                an API token of {personName(change.owner)} <span className="mono muted small">{change.viaTokenId}</span>
              </dd>
            </div>
          )}
        </dl>
      )}
      {loaded.status === 'error' && (
        <p className="field-error small" role="alert" data-testid="deliveries-error">
          The deliveries could not be read: {loaded.message}
        </p>
      )}

      {(callbackUrl !== null || callbacks.length > 0) && (
        <div className="pipeline-section" data-testid="pipeline-callbacks">
          <div className="section-head">
            <h3>Callbacks</h3>
            {canWrite && callbackUrl !== null && (
              <button type="button" className="btn btn-small" disabled={testing} onClick={() => void sendTest()} data-testid="callback-test">
                {testing ? 'Sending…' : 'Send test callback'}
              </button>
            )}
          </div>
          {callbackUrl !== null && (
            <p className="mono small break callback-url" data-testid="callback-url">
              {callbackUrl}
            </p>
          )}
          {tested !== null && <TestOutcome tested={tested} onDismiss={() => { setTested(null); }} />}
          {last !== null ? (
            <div data-testid="callback-last">
              <DeliveryRow delivery={last} channel="callback" />
            </div>
          ) : (
            answer !== null && <p className="muted small">No callback sent yet: one goes out at each step of the change.</p>
          )}
          {earlier.length > 0 && (
            <details className="delivery-earlier" data-testid="callbacks-earlier">
              <summary className="small" data-testid="callbacks-earlier-summary">
                {pluralize(earlier.length, 'earlier callback')}
              </summary>
              {earlier.map((d) => (
                <DeliveryRow key={d.deliveryId} delivery={d} channel="callback" />
              ))}
            </details>
          )}
        </div>
      )}

      {(ticket !== null || steps.length > 0) && (
        <div className="pipeline-section" data-testid="pipeline-ticket">
          <div className="section-head">
            <h3>Ticket</h3>
          </div>
          {ticket !== null ? (
            <p className="ticket-ref" data-testid="ticket-ref" data-kind={ticket.kind} data-key={ticket.key}>
              <span className="pill">{ticketKindLabels[ticket.kind]}</span>{' '}
              {ticket.url !== null ? (
                <a className="mono strong" href={ticket.url} target="_blank" rel="noreferrer noopener" data-testid="ticket-link">
                  {ticket.key}
                </a>
              ) : (
                <span className="mono strong">{ticket.key}</span>
              )}
            </p>
          ) : (
            <p className="muted small" data-testid="ticket-ref">
              Not opened yet.
            </p>
          )}
          {steps.map((d) => (
            <DeliveryRow key={d.deliveryId} delivery={d} channel="ticket" />
          ))}
        </div>
      )}
    </section>
  );
}

function TestOutcome({ tested, onDismiss }: { tested: { delivery: Delivery } | { error: string }; onDismiss: () => void }) {
  if ('error' in tested) {
    return (
      <div className="banner banner-error" role="alert" data-testid="callback-test-result" data-state="error">
        <span className="banner-text">{tested.error}</span>
        <button type="button" className="btn btn-small" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    );
  }
  const d = tested.delivery;
  const good = d.state === 'delivered';
  return (
    <div className={good ? 'banner banner-ok' : 'banner banner-warn'} role="status" data-testid="callback-test-result" data-state={d.state}>
      <span className="banner-text">
        Test callback <DeliveryBadge state={d.state} />
        {d.httpStatus !== null && <span className="mono"> HTTP {d.httpStatus}</span>}
        {d.error !== null && <span> — {d.error}</span>}
      </span>
      <button type="button" className="btn btn-small" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
