import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureOf, ROLLBACK_KINDS, sweepDecision, type SweepFacts } from './rollback-sweep.js';

/** A standard L1 flag change whose verdict is an outage, with no rollback asked for yet: the sweep executes it. */
const sweepFacts = (over: Partial<SweepFacts> = {}): SweepFacts => ({
  tier: 'L1',
  changeClass: 'standard',
  rollbackKind: 'revert_flag',
  impact: 'outage',
  outcome: 'success',
  rollbackState: null,
  ...over,
});

describe('why a change counts as failed', () => {
  it.each([
    [{ impact: 'outage', outcome: 'success' }, 'verdict outage'],
    [{ impact: 'significant', outcome: null }, 'verdict significant'],
    [{ impact: 'outage', outcome: 'partial' }, 'verdict outage'],
    [{ impact: 'minor', outcome: 'partial' }, 'outcome partial'],
    [{ impact: null, outcome: 'rolled_back' }, 'outcome rolled_back'],
    [{ impact: 'unknown', outcome: 'rolled_back' }, 'outcome rolled_back'],
    [{ impact: 'minor', outcome: 'success' }, null],
    [{ impact: 'none', outcome: 'unknown' }, null],
    [{ impact: 'unknown', outcome: null }, null],
    [{ impact: null, outcome: null }, null],
  ] as const)('%j → %s', (f, why) => {
    expect(failureOf(f)).toBe(why);
  });
});

describe('the sweep’s decision, first rule that applies', () => {
  it.each([
    // 1. it did not fail
    ['a minor verdict with a successful outcome did not fail', sweepFacts({ impact: 'minor' }),
      'skip', 'skip: it did not fail (verdict minor, outcome success)'],
    ['an unknown verdict did not fail', sweepFacts({ impact: 'unknown', outcome: 'unknown' }),
      'skip', 'it did not fail (verdict unknown, outcome unknown)'],
    ['nothing judged and nothing reported did not fail', sweepFacts({ impact: null, outcome: null }),
      'skip', 'it did not fail (no verdict yet, no outcome reported)'],
    ['not failing is decided before anything else, even an emergency L3', sweepFacts({ impact: 'none', tier: 'L3', changeClass: 'emergency' }),
      'skip', 'it did not fail'],
    // 2. a rollback already asked for or done
    ['a rollback already requested', sweepFacts({ rollbackState: 'requested' }),
      'skip', 'skip: a rollback was already requested (it failed: verdict outage)'],
    ['a rollback already done', sweepFacts({ rollbackState: 'rolled_back', impact: 'significant' }),
      'skip', 'skip: its rollback is already done (it failed: verdict significant)'],
    ['a rollback requested is named before a missing path', sweepFacts({ rollbackState: 'requested', rollbackKind: null }),
      'skip', 'a rollback was already requested'],
    // 3. nothing the platform can run
    ['no rollback path known', sweepFacts({ rollbackKind: null }),
      'skip', 'skip: no rollback path is known, so there is nothing to run (it failed: verdict outage)'],
    ['a manual rollback', sweepFacts({ rollbackKind: 'manual', outcome: 'partial', impact: null }),
      'skip', 'skip: its rollback is manual, so a person runs it (it failed: outcome partial)'],
    ['a manual rollback of an emergency is still skipped', sweepFacts({ rollbackKind: 'manual', changeClass: 'emergency', tier: 'L3' }),
      'skip', 'its rollback is manual, so a person runs it'],
    // 4. the pipeline already rolled it back
    ['a redeploy the pipeline already rolled back', sweepFacts({ rollbackKind: 'redeploy_previous', outcome: 'rolled_back' }),
      'skip', 'skip: the pipeline already rolled it back (outcome rolled_back)'],
    ['the pipeline’s own rollback is named before an emergency', sweepFacts({ rollbackKind: 'redeploy_previous', outcome: 'rolled_back', impact: null, changeClass: 'emergency' }),
      'skip', 'the pipeline already rolled it back'],
    ['a flag change whose outcome is rolled_back is not skipped by rule 4', sweepFacts({ outcome: 'rolled_back', impact: null }),
      'escalate', 'known only from its outcome rolled_back'],
    // 5. emergency
    ['an emergency flag change', sweepFacts({ changeClass: 'emergency', tier: 'L1' }),
      'escalate', 'escalate: it failed (verdict outage), but an emergency change was itself a fix: undoing it takes a person'],
    ['an emergency redeploy', sweepFacts({ changeClass: 'emergency', rollbackKind: 'redeploy_previous', tier: 'L3' }),
      'escalate', 'an emergency change was itself a fix'],
    // 6. L3
    ['an L3 standard flag change', sweepFacts({ tier: 'L3' }),
      'escalate', 'escalate: it failed (verdict outage), and an L3 change needs two approvers to release a rollback'],
    ['an L3 normal redeploy', sweepFacts({ tier: 'L3', changeClass: 'normal', rollbackKind: 'redeploy_previous' }),
      'escalate', 'an L3 change needs two approvers'],
    // 7. revert_flag
    ['a standard L1 flag change with an outage', sweepFacts(),
      'execute', 'execute: it failed (verdict outage) and it is a standard change, so its flags are set back to what they were'],
    ['a standard L2 flag change with a significant verdict', sweepFacts({ tier: 'L2', impact: 'significant' }),
      'execute', 'it is a standard change, so its flags are set back'],
    ['a standard flag change with no tier needs no tier', sweepFacts({ tier: null }),
      'execute', 'it is a standard change, so its flags are set back'],
    ['a normal L1 flag change with an outage', sweepFacts({ changeClass: 'normal' }),
      'execute', 'execute: it failed (verdict outage) and it is an L1 change, so its flags are set back to what they were'],
    ['a normal L2 flag change', sweepFacts({ changeClass: 'normal', tier: 'L2' }),
      'escalate', 'escalate: it failed (verdict outage), but setting the flags of a normal change at L2 back is left to a person'],
    ['a normal flag change with no tier is read as L2', sweepFacts({ changeClass: 'normal', tier: null, impact: 'significant' }),
      'escalate', 'a normal change at L2 (no risk tier recorded, read as L2) back is left to a person'],
    ['a standard flag change failed only by its outcome partial', sweepFacts({ impact: 'minor', outcome: 'partial' }),
      'escalate', 'escalate: setting its flags back is left to a person: the failure is known only from its outcome partial, not from a verdict'],
    ['an L1 flag change failed only by its outcome rolled_back', sweepFacts({ changeClass: 'normal', impact: 'unknown', outcome: 'rolled_back' }),
      'escalate', 'known only from its outcome rolled_back'],
    // 8. redeploy_previous
    ['a standard L1 redeploy with an outage', sweepFacts({ rollbackKind: 'redeploy_previous' }),
      'execute', 'execute: it failed (verdict outage) and it is a standard change at L1, so it asks the pipeline to redeploy the previous version'],
    ['a standard L2 redeploy with an outage', sweepFacts({ rollbackKind: 'redeploy_previous', tier: 'L2', outcome: 'partial' }),
      'execute', 'a standard change at L2, so it asks the pipeline to redeploy'],
    ['a standard redeploy with no tier is read as L2', sweepFacts({ rollbackKind: 'redeploy_previous', tier: null }),
      'execute', 'a standard change at L2 (no risk tier recorded, read as L2), so it asks the pipeline to redeploy the previous version'],
    ['a standard redeploy with only a significant verdict', sweepFacts({ rollbackKind: 'redeploy_previous', impact: 'significant' }),
      'escalate', 'escalate: it failed (verdict significant), but only an outage lets the sweep redeploy the previous version on its own'],
    ['a standard redeploy failed only by its outcome partial', sweepFacts({ rollbackKind: 'redeploy_previous', impact: null, outcome: 'partial' }),
      'escalate', 'it failed (outcome partial), but only an outage lets the sweep redeploy'],
    ['a normal L1 redeploy with an outage', sweepFacts({ rollbackKind: 'redeploy_previous', changeClass: 'normal' }),
      'escalate', 'escalate: it failed (verdict outage), but redeploying the previous version of a normal change is left to a person'],
  ] as const)('%s', (_, f, decision, reason) => {
    const d = sweepDecision(f);
    expect(d.decision).toBe(decision);
    expect(d.reason).toContain(reason);
  });

  it.each([
    ['an execute', sweepFacts({ rollbackState: 'failed' }), 'execute'],
    ['an escalation', sweepFacts({ rollbackState: 'failed', tier: 'L3' }), 'escalate'],
  ] as const)('an earlier rollback that failed does not stop %s, and the reason says so', (_, f, decision) => {
    const d = sweepDecision(f);
    expect(d.decision).toBe(decision);
    expect(d.reason.endsWith('; an earlier rollback failed')).toBe(true);
  });

  it('a skip of a change that did not fail says nothing of an earlier rollback', () => {
    expect(sweepDecision(sweepFacts({ impact: 'none', rollbackState: 'failed' })).reason).toBe('skip: it did not fail (verdict none, outcome success)');
  });
});

