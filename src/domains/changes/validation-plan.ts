/**
 * The validation plan of a change: the checks that say, after it completed, whether the problem it
 * was meant to fix or avoid is gone. Its shape and checking, one row per item read, and the result
 * rule. Pure.
 *
 * The result rests on the listed items only: a row for anything else is ignored, and an item that
 * could not be read is never taken as passing — so a plan is cleared only when every item it names
 * was read and passed.
 */

export const MAX_VALIDATION_ITEMS = 10;
/** No item is checked sooner than this after completion: metrics and probes need time to show the change. */
export const VALIDATION_DELAY_SECONDS = 30;
export const COMPARATORS = ['<', '<=', '>', '>=', '==', '!='] as const;
export type Comparator = (typeof COMPARATORS)[number];

const MAX_ID_CHARS = 64;
const MAX_TARGET_CHARS = 200;
const MAX_QUERY_CHARS = 2000;
const MAX_VALUE_CHARS = 200;
const MAX_GROUP_CHARS = 64;

export type ValidationItem = {
  id: string;
  /** The service or thing checked. */
  target: string;
  check: 'promql' | 'http';
  query?: string;
  url?: string;
  /** For http the value is the expected HTTP status and op compares the status. */
  expected: { op: Comparator; value: number | string };
  group?: string;
  direction?: 'up' | 'down' | 'both';
  hops?: 0 | 1 | 2;
};

/** field is a path like "validationPlan.3.url". */
export type PlanProblem = { field: string; message: string };

const ITEM_KEYS = ['id', 'target', 'check', 'query', 'url', 'expected', 'group', 'direction', 'hops'];
const EXPECTED_KEYS = ['op', 'value'];
const DIRECTIONS = ['up', 'down', 'both'] as const;
const ID = /^[A-Za-z0-9_.-]+$/;

type Checked<T> = { ok: true; value: T } | { ok: false; problem: PlanProblem };
const problem = (field: string, message: string): { ok: false; problem: PlanProblem } => ({ ok: false, problem: { field, message } });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function unknownKeys(field: string, v: Record<string, unknown>, known: string[]): { ok: false; problem: PlanProblem } | null {
  const extra = Object.keys(v).filter((k) => !known.includes(k));
  if (extra.length === 0) return null;
  return problem(field, `${field} has ${extra.length === 1 ? 'a key' : 'keys'} the plan does not know: ${extra.join(', ')} (known: ${known.join(', ')})`);
}

/** A text field: a string of 1..max characters that is not only spaces. */
function text(field: string, v: unknown, max: number, what: string): Checked<string> {
  if (typeof v !== 'string') return problem(field, `${field} must be text: ${what}`);
  if (v.trim() === '') return problem(field, `${field} must not be empty: ${what}`);
  if (v.length > max) return problem(field, `${field} is ${v.length} characters long; at most ${max} are allowed`);
  return { ok: true, value: v };
}

function checkExpected(field: string, v: unknown, check: ValidationItem['check']): Checked<ValidationItem['expected']> {
  if (!isRecord(v)) return problem(field, `${field} must be an object with op (one of ${COMPARATORS.join(' ')}) and value`);
  const extra = unknownKeys(field, v, EXPECTED_KEYS);
  if (extra) return extra;
  const op = v.op;
  if (typeof op !== 'string' || !(COMPARATORS as readonly string[]).includes(op)) {
    return problem(`${field}.op`, `${field}.op must be one of ${COMPARATORS.join(' ')}`);
  }
  const value = v.value;
  if (check === 'http') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 100 || value > 599) {
      return problem(`${field}.value`, `${field}.value must be the HTTP status expected, a whole number from 100 to 599`);
    }
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return problem(`${field}.value`, `${field}.value must be a finite number`);
  } else if (typeof value === 'string') {
    if (value.length > MAX_VALUE_CHARS) return problem(`${field}.value`, `${field}.value is ${value.length} characters long; at most ${MAX_VALUE_CHARS} are allowed`);
  } else {
    return problem(`${field}.value`, `${field}.value must be a number or text`);
  }
  return { ok: true, value: { op: op as Comparator, value } };
}

