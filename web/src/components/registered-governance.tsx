import type { RegisteredChange } from '../api/types';
import { formatWindow } from '../lib/change-format';
import { sentence } from '../lib/format';
import { instantWords, windowKindLabels } from '../lib/governance-format';
import { ClassChip, TierChip } from './governance-badges';

type Answer = Pick<RegisteredChange, 'governance' | 'windows'>;

// What the registration answered about governance, on the page the form opened: the class and
// tier with their reasons, what the tier asks, and what the planned window runs into.
// (The change page's own card says the same from the change; this is the answer as registered.)
export function RegisteredGovernance({ answer }: { answer: Answer }) {
  const g = answer.governance;
  const w = answer.windows;
  const conflicts = w?.conflicts ?? [];
  const closed = w !== undefined && !w.verdict.allowed ? w.verdict : null;
  if (g === undefined && conflicts.length === 0 && closed === null) return null;
  return (
    <div className="registered-governance" data-testid="registered-governance">
      {g !== undefined && (
        <dl className="kv kv-wide registered-governance-kv" data-testid="registered-class">
          <dt>Class</dt>
          <dd>
            <ClassChip changeClass={g.changeClass} reason={g.changeClassReason} testId="registered-class-chip" /> {g.changeClassReason}
          </dd>
          <dt>Risk tier</dt>
          <dd>
            <TierChip tier={g.riskTier} reason={g.riskReason} testId="registered-tier-chip" /> {g.riskReason}
          </dd>
          <dt>Approval policy</dt>
          <dd className="strong" data-testid="registered-policy">{g.policy}</dd>
        </dl>
      )}
      {(conflicts.length > 0 || closed !== null) && (
        <div className="banner banner-warn" role="status" data-testid="registered-conflicts">
          <div className="banner-text">
            <strong>Windows:</strong>
            <ul className="registered-conflict-list">
              {closed !== null && (
                <li data-testid="registered-verdict">
                  It may not start at its planned start: {closed.reason}.
                  {closed.nextOpening !== null && <> It may start from {instantWords(closed.nextOpening, new Date())}.</>}
                </li>
              )}
              {conflicts.map((c, i) => (
                <li key={`${c.conflict}:${String(i)}`} data-testid="registered-conflict" data-conflict={c.conflict} title={c.window === null ? undefined : `${windowKindLabels[c.window.kind]} “${c.window.name}”: ${formatWindow(c.window.start, c.window.end)}`}>
                  {sentence(c.reason)}.
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </div>
  );
}
