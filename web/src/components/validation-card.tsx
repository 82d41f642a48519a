import { useEffect, useState } from 'react';
import { rollbackApi } from '../api/rollback-client';
import type { Validation, ValidationItem, ValidationResult, ValidationRow } from '../api/rollback-types';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc, sentence } from '../lib/format';
import { checkLabels, rowStateLabels, validationResultLabels } from '../lib/rollback-format';
import { ErrorBanner } from './error-banner';
import { Mark, type MarkTone } from './rollback-badges';
import './validation-card.css';

type Loaded = { status: 'loading' } | { status: 'ready'; validation: Validation } | { status: 'error'; message: string };

const resultTone: Record<ValidationResult, MarkTone> = { cleared: 'ok', still_present: 'bad', uncertain: 'warn' };
const rowTone: Record<ValidationRow['state'], MarkTone> = { pass: 'ok', fail: 'bad', not_observed: 'warn' };

const expectedWords = (i: ValidationItem): string => `${i.check === 'http' ? 'status ' : ''}${i.expected.op} ${String(i.expected.value)}`;

// The change's validation plan: each check with what it reads and expects, its row once read
// (pass, fail, not observed, with what was observed), and the result with its reason — or, before
// the change finished, when it will be read.
export function ValidationCard({ changeId, refresh }: { changeId: string; refresh: number }) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    rollbackApi.validation(changeId, abort.signal).then(
      (validation) => { if (!abort.signal.aborted) setLoaded({ status: 'ready', validation }); },
      (caught: unknown) => { if (!abort.signal.aborted && !isAbort(caught)) setLoaded({ status: 'error', message: errorMessage(caught) }); },
    );
    return () => { abort.abort(); };
  }, [changeId, refresh, reloads]);

  // A change registered without a plan has nothing to show here.
  if (loaded.status === 'ready' && (loaded.validation.plan ?? []).length === 0) return null;
  const v = loaded.status === 'ready' ? loaded.validation : null;
  const rowsOf = (id: string): ValidationRow[] => v?.rows.filter((r) => r.itemId === id) ?? [];

  return (
    <section className="card validation-card" aria-labelledby="validation-title" data-testid="validation-card">
      <div className="section-head">
        <h2 id="validation-title">Validation</h2>
        {v?.result != null && (
          <Mark tone={resultTone[v.result]} testId="validation-result" state={v.result}>
            {validationResultLabels[v.result]}
          </Mark>
        )}
      </div>
      <ErrorBanner message={loaded.status === 'error' ? loaded.message : null} testId="validation-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {loaded.status === 'loading' && <p className="muted small">Loading…</p>}
      {v !== null && (
        <>
          <p className="small validation-when" data-testid="validation-when">
            {v.checkedAt !== null ? (
              <>
                {v.reason !== null && <span data-testid="validation-reason">{sentence(v.reason)}. </span>}
                <span className="muted">Checked at {formatUtc(v.checkedAt)}.</span>
              </>
            ) : v.dueAt !== null ? (
              <span className="muted">Not checked yet: checked at {formatUtc(v.dueAt)}.</span>
            ) : (
              <span className="muted">Not checked yet: checked 30 s after the change completes.</span>
            )}
          </p>
          <ul className="validation-list">
            {(v.plan ?? []).map((item) => {
              const rows = rowsOf(item.id);
              return (
                <li key={item.id} className="validation-item" data-testid="validation-row" data-item-id={item.id} data-state={rows[0]?.state ?? 'unchecked'}>
                  <div className="validation-head">
                    <span className="mono strong" data-testid="validation-item-id">{item.id}</span>
                    <span className="muted small">
                      {item.target}
                      {item.group !== undefined && ` · group ${item.group}`}
                    </span>
                    <span className="validation-states">
                      {rows.length === 0 ? (
                        <span className="muted small">not checked yet</span>
                      ) : (
                        rows.map((r, i) => (
                          <Mark key={i} tone={rowTone[r.state]} testId="validation-row-state" state={r.state}>
                            {rowStateLabels[r.state]}
                          </Mark>
                        ))
                      )}
                    </span>
                  </div>
                  <div className="small validation-reads">
                    <span className="muted">{checkLabels[item.check]}</span> <span className="mono break">{item.query ?? item.url}</span>
                    <span className="muted"> expects </span>
                    <span className="mono nowrap">{expectedWords(item)}</span>
                  </div>
                  {rows.map((r, i) => (
                    <div key={i} className={`small validation-detail validation-detail-${r.state}`} data-testid="validation-row-detail">
                      {r.detail}
                    </div>
                  ))}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
