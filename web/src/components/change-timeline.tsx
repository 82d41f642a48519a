import type { AuditEvent } from '../api/types';
import { describeEvent } from '../lib/change-events';
import { formatUtc } from '../lib/format';
import './change-timeline.css';

// The change's audit events, oldest first: who did what, when, and the event's data in words.
// The audit names people by e-mail; those the page knows (the requester, the approvers) are
// shown by name, the e-mail in the tooltip.
export function ChangeTimeline({ events, names }: { events: readonly AuditEvent[]; names: ReadonlyMap<string, string> }) {
  return (
    <section className="card" data-testid="change-timeline">
      <h2>Timeline</h2>
      {events.length === 0 ? (
        <p className="muted small">Nothing recorded yet.</p>
      ) : (
        <ol className="timeline change-timeline">
          {events.map((e) => {
            const line = describeEvent(e);
            // The server and an automation (autoStart) act by themselves: the line names them in its words.
            const system = e.actor.kind === 'system' || e.actor.kind === 'automation';
            return (
              <li key={e.seq} className={`timeline-entry timeline-${line.tone}`} data-testid="timeline-entry" data-action={e.action}>
                <div className="timeline-head">
                  <span className="timeline-change">
                    {!system && (
                      <span className="strong" title={e.actor.name} data-testid="timeline-actor">
                        {(e.actor.id !== null ? names.get(e.actor.id) : undefined) ?? e.actor.name}
                      </span>
                    )}
                    {e.actor.kind === 'token' && <span className="pill pill-token timeline-via">token</span>}
                    {e.actor.kind === 'automation' && <span className="pill timeline-via" data-testid="timeline-automation">automation</span>}{' '}
                    <span data-testid="timeline-what">{system ? capitalise(line.what) : line.what}</span>
                  </span>
                  <span className="mono muted small nowrap" title={`#${String(e.seq)} · ${e.source}`}>
                    {formatUtc(e.occurredAt)}
                  </span>
                </div>
                {line.details.length > 0 && (
                  <ul className="timeline-details small" data-testid="timeline-details">
                    {line.details.map((d) => (
                      <li key={d}>{d}</li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function capitalise(text: string): string {
  return text === '' ? text : `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;
}
