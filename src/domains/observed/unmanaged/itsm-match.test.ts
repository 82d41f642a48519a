import { describe, expect, it } from 'vitest';
import { firstMatchingTicket, ticketMatches, type WriteToMatch } from './itsm-match.js';
import type { ItsmChangeMatch, Ticket } from './unmanaged-types.js';

/** A ServiceNow ticket that vouches for a write on checkout at 10:42 on 3 December, unless told otherwise. */
function aTicket(over: Partial<Ticket> = {}): Ticket {
  return {
    system: 'servicenow', key: 'CHG0030001', title: 'Rotate certificates', state: 'Implement', approval: 'approved',
    plannedStart: '2026-12-03T10:00:00.000Z', plannedEnd: '2026-12-03T12:00:00.000Z', items: ['checkout'], assignmentGroup: 'Platform',
    link: null, updatedAt: null, ...over,
  };
}
const aWrite = (over: Partial<WriteToMatch> = {}): WriteToMatch => ({ at: '2026-12-03T10:42:00.000Z', services: ['checkout'], resource: null, ...over });

describe('ticketMatches', () => {
  it.each<[string, Partial<Ticket>, Partial<WriteToMatch>, ItsmChangeMatch, boolean, string]>([
    ['an open ticket naming the service, inside its window', {}, {}, {}, true,
      'ticket CHG0030001 is Implement, names checkout, and its window 10:00–12:00 UTC on 2026-12-03 covers 10:42'],
    ['a closed ticket', { system: 'jira', key: 'OPS-12', state: 'Closed', approval: null }, {}, {}, false, 'ticket OPS-12 is Closed, which does not count'],
    ['a Jira ticket that is Done (case-blind)', { key: 'OPS-12', state: 'DONE' }, {}, {}, false, 'ticket OPS-12 is DONE, which does not count'],
    ['a cancelled ticket, either spelling', { state: 'Cancelled' }, {}, {}, false, 'ticket CHG0030001 is Cancelled, which does not count'],
    ['a canceled ticket', { state: 'Canceled' }, {}, {}, false, 'ticket CHG0030001 is Canceled, which does not count'],
    ['a rejected ticket', { state: 'rejected' }, {}, {}, false, 'ticket CHG0030001 is rejected, which does not count'],
    ['a ticket rejected at approval, even in a listed state', { approval: 'Rejected' }, {}, { states: ['implement'] }, false,
      'ticket CHG0030001 was rejected at approval, which never counts'],
    ['a ticket without a state, when any open one counts', { state: null }, {}, {}, true,
      'ticket CHG0030001 has no state, names checkout, and its window 10:00–12:00 UTC on 2026-12-03 covers 10:42'],
    ['a state outside the listed ones', { state: 'Scheduled' }, {}, { states: ['Implement', 'Review'] }, false, 'ticket CHG0030001 is Scheduled, and only Implement or Review count'],
    ['a listed state, case-blind', { state: 'implement' }, {}, { states: ['IMPLEMENT'] }, true,
      'ticket CHG0030001 is implement, names checkout, and its window 10:00–12:00 UTC on 2026-12-03 covers 10:42'],
    ['listed states make even a closed one count', { state: 'Closed' }, {}, { states: ['closed'] }, true,
      'ticket CHG0030001 is Closed, names checkout, and its window 10:00–12:00 UTC on 2026-12-03 covers 10:42'],
    ['no state, when only listed ones count', { state: null }, {}, { states: ['Implement'] }, false, 'ticket CHG0030001 has no state, and only Implement counts'],
    ['a write before the window', {}, { at: '2026-12-03T09:59:00Z' }, {}, false, 'ticket CHG0030001\'s window 10:00–12:00 UTC on 2026-12-03 does not cover 09:59'],
    ['a write a second after the window shows seconds', {}, { at: '2026-12-03T12:00:01Z' }, {}, false,
      'ticket CHG0030001\'s window 10:00:00–12:00:00 UTC on 2026-12-03 does not cover 12:00:01'],
    ['a write at the window\'s very end', {}, { at: '2026-12-03T12:00:00Z' }, {}, true,
      'ticket CHG0030001 is Implement, names checkout, and its window 10:00–12:00 UTC on 2026-12-03 covers 12:00'],
    ['a window over midnight shows its dates', { plannedStart: '2026-12-03T22:00:00Z', plannedEnd: '2026-12-04T02:00:00Z' }, { at: '2026-12-04T01:10:00Z' }, {}, true,
      'ticket CHG0030001 is Implement, names checkout, and its window 2026-12-03 22:00–2026-12-04 02:00 UTC covers 2026-12-04 01:10'],
    ['no planned window while the window is required', { plannedStart: null, plannedEnd: null }, {}, {}, false,
      'ticket CHG0030001 has no planned window, and a ticket must have one that covers the write'],
    ['only a planned start', { plannedEnd: null }, {}, {}, false, 'ticket CHG0030001 has no planned end, and a ticket must have one that covers the write'],
    ['no planned window when the window is not required', { plannedStart: null, plannedEnd: null }, { at: '2027-01-01T00:00:00Z' }, { window: false }, true,
      'ticket CHG0030001 is Implement, and names checkout'],
    ['items of other services', { items: ['payments', 'ledger'] }, { services: ['checkout', 'cart'] }, {}, false, 'ticket CHG0030001 names payments and ledger, not checkout or cart'],
    ['an item matching the service, case-blind and trimmed', { items: ['payments', ' Checkout '] }, {}, {}, true,
      'ticket CHG0030001 is Implement, names Checkout, and its window 10:00–12:00 UTC on 2026-12-03 covers 10:42'],
    ['an item naming the resource', { items: ['deployments/prod/api'] }, { services: [], resource: 'deployments/prod/api' }, {}, true,
      'ticket CHG0030001 is Implement, names deployments/prod/api, and its window 10:00–12:00 UTC on 2026-12-03 covers 10:42'],
    ['a write on no known service or resource', {}, { services: [], resource: null }, {}, false, 'ticket CHG0030001 names checkout, but the write is on no known service or resource'],
    ['a ticket naming nothing', { items: [] }, {}, {}, false, 'ticket CHG0030001 names no configuration item or service'],
    ['a ticket naming nothing when items are not required', { items: [] }, {}, { items: false }, true,
      'ticket CHG0030001 is Implement, and its window 10:00–12:00 UTC on 2026-12-03 covers 10:42'],
    ['neither window nor items required', { items: [], plannedStart: null }, {}, { items: false, window: false }, true, 'ticket CHG0030001 is Implement'],
    ['a listed assignment group, case-blind', {}, {}, { assignmentGroups: ['platform', 'SRE'] }, true,
      'ticket CHG0030001 is Implement, is assigned to Platform, names checkout, and its window 10:00–12:00 UTC on 2026-12-03 covers 10:42'],
    ['another assignment group', { assignmentGroup: 'Database' }, {}, { assignmentGroups: ['Platform', 'SRE'] }, false, 'ticket CHG0030001 is assigned to Database, not Platform or SRE'],
    ['no assignment group when groups are listed', { assignmentGroup: null }, {}, { assignmentGroups: ['Platform'] }, false,
      'ticket CHG0030001 has no assignment group, and only Platform counts'],
    ['empty lists do not narrow', {}, {}, { states: [], assignmentGroups: [' '] }, true,
      'ticket CHG0030001 is Implement, names checkout, and its window 10:00–12:00 UTC on 2026-12-03 covers 10:42'],
    ['a write whose time cannot be read', {}, { at: 'soon' }, {}, false, 'the write\'s time "soon" cannot be read, so no ticket can cover it'],
  ])('%s', (_what, ticket, write, match, ok, reason) => {
    expect(ticketMatches(aTicket(ticket), aWrite(write), match)).toEqual({ ok, reason });
  });

  it('lists at most five items and counts the rest', () => {
    const r = ticketMatches(aTicket({ items: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }), aWrite(), {});
    expect(r.reason).toBe('ticket CHG0030001 names a, b, c, d, e and 2 more, not checkout');
  });
});

