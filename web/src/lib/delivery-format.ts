import type { DeliveryState, TicketKind } from '../api/types';
import { formatUtc } from './format';

export const deliveryStateLabels: Record<DeliveryState, string> = {
  pending: 'pending',
  retrying: 'retrying',
  delivered: 'delivered',
  failed: 'failed',
};

export const ticketKindLabels: Record<TicketKind, string> = {
  jira: 'Jira',
  asana: 'Asana',
  servicenow: 'ServiceNow',
  webhook: 'Webhook',
};

// The next attempt of a retry is something a person waits for, so it is told on their own
// clock (the UTC instant stays in the title, like every other time on the page).
export function localTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  if (at.toDateString() === now.toDateString()) return time;
  return `${at.toLocaleDateString([], { year: 'numeric', month: '2-digit', day: '2-digit' })} ${time}`;
}

export function localTitle(iso: string): string {
  return `${formatUtc(iso)} — shown in your time zone`;
}

export function attemptsText(n: number): string {
  return n === 0 ? 'no attempt yet' : n === 1 ? '1 attempt' : `${String(n)} attempts`;
}

// How long until the card looks again: soon while something is about to go out, at the next
// retry while one waits, never once everything is settled. Backs off while nothing moves.
export function nextLookMs(states: { state: DeliveryState; nextAttemptAt: string | null }[], quietLooks: number, now: number): number | null {
  const pending = states.some((d) => d.state === 'pending');
  const retries = states.filter((d) => d.state === 'retrying' && d.nextAttemptAt !== null).map((d) => new Date(d.nextAttemptAt!).getTime());
  const soon = pending ? Math.min(2_000 * 2 ** quietLooks, 60_000) : null;
  const retry = retries.length > 0 ? Math.max(Math.min(...retries) - now + 1_500, 1_500) : null;
  const candidates = [soon, retry].filter((x): x is number => x !== null);
  return candidates.length === 0 ? null : Math.min(...candidates);
}
