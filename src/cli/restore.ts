import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { storeConfig, version } from '../config.js';
import { verifyLedger } from '../domains/ledger/index.js';
import { BackupFileError, unpackBackup, type BackupManifest } from '../platform/db/backup-archive.js';
import { keyFingerprint, KEY_FILE_NAME } from '../platform/db/backup-create.js';
import { acquireDataDirLock, DataDirBusyError } from '../platform/db/data-dir-lock.js';
import { loadDataDirSnapshot } from '../platform/db/data-dir-snapshot.js';
import { loadMigrations, migrate } from '../platform/db/migrate.js';
import { badRequest } from '../platform/errors.js';
import { refuseOnPostgres, digestsText } from './backup.js';
import { EXIT, withStoreOptions, type Io, type StoreOpts } from './common.js';
import { chainHeads } from './operations.js';

type RestoreOpts = StoreOpts & { from: string; force?: boolean; json?: boolean };
type Check = { organization: string; ok: boolean; events: number; seq: number; hash: string; problem: string | null };

export function restoreCommands(program: Command, io: Io, done: (code: number) => void): void {
  withStoreOptions(
    program
      .command('restore')
      .description('put a file written by `changeledger backup` back as the embedded database, then verify every audit chain against the digests recorded in it (for PostgreSQL use pg_restore: docs/backups.md)'),
    { dataHelp: 'data directory to restore into; no server may be running on it' },
  )
    .requiredOption('--from <file>', 'the backup file written by `changeledger backup`')
    .option('--force', 'restore even though the data directory already holds a database: the old one is moved aside (never deleted)')
    .option('--json', 'print the result as JSON')
    .action(async (o: RestoreOpts) => {
      refuseOnPostgres(o, 'restore');
      const { manifest, payload } = readBackup(o.from);
      const known = loadMigrations().length;
      if (manifest.schemaVersion > known) {
        throw badRequest(`--from: the backup's database schema is at version ${manifest.schemaVersion}, made by changeledger ${manifest.productVersion}; this changeledger (${version}) knows versions up to ${known}: restore it with changeledger ${manifest.productVersion} or newer`, 'from');
      }
      const dir = storeConfig(o).dataDir;
      mkdirSync(dir, { recursive: true });
      let lock;
      try {
        lock = acquireDataDirLock(dir, 'changeledger restore');
      } catch (err) {
        if (!(err instanceof DataDirBusyError)) throw err;
        io.err(`changeledger: cannot restore into ${dir}: ${err.message.replace(/ Only one process.*$/, '')} A restore replaces the whole database: stop that server first, restore, then start it again.\n`);
        return done(EXIT.unavailable);
      }
      try {
        const r = await restoreInto(dir, manifest, payload, o.force === true);
        report(io, o, dir, manifest, r);
        done(r.checks.every((c) => c.ok) && r.missing.length === 0 ? EXIT.ok : EXIT.failed);
      } finally {
        lock.release();
      }
    });
}

function readBackup(from: string): { manifest: BackupManifest; payload: Buffer } {
  const path = resolve(from);
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw badRequest(code === 'ENOENT' ? `--from: there is no file ${path}` : code === 'EISDIR' ? `--from: ${path} is a directory, not a backup file` : `--from: ${path} cannot be read (${code ?? (err as Error).message})`, 'from');
  }
  try {
    return unpackBackup(file);
  } catch (err) {
    if (err instanceof BackupFileError) throw badRequest(`--from: ${path}: ${err.message}`, 'from');
    throw err;
  }
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const holdsDatabase = (dir: string) => existsSync(join(dir, 'pgdata', 'PG_VERSION')) || (existsSync(join(dir, 'pgdata')) && readdirSync(join(dir, 'pgdata')).length > 0);

type Restored = { checks: Check[]; missing: string[]; migratedFrom: number | null; movedAside: string | null };

/**
 * Loads the snapshot into a folder of its own inside `dir`, checks it there (every chain intact,
 * every head equal to the manifest's), and only then moves it into place: a restore that fails
 * leaves the directory as it found it.
 */
