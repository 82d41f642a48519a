import type { FlagRisk, FlagSource, FlagState, FlagType } from '../api/types';
import { formatValue } from '../lib/flag-format';

export function RiskBadge({ risk }: { risk: FlagRisk }) {
  return (
    <span className={`risk risk-${risk}`} data-testid="risk-badge" data-risk={risk}>
      {risk === 'high' ? 'high risk' : 'low risk'}
    </span>
  );
}

export function SourceBadge({ source }: { source: FlagSource }) {
  return (
    <span className={`pill pill-source source-${source}`} data-testid="source-badge">
      {source}
    </span>
  );
}

// On/off first; a non-boolean flag shows what it serves when on, and a rollout or
// rules are flagged so the table answers "who gets what" at a glance.
export function EnvStateBadge({ state, type }: { state: FlagState | undefined; type: FlagType }) {
  if (state === undefined) return <span className="muted">—</span>;
  const served = type === 'boolean' ? null : formatValue(state.value);
  return (
    <span className="env-state" data-testid="env-state" data-env={state.env} data-enabled={String(state.enabled)}>
      <span className={state.enabled ? 'state state-on' : 'state state-off'}>{state.enabled ? 'on' : 'off'}</span>
      {state.enabled && served !== null && (
        <span className="mono small ellipsis env-value" title={served}>
          {served}
        </span>
      )}
      {state.rollout !== null && (
        <span className="pill" title={`rollout by ${state.rollout.bucketBy}`}>
          {state.rollout.percentage}%
        </span>
      )}
      {state.rules.length > 0 && (
        <span className="pill" title="targeting rules">
          {state.rules.length} {state.rules.length === 1 ? 'rule' : 'rules'}
        </span>
      )}
    </span>
  );
}
