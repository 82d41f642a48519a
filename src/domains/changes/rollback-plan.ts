/**
 * The rollback path of a change and its plan rendered for people. Pure.
 *
 * What the pipeline or person registered wins: they know the system. Otherwise the platform builds
 * a path only from what it saw itself — the flag writes linked to the change (their before-state is
 * exact), or the previous version of a deploy plus a callback to ask the pipeline with. With
 * neither, the path is manual and its plan says what was missing, so the gap can be closed for the
 * next change.
 */
import type { RollbackKind } from './rollback-sweep.js';

/** A plan given with a rollback is at most this long (the registration schema enforces it). */
export const MAX_ROLLBACK_PLAN_CHARS = 4000;

/** What a pipeline or person registered. */
export type GivenRollback = { kind: RollbackKind; plan?: string };

export type FlagWrite = { flag: string; env: string; from: unknown; to: unknown };

export type RollbackFacts = {
  changeKind: 'deploy' | 'config' | 'infra' | 'other';
  given: GivenRollback | null;
  givenBy: 'pipeline' | 'person' | null;
  previousVersion: string | null;
  previousCommit: string | null;
  pipeline: { pipeline?: string; repo?: string; environment?: string } | null;
  /** A callbackUrl to send change.rollback_requested to. */
  hasCallback: boolean;
  /** Flag writes linked to the change, oldest first. */
  flagWrites: FlagWrite[];
};

export type RollbackPath = { kind: RollbackKind; plan: string; generatedBy: 'pipeline' | 'person' | 'changeledger'; steps: string[] };

/** Compact JSON, so a flag value reads exactly as it is stored; a flag that did not exist reads as unset. */
function rendered(v: unknown): string {
  return v === undefined ? 'unset' : (JSON.stringify(v) ?? String(v));
}

/**
 * One step per write, newest first: undoing them in that order walks each flag back through every
 * value it took, so it ends at the value it had before the change even when one flag was written twice.
 */
function flagSteps(writes: FlagWrite[]): string[] {
  return [...writes].reverse().map((w) => `Set ${w.flag} in ${w.env} back to ${rendered(w.from)} (it was changed to ${rendered(w.to)})`);
}

function previousOf(f: RollbackFacts): string | null {
  if (f.previousVersion) return f.previousVersion;
  if (f.previousCommit) return `commit ${f.previousCommit}`;
  return null;
}

function redeploySteps(f: RollbackFacts): string[] {
  const name = f.pipeline?.pipeline ?? f.pipeline?.repo;
  const pipeline = name ? `the pipeline ${name}` : 'the pipeline';
  const environment = f.pipeline?.environment ?? 'its environment';
  return [`Ask ${pipeline} to redeploy ${previousOf(f) ?? 'the previous version'} to ${environment}`, 'Wait for it to report the rollback complete'];
}

/** What keeps the platform from an automatic path, in the order a person would fix it. */
function missing(f: RollbackFacts): string[] {
  if (f.changeKind !== 'deploy') return [`it is ${f.changeKind === 'infra' ? 'an' : 'a'} ${f.changeKind} change, not a deploy, and no flag write is linked to it`];
  const gaps: string[] = [];
  if (previousOf(f) === null) gaps.push('no before-state: neither the previous version nor the previous commit was recorded');
  if (!f.hasCallback) gaps.push('no callback: the change has no callbackUrl to ask the pipeline for a rollback');
  return gaps;
}

function manualSteps(f: RollbackFacts): string[] {
  const gaps = missing(f);
  const why = gaps.length === 0 ? '' : ` (no automatic path: ${gaps.join('; ')})`;
  return [`Undo the change by hand${why}`, 'Record on the change what was undone and when'];
}

/** Steps the platform can write for a kind; a manual path has none it can know of. */
function generatedSteps(kind: RollbackKind, f: RollbackFacts): string[] {
  if (kind === 'revert_flag') {
    return f.flagWrites.length > 0 ? flagSteps(f.flagWrites) : ['Set the flags this change wrote back to their earlier values (no flag write is linked to it)'];
  }
  if (kind === 'redeploy_previous') return redeploySteps(f);
  return manualSteps(f);
}

function numbered(steps: string[]): string {
  return steps.map((s, i) => `${i + 1}. ${s}`).join('\n');
}

/** The rollback path of a change: the given one when there is one, else the best the platform can build. */
export function rollbackPath(f: RollbackFacts): RollbackPath {
  if (f.given) {
    const { kind } = f.given;
    const text = f.given.plan?.trim() ? f.given.plan : null;
    // A manual plan a person wrote is the only source of its steps; the platform knows none of its own.
    const steps = kind === 'manual' && text !== null ? text.split('\n').map((l) => l.trim()).filter((l) => l !== '') : generatedSteps(kind, f);
    // With no giver recorded it is counted as a person's: nothing shows a pipeline sent it.
    return { kind, plan: text ?? numbered(steps), generatedBy: f.givenBy ?? 'person', steps };
  }
  if (f.flagWrites.length > 0) {
    const steps = flagSteps(f.flagWrites);
    return { kind: 'revert_flag', plan: numbered(steps), generatedBy: 'changeledger', steps };
  }
  if (f.changeKind === 'deploy' && previousOf(f) !== null && f.hasCallback) {
    const steps = redeploySteps(f);
    return { kind: 'redeploy_previous', plan: numbered(steps), generatedBy: 'changeledger', steps };
  }
  const steps = manualSteps(f);
  return { kind: 'manual', plan: numbered(steps), generatedBy: 'changeledger', steps };
}
