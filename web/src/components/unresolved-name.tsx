import type { UnresolvedComponent } from '../api/types';
import { KindBadge } from './catalogue-badges';
import './unresolved-name.css';

type Props = {
  unresolved: UnresolvedComponent;
  /** What to say when the catalogue has no candidate at all. */
  noMatch: string;
  /** The person picked a candidate: its key replaces the name. */
  onPick: (key: string) => void;
  testIds: { row: string; candidate: string };
};

// A name the catalogue does not resolve to exactly one thing, with its candidates as buttons.
export function UnresolvedName({ unresolved: u, noMatch, onPick, testIds }: Props) {
  return (
    <div className="unresolved" data-testid={testIds.row} data-query={u.query}>
      <span>
        <span className="mono strong">{u.query}</span>{' '}
        {u.candidates.length > 0 ? 'is not exactly one thing in the catalogue — pick one:' : noMatch}
      </span>
      <span className="candidates">
        {u.candidates.map((c) => (
          <button
            key={c.key}
            type="button"
            className="chip candidate-chip"
            title={`Replace the line with ${c.key}`}
            onClick={() => { onPick(c.key); }}
            data-testid={testIds.candidate}
            data-key={c.key}
          >
            <KindBadge kind={c.kind} /> {c.name} <span className="mono muted candidate-key">{c.key}</span>
          </button>
        ))}
      </span>
    </div>
  );
}
