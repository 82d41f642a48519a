import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, PAYLOAD_NAME, packBackup, sha256, type BackupManifest, type BackupOrganization } from './backup-archive.js';
import type { Database, Queryable } from './database.js';
import { snapshotDataDir } from './data-dir-snapshot.js';

/** Where the key file lives: beside pgdata in the data directory, not inside it (see sealed.ts). */
export const KEY_FILE_NAME = 'secret.key';

/**
 * A fingerprint of the data key that sealed secrets are sealed with: CHANGELEDGER_SECRET_KEY, else
 * the key file in the data directory (read only: a backup never creates one). One-way and
 * domain-separated, so it tells two keys apart without saying anything about either.
 */
export function keyFingerprint(env: NodeJS.ProcessEnv, dataDir: string): string | null {
  let key: Buffer | null = null;
  if (env.CHANGELEDGER_SECRET_KEY) key = Buffer.from(env.CHANGELEDGER_SECRET_KEY, 'base64');
  else if (existsSync(join(dataDir, KEY_FILE_NAME))) key = Buffer.from(readFileSync(join(dataDir, KEY_FILE_NAME), 'utf8').trim(), 'base64');
  if (!key || key.length === 0) return null;
  return `sha256:${createHash('sha256').update('changeledger data key fingerprint\0').update(key).digest('hex').slice(0, 16)}`;
}

export type BackupFile = { manifest: BackupManifest; file: Buffer };

/**
 * Makes the whole backup file of an open embedded database. `organizations` reads each chain's
 * head inside the snapshot's transaction, so the manifest describes exactly what the copy holds.
 */
export async function createBackupFile(
  db: Database,
  opts: { now: () => Date; productVersion: string; madeBy: 'server' | 'command line'; env: NodeJS.ProcessEnv; organizations: (q: Queryable) => Promise<BackupOrganization[]> },
): Promise<BackupFile> {
  const { gz, seen } = await snapshotDataDir(db, async (tx) => {
    const schema = await tx.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
    const pgv = await tx.query<{ server_version: string }>('SHOW server_version');
    return { schemaVersion: schema.rows[0]?.v ?? 0, postgresVersion: pgv.rows[0]?.server_version ?? 'unknown', organizations: await opts.organizations(tx), at: opts.now() };
  });
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    productVersion: opts.productVersion,
    schemaVersion: seen.schemaVersion,
    engine: 'pglite',
    postgresVersion: seen.postgresVersion,
    createdAt: seen.at.toISOString(),
    source: { dataDir: db.location, madeBy: opts.madeBy, pid: process.pid },
    keyFingerprint: keyFingerprint(opts.env, db.location),
    organizations: seen.organizations,
    payload: { name: PAYLOAD_NAME, bytes: gz.length, sha256: sha256(gz) },
  };
  return { manifest, file: packBackup(manifest, gz) };
}
