import type { Queryable } from '../../platform/db/database.js';
import type { TicketKind, TicketRef } from './ticket-destination.js';

// What /status and every callback show of a change's deliveries. The shape is changes' (it is part of
// the status body); deliveries fills it in, through the reader compose.ts hands to ChangeService.

/** One callback or ticket step as a person reads it: a step waiting behind an earlier one is simply pending. */
export type StepView = {
  deliveryId: string; event: string; action: 'create' | 'update' | 'test' | null; state: 'pending' | 'retrying' | 'delivered' | 'failed';
  attempts: number; httpStatus: number | null; error: string | null; note: string | null; via: 'server'; at: string; nextAttemptAt: string | null;
};

export type DeliveriesView = {
  /** The last callback sent or being sent; null when the change has no callback URL or nothing happened yet. */
  callback: StepView | null;
  ticket: { kind: TicketKind | null; id: string | null; key: string | null; url: string | null; steps: StepView[] } | null;
};

/** The seam changes owns: reads the deliveries of one change in the caller's transaction. */
export type DeliveriesReader = (db: Queryable, changeId: string, ticket: TicketRef | null) => Promise<DeliveriesView>;
