import type { LineDiff } from '../lib/text-diff';
import { pluralize } from '../lib/format';
import './diff-view.css';

type Props = { diff: LineDiff; before: string; after: string; testId?: string };

// Lines added and removed between two texts, each marked by its sign as well as its colour;
// long unchanged runs folded into one line that says how many.
export function DiffView({ diff, before, after, testId = 'diff' }: Props) {
  if ('tooLarge' in diff) {
    return (
      <p className="muted small" data-testid={testId} data-too-large="true">
        The two versions are too different to draw line by line.
      </p>
    );
  }
  const same = diff.added === 0 && diff.removed === 0;
  return (
    <figure className="diff" data-testid={testId} data-added={diff.added} data-removed={diff.removed}>
      <figcaption className="diff-head small">
        <span className="diff-side diff-side-removed">− {before}</span>
        <span className="diff-side diff-side-added">+ {after}</span>
        <span className="muted" data-testid={`${testId}-summary`}>
          {same ? 'no difference' : `${pluralize(diff.added, 'line')} added, ${pluralize(diff.removed, 'line')} removed`}
        </span>
      </figcaption>
      <pre className="diff-body mono">
        {diff.rows.map((row, i) =>
          row.kind === 'skip' ? (
            <div key={i} className="diff-line diff-skip" data-testid="diff-skip">
              <span className="diff-sign" aria-hidden="true">⋯</span>
              {pluralize(row.count, 'unchanged line')}
            </div>
          ) : (
            <div key={i} className={`diff-line diff-${row.kind}`} data-testid="diff-line" data-kind={row.kind}>
              <span className="diff-sign" aria-label={row.kind === 'same' ? undefined : row.kind}>
                {row.kind === 'added' ? '+' : row.kind === 'removed' ? '−' : ' '}
              </span>
              {row.text === '' ? ' ' : row.text}
            </div>
          ),
        )}
      </pre>
    </figure>
  );
}
