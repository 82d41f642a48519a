/** SQL of the governance tables: standard-change templates and change/freeze windows. */
import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import type { TemplateScope } from '../changes/change-class.js';
import type { WindowDef, WindowKind, WindowSchedule, WindowScope } from './window-schedule.js';

export type TemplateState = 'draft' | 'certified' | 'withdrawn';
export type Template = TemplateScope & {
  description: string; state: TemplateState;
  author: { id: string; email: string }; certifiedBy: { id: string; email: string } | null; certifiedAt: string | null; certifiedVersion: number | null;
  withdrawnReason: string | null; createdAt: string; updatedAt: string;
  /** Demoted by the first rollback of a change it made standard: when, and the change. */
  demotedAt: string | null; demotedByChange: string | null;
};

type TemplateRow = Row & {
  id: string; name: string; kind: string; services: string[]; environments: string[]; pipelines: string[]; repos: string[]; max_blast_services: number; hops: number;
  description: string; version: number; state: TemplateState; author_id: string; author_email: string; certified_by: string | null; certifier_email: string | null;
  certified_at: Date | null; certified_version: number | null; withdrawn_reason: string | null; created_at: Date; updated_at: Date; demoted_at: Date | null; demoted_by_change: string | null;
};

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

const toTemplate = (r: TemplateRow): Template => ({
  id: r.id, name: r.name, kind: r.kind, services: r.services, environments: r.environments, pipelines: r.pipelines, repos: r.repos,
  maxBlastServices: r.max_blast_services, hops: r.hops, description: r.description, version: r.version, state: r.state,
  author: { id: r.author_id, email: r.author_email }, certifiedBy: r.certified_by ? { id: r.certified_by, email: r.certifier_email ?? '' } : null,
  certifiedAt: iso(r.certified_at), certifiedVersion: r.certified_version, withdrawnReason: r.withdrawn_reason, createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!,
  demotedAt: iso(r.demoted_at ?? null), demotedByChange: r.demoted_by_change ?? null,
});

const SELECT_TEMPLATE = `SELECT t.*, a.email AS author_email, c.email AS certifier_email FROM change_templates t
  JOIN users a ON a.id = t.author_id LEFT JOIN users c ON c.id = t.certified_by`;

export async function listTemplates(db: Queryable, orgId: string): Promise<Template[]> {
  const r = await db.query<TemplateRow>(`${SELECT_TEMPLATE} WHERE t.org_id = $1 ORDER BY lower(t.name)`, [orgId]);
  return r.rows.map(toTemplate);
}

export async function findTemplate(db: Queryable, orgId: string, id: string, lock = false): Promise<Template | null> {
  if (lock) await db.query('SELECT 1 FROM change_templates WHERE id = $1 AND org_id = $2 FOR UPDATE', [id, orgId]);
  const r = await db.query<TemplateRow>(`${SELECT_TEMPLATE} WHERE t.id = $1 AND t.org_id = $2`, [id, orgId]);
  return r.rows[0] ? toTemplate(r.rows[0]) : null;
}

/** Certified templates, as the class rules read them: only a template whose certified version is its current one. */
export async function certifiedTemplates(db: Queryable, orgId: string): Promise<TemplateScope[]> {
  const r = await db.query<TemplateRow>(
    `SELECT id, name, kind, services, environments, pipelines, repos, max_blast_services, hops, version FROM change_templates
      WHERE org_id = $1 AND state = 'certified' AND certified_version = version ORDER BY lower(name)`, [orgId]);
  return r.rows.map((x) => ({ id: x.id, name: x.name, version: x.version, kind: x.kind, services: x.services, environments: x.environments, pipelines: x.pipelines, repos: x.repos, maxBlastServices: x.max_blast_services, hops: x.hops }));
}

export type TemplateFields = Pick<Template, 'name' | 'kind' | 'services' | 'environments' | 'pipelines' | 'repos' | 'maxBlastServices' | 'hops' | 'description'>;

export async function insertTemplate(tx: Tx, orgId: string, id: string, f: TemplateFields, authorId: string, at: string): Promise<void> {
  await tx.query(
    `INSERT INTO change_templates (id, org_id, name, kind, services, environments, pipelines, repos, max_blast_services, hops, description, version, state, author_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, 'draft', $12, $13, $13)`,
    [id, orgId, f.name, f.kind, f.services, f.environments, f.pipelines, f.repos, f.maxBlastServices, f.hops, f.description, authorId, at]);
}

/** An edit: the next version, drafted by the editor, no longer certified. */
export async function updateTemplate(tx: Tx, id: string, f: TemplateFields, editorId: string, at: string): Promise<void> {
  await tx.query(
    `UPDATE change_templates SET name = $2, kind = $3, services = $4, environments = $5, pipelines = $6, repos = $7, max_blast_services = $8, hops = $9, description = $10,
       version = version + 1, state = 'draft', author_id = $11, certified_by = NULL, certified_at = NULL, certified_version = NULL, withdrawn_reason = NULL, updated_at = $12 WHERE id = $1`,
    [id, f.name, f.kind, f.services, f.environments, f.pipelines, f.repos, f.maxBlastServices, f.hops, f.description, editorId, at]);
}

