/**
 * `npm run bench -- ticket-patterns [--checks N]`: what running the organisation's ticket pattern
 * on RE2 (re2js, linear time) costs a flag write, against JavaScript's own backtracking RegExp
 * measured side by side: the default pattern on ordinary reasons, then the pattern of the ReDoS
 * report on growing inputs, where the backtracking engine's time doubles with every character.
 * No database: the check is a pure function on the write's path.
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_TICKET_PATTERN } from '../src/domains/flags/flag.js';
import { compileTicketPattern } from '../src/domains/flags/ticket-pattern.js';
import { busy, int, machine, ms, parseOptions, positiveInt, say, table } from './bench-support.js';

type Test = (text: string) => boolean;

/** Mean microseconds per check over `n` checks cycling through the texts (after a warm-up). */
function perCheck(test: Test, texts: readonly string[], n: number): number {
  for (let i = 0; i < Math.min(n, 1_000); i++) test(texts[i % texts.length]!);
  const start = performance.now();
  let hits = 0;
  for (let i = 0; i < n; i++) if (test(texts[i % texts.length]!)) hits++;
  const took = performance.now() - start;
  if (hits < 0) say('unreachable'); // keeps the loop's result alive
  return (took * 1_000) / n;
}

/** One check's milliseconds. */
function once(test: Test, text: string): number {
  const start = performance.now();
  test(text);
  return performance.now() - start;
}

function re2(pattern: string): Test {
  const c = compileTicketPattern(pattern);
  if (!c.ok) throw new Error(c.error);
  return (t) => c.matcher.test(t);
}

function native(pattern: string): Test {
  const re = new RegExp(pattern);
  return (t) => re.test(t);
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseOptions(args, { values: ['checks'], flags: [] });
  const checks = positiveInt('--checks', values.get('checks')) ?? 200_000;

  say(`ticket patterns: RE2 (re2js) vs JavaScript RegExp, ${int(checks)} checks per row; load average ${busy()}`);
  const reasons = [
    'Rolling back after OPS-1234: checkout errors doubled',
    'roll out the new processor to 5 % per the release plan',
    'kill switch: payments latency, see INC-88 and PAY-7',
    'no ticket in this reason, only words about the change being made today',
  ];
  const rows: string[][] = [];
  const re2Us = perCheck(re2(DEFAULT_TICKET_PATTERN), reasons, checks);
  const jsUs = perCheck(native(DEFAULT_TICKET_PATTERN), reasons, checks);
  rows.push(['default pattern, 4 ordinary reasons (48–72 chars)', `${ms(re2Us)} µs`, `${ms(jsUs)} µs`, (re2Us / jsUs).toFixed(1)]);
  say(table(['case', 'RE2 per check', 'RegExp per check', 'RE2 / RegExp'], rows));

  // The report's pattern: seven groups that can each match "a" two ways. A reason of n a's and
  // one "!" fails only after every split has been tried by a backtracking engine.
  const evil = `^${'(a|a?)+'.repeat(7)}$`;
  const evilRe2 = re2(evil);
  const evilJs = native(evil);
  const growth: string[][] = [];
  let jsStopped = false;
  for (const n of [2, 3, 4, 5, 6, 7, 8, 9, 29, 99, 999]) {
    const text = `${'a'.repeat(n)}!`;
    const r = Math.min(...[0, 1, 2].map(() => once(evilRe2, text)));
    // The backtracking engine only while one check stays under half a second: past that it doubles.
    let j = NaN;
    if (!jsStopped) {
      j = once(evilJs, text);
      if (j > 500) jsStopped = true;
    }
    growth.push([String(n + 1), `${ms(r * 1_000)} µs`, Number.isNaN(j) ? 'not run (too slow)' : `${ms(j * 1_000)} µs`, Number.isNaN(j) ? '-' : (j / r).toFixed(0)]);
  }
  say('');
  say(`the ReDoS report's pattern ${evil} on "a…a!" (one check)`);
  say(table(['reason length', 'RE2', 'RegExp', 'RegExp / RE2'], growth));
  say('');
  for (const line of machine()) say(line);
}
