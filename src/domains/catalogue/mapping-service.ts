import type { Clock } from '../../platform/clock.js';
import type { Database, Row } from '../../platform/db/database.js';
import { badRequest, forbidden, invalid, notFound, taken } from '../../platform/errors.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import type { CatalogueService } from './catalogue-service.js';
import { manualKey, matchComponents, matchContext, type ComponentInput, type MatchContext, type MatchResult } from './matching.js';

export type Alias = { alias: string; kind: string; key: string; createdBy: string; createdAt: string; lastUsedAt: string | null };
export type ManualService = { key: string; name: string; createdBy: string; createdAt: string; merged: boolean; mergedAt: string | null };
type Manager = { org: { id: string }; user: { email: string }; role: string };

const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : null);

/** Organisation-wide names for catalogue entities, and services added by hand. */
export class MappingService {
  constructor(private readonly deps: { db: Database; clock: Clock; catalogue: CatalogueService }) {}

  private static write(m: Manager): void {
    if (m.role === 'member') throw forbidden('only owners and admins change component mappings');
  }

  async aliases(orgId: string): Promise<Alias[]> {
    const r = await this.deps.db.query<Row & { alias: string; kind: string; key: string; created_by: string; created_at: Date; last_used_at: Date | null }>(
      'SELECT * FROM component_aliases WHERE org_id = $1 ORDER BY alias', [orgId]);
    return r.rows.map((x) => ({ alias: x.alias, kind: x.kind, key: x.key, createdBy: x.created_by, createdAt: iso(x.created_at)!, lastUsedAt: iso(x.last_used_at) }));
  }

