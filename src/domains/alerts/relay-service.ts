import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import { openOrNull, type Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Queryable, Tx } from '../../platform/db/database.js';
import type { HoldMode } from '../changes/index.js';
import { retryDelayMs, type Job, type JobHandler } from '../../platform/jobs/job.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import { scheduleMail } from '../../platform/mail/mail-outbox.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { readSettings } from '../changes/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import type { AlertRecord } from './alert-types.js';
import { listDestinations, readDestinationSecret, type DestinationRecord, type LastDelivery } from './alert-settings-store.js';
import type { DestinationSecret } from './destinations/destination-input.js';
import { emailMessage } from './destinations/email.js';
import { pagerDutyEvents } from './destinations/pagerduty.js';
import { chunks, sampleAlert, type RelayContext, type RelayOccasion } from './destinations/relay-message.js';
import { sendPrepared, type PreparedMessage, type SendResult } from './destinations/send.js';
import { slackBody } from './destinations/slack.js';
import { webhookBody } from './destinations/webhook.js';

/** One alert of an intake batch: held by a change (then never relayed), and whether its state changed. */
export type RelayBatchItem = { alert: AlertRecord; heldBy: string | null; changed: boolean };
/** The change whose hold ended, as the release notice names it. */
export type HeldChange = { id: string; displayId: string; title: string; link: string };

/** The seam intake's AlertService and holds' release call inside their transactions. */
export type AlertRelay = {
  afterIntake(tx: Tx, orgId: string, batch: RelayBatchItem[], holdMode: HoldMode): Promise<void>;
  resend(tx: Tx, orgId: string, change: HeldChange, alerts: AlertRecord[]): Promise<void>;
};

export const RELAY_JOB = 'alert.relay';
/** With the job table's backoff (5 s doubling) about ten minutes of attempts, then the destination shows it gave up. */
export const RELAY_MAX_ATTEMPTS = 8;

type RelayPayload = { messageId: string; destinationId: string; event: string; attempt: number; message: PreparedMessage };
type Performed = { skip: string } | { result: SendResult; at: string };

const EVENTS: Record<RelayOccasion['kind'], string> = { relay: 'alerts.relay', 'held-release': 'alerts.held_release', test: 'alerts.test' };
const SYSTEM: AuditContext = { actor: { kind: 'system', id: null, name: 'changeledger alert relay' }, source: 'scheduler' };

/** The message id: the same occasion for the same destination is the same message, queued once. */
const messageIdOf = (parts: unknown[]) => `arl_${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)}`;

/**
 * Relay mode: forwards the alerts changeledger receives to the organisation's destinations and
 * skips the held ones; at a release it re-sends the still-failing held alerts with the change's
 * prefix (in both modes). Messages are written as jobs (e-mail: mail outbox rows) in the caller's
 * transaction and sent by the worker; a failure is retried with backoff as a new job, and the
 * last result is kept on the destination.
 */
export class RelayService implements AlertRelay {
  constructor(private readonly deps: {
    db: Database; clock: Clock; sealer: Sealer; client: OutboundClient; logger?: Logger;
    /** The UI's address: the webhook's externalURL, PagerDuty's client_url. */
    externalUrl: () => string;
    /** For the e-mail Test button, which sends at once rather than through the outbox. */
    mailer?: Mailer;
  }) {}

  async afterIntake(tx: Tx, orgId: string, batch: RelayBatchItem[], holdMode: HoldMode): Promise<void> {
    // Silence mode: Alertmanager keeps its own routing; only release notices are ours to send.
    if (holdMode !== 'relay') return;
    const alerts = batch.filter((i) => i.heldBy === null).map((i) => i.alert);
    if (alerts.length === 0) return;
    const destinations = await listDestinations(tx, orgId, { enabled: true });
    if (destinations.length === 0) return;
    // Each alert as received now: a repeat Alertmanager sends later is a new message, as its own repeat is.
    const key = alerts.map((a) => [a.fingerprint, a.state, a.startsAt, a.endsAt, a.lastSeen]);
    for (const d of destinations) {
      for (const [i, part] of chunks(alerts).entries()) await this.queue(tx, orgId, d, part, { kind: 'relay' }, messageIdOf(['relay', orgId, d.id, i, key]));
    }
  }

