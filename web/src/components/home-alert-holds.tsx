import type { Change } from '../api/types';

// The place the alerts domain fills: the alerts of this change's blast radius held during its
// window (and re-sent at the end if still failing). Alert holds are not recorded yet, so this says
// only what the change itself knows — whether held alerts are re-sent at the finish — and never a
// count it does not have.
export function AlertHolds({ change }: { change: Pick<Change, 'id' | 'releaseHeld'> }) {
  return (
    <div className="home-alert-holds muted small" data-testid="home-alert-holds" data-change-id={change.id} data-source="none">
      Held alerts: not recorded yet (alerting is not connected)
      {' · '}
      {change.releaseHeld ? 'still-failing ones are re-sent at the finish' : 'not re-sent at the finish'}
    </div>
  );
}
