/** SQL of before-state captures: append and read only (the table refuses UPDATE and DELETE). */
import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import type { Principal } from '../auth/index.js';
import type { CaptureDraft, CaptureMethod, Completeness, PrestateStatus } from './before-state.js';

export type Capture = {
  id: string; changeId: string; source: string; method: CaptureMethod; previousVersion: string | null; previousCommit: string | null;
  artifact: string | null; artifactType: 'json' | 'text' | null; artifactName: string | null; sizeBytes: number; sha256: string;
  completeness: Completeness; prestateStatus: PrestateStatus; restorable: boolean; capturedAt: string;
  capturedBy: { kind: string; id: string | null; name: string };
};

type CaptureRow = Row & {
  id: string; change_id: string; source: string; method: CaptureMethod; previous_version: string | null; previous_commit: string | null; artifact: string | null;
  artifact_type: 'json' | 'text' | null; artifact_name: string | null; size_bytes: number; sha256: string; completeness: Completeness; prestate_status: PrestateStatus;
  restorable: boolean; captured_at: Date; captured_by: Capture['capturedBy'];
};

const toCapture = (r: CaptureRow): Capture => ({
  id: r.id, changeId: r.change_id, source: r.source, method: r.method, previousVersion: r.previous_version, previousCommit: r.previous_commit,
  artifact: r.artifact, artifactType: r.artifact_type, artifactName: r.artifact_name, sizeBytes: r.size_bytes, sha256: r.sha256,
  completeness: r.completeness, prestateStatus: r.prestate_status, restorable: r.restorable, capturedAt: new Date(r.captured_at).toISOString(), capturedBy: r.captured_by,
});

/** Who sent a capture: a person, or a token named with its owner. */
export function capturedBy(p: Principal): Capture['capturedBy'] {
  return p.kind === 'token' ? { kind: 'token', id: p.tokenId, name: `${p.tokenName} (${p.user.email})` } : { kind: 'person', id: p.user.id, name: p.user.email };
}

export async function insertCaptures(tx: Tx, orgId: string, changeId: string, drafts: CaptureDraft[], source: string, by: Capture['capturedBy'], at: string): Promise<void> {
  for (const d of drafts) {
    await tx.query(
      `INSERT INTO change_captures (id, org_id, change_id, source, method, previous_version, previous_commit, artifact, artifact_type, artifact_name, size_bytes, sha256,
         completeness, prestate_status, restorable, captured_at, captured_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $16)`,
      [newId('cap'), orgId, changeId, source, d.method, d.previousVersion, d.previousCommit, d.artifact, d.artifactType, d.artifactName, d.sizeBytes, d.sha256,
        d.completeness, d.prestateStatus, d.restorable, at, JSON.stringify(by)]);
  }
}

/** A change's captures, oldest first; the artifact text only when asked for (it may be 256 KiB). */
export async function listCaptures(db: Queryable, changeId: string, withArtifacts = false): Promise<Capture[]> {
  const cols = withArtifacts ? '*' : `id, change_id, source, method, previous_version, previous_commit, NULL AS artifact, artifact_type, artifact_name, size_bytes, sha256,
    completeness, prestate_status, restorable, captured_at, captured_by`;
  const r = await db.query<CaptureRow>(`SELECT ${cols} FROM change_captures WHERE change_id = $1 ORDER BY created_at, id`, [changeId]);
  return r.rows.map(toCapture);
}

export async function findCapture(db: Queryable, changeId: string, id: string): Promise<Capture | null> {
  const r = await db.query<CaptureRow>('SELECT * FROM change_captures WHERE change_id = $1 AND id = $2', [changeId, id]);
  return r.rows[0] ? toCapture(r.rows[0]) : null;
}
