import type { Queryable, Row } from '../../platform/db/database.js';
import type { Thresholds } from './evidence-types.js';
import { checkThresholds, DEFAULT_THRESHOLDS } from './thresholds.js';
import { checkRedTemplates, checkServiceOverride, templatesOf, type RedTemplates, type StoredRedTemplates } from './red-templates.js';

export { listEvidenceSources, asPrometheus, type ReadySource, type PrometheusSource, type SourceAuth } from './evidence-sources-store.js';

/** SQL of evidence_settings: one row per organisation; no row (or a null column) is the documented default. */

export type EvidenceSettings = {
  thresholds: Thresholds;
  /** The templates collection runs (a preset, or the organisation's own). */
  redTemplates: RedTemplates;
  aiEnabled: boolean;
};

export type StoredEvidenceSettings = EvidenceSettings & {
  /** What is saved, null where the default applies: what the settings page shows as "default". */
  stored: { thresholds: Thresholds | null; redTemplates: StoredRedTemplates | null };
  updatedAt: string | null;
};

type SettingsRow = Row & { thresholds: unknown; red_templates: unknown; ai_enabled: boolean; updated_at: Date };

export async function readStoredEvidenceSettings(db: Queryable, orgId: string, forUpdate = false): Promise<StoredEvidenceSettings> {
  const r = await db.query<SettingsRow>(
    `SELECT thresholds, red_templates, ai_enabled, updated_at FROM evidence_settings WHERE org_id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [orgId],
  );
  const x = r.rows[0];
  if (!x) return { thresholds: { ...DEFAULT_THRESHOLDS }, redTemplates: templatesOf(null), aiEnabled: true, stored: { thresholds: null, redTemplates: null }, updatedAt: null };
  // What was saved was checked on the way in; read it through the same check so that a row written by an
  // older release (a threshold since added) is whole, and anything unreadable falls back to the defaults.
  const t = x.thresholds === null ? null : checkThresholds(x.thresholds);
  const thresholds = t?.ok ? t.thresholds : null;
  const rt = x.red_templates === null ? null : checkRedTemplates(x.red_templates);
  const red = rt?.ok ? rt.value : null;
  return {
    thresholds: thresholds ?? { ...DEFAULT_THRESHOLDS }, redTemplates: templatesOf(red), aiEnabled: x.ai_enabled,
    stored: { thresholds, redTemplates: red }, updatedAt: new Date(x.updated_at).toISOString(),
  };
}

/** What collection needs: the thresholds the verdict uses, the RED templates, the AI switch. */
export async function readEvidenceSettings(db: Queryable, orgId: string): Promise<EvidenceSettings> {
  const s = await readStoredEvidenceSettings(db, orgId);
  return { thresholds: s.thresholds, redTemplates: s.redTemplates, aiEnabled: s.aiEnabled };
}

export async function writeEvidenceSettings(
  db: Queryable, orgId: string, s: { thresholds: Thresholds | null; redTemplates: StoredRedTemplates | null; aiEnabled: boolean }, at: string,
): Promise<void> {
  await db.query(
    `INSERT INTO evidence_settings (org_id, thresholds, red_templates, ai_enabled, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (org_id) DO UPDATE SET thresholds = $2, red_templates = $3, ai_enabled = $4, updated_at = $5`,
    [orgId, s.thresholds === null ? null : JSON.stringify(s.thresholds), s.redTemplates === null ? null : JSON.stringify(s.redTemplates), s.aiEnabled, at],
  );
}

/**
 * The templates with the per-service overrides of the catalogue (an entity's attrs.prometheus) of
 * these services. The catalogue keeps attrs as they came, so an override that does not check is
 * left out here (the service then uses the organisation's templates). A read of catalogue's table:
 * catalogue exports no reader of attrs by key.
 */
export async function withServiceOverrides(db: Queryable, orgId: string, templates: RedTemplates, services: Array<{ key: string }>): Promise<RedTemplates> {
  if (services.length === 0) return templates;
  const r = await db.query<Row & { key: string; prometheus: unknown }>(
    `SELECT key, attrs -> 'prometheus' AS prometheus FROM catalogue_entities
     WHERE org_id = $1 AND lower(key) = ANY($2::text[]) AND attrs ? 'prometheus'`,
    [orgId, services.map((s) => s.key.toLowerCase())],
  );
  const perService: NonNullable<RedTemplates['perService']> = { ...(templates.perService ?? {}) };
  for (const x of r.rows) {
    const c = checkServiceOverride(x.prometheus);
    if (c.ok) perService[x.key.toLowerCase()] = c.value;
  }
  return Object.keys(perService).length === 0 ? templates : { ...templates, perService };
}