  async setAlias(ctx: AuditContext, m: Manager, alias: string, target: { kind: string; key: string }): Promise<Alias> {
    MappingService.write(m);
    const name = alias.trim().toLowerCase();
    if (!name || name.length > 200) throw badRequest('the alias must be 1 to 200 characters', 'alias');
    const at = this.deps.clock.now().toISOString();
    await this.deps.db.transaction(async (tx) => {
      const before = await tx.query<{ kind: string; key: string }>('SELECT kind, key FROM component_aliases WHERE org_id = $1 AND alias = $2', [m.org.id, name]);
      await tx.query(
        `INSERT INTO component_aliases (org_id, alias, kind, key, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (org_id, alias) DO UPDATE SET kind = $3, key = $4`,
        [m.org.id, name, target.kind, target.key, m.user.email, at],
      );
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'component_alias.set', target: { type: 'component_alias', id: name }, data: { from: before.rows[0] ?? null, to: target } });
    });
    return (await this.aliases(m.org.id)).find((a) => a.alias === name)!;
  }

  async deleteAlias(ctx: AuditContext, m: Manager, alias: string): Promise<void> {
    MappingService.write(m);
    const name = alias.trim().toLowerCase();
    await this.deps.db.transaction(async (tx) => {
      const r = await tx.query<{ kind: string; key: string }>('DELETE FROM component_aliases WHERE org_id = $1 AND alias = $2 RETURNING kind, key', [m.org.id, name]);
      if (!r.rows[0]) throw notFound(`no alias "${name}"`);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'component_alias.deleted', target: { type: 'component_alias', id: name }, data: { was: r.rows[0] } });
    });
  }

  async manualServices(orgId: string): Promise<ManualService[]> {
    const r = await this.deps.db.query<Row & { key: string; name: string; created_by: string; created_at: Date; merged_at: Date | null }>(
      'SELECT * FROM manual_services WHERE org_id = $1 ORDER BY key', [orgId]);
    return r.rows.map((x) => ({ key: x.key, name: x.name, createdBy: x.created_by, createdAt: iso(x.created_at)!, merged: x.merged_at !== null, mergedAt: iso(x.merged_at) }));
  }

  /** `{name}` → `svc:<slug>`, in the catalogue at once (labelled manual) until discovery reports the key. */
  async createManual(ctx: AuditContext, m: Manager, name: string): Promise<ManualService> {
    MappingService.write(m);
    const key = manualKey(name);
    if (!key) throw invalid('name', 'must contain letters or digits');
    const at = this.deps.clock.now().toISOString();
    await this.deps.db.transaction(async (tx) => {
      const exists = await tx.query('SELECT 1 FROM manual_services WHERE org_id = $1 AND key = $2', [m.org.id, key]);
      if (exists.rows.length) throw taken(`manual service ${key} exists already`, 'name');
      const known = await tx.query('SELECT 1 FROM catalogue_entities WHERE org_id = $1 AND key = $2', [m.org.id, key]);
      await tx.query('INSERT INTO manual_services (org_id, key, name, created_by, created_at, merged_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [m.org.id, key, name.trim(), m.user.email, at, known.rows.length ? at : null]);
      if (!known.rows.length) {
        await tx.query(
          `INSERT INTO catalogue_entities (org_id, key, kind, name, source, stale, attrs, first_seen, last_seen) VALUES ($1, $2, 'service', $3, 'manual', false, '{"manual": true}', $4, $4)`,
          [m.org.id, key, name.trim(), at]);
      }
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'manual_service.created', target: { type: 'manual_service', id: key }, data: { name: name.trim(), alreadyDiscovered: known.rows.length > 0 } });
    });
    this.deps.catalogue.invalidate(m.org.id);
    return (await this.manualServices(m.org.id)).find((s) => s.key === key)!;
  }

  async deleteManual(ctx: AuditContext, m: Manager, key: string): Promise<void> {
    MappingService.write(m);
    await this.deps.db.transaction(async (tx) => {
      const r = await tx.query<{ merged_at: Date | null }>('DELETE FROM manual_services WHERE org_id = $1 AND key = $2 RETURNING merged_at', [m.org.id, key]);
      if (!r.rows[0]) throw notFound(`no manual service ${key}`);
      // Only an entity nobody discovered leaves the catalogue; it is kept as stale, never deleted.
      if (!r.rows[0].merged_at) await tx.query("UPDATE catalogue_entities SET stale = true WHERE org_id = $1 AND key = $2 AND source = 'manual'", [m.org.id, key]);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'manual_service.deleted', target: { type: 'manual_service', id: key }, data: { merged: r.rows[0].merged_at !== null } });
    });
    this.deps.catalogue.invalidate(m.org.id);
  }

  /** The catalogue's side of matching, built once per graph snapshot (a preview runs on every keystroke). */
  readonly #byGraph = new WeakMap<object, MatchContext>();

  /** Resolves components as a registration will. */
  async match(orgId: string, input: { components?: ComponentInput[]; lines?: string }): Promise<MatchResult> {
    const snap = await this.deps.catalogue.snapshot(orgId);
    let base = this.#byGraph.get(snap.graph);
    if (!base) {
      base = matchContext([...snap.graph.nodes.values()].filter((n) => !n.stale).map((n) => ({ kind: n.kind, key: n.key, name: n.name })), [], []);
      this.#byGraph.set(snap.graph, base);
    }
    // The organisation's aliases and manual services, in one statement: what matching needs of each.
    const r = await this.deps.db.query<{ aliases: Array<{ alias: string; kind: string; key: string }>; manual: Array<{ key: string; name: string }> }>(
      `SELECT (SELECT coalesce(json_agg(json_build_object('alias', alias, 'kind', kind, 'key', key)), '[]') FROM component_aliases WHERE org_id = $1) AS aliases,
              (SELECT coalesce(json_agg(json_build_object('key', key, 'name', name) ORDER BY key), '[]') FROM manual_services WHERE org_id = $1) AS manual`,
      [orgId]);
    const { aliases, manual } = r.rows[0]!;
    return matchComponents({ ...base, aliases: new Map(aliases.map((a) => [a.alias, { kind: a.kind, key: a.key }])), manual }, input);
  }
}
