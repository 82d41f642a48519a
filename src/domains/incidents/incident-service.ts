import type { Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Row, Tx } from '../../platform/db/database.js';
import { badRequest, forbidden, invalid, unauthorized } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Job, JobHandler } from '../../platform/jobs/job.js';
import { scheduleJob, scheduleJobs } from '../../platform/jobs/job-queue.js';
import { OutboundRefused, postJson, type OutboundSettings } from '../../platform/net/outbound.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import type { FlagRecord, FlagService } from '../flags/index.js';
import { formatMessage, pagerDutySignatureValid, parseGeneric, parsePagerDuty, type IncidentNotice } from './incident-notice.js';

export const POST_JOB = 'incident.post-flag-changes';
/** How far back an incident looks for flag changes. */
export const LOOKBACK_MS = 3_600_000;
export type IncidentSource = 'pagerduty' | 'generic';
export type IncidentSettings = { channelConfigured: boolean; channelHost: string | null; pagerdutySigning: boolean };
export type Received = {
  incident: { id: string; title: string; services: string[]; startedAt: string; url: string | null } | null;
  flagChanges: FlagRecord[];
  delivery: 'queued' | 'no channel configured' | 'duplicate' | 'ignored';
  note?: string;
};

type SettingsRow = Row & { channel_url_sealed: string | null; channel_host: string | null; pagerduty_secret_sealed: string | null };

export class IncidentService {
  constructor(private readonly deps: { db: Database; clock: Clock; flags: FlagService; sealer: Sealer; outbound: OutboundSettings }) {}

  private async settingsRow(db: Database | Tx, orgId: string): Promise<SettingsRow | null> {
    return (await db.query<SettingsRow>('SELECT * FROM incident_settings WHERE org_id = $1', [orgId])).rows[0] ?? null;
  }

  async settings(orgId: string): Promise<IncidentSettings> {
    const r = await this.settingsRow(this.deps.db, orgId);
    return { channelConfigured: !!r?.channel_url_sealed, channelHost: r?.channel_host ?? null, pagerdutySigning: !!r?.pagerduty_secret_sealed };
  }

