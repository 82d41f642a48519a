import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkReason, DEFAULT_TICKET_PATTERN } from './flag.js';
import { compileTicketPattern } from './ticket-pattern.js';

/** The pattern of the report: a backtracking engine needs seconds on 9 characters, and ages on 30. */
const EVIL = `^${'(a|a?)+'.repeat(7)}$`;

describe('the ticket pattern runs on a linear-time engine', () => {
  it('answers the reported pattern on a 30-character input', () => {
    const c = compileTicketPattern(EVIL);
    if (!c.ok) throw new Error(c.error);
    expect(c.matcher.engine).toBe('re2');
    expect(c.matcher.test(`${'a'.repeat(29)}!`)).toBe(false);
    expect(c.matcher.test('a'.repeat(30))).toBe(true);
  });

  it('a reason is checked with RE2 meaning: \\pL is any letter, where a JavaScript RegExp reads "pL"', () => {
    expect(checkReason('high', 'ÄBC-1', '^\\pL{3}-\\d+$').ok).toBe(true);
    expect(checkReason('high', 'pLLL-1', '^\\pL{3}-\\d+$').ok).toBe(false);
  });

  it('the default pattern means what it meant: the same answer as before on any short reason', () => {
    const before = new RegExp(DEFAULT_TICKET_PATTERN);
    const now = compileTicketPattern(DEFAULT_TICKET_PATTERN);
    if (!now.ok) throw new Error(now.error);
    const reason = fc.string({ unit: fc.constantFrom('A', 'Z', 'Q', '0', '9', '-', ' ', 'a', '_', '.'), maxLength: 12 });
    fc.assert(fc.property(reason, (text) => now.matcher.test(text) === before.test(text)), { seed: 11, numRuns: 2000 });
  });

  const refused: Array<[string, string, RegExp]> = [
    ['a backreference', '([A-Z]+)-\\1', /backreference .* not supported/],
    ['a named backreference', '(?<p>[A-Z]+)\\k<p>', /backreference .* not supported/],
    ['a lookahead', '(?=OPS-)OPS-\\d+', /lookaround .* not supported/],
    ['a negative lookbehind', '(?<!X)OPS-\\d+', /lookaround .* not supported/],
    ['an unclosed class', '([', /not a regular expression in RE2 syntax: missing closing \]/],
  ];
  it.each(refused)('refuses %s in plain words naming ticketPattern', (_n, pattern, why) => {
    const c = compileTicketPattern(pattern);
    expect(c.ok).toBe(false);
    if (!c.ok) {
      expect(c.error).toMatch(/^ticketPattern /);
      expect(c.error).toMatch(why);
    }
  });

  it('a stored pattern the engine cannot compile matches nothing; length and links still count', () => {
    expect(checkReason('high', 'OPS-1', '(?=OPS)OPS-\\d').ok).toBe(false);
    expect(checkReason('high', 'rolled back after INC', '(?=OPS)OPS-\\d').ok).toBe(true);
  });
});
