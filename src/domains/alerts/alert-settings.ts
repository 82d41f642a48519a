import type { Clock } from '../../platform/clock.js';
import { openOrNull, type Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Queryable, Row } from '../../platform/db/database.js';
import { forbidden, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { AlertmanagerError, createAlertmanagerClient, type AlertmanagerAuth, type AlertmanagerClient } from './alertmanager-client.js';
import {
  readDestinationSecret, readHoldSettings, readMailDelivery, toAlertmanager,
  type AlertmanagerAuthKind, type AlertmanagerRef, type DestinationRecord, type HoldMode, type LastDelivery,
} from './alert-settings-store.js';
import type { DestinationKind, LabelMapping } from './alert-types.js';
import { checkName, checkUrl, parseDestination, secretHint, type DestinationInput, type DestinationSecret } from './destinations/destination-input.js';
import { checkLabelMapping, DEFAULT_LABEL_MAPPING } from './label-mapping.js';
import { receiversSnippet, type ReceiversSnippet } from './receivers-snippet.js';
import type { RelayService } from './relay-service.js';

/**
 * An Alertmanager's credentials, unsealed for a request. Stored sealed: a bearer token as is, basic
 * auth as JSON {username, password}. Null when the sealed value cannot be opened with this data key.
 */
export function openAlertmanagerAuth(sealer: Sealer, row: { authKind: AlertmanagerAuthKind; authSealed: string | null }): AlertmanagerAuth | null {
  if (row.authKind === 'none') return { kind: 'none' };
  const plain = openOrNull(sealer, row.authSealed);
  if (plain === null) return null;
  if (row.authKind === 'bearer') return { kind: 'bearer', token: plain };
  try {
    const b = JSON.parse(plain) as { username?: unknown; password?: unknown };
    return typeof b.username === 'string' && typeof b.password === 'string' ? { kind: 'basic', user: b.username, password: b.password } : null;
  } catch {
    return null;
  }
}

/**
 * Alertmanagers usually live on the organisation's own network: requests to them may reach private
 * addresses (RFC 1918, CGNAT, unique-local). Loopback, link-local and metadata addresses stay refused.
 */
export const ALERTMANAGER_ALLOW_PRIVATE = true;

// ── the settings service ───────────────────────────────────────────────────────────────────────

type Manager = { org: { id: string }; role: string };

export type AlertmanagerAuthInput = { kind: 'none' } | { kind: 'bearer'; token?: string } | { kind: 'basic'; username: string; password?: string };
export type AlertmanagerInput = { name?: string; url?: string; auth?: AlertmanagerAuthInput };

export type AlertmanagerView = AlertmanagerRef & { hasAuth: boolean; authHint: string | null; createdAt: string; updatedAt: string };
export type DestinationView = {
  id: string; kind: DestinationKind; name: string; enabled: boolean;
  /** webhook, slack: the host the (sealed) URL points at. */
  host: string | null;
  /** email: the recipients. */
  to: string[] | null;
  /** pagerduty: where events go. */
  eventsUrl: string | null;
  hasSecret: boolean;
  /** "hooks.slack.com/••••", "routing key ••••a1b2": what lets a person recognise the secret without seeing it. */
  secretHint: string | null;
  lastDelivery: LastDelivery | null;
  createdAt: string; updatedAt: string;
};
export type SettingsView = {
  holdMode: HoldMode; labelMapping: LabelMapping; labelMappingIsDefault: boolean; defaultLabelMapping: LabelMapping; updatedAt: string | null;
};
export type AlertmanagerTest = { ok: boolean; version: string | null; cluster: string | null; problem: string | null };

const manage = (m: Manager, what: string) => {
  if (m.role !== 'owner' && m.role !== 'admin') throw forbidden(`only owners and admins ${what}`);
};

/**
 * Settings → Alert sources: the hold mode and label mapping, the Alertmanagers, the relay
 * destinations. Owners and admins write, members read; every write is audited in its transaction;
 * secrets are sealed and never answered.
 */
export class AlertSettingsService {
  private readonly am: AlertmanagerClient;

  constructor(private readonly deps: {
    db: Database; clock: Clock; sealer: Sealer; client: OutboundClient; relay: RelayService;
    alertmanagerClient?: AlertmanagerClient;
  }) {
    this.am = deps.alertmanagerClient ?? createAlertmanagerClient(deps.client);
  }

  // ── hold mode and label mapping ──

  async settings(orgId: string): Promise<SettingsView> {
    return { ...(await readHoldSettings(this.deps.db, orgId)), defaultLabelMapping: DEFAULT_LABEL_MAPPING };
  }

  async updateSettings(ctx: AuditContext, m: Manager, input: { holdMode?: HoldMode; labelMapping?: unknown }): Promise<SettingsView> {
    manage(m, 'change the alert settings');
    let mapping: LabelMapping | null | undefined;
    if (input.labelMapping === null) mapping = null;
    else if (input.labelMapping !== undefined) {
      const checked = checkLabelMapping(input.labelMapping);
      if (!checked.ok) throw invalid(checked.field ? `labelMapping.${checked.field}` : 'labelMapping', checked.problem);
      mapping = checked.mapping;
    }
    return this.deps.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`alert-settings:${m.org.id}`]);
      const before = await readHoldSettings(tx, m.org.id);
      const holdMode = input.holdMode ?? before.holdMode;
      const stored = before.labelMappingIsDefault ? null : before.labelMapping;
      const nextMapping = mapping === undefined ? stored : mapping;
      const changed: Record<string, { from: unknown; to: unknown }> = {};
      if (holdMode !== before.holdMode) changed.holdMode = { from: before.holdMode, to: holdMode };
      if (JSON.stringify(nextMapping) !== JSON.stringify(stored)) changed.labelMapping = { from: stored ?? 'defaults', to: nextMapping ?? 'defaults' };
      // Nothing to change (an empty body, or the values already set): answer the settings and write nothing.
      if (Object.keys(changed).length === 0) return { ...before, defaultLabelMapping: DEFAULT_LABEL_MAPPING };
      await tx.query(
        `INSERT INTO alert_settings (org_id, hold_mode, label_mapping, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (org_id) DO UPDATE SET hold_mode = $2, label_mapping = $3, updated_at = $4`,
        [m.org.id, holdMode, nextMapping === null ? null : JSON.stringify(nextMapping), this.deps.clock.now().toISOString()],
      );
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'settings.alerts_updated', target: { type: 'settings', id: 'alerts' }, data: { changed } });
      return { ...(await readHoldSettings(tx, m.org.id)), defaultLabelMapping: DEFAULT_LABEL_MAPPING };
    });
  }

  // ── Alertmanagers ──

  private alertmanagerView(a: ReturnType<typeof toAlertmanager> & { authSealed?: string | null }): AlertmanagerView {
    let authHint: string | null = null;
    if (a.authKind === 'bearer') authHint = 'bearer token ••••';
    if (a.authKind === 'basic') {
      const opened = a.authSealed !== undefined ? openAlertmanagerAuth(this.deps.sealer, { authKind: 'basic', authSealed: a.authSealed }) : null;
      authHint = opened?.kind === 'basic' ? `basic auth as ${opened.user}` : 'basic auth';
    }
    const { authSealed: _s, ...rest } = a;
    return { ...rest, authHint };
  }

  async alertmanagers(orgId: string): Promise<AlertmanagerView[]> {
    const r = await this.deps.db.query<Parameters<typeof toAlertmanager>[0]>('SELECT * FROM alertmanagers WHERE org_id = $1 ORDER BY lower(name), id', [orgId]);
    return r.rows.map((row) => this.alertmanagerView({ ...toAlertmanager(row), authSealed: row.auth_sealed }));
  }

  private async oneAlertmanager(db: Queryable, orgId: string, id: string, lock = false) {
    const r = await db.query<Parameters<typeof toAlertmanager>[0]>(`SELECT * FROM alertmanagers WHERE org_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [orgId, id]);
    const row = r.rows[0];
    if (!row) throw notFound(`no Alertmanager ${id}`);
    return { ...toAlertmanager(row), authSealed: row.auth_sealed };
  }

  /**
   * An Alertmanager's URL is judged by the outbound guard now: an address that can never be
   * reached (loopback outside tests, link-local, metadata, credentials in the URL) is refused with
   * 400 naming `url`. Private addresses are allowed: Alertmanagers live on the organisation's network.
   */
  private checkUrl(raw: string): string {
    checkUrl('url', raw, (url) => this.deps.client.judgeLiteral(url, ALERTMANAGER_ALLOW_PRIVATE));
    return raw.replace(/\/+$/, '');
  }

  private sealAuth(input: AlertmanagerAuthInput | undefined, before: { authKind: AlertmanagerAuthKind; authSealed: string | null } | null): { kind: AlertmanagerAuthKind; sealed: string | null; changed: boolean } {
    if (input === undefined) return before ? { kind: before.authKind, sealed: before.authSealed, changed: false } : { kind: 'none', sealed: null, changed: false };
    if (input.kind === 'none') return { kind: 'none', sealed: null, changed: before?.authKind !== 'none' };
    const old = before ? openAlertmanagerAuth(this.deps.sealer, before) : null;
    if (input.kind === 'bearer') {
      if (input.token) return { kind: 'bearer', sealed: this.deps.sealer.seal(input.token), changed: true };
      if (old?.kind === 'bearer') return { kind: 'bearer', sealed: before!.authSealed, changed: false };
      throw invalid('auth.token', 'is required for bearer auth');
    }
    if (!input.username) throw invalid('auth.username', 'is required for basic auth');
    const password = input.password || (old?.kind === 'basic' ? old.password : '');
    if (!password) throw invalid('auth.password', 'is required for basic auth');
    const same = old?.kind === 'basic' && old.user === input.username && old.password === password;
    return { kind: 'basic', sealed: same ? before!.authSealed : this.deps.sealer.seal(JSON.stringify({ username: input.username, password })), changed: !same };
  }

  async createAlertmanager(ctx: AuditContext, m: Manager, input: AlertmanagerInput): Promise<AlertmanagerView> {
    manage(m, 'add Alertmanagers');
    const name = checkName(input.name, null);
    if (input.url === undefined) throw invalid('url', 'is required');
    const url = this.checkUrl(input.url);
    const auth = this.sealAuth(input.auth, null);
    return this.deps.db.transaction(async (tx) => {
      const id = newId('amg');
      const at = this.deps.clock.now().toISOString();
      await tx.query('INSERT INTO alertmanagers (id, org_id, name, url, auth_kind, auth_sealed, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)',
        [id, m.org.id, name, url, auth.kind, auth.sealed, at]);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'alertmanager.created', target: { type: 'alertmanager', id }, data: { name, url, authKind: auth.kind } });
      return this.alertmanagerView(await this.oneAlertmanager(tx, m.org.id, id));
    });
  }

  async updateAlertmanager(ctx: AuditContext, m: Manager, id: string, input: AlertmanagerInput): Promise<AlertmanagerView> {
    manage(m, 'change Alertmanagers');
    const url = input.url === undefined ? undefined : this.checkUrl(input.url);
    return this.deps.db.transaction(async (tx) => {
      const before = await this.oneAlertmanager(tx, m.org.id, id, true);
      const name = checkName(input.name, before.name);
      const auth = this.sealAuth(input.auth, before);
      const next = { name, url: url ?? before.url, authKind: auth.kind };
      const changed = (['name', 'url', 'authKind'] as const).filter((k) => next[k] !== before[k]);
      if (auth.changed && !changed.includes('authKind')) changed.push('authKind');
      await tx.query('UPDATE alertmanagers SET name = $3, url = $4, auth_kind = $5, auth_sealed = $6, updated_at = $7 WHERE org_id = $1 AND id = $2',
        [m.org.id, id, next.name, next.url, auth.kind, auth.sealed, this.deps.clock.now().toISOString()]);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: m.org.id, action: 'alertmanager.updated', target: { type: 'alertmanager', id },
        data: { name: next.name, url: next.url, authKind: auth.kind, changed: changed.map((k) => (k === 'authKind' ? 'auth' : k)) },
      });
      return this.alertmanagerView(await this.oneAlertmanager(tx, m.org.id, id));
    });
  }

  async deleteAlertmanager(ctx: AuditContext, m: Manager, id: string): Promise<void> {
    manage(m, 'remove Alertmanagers');
    await this.deps.db.transaction(async (tx) => {
      const before = await this.oneAlertmanager(tx, m.org.id, id, true);
      await tx.query('DELETE FROM alertmanagers WHERE org_id = $1 AND id = $2', [m.org.id, id]);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'alertmanager.deleted', target: { type: 'alertmanager', id }, data: { name: before.name, url: before.url } });
    });
  }

  /** GET /api/v2/status on the Alertmanager, through the holds' client; the answer in words. Audited. */
  async testAlertmanager(ctx: AuditContext, m: Manager, id: string): Promise<AlertmanagerTest> {
    manage(m, 'test Alertmanagers');
    const a = await this.oneAlertmanager(this.deps.db, m.org.id, id);
    const auth = openAlertmanagerAuth(this.deps.sealer, a);
    let result: AlertmanagerTest;
    if (!auth) result = { ok: false, version: null, cluster: null, problem: 'its credentials cannot be opened with this server’s data key: enter them again' };
    else {
      try {
        const s = await this.am.status({ url: a.url, auth, allowPrivate: ALERTMANAGER_ALLOW_PRIVATE });
        result = { ok: true, version: s.version, cluster: s.cluster, problem: null };
      } catch (err) {
        result = { ok: false, version: null, cluster: null, problem: err instanceof AlertmanagerError || err instanceof Error ? err.message : String(err) };
      }
    }
    await this.deps.db.transaction((tx) => appendAtCommit(tx, this.deps.clock, ctx, {
      orgId: m.org.id, action: 'alertmanager.tested', target: { type: 'alertmanager', id }, data: { url: a.url, ok: result.ok, version: result.version, problem: result.problem },
    }));
    return result;
  }

  // ── relay destinations ──

  private openSecret(sealed: string | null): DestinationSecret | null {
    const plain = openOrNull(this.deps.sealer, sealed);
    if (plain === null) return null;
    try {
      return JSON.parse(plain) as DestinationSecret;
    } catch {
      return null;
    }
  }

  private destinationView(d: DestinationRecord & { secretSealed: string | null }, mailed: LastDelivery | null = null): DestinationView {
    const { host, to, eventsUrl } = d.config;
    // E-mail goes through the mail outbox: its latest attempt, or the Test button's, whichever is newer.
    const kept = d.config.lastDelivery ?? null;
    const lastDelivery = mailed && (!kept || mailed.at > kept.at) ? mailed : kept;
    return {
      id: d.id, kind: d.kind, name: d.name, enabled: d.enabled, host: host ?? null, to: to ?? null, eventsUrl: eventsUrl ?? null,
      hasSecret: d.hasSecret, secretHint: secretHint(d.kind, d.config, this.openSecret(d.secretSealed)), lastDelivery,
      createdAt: d.createdAt, updatedAt: d.updatedAt,
    };
  }

  async destinations(orgId: string): Promise<DestinationView[]> {
    const r = await this.deps.db.query<Row & { id: string }>('SELECT id FROM alert_destinations WHERE org_id = $1 ORDER BY lower(name), id', [orgId]);
    const out: DestinationView[] = [];
    for (const { id } of r.rows) {
      const d = await readDestinationSecret(this.deps.db, orgId, id);
      if (d) out.push(this.destinationView(d, d.kind === 'email' ? await readMailDelivery(this.deps.db, orgId, d.id) : null));
    }
    return out;
  }

  private async oneDestination(db: Queryable, orgId: string, id: string, lock = false) {
    if (lock) await db.query('SELECT 1 FROM alert_destinations WHERE org_id = $1 AND id = $2 FOR UPDATE', [orgId, id]);
    const d = await readDestinationSecret(db, orgId, id);
    if (!d) throw notFound(`no alert destination ${id}`);
    return d;
  }

  private judge = (url: string) => this.deps.client.judgeLiteral(url, true);

  /** A webhook's signing secret is answered here once, as a callback's is; never again. */
  async createDestination(ctx: AuditContext, m: Manager, input: DestinationInput): Promise<{ destination: DestinationView; signingSecret: string | null }> {
    manage(m, 'add alert destinations');
    const p = parseDestination(input, null, this.judge);
    return this.deps.db.transaction(async (tx) => {
      const id = newId('ads');
      const at = this.deps.clock.now().toISOString();
      await tx.query('INSERT INTO alert_destinations (id, org_id, kind, name, config, secret_sealed, enabled, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)',
        [id, m.org.id, p.kind, p.name, JSON.stringify(p.config), p.secret ? this.deps.sealer.seal(JSON.stringify(p.secret)) : null, p.enabled, at]);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: m.org.id, action: 'alert_destination.created', target: { type: 'alert_destination', id },
        data: { kind: p.kind, name: p.name, enabled: p.enabled, host: p.config.host ?? null, to: p.config.to ?? null, eventsUrl: p.config.eventsUrl ?? null },
      });
      return { destination: this.destinationView(await this.oneDestination(tx, m.org.id, id)), signingSecret: p.newSigningSecret };
    });
  }

  async updateDestination(ctx: AuditContext, m: Manager, id: string, input: DestinationInput): Promise<DestinationView> {
    manage(m, 'change alert destinations');
    return this.deps.db.transaction(async (tx) => {
      const before = await this.oneDestination(tx, m.org.id, id, true);
      const secret = this.openSecret(before.secretSealed);
      if (before.secretSealed && !secret && input.url === undefined && input.routingKey === undefined) {
        throw invalid(before.kind === 'pagerduty' ? 'routingKey' : 'url', 'must be entered again: the stored one cannot be opened with this server’s data key');
      }
      const p = parseDestination(input, { kind: before.kind, name: before.name, enabled: before.enabled, config: before.config, secret }, this.judge);
      const sealed = JSON.stringify(p.secret) === JSON.stringify(secret) ? before.secretSealed : p.secret ? this.deps.sealer.seal(JSON.stringify(p.secret)) : null;
      await tx.query('UPDATE alert_destinations SET name = $3, config = $4, secret_sealed = $5, enabled = $6, updated_at = $7 WHERE org_id = $1 AND id = $2',
        [m.org.id, id, p.name, JSON.stringify(p.config), sealed, p.enabled, this.deps.clock.now().toISOString()]);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: m.org.id, action: 'alert_destination.updated', target: { type: 'alert_destination', id }, data: { kind: p.kind, name: p.name, changed: p.changed },
      });
      return this.destinationView(await this.oneDestination(tx, m.org.id, id));
    });
  }

  async deleteDestination(ctx: AuditContext, m: Manager, id: string): Promise<void> {
    manage(m, 'remove alert destinations');
    await this.deps.db.transaction(async (tx) => {
      const before = await this.oneDestination(tx, m.org.id, id, true);
      await tx.query('DELETE FROM alert_destinations WHERE org_id = $1 AND id = $2', [m.org.id, id]);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'alert_destination.deleted', target: { type: 'alert_destination', id }, data: { kind: before.kind, name: before.name } });
    });
  }

  async testDestination(ctx: AuditContext, m: Manager, id: string): Promise<{ ok: boolean; status: number | null; message: string; destination: DestinationView }> {
    manage(m, 'test alert destinations');
    const r = await this.deps.relay.test(ctx, m.org.id, id);
    if (!r) throw notFound(`no alert destination ${id}`);
    return { ...r, destination: this.destinationView(await this.oneDestination(this.deps.db, m.org.id, id)) };
  }

  receivers(pipelineUrl: string | null): ReceiversSnippet {
    return receiversSnippet(pipelineUrl);
  }
}