export async function setTemplateState(tx: Tx, id: string, state: TemplateState, by: string | null, reason: string | null, at: string): Promise<void> {
  if (state === 'certified') {
    // A new certification ends a demotion: the template is trusted again.
    await tx.query(`UPDATE change_templates SET state = 'certified', certified_by = $2, certified_at = $3, certified_version = version, withdrawn_reason = NULL, demoted_at = NULL, demoted_by_change = NULL, updated_at = $3 WHERE id = $1`, [id, by, at]);
  } else {
    await tx.query(`UPDATE change_templates SET state = $2, certified_by = NULL, certified_at = NULL, certified_version = NULL, withdrawn_reason = $3, updated_at = $4 WHERE id = $1`, [id, state, reason, at]);
  }
}

export type StoredWindow = WindowDef & { description: string | null; feed: string | null; sourceUid: string | null; createdAt: string; updatedAt: string };
type WindowRow = Row & {
  id: string; name: string; kind: WindowKind; schedule: WindowSchedule; scope: WindowScope; description: string | null; feed: string | null; source_uid: string | null;
  created_at: Date; updated_at: Date;
};
const toWindow = (r: WindowRow): StoredWindow => ({
  id: r.id, name: r.name, kind: r.kind, schedule: r.schedule, scope: r.scope, description: r.description, feed: r.feed, sourceUid: r.source_uid,
  createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!,
});

export async function listWindows(db: Queryable, orgId: string): Promise<StoredWindow[]> {
  const r = await db.query<WindowRow>('SELECT * FROM change_windows WHERE org_id = $1 ORDER BY kind DESC, lower(name), id', [orgId]);
  return r.rows.map(toWindow);
}

export async function findWindow(db: Queryable, orgId: string, id: string): Promise<StoredWindow | null> {
  const r = await db.query<WindowRow>('SELECT * FROM change_windows WHERE org_id = $1 AND id = $2', [orgId, id]);
  return r.rows[0] ? toWindow(r.rows[0]) : null;
}

/** The organisation's governance versions: cached windows and templates are valid while these hold. */
export async function governanceVersions(db: Queryable, orgId: string): Promise<{ windows: number; templates: number }> {
  const r = await db.query<{ windows: string; templates: string }>('SELECT windows, templates FROM governance_versions WHERE org_id = $1', [orgId]);
  const x = r.rows[0];
  return { windows: x ? Number(x.windows) : 0, templates: x ? Number(x.templates) : 0 };
}

/** Bumps a version in the caller's transaction: every replica drops what it cached at its next read. */
export async function bumpVersion(tx: Tx, orgId: string, which: 'windows' | 'templates'): Promise<void> {
  await tx.query(
    `INSERT INTO governance_versions (org_id, ${which}) VALUES ($1, 1) ON CONFLICT (org_id) DO UPDATE SET ${which} = governance_versions.${which} + 1`, [orgId]);
}

export type WindowFields = { name: string; kind: WindowKind; schedule: WindowSchedule; scope: WindowScope; description: string | null };

export async function insertWindow(tx: Tx, orgId: string, id: string, f: WindowFields, by: string | null, at: string, feed: string | null = null, uid: string | null = null): Promise<void> {
  await tx.query(
    `INSERT INTO change_windows (id, org_id, name, kind, schedule, scope, description, feed, source_uid, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)`,
    [id, orgId, f.name, f.kind, JSON.stringify(f.schedule), JSON.stringify(f.scope), f.description, feed, uid, by, at]);
}

export async function updateWindow(tx: Tx, id: string, f: WindowFields, at: string): Promise<void> {
  await tx.query('UPDATE change_windows SET name = $2, kind = $3, schedule = $4, scope = $5, description = $6, updated_at = $7 WHERE id = $1',
    [id, f.name, f.kind, JSON.stringify(f.schedule), JSON.stringify(f.scope), f.description, at]);
}

export async function deleteWindow(tx: Tx, orgId: string, id: string): Promise<StoredWindow | null> {
  const r = await tx.query<WindowRow>('DELETE FROM change_windows WHERE org_id = $1 AND id = $2 RETURNING *', [orgId, id]);
  return r.rows[0] ? toWindow(r.rows[0]) : null;
}

/** The windows an earlier import of this feed made, by the event's UID. */
export async function feedWindows(tx: Tx, orgId: string, feed: string): Promise<Map<string, StoredWindow>> {
  const r = await tx.query<WindowRow>('SELECT * FROM change_windows WHERE org_id = $1 AND feed = $2 FOR UPDATE', [orgId, feed]);
  return new Map(r.rows.map((x) => [x.source_uid ?? '', toWindow(x)]));
}
