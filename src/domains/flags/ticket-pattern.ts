import { RE2JS } from 're2js';

/**
 * The organisation's ticket pattern, run on a linear-time engine (RE2 through re2js). The pattern
 * is anyone's with the admin role, and it runs on reasons sent by every `flags:write` token: a
 * backtracking engine would let one pattern such as `^(a|a?)+(a|a?)+…$` stall the whole process on
 * a nine-character reason. RE2 takes time linear in the reason whatever the pattern, and has no
 * backreferences or lookaround, which is why those are refused when the pattern is saved.
 */

export type TicketMatcher = {
  /** Does the pattern occur anywhere in the text? */
  test(text: string): boolean;
  /** Which engine runs it: always RE2, so callers and tests can tell it is the linear one. */
  readonly engine: 're2';
};

export type CompiledPattern = { ok: true; matcher: TicketMatcher } | { ok: false; error: string };

const BACKREFERENCE = /\\(?:[1-9]|k<)/;
const LOOKAROUND = /\(\?<?[=!]/;
const CACHE_MAX = 200;
const cache = new Map<string, CompiledPattern>();

function why(pattern: string, err: unknown): string {
  if (BACKREFERENCE.test(pattern)) return 'uses a backreference (\\1, \\k<name>), which is not supported: patterns run on a linear-time engine (RE2 syntax)';
  if (LOOKAROUND.test(pattern)) return 'uses lookaround ((?=…), (?!…), (?<=…), (?<!…)), which is not supported: patterns run on a linear-time engine (RE2 syntax)';
  const detail = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp:\s*/, '');
  return `is not a regular expression in RE2 syntax: ${detail}`;
}

/** Compiles once per distinct pattern (patterns are few: one per organisation). */
export function compileTicketPattern(pattern: string): CompiledPattern {
  const known = cache.get(pattern);
  if (known) return known;
  let out: CompiledPattern;
  try {
    const re = RE2JS.compile(pattern);
    out = { ok: true, matcher: { test: (text) => re.test(text), engine: 're2' } };
  } catch (err) {
    out = { ok: false, error: `ticketPattern ${why(pattern, err)}` };
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(pattern, out);
  return out;
}
