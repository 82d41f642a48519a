import type { OutboundClient } from '../../../platform/net/outbound.js';
import type { Ticketing, TicketKind, TicketRef } from '../../changes/ticket-destination.js';

// The destination's own types belong to changes (its settings store them); adapters read them from here.
export { TICKET_KINDS } from '../../changes/ticket-destination.js';
export type { AsanaTicketing, JiraTicketing, ServiceNowTicketing, Ticketing, TicketKind, TicketRef, WebhookTicketing } from '../../changes/ticket-destination.js';

/** The change events a ticket hears of. `aborted` is a completion with a rollback. */
export type TicketEvent =
  | 'change.approved' | 'change.started' | 'change.completed' | 'change.aborted' | 'change.reported' | 'change.cancelled' | 'change.expired'
  /** A rollback asked of the pipeline, then done: a comment (a work note) on the ticket. */
  | 'change.rollback_requested' | 'change.rolled_back';

/** How a ticket ends, when the step ends it. */
export type TicketClose =
  /** impact is the rules' verdict; aiImpact, when an AI assessed the report, its tier beside it. */
  | { reason: 'reported'; outcome: string | null; impact: string | null; aiImpact?: string }
  | { reason: 'cancelled' | 'expired' };

/**
 * One ticket step, frozen when the change event happened; every retry sends the same step.
 * `change` is the GET /api/changes/{id}/status body at that moment.
 */
export type TicketStep = {
  deliveryId: string;
  occurredAt: string;
  action: 'create' | 'update';
  event: TicketEvent;
  change: TicketChange;
  /** `[CHG-1a2b3c4d] title` — the ticket's summary. */
  summary: string;
  /** The ticket's description, one line per entry (create only; empty for updates). */
  description: string[];
  /** The update line (also written as the first work note / comment when a step creates). */
  text: string;
  close: TicketClose | null;
  /** The ticket to update (null for create). */
  ticket: TicketRef | null;
};

/** The parts of the /status body ticket adapters read. */
export type TicketChange = {
  id: string; displayId: string; title: string; status: string;
  criticality: 'critical' | 'important' | 'standard' | null;
  deployment: { startedAt: string | null; finishedAt: string | null; windowStart: string; windowEnd: string; outcome: string | null };
  surveillance: { impact: string | null; reportedAt: string | null };
  links: { change: string };
  [more: string]: unknown;
};

/**
 * What one step's decisive HTTP exchange answered. `status` is the HTTP status the outbox rule
 * judges (2xx delivered; 408 / 429 / 5xx retried; other 4xx and 3xx final). `ticket` is set when
 * a create learnt the ticket's id; `note` records something the user should know although the
 * step went through (ServiceNow: "state not changed …").
 */
export type StepAnswer = { status: number; ticket?: TicketRef; note?: string; error?: string; calls: number };

export type AdapterContext = { client: OutboundClient; allowPrivate: boolean };

export type ProbeStep = { name: string; ok: boolean; status: number | null; detail: string | null };
export type TicketTest = { kind: TicketKind; ok: boolean; message: string; steps: ProbeStep[] };

export type TicketAdapter<T extends Ticketing = Ticketing> = {
  /** Sends one step. Network failures throw the client's OutboundFailed / OutboundRefused. */
  send(ctx: AdapterContext, settings: T, step: TicketStep): Promise<StepAnswer>;
  /** Checks the destination without writing anything (the webhook sends a signed change.ticket.test). */
  probe(ctx: AdapterContext, settings: T): Promise<TicketTest>;
};