describe('firstMatchingTicket', () => {
  const closed = aTicket({ key: 'CHG1', state: 'Closed' });
  const elsewhere = aTicket({ key: 'CHG2', items: ['payments'] });
  const late = aTicket({ key: 'CHG3', plannedStart: '2026-12-03T11:00:00Z' });
  const good = aTicket({ key: 'CHG4' });

  it('returns the first ticket that counts, in the order given, with its reason', () => {
    const r = firstMatchingTicket([closed, good, aTicket({ key: 'CHG5' })], aWrite(), {});
    expect(r).toEqual({ ticket: good, reason: 'ticket CHG4 is Implement, names checkout, and its window 10:00–12:00 UTC on 2026-12-03 covers 10:42' });
  });

  it.each<[string, Ticket[], string]>([
    ['no tickets', [], 'no change ticket to check'],
    ['one ticket: its own reason', [closed], 'ticket CHG1 is Closed, which does not count'],
    ['a few: each one\'s reason', [closed, elsewhere, late],
      'none of 3 tickets counts: ticket CHG1 is Closed, which does not count; ticket CHG2 names payments, not checkout; ticket CHG3\'s window 11:00–12:00 UTC on 2026-12-03 does not cover 10:42'],
    ['many: counted by kind, most first, with the first reason', [closed, elsewhere, late, aTicket({ key: 'CHG6', state: 'Canceled' }), aTicket({ key: 'CHG7', approval: 'rejected' })],
      'none of 5 tickets counts: 2 in a state that does not count, 1 naming none of the write\'s services, 1 without a window covering 10:42 UTC and 1 rejected at approval (first: ticket CHG1 is Closed, which does not count)'],
  ])('when none counts (%s), says why in one line', (_what, tickets, reason) => {
    expect(firstMatchingTicket(tickets, aWrite(), {})).toEqual({ ticket: null, reason });
  });

  it('a write whose time cannot be read is said once, not per ticket', () => {
    expect(firstMatchingTicket([good, good], aWrite({ at: '' }), {})).toEqual({ ticket: null, reason: 'the write\'s time "" cannot be read, so no ticket can cover it' });
  });
});
