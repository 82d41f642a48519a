import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import { openOrNull, type Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Queryable, Row, Tx } from '../../platform/db/database.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Job, JobHandler } from '../../platform/jobs/job.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import { OutboundFailed, OutboundRefused, type OutboundClient } from '../../platform/net/outbound.js';
import type { Principal } from '../auth/index.js';
import { displayId, type Change } from '../changes/change-store.js';
import { readSettings, readTicketing } from '../changes/change-settings.js';
import type { ChangeEvent, ChangeNotifier } from '../changes/change-service.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { decide, type AttemptOutcome, type Decision } from './delivery-rule.js';
import { findDelivery, listAttempts, listDeliveries, listDeliveriesInState, orgSlug, stepView, type Attempt, type Delivery, type StepView } from './delivery-store.js';
import { cloudEventSource, structuredCallback, type CallbackPayload } from './cloud-event.js';
import { signedHeaders } from '../../platform/crypto/webhook-signing.js';
import { CALLBACK_USER_AGENT } from './signing.js';
import { probe, sendStep } from './ticketing/adapters.js';
import type { TicketChange, TicketClose, TicketEvent, TicketKind, TicketRef, TicketStep, TicketTest } from './ticketing/ticket-types.js';
import { destinationHost, joinSecret, parseTicketing, type TicketingInput } from '../changes/ticketing-settings.js';

export const DELIVERY_JOB = 'delivery.send';

/** The change events a pipeline is called back for, by their callback names. */
const CALLBACK_EVENTS: Partial<Record<ChangeEvent, string>> = {
  mapped: 'change.mapped', approved: 'change.approved', rejected: 'change.rejected', expired: 'change.expired',
  started: 'change.started', completed: 'change.completed', reported: 'change.reported',
  rollback_requested: 'change.rollback_requested', rolled_back: 'change.rolled_back', rollback_escalated: 'change.rollback_escalated',
  validated: 'change.validated',
};

/** A ticket step as stored: the step without its delivery id and ticket (read when it is sent). */
type StoredStep = Omit<TicketStep, 'deliveryId' | 'ticket'> & { kind: TicketKind };

type AttemptResult = {
  deliveryId: string; attempt: number; at: string; durationMs: number; outcome: AttemptOutcome;
  httpStatus: number | null; error: string | null; address: string | null; ticket?: TicketRef; note?: string;
};

const SYSTEM: AuditContext = { actor: { kind: 'system', id: null, name: 'changeledger deliveries' }, source: 'scheduler' };

/**
 * One outbox for every delivery a change causes: signed callbacks to the pipeline and the steps of
 * its ticket. A row is written with the change event; the worker sends it, the pure rule in
 * delivery-rule.ts decides, every attempt is recorded, and a retry is a new job at the next time.
 */
export class DeliveryService implements ChangeNotifier {
  constructor(private readonly deps: {
    db: Database; clock: Clock; sealer: Sealer; client: OutboundClient; logger?: Logger;
    /** The GET /api/changes/{id}/status body of a change, read inside the caller's transaction. */
    statusBody: (db: Queryable, c: Change) => Promise<Record<string, unknown>>;
    /** Where people reach this installation: the start of a CloudEvent's source. */
    publicUrl: () => string;
  }) {}

  // ── writing deliveries with the change event ─────────────────────────────────────────────────

  async notify(tx: Tx, change: Change, event: ChangeEvent): Promise<void> {
    const callback = change.callbackUrl ? CALLBACK_EVENTS[event] : undefined;
    const ticket = await this.ticketStepFor(tx, change, event);
    if (!callback && !ticket) return;
    const occurredAt = this.deps.clock.now().toISOString();
    const status = await this.deps.statusBody(tx, change);
    if (callback) await this.queueCallback(tx, change, callback, occurredAt, status, true);
    if (ticket) await this.queueTicketStep(tx, change, { ...ticket, occurredAt, status });
  }

  private async nextSeq(tx: Tx, changeId: string, channel: Delivery['channel']): Promise<number> {
    const r = await tx.query<{ n: number }>('SELECT coalesce(max(seq), 0) + 1 AS n FROM deliveries WHERE change_id = $1 AND channel = $2', [changeId, channel]);
    return Number(r.rows[0]!.n);
  }

