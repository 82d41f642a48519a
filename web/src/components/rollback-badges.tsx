import './rollback-badges.css';

export type MarkTone = 'ok' | 'bad' | 'warn' | 'neutral';

// A state in words with a tone that only helps (pass, fail, not observed; rolled back; cleared…).
export function Mark({ tone, children, title, testId, state }: { tone: MarkTone; children: string; title?: string; testId?: string; state?: string }) {
  return (
    <span className={`rb-mark rb-mark-${tone}`} title={title} data-testid={testId} data-state={state}>
      {children}
    </span>
  );
}
