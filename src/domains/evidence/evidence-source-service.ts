import type { Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { AppError, forbidden, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { checkName, checkUrl } from '../alerts/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import type { Thresholds } from './evidence-types.js';
import {
  deleteSource, EVIDENCE_ALLOW_PRIVATE, insertSource, listSourceRecords, openAuth, readSourceForUse, readSourceRecord, updateSource,
  type EvidenceSourceKind, type EvidenceSourceRecord, type ReadySource, type SourceAuthKind,
} from './evidence-sources-store.js';
import { readStoredEvidenceSettings, writeEvidenceSettings, type StoredEvidenceSettings } from './evidence-settings-store.js';
import { asLogSource, checkLogSourceConfig, testLogSource } from './log-source-config.js';
import { createPrometheusClient } from './prometheus-client.js';
import { checkRedTemplates, fillTemplate, RED_PRESETS, type RedTemplates, type StoredRedTemplates } from './red-templates.js';
import { checkThresholds, DEFAULT_THRESHOLDS } from './thresholds.js';

/**
 * Settings → Evidence: the organisation's evidence sources (Prometheus, Loki, Elasticsearch /
 * OpenSearch, our own OTLP intake) and its evidence settings (thresholds, RED templates, the AI
 * switch). Members read; owners and admins write; only an owner turns the AI assessment on or off.
 * Every write is audited in its transaction; credentials are sealed and never answered back.
 */

type Person = { org: { id: string }; role: string };

export type SourceAuthInput = { kind: 'none' } | { kind: 'bearer'; token?: string } | { kind: 'basic'; username: string; password?: string };
export type SourceInput = { kind?: EvidenceSourceKind; name?: string; url?: string | null; auth?: SourceAuthInput; config?: unknown; enabled?: boolean };

export type SourceView = EvidenceSourceRecord & { authHint: string | null };
export type SourceTest = { ok: boolean; message: string; version?: string };

export type SettingsView = {
  thresholds: Thresholds; thresholdsAreDefault: boolean; defaultThresholds: Thresholds;
  redTemplates: RedTemplates; redTemplatesStored: StoredRedTemplates | null; presets: typeof RED_PRESETS;
  aiEnabled: boolean; updatedAt: string | null;
};
export type SettingsInput = { thresholds?: unknown; redTemplates?: unknown; aiEnabled?: boolean };

const manage = (p: Person, what: string) => {
  if (p.role !== 'owner' && p.role !== 'admin') throw forbidden(`only owners and admins ${what}`);
};

export class EvidenceSourceService {
  constructor(private readonly deps: { db: Database; clock: Clock; sealer: Sealer; outbound: OutboundClient }) {}

  // ── sources ──

  private view(s: EvidenceSourceRecord & { authSealed?: string | null }): SourceView {
    // Who the credentials are for, never the secret: a basic user name is no secret; a token shows nothing.
    let authHint: string | null = null;
    if (s.authKind === 'basic' && s.authSealed) {
      const { auth } = openAuth(this.deps.sealer, 'basic', s.authSealed);
      authHint = auth.kind === 'basic' ? `user ${auth.user}` : null;
    } else if (s.authKind === 'bearer' && s.hasSecret) authHint = 'a bearer token';
    return { ...s, authHint };
  }

  async list(orgId: string): Promise<SourceView[]> {
    const out: SourceView[] = [];
    for (const s of await listSourceRecords(this.deps.db, orgId)) out.push(this.view((await readSourceRecord(this.deps.db, orgId, s.id))!));
    return out;
  }

  private async one(db: Queryable, orgId: string, id: string, lock = false) {
    const s = await readSourceRecord(db, orgId, id, lock);
    if (!s) throw notFound(`no evidence source ${id}`);
    return s;
  }

  async get(orgId: string, id: string): Promise<SourceView> {
    return this.view(await this.one(this.deps.db, orgId, id));
  }

  private checkUrl(kind: EvidenceSourceKind, raw: string | null | undefined, before: string | null): string | null {
    if (kind === 'otlp') {
      if (raw) throw invalid('url', 'is not used by the OTLP intake: logs are sent to changeledger\'s own POST /v1/logs');
      return null;
    }
    const url = raw === undefined ? before : raw;
    if (!url) throw invalid('url', 'is required');
    checkUrl('url', url, (u) => this.deps.outbound.judgeLiteral(u, EVIDENCE_ALLOW_PRIVATE));
    if (new URL(url).username || new URL(url).password) throw invalid('url', 'must not carry credentials: use auth (bearer or basic), which is kept sealed');
    return url.replace(/\/+$/, '');
  }

  private checkConfig(kind: EvidenceSourceKind, raw: unknown, before: Record<string, unknown> | null): Record<string, unknown> {
    if (kind === 'prometheus') {
      if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length > 0)) {
        throw invalid('config', 'is not used by a Prometheus source: its RED queries are the evidence settings\' templates');
      }
      return {};
    }
    return checkLogSourceConfig(kind, raw === undefined ? before ?? {} : raw) as Record<string, unknown>;
  }

  private sealAuth(kind: EvidenceSourceKind, input: SourceAuthInput | undefined, before: { authKind: SourceAuthKind; authSealed: string | null } | null): { kind: SourceAuthKind; sealed: string | null; changed: boolean } {
    if (input === undefined) return before ? { kind: before.authKind, sealed: before.authSealed, changed: false } : { kind: 'none', sealed: null, changed: false };
    if (kind === 'otlp' && input.kind !== 'none') throw invalid('auth', 'is not used by the OTLP intake: senders use a changeledger token with logs:write');
    if (input.kind === 'none') return { kind: 'none', sealed: null, changed: before?.authKind !== 'none' };
    const old = before ? openAuth(this.deps.sealer, before.authKind, before.authSealed).auth : null;
    if (input.kind === 'bearer') {
      if (input.token) return { kind: 'bearer', sealed: this.deps.sealer.seal(input.token), changed: true };
      if (old?.kind === 'bearer') return { kind: 'bearer', sealed: before!.authSealed, changed: false };
      throw invalid('auth.token', 'is required for bearer auth');
    }
    const user = (input.username ?? '').trim();
    if (!user) throw invalid('auth.username', 'is required for basic auth');
    if (user.includes(':')) throw invalid('auth.username', 'must not contain a colon (HTTP basic auth cannot carry one)');
    const password = input.password || (old?.kind === 'basic' ? old.password : '');
    if (!password) throw invalid('auth.password', 'is required for basic auth');
    const same = old?.kind === 'basic' && old.user === user && old.password === password;
    return { kind: 'basic', sealed: same ? before!.authSealed : this.deps.sealer.seal(`${user}:${password}`), changed: !same };
  }

  async create(ctx: AuditContext, p: Person, input: SourceInput): Promise<SourceView> {
    manage(p, 'add evidence sources');
    const kind = input.kind;
    if (!kind) throw invalid('kind', 'is required');
    const name = checkName(input.name, null);
    const url = this.checkUrl(kind, input.url, null);
    const config = this.checkConfig(kind, input.config, null);
    const auth = this.sealAuth(kind, input.auth, null);
    return this.deps.db.transaction(async (tx) => {
      const id = newId('evs');
      const at = this.deps.clock.now().toISOString();
      await insertSource(tx, { id, orgId: p.org.id, kind, name, url, authKind: auth.kind, authSealed: auth.sealed, config, enabled: input.enabled ?? true, at });
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'evidence_source.created', target: { type: 'evidence_source', id }, data: { kind, name, url, authKind: auth.kind, enabled: input.enabled ?? true },
      });
      return this.view(await this.one(tx, p.org.id, id));
    });
  }

  async update(ctx: AuditContext, p: Person, id: string, input: SourceInput): Promise<SourceView> {
    manage(p, 'change evidence sources');
    return this.deps.db.transaction(async (tx) => {
      const before = await this.one(tx, p.org.id, id, true);
      if (input.kind !== undefined && input.kind !== before.kind) throw invalid('kind', `cannot change: remove this ${before.kind} source and add a ${input.kind} one`);
      const kind = before.kind;
      const next = {
        name: checkName(input.name, before.name), url: this.checkUrl(kind, input.url, before.url),
        config: this.checkConfig(kind, input.config, before.config), enabled: input.enabled ?? before.enabled,
      };
      const auth = this.sealAuth(kind, input.auth, before);
      const changed: string[] = (['name', 'url', 'enabled'] as const).filter((k) => next[k] !== before[k]);
      if (JSON.stringify(next.config) !== JSON.stringify(before.config)) changed.push('config');
      if (auth.changed || auth.kind !== before.authKind) changed.push('auth');
      await updateSource(tx, { id, orgId: p.org.id, kind, ...next, authKind: auth.kind, authSealed: auth.sealed, at: this.deps.clock.now().toISOString() });
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'evidence_source.updated', target: { type: 'evidence_source', id },
        data: { kind, name: next.name, url: next.url, authKind: auth.kind, enabled: next.enabled, changed },
      });
      return this.view(await this.one(tx, p.org.id, id));
    });
  }

  async remove(ctx: AuditContext, p: Person, id: string): Promise<void> {
    manage(p, 'remove evidence sources');
    await this.deps.db.transaction(async (tx) => {
      const before = await this.one(tx, p.org.id, id, true);
      await deleteSource(tx, p.org.id, id);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'evidence_source.deleted', target: { type: 'evidence_source', id }, data: { kind: before.kind, name: before.name, url: before.url },
      });
    });
  }

  /** The Test button: asks the source what it is, in words; audited like the Alertmanager test. */
  async test(ctx: AuditContext, p: Person, id: string): Promise<SourceTest> {
    manage(p, 'test evidence sources');
    const s = await readSourceForUse(this.deps.db, this.deps.sealer, p.org.id, id);
    if (!s) throw notFound(`no evidence source ${id}`);
    let result: SourceTest;
    if (s.authProblem) result = { ok: false, message: `The source was not asked: ${s.authProblem}` };
    else if (s.kind === 'prometheus') result = await this.testPrometheus(s, (await readStoredEvidenceSettings(this.deps.db, p.org.id)).redTemplates);
    else result = await testLogSource({ outbound: this.deps.outbound }, asLogSource(s));
    await this.deps.db.transaction((tx) => appendAtCommit(tx, this.deps.clock, ctx, {
      orgId: p.org.id, action: 'evidence_source.tested', target: { type: 'evidence_source', id },
      data: { kind: s.kind, url: s.url, ok: result.ok, version: result.version ?? null, message: result.message },
    }));
    return result;
  }

  /**
   * GET /api/v1/status/buildinfo, then the organisation's request-rate query over the last five
   * minutes: how many services it answers tells a person whether the templates fit this Prometheus.
   */
  private async testPrometheus(s: ReadySource, templates: RedTemplates): Promise<SourceTest> {
    const client = createPrometheusClient(this.deps.outbound);
    const target = { url: s.url ?? '', auth: s.auth, allowPrivate: s.allowPrivate };
    const info = await client.buildInfo(target);
    if (!info.ok) return { ok: false, message: info.reason };
    const q = await client.query(target, fillTemplate(templates.queries.rate, { range: '5m', offset: null, by: templates.serviceLabel }), this.deps.clock.now());
    const version = info.value.version;
    if (!q.ok) return { ok: false, version, message: `Prometheus ${version} answered, but the request-rate query did not: ${q.reason}` };
    const n = new Set(q.value.map((x) => x.metric[templates.serviceLabel]).filter((v) => v !== undefined)).size;
    const which = templates.name === 'custom' ? 'the organisation\'s' : `the ${templates.name === 'otel' ? 'OpenTelemetry' : 'classic'}`;
    if (n === 0) return { ok: true, version, message: `Prometheus ${version} answered; ${which} request-rate query finds no service (label ${templates.serviceLabel}) in the last 5 minutes: check the RED templates` };
    return { ok: true, version, message: `Prometheus ${version} answered; ${which} request-rate query finds ${n} service${n === 1 ? '' : 's'} by ${templates.serviceLabel} in the last 5 minutes` };
  }

  // ── settings ──

  private settingsView(s: StoredEvidenceSettings): SettingsView {
    return {
      thresholds: s.thresholds, thresholdsAreDefault: s.stored.thresholds === null, defaultThresholds: { ...DEFAULT_THRESHOLDS },
      redTemplates: s.redTemplates, redTemplatesStored: s.stored.redTemplates, presets: RED_PRESETS, aiEnabled: s.aiEnabled, updatedAt: s.updatedAt,
    };
  }

  async settings(orgId: string): Promise<SettingsView> {
    return this.settingsView(await readStoredEvidenceSettings(this.deps.db, orgId));
  }

  /** thresholds: any subset (the rest keeps the defaults), or null for the defaults; redTemplates: {preset}, own queries, or null. */
  async updateSettings(ctx: AuditContext, p: Person, input: SettingsInput): Promise<SettingsView> {
    manage(p, 'change the evidence settings');
    let thresholds: Thresholds | null | undefined;
    if (input.thresholds === null) thresholds = null;
    else if (input.thresholds !== undefined) {
      const c = checkThresholds(input.thresholds);
      if (!c.ok) throw invalid(c.field ? `thresholds.${c.field}` : 'thresholds', c.problem);
      thresholds = c.thresholds;
    }
    let red: StoredRedTemplates | null | undefined;
    if (input.redTemplates !== undefined) {
      const c = checkRedTemplates(input.redTemplates);
      if (!c.ok) throw invalid(c.field ? `redTemplates.${c.field}` : 'redTemplates', c.problem);
      red = c.value;
    }
    return this.deps.db.transaction(async (tx) => {
      const before = await readStoredEvidenceSettings(tx, p.org.id, true);
      if (input.aiEnabled !== undefined && input.aiEnabled !== before.aiEnabled && p.role !== 'owner') {
        throw new AppError(403, 'Only an owner turns the AI assessment of change reports on or off (aiEnabled)', 'aiEnabled');
      }
      const next = {
        thresholds: thresholds === undefined ? before.stored.thresholds : thresholds,
        redTemplates: red === undefined ? before.stored.redTemplates : red,
        aiEnabled: input.aiEnabled ?? before.aiEnabled,
      };
      const changed: string[] = [];
      if (JSON.stringify(next.thresholds) !== JSON.stringify(before.stored.thresholds)) changed.push('thresholds');
      if (JSON.stringify(next.redTemplates) !== JSON.stringify(before.stored.redTemplates)) changed.push('redTemplates');
      if (next.aiEnabled !== before.aiEnabled) changed.push('aiEnabled');
      // A PUT that changes nothing (an empty body, the values already stored) writes and audits nothing.
      if (changed.length === 0) return this.settingsView(before);
      await writeEvidenceSettings(tx, p.org.id, next, this.deps.clock.now().toISOString());
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'settings.evidence_updated', target: { type: 'organization', id: p.org.id },
        data: {
          changed, thresholds: next.thresholds, redTemplates: next.redTemplates, aiEnabled: next.aiEnabled,
          // What the write replaced and wrote, field by field: the settings write's before-state capture.
          before: Object.fromEntries(changed.map((k) => [k, k === 'aiEnabled' ? before.aiEnabled : before.stored[k as 'thresholds' | 'redTemplates']])),
          after: Object.fromEntries(changed.map((k) => [k, next[k as 'thresholds' | 'redTemplates' | 'aiEnabled']])),
        },
      });
      return this.settingsView(await readStoredEvidenceSettings(tx, p.org.id));
    });
  }
}

