import type { ReactNode } from 'react';
import { CopyButton } from './copy-button';
import './secret-box.css';

// A secret the server keeps only as a hash (a token, a sign-in link): this box is the one time it
// can be seen, so it is loud, selectable and stays until dismissed.
export function SecretBox(p: {
  testId: string;
  title: ReactNode;
  aside: ReactNode;
  asideClassName?: string;
  warning: ReactNode;
  value: string;
  copyLabel: string;
  dismissLabel: string;
  onDismiss: () => void;
}) {
  return (
    <section className="secret-box" data-testid={p.testId} aria-live="polite">
      <div className="secret-head">
        <strong>{p.title}</strong>
        <span className={p.asideClassName ?? 'muted small'}>{p.aside}</span>
      </div>
      <p className="secret-warning" data-testid={`${p.testId}-warning`}>
        {p.warning}
      </p>
      <div className="secret-value-row">
        <code className="secret-value" data-testid={`${p.testId}-value`}>
          {p.value}
        </code>
        <CopyButton value={p.value} label={p.copyLabel} testId={`${p.testId}-copy`} />
      </div>
      <button type="button" className="btn btn-small" onClick={p.onDismiss} data-testid={`${p.testId}-dismiss`}>
        {p.dismissLabel}
      </button>
    </section>
  );
}
