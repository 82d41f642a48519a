import type { UnresolvedComponent } from '../api/types';
import { replaceLine } from '../lib/blast-preview';
import { UnresolvedName } from './unresolved-name';
import './register-problem.css';

export type Problem =
  | { kind: 'unresolved'; message: string; unresolved: UnresolvedComponent[] }
  | { kind: 'confirm'; message: string; counts: Record<string, number> | undefined }
  | { kind: 'refused'; message: string };

type Props = {
  problem: Problem;
  lines: string;
  busy: boolean;
  onLines: (lines: string) => void;
  onConfirm: () => void;
};

// Why the registration was not taken, beside the button that sent it: the names the
// catalogue does not know (pick a candidate: it replaces the line), a large change to
// confirm (resent with confirmLarge), or a refusal (nothing to confirm: change the scope).
export function RegisterProblem({ problem, lines, busy, onLines, onConfirm }: Props) {
  if (problem.kind === 'unresolved') {
    return (
      <section className="card register-problem" role="alert" data-testid="register-unresolved">
        <p className="field-error strong">{problem.message}</p>
        {problem.unresolved.map((u) => (
          <UnresolvedName
            key={u.query}
            unresolved={u}
            noMatch="matches nothing in the catalogue: name it by its catalogue key (svc:…), register the entity in the catalogue first, or leave it out."
            onPick={(key) => { onLines(replaceLine(lines, u.query, key)); }}
            testIds={{ row: 'register-unresolved-name', candidate: 'register-candidate' }}
          />
        ))}
      </section>
    );
  }
  if (problem.kind === 'confirm') {
    const services = problem.counts?.['services'];
    return (
      <div className="banner banner-warn" role="alert" data-testid="register-confirm">
        <span className="banner-text">
          {services === undefined ? problem.message : `The blast radius has ${services.toLocaleString('en-US')} services (100 or more).`} Register it
          anyway?
        </span>
        <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={onConfirm} data-testid="register-confirm-large">
          Register the large change
        </button>
      </div>
    );
  }
  return (
    <div className="banner banner-error" role="alert" data-testid="register-refused">
      <span className="banner-text">
        {problem.message}. Name fewer components, walk one hop, or silence less infrastructure.
      </span>
    </div>
  );
}