/** The query or URL an item reads, and the one it must not carry. */
function checkRead(field: string, v: Record<string, unknown>, check: ValidationItem['check']): Checked<{ query?: string; url?: string }> {
  if (check === 'promql') {
    if (v.url !== undefined) return problem(`${field}.url`, `${field}.url is for http checks; a promql check reads its query only`);
    const query = text(`${field}.query`, v.query, MAX_QUERY_CHARS, 'the PromQL query the check runs');
    return query.ok ? { ok: true, value: { query: query.value } } : query;
  }
  if (v.query !== undefined) return problem(`${field}.query`, `${field}.query is for promql checks; an http check reads its url only`);
  const url = text(`${field}.url`, v.url, MAX_QUERY_CHARS, 'the http(s) URL the check requests');
  if (!url.ok) return url;
  let protocol: string;
  try {
    protocol = new URL(url.value).protocol;
  } catch {
    return problem(`${field}.url`, `${field}.url is not a URL; give an http(s) URL such as https://example.com/health`);
  }
  if (protocol !== 'http:' && protocol !== 'https:') return problem(`${field}.url`, `${field}.url must be an http or https URL, not ${protocol.slice(0, -1)}`);
  return { ok: true, value: { url: url.value } };
}

function checkItem(field: string, v: unknown, seen: Map<string, number>): Checked<ValidationItem> {
  if (!isRecord(v)) return problem(field, `${field} must be an object with id, target, check and expected`);
  const extra = unknownKeys(field, v, ITEM_KEYS);
  if (extra) return extra;

  const id = text(`${field}.id`, v.id, MAX_ID_CHARS, 'a name for the item');
  if (!id.ok) return id;
  if (!ID.test(id.value)) return problem(`${field}.id`, `${field}.id may hold only letters, digits, "_", "." and "-"`);
  const earlier = seen.get(id.value);
  if (earlier !== undefined) return problem(`${field}.id`, `${field}.id "${id.value}" is already used by validationPlan.${earlier}; ids must be unique in the plan`);

  const target = text(`${field}.target`, v.target, MAX_TARGET_CHARS, 'the service or thing the item checks');
  if (!target.ok) return target;

  const check = v.check;
  if (check !== 'promql' && check !== 'http') return problem(`${field}.check`, `${field}.check must be promql or http`);
  const read = checkRead(field, v, check);
  if (!read.ok) return read;
  const expected = checkExpected(`${field}.expected`, v.expected, check);
  if (!expected.ok) return expected;

  const item: ValidationItem = { id: id.value, target: target.value, check, ...read.value, expected: expected.value };
  if (v.group !== undefined) {
    const group = text(`${field}.group`, v.group, MAX_GROUP_CHARS, 'the name of a group of items');
    if (!group.ok) return group;
    item.group = group.value;
  }
  if (v.direction !== undefined) {
    if (!(DIRECTIONS as readonly unknown[]).includes(v.direction)) return problem(`${field}.direction`, `${field}.direction must be up, down or both`);
    item.direction = v.direction as NonNullable<ValidationItem['direction']>;
  }
  if (v.hops !== undefined) {
    if (v.hops !== 0 && v.hops !== 1 && v.hops !== 2) return problem(`${field}.hops`, `${field}.hops must be 0, 1 or 2`);
    item.hops = v.hops;
  }
  return { ok: true, value: item };
}

/** Take a plan as sent, or name the first field that is wrong. Items come back with only their known keys. */
export function checkPlan(raw: unknown[]): { ok: true; plan: ValidationItem[] } | { ok: false; problem: PlanProblem } {
  // The type says a list, but this is the edge where a client's JSON arrives.
  if (!Array.isArray(raw)) return problem('validationPlan', 'validationPlan must be a list of validation items');
  if (raw.length > MAX_VALIDATION_ITEMS) {
    return problem('validationPlan', `at most ${MAX_VALIDATION_ITEMS} validation items; ${raw.length} were given`);
  }
  const plan: ValidationItem[] = [];
  const seen = new Map<string, number>();
  for (const [i, v] of raw.entries()) {
    const item = checkItem(`validationPlan.${i}`, v, seen);
    if (!item.ok) return item;
    seen.set(item.value.id, i);
    plan.push(item.value);
  }
  return { ok: true, plan };
}

