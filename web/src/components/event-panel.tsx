import { useEffect, useRef } from 'react';
import type { AuditFilters } from '../api/client';
import type { AuditEvent } from '../api/types';
import { auditDiff } from '../lib/audit-diff';
import { formatUtc } from '../lib/format';
import { CopyButton } from './copy-button';
import { isSettingsWrite, SettingsCaptureBlock } from './settings-capture-block';
import './event-panel.css';

type Props = {
  event: AuditEvent;
  onClose: () => void;
  onFilter: (filters: AuditFilters) => void;
};

export function EventPanel({ event, onClose, onFilter }: Props) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const json = JSON.stringify(event, null, 2);
  const diff = auditDiff(event.data);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => { window.removeEventListener('keydown', onKey); };
  }, [onClose]);

  // Move focus into the panel when a different event is opened so keyboard users land on it.
  useEffect(() => {
    closeRef.current?.focus({ preventScroll: true });
  }, [event.seq]);

  return (
    <aside className="side-panel" aria-label={`Audit event ${String(event.seq)}`} data-testid="event-panel">
      <div className="side-panel-head">
        <div>
          <div className="side-panel-title">
            Event <span className="mono">#{event.seq}</span>
          </div>
          <div className="mono small">{event.action}</div>
        </div>
        <button
          ref={closeRef}
          type="button"
          className="btn btn-small"
          onClick={onClose}
          aria-label="Close event details"
          data-testid="event-panel-close"
        >
          Close
        </button>
      </div>

      <dl className="kv">
        <dt>Time</dt>
        <dd className="mono">{formatUtc(event.occurredAt)}</dd>
        <dt>Hash</dt>
        <dd className="hash-line">
          <code className="mono break" data-testid="event-hash">{event.hash}</code>
          <CopyButton value={event.hash} label="Copy hash" />
        </dd>
        <dt>Prev hash</dt>
        <dd className="hash-line">
          <code className="mono break" data-testid="event-prev-hash">{event.prevHash}</code>
        </dd>
        {event.correlationId !== null && (
          <>
            <dt>Correlation</dt>
            <dd>
              <button
                type="button"
                className="link-button mono"
                onClick={() => { onFilter({ correlationId: event.correlationId ?? '' }); }}
                title="Show every event of this correlation id"
              >
                {event.correlationId}
              </button>
            </dd>
          </>
        )}
        {event.requestId !== null && (
          <>
            <dt>Request</dt>
            <dd className="mono break">{event.requestId}</dd>
          </>
        )}
      </dl>

      <div className="panel-filters">
        <button
          type="button"
          className="btn btn-small"
          onClick={() => { onFilter({ targetType: event.target.type, targetId: event.target.id }); }}
        >
          Same target
        </button>
        {event.actor.id !== null && (
          <button type="button" className="btn btn-small" onClick={() => { onFilter({ actor: event.actor.id ?? '' }); }}>
            Same actor
          </button>
        )}
        <CopyButton value={json} label="Copy JSON" />
      </div>

      <section aria-label="What changed" data-testid="event-diff">
        {diff.changes.length > 0 ? (
          <table className="diff-table">
            <caption className="visually-hidden">What changed: old → new</caption>
            <tbody>
              {diff.changes.map((row) => (
                <tr key={row.key} className={`diff-${row.kind}`} data-testid="event-diff-row" data-kind={row.kind} data-key={row.key}>
                  <th scope="row" className="mono">{row.key}</th>
                  <td>
                    {row.kind !== 'added' && <span className="diff-before mono">{row.before}</span>}
                    {row.kind === 'changed' && <span className="diff-arrow" aria-label="becomes"> → </span>}
                    {row.kind !== 'removed' && <span className="diff-after mono">{row.after}</span>}
                    {row.kind !== 'changed' && <span className="diff-note small">{row.kind}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted small">No before and after in this event.</p>
        )}
        {diff.facts.length > 0 && (
          <dl className="kv diff-facts" data-testid="event-facts">
            {diff.facts.map((fact) => (
              <div key={fact.key} className="diff-fact">
                <dt className="mono">{fact.key}</dt>
                <dd className="mono">{fact.value}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      {isSettingsWrite(event.action) && <SettingsCaptureBlock seq={event.seq} />}

      <details className="raw-json" data-testid="event-raw">
        <summary>Raw JSON</summary>
        <pre className="json" data-testid="event-json" tabIndex={0}>
          {json}
        </pre>
      </details>
    </aside>
  );
}
