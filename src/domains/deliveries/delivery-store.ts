/** Delivery rows and what the Pipeline card and /status show of them. */
import type { Queryable, Row } from '../../platform/db/database.js';
import type { DeliveriesReader, DeliveriesView, StepView } from '../changes/change-deliveries.js';
import type { TicketKind, TicketRef } from './ticketing/ticket-types.js';

export type { DeliveriesView, StepView };

export type DeliveryChannel = 'callback' | 'ticket';
export type DeliveryState = 'waiting' | 'pending' | 'retrying' | 'delivered' | 'failed';

export type Delivery = {
  id: string; orgId: string; changeId: string; channel: DeliveryChannel; seq: number; event: string; action: 'create' | 'update' | 'test' | null;
  /** The message exactly as first written (JSON text): every retry sends these bytes. */
  body: string;
  /** The Content-Type the body goes with; null is application/json. */
  contentType: string | null; state: DeliveryState; attempts: number; nextAttemptAt: string | null; lastStatus: number | null;
  lastError: string | null; note: string | null; createdAt: string; updatedAt: string; finishedAt: string | null;
};

export type Attempt = { attempt: number; at: string; httpStatus: number | null; durationMs: number; error: string | null; via: 'server'; address: string | null };

type DeliveryRow = Row & {
  id: string; org_id: string; change_id: string; channel: DeliveryChannel; seq: number; event: string; action: Delivery['action'];
  body: string; content_type: string | null; state: DeliveryState; attempts: number; next_attempt_at: Date | null; last_status: number | null;
  last_error: string | null; note: string | null; created_at: Date; updated_at: Date; finished_at: Date | null;
};

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

export const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id, orgId: r.org_id, changeId: r.change_id, channel: r.channel, seq: r.seq, event: r.event, action: r.action, body: r.body, contentType: r.content_type ?? null, state: r.state,
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

/** The reader compose.ts plugs into changes, for /status. */
export const readDeliveriesView: DeliveriesReader = async (db, changeId, ticket) => deliveriesView(await listDeliveries(db, changeId), ticket);

/** The organisation's deliveries in one state, newest first, with the change each belongs to. */
export async function listDeliveriesInState(db: Queryable, orgId: string, state: 'failed' | 'retrying', limit: number): Promise<Array<Delivery & { changeTitle: string }>> {
  const r = await db.query<DeliveryRow & { change_title: string }>(
    `SELECT d.*, c.title AS change_title FROM deliveries d JOIN changes c ON c.id = d.change_id
     WHERE d.org_id = $1 AND d.state = $2 AND d.action IS DISTINCT FROM 'test'
     ORDER BY d.updated_at DESC, d.id DESC LIMIT $3`,
    [orgId, state, limit],
  );
  return r.rows.map((x) => ({ ...toDelivery(x), changeTitle: x.change_title }));
}

/** The organisation's slug, which names it in the source of its CloudEvents. */
export async function orgSlug(db: Queryable, orgId: string): Promise<string> {
  const r = await db.query<Row & { slug: string }>('SELECT slug FROM organizations WHERE id = $1', [orgId]);
  return r.rows[0]?.slug ?? orgId;
}
