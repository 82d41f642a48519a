import type { HistoryEntry } from '../lib/cases';
import { formatUtc } from '../lib/format';
import './case-page-parts.css';

// Who opened, approved, kept, marked or acknowledged the case, when, and their note: read from
// the audit log (the case record keeps only the latest note).
export function CaseHistory({ entries, fromRecord }: { entries: readonly HistoryEntry[]; fromRecord: boolean }) {
  return (
    <section className="card" aria-labelledby="case-history-title" data-testid="case-history">
      <h2 id="case-history-title">History</h2>
      <ol className="case-history">
        {entries.map((e) => (
          <li key={e.key} className="case-history-item" data-testid="case-history-item" data-action={e.action}>
            <span className="mono small muted case-history-at">{formatUtc(e.at)}</span>
            <div className="case-history-body">
              <span className="strong">{e.what}</span>
              {e.who !== null && <span> by {e.who}</span>}
              {e.note !== null && <blockquote className="reason" data-testid="case-history-note">{e.note}</blockquote>}
            </div>
          </li>
        ))}
      </ol>
      {fromRecord && (
        <p className="muted small" data-testid="case-history-partial">
          The audit log could not be read: this is what the case itself records (its latest note only).
        </p>
      )}
    </section>
  );
}
