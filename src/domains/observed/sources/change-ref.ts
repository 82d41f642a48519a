/**
 * How a write names the planned change it belongs to: the change's display id, CHG- and the first
 * 8 hex characters of its id (changes' displayId), in any case. One pattern for every adapter; each
 * says where it looks (a whole value, inside a value, a commit trailer).
 */
const REF = 'CHG-[0-9A-F]{8}';
const WHOLE = new RegExp(`^${REF}$`, 'i');
const INSIDE = new RegExp(`(?:^|[^0-9A-Za-z])(${REF})(?![0-9A-Za-z])`, 'i');
/**
 * A `Change-Id: CHG-XXXXXXXX` line of its own anywhere in a text (people paste it into PR
 * descriptions, not only into the last paragraph). Gerrit's `Change-Id: I…` never matches.
 */
const TRAILER = new RegExp(`^[ \\t]*Change-Id:[ \\t]*(${REF})[ \\t]*$`, 'im');

/** A value that is a display id and nothing else (surrounding blanks aside), upper-cased. */
export function wholeChangeRef(value: unknown): string | null {
  return typeof value === 'string' && WHOLE.test(value.trim()) ? value.trim().toUpperCase() : null;
}

/** The first display id inside a value (a session name `deploy-CHG-1A2B3C4D`, a tag, an annotation), upper-cased. */
export function changeRefIn(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = INSIDE.exec(value);
  return m ? m[1]!.toUpperCase() : null;
}

/** The first `Change-Id:` trailer line of the texts (commit messages, a PR body), upper-cased. */
export function trailerChangeRef(texts: ReadonlyArray<string | null | undefined>): string | null {
  for (const t of texts) {
    const m = t ? TRAILER.exec(t) : null;
    if (m) return m[1]!.toUpperCase();
  }
  return null;
}
