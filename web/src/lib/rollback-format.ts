import type { CaptureMethod, CheckKind, Completeness, PrestateStatus, RollbackKind, RollbackPath, RollbackState, SweepDecision, ValidationResult, ValidationRow } from '../api/rollback-types';
import type { ChangeSettings, ChangeStatus } from '../api/types';

// Words for a change's way back: its before-state captures, its rollback path and what became of
// it, the sweep's decision, the validation plan's rows and result, and the settings that rule them.

export const methodLabels: Record<CaptureMethod, string> = {
  previous_version: 'Previous version',
  previous_commit: 'Previous commit',
  base_commit: 'Base commit of the pipeline',
  artifact: 'Artifact',
};

export const completenessLabels: Record<Completeness, { label: string; hint: string }> = {
  complete: { label: 'complete', hint: 'It holds the whole state.' },
  partial: { label: 'partial', hint: 'It holds part of the state: a version names a build, not its configuration.' },
  unknown: { label: 'completeness unknown', hint: 'The sender did not say how much of the state it holds.' },
};

export const prestateLabels: Record<PrestateStatus, string> = {
  present: 'existed before',
  absent: 'did not exist before: the change creates it',
  unknown: 'not known whether it existed before',
};

export const restorableHint = {
  yes: 'The stored bytes are exactly what was there: they can be put back.',
  no: 'Not byte-exact (JSON is kept canonical) or nothing was there before: it is evidence, not a restore point.',
};

export const rollbackKindLabels: Record<RollbackKind, string> = {
  revert_flag: 'Set the flags back',
  redeploy_previous: 'Redeploy the previous version',
  manual: 'Manual',
};

export const generatedByWords: Record<RollbackPath['generatedBy'], string> = {
  pipeline: 'given by the pipeline at registration',
  person: 'given by a person at registration',
  changeledger: 'written by changeledger from what it saw',
};

export const rollbackStateLabels: Record<RollbackState | 'none', string> = {
  none: 'not rolled back',
  requested: 'requested: waiting for the pipeline or a person to report it',
  rolled_back: 'rolled back',
  failed: 'the rollback failed',
};

export const decisionLabels: Record<SweepDecision['decision'], string> = {
  execute: 'rolled back on its own',
  escalate: 'left to a person',
  skip: 'skipped',
};

/** A change that ran may be rolled back (the server's rule: active, evaluating or reported). */
export const ranStatuses: readonly ChangeStatus[] = ['active', 'evaluating', 'reported'];

export function canRelease(status: ChangeStatus, state: RollbackState | null): boolean {
  return ranStatuses.includes(status) && state !== 'requested' && state !== 'rolled_back';
}

export const validationResultLabels: Record<ValidationResult, string> = {
  cleared: 'cleared',
  still_present: 'still present',
  uncertain: 'uncertain',
};

export const rowStateLabels: Record<ValidationRow['state'], string> = { pass: 'pass', fail: 'fail', not_observed: 'not observed' };

export const checkLabels: Record<CheckKind, string> = { promql: 'PromQL', http: 'HTTP' };

type BeforeStateRule = ChangeSettings['requireBeforeState'];
export const beforeStateRules = ['production', 'always', 'never'] as const satisfies readonly BeforeStateRule[];
export const beforeStateRuleLabels: Record<BeforeStateRule, { label: string; hint: string }> = {
  production: { label: 'Production changes', hint: 'A change naming a production environment cannot start until its before-state is recorded.' },
  always: { label: 'Every change', hint: 'No change starts until its before-state is recorded.' },
  never: { label: 'Never required', hint: 'Before-states are kept when sent, but no change waits for one.' },
};

/** Bytes as a person reads them: 812 B, 3.4 KiB. */
export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${String(bytes)} B`;
  return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB`;
}
