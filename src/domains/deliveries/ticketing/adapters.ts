import { asanaAdapter } from './asana.js';
import { jiraAdapter } from './jira.js';
import { serviceNowAdapter } from './servicenow.js';
import type { AdapterContext, StepAnswer, TicketAdapter, TicketKind, TicketStep, TicketTest, Ticketing } from './ticket-types.js';
import { webhookAdapter } from './webhook.js';

export type TicketingOf<K extends TicketKind> = Extract<Ticketing, { kind: K }>;

const ADAPTERS: { [K in TicketKind]: TicketAdapter<TicketingOf<K>> } = {
  jira: jiraAdapter,
  asana: asanaAdapter,
  servicenow: serviceNowAdapter,
  webhook: webhookAdapter,
};

export function adapterFor<K extends TicketKind>(kind: K): TicketAdapter<TicketingOf<K>> {
  return ADAPTERS[kind];
}

/** The adapter of the settings' own kind: TypeScript cannot pair a union's members with a mapped type by itself. */
function adapterOf(settings: Ticketing): TicketAdapter {
  return adapterFor(settings.kind) as TicketAdapter;
}

/** Sends one ticket step to the organisation's destination. Network failures throw (OutboundFailed / OutboundRefused). */
export function sendStep(ctx: AdapterContext, settings: Ticketing, step: TicketStep): Promise<StepAnswer> {
  return adapterOf(settings).send(ctx, settings, step);
}

/** Checks the destination without writing anything; never throws for a network failure. */
export function probe(ctx: AdapterContext, settings: Ticketing): Promise<TicketTest> {
  return adapterOf(settings).probe(ctx, settings);
}
