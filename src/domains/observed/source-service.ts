import { randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Queryable, Tx } from '../../platform/db/database.js';
import { AppError, conflict, forbidden, invalid, notFound } from '../../platform/errors.js';
import { newId, randomSecret } from '../../platform/ids.js';
import type { OutboundSettings } from '../../platform/net/outbound.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { applySettings, type ObservedSettings, type ObservedSettingsInput } from './observed-settings.js';
import { LIMITS, PULL_KINDS, PULLS_ALLOW_PRIVATE, SOURCE_KINDS, type IntakeCounts, type SourceKind } from './observed-types.js';
import { commitRead, notScheduledBecause, readWindow, rawRead, scheduleAllPulls, schedulePull, type PullIntake } from './pull-scheduler.js';
import { MANUAL_MINUTES, manualWindow } from './pull-window.js';
import { checkCredential, checkSourceConfig } from './source-config.js';
import { pushTest, type SourceTest } from './source-test.js';
import {
  deleteSource, insertSource, listSources, readObservedSettings, readSource, replaceSecret, secretHash, updateSource, withoutSeals,
  writeObservedSettings, type SealedSource, type SourceRecord,
} from './source-store.js';

/**
 * Settings → Change sources: the organisation's connections (one per sender), their secrets,
 * tests and manual pulls, and the observed-change settings. Members read; owners and admins write.
 * Every write is audited in its transaction; the secret is answered once (at creation and at a
 * rotation), sealed at rest, and found by its SHA-256 only.
 */

type Person = { org: { id: string }; role: string };

/** What a person sends; a PUT leaves out what it keeps (credential null removes it). */
export type SourceInput = { kind?: string; name?: string; config?: unknown; credential?: unknown; pullEnabled?: boolean };

export type SourceView = SourceRecord & {
  /** The URL to paste into the sender: the pipeline listener and the path of this kind. */
  endpoint: string;
  /** Whether the kind has an API a pull reads. */
  pullable: boolean;
  /** Why the scheduled pull leaves this connection alone, or null when it pulls it. */
  notPulledBecause: string | null;
};

export type ManualPullResult = { ok: boolean; message: string; counts: IntakeCounts | null; since: string; until: string };
export type SettingsView = ObservedSettings & { updatedAt: string | null };

/** Shown while the pipeline listener does not listen (or its address is unknown). */
export const PIPELINE_PLACEHOLDER = 'http://changeledger.example:4320';
/** The one window of a Test button's read: a day, a few items, nothing recorded. */
const TEST_WINDOW_MINUTES = 24 * 60;
const TEST_MAX_RAW = 100;
const NAME = /^[^\u0000-\u001f\u007f]{1,100}$/;

/** Where each kind's sender posts, on the pipeline listener. PagerDuty's senders know only its own path: the routing key finds the connection. */
export function endpointPath(kind: SourceKind, id: string): string {
  return kind === 'pagerduty' ? '/v2/change/enqueue' : `/v1/changes/${kind}/${encodeURIComponent(id)}`;
}

/** A new secret: PagerDuty's routing keys are 32 hex characters, and some senders check that shape. */
export function newSourceSecret(kind: SourceKind): string {
  return kind === 'pagerduty' ? randomBytes(16).toString('hex') : randomSecret();
}

const manage = (p: Person, what: string) => {
  if (p.role !== 'owner' && p.role !== 'admin') throw forbidden(`only owners and admins ${what}`);
};

function checkName(raw: string | undefined, before: string | null): string {
  const name = (raw ?? before ?? '').trim();
  if (!name) throw invalid('name', 'is required');
  if (!NAME.test(name)) throw invalid('name', 'must be 1 to 100 characters without control characters (tabs, new lines)');
  return name;
}

function checkKind(raw: string | undefined): SourceKind {
  if (!raw) throw invalid('kind', `is required: one of ${SOURCE_KINDS.join(', ')}`);
  if (!(SOURCE_KINDS as readonly string[]).includes(raw)) throw invalid('kind', `must be one of ${SOURCE_KINDS.join(', ')}`, raw);
  return raw as SourceKind;
}

export class SourceService {
  constructor(private readonly deps: { db: Database; clock: Clock; sealer: Sealer; outbound: OutboundSettings; intake: PullIntake; relink: (tx: Tx, orgId: string, since: Date) => Promise<number> }) {}

