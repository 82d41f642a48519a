/**
 * The one matcher of change and freeze windows (the spec: "both windows share one shape and one
 * matcher; they read opposite policies off the same answer"). Pure: the windows are expanded once
 * over a horizon (compileWindows), then each question is binary searches over sorted intervals.
 */
import picomatch from 'picomatch';
import { CRITICALITY_RANK, describeInstant, expand, GLOB_OPTIONS, isoUtc, zoneOf, type Criticality, type WindowDef, type WindowKind, type WindowScope } from './window-schedule.js';

export type ChangeFacts = { services: string[]; environments: string[]; criticality: Criticality | null };
export type CompiledWindow = { def: WindowDef; intervals: Float64Array /* start,end,start,end… sorted, disjoint */; scope: number; zone: string | null };
/** `scopes` indexes each distinct scope once, by what it names; a window's `scope` is its number there. */
export type WindowSet = { from: number; to: number; windows: CompiledWindow[]; scopes: ScopeIndex };
export type WindowRef = { id: string; name: string; kind: WindowKind; start: string; end: string };
export type WindowMatch = { allowed: boolean; window: WindowRef | null; reason: string; nextOpening: string | null };
export type WindowConflict = { window: WindowRef | null; conflict: 'freeze_overlaps' | 'outside_change_windows'; reason: string };

/** Plain names are one Map lookup; each distinct glob is one regular expression, built once. */
type PatternIndex = { exact: Map<string, number[]>; globs: Array<{ re: RegExp; scopes: number[] }> };
/**
 * The distinct scopes of a set, indexed by what they name: a question marks every scope it is in
 * with a lookup per fact and a test per distinct glob, instead of testing every scope's list
 * (100 ns a scope; 200 windows made that half the budget of a check).
 */
export type ScopeIndex = { count: number; all: number[]; atLeast: number[][]; services: PatternIndex; environments: PatternIndex };

function addPattern(index: PatternIndex, globs: Map<string, { re: RegExp; scopes: number[] }>, pattern: string, scope: number): void {
  const p = pattern.trim();
  if (picomatch.scan(p).isGlob || p.includes('\\')) {
    const key = p.toLowerCase();
    let g = globs.get(key);
    if (!g) {
      g = { re: picomatch.makeRe(p, GLOB_OPTIONS), scopes: [] };
      globs.set(key, g);
      index.globs.push(g);
    }
    g.scopes.push(scope);
  } else {
    const key = p.toLowerCase();
    index.exact.set(key, [...(index.exact.get(key) ?? []), scope]);
  }
}

function indexScopes(scopes: WindowScope[]): ScopeIndex {
  const idx: ScopeIndex = { count: scopes.length, all: [], atLeast: [[], [], []], services: { exact: new Map(), globs: [] }, environments: { exact: new Map(), globs: [] } };
  const serviceGlobs = new Map<string, { re: RegExp; scopes: number[] }>();
  const environmentGlobs = new Map<string, { re: RegExp; scopes: number[] }>();
  scopes.forEach((scope, k) => {
    if (scope.type === 'all') idx.all.push(k);
    else if (scope.type === 'criticality') idx.atLeast[CRITICALITY_RANK[scope.atLeast]]!.push(k);
    else if (scope.type === 'environments') for (const p of scope.environments) addPattern(idx.environments, environmentGlobs, p, k);
    else {
      for (const p of scope.services) {
        addPattern(idx.services, serviceGlobs, p, k);
        // A bare "checkout" names the catalogue service "svc:checkout" (and still matches a bare key).
        if (!p.includes(':')) addPattern(idx.services, serviceGlobs, `svc:${p.trim()}`, k);
      }
    }
  });
  return idx;
}

function markPatterns(index: PatternIndex, values: readonly string[], marks: Uint8Array): void {
  for (const raw of values) {
    const v = raw.trim().toLowerCase();
    const hits = index.exact.get(v);
    if (hits) for (const k of hits) marks[k] = 1;
    for (const g of index.globs) if (g.re.test(v)) for (const k of g.scopes) marks[k] = 1;
  }
}

/**
 * Scratch arrays every question reuses: allocating three typed arrays cost 2.5 µs, a sixth of a
 * check. Safe to share: a question runs synchronously to its end and never starts another.
 */