export type RowState = 'pass' | 'fail' | 'not_observed';
export type ValidationRow = { itemId: string; state: RowState; observed: string | null; detail: string };

/**
 * Whether an observed value meets the expectation. Two numbers compare numerically; anything else
 * only by == and != on its text, since "ok" < "warn" means nothing. A number that is not finite
 * (NaN from a failed division) meets nothing: a read that says nothing must not pass by "!=".
 */
export function compare(observed: number | string, expected: ValidationItem['expected']): boolean {
  const { op, value } = expected;
  if (typeof observed === 'number' && !Number.isFinite(observed)) return false;
  if (typeof observed === 'number' && typeof value === 'number') {
    switch (op) {
      case '<': return observed < value;
      case '<=': return observed <= value;
      case '>': return observed > value;
      case '>=': return observed >= value;
      case '==': return observed === value;
      case '!=': return observed !== value;
    }
  }
  if (op === '==') return String(observed) === String(value);
  if (op === '!=') return String(observed) !== String(value);
  return false;
}

const shown = (v: number | string) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** The row for one item from what its read returned. A read that failed is not observed, never pass. */
export function rowFor(item: ValidationItem, read: { ok: true; value: number | string } | { ok: false; why: string }): ValidationRow {
  if (!read.ok) return { itemId: item.id, state: 'not_observed', observed: null, detail: `not observed: ${read.why}` };
  const what = item.check === 'http' ? 'status ' : '';
  const detail = `observed ${what}${shown(read.value)}, expected ${item.expected.op} ${shown(item.expected.value)}`;
  return { itemId: item.id, state: compare(read.value, item.expected) ? 'pass' : 'fail', observed: String(read.value), detail };
}

export type ValidationResult = 'cleared' | 'still_present' | 'uncertain';

/**
 * The result of a plan from its rows: null for an empty plan (nothing to judge). A listed item that
 * failed decides still_present; every listed item passing decides cleared; anything else is
 * uncertain. An item with several rows counts as its worst: fail, then not observed, then pass.
 */
export function validationResult(plan: ValidationItem[], rows: ValidationRow[]): { result: ValidationResult; reason: string } | null {
  if (plan.length === 0) return null;
  const listed = new Set(plan.map((i) => i.id));
  const ignored = rows.filter((r) => !listed.has(r.itemId)).length;
  const states = new Map<string, Set<RowState>>();
  for (const r of rows) {
    if (!listed.has(r.itemId)) continue;
    const s = states.get(r.itemId) ?? new Set<RowState>();
    s.add(r.state);
    states.set(r.itemId, s);
  }
  const failed = plan.filter((i) => states.get(i.id)?.has('fail')).map((i) => i.id);
  const unseen = plan.filter((i) => !failed.includes(i.id) && !isPassOnly(states.get(i.id))).map((i) => i.id);
  const passed = plan.length - failed.length - unseen.length;
  const tail = ignored === 0 ? '' : `; ${plural(ignored, 'row', 'rows')} for items not in the plan ${ignored === 1 ? 'was' : 'were'} ignored`;

  if (failed.length > 0) {
    return { result: 'still_present', reason: `still present: ${plural(failed.length, 'item', 'items')} failed (${failed.join(', ')})${tail}` };
  }
  if (unseen.length === 0) {
    const all = plan.length === 1 ? 'the one item of the plan' : `all ${plan.length} items of the plan`;
    return { result: 'cleared', reason: `cleared: ${all} passed${tail}` };
  }
  return {
    result: 'uncertain',
    reason: `uncertain: ${plural(unseen.length, 'item was', 'items were')} not observed (${unseen.join(', ')}); ${passed} of ${plan.length} passed${tail}`,
  };
}

function isPassOnly(s: Set<RowState> | undefined): boolean {
  return s !== undefined && s.size === 1 && s.has('pass');
}