  // Judged as the pulls ask (PULLS_ALLOW_PRIVATE): a URL saved here is one a pull can reach.
  private judge = (url: string) => this.deps.outbound.client.judgeLiteral(url, PULLS_ALLOW_PRIVATE);

  private view(s: SealedSource, intervalSeconds: number, pipelineUrl: string | null): SourceView {
    const base = (pipelineUrl ?? PIPELINE_PLACEHOLDER).replace(/\/+$/, '');
    return {
      ...withoutSeals(s), endpoint: `${base}${endpointPath(s.kind, s.id)}`, pullable: PULL_KINDS.includes(s.kind),
      notPulledBecause: notScheduledBecause(s, intervalSeconds),
    };
  }

  private async one(db: Queryable, orgId: string, id: string, lock = false): Promise<SealedSource> {
    const s = await readSource(db, orgId, id, lock);
    if (!s) throw notFound(`no change source ${id}`);
    return s;
  }

  private async viewOf(db: Queryable, orgId: string, id: string, pipelineUrl: string | null): Promise<SourceView> {
    const { pullIntervalSeconds } = await readObservedSettings(db, orgId);
    return this.view(await this.one(db, orgId, id), pullIntervalSeconds, pipelineUrl);
  }

  async list(orgId: string, pipelineUrl: string | null): Promise<SourceView[]> {
    const { pullIntervalSeconds } = await readObservedSettings(this.deps.db, orgId);
    return (await listSources(this.deps.db, orgId)).map((s) => this.view(s, pullIntervalSeconds, pipelineUrl));
  }

  async get(orgId: string, id: string, pipelineUrl: string | null): Promise<SourceView> {
    return this.viewOf(this.deps.db, orgId, id, pipelineUrl);
  }

