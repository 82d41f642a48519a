import { describe, expect, it } from 'vitest';
import { ACTIONS, CHANGE_STATUSES, FINAL_STATUSES, move, routed, type Action, type ChangeStatus } from './change-lifecycle.js';

/** Every allowed move; every other (status, action) pair is refused. */
const ALLOWED: Array<[ChangeStatus, Action, ChangeStatus]> = [
  ['draft', 'submit', 'scheduled'],
  ['pending_mapping', 'mapped', 'scheduled'],
  ['pending_approval', 'approve', 'approved'],
  ['pending_approval', 'reject', 'rejected'],
  ['pending_mapping', 'expire', 'expired'],
  ['pending_approval', 'expire', 'expired'],
  ['approved', 'expire', 'expired'],
  ['scheduled', 'expire', 'expired'],
  ['scheduled', 'start', 'active'],
  ['approved', 'start', 'active'],
  ['active', 'finish', 'evaluating'],
  ['active', 'abort', 'evaluating'],
  ['active', 'window_end', 'evaluating'],
  ['evaluating', 'report', 'reported'],
  ['reported', 'evaluate', 'evaluating'],
  ['draft', 'cancel', 'cancelled'],
  ['scheduled', 'cancel', 'cancelled'],
  ['pending_mapping', 'cancel', 'cancelled'],
  ['pending_approval', 'cancel', 'cancelled'],
  ['approved', 'cancel', 'cancelled'],
  ['draft', 'edit', 'draft'],
  ['scheduled', 'edit', 'scheduled'],
  ['pending_approval', 'edit', 'pending_approval'],
  ['approved', 'edit', 'approved'],
  // After an edit, a class drop or a reclassification: back through the gate (ungated here, so scheduled).
  ['scheduled', 'reopen', 'scheduled'],
  ['pending_approval', 'reopen', 'scheduled'],
  ['approved', 'reopen', 'scheduled'],
];

describe('the change lifecycle', () => {
  for (const from of CHANGE_STATUSES) {
    for (const action of ACTIONS) {
      const allowed = ALLOWED.find(([f, a]) => f === from && a === action);
      it(`${from} + ${action} → ${allowed ? allowed[2] : 'refused'}`, () => {
        const m = move(from, action);
        if (allowed) expect(m).toEqual({ ok: true, to: allowed[2] });
        else {
          expect(m.ok).toBe(false);
          if (!m.ok) expect(m.reason).toContain(`a change that is ${from}`);
        }
      });
    }
  }
  it('leaves a final status by no action at all', () => {
    for (const s of FINAL_STATUSES.filter((f) => f !== 'reported')) for (const a of ACTIONS) expect(move(s, a).ok, `${s} ${a}`).toBe(false);
    expect(ACTIONS.filter((a) => move('reported', a).ok)).toEqual(['evaluate']);
  });
  it('routes a registration (or a mapped change) through the gate, or starts it, or schedules it', () => {
    expect(routed({ gated: true, startNow: true })).toBe('pending_approval');
    expect(routed({ gated: false, startNow: true })).toBe('active');
    expect(routed({ gated: false, startNow: false })).toBe('scheduled');
    expect(move('pending_mapping', 'mapped', { gated: true, startNow: false })).toEqual({ ok: true, to: 'pending_approval' });
    expect(move('draft', 'submit', { gated: false, startNow: true })).toEqual({ ok: true, to: 'active' });
    expect(move('approved', 'reopen', { gated: true, startNow: false })).toEqual({ ok: true, to: 'pending_approval' });
  });
});
