import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { Change } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { HomeChangeRow } from './home-change-row';

type Scope = { line: string | null; breakdown: string | null } | { error: string };

// A running change and what it silences: the silence scope of its stored blast radius (the same
// line as the change page). What its hold holds is the home page's Alert holds section.
export function HomeActiveChange({ change }: { change: Change }) {
  const [scope, setScope] = useState<Scope | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    api.changeScope(change.id, abort.signal).then(
      (answer) => {
        if (!abort.signal.aborted) setScope({ line: answer.scopeLine ?? null, breakdown: answer.scopeBreakdown ?? null });
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setScope({ error: errorMessage(caught) });
      },
    );
    return () => { abort.abort(); };
  }, [change.id]);

  return (
    <HomeChangeRow change={change} testId="home-active-change">
      <div className="small home-scope" data-testid="home-scope" title={scope !== null && 'breakdown' in scope ? (scope.breakdown ?? undefined) : undefined}>
        {scope === null && <span className="muted">Reading its blast radius…</span>}
        {scope !== null && 'error' in scope && <span className="home-error">Its blast radius could not be read: {scope.error}</span>}
        {scope !== null && 'line' in scope && (scope.line ?? <span className="muted">No blast radius stored (its components are not mapped yet)</span>)}
      </div>
    </HomeChangeRow>
  );
}
