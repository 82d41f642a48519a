import { useEffect, useState } from 'react';
import { governanceApi } from '../api/governance-client';
import type { Calendar, ChangeWindow } from '../api/governance-types';
import { CalendarGrid } from '../components/calendar-grid';
import { ErrorBanner } from '../components/error-banner';
import { WindowKindChip } from '../components/governance-badges';
import { Layout } from '../components/layout';
import { useRouter, useSearchParams } from '../components/router';
import { useSession } from '../components/session';
import { WindowForm } from '../components/window-form';
import { WindowImport } from '../components/window-import';
import { WindowList } from '../components/window-list';
import { errorMessage, isAbort } from '../lib/errors';
import { pluralize } from '../lib/format';
import { isMonth, monthOf, monthTitle, shiftMonth } from '../lib/governance-format';
import './calendar-page.css';

// The change calendar: a month of window occurrences (freezes and change windows) and the planned
// changes inside them, in UTC; below it the windows themselves, and for owners and admins the
// forms that add one and import an iCalendar feed. ?month=YYYY-MM keeps the month in the URL.
export function CalendarPage() {
  const { session } = useSession();
  const manager = session.role === 'owner' || session.role === 'admin';
  const { navigate } = useRouter();
  const params = useSearchParams();
  const asked = params.get('month');
  const thisMonth = monthOf(new Date());
  const month = isMonth(asked) ? asked : thisMonth;
  const [calendar, setCalendar] = useState<{ month: string; answer: Calendar } | null>(null);
  const [windows, setWindows] = useState<ChangeWindow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    Promise.all([governanceApi.calendar(month, abort.signal), governanceApi.listWindows(abort.signal)]).then(
      ([answer, list]) => {
        if (abort.signal.aborted) return;
        setCalendar({ month, answer });
        setWindows([...list.items].sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name)));
        setError(null);
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [month, reloads]);

  const go = (to: string): void => { navigate(to === thisMonth ? '/change-calendar' : `/change-calendar?month=${to}`); };
  const changed = (text: string): void => {
    setNotice(text);
    setReloads((n) => n + 1);
  };

  const actions = (
    <div className="calendar-nav" role="group" aria-label="Month">
      <button type="button" className="btn" onClick={() => { go(shiftMonth(month, -1)); }} data-testid="calendar-prev">
        ‹ {monthTitle(shiftMonth(month, -1))}
      </button>
      <button type="button" className="btn" disabled={month === thisMonth} onClick={() => { go(thisMonth); }} data-testid="calendar-today">
        This month
      </button>
      <button type="button" className="btn" onClick={() => { go(shiftMonth(month, 1)); }} data-testid="calendar-next">
        {monthTitle(shiftMonth(month, 1))} ›
      </button>
    </div>
  );

  const shown = calendar !== null && calendar.month === month ? calendar.answer : null;

  return (
    <Layout title={`Change calendar — ${monthTitle(month)}`} actions={actions}>
      <ErrorBanner message={error} testId="calendar-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {notice !== null && (
        <div className="banner banner-ok" role="status" data-testid="calendar-notice">
          <span className="banner-text">{notice}</span>
          <button type="button" className="btn btn-small" onClick={() => { setNotice(null); }}>
            Dismiss
          </button>
        </div>
      )}
      <div className="calendar-legend small" data-testid="calendar-legend">
        <WindowKindChip kind="freeze" testId="legend-freeze" /> no change it applies to starts
        <WindowKindChip kind="change" testId="legend-change" /> changes it applies to start only inside one
        <span className="muted">· all times UTC</span>
        {shown !== null && (
          <span className="muted calendar-counts" data-testid="calendar-counts">
            {pluralize(shown.occurrences.length, 'window occurrence')}, {pluralize(shown.changes.length, 'planned change')} this month
          </span>
        )}
      </div>
      {shown === null && error === null && <p className="muted">Loading {monthTitle(month)}…</p>}
      {shown !== null && <CalendarGrid month={month} calendar={shown} now={new Date()} />}

      <section className="card card-flush calendar-windows" aria-labelledby="windows-title">
        <h2 id="windows-title" className="card-title">Windows</h2>
        {windows !== null && windows.length === 0 && (
          <p className="empty-state" data-testid="windows-empty">
            No window yet: any change may start whenever it is approved.{manager ? ' Add one below, or import a calendar.' : ' Owners and admins add them.'}
          </p>
        )}
        {windows !== null && windows.length > 0 && <WindowList windows={windows} canManage={manager} onDeleted={changed} />}
      </section>
      {manager && (
        <div className="calendar-forms">
          <WindowForm onAdded={changed} />
          <WindowImport
            onImported={(a) => {
              setReloads((n) => n + 1);
              setNotice(`Imported ${a.feed}: ${String(a.created)} created, ${String(a.updated)} updated, ${String(a.removed)} removed.`);
            }}
          />
        </div>
      )}
    </Layout>
  );
}