const scratch = { marks: new Uint8Array(256), inScope: new Int32Array(1024), cursor: new Int32Array(1024) };

/** marks[k] = 1 when the change is in the set's scope number k (a scratch array: read it before the next question). */
function scopesOf(idx: ScopeIndex, change: ChangeFacts): Uint8Array {
  if (scratch.marks.length < idx.count) scratch.marks = new Uint8Array(idx.count * 2);
  const marks = scratch.marks;
  marks.fill(0, 0, idx.count);
  for (const k of idx.all) marks[k] = 1;
  // Unknown criticality (no tier yet) is in every criticality scope: a change-control tool fails
  // closed, holding an untiered change to the stricter rule rather than waving it past a freeze.
  const rank = change.criticality === null ? 2 : CRITICALITY_RANK[change.criticality];
  for (let r = 0; r <= rank; r++) for (const k of idx.atLeast[r]!) marks[k] = 1;
  markPatterns(idx.services, change.services, marks);
  markPatterns(idx.environments, change.environments, marks);
  return marks;
}

const scopeKey = (s: WindowScope): string => {
  if (s.type === 'services') return `services ${JSON.stringify(s.services.map((p) => p.trim().toLowerCase()).sort())}`;
  if (s.type === 'environments') return `environments ${JSON.stringify(s.environments.map((p) => p.trim().toLowerCase()).sort())}`;
  return s.type === 'criticality' ? `criticality ${s.atLeast}` : 'all';
};

/** Expands each window once over [from, to) and indexes the scopes; questions are then cheap. */
export function compileWindows(defs: WindowDef[], from: number, to: number): WindowSet {
  if (!(to > from)) throw new RangeError('compileWindows: the horizon must end after it starts');
  const distinct: WindowScope[] = [];
  const byKey = new Map<string, number>();
  const windows = defs.map((def): CompiledWindow => {
    const key = scopeKey(def.scope);
    let scope = byKey.get(key);
    if (scope === undefined) {
      scope = distinct.push(def.scope) - 1;
      byKey.set(key, scope);
    }
    return { def, intervals: Float64Array.from(expand(def, from, to).flat()), scope, zone: zoneOf(def.schedule) };
  });
  return { from, to, windows, scopes: indexScopes(distinct) };
}

/** Whether a change is in a window's scope: the matcher's own rule, for one scope. */
export function inScope(scope: WindowScope, change: ChangeFacts): boolean {
  return scopesOf(indexScopes([scope]), change)[0] === 1;
}

