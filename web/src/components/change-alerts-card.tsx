import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { ChangeAlert, ChangeAlerts, HeldOutcome, Suppression } from '../api/types';
import { holdLine, holdModeLabels, holdStateLabels, outcomeLabels, silencesByAlertmanager } from '../lib/alert-format';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc, sentence } from '../lib/format';
import { AlertStateBadge } from './alert-badges';
import { ErrorBanner } from './error-banner';
import { Link } from './router';
import './change-alerts-card.css';

type Props = {
  changeId: string;
  // A change that never started has no window and no alerts yet: nothing is read for it.
  started: boolean;
  suppression: Suppression;
  // Bumped each time the page reloads the change: the alerts are read again with it.
  refresh: number;
};

type Loaded = { status: 'loading' } | { status: 'ready'; answer: ChangeAlerts } | { status: 'error'; message: string };

/** How often a live hold's card reads its alerts again. */
const LIVE_LOOK_MS = 15_000;

type Group = HeldOutcome | 'fired';
const groupOrder: readonly Group[] = ['held', 'resent', 'recovered', 'kept', 'fired'];
const groupLabels: Record<Group, string> = { ...outcomeLabels, fired: 'In its scope, not held' };

// What the hold did with it; an alert of its scope it did not hold (it fired before the hold began).
const groupOf = (a: ChangeAlert): Group => a.outcome ?? 'fired';
// The evidence answer carries every alert of the window; the card shows the change's own.
const ownAlert = (a: ChangeAlert): boolean => a.outcome !== null || a.inScope;

// The Alerts page with this alert open: among what the change held, or among all alerts.
function alertHref(changeId: string, a: ChangeAlert): string {
  const open = `alert=${encodeURIComponent(a.fingerprint)}`;
  return a.outcome === null ? `/alerts?${open}` : `/alerts?change=${encodeURIComponent(changeId)}&${open}`;
}