describe('the sweep, whatever the facts', () => {
  const facts = fc.record({
    tier: fc.constantFrom('L1', 'L2', 'L3', null),
    changeClass: fc.constantFrom('standard', 'normal', 'emergency'),
    rollbackKind: fc.constantFrom(...ROLLBACK_KINDS, null),
    impact: fc.constantFrom('outage', 'significant', 'minor', 'none', 'unknown', null),
    outcome: fc.constantFrom('success', 'partial', 'rolled_back', 'unknown', null),
    rollbackState: fc.constantFrom('requested', 'rolled_back', 'failed', null),
  }) satisfies fc.Arbitrary<SweepFacts>;

  it('yields exactly one decision with a reason that starts with it', () => {
    fc.assert(fc.property(facts, (f) => {
      const d = sweepDecision(f);
      expect(['execute', 'escalate', 'skip']).toContain(d.decision);
      expect(d.reason.startsWith(`${d.decision}: `)).toBe(true);
      expect(d.reason.length).toBeGreaterThan(d.decision.length + 2);
    }), { numRuns: 2000 });
  });

  it('always skips a change that did not fail', () => {
    fc.assert(fc.property(facts, (f) => {
      if (failureOf(f) !== null) return;
      expect(sweepDecision(f)).toEqual({ decision: 'skip', reason: expect.stringContaining('it did not fail') });
    }), { numRuns: 2000 });
  });

  it('never executes without a verdict of outage or significant, nor for an emergency, an L3 or a manual path', () => {
    fc.assert(fc.property(facts, (f) => {
      if (sweepDecision(f).decision !== 'execute') return;
      expect(['outage', 'significant']).toContain(f.impact);
      expect(f.changeClass).not.toBe('emergency');
      expect(f.tier).not.toBe('L3');
      expect(['revert_flag', 'redeploy_previous']).toContain(f.rollbackKind);
    }), { numRuns: 2000 });
  });
});
