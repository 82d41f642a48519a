import type { Evidence, RegisteredBy, Verdict } from '../api/report-types';
import { notCountedLabels } from '../lib/report-format';

// The rules' answer in words: which rule matched and what made it match (by name), what the
// verdict did not count and why, and who registered the change.
export function ReportVerdict({ verdict }: { verdict: Verdict }) {
  // The reason already says the first thing that matched: list only what it does not say.
  const more = verdict.matched.filter((m) => !verdict.reason.includes(m.text));
  return (
    <div className="report-verdict" data-testid="report-verdict" data-rule={verdict.rule}>
      <h3>Verdict</h3>
      <p className="small" data-testid="report-rule">{verdict.reason}</p>
      {more.length > 0 && (
        <ul className="small" data-testid="report-matched">
          {more.map((m, i) => (
            <li key={`${String(i)}-${m.subject}`} data-testid="report-matched-item">
              {m.text}
            </li>
          ))}
        </ul>
      )}
      <p className="muted small report-subhead">Not counted by the verdict</p>
      {verdict.notCounted.length === 0 ? (
        <p className="muted small" data-testid="report-not-counted-none">Nothing was set aside.</p>
      ) : (
        <ul className="small" data-testid="report-not-counted">
          {verdict.notCounted.map((n, i) => (
            <li key={`${String(i)}-${n.subject}`} data-testid="report-not-counted-item" data-kind={n.kind}>
              <span className="pill">{notCountedLabels[n.kind]}</span> <strong>{n.subject}</strong>: {n.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function registeredByWords(r: RegisteredBy): string {
  const person = r.user.name !== null && r.user.name.trim() !== '' ? `${r.user.name} (${r.user.email})` : r.user.email;
  return r.token === null ? `Registered by ${person}` : `Registered by the token “${r.token.name}”, owned by ${person}`;
}

/** The span judged and its baselines, and who registered the change. */
export function ReportWindowLine({ evidence }: { evidence: Evidence }) {
  const w = evidence.window;
  const at = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')}Z`;
  return (
    <>
      <p className="muted small" data-testid="report-window">
        Window {at(w.start)} → {at(w.end)} (finish + {w.evidenceMinutes} min), against the hour before and the same span a week earlier.
      </p>
      <p className="small" data-testid="report-registered-by">{registeredByWords(evidence.change.registeredBy)}</p>
      {!evidence.mailConfigured && (
        <p className="muted small" data-testid="report-no-mail">No SMTP server is configured: the Reported e-mail was not sent.</p>
      )}
    </>
  );
}
