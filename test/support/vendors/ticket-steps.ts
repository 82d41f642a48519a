import type { TicketChange, TicketClose, TicketEvent, TicketRef, TicketStep } from '../../../src/domains/deliveries/ticketing/ticket-types.js';

/** The /status body a ticket step carries, as a change in its window would have it. */
export function aTicketChange(over: Partial<TicketChange> = {}): TicketChange {
  return {
    id: 'chg_01927c3a5b6d7e8f9a0b1c2d3e4f5a6b',
    displayId: 'CHG-1a2b3c4d',
    title: 'Roll out checkout v2',
    status: 'approved',
    criticality: 'important',
    deployment: { startedAt: null, finishedAt: null, windowStart: '2026-10-06T09:00:00.000Z', windowEnd: '2026-10-06T11:30:00.000Z', outcome: null },
    surveillance: { impact: null, reportedAt: null },
    links: { change: 'https://changeledger.example.com/changes/chg_01927c3a5b6d7e8f9a0b1c2d3e4f5a6b' },
    ...over,
  };
}

const TEXT: Record<TicketEvent, string> = {
  'change.approved': 'Approved by 2 of 2 approvers.',
  'change.started': 'Started by the deploy pipeline.',
  'change.completed': 'Completed: outcome success.',
  'change.aborted': 'Aborted: rolled back.',
  'change.reported': 'Surveillance report: impact none, outcome success.',
  'change.cancelled': 'Cancelled before it started.',
  'change.expired': 'Approval window expired before it started.',
  'change.rollback_requested': 'Rollback released: the pipeline is asked to roll back.',
  'change.rolled_back': 'Rolled back.',
};

/**
 * A ticket step: a create at approval by default; pass `action: 'update'` with an event, a
 * ticket and (for the ending events) a close.
 */
export function aTicketStep(over: Partial<TicketStep> & { event?: TicketEvent; close?: TicketClose | null; ticket?: TicketRef | null } = {}): TicketStep {
  const action = over.action ?? 'create';
  const event = over.event ?? (action === 'create' ? 'change.approved' : 'change.started');
  const change = over.change ?? aTicketChange();
  return {
    deliveryId: 'dlv_01927c3a5b6d7e8f9a0b1c2d3e4f5a70',
    occurredAt: '2026-10-06T08:55:12.345Z',
    action,
    event,
    change,
    summary: `[${change.displayId}] ${change.title}`,
    description: action === 'create' ? ['Components: checkout, payments', 'Window: 2026-10-06 09:00–11:30 UTC', `Change: ${change.links.change}`] : [],
    text: TEXT[event],
    close: null,
    ticket: null,
    ...over,
  };
}
