/** Globs that people save (catalogue maps, principals, template and window scopes), judged once when saved. */
import picomatch from 'picomatch';

export const MAX_GLOB_CHARS = 500;

/**
 * How a saved glob is judged: brackets, braces and parentheses must close (picomatch would
 * otherwise read an unclosed one as a literal and the glob would silently match nothing intended).
 */
export const GLOB_OPTIONS = { strictBrackets: true, dot: true } as const;

/** Why a glob cannot be used, or null when it can. */
export function globProblem(glob: string): string | null {
  if (glob.trim() === '') return 'is an empty pattern';
  if (glob.length > MAX_GLOB_CHARS) return `is longer than ${MAX_GLOB_CHARS} characters`;
  if (/[\u0000-\u001f\u007f]/.test(glob)) return 'contains control characters';
  try {
    // picomatch turns a pattern it cannot read into a regular expression that never matches.
    if (picomatch.makeRe(glob, GLOB_OPTIONS).source === '$^') return 'is not a pattern that can match anything';
  } catch (err) {
    return `is not a valid pattern: ${(err as Error).message.replace(/ - use .*$/, '')}`;
  }
  return null;
}

