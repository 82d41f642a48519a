import type { ChangeClass, RiskTier, TemplateState, WindowKind } from '../api/governance-types';
import { classHints, classLabels, templateStateHints, templateStateLabels, tierHints, windowKindHints, windowKindLabels } from '../lib/governance-format';
import './governance-badges.css';

// A change's class (standard, normal, emergency): its reason on hover, or what the class means.
export function ClassChip({ changeClass, reason, testId = 'change-class' }: { changeClass: ChangeClass; reason?: string | null; testId?: string }) {
  return (
    <span className={`gov-class gov-class-${changeClass}`} title={reason ?? classHints[changeClass]} data-testid={testId} data-class={changeClass}>
      {classLabels[changeClass]}
    </span>
  );
}

// The risk tier (L1 … L3), in the monospace face and square, so it is not read as a class or a status.
export function TierChip({ tier, reason, testId = 'change-tier' }: { tier: RiskTier; reason?: string | null; testId?: string }) {
  return (
    <span
      className={`gov-tier gov-tier-${tier}`}
      title={reason === undefined || reason === null ? tierHints[tier] : `${tierHints[tier]}: ${reason}`}
      aria-label={`risk tier ${tier}`}
      data-testid={testId}
      data-risk-tier={tier}
    >
      {tier}
    </span>
  );
}

export function TemplateStateChip({ state }: { state: TemplateState }) {
  return (
    <span className={`gov-state gov-state-${state}`} title={templateStateHints[state]} data-testid="template-state" data-state={state}>
      {templateStateLabels[state]}
    </span>
  );
}

// Freeze or change window: said in words, the colour only helps.
export function WindowKindChip({ kind, testId = 'window-kind' }: { kind: WindowKind; testId?: string }) {
  return (
    <span className={`gov-window gov-window-${kind}`} title={windowKindHints[kind]} data-testid={testId} data-kind={kind}>
      {windowKindLabels[kind]}
    </span>
  );
}

// An emergency that started while its window was closed, its quorum having approved it.
export function BypassMarker({ title }: { title?: string }) {
  return (
    <span className="gov-bypass" title={title ?? 'An emergency started while its window was closed, approved by its quorum'} data-testid="window-bypassed-marker">
      window bypassed
    </span>
  );
}