// The hold this change puts on the alerts of its blast radius: its state, its mode, the silences
// it keeps on each Alertmanager, what it held and what became of each at release (re-sent
// because still failing, or recovered). A hold that is not in place says so first, loudly.
export function ChangeAlertsCard({ changeId, started, suppression, refresh }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);
  // The page's answer until the card reads the hold again itself (while it is live).
  const [live, setLive] = useState<Suppression | null>(null);
  useEffect(() => { setLive(null); }, [suppression]);
  const s = live ?? suppression;
  const holding = s.state === 'active' || s.state === 'releasing';

  useEffect(() => {
    if (!started) return;
    const abort = new AbortController();
    const read = reloads === 0 ? api.changeAlerts(changeId, abort.signal).then((answer) => ({ answer, hold: null }))
      : Promise.all([api.changeAlerts(changeId, abort.signal), api.changeSuppression(changeId, abort.signal)]).then(([answer, hold]) => ({ answer, hold }));
    read.then(
      ({ answer, hold }) => {
        if (abort.signal.aborted) return;
        setLoaded({ status: 'ready', answer });
        if (hold !== null) setLive(hold);
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setLoaded({ status: 'error', message: errorMessage(caught) });
      },
    );
    return () => { abort.abort(); };
  }, [changeId, started, refresh, reloads]);

  // Alerts arrive while the hold is live: look again now and then, as long as it is.
  useEffect(() => {
    if (!holding || loaded.status !== 'ready') return;
    const timer = window.setTimeout(() => { setReloads((n) => n + 1); }, LIVE_LOOK_MS);
    return () => { window.clearTimeout(timer); };
  }, [holding, loaded]);

  const all = loaded.status === 'ready' ? loaded.answer.alerts : [];
  const alerts = all.filter(ownAlert);
  const elsewhere = all.length - alerts.length;
  const preExisting = loaded.status === 'ready' ? loaded.answer.subjects.filter((x) => x.inScope && x.preExisting) : [];
  const groups = groupOrder
    .map((group) => ({ group, items: alerts.filter((a) => groupOf(a) === group) }))
    .filter((g) => g.items.length > 0);

  return (
    <section className="card change-alerts-card" data-testid="change-alerts-card" data-hold-state={s.state} aria-labelledby="change-alerts-title">
      <div className="section-head">
        <h2 id="change-alerts-title">Alerts</h2>
        <span className={`status hold-state hold-state-${s.state}`} data-testid="change-hold-state">
          {holdStateLabels[s.state]}
        </span>
      </div>
      {s.problem !== null && (
        <div className="banner banner-error hold-problem" role="alert" data-testid="change-hold-problem">
          <span className="banner-text">{sentence(s.problem)}</span>
        </div>
      )}
      <dl className="kv kv-wide">
        <dt>Hold</dt>
        <dd data-testid="change-hold-line">{holdLine(s)}</dd>
        {s.mode !== null && (
          <>
            <dt>Mode</dt>
            <dd data-testid="change-hold-mode">{holdModeLabels[s.mode]}</dd>
          </>
        )}
        {s.state !== 'none' && (
          <>
            <dt>Counts</dt>
            <dd data-testid="change-hold-counts">
              {s.held} held · {s.resent} re-sent · {s.recovered} recovered
            </dd>
          </>
        )}
      </dl>
      {s.silences.length > 0 && (
        <div className="change-alerts-section">
          <h3>Silences</h3>
          <ul className="hold-silences" data-testid="change-hold-silences">
            {silencesByAlertmanager(s.silences).map((g) => (
              <li key={g.alertmanager} data-testid="change-hold-silence" data-state={g.worst} title={g.ids.length > 0 ? `Silence ids: ${g.ids.join(', ')}` : undefined}>
                <span className="hold-silence-am">{g.alertmanager}</span>{' '}
                {g.counts.map(([state, n]) => (
                  <span key={state} className={`silence-state silence-state-${state}`}>
                    {n} {state}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="change-alerts-section">
        <h3>Alerts of this change</h3>
        {!started && (
          <p className="muted small" data-testid="change-alerts-empty">
            Nothing yet: the hold starts when the change does.
          </p>
        )}
        {started && loaded.status === 'loading' && <p className="muted small">Reading the alerts…</p>}
        {loaded.status === 'error' && <ErrorBanner message={loaded.message} testId="change-alerts-error" onRetry={() => { setReloads((n) => n + 1); }} />}
        {loaded.status === 'ready' && alerts.length === 0 && (
          <p className="muted small" data-testid="change-alerts-empty">
            No alert of its scope has fired during the change.
          </p>
        )}
        {groups.map((g) => (
          <div key={g.group} className="change-alerts-group" data-testid={`change-alerts-${g.group}`}>
            <h4>
              {groupLabels[g.group]} <span className="muted">{g.items.length}</span>
            </h4>
            <ul className="change-alerts-list">
              {g.items.map((a) => (
                <li key={a.fingerprint} data-testid="change-alert" data-fingerprint={a.fingerprint}>
                  <Link to={alertHref(changeId, a)} className="change-alert-subject">
                    {a.subjectLabel}
                  </Link>{' '}
                  <AlertStateBadge state={a.state} /> <span className="muted small">{formatUtc(a.state === 'firing' ? a.startsAt : (a.endsAt ?? a.lastSeen))}</span>
                </li>
              ))}
            </ul>
          </div>
        ))}
        {preExisting.length > 0 && (
          <div className="change-alerts-group" data-testid="change-alerts-pre-existing">
            <h4>
              In its scope, already in error at the start <span className="muted">{preExisting.length}</span>
            </h4>
            <ul className="change-alerts-list">
              {preExisting.map((p) => (
                <li key={p.label} data-testid="change-alert-pre-existing">
                  {p.label}
                </li>
              ))}
            </ul>
          </div>
        )}
        {elsewhere > 0 && (
          <p className="muted small" data-testid="change-alerts-elsewhere">
            {elsewhere === 1 ? '1 other alert' : `${String(elsewhere)} other alerts`} fired or recovered in its window outside its scope.
          </p>
        )}
        {alerts.some((a) => a.outcome !== null) && (
          <Link to={`/alerts?change=${encodeURIComponent(changeId)}`} className="small" data-testid="change-alerts-all">
            What it held, on the Alerts page
          </Link>
        )}
      </div>
    </section>
  );
}
