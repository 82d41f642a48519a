import type { KeyboardEvent } from 'react';
import type { AuditEvent } from '../api/types';
import { formatUtc } from '../lib/format';
import './audit-table.css';

type Props = {
  items: readonly AuditEvent[];
  selectedSeq: number | null;
  onSelect: (seq: number) => void;
};

export function AuditTable({ items, selectedSeq, onSelect }: Props) {
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, seq: number): void => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(seq);
    }
  };

  return (
    <table className="data-table audit-table" data-testid="audit-table">
      <thead>
        <tr>
          <th scope="col" className="col-time">Time (UTC)</th>
          <th scope="col" className="col-seq">Seq</th>
          <th scope="col" className="col-actor">Actor</th>
          <th scope="col" className="col-action">Action</th>
          <th scope="col">Target</th>
          <th scope="col" className="col-source">Source</th>
        </tr>
      </thead>
      <tbody>
        {items.map((event) => {
          const selected = event.seq === selectedSeq;
          return (
            <tr
              key={event.seq}
              className={selected ? 'clickable selected' : 'clickable'}
              onClick={() => { onSelect(event.seq); }}
              onKeyDown={(e) => { onKeyDown(e, event.seq); }}
              tabIndex={0}
              aria-selected={selected}
              data-testid="audit-row"
              data-seq={event.seq}
              data-action={event.action}
            >
              <td className="mono nowrap" title={event.occurredAt}>
                {formatUtc(event.occurredAt)}
              </td>
              <td className="mono num">{event.seq}</td>
              <td title={actorTitle(event)}>
                {/* Kind first: names (often emails) get truncated, the kind must stay visible. */}
                <span className={`pill pill-${event.actor.kind}`}>{event.actor.kind}</span>{' '}
                <span className="actor-name">{event.actor.name}</span>
                {event.actor.automation != null && event.actor.automation !== '' && (
                  <span className="muted small"> via {event.actor.automation}</span>
                )}
              </td>
              <td className="mono" data-testid="audit-action" title={event.action}>
                {event.action}
              </td>
              <td className="mono" title={`${event.target.type}:${event.target.id}`}>
                <span className="muted">{event.target.type}:</span>
                {event.target.id}
              </td>
              <td className="col-source">
                <span className="pill pill-source">{event.source}</span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function actorTitle(event: AuditEvent): string {
  const { actor } = event;
  const parts = [`${actor.kind} ${actor.name}`];
  if (actor.id !== null) parts.push(`id ${actor.id}`);
  if (actor.automation != null && actor.automation !== '') parts.push(`automation ${actor.automation}`);
  if (actor.trigger != null && actor.trigger !== '') parts.push(`trigger ${actor.trigger}`);
  return parts.join(' · ');
}