/** The index of the last interval starting at or before t (strictly before with `strict`), or −1. */
export function lastStartAtOrBefore(iv: Float64Array, t: number, strict = false): number {
  let lo = 0;
  let hi = iv.length >> 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const s = iv[mid << 1]!;
    if (s < t || (s === t && !strict)) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * One question: the windows in scope for the change (freezes from the front of `inScope`, change
 * windows from its back) and a cursor per window, the last interval starting at or before the
 * time last asked. Typed arrays, not an object per window: allocation was a tenth of a check.
 */
type Question = { set: WindowSet; n: number; inScope: Int32Array; freezes: number; changes: number; cursor: Int32Array };

/** The windows in scope for the change, each with a cursor at t. */
function question(set: WindowSet, change: ChangeFacts, t: number): Question {
  const marks = scopesOf(set.scopes, change);
  const n = set.windows.length;
  if (scratch.inScope.length < n) {
    scratch.inScope = new Int32Array(n * 2);
    scratch.cursor = new Int32Array(n * 2);
  }
  const q: Question = { set, n, inScope: scratch.inScope, freezes: 0, changes: 0, cursor: scratch.cursor };
  for (let k = 0; k < n; k++) {
    const w = set.windows[k]!;
    if (marks[w.scope] !== 1) continue;
    // A window without an occurrence in the horizon (a one-off that is over, a rule past its UNTIL)
    // changes no answer: an old change window must not hold its services for ever.
    if (w.intervals.length === 0) continue;
    if (w.def.kind === 'freeze') q.inScope[q.freezes++] = k;
    else q.inScope[n - 1 - q.changes++] = k;
    q.cursor[k] = lastStartAtOrBefore(w.intervals, t);
  }
  return q;
}

/** Moves window k's cursor forward to t (within one question the times asked only grow); returns it. */
function seek(q: Question, k: number, t: number): number {
  const iv = q.set.windows[k]!.intervals;
  const i = q.cursor[k]!;
  const n = iv.length >> 1;
  if (i + 1 >= n || iv[(i + 1) << 1]! > t) return i;
  return (q.cursor[k] = i + 2 < n && iv[(i + 2) << 1]! <= t ? lastStartAtOrBefore(iv, t) : i + 1);
}

type Occurrence = { w: CompiledWindow; i: number };
const startOf = (o: Occurrence) => o.w.intervals[o.i << 1]!;
const endOf = (o: Occurrence) => o.w.intervals[(o.i << 1) + 1]!;
const ref = (o: Occurrence): WindowRef => ({ id: o.w.def.id, name: o.w.def.name, kind: o.w.def.kind, start: isoUtc(startOf(o)), end: isoUtc(endOf(o)) });
const when = (o: Occurrence, ms: number) => describeInstant(ms, o.w.zone);
const horizonEnd = (set: WindowSet) => `there is no opening before the horizon end (${isoUtc(set.to)})`;

/** Of the freezes in scope, the occurrence covering t that ends last, or null. */
function covering(q: Question, t: number): Occurrence | null {
  let best = -1;
  let bestI = -1;
  let bestEnd = -Infinity;
  for (let j = 0; j < q.freezes; j++) {
    const k = q.inScope[j]!;
    const i = seek(q, k, t);
    if (i < 0) continue;
    const e = q.set.windows[k]!.intervals[(i << 1) + 1]!;
    if (t < e && e > bestEnd) {
      best = k;
      bestI = i;
      bestEnd = e;
    }
  }
  return best < 0 ? null : { w: q.set.windows[best]!, i: bestI };
}

/**
 * The change windows in scope at t, in one pass: the occurrence covering t that ends last, and the
 * occurrence opening first after t (each null when there is none).
 */
function changeWindowsAt(q: Question, t: number): { inside: Occurrence | null; next: Occurrence | null } {
  let inside = -1;
  let insideI = -1;
  let insideEnd = -Infinity;
  let next = -1;
  let nextStart = Infinity;
  for (let j = q.n - q.changes; j < q.n; j++) {
    const k = q.inScope[j]!;
    const i = seek(q, k, t);
    const iv = q.set.windows[k]!.intervals;
    if (i >= 0 && t < iv[(i << 1) + 1]! && iv[(i << 1) + 1]! > insideEnd) {
      inside = k;
      insideI = i;
      insideEnd = iv[(i << 1) + 1]!;
    }
    if (i + 1 < iv.length >> 1 && iv[(i + 1) << 1]! < nextStart) {
      next = k;
      nextStart = iv[(i + 1) << 1]!;
    }
  }
  const w = q.set.windows;
  return { inside: inside < 0 ? null : { w: w[inside]!, i: insideI }, next: next < 0 ? null : { w: w[next]!, i: q.cursor[next]! + 1 } };
}

/**
 * The earliest instant ≥ t in the horizon where the change would be allowed: step past the
 * freezes covering t to the last of their ends, then, when change windows apply, to the next
 * change-window start; repeat until neither moves t. Each step lands on a later interval boundary,
 * so it ends.
 */
function openingFrom(q: Question, t: number): number | null {
  for (;;) {
    if (t >= q.set.to) return null;
    const f = covering(q, t);
    if (f) {
      t = endOf(f);
      continue;
    }
    if (q.changes === 0) return t;
    const c = changeWindowsAt(q, t);
    if (c.inside) return t;
    if (!c.next) return null;
    t = startOf(c.next);
  }
}

function checkInHorizon(set: WindowSet, t: number, what: string): void {
  if (!(t >= set.from && t < set.to)) throw new RangeError(`${what} ${Number.isFinite(t) ? isoUtc(t) : String(t)} is outside the compiled horizon ${isoUtc(set.from)} … ${isoUtc(set.to)}`);
}

/**
 * May a change with these facts run at `at`? A freeze in scope covering `at` says no (the one
 * ending last is named); else, when change windows are in scope, one of them must cover `at`.
 * A freeze beats a change window. `at` outside the horizon is a programming error: it throws.
 */
export function matchWindows(set: WindowSet, at: number, change: ChangeFacts): WindowMatch {
  checkInHorizon(set, at, 'the instant');
  const q = question(set, change, at);
  const freeze = covering(q, at);
  if (freeze) {
    const opening = openingFrom(q, endOf(freeze));
    const then = opening === endOf(freeze) ? '' : opening === null ? `; ${horizonEnd(set)}` : `; the next opening is at ${isoUtc(opening)}`;
    return { allowed: false, window: ref(freeze), reason: `the freeze “${freeze.w.def.name}” runs until ${when(freeze, endOf(freeze))}${then}`, nextOpening: opening === null ? null : isoUtc(opening) };
  }
  if (q.changes === 0) return { allowed: true, window: null, reason: 'no change or freeze window applies', nextOpening: null };
  const { inside, next } = changeWindowsAt(q, at);
  if (inside) return { allowed: true, window: ref(inside), reason: `inside the change window “${inside.w.def.name}” until ${when(inside, endOf(inside))}`, nextOpening: null };
  const opening = next ? openingFrom(q, startOf(next)) : null;
  let reason = next ? `outside every change window; the next, “${next.w.def.name}”, opens at ${when(next, startOf(next))}` : 'outside every change window';
  if (opening === null) reason += `${next ? ', but a freeze holds it and' : ';'} ${horizonEnd(set)}`;
  else if (next && opening !== startOf(next)) reason += `, but a freeze holds it: the next opening is at ${isoUtc(opening)}`;
  return { allowed: false, window: next ? ref(next) : null, reason, nextOpening: opening === null ? null : isoUtc(opening) };
}

/**
 * What stands in the way of a change planned for [start, end): every in-scope freeze occurrence
 * overlapping it, and — when change windows are in scope — a start outside all of them, or change
 * windows (back to back count as one) that close before the change ends. Sorted by start.
 */
export function windowConflicts(set: WindowSet, start: number, end: number, change: ChangeFacts): WindowConflict[] {
  checkInHorizon(set, start, 'the change start');
  if (!(end > start && end <= set.to)) throw new RangeError(`the change end ${isoUtc(end)} must be after its start and within the compiled horizon (to ${isoUtc(set.to)})`);
  const q = question(set, change, start);
  const found: Array<{ at: number; c: WindowConflict }> = [];
  for (let j = 0; j < q.freezes; j++) {
    const w = set.windows[q.inScope[j]!]!;
    // Intervals are disjoint and sorted, so the ones overlapping precede the first starting at or after `end`.
    for (let i = lastStartAtOrBefore(w.intervals, end, true); i >= 0 && w.intervals[(i << 1) + 1]! > start; i--) {
      const o = { w, i };
      found.push({ at: startOf(o), c: { window: ref(o), conflict: 'freeze_overlaps', reason: `the freeze “${w.def.name}” runs from ${when(o, startOf(o))} until ${when(o, endOf(o))}, during the change` } });
    }
  }
  const at = q.changes > 0 ? changeWindowsAt(q, start) : { inside: null, next: null };
  const next = at.next;
  let inside = at.inside;
  if (inside) {
    // Follow windows that take over exactly where (or before) the last one closes.
    for (let more = changeWindowsAt(q, endOf(inside)).inside; more && endOf(inside) < end; more = changeWindowsAt(q, endOf(inside)).inside) inside = more;
    if (endOf(inside) < end) {
      found.push({ at: startOf(inside), c: { window: ref(inside), conflict: 'outside_change_windows', reason: `the change window “${inside.w.def.name}” ends at ${when(inside, endOf(inside))}, before the change ends at ${isoUtc(end)}` } });
    }
  } else if (q.changes > 0) {
    const reason = `the change starts at ${isoUtc(start)}, outside every change window; ${next ? `the next, “${next.w.def.name}”, opens at ${when(next, startOf(next))}` : horizonEnd(set)}`;
    found.push({ at: next ? startOf(next) : start, c: { window: next ? ref(next) : null, conflict: 'outside_change_windows', reason } });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.c);
}
