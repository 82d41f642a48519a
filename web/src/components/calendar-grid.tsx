import type { Calendar, CalendarChange, CalendarOccurrence } from '../api/governance-types';
import { changeStatuses, type ChangeStatus } from '../api/types';
import { statusLabels } from '../lib/change-format';
import { DAY, monthWeeks, overlapsDay, spanOnDay, weekdayShort, windowKindLabels } from '../lib/governance-format';
import { BypassMarker, ClassChip, TierChip } from './governance-badges';
import { changeHref } from './change-table';
import { Link } from './router';
import './calendar-grid.css';

const MAX_OCCURRENCES = 3;
const MAX_CHANGES = 4;

const statusOf = (s: string): string => ((changeStatuses as readonly string[]).includes(s) ? statusLabels[s as ChangeStatus] : s);

type Props = { month: string; calendar: Calendar; now: Date };

// A month, Monday first, in UTC: each day lists the window occurrences that reach into it
// (freezes and change windows, named in words) and the planned changes whose window does, with
// their class and risk tier, and a marker where an emergency passed a closed window.
export function CalendarGrid({ month, calendar, now }: Props) {
  const weeks = monthWeeks(month);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return (
    <div className="calendar" role="table" aria-label={`Windows and changes, ${month} (UTC)`} data-testid="calendar-grid" data-month={month}>
      <div className="calendar-row calendar-head" role="row">
        {weekdayShort.map((d) => (
          <div key={d} className="calendar-weekday" role="columnheader">
            {d}
          </div>
        ))}
      </div>
      {weeks.map((week) => (
        <div key={week[0]} className="calendar-row" role="row">
          {week.map((day) => (
            <Day key={day} day={day} inMonth={new Date(day).toISOString().slice(0, 7) === month} today={day === today} calendar={calendar} />
          ))}
        </div>
      ))}
    </div>
  );
}

function Day({ day, inMonth, today, calendar }: { day: number; inMonth: boolean; today: boolean; calendar: Calendar }) {
  const date = new Date(day).toISOString().slice(0, 10);
  const occurrences = calendar.occurrences.filter((o) => overlapsDay(o.start, o.end, day));
  const changes = calendar.changes.filter((c) => overlapsDay(c.windowStart, c.windowEnd, day) || (c.windowStart === c.windowEnd && new Date(c.windowStart).getTime() >= day && new Date(c.windowStart).getTime() < day + DAY));
  const freeze = occurrences.some((o) => o.kind === 'freeze');
  const cls = ['calendar-day', inMonth ? '' : 'calendar-day-outside', today ? 'calendar-day-today' : '', freeze ? 'calendar-day-frozen' : ''].filter((c) => c !== '').join(' ');
  const moreOccurrences = occurrences.slice(MAX_OCCURRENCES);
  const moreChanges = changes.slice(MAX_CHANGES);
  return (
    <div className={cls} role="cell" data-testid="calendar-day" data-date={date} data-in-month={inMonth}>
      <div className="calendar-date">
        <span className="calendar-date-number">{new Date(day).getUTCDate()}</span>
        {today && <span className="calendar-today">today</span>}
      </div>
      {occurrences.slice(0, MAX_OCCURRENCES).map((o) => (
        <OccurrenceItem key={`${o.windowId}:${o.start}`} o={o} day={day} />
      ))}
      {moreOccurrences.length > 0 && (
        <div className="calendar-more muted small" title={moreOccurrences.map((o) => `${windowKindLabels[o.kind]}: ${o.name}`).join('\n')}>
          +{moreOccurrences.length} more window{moreOccurrences.length === 1 ? '' : 's'}
        </div>
      )}
      {changes.slice(0, MAX_CHANGES).map((c) => (
        <ChangeItem key={c.id} c={c} day={day} />
      ))}
      {moreChanges.length > 0 && (
        <div className="calendar-more muted small" title={moreChanges.map((c) => `${c.displayId} ${c.title}`).join('\n')}>
          +{moreChanges.length} more change{moreChanges.length === 1 ? '' : 's'}
        </div>
      )}
    </div>
  );
}

function OccurrenceItem({ o, day }: { o: CalendarOccurrence; day: number }) {
  const span = spanOnDay(o.start, o.end, day);
  return (
    <div
      className={`calendar-window calendar-window-${o.kind}`}
      title={`${windowKindLabels[o.kind]} “${o.name}”: ${o.start} – ${o.end}`}
      data-testid="calendar-occurrence"
      data-kind={o.kind}
      data-window-id={o.windowId}
    >
      <div className="calendar-window-head">
        <span className="calendar-window-kind">{o.kind === 'freeze' ? 'Freeze' : 'Change window'}</span>
        <span className="calendar-window-span mono">{span}</span>
      </div>
      <div className="calendar-window-name">{o.name}</div>
    </div>
  );
}

function ChangeItem({ c, day }: { c: CalendarChange; day: number }) {
  return (
    <div className="calendar-change" data-testid="calendar-change" data-change-id={c.id} title={`${c.displayId} ${c.title} (${statusOf(c.status)}) ${c.windowStart} – ${c.windowEnd}`}>
      <div className="calendar-change-head">
        <Link to={changeHref(c.id)} className="mono calendar-change-id" data-testid="calendar-change-link">
          {c.displayId}
        </Link>
        <span className="calendar-window-span mono">{spanOnDay(c.windowStart, c.windowEnd, day)}</span>
      </div>
      <div className="calendar-change-title" data-testid="calendar-change-title">{c.title}</div>
      <div className="calendar-change-chips">
        <ClassChip changeClass={c.changeClass} />
        {c.riskTier !== null && <TierChip tier={c.riskTier} />}
        {c.windowBypassed && <BypassMarker />}
      </div>
    </div>
  );
}