  private async insert(tx: Tx, c: Change, d: { id: string; channel: Delivery['channel']; event: string; action: Delivery['action']; body: string; contentType?: string; state: 'waiting' | 'pending' }): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    await tx.query(
      `INSERT INTO deliveries (id, org_id, change_id, channel, seq, event, action, body, state, next_attempt_at, created_at, updated_at, content_type)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12)`,
      [d.id, c.orgId, c.id, d.channel, await this.nextSeq(tx, c.id, d.channel), d.event, d.action, d.body, d.state, d.state === 'pending' ? now : null, now, d.contentType ?? null],
    );
  }

  private async scheduleAttempt(tx: Tx, orgId: string, deliveryId: string, attempt: number, at: Date): Promise<void> {
    await scheduleJob(tx, this.deps.clock, { kind: DELIVERY_JOB, orgId, runAt: at, payload: { deliveryId, attempt }, dedupeKey: `${DELIVERY_JOB}:${deliveryId}:${attempt}`, maxAttempts: 5 });
  }

  private async queueCallback(tx: Tx, c: Change, event: string, occurredAt: string, status: Record<string, unknown>, schedule: boolean): Promise<string> {
    const id = newId('dlv');
    // The body is written once, as text: every retry sends the same bytes under the same id (for a
    // CloudEvent, its id is the delivery id, so a retry carries the same event id too).
    const payload: CallbackPayload = { event, deliveryId: id, occurredAt, change: status };
    const message = c.callbackFormat === 'cloudevents'
      ? structuredCallback(payload, c, cloudEventSource(this.deps.publicUrl(), await orgSlug(tx, c.orgId)))
      : { body: JSON.stringify(payload) };
    await this.insert(tx, c, { id, channel: 'callback', event, action: event === 'change.test' ? 'test' : null, ...message, state: 'pending' });
    if (schedule) await this.scheduleAttempt(tx, c.orgId, id, 1, this.deps.clock.now());
    return id;
  }

  /** Which ticket step an event makes, if the organisation has a destination and the change a ticket to speak of. */
  private async ticketStepFor(tx: Tx, c: Change, event: ChangeEvent): Promise<{ kind: TicketKind; action: 'create' | 'update'; event: TicketEvent; close: TicketClose | null } | null> {
    if (!['approved', 'started', 'completed', 'reported', 'cancelled', 'expired', 'rollback_requested', 'rolled_back'].includes(event)) return null;
    const kind = (await readTicketing(tx, c.orgId)).ticketing?.kind;
    if (!kind) return null;
    const opened = await tx.query('SELECT 1 FROM deliveries WHERE change_id = $1 AND channel = $2 AND action = $3', [c.id, 'ticket', 'create']);
    const hasTicket = opened.rows.length > 0;
    switch (event) {
      case 'approved':
        return hasTicket ? null : { kind, action: 'create', event: 'change.approved', close: null };
      case 'started':
        // A change that never needed approval gets its ticket when it starts.
        return { kind, action: hasTicket ? 'update' : 'create', event: 'change.started', close: null };
      case 'completed':
        return hasTicket ? { kind, action: 'update', event: c.aborted ? 'change.aborted' : 'change.completed', close: null } : null;
      case 'reported':
        return hasTicket ? { kind, action: 'update', event: 'change.reported', close: { reason: 'reported', outcome: c.outcome, impact: c.impact, ...(c.aiImpact ? { aiImpact: c.aiImpact } : {}) } } : null;
      case 'cancelled':
      case 'expired':
        // Only an approved change that never started has a ticket to close this way.
        return hasTicket && !c.startedAt ? { kind, action: 'update', event: `change.${event}`, close: { reason: event } } : null;
      case 'rollback_requested':
      case 'rolled_back':
        return hasTicket ? { kind, action: 'update', event: `change.${event}`, close: null } : null;
      default:
        return null;
    }
  }

  private async queueTicketStep(tx: Tx, c: Change, s: { kind: TicketKind; action: 'create' | 'update'; event: TicketEvent; close: TicketClose | null; occurredAt: string; status: Record<string, unknown> }): Promise<void> {
    const change = s.status as TicketChange;
    const stored: StoredStep = {
      kind: s.kind, occurredAt: s.occurredAt, action: s.action, event: s.event, change, summary: `[${c.displayId}] ${c.title}`.slice(0, 250),
      description: s.action === 'create' ? describe(c, change) : [], text: updateText(c, change, s.event), close: s.close,
    };
    const busy = await tx.query(`SELECT 1 FROM deliveries WHERE change_id = $1 AND channel = 'ticket' AND state IN ('waiting', 'pending', 'retrying')`, [c.id]);
    const id = newId('dlv');
    // Steps of one ticket go in order: an update waits until the step before it is done.
    const state = busy.rows.length ? 'waiting' : 'pending';
    await this.insert(tx, c, { id, channel: 'ticket', event: s.event, action: s.action, body: JSON.stringify(stored), state });
    if (state === 'pending') await this.scheduleAttempt(tx, c.orgId, id, 1, this.deps.clock.now());
  }

  // ── sending ──────────────────────────────────────────────────────────────────────────────────

  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [DELIVERY_JOB]: {
        maxAttempts: 5,
        perform: async (job: Job) => this.attempt(String(job.payload.deliveryId), Number(job.payload.attempt)),
        commit: async (tx: Tx, _job: Job, r: unknown) => this.record(tx, r as AttemptResult | null),
      },
    };
  }

  /** One attempt, outside any transaction. Null when the job is stale (the attempt was made already). */
  private async attempt(deliveryId: string, n: number): Promise<AttemptResult | null> {
    const d = await findDelivery(this.deps.db, deliveryId);
    if (!d || (d.state !== 'pending' && d.state !== 'retrying') || d.attempts !== n - 1) return null;
    const at = this.deps.clock.now();
    const started = performance.now();
    const base = { deliveryId, attempt: n, at: at.toISOString() };
    try {
      const { allowPrivateCallbacks: allowPrivate } = await readSettings(this.deps.db, d.orgId);
      if (d.channel === 'callback') {
        const target = await this.deps.db.query<Row & { callback_url: string | null; callback_secret_sealed: string | null }>(
          'SELECT callback_url, callback_secret_sealed FROM changes WHERE id = $1', [d.changeId],
        );
        const row = target.rows[0];
        if (!row?.callback_url || !row.callback_secret_sealed) return refusal(base, started, 'the change has no callback URL');
        const secret = openOrNull(this.deps.sealer, row.callback_secret_sealed);
        if (secret === null) return refusal(base, started, 'the callback secret cannot be opened with this server’s data key (was the key replaced?)');
        const signed = signedHeaders({ secret, deliveryId, event: d.event, body: d.body, at, userAgent: CALLBACK_USER_AGENT });
        // Signed over the same bytes either way; a CloudEvent only goes with its own Content-Type.
        const headers = d.contentType ? { ...signed, 'content-type': d.contentType } : signed;
        const res = await this.deps.client.request({ method: 'POST', url: row.callback_url, headers, body: d.body, allowPrivate });
        const ok = res.status >= 200 && res.status <= 299;
        const said = res.body.trim().slice(0, 200);
        return { ...base, durationMs: res.durationMs, outcome: { kind: 'answer', status: res.status }, httpStatus: res.status, address: res.address, error: ok ? null : `answered ${res.status}${said ? `: ${said}` : ''}` };
      }
      const step = JSON.parse(d.body) as StoredStep;
      const stored = await readTicketing(this.deps.db, d.orgId);
      if (!stored.ticketing || !stored.sealed) return refusal(base, started, 'no ticket destination is set any more');
      const secret = openOrNull(this.deps.sealer, stored.sealed);
      if (secret === null) return refusal(base, started, 'the ticket destination’s secret cannot be opened with this server’s data key: enter it again in the settings');
      const settings = joinSecret(stored.ticketing, secret);
      if (settings.kind !== step.kind) return refusal(base, started, `the ticket destination changed from ${step.kind} to ${settings.kind}`);
      const ticketRow = await this.deps.db.query<Row & { ticket: TicketRef | null }>('SELECT ticket FROM changes WHERE id = $1', [d.changeId]);
      const ticket = ticketRow.rows[0]?.ticket ?? null;
      if (ticket && ticket.kind !== settings.kind) return refusal(base, started, `the ticket is in ${ticket.kind}, the destination is now ${settings.kind}`);
      const { kind: _kind, ...rest } = step;
      // The address of the step's last call, for the attempt row (a step may make two calls).
      let address: string | null = null;
      const client = this.deps.client;
      const recording: OutboundClient = {
        check: (url, priv) => client.check(url, priv),
        judgeLiteral: (url, priv) => client.judgeLiteral(url, priv),
        request: async (req) => {
          const res = await client.request(req);
          address = res.address;
          return res;
        },
      };
      const answer = await sendStep({ client: recording, allowPrivate }, settings, { ...rest, deliveryId, ticket });
      const durationMs = Math.round(performance.now() - started);
      if (answer.calls === 0) return refusal(base, started, answer.error ?? 'nothing was sent');
      const ok = answer.status >= 200 && answer.status <= 299;
      return {
        ...base, durationMs, outcome: { kind: 'answer', status: answer.status }, httpStatus: answer.status, address,
        error: ok ? null : answer.error ?? `answered ${answer.status}`, ...(answer.ticket ? { ticket: answer.ticket } : {}), ...(answer.note ? { note: answer.note } : {}),
      };
    } catch (err) {
      const durationMs = Math.round(performance.now() - started);
      if (err instanceof OutboundRefused) return refusal(base, started, err.message);
      if (err instanceof OutboundFailed) return { ...base, durationMs: err.durationMs, outcome: { kind: 'no-answer', error: err.message }, httpStatus: null, error: err.message, address: err.address };
      const message = err instanceof Error ? err.message : String(err);
      this.deps.logger?.warn({ deliveryId, err: message }, 'delivery attempt failed before sending');
      return { ...base, durationMs, outcome: { kind: 'no-answer', error: message }, httpStatus: null, error: message, address: null };
    }
  }

  /** Records an attempt and what the rule decided, in the transaction that marks the job done. */
  private async record(tx: Tx, r: AttemptResult | null): Promise<void> {
    if (!r) return;
    const d = await findDelivery(tx, r.deliveryId, true);
    if (!d || d.attempts !== r.attempt - 1) return;
    const decision = decide(r.attempt, r.outcome);
    const now = this.deps.clock.now();
    await tx.query('INSERT INTO delivery_attempts (delivery_id, attempt, at, http_status, duration_ms, error, via, address) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [d.id, r.attempt, r.at, r.httpStatus, r.durationMs, r.error, 'server', r.address]);
    const next = decision.state === 'retrying' ? new Date(now.getTime() + decision.afterMs) : null;
    const error = errorText(r, decision);
    await tx.query(
      `UPDATE deliveries SET attempts = $2, state = $3, next_attempt_at = $4, last_status = $5, last_error = $6, note = $7, updated_at = $8,
         finished_at = CASE WHEN $3 IN ('delivered', 'failed') THEN $8::timestamptz ELSE NULL END WHERE id = $1`,
      [d.id, r.attempt, decision.state, next?.toISOString() ?? null, r.httpStatus, error, r.note ?? null, now.toISOString()],
    );
    if (next) {
      await this.scheduleAttempt(tx, d.orgId, d.id, r.attempt + 1, next);
      return;
    }
    if (d.channel === 'ticket') {
      if (decision.state === 'delivered' && r.ticket && d.action === 'create') await tx.query('UPDATE changes SET ticket = $2 WHERE id = $1', [d.changeId, JSON.stringify(r.ticket)]);
      const after = await tx.query<{ id: string }>(
        `UPDATE deliveries SET state = 'pending', next_attempt_at = $2, updated_at = $2
         WHERE id = (SELECT id FROM deliveries WHERE change_id = $1 AND channel = 'ticket' AND state = 'waiting' ORDER BY seq LIMIT 1) RETURNING id`,
        [d.changeId, now.toISOString()],
      );
      if (after.rows[0]) await this.scheduleAttempt(tx, d.orgId, after.rows[0].id, 1, now);
    }
    await appendAtCommit(tx, this.deps.clock, SYSTEM, {
      orgId: d.orgId, action: `change.${d.channel === 'callback' ? 'callback' : 'ticket_step'}_${decision.state}`, target: { type: 'change', id: d.changeId },
      data: { deliveryId: d.id, event: d.event, attempts: r.attempt, httpStatus: r.httpStatus, error, ...(r.ticket ? { ticket: r.ticket } : {}), ...(r.note ? { note: r.note } : {}) },
    });
  }

  // ── what people and pipelines ask for ─────────────────────────────────────────────────────────

  /** Every delivery of a change with its attempts, for the Pipeline card. */
  /** Deliveries of the organisation in one state (tests left out: they are shown where they were sent). */
  async inState(orgId: string, state: 'failed' | 'retrying', limit: number) {
    const ds = await listDeliveriesInState(this.deps.db, orgId, state, limit);
    return ds.map((d) => ({ ...stepView(d), channel: d.channel, change: { id: d.changeId, displayId: displayId(d.changeId), title: d.changeTitle } }));
  }

  async forChange(changeId: string): Promise<Array<StepView & { channel: Delivery['channel']; attemptLog: Attempt[] }>> {
    const ds = await listDeliveries(this.deps.db, changeId);
    const attempts = await listAttempts(this.deps.db, ds.map((d) => d.id));
    return ds.map((d) => ({ ...stepView(d), channel: d.channel, attemptLog: attempts.get(d.id) ?? [] }));
  }

  /**
   * Sends a signed change.test to the change's callback URL now and answers what happened; a
   * failure is retried like any callback.
   */
  async callbackTest(ctx: AuditContext, p: Principal, c: Change, canWrite: boolean): Promise<StepView & { attemptLog: Attempt[] }> {
    if (!canWrite) throw forbidden('only the change’s owner, an owner or an admin sends a test callback');
    if (!c.callbackUrl) throw badRequest('this change was registered without a callbackUrl: there is nowhere to send a test callback', 'callbackUrl');
    const id = await this.deps.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM changes WHERE id = $1 FOR UPDATE', [c.id]);
      const status = await this.deps.statusBody(tx, c);
      const deliveryId = await this.queueCallback(tx, c, 'change.test', this.deps.clock.now().toISOString(), status, false);
      // Should this process stop before the attempt below, the worker makes it a minute later.
      await this.scheduleAttempt(tx, c.orgId, deliveryId, 1, new Date(this.deps.clock.now().getTime() + 60_000));
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: c.orgId, action: 'change.callback_test', target: { type: 'change', id: c.id }, data: { deliveryId, by: p.user.email, format: c.callbackFormat } });
      return deliveryId;
    });
    const result = await this.attempt(id, 1);
    await this.deps.db.transaction((tx) => this.record(tx, result));
    const d = await findDelivery(this.deps.db, id);
    if (!d) throw notFound(`no delivery ${id}`);
    return { ...stepView(d), attemptLog: (await listAttempts(this.deps.db, [id])).get(id) ?? [] };
  }

  /**
   * Probes the stored destination, or a draft merged over it, without saving anything.
   * Audited org_change.ticketing_test.
   */
  async ticketingTest(ctx: AuditContext, orgId: string, draft: { ticketing?: TicketingInput | null; allowPrivateCallbacks?: boolean }): Promise<TicketTest> {
    const stored = await readTicketing(this.deps.db, orgId);
    const storedSecret = openOrNull(this.deps.sealer, stored.sealed);
    let settings;
    if (draft.ticketing !== undefined) {
      settings = parseTicketing(draft.ticketing, stored.ticketing ? { ticketing: stored.ticketing, secret: storedSecret } : null, { judgeUrl: (url) => this.deps.client.judgeLiteral(url, true) });
    } else if (stored.ticketing) {
      if (storedSecret === null) throw badRequest('the stored destination’s secret cannot be opened with this server’s data key: enter it again', 'ticketing');
      settings = joinSecret(stored.ticketing, storedSecret);
    } else {
      settings = null;
    }
    if (!settings) throw badRequest('no ticket destination is set: save one, or send a draft in `ticketing`', 'ticketing');
    const allowPrivate = draft.allowPrivateCallbacks ?? (await readSettings(this.deps.db, orgId)).allowPrivateCallbacks;
    const result = await probe({ client: this.deps.client, allowPrivate }, settings);
    await this.deps.db.transaction((tx) => appendAtCommit(tx, this.deps.clock, ctx, {
      orgId, action: 'org_change.ticketing_test', target: { type: 'settings', id: 'change-ticketing' },
      data: { kind: result.kind, ok: result.ok, host: destinationHost(settings), draft: draft.ticketing !== undefined, steps: result.steps.map((s) => ({ name: s.name, ok: s.ok, status: s.status })) },
    }));
    return result;
  }

}

