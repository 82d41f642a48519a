import { describe, expect, it } from 'vitest';
import { judgeQuorum, missingApprovers, type Gate } from './quorum-rule.js';

const gate = (approvers: number, quorum: number, gated = true): Gate => ({ gated, quorum, approvers });

describe('the quorum rule', () => {
  it.each([
    // before → after, the field written: taken (with or without a warning) or refused.
    ['a new organisation lowers its quorum to 1 with nobody designated', gate(0, 2), gate(0, 1), 'quorum', 'warn'],
    ['a new organisation raises its quorum with nobody designated', gate(0, 2), gate(0, 5), 'quorum', 'warn'],
    ['a short list takes back a designation', gate(1, 2), gate(0, 2), 'userIds', 'warn'],
    ['a short list grows, still short', gate(1, 3), gate(2, 3), 'userIds', 'warn'],
    ['a short list grows to the quorum', gate(1, 2), gate(2, 2), 'userIds', 'ok'],
    ['a complete list gets a quorum above it', gate(2, 2), gate(2, 3), 'quorum', 'refused'],
    ['a complete list shrinks below the quorum', gate(3, 3), gate(2, 3), 'userIds', 'refused'],
    ['a longer list shrinks to the quorum', gate(3, 2), gate(2, 2), 'userIds', 'ok'],
    ['approval turned off: any quorum', gate(2, 2), gate(2, 9, false), 'quorum', 'ok'],
    ['approval turned on with nobody designated', gate(0, 2, false), gate(0, 2), 'quorum', 'warn'],
  ] as const)('%s', (_, before, after, field, expected) => {
    const j = judgeQuorum(before, after, field);
    const got = !j.ok ? 'refused' : j.warning === null ? 'ok' : 'warn';
    expect(got).toBe(expected);
    if (!j.ok) expect(j.field).toBe(field);
  });

  it('counts the approvers missing only while approval is required', () => {
    expect(missingApprovers(gate(1, 3))).toBe(2);
    expect(missingApprovers(gate(4, 3))).toBe(0);
    expect(missingApprovers(gate(0, 3, false))).toBe(0);
  });
});
