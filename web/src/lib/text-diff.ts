import { diffJson, diffLines, type Change } from 'diff';

// Two texts, or two JSON values, as the lines a person compares: added, removed, unchanged.
// jsdiff finds the changes; this only cuts them into lines and folds long unchanged runs.

export type DiffLine = { kind: 'added' | 'removed' | 'same'; text: string };
export type DiffRow = DiffLine | { kind: 'skip'; count: number };
export type LineDiff = { rows: DiffRow[]; added: number; removed: number } | { tooLarge: true };

/** A diff that takes longer than this is not drawn (a 256 KiB artifact rewritten end to end). */
const DIFF_TIMEOUT_MS = 1500;
/** Unchanged lines kept on each side of a change; longer unchanged runs fold into one row. */
const CONTEXT = 3;

function linesOf(parts: readonly Change[]): DiffLine[] {
  return parts.flatMap((p) => {
    const kind = p.added ? 'added' : p.removed ? 'removed' : 'same';
    const text = p.value.endsWith('\n') ? p.value.slice(0, -1) : p.value;
    return text.split('\n').map((line) => ({ kind, text: line }));
  });
}

/** Folds unchanged runs longer than the context on both sides into a skip row. */
export function folded(lines: readonly DiffLine[], context = CONTEXT): DiffRow[] {
  const near = lines.map(() => false);
  lines.forEach((l, i) => {
    if (l.kind === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j += 1) near[j] = true;
  });
  const out: DiffRow[] = [];
  let skipped = 0;
  lines.forEach((l, i) => {
    if (l.kind !== 'same' || near[i] === true) {
      if (skipped > 0) out.push({ kind: 'skip', count: skipped });
      skipped = 0;
      out.push(l);
    } else skipped += 1;
  });
  if (skipped > 0) out.push({ kind: 'skip', count: skipped });
  return out;
}

function summed(lines: readonly DiffLine[]): LineDiff {
  return { rows: folded(lines), added: lines.filter((l) => l.kind === 'added').length, removed: lines.filter((l) => l.kind === 'removed').length };
}

/** Two texts line by line (an artifact before and after). */
export function textDiff(before: string, after: string): LineDiff {
  const parts = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS });
  return parts === undefined ? { tooLarge: true } : summed(linesOf(parts));
}

/**
 * Two JSON values as pretty JSON, keys sorted (a flag's value before and after). A value that is
 * not an object is written here: jsdiff reads a string as JSON text already written, and a flag's
 * text value is not; a flag that did not exist reads as unset.
 */
export function jsonDiff(before: unknown, after: unknown): LineDiff {
  const side = (v: unknown): string | object => (typeof v === 'object' && v !== null ? v : v === undefined ? 'unset' : JSON.stringify(v));
  const parts = diffJson(side(before), side(after), { timeout: DIFF_TIMEOUT_MS });
  return parts === undefined ? { tooLarge: true } : summed(linesOf(parts));
}