async function restoreInto(dir: string, manifest: BackupManifest, payload: Buffer, force: boolean): Promise<Restored> {
  if (holdsDatabase(dir) && !force) {
    throw badRequest(`--data: ${dir} already holds a database; restore into an empty directory, or add --force to move the current database aside (it is kept, not deleted) and restore in its place`, 'data');
  }
  const staging = join(dir, `.restore-${stamp()}`);
  try {
    const db = await loadDataDirSnapshot(staging, payload);
    let checks: Check[];
    let missing: string[];
    let migratedFrom: number | null = null;
    try {
      if (manifest.schemaVersion < loadMigrations().length) {
        // An older schema: brought up to this version here, as the server would at its next start.
        await migrate(db);
        migratedFrom = manifest.schemaVersion;
      }
      const heads = await chainHeads(db);
      checks = [];
      for (const h of heads) {
        const v = await verifyLedger(db, h.id);
        const want = manifest.organizations.find((o) => o.id === h.id);
        const problem = !v.ok
          ? `the chain is broken at event ${v.firstBrokenSeq}: ${v.reason}`
          : !want
            ? 'this organisation is not in the backup\'s manifest'
            : want.seq !== h.seq || want.hash !== h.hash
              ? `the head is #${h.seq} ${h.hash}, the backup recorded #${want.seq} ${want.hash}`
              : null;
        checks.push({ organization: h.slug, ok: problem === null, events: v.checked, seq: h.seq, hash: h.hash, problem });
      }
      missing = manifest.organizations.filter((o) => !heads.some((h) => h.id === o.id)).map((o) => o.slug);
    } finally {
      await db.close();
    }
    if (checks.some((c) => !c.ok) || missing.length > 0) return { checks, missing, migratedFrom, movedAside: null };
    let movedAside: string | null = null;
    if (existsSync(join(dir, 'pgdata'))) {
      movedAside = join(dir, `pgdata.before-restore-${stamp()}`);
      renameSync(join(dir, 'pgdata'), movedAside);
    }
    renameSync(join(staging, 'pgdata'), join(dir, 'pgdata'));
    return { checks, missing, migratedFrom, movedAside };
  } finally {
    // Only our own unpacked copy: once placed the folder is empty, and a copy that failed its checks is not kept.
    rmSync(staging, { recursive: true, force: true });
  }
}

function keyAdvice(dir: string, manifest: BackupManifest): string | null {
  if (!manifest.keyFingerprint) return null;
  const here = keyFingerprint(process.env, dir);
  const how = `put the ${KEY_FILE_NAME} kept with this backup into ${dir} (mode 0600), or set CHANGELEDGER_SECRET_KEY to that key, before the server starts`;
  if (here === null) return `warning: there is no data key here; the sealed secrets in this backup (callback and ticket secrets) open only with the key they were sealed with (${manifest.keyFingerprint}): ${how}, or the server makes a new key and they will not open`;
  if (here !== manifest.keyFingerprint) return `warning: the data key here (${here}) is not the one this backup's sealed secrets were sealed with (${manifest.keyFingerprint}): ${how}, or they will not open`;
  return null;
}

function report(io: Io, o: RestoreOpts, dir: string, manifest: BackupManifest, r: Restored): void {
  const ok = r.checks.every((c) => c.ok) && r.missing.length === 0;
  const key = ok ? keyAdvice(dir, manifest) : null;
  if (o.json) {
    io.out(`${JSON.stringify({ restored: ok, dataDir: dir, from: resolve(o.from), manifest, organizations: r.checks, missing: r.missing, migratedFrom: r.migratedFrom, movedAside: r.movedAside, keyWarning: key }, null, 2)}\n`);
  } else {
    for (const c of r.checks) io.out(`${c.organization}: ${c.ok ? `intact, ${c.events} events, head #${c.seq} ${c.hash} as in the backup` : `MISMATCH: ${c.problem}`}\n`);
    for (const slug of r.missing) io.out(`${slug}: MISSING from the restored database, though the backup recorded it\n`);
    if (ok) {
      io.out(`restored ${resolve(o.from)} into ${dir}: the snapshot of ${manifest.createdAt} (changeledger ${manifest.productVersion}, schema ${manifest.schemaVersion}${r.migratedFrom !== null ? `, now migrated to ${loadMigrations().length}` : ''}); audit digests: ${digestsText(manifest)}\n`);
      if (r.movedAside) io.out(`the database that was there is kept in ${r.movedAside}; delete that folder once you no longer need it\n`);
    }
  }
  if (!ok) io.err(`changeledger: the restored database does not match the backup's manifest; nothing was changed in ${dir}\n`);
  if (key) io.err(`changeledger: ${key}\n`);
}