  async create(ctx: AuditContext, p: Person, input: SourceInput, pipelineUrl: string | null): Promise<{ source: SourceView; secret: string }> {
    manage(p, 'add change sources');
    const kind = checkKind(input.kind);
    const name = checkName(input.name, null);
    const config = checkSourceConfig(kind, input.config, name, this.judge);
    const credential = input.credential === undefined || input.credential === null ? null : checkCredential(kind, input.credential);
    const secret = newSourceSecret(kind);
    const pullEnabled = input.pullEnabled ?? true;
    return this.deps.db.transaction(async (tx) => {
      const id = newId('src');
      await insertSource(tx, {
        id, orgId: p.org.id, kind, name, config, secretSealed: this.deps.sealer.seal(secret), secretHash: secretHash(secret),
        credentialSealed: credential === null ? null : this.deps.sealer.seal(credential), pullEnabled, at: this.deps.clock.now().toISOString(),
      });
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'change_source.created', target: { type: 'change_source', id },
        data: { kind, name, config, hasCredential: credential !== null, pullEnabled },
      });
      await schedulePull(tx, this.deps.clock, id);
      return { source: await this.viewOf(tx, p.org.id, id, pipelineUrl), secret };
    });
  }

  async update(ctx: AuditContext, p: Person, id: string, input: SourceInput, pipelineUrl: string | null): Promise<SourceView> {
    manage(p, 'change change sources');
    return this.deps.db.transaction(async (tx) => {
      const before = await this.one(tx, p.org.id, id, true);
      if (input.kind !== undefined && input.kind !== before.kind) throw invalid('kind', `cannot change (this connection is ${before.kind}): delete it and add a ${input.kind} one`);
      const name = checkName(input.name, before.name);
      const config = input.config === undefined ? before.config : checkSourceConfig(before.kind, input.config, name, this.judge);
      let credentialSealed = before.credentialSealed;
      if (input.credential === null) credentialSealed = null;
      else if (input.credential !== undefined) credentialSealed = this.deps.sealer.seal(checkCredential(before.kind, input.credential));
      const pullEnabled = input.pullEnabled ?? before.pullEnabled;
      const changed: string[] = [];
      if (name !== before.name) changed.push('name');
      if (JSON.stringify(config) !== JSON.stringify(before.config)) changed.push('config');
      if (credentialSealed !== before.credentialSealed) changed.push('credential');
      if (pullEnabled !== before.pullEnabled) changed.push('pullEnabled');
      // A PUT that changes nothing writes and audits nothing.
      if (changed.length === 0) return this.viewOf(tx, p.org.id, id, pipelineUrl);
      await updateSource(tx, { id, orgId: p.org.id, name, config, credentialSealed, pullEnabled, at: this.deps.clock.now().toISOString() });
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'change_source.updated', target: { type: 'change_source', id },
        data: { kind: before.kind, name, config, hasCredential: credentialSealed !== null, pullEnabled, changed },
      });
      await schedulePull(tx, this.deps.clock, id);
      return this.viewOf(tx, p.org.id, id, pipelineUrl);
    });
  }

  /** The connection goes; its observed rows and receipts stay in the ledger, their link cleared. */
  async remove(ctx: AuditContext, p: Person, id: string): Promise<void> {
    manage(p, 'remove change sources');
    await this.deps.db.transaction(async (tx) => {
      const before = await this.one(tx, p.org.id, id, true);
      await deleteSource(tx, p.org.id, id);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'change_source.deleted', target: { type: 'change_source', id }, data: { kind: before.kind, name: before.name, counts: before.counts },
      });
    });
  }

  /** A new secret, answered once; the old one stops working in the same commit. */
  async rotateSecret(ctx: AuditContext, p: Person, id: string, pipelineUrl: string | null): Promise<{ source: SourceView; secret: string }> {
    manage(p, 'rotate the secrets of change sources');
    return this.deps.db.transaction(async (tx) => {
      const before = await this.one(tx, p.org.id, id, true);
      const secret = newSourceSecret(before.kind);
      await replaceSecret(tx, p.org.id, id, this.deps.sealer.seal(secret), secretHash(secret), this.deps.clock.now().toISOString());
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'change_source.secret_rotated', target: { type: 'change_source', id }, data: { kind: before.kind, name: before.name } });
      return { source: await this.viewOf(tx, p.org.id, id, pipelineUrl), secret };
    });
  }

  /**
   * The Test button. A pull kind with a credential reads its API's last day (a few items, nothing
   * recorded) and says what it found or why it failed; a pushed source says whether an event has
   * arrived and gives the curl line that sends one. Audited with the answer.
   */
  async test(ctx: AuditContext, p: Person, id: string, pipelineUrl: string | null): Promise<SourceTest> {
    manage(p, 'test change sources');
    const s = await this.one(this.deps.db, p.org.id, id);
    const endpoint = this.view(s, LIMITS.defaultIntervalSeconds, pipelineUrl).endpoint;
    let result: SourceTest;
    if (PULL_KINDS.includes(s.kind) && s.credentialSealed) {
      const now = this.deps.clock.now();
      const window = { ...manualWindow(now, TEST_WINDOW_MINUTES), maxRaw: TEST_MAX_RAW };
      const read = await readWindow({ clock: this.deps.clock, sealer: this.deps.sealer, outbound: this.deps.outbound.client }, this.deps.db, s, window);
      if ('error' in read) result = { ok: false, message: `The pull failed: ${read.error}`, curl: null };
      else {
        const { events, ignored, noise, rejected } = read.parsed;
        const n = rawRead(read.parsed);
        const denied = events.filter((e) => e.denied).length;
        const what = [`${events.length} change${events.length === 1 ? '' : 's'} to record${denied ? ` (${denied} denied attempt${denied === 1 ? '' : 's'})` : ''}`,
          ignored ? `${ignored} ignored` : null, noise ? `${noise} noise` : null, rejected.length ? `${rejected.length} unreadable` : null].filter(Boolean).join(', ');
        result = { ok: true, message: n === 0 ? 'The API answered: nothing changed in the last 24 hours' : `The API answered: in the last 24 hours (first ${TEST_MAX_RAW} items at most) ${what}. Nothing was recorded by this test.`, curl: null };
      }
    } else result = pushTest(s, endpoint);
    await this.deps.db.transaction((tx) => appendAtCommit(tx, this.deps.clock, ctx, {
      orgId: p.org.id, action: 'change_source.tested', target: { type: 'change_source', id }, data: { kind: s.kind, ok: result.ok, message: result.message },
    }));
    return result;
  }

  /** "Pull the last N minutes": recorded under the 'manual' marker, which the scheduled pull never reads. */
  async pull(ctx: AuditContext, p: Person, id: string, minutes: number): Promise<ManualPullResult> {
    manage(p, 'pull change sources');
    if (!Number.isInteger(minutes) || minutes < MANUAL_MINUTES.min || minutes > MANUAL_MINUTES.max) {
      throw invalid('minutes', `must be a whole number of minutes from ${MANUAL_MINUTES.min} to ${MANUAL_MINUTES.max} (a week)`);
    }
    const s = await this.one(this.deps.db, p.org.id, id);
    if (!PULL_KINDS.includes(s.kind)) throw conflict(`a ${s.kind} connection has no API to pull: its sender pushes to the endpoint`);
    if (!s.credentialSealed) throw new AppError(409, 'this connection has no credential to read the API with: add one first', 'credential');
    const window = manualWindow(this.deps.clock.now(), minutes);
    const read = await readWindow({ clock: this.deps.clock, sealer: this.deps.sealer, outbound: this.deps.outbound.client }, this.deps.db, s, window);
    const span = { since: window.since.toISOString(), until: window.until.toISOString() };
    return this.deps.db.transaction(async (tx) => {
      const locked = await this.one(tx, p.org.id, id, true);
      if ('error' in read) {
        await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'change_source.pulled', target: { type: 'change_source', id }, data: { kind: s.kind, minutes, ...span, ok: false, error: read.error } });
        return { ok: false, message: `The pull failed: ${read.error}`, counts: null, ...span };
      }
      const counts = await commitRead(tx, ctx, this.deps, locked, read, 'manual');
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'change_source.pulled', target: { type: 'change_source', id }, data: { kind: s.kind, minutes, ...span, ok: true, counts } });
      const message = `Read the last ${minutes} minute${minutes === 1 ? '' : 's'}: ${counts.recorded} recorded, ${counts.duplicate} already known, ${counts.receipts} receipts, ${counts.noise} noise, ${counts.ignored} ignored${counts.capped ? `, ${counts.capped} capped` : ''}`;
      return { ok: true, message, counts, ...span };
    });
  }

  // ── the organisation's observed-change settings ──

  async settings(orgId: string): Promise<SettingsView> {
    return readObservedSettings(this.deps.db, orgId);
  }

  /**
   * A PUT of any subset. Nothing changed → nothing written. A map edit re-resolves the last 48 hours
   * of observed rows in the same transaction (audited observed.relinked with the count); an interval
   * edit schedules the pulls it now allows.
   */
  async updateSettings(ctx: AuditContext, p: Person, input: ObservedSettingsInput): Promise<SettingsView & { relinked: number | null }> {
    manage(p, 'change the observed-change settings');
    return this.deps.db.transaction(async (tx) => {
      const { updatedAt, ...before } = await readObservedSettings(tx, p.org.id, true);
      const { next, changed } = applySettings(before, input);
      if (changed.length === 0) return { ...before, updatedAt, relinked: null };
      const now = this.deps.clock.now();
      await writeObservedSettings(tx, p.org.id, next, now.toISOString());
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'observed_settings.updated', target: { type: 'organization', id: p.org.id }, data: {
        changed, ...next,
        // What the write replaced and wrote, field by field: the settings write's before-state capture.
        before: Object.fromEntries(changed.map((k) => [k, (before as Record<string, unknown>)[k] ?? null])),
        after: Object.fromEntries(changed.map((k) => [k, (next as Record<string, unknown>)[k] ?? null])),
      } });
      let relinked: number | null = null;
      if (changed.includes('serviceMap') || changed.includes('resourceMap')) {
        const since = new Date(now.getTime() - LIMITS.relinkHours * 3_600_000);
        relinked = await this.deps.relink(tx, p.org.id, since);
        await appendAtCommit(tx, this.deps.clock, ctx, {
          orgId: p.org.id, action: 'observed.relinked', target: { type: 'organization', id: p.org.id },
          data: { count: relinked, since: since.toISOString(), maps: changed.filter((c) => c === 'serviceMap' || c === 'resourceMap') },
        });
      }
      if (changed.includes('pullIntervalSeconds')) await scheduleAllPulls(tx, this.deps.clock, p.org.id);
      return { ...(await readObservedSettings(tx, p.org.id)), relinked };
    });
  }
}
