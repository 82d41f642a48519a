import type { Delivery, DeliveryState } from '../api/types';
import { attemptsText, deliveryStateLabels, localTime, localTitle } from '../lib/delivery-format';
import { formatUtc } from '../lib/format';
import './delivery-row.css';

export function DeliveryBadge({ state }: { state: DeliveryState }) {
  return (
    <span className={`status delivery-state delivery-state-${state}`} data-testid="delivery-state" data-state={state}>
      {deliveryStateLabels[state]}
    </span>
  );
}

const actionLabels: Record<NonNullable<Delivery['action']>, string> = { create: 'opens the ticket', update: 'updates the ticket', test: 'test' };

// One callback or ticket step: its event and state, the last HTTP status, what went wrong or
// what to know, and each attempt behind a disclosure.
export function DeliveryRow({ delivery, channel }: { delivery: Delivery; channel: 'callback' | 'ticket' }) {
  const d = delivery;
  return (
    <div className="delivery" data-testid="delivery" data-channel={channel} data-event={d.event} data-state={d.state} data-delivery-id={d.deliveryId}>
      <div className="delivery-head">
        <span className="mono strong delivery-event" data-testid="delivery-event">
          {d.event}
        </span>
        <DeliveryBadge state={d.state} />
        {d.state === 'retrying' && d.nextAttemptAt !== null && (
          <span className="small delivery-next" data-testid="delivery-next" title={localTitle(d.nextAttemptAt)}>
            next attempt at {localTime(d.nextAttemptAt)}
          </span>
        )}
        {d.httpStatus !== null && (
          <span className="mono small delivery-http" data-testid="delivery-http" data-status={d.httpStatus}>
            HTTP {d.httpStatus}
          </span>
        )}
        <span className="mono muted small delivery-at" title={formatUtc(d.at)}>
          {formatUtc(d.at)}
        </span>
      </div>
      {channel === 'ticket' && d.action !== null && <div className="muted small">{actionLabels[d.action]}</div>}
      {d.error !== null && (
        <div className="field-error small delivery-error" data-testid="delivery-error">
          {d.error}
        </div>
      )}
      {d.note !== null && (
        <div className="small delivery-note" data-testid="delivery-note">
          {d.note}
        </div>
      )}
      {d.attemptLog.length === 0 ? (
        <div className="muted small" data-testid="delivery-attempts">
          {attemptsText(d.attempts)}
        </div>
      ) : (
        <details className="delivery-attempts">
          <summary className="muted small" data-testid="delivery-attempts">
            {attemptsText(d.attempts)}
          </summary>
          <table className="data-table attempt-table">
            <thead>
              <tr>
                <th>#</th>
                <th>At</th>
                <th>HTTP</th>
                <th>Took</th>
                <th>Address</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody>
              {d.attemptLog.map((a) => (
                <tr key={a.attempt} data-testid="delivery-attempt">
                  <td className="num">{a.attempt}</td>
                  <td className="mono nowrap">{formatUtc(a.at)}</td>
                  <td className="mono">{a.httpStatus ?? '—'}</td>
                  <td className="mono nowrap">{a.durationMs} ms</td>
                  <td className="mono">{a.address ?? '—'}</td>
                  <td className="attempt-error">{a.error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  );
}
