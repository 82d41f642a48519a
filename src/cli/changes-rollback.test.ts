import { describe, expect, it } from 'vitest';
import { assessRollback, registerBody, type Status } from './changes.js';

// `changes wait --rollback`: a rollback job blocks until someone (or the sweep) releases the rollback.

function aStatus(rollback: Partial<Status['rollback']>, captures: Partial<Status['beforeState']['captures'][number]>[] = []): Status {
  return {
    id: 'chg_1', displayId: 'CHG-00000001', status: 'evaluating',
    rollback: { state: null, requestedAt: null, completedAt: null, decision: null, ...rollback },
    beforeState: { digest: null, captures: captures.map((c, i) => ({ id: `cap_${i}`, method: 'previous_version', previousVersion: null, previousCommit: null, artifactName: null, sha256: 'ab'.repeat(32), completeness: 'partial', restorable: true, ...c })) },
  } as unknown as Status;
}

describe('changes wait --rollback: where a rollback stands', () => {
  it.each([
    ['no rollback yet: wait', aStatus({}), { done: false, line: 'evaluating — no rollback requested' }],
    ['the sweep escalated: still wait, saying why', aStatus({ decision: { decision: 'escalate', reason: 'escalate: L3 needs two approvers', at: '2026-01-01T00:00:00.000Z' } }),
      { done: false, line: 'evaluating — no rollback requested (the sweep: escalate: L3 needs two approvers)' }],
    ['requested: go, naming what to roll back to', aStatus({ state: 'requested', requestedAt: '2026-01-01T00:10:00.000Z' }, [{ previousVersion: '6.9.1' }, { method: 'previous_commit', previousCommit: '1a2b3c4' }]),
      { done: true, ok: true, line: 'rollback requested at 2026-01-01T00:10:00.000Z — roll back to the before-state: version 6.9.1, commit 1a2b3c4' }],
    ['requested without a before-state says so', aStatus({ state: 'requested', requestedAt: '2026-01-01T00:10:00.000Z' }),
      { done: true, ok: true, line: 'rollback requested at 2026-01-01T00:10:00.000Z — roll back to no before-state was captured' }],
    ['rolled back already: nothing left to do', aStatus({ state: 'rolled_back', completedAt: '2026-01-01T00:20:00.000Z' }), { done: true, ok: true, line: 'rolled back at 2026-01-01T00:20:00.000Z — nothing left to do' }],
    ['failed: stop', aStatus({ state: 'failed', completedAt: '2026-01-01T00:20:00.000Z' }), { done: true, ok: false, reason: 'its rollback failed at 2026-01-01T00:20:00.000Z' }],
  ])('%s', (_name, s, want) => {
    expect(assessRollback(s)).toEqual(want);
  });

  it('register sends the before-state options: --previous-version, --previous-commit and --base-commit', () => {
    const body = registerBody({ title: 'Deploy', component: ['checkout'], componentKey: [], timeout: '4h', interval: '30s', server: undefined, token: undefined, previousVersion: '6.9.1', previousCommit: '1a2b3c4', baseCommit: '9f8e7d6' } as never, {});
    expect(body).toMatchObject({ previousVersion: '6.9.1', previousCommit: '1a2b3c4', pipeline: { baseCommit: '9f8e7d6' } });
  });
});
