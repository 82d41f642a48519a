import type { ReactNode } from 'react';
import { Link } from './router';

type Props = {
  title: string;
  testId: string;
  /** Shown beside the title; null while loading. */
  count: number | null;
  /** Where the whole list lives (the changes list with its filters, the flag audit…). */
  more?: { to: string; label: string };
  /** What to say, and where to go, when there is nothing. */
  empty: ReactNode;
  children?: ReactNode;
  wide?: boolean;
};

// One card of the home page: a title with its count, the items, or an empty state that says
// what to do next.
export function HomeSection({ title, testId, count, more, empty, children, wide = false }: Props) {
  const headingId = `${testId}-title`;
  return (
    <section className={wide ? 'card home-section home-section-wide' : 'card home-section'} data-testid={testId} aria-labelledby={headingId}>
      <div className="home-section-head">
        <h2 id={headingId}>
          {title} {count !== null && <span className="muted" data-testid={`${testId}-count`}>{count}</span>}
        </h2>
        {more !== undefined && count !== null && count > 0 && (
          <Link to={more.to} className="small" data-testid={`${testId}-more`}>
            {more.label}
          </Link>
        )}
      </div>
      {count === null && <p className="muted small">Loading…</p>}
      {count === 0 && (
        <div className="home-empty muted" data-testid={`${testId}-empty`}>
          {empty}
        </div>
      )}
      {count !== null && count > 0 && children}
    </section>
  );
}