  /** Owners and admins set where incidents post (a Slack-compatible incoming webhook) and PagerDuty's signing secret. */
  async updateSettings(ctx: AuditContext, m: { org: { id: string }; role: string }, input: { channelUrl?: string | null; pagerdutySecret?: string | null }): Promise<IncidentSettings> {
    if (m.role === 'member') throw forbidden('only owners and admins change incident settings');
    // Nothing asked, nothing written (and no audit event for a no-op).
    if (input.channelUrl === undefined && input.pagerdutySecret === undefined) return this.settings(m.org.id);
    let host: string | null | undefined;
    if (input.channelUrl) {
      try {
        const u = new URL(input.channelUrl);
        if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error();
        host = u.host;
      } catch {
        throw invalid('channelUrl', 'must be an http(s) URL of an incoming webhook');
      }
    } else if (input.channelUrl === null) host = null;
    await this.deps.db.transaction(async (tx) => {
      const cur = await this.settingsRow(tx, m.org.id);
      const channel = input.channelUrl === undefined ? (cur?.channel_url_sealed ?? null) : input.channelUrl ? this.deps.sealer.seal(input.channelUrl) : null;
      const channelHost = host === undefined ? (cur?.channel_host ?? null) : host;
      const secret = input.pagerdutySecret === undefined ? (cur?.pagerduty_secret_sealed ?? null) : input.pagerdutySecret ? this.deps.sealer.seal(input.pagerdutySecret) : null;
      await tx.query(
        `INSERT INTO incident_settings (org_id, channel_url_sealed, channel_host, pagerduty_secret_sealed, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (org_id) DO UPDATE SET channel_url_sealed = $2, channel_host = $3, pagerduty_secret_sealed = $4, updated_at = $5`,
        [m.org.id, channel, channelHost, secret, this.deps.clock.now().toISOString()],
      );
      // The audit names the host, never the URL: an incoming-webhook URL is itself a credential.
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: m.org.id, action: 'settings.incidents_updated', target: { type: 'settings', id: 'incidents' },
        data: { channelHost, pagerdutySigning: !!secret, changed: Object.keys(input) },
      });
    });
    return this.settings(m.org.id);
  }

  /**
   * An incident opened elsewhere: find the flag changes of the services it touches in the hour
   * before, record the incident, and queue one post of them to the channel. A notice seen before
   * (PagerDuty retries) is answered again without a second post.
   */
  async receive(ctx: AuditContext, orgId: string, source: IncidentSource, raw: string, body: unknown, signature: string | undefined): Promise<Received> {
    const row = await this.settingsRow(this.deps.db, orgId);
    if (source === 'pagerduty' && row?.pagerduty_secret_sealed && !pagerDutySignatureValid(raw, signature, this.deps.sealer.open(row.pagerduty_secret_sealed))) {
      throw unauthorized('X-PagerDuty-Signature does not match the signing secret');
    }
    const parsed = source === 'pagerduty' ? parsePagerDuty(body) : parseGeneric(body);
    if (parsed.kind === 'invalid') throw badRequest(parsed.error, parsed.field);
    if (parsed.kind === 'ignored') return { incident: null, flagChanges: [], delivery: 'ignored', note: parsed.why };
    const n = parsed.notice;
    const flagChanges = await this.deps.flags.recent(orgId, n.services, new Date(n.startedAt.getTime() - LOOKBACK_MS), new Date(n.startedAt.getTime() + 1));
    const id = newId('inc');
    const outcome = await this.deps.db.transaction(async (tx) => {
      const ins = await tx.query(
        `INSERT INTO incidents (id, org_id, source, external_id, title, services, started_at, url, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (org_id, source, external_id) DO NOTHING`,
        [id, orgId, source, n.externalId, n.title, n.services, n.startedAt.toISOString(), n.url, this.deps.clock.now().toISOString()],
      );
      if (ins.rowCount === 0) {
        const existing = await tx.query<{ id: string }>('SELECT id FROM incidents WHERE org_id = $1 AND source = $2 AND external_id = $3', [orgId, source, n.externalId]);
        return { id: existing.rows[0]!.id, delivery: 'duplicate' as const };
      }
      const delivery = row?.channel_url_sealed ? ('queued' as const) : ('no channel configured' as const);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId, action: 'incident.opened', target: { type: 'incident', id },
        data: { source, externalId: n.externalId, title: n.title, services: n.services, startedAt: n.startedAt.toISOString(), url: n.url, flagChanges: flagChanges.length, delivery },
      });
      if (row?.channel_url_sealed) {
        await scheduleJob(tx, this.deps.clock, {
          kind: POST_JOB, runAt: this.deps.clock.now(), orgId, dedupeKey: `${POST_JOB}:${id}`, maxAttempts: 8,
          payload: { incidentId: id, text: formatMessage(n, flagChanges), changes: flagChanges.length },
        });
      }
      return { id, delivery };
    });
    return {
      incident: { id: outcome.id, title: n.title, services: n.services, startedAt: n.startedAt.toISOString(), url: n.url },
      flagChanges, delivery: outcome.delivery,
    };
  }

  /**
   * Queues posts to the organisation's channel inside the caller's transaction, one per record of
   * another domain (`target`); nothing when no channel is set. The dedupe key makes each once.
   * Answers how many were queued.
   */
  async queueChannelPosts(tx: Tx, orgId: string, posts: ReadonlyArray<{ target: { type: string; id: string }; text: string }>): Promise<number> {
    if (!posts.length) return 0;
    const row = await this.settingsRow(tx, orgId);
    if (!row?.channel_url_sealed) return 0;
    const runAt = this.deps.clock.now();
    return scheduleJobs(tx, this.deps.clock, posts.map(({ target, text }) => ({ kind: POST_JOB, runAt, orgId, dedupeKey: `${POST_JOB}:${target.type}:${target.id}`, maxAttempts: 8, payload: { target, text } })));
  }

  /** Posts the message (idempotent enough: one job per incident), then records that it went out. */
  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [POST_JOB]: {
        perform: async (job: Job) => {
          const row = job.orgId ? await this.settingsRow(this.deps.db, job.orgId) : null;
          if (!row?.channel_url_sealed) return { status: 0, skipped: 'the channel was removed' };
          try {
            const res = await postJson(this.deps.outbound.client, this.deps.sealer.open(row.channel_url_sealed), { text: job.payload.text }, this.deps.outbound.allowPrivate);
            if (res.status < 200 || res.status >= 300) throw new Error(`channel answered ${res.status}`);
            return { status: res.status, host: row.channel_host };
          } catch (err) {
            if (err instanceof OutboundRefused) return { status: 0, skipped: err.message };
            throw err;
          }
        },
        commit: async (tx: Tx, job: Job, performed: unknown) => {
          const p = performed as { status: number; skipped?: string; host?: string };
          await appendAtCommit(tx, this.deps.clock, { actor: { kind: 'system', id: null, name: 'changeledger worker' }, source: 'scheduler' }, {
            orgId: job.orgId!, action: p.skipped ? 'incident.post_skipped' : 'incident.posted',
            // A post another domain queued names its own record (a case of unmanaged changes).
            target: job.payload.target ? (job.payload.target as { type: string; id: string }) : { type: 'incident', id: String(job.payload.incidentId) },
            data: p.skipped ? { why: p.skipped } : { status: p.status, channelHost: p.host ?? null, changes: job.payload.changes ?? 0 },
          });
        },
      },
    };
  }
}

export type { IncidentNotice };
