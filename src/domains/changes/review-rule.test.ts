import { describe, expect, it } from 'vitest';
import { hasRun, isOverdue, reviewRequirement, type ReviewFacts } from './review-rule.js';

const FINISHED = '2026-03-02T10:00:00.000Z';
const ran = (f: Partial<ReviewFacts> = {}): ReviewFacts => ({
  status: 'reported', finishedAt: FINISHED, changeClass: 'normal', outcome: 'success', rollbackState: null, impact: 'none', ...f,
});

describe('the post-implementation review rule', () => {
  it.each([
    // [case, facts, required, reasons]
    ['a normal change that went well needs none', ran(), false, []],
    ['an emergency change needs one', ran({ changeClass: 'emergency' }), true, ['an emergency change']],
    ['a rolled-back outcome needs one', ran({ outcome: 'rolled_back' }), true, ['it was rolled back']],
    ['a completed rollback path needs one, whatever the outcome said', ran({ rollbackState: 'rolled_back' }), true, ['it was rolled back']],
    ['a rollback said twice is one reason', ran({ outcome: 'rolled_back', rollbackState: 'rolled_back' }), true, ['it was rolled back']],
    ['a rollback only requested is no reason yet', ran({ rollbackState: 'requested' }), false, []],
    ['a rollback that failed is no reason by itself', ran({ rollbackState: 'failed' }), false, []],
    ['an outage verdict needs one', ran({ impact: 'outage' }), true, ['its verdict was outage']],
    ['a significant verdict needs one', ran({ impact: 'significant' }), true, ['its verdict was significant']],
    ['a minor verdict needs none', ran({ impact: 'minor' }), false, []],
    ['an unknown verdict needs none', ran({ impact: 'unknown' }), false, []],
    ['no verdict yet (evaluating) needs none by impact', ran({ status: 'evaluating', impact: null }), false, []],
    ['an evaluating emergency needs one already', ran({ status: 'evaluating', impact: null, changeClass: 'emergency' }), true, ['an emergency change']],
    ['every cause at once, in a fixed order', ran({ changeClass: 'emergency', outcome: 'rolled_back', impact: 'outage' }), true, ['an emergency change', 'it was rolled back', 'its verdict was outage']],
    ['an emergency that never ran needs none (cancelled)', ran({ status: 'cancelled', finishedAt: null, changeClass: 'emergency' }), false, []],
    ['an emergency still running needs none yet', ran({ status: 'active', finishedAt: null, changeClass: 'emergency', outcome: null, impact: null }), false, []],
    ['an emergency waiting for approval needs none', ran({ status: 'pending_approval', finishedAt: null, changeClass: 'emergency', outcome: null, impact: null }), false, []],
    ['a finish time alone counts as having run', ran({ status: 'active', finishedAt: FINISHED, outcome: 'rolled_back', impact: null }), true, ['it was rolled back']],
  ] as const)('%s', (_, facts, required, reasons) => {
    expect(reviewRequirement(facts)).toEqual({ required, reasons });
  });

  it('counts a change as run when evaluating, reported or finished', () => {
    expect(hasRun({ status: 'evaluating', finishedAt: null })).toBe(true);
    expect(hasRun({ status: 'reported', finishedAt: null })).toBe(true);
    expect(hasRun({ status: 'scheduled', finishedAt: FINISHED })).toBe(true);
    for (const status of ['draft', 'scheduled', 'pending_mapping', 'pending_approval', 'approved', 'rejected', 'expired', 'active', 'cancelled'] as const) {
      expect(hasRun({ status, finishedAt: null }), status).toBe(false);
    }
  });

  it('calls a review overdue only more than 3 days after the finish', () => {
    const at = (ms: number) => new Date(new Date(FINISHED).getTime() + ms);
    expect(isOverdue(FINISHED, at(3 * 86_400_000))).toBe(false);
    expect(isOverdue(FINISHED, at(3 * 86_400_000 + 1))).toBe(true);
    expect(isOverdue(null, at(30 * 86_400_000))).toBe(false);
  });
});
