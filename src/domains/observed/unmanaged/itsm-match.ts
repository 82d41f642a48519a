/**
 * Whether a change ticket from an ITSM tool vouches for a write seen in an audit log. Pure: the
 * answer depends on the ticket, the write and the organisation's settings only, and always comes
 * with the reason a person reads on the write's page.
 */
import type { ItsmChangeMatch, Ticket } from './unmanaged-types.js';

/** What is known of the write being judged. */
export type WriteToMatch = { at: string; services: string[]; resource: string | null };

export type TicketMatch = { ok: true; reason: string } | { ok: false; reason: string };

/** States in which a ticket no longer vouches for anything, unless the settings name their own. */
export const ENDED_STATES: readonly string[] = ['closed', 'cancelled', 'canceled', 'done', 'rejected'];

/** The check a ticket failed, so that a list of misses can be summarised by kind. */
type Miss = 'approval' | 'state' | 'group' | 'window' | 'items' | 'time';
type Checked = { ok: true; reason: string } | { ok: false; reason: string; miss: Miss };

const fold = (s: string): string => s.trim().toLowerCase();

/** "a", "a and b", "a, b and c", with at most `max` shown and the rest counted. */
function listed(xs: readonly string[], max = 5): string {
  const shown = xs.length > max ? [...xs.slice(0, max), `${xs.length - max} more`] : [...xs];
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** Same as `listed`, joined by "or": the things a write could have been matched by. */
function either(xs: readonly string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`;
}

/** "only Implement counts", "only Implement or Review count". */
const only = (xs: readonly string[]): string => `only ${either(xs)} ${xs.length === 1 ? 'counts' : 'count'}`;

/**
 * Times as short as they can be while still telling them apart: hours and minutes, with seconds
 * (or milliseconds) only when the three differ there, and the date once when all fall on one day.
 */
function clock(times: number[]): { day: string | null; at: (t: number) => string } {
  const iso = times.map((t) => new Date(t).toISOString());
  const days = new Set(iso.map((s) => s.slice(0, 10)));
  const len = iso.every((s) => s.slice(19, 23) === '.000') ? (iso.every((s) => s.slice(16, 19) === ':00') ? 16 : 19) : 23;
  const oneDay = days.size === 1;
  return {
    day: oneDay ? iso[0]!.slice(0, 10) : null,
    at: (t) => {
      const s = new Date(t).toISOString();
      return oneDay ? s.slice(11, len) : `${s.slice(0, 10)} ${s.slice(11, len)}`;
    },
  };
}

function stateCheck(t: Ticket, match: ItsmChangeMatch): Checked {
  const name = `ticket ${t.key}`;
  if (t.approval !== null && fold(t.approval) === 'rejected') return { ok: false, miss: 'approval', reason: `${name} was rejected at approval, which never counts` };
  const allowed = (match.states ?? []).filter((s) => s.trim() !== '');
  if (allowed.length) {
    if (t.state === null) return { ok: false, miss: 'state', reason: `${name} has no state, and ${only(allowed)}` };
    if (!allowed.some((s) => fold(s) === fold(t.state!))) return { ok: false, miss: 'state', reason: `${name} is ${t.state}, and ${only(allowed)}` };
    return { ok: true, reason: `is ${t.state}` };
  }
  if (t.state === null) return { ok: true, reason: 'has no state' };
  if (ENDED_STATES.includes(fold(t.state))) return { ok: false, miss: 'state', reason: `${name} is ${t.state}, which does not count` };
  return { ok: true, reason: `is ${t.state}` };
}

function groupCheck(t: Ticket, match: ItsmChangeMatch): Checked | null {
  const groups = (match.assignmentGroups ?? []).filter((g) => g.trim() !== '');
  if (!groups.length) return null;
  const name = `ticket ${t.key}`;
  if (t.assignmentGroup === null) return { ok: false, miss: 'group', reason: `${name} has no assignment group, and ${only(groups)}` };
  if (!groups.some((g) => fold(g) === fold(t.assignmentGroup!))) return { ok: false, miss: 'group', reason: `${name} is assigned to ${t.assignmentGroup}, not ${either(groups)}` };
  return { ok: true, reason: `is assigned to ${t.assignmentGroup}` };
}

function windowCheck(t: Ticket, at: number): Checked {
  const name = `ticket ${t.key}`;
  const start = t.plannedStart === null ? Number.NaN : Date.parse(t.plannedStart);
  const end = t.plannedEnd === null ? Number.NaN : Date.parse(t.plannedEnd);
  if (Number.isNaN(start) || Number.isNaN(end)) {
    const lacks = Number.isNaN(start) && Number.isNaN(end) ? 'no planned window' : Number.isNaN(start) ? 'no planned start' : 'no planned end';
    return { ok: false, miss: 'window', reason: `${name} has ${lacks}, and a ticket must have one that covers the write` };
  }
  const c = clock([start, end, at]);
  const span = `${c.at(start)}–${c.at(end)} UTC${c.day ? ` on ${c.day}` : ''}`;
  if (at < start || at > end) return { ok: false, miss: 'window', reason: `${name}'s window ${span} does not cover ${c.at(at)}` };
  return { ok: true, reason: `its window ${span} covers ${c.at(at)}` };
}

function itemsCheck(t: Ticket, w: WriteToMatch): Checked {
  const name = `ticket ${t.key}`;
  const items = t.items.map((i) => i.trim()).filter((i) => i !== '');
  if (!items.length) return { ok: false, miss: 'items', reason: `${name} names no configuration item or service` };
  const targets = [...w.services, ...(w.resource === null ? [] : [w.resource])].map((s) => s.trim()).filter((s) => s !== '');
  const hit = items.find((i) => targets.some((s) => fold(s) === fold(i)));
  if (hit !== undefined) return { ok: true, reason: `names ${hit}` };
  if (!targets.length) return { ok: false, miss: 'items', reason: `${name} names ${listed(items)}, but the write is on no known service or resource` };
  return { ok: false, miss: 'items', reason: `${name} names ${listed(items)}, not ${either(targets)}` };
}

function check(t: Ticket, w: WriteToMatch, match: ItsmChangeMatch): Checked {
  const at = Date.parse(w.at);
  if (Number.isNaN(at)) return { ok: false, miss: 'time', reason: `the write's time ${JSON.stringify(w.at)} cannot be read, so no ticket can cover it` };
  const parts: string[] = [];
  const checks: Array<() => Checked | null> = [
    () => stateCheck(t, match),
    () => groupCheck(t, match),
    () => (match.items === false ? null : itemsCheck(t, w)),
    () => (match.window === false ? null : windowCheck(t, at)),
  ];
  for (const run of checks) {
    const r = run();
    if (r === null) continue;
    if (!r.ok) return r;
    parts.push(r.reason);
  }
  const body = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')}, and ${parts.at(-1)}`;
  return { ok: true, reason: `ticket ${t.key} ${body}` };
}

/** Whether this ticket vouches for the write, and why (or why not) in plain words. */
export function ticketMatches(ticket: Ticket, write: WriteToMatch, match: ItsmChangeMatch): TicketMatch {
  const r = check(ticket, write, match);
  return r.ok ? { ok: true, reason: r.reason } : { ok: false, reason: r.reason };
}

/** How a kind of miss reads when several tickets missed the same way. */
const MISS_WORDS: Record<Miss, (n: number, at: string) => string> = {
  approval: (n) => `${n} rejected at approval`,
  state: (n) => `${n} in a state that does not count`,
  group: (n) => `${n} of another assignment group`,
  items: (n) => `${n} naming none of the write's services`,
  window: (n, at) => `${n} without a window covering ${at}`,
  time: (n) => `${n} unreadable against the write's time`,
};

/** Up to this many tickets, each one's reason is given; past it, the misses are counted by kind. */
const SPELLED_OUT = 3;

/**
 * The first ticket, in the order given, that vouches for the write, with the reason; or none, with
 * one line saying why none did (each ticket's reason when there are a few, counts by kind past that).
 */
export function firstMatchingTicket(
  tickets: readonly Ticket[],
  write: WriteToMatch,
  match: ItsmChangeMatch,
): { ticket: Ticket; reason: string } | { ticket: null; reason: string } {
  if (!tickets.length) return { ticket: null, reason: 'no change ticket to check' };
  const misses: Array<{ reason: string; miss: Miss }> = [];
  for (const t of tickets) {
    const r = check(t, write, match);
    if (r.ok) return { ticket: t, reason: r.reason };
    if (r.miss === 'time') return { ticket: null, reason: r.reason };
    misses.push(r);
  }
  if (misses.length === 1) return { ticket: null, reason: misses[0]!.reason };
  const head = `none of ${misses.length} tickets counts`;
  if (misses.length <= SPELLED_OUT) return { ticket: null, reason: `${head}: ${misses.map((m) => m.reason).join('; ')}` };
  const counts = new Map<Miss, number>();
  for (const m of misses) counts.set(m.miss, (counts.get(m.miss) ?? 0) + 1);
  const at = clock([Date.parse(write.at)]).at(Date.parse(write.at));
  const kinds = [...counts].sort((a, b) => b[1] - a[1]).map(([miss, n]) => MISS_WORDS[miss](n, `${at} UTC`));
  return { ticket: null, reason: `${head}: ${listed(kinds, kinds.length)} (first: ${misses[0]!.reason})` };
}
