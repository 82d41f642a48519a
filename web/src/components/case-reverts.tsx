import type { CaseStatus } from '../api/case-types';
import type { CaseWrite } from '../lib/cases';
import { RevertSteps } from './observed-authorization';
import { Link } from './router';
// The revert card's look is the observed change page's (revert-code, revert-block…).
import '../pages/observed-change-page.css';
import './case-page-parts.css';

function Draft({ w }: { w: CaseWrite }) {
  const r = w.revert;
  return (
    <li className="case-revert" data-testid="case-revert" data-tool={r?.tool ?? 'none'} data-write={w.id}>
      <div className="case-revert-head">
        <Link to={`/changes/${encodeURIComponent(w.id)}`} className="mono nowrap" data-testid="case-revert-write">{w.displayId}</Link>
        <span className="case-revert-title">{w.title}</span>
      </div>
      {r === null ? (
        <p className="muted small" data-testid="case-revert-none">Nothing was drafted for this write: undo it by hand.</p>
      ) : (
        <RevertSteps revert={r} testId="case-revert" />
      )}
    </li>
  );
}

// The reverts drafted for an approved rollback, one per write. They are drafts for a person:
// changeledger has no access to the systems and never runs them.
export function CaseReverts({ writes, status }: { writes: readonly CaseWrite[]; status: CaseStatus }) {
  const done = status === 'rolled_back';
  return (
    <section className={done ? 'card revert-card' : 'card revert-card revert-card-urgent'} aria-labelledby="case-reverts-title" data-testid="case-reverts">
      <h2 id="case-reverts-title">{done ? 'Reverts (marked as run)' : 'Drafted reverts: run them yourself'}</h2>
      <p className="case-reverts-note" data-testid="case-reverts-note">
        <strong>changeledger never runs these.</strong> They are drafted from the audit events alone: check each against the system as it is
        now, run it with your own access{done ? '.' : ', then mark the rollback as run.'}
      </p>
      <ol className="case-revert-list">
        {writes.map((w) => <Draft key={w.id} w={w} />)}
      </ol>
    </section>
  );
}
