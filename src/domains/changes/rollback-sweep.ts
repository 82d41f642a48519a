/**
 * The automatic rollback sweep's decision for one failed change. Pure.
 *
 * A rollback is never run on the platform's own say unless this matrix says execute: only the
 * cheapest, best-understood undo (setting flags back, redeploying the previous version of a
 * standard change) of a change whose failure a verdict confirmed. Everything else goes to a person
 * (escalate) or is left alone (skip). The first rule that applies decides; the reason is the
 * sentence a release manager reads on the change's timeline.
 */

export const ROLLBACK_KINDS = ['revert_flag', 'redeploy_previous', 'manual'] as const;
export type RollbackKind = (typeof ROLLBACK_KINDS)[number];

export type SweepDecision = 'execute' | 'escalate' | 'skip';

export type SweepFacts = {
  /** null: registered before tiers existed; read as L2 and said so in the reason. */
  tier: 'L1' | 'L2' | 'L3' | null;
  changeClass: 'standard' | 'normal' | 'emergency';
  /** null: no rollback path is known. */
  rollbackKind: RollbackKind | null;
  /** The verdict of the latest report (null: not judged yet). */
  impact: 'outage' | 'significant' | 'minor' | 'none' | 'unknown' | null;
  /** What the pipeline or person said at completion. */
  outcome: 'success' | 'partial' | 'rolled_back' | 'unknown' | null;
  /** A rollback already asked for, done, or tried and failed. */
  rollbackState: 'requested' | 'rolled_back' | 'failed' | null;
};

export type SweepResult = { decision: SweepDecision; reason: string };

/**
 * Why the change counts as failed, or null when it does not. A verdict is named before an outcome:
 * it rests on evidence, while the outcome is only what the pipeline or person said.
 */
export function failureOf(f: Pick<SweepFacts, 'impact' | 'outcome'>): string | null {
  if (f.impact === 'outage' || f.impact === 'significant') return `verdict ${f.impact}`;
  if (f.outcome === 'rolled_back' || f.outcome === 'partial') return `outcome ${f.outcome}`;
  return null;
}

/** What the change looked like when it did not fail, so the skip says what was weighed. */
function notFailedWords(f: Pick<SweepFacts, 'impact' | 'outcome'>): string {
  const verdict = f.impact === null ? 'no verdict yet' : `verdict ${f.impact}`;
  const outcome = f.outcome === null ? 'no outcome reported' : `outcome ${f.outcome}`;
  return `${verdict}, ${outcome}`;
}

const NO_TIER = 'no risk tier recorded, read as L2';

/** The tier the matrix uses and how to name it: a missing tier is read as L2, and the reason says so. */
function tierOf(f: SweepFacts): { tier: 'L1' | 'L2' | 'L3'; words: string } {
  if (f.tier === null) return { tier: 'L2', words: `L2 (${NO_TIER})` };
  return { tier: f.tier, words: f.tier };
}

function article(changeClass: SweepFacts['changeClass']): string {
  return changeClass === 'emergency' ? 'an' : 'a';
}

/** Decide one failed change. Exactly one decision for every input. */
export function sweepDecision(f: SweepFacts): SweepResult {
  const failure = failureOf(f);
  if (failure === null) return { decision: 'skip', reason: `skip: it did not fail (${notFailedWords(f)})` };

  if (f.rollbackState === 'requested') return { decision: 'skip', reason: `skip: a rollback was already requested (it failed: ${failure})` };
  if (f.rollbackState === 'rolled_back') return { decision: 'skip', reason: `skip: its rollback is already done (it failed: ${failure})` };

  if (f.rollbackKind === null) return { decision: 'skip', reason: `skip: no rollback path is known, so there is nothing to run (it failed: ${failure})` };
  if (f.rollbackKind === 'manual') return { decision: 'skip', reason: `skip: its rollback is manual, so a person runs it (it failed: ${failure})` };

  // The pipeline's own rollback already undid the deploy; redeploying again would only repeat it.
  if (f.rollbackKind === 'redeploy_previous' && f.outcome === 'rolled_back') {
    return { decision: 'skip', reason: 'skip: the pipeline already rolled it back (outcome rolled_back)' };
  }

  // A rollback tried before and failed is no bar to deciding again, but whoever reads the decision should know.
  const earlier = f.rollbackState === 'failed' ? '; an earlier rollback failed' : '';
  const decided = (decision: SweepDecision, why: string): SweepResult => ({ decision, reason: `${decision}: ${why}${earlier}` });

  if (f.changeClass === 'emergency') {
    return decided('escalate', `it failed (${failure}), but an emergency change was itself a fix: undoing it takes a person`);
  }
  if (f.tier === 'L3') {
    return decided('escalate', `it failed (${failure}), and an L3 change needs two approvers to release a rollback`);
  }
  return f.rollbackKind === 'revert_flag' ? revertFlag(f, failure, decided) : redeployPrevious(f, failure, decided);
}

type Decided = (decision: SweepDecision, why: string) => SweepResult;

/** Setting flags back is cheap and exact, so a standard or L1 change confirmed failing by a verdict reverts on its own. */
function revertFlag(f: SweepFacts, failure: string, decided: Decided): SweepResult {
  const { tier, words } = tierOf(f);
  const confirmed = f.impact === 'outage' || f.impact === 'significant';
  if (!confirmed) {
    return decided('escalate', `setting its flags back is left to a person: the failure is known only from its ${failure}, not from a verdict`);
  }
  if (f.changeClass === 'standard') {
    return decided('execute', `it failed (${failure}) and it is a standard change, so its flags are set back to what they were`);
  }
  if (tier === 'L1') {
    return decided('execute', `it failed (${failure}) and it is an L1 change, so its flags are set back to what they were`);
  }
  return decided('escalate', `it failed (${failure}), but setting the flags of ${article(f.changeClass)} ${f.changeClass} change at ${words} back is left to a person`);
}

/**
 * Redeploying moves code, so the sweep does it only for the narrowest case: a standard change at
 * L1 or L2 whose verdict is an outage.
 */
function redeployPrevious(f: SweepFacts, failure: string, decided: Decided): SweepResult {
  const { words } = tierOf(f);
  if (f.changeClass !== 'standard') {
    return decided('escalate', `it failed (${failure}), but redeploying the previous version of ${article(f.changeClass)} ${f.changeClass} change is left to a person`);
  }
  if (f.impact !== 'outage') {
    return decided('escalate', `it failed (${failure}), but only an outage lets the sweep redeploy the previous version on its own`);
  }
  return decided('execute', `it failed (${failure}) and it is a standard change at ${words}, so it asks the pipeline to redeploy the previous version`);
}
