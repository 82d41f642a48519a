import type { ReactNode } from 'react';
import { sentence } from '../lib/format.js';

export function ErrorBanner({
  message,
  testId = 'error-banner',
  onRetry,
  children,
}: {
  message: string | null;
  testId?: string;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  if (message === null) return null;
  return (
    <div className="banner banner-error" role="alert" data-testid={testId}>
      <span className="banner-text">{sentence(message)}</span>
      {children}
      {onRetry !== undefined && (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
