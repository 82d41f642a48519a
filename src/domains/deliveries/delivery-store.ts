/** Delivery rows and what the Pipeline card and /status show of them. */
import type { Queryable, Row } from '../../platform/db/database.js';
import type { TicketKind, TicketRef } from './ticketing/ticket-types.js';

export type DeliveryChannel = 'callback' | 'ticket';
export type DeliveryState = 'waiting' | 'pending' | 'retrying' | 'delivered' | 'failed';

export type Delivery = {
  id: string; orgId: string; changeId: string; channel: DeliveryChannel; seq: number; event: string; action: 'create' | 'update' | 'test' | null;
  /** The message exactly as first written (JSON text): every retry sends these bytes. */
  body: string; state: DeliveryState; attempts: number; nextAttemptAt: string | null; lastStatus: number | null;
  lastError: string | null; note: string | null; createdAt: string; updatedAt: string; finishedAt: string | null;
};

export type Attempt = { attempt: number; at: string; httpStatus: number | null; durationMs: number; error: string | null; via: 'server'; address: string | null };

type DeliveryRow = Row & {
  id: string; org_id: string; change_id: string; channel: DeliveryChannel; seq: number; event: string; action: Delivery['action'];
  body: string; state: DeliveryState; attempts: number; next_attempt_at: Date | null; last_status: number | null;
  last_error: string | null; note: string | null; created_at: Date; updated_at: Date; finished_at: Date | null;
};

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

export const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id, orgId: r.org_id, changeId: r.change_id, channel: r.channel, seq: r.seq, event: r.event, action: r.action, body: r.body, state: r.state,
  attempts: r.attempts, nextAttemptAt: iso(r.next_attempt_at), lastStatus: r.last_status, lastError: r.last_error, note: r.note,
  createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!, finishedAt: iso(r.finished_at),
});

export async function findDelivery(db: Queryable, id: string, lock = false): Promise<Delivery | null> {
  const r = await db.query<DeliveryRow>(`SELECT * FROM deliveries WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0] ? toDelivery(r.rows[0]) : null;
}

export async function listDeliveries(db: Queryable, changeId: string): Promise<Delivery[]> {
  const r = await db.query<DeliveryRow>('SELECT * FROM deliveries WHERE change_id = $1 ORDER BY created_at, channel, seq', [changeId]);
  return r.rows.map(toDelivery);
}

export async function listAttempts(db: Queryable, deliveryIds: string[]): Promise<Map<string, Attempt[]>> {
  const out = new Map<string, Attempt[]>();
  if (!deliveryIds.length) return out;
  const r = await db.query<Row & { delivery_id: string; attempt: number; at: Date; http_status: number | null; duration_ms: number; error: string | null; via: 'server'; address: string | null }>(
    'SELECT * FROM delivery_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt', [deliveryIds],
  );
  for (const a of r.rows) {
    const list = out.get(a.delivery_id) ?? [];
    list.push({ attempt: a.attempt, at: iso(a.at)!, httpStatus: a.http_status, durationMs: a.duration_ms, error: a.error, via: a.via, address: a.address });
    out.set(a.delivery_id, list);
  }
  return out;
}

/** The state a person reads: a step waiting behind an earlier one is simply pending. */
export type StepView = {
  deliveryId: string; event: string; action: Delivery['action']; state: 'pending' | 'retrying' | 'delivered' | 'failed';
  attempts: number; httpStatus: number | null; error: string | null; note: string | null; via: 'server'; at: string; nextAttemptAt: string | null;
};

export type DeliveriesView = {
  /** The last callback sent or being sent; null when the change has no callback URL or nothing happened yet. */
  callback: StepView | null;
  ticket: { kind: TicketKind | null; id: string | null; key: string | null; url: string | null; steps: StepView[] } | null;
};

export function stepView(d: Delivery): StepView {
  return {
    deliveryId: d.id, event: d.event, action: d.action, state: d.state === 'waiting' ? 'pending' : d.state, attempts: d.attempts,
    httpStatus: d.lastStatus, error: d.lastError, note: d.note, via: 'server', at: d.finishedAt ?? d.updatedAt,
    nextAttemptAt: d.state === 'retrying' || d.state === 'pending' ? d.nextAttemptAt : null,
  };
}

/** What /status and every callback carry of the deliveries: the last callback, the ticket and its steps. */
export function deliveriesView(all: Delivery[], ticket: TicketRef | null): DeliveriesView {
  const callbacks = all.filter((d) => d.channel === 'callback');
  const steps = all.filter((d) => d.channel === 'ticket');
  const last = callbacks.at(-1) ?? null;
  return {
    callback: last ? stepView(last) : null,
    ticket: ticket || steps.length
      ? { ...(ticket ?? { id: null, key: null, url: null }), kind: ticket?.kind ?? ((JSON.parse(steps[0]!.body) as { kind?: TicketKind }).kind ?? null), steps: steps.map(stepView) }
      : null,
  };
}

export async function readDeliveriesView(db: Queryable, changeId: string, ticket: TicketRef | null): Promise<DeliveriesView> {
  return deliveriesView(await listDeliveries(db, changeId), ticket);
}