  async resend(tx: Tx, orgId: string, change: HeldChange, alerts: AlertRecord[]): Promise<void> {
    if (alerts.length === 0) return;
    const destinations = await listDestinations(tx, orgId, { enabled: true });
    for (const d of destinations) {
      // One release per change: a second call for the same change queues nothing new.
      for (const [i, part] of chunks(alerts).entries()) {
        await this.queue(tx, orgId, d, part, { kind: 'held-release', change }, messageIdOf(['held-release', orgId, change.id, d.id, i]));
      }
    }
  }

  private context(d: DestinationRecord, occasion: RelayOccasion, messageId: string): RelayContext {
    return { occasion, destinationName: d.name, messageId, externalUrl: this.deps.externalUrl() };
  }

  private async queue(tx: Tx, orgId: string, d: DestinationRecord, alerts: AlertRecord[], occasion: RelayOccasion, messageId: string): Promise<void> {
    const ctx = this.context(d, occasion, messageId);
    if (d.kind === 'email') {
      const m = emailMessage(alerts, ctx);
      for (const to of d.config.to ?? []) await scheduleMail(tx, this.deps.clock, { ...m, to, orgId, dedupeKey: `${RELAY_JOB}:${d.id}:${messageId}:${to}` });
      return;
    }
    const payload: RelayPayload = { messageId, destinationId: d.id, event: EVENTS[occasion.kind], attempt: 1, message: prepare(d, alerts, ctx) };
    await scheduleJob(tx, this.deps.clock, { kind: RELAY_JOB, orgId, runAt: this.deps.clock.now(), payload, dedupeKey: `${RELAY_JOB}:${messageId}:1`, maxAttempts: 3 });
  }

  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [RELAY_JOB]: {
        maxAttempts: 3,
        perform: async (job: Job) => this.perform(job.orgId!, job.payload as RelayPayload),
        commit: async (tx: Tx, job: Job, r: unknown) => this.record(tx, job.orgId!, job.payload as RelayPayload, r as Performed),
      },
    };
  }

  private async perform(orgId: string, p: RelayPayload): Promise<Performed> {
    const d = await readDestinationSecret(this.deps.db, orgId, p.destinationId);
    if (!d) return { skip: 'the destination was deleted' };
    if (!d.enabled) return { skip: 'the destination is disabled' };
    const at = this.deps.clock.now();
    const secret = this.openSecret(d.secretSealed);
    if (d.secretSealed && !secret) {
      return { at: at.toISOString(), result: { ok: false, status: null, error: 'the destination’s secret cannot be opened with this server’s data key: enter it again', retryable: false } };
    }
    const allowPrivate = (await readSettings(this.deps.db, orgId)).allowPrivateCallbacks;
    const result = await sendPrepared({ client: this.deps.client, kind: d.kind, config: d.config, secret, message: p.message, messageId: p.messageId, event: p.event, at, allowPrivate });
    return { at: at.toISOString(), result };
  }

  private openSecret(sealed: string | null): DestinationSecret | null {
    const plain = openOrNull(this.deps.sealer, sealed);
    if (plain === null) return null;
    try {
      return JSON.parse(plain) as DestinationSecret;
    } catch {
      return null;
    }
  }

  /** Keeps the result on the destination; a retryable failure becomes the next attempt's job; giving up is audited. */
  private async record(tx: Tx, orgId: string, p: RelayPayload, r: Performed): Promise<void> {
    if ('skip' in r) return;
    const now = this.deps.clock.now();
    const { result } = r;
    const retry = !result.ok && result.retryable && p.attempt < RELAY_MAX_ATTEMPTS;
    const next = retry ? new Date(now.getTime() + retryDelayMs(p.attempt, p.messageId)) : null;
    let error = result.error;
    if (!result.ok && result.retryable && !retry) error = `${error}; gave up after ${p.attempt} attempts`;
    await this.setLastDelivery(tx, orgId, p.destinationId, { at: r.at, ok: result.ok, status: result.status, error, attempts: p.attempt, nextAttemptAt: next?.toISOString() ?? null });
    if (next) {
      await scheduleJob(tx, this.deps.clock, { kind: RELAY_JOB, orgId, runAt: next, payload: { ...p, attempt: p.attempt + 1 }, dedupeKey: `${RELAY_JOB}:${p.messageId}:${p.attempt + 1}`, maxAttempts: 3 });
      return;
    }
    if (!result.ok) {
      await appendAtCommit(tx, this.deps.clock, SYSTEM, {
        orgId, action: 'alert_destination.relay_failed', target: { type: 'alert_destination', id: p.destinationId },
        data: { messageId: p.messageId, event: p.event, attempts: p.attempt, httpStatus: result.status, error },
      });
    }
  }

  private async setLastDelivery(tx: Queryable, orgId: string, id: string, last: LastDelivery): Promise<void> {
    await tx.query(`UPDATE alert_destinations SET config = jsonb_set(config, '{lastDelivery}', $3::jsonb) WHERE org_id = $1 AND id = $2`, [orgId, id, JSON.stringify(last)]);
  }

  /**
   * The Test button: a sample alert sent now, outside the outbox, and its result in words. It is
   * kept as the destination's last delivery and audited. PagerDuty gets a trigger and its resolve.
   */
  async test(ctx: AuditContext, orgId: string, destinationId: string): Promise<{ ok: boolean; status: number | null; message: string } | null> {
    const d = await readDestinationSecret(this.deps.db, orgId, destinationId);
    if (!d) return null;
    const at = this.deps.clock.now();
    const messageId = messageIdOf(['test', d.id, at.toISOString()]);
    const sample = sampleAlert(orgId, at.toISOString());
    const rctx = this.context(d, { kind: 'test' }, messageId);
    let result: SendResult;
    let message: string;
    if (d.kind === 'email') {
      ({ result, message } = await this.testMail(d, sample, rctx));
    } else {
      const secret = this.openSecret(d.secretSealed);
      if (!secret) {
        result = { ok: false, status: null, error: 'the destination’s secret cannot be opened with this server’s data key: enter it again', retryable: false };
      } else {
        let prepared = prepare(d, [sample], rctx);
        if ('events' in prepared) prepared = { events: [...prepared.events, { event_action: 'resolve', dedup_key: sample.fingerprint }] };
        const allowPrivate = (await readSettings(this.deps.db, orgId)).allowPrivateCallbacks;
        result = await sendPrepared({ client: this.deps.client, kind: d.kind, config: d.config, secret, message: prepared, messageId, event: EVENTS.test, at, allowPrivate });
      }
      const where = d.kind === 'pagerduty' ? hostOf(d.config.eventsUrl) : d.config.host ?? 'the destination';
      message = result.ok ? `Delivered: ${where} answered ${result.status}` : `Not delivered: ${result.error}`;
    }
    await this.deps.db.transaction(async (tx) => {
      await this.setLastDelivery(tx, orgId, d.id, { at: at.toISOString(), ok: result.ok, status: result.status, error: result.ok ? null : result.error, attempts: 1, nextAttemptAt: null });
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId, action: 'alert_destination.tested', target: { type: 'alert_destination', id: d.id },
        data: { kind: d.kind, name: d.name, ok: result.ok, httpStatus: result.status, error: result.ok ? null : result.error },
      });
    });
    return { ok: result.ok, status: result.status, message };
  }

  private async testMail(d: DestinationRecord, sample: AlertRecord, rctx: RelayContext): Promise<{ result: SendResult; message: string }> {
    const m = emailMessage([sample], rctx);
    const to = d.config.to ?? [];
    if (!this.deps.mailer?.configured) {
      return { result: { ok: false, status: null, error: 'no SMTP server is configured (CHANGELEDGER_SMTP_URL): e-mail is skipped', retryable: false }, message: 'Not sent: no SMTP server is configured (CHANGELEDGER_SMTP_URL)' };
    }
    const problems: string[] = [];
    for (const addr of to) {
      try {
        const r = await this.deps.mailer.send({ ...m, to: addr, id: `${rctx.messageId}.${addr}` });
        if (r.outcome !== 'sent') problems.push(`${addr}: ${r.outcome === 'skipped' ? `skipped (${r.reason.replace(/_/g, ' ')})` : `refused (${r.reason})`}`);
      } catch (err) {
        problems.push(`${addr}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const ok = problems.length === 0;
    const error = ok ? null : problems.join('; ');
    return { result: { ok, status: null, error, retryable: false }, message: ok ? `Sent to ${to.join(', ')}` : `Not sent to ${error}` };
  }
}

function hostOf(url: string | undefined): string {
  try {
    return url ? new URL(url).host : 'PagerDuty';
  } catch {
    return 'PagerDuty';
  }
}

/** The message as it will be sent, fixed now: every retry sends the same bytes under the same id. */
function prepare(d: DestinationRecord, alerts: AlertRecord[], ctx: RelayContext): PreparedMessage {
  if (d.kind === 'pagerduty') return { events: pagerDutyEvents(alerts, ctx) };
  if (d.kind === 'slack') return { body: slackBody(alerts, ctx) };
  return { body: webhookBody(alerts, ctx) };
}
