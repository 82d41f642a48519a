import type { Queryable, Row } from '../../platform/db/database.js';
import type { AiProviderKind } from './ai-clients.js';

/** SQL of the AI provider (ai_providers) and of the assessments asked (ai_assessments). */

export type AiProviderRecord = {
  orgId: string; kind: AiProviderKind; url: string; model: string; keySealed: string | null; createdAt: string; updatedAt: string;
};

type ProviderRow = Row & { org_id: string; kind: AiProviderKind; url: string; model: string; key_sealed: string | null; created_at: Date; updated_at: Date };

const iso = (d: Date | string) => new Date(d).toISOString();

export async function readAiProvider(db: Queryable, orgId: string, forUpdate = false): Promise<AiProviderRecord | null> {
  const r = await db.query<ProviderRow>(`SELECT * FROM ai_providers WHERE org_id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [orgId]);
  const x = r.rows[0];
  return x ? { orgId: x.org_id, kind: x.kind, url: x.url, model: x.model, keySealed: x.key_sealed, createdAt: iso(x.created_at), updatedAt: iso(x.updated_at) } : null;
}

export async function upsertAiProvider(db: Queryable, p: { orgId: string; kind: AiProviderKind; url: string; model: string; keySealed: string | null; at: string }): Promise<void> {
  await db.query(
    `INSERT INTO ai_providers (org_id, kind, url, model, key_sealed, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (org_id) DO UPDATE SET kind = $2, url = $3, model = $4, key_sealed = $5, updated_at = $6`,
    [p.orgId, p.kind, p.url, p.model, p.keySealed, p.at],
  );
}

export async function deleteAiProvider(db: Queryable, orgId: string): Promise<void> {
  await db.query('DELETE FROM ai_providers WHERE org_id = $1', [orgId]);
}

/** Serialises the cap's count and the reservation of one organisation's next ask. */
export async function lockAiCap(tx: Queryable, orgId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ai-cap:${orgId}`]);
}

export async function countAssessmentsSince(db: Queryable, orgId: string, since: string): Promise<number> {
  const r = await db.query<Row & { n: number }>('SELECT count(*)::int AS n FROM ai_assessments WHERE org_id = $1 AND asked_at > $2', [orgId, since]);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * An ask is recorded before it is sent, so that two reports assessed at once cannot both take the
 * 30th place; it says "unavailable (still asking)" until finishAssessment writes what came of it.
 */
export async function reserveAssessment(db: Queryable, a: { id: string; orgId: string; changeId: string; version: number; at: string }): Promise<void> {
  await db.query(
    `INSERT INTO ai_assessments (id, org_id, change_id, report_version, status, reason, asked_at) VALUES ($1, $2, $3, $4, 'unavailable', 'still asking', $5)`,
    [a.id, a.orgId, a.changeId, a.version, a.at],
  );
}

export async function finishAssessment(db: Queryable, id: string, status: 'done' | 'unavailable', reason: string | null): Promise<void> {
  await db.query('UPDATE ai_assessments SET status = $2, reason = $3 WHERE id = $1', [id, status, reason]);
}