/** What the Pipeline card says went wrong: the receiver's words where it gave some, then the rule's. */
function errorText(r: AttemptResult, d: Decision): string | null {
  if (d.state === 'delivered') return null;
  let text = r.error ?? d.why;
  if (r.httpStatus !== null && r.httpStatus >= 300 && r.httpStatus <= 399 && !text.includes('redirect')) text += ' (redirects are not followed)';
  if (d.state === 'failed' && d.gaveUp) text += `; gave up after ${r.attempt} attempts`;
  return text;
}

function refusal(base: { deliveryId: string; attempt: number; at: string }, started: number, error: string): AttemptResult {
  return { ...base, durationMs: Math.round(performance.now() - started), outcome: { kind: 'refused', error }, httpStatus: null, error, address: null };
}

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—');

/** The ticket's description: what a reader of the ticket needs without opening changeledger. */
function describe(c: Change, s: TicketChange): string[] {
  const p = c.pipeline ?? {};
  const pipeline = [p.repo, p.pipeline, p.run && `run ${p.run}`, p.version && `version ${p.version}`, p.commit && `commit ${p.commit.slice(0, 12)}`, p.environment && `to ${p.environment}`].filter(Boolean).join(', ');
  return [
    `${c.title} (${c.displayId}, ${c.kind})`,
    `Change record: ${s.links.change}`,
    `Components: ${c.components.map((x) => x.name || x.key).join(', ') || '—'}`,
    `Window: ${when(c.windowStart)} – ${when(c.windowEnd)}`,
    `Requested by: ${c.owner.name} <${c.owner.email}>`,
    `Criticality: ${c.criticality ?? 'not classified'}`,
    ...(pipeline ? [`Pipeline: ${pipeline}${p.runUrl ? ` — ${p.runUrl}` : ''}`] : []),
    ...(c.description ? ['', c.description] : []),
  ];
}

function updateText(c: Change, s: TicketChange & { approval?: { approvals?: number | null; required?: number | null } }, event: TicketEvent): string {
  switch (event) {
    case 'change.approved':
      return `Approved in changeledger (${s.approval?.approvals ?? 0} of ${s.approval?.required ?? 0} approvals). Window ${when(c.windowStart)} – ${when(c.windowEnd)}.`;
    case 'change.started':
      return `Started ${when(c.startedAt)}${c.gated ? '' : ' (no approval required)'}; the window ends ${when(c.windowEnd)}.`;
    case 'change.completed':
      return `Completed ${when(c.finishedAt)}: outcome ${c.outcome ?? 'unknown'}. Watched until ${when(c.evaluateAt)}.`;
    case 'change.aborted':
      return `Aborted ${when(c.finishedAt)}: outcome ${c.outcome ?? 'unknown'}. Watched until ${when(c.evaluateAt)}.`;
    case 'change.reported':
      // The AI's tier sits beside the rules' impact, never instead of it (the close code follows the rules).
      return `Surveillance report: impact ${c.impact ?? 'unknown'}${c.aiImpact ? `, AI ${c.aiImpact}` : ''}, outcome ${c.outcome ?? 'unknown'}. ${s.links.change}`;
    case 'change.cancelled':
      return `Cancelled before it started: ${c.endReason ?? 'no reason given'}.`;
    case 'change.expired':
      return `Expired before it started: ${c.endReason ?? 'the start deadline passed'}.`;
    case 'change.rollback_requested':
      return `Rollback released ${when(c.rollbackRequestedAt)}: the pipeline is asked to roll the change back. ${s.links.change}`;
    case 'change.rolled_back':
      return `Rolled back ${when(c.rollbackCompletedAt)}. ${s.links.change}`;
  }
}
