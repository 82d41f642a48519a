import { randomBytes, createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { storeConfig } from '../config.js';
import type { BackupManifest } from '../platform/db/backup-archive.js';
import { badRequest } from '../platform/errors.js';
import { EXIT, runStoreOperation, withStoreOptions, type Io, type StoreOpts } from './common.js';
import type { ResultOf } from './operations.js';

/** What to run instead on a PostgreSQL server; docs/backups.md has the same commands. */
export const PG_DUMP_COMMAND = 'pg_dump -Fc -f changeledger.dump "$DATABASE_URL"';
export const PG_RESTORE_COMMAND = 'pg_restore --clean --if-exists --no-owner --exit-on-error -d "$DATABASE_URL" changeledger.dump';

/** backup and restore copy the embedded database's directory; a PostgreSQL server has its own tools. */
export function refuseOnPostgres(opts: StoreOpts, command: 'backup' | 'restore'): void {
  if (!storeConfig(opts).databaseUrl) return;
  throw badRequest(
    `${command} copies the embedded database (--data) only; with --database-url or DATABASE_URL the data is on a PostgreSQL server: ` +
      `back it up with \`${PG_DUMP_COMMAND}\` and restore it with \`${PG_RESTORE_COMMAND}\`, then check it with \`changeledger audit verify\` and \`changeledger audit digest\` (see docs/backups.md)`,
    'database-url',
  );
}

export function backupCommands(program: Command, io: Io, done: (code: number) => void): void {
  withStoreOptions(
    program
      .command('backup')
      .description('write a consistent copy of the embedded database to one file, also while `changeledger serve` runs on it (for PostgreSQL use pg_dump: docs/backups.md)'),
    { dataHelp: 'data directory of the embedded database (while `changeledger serve` runs on it, that server makes the snapshot and sends it here through its admin socket)' },
  )
    .requiredOption('--out <file>', 'the backup file to write, e.g. changeledger-$(date +%F).backup')
    .option('--force', 'replace --out when it exists')
    .option('--json', 'print the manifest as JSON')
    .action(async (o: StoreOpts & { out: string; force?: boolean; json?: boolean }) => {
      refuseOnPostgres(o, 'backup');
      const out = checkOut(o.out, o.force === true);
      const r = await writeBackup(o, out);
      if (o.json) io.out(`${JSON.stringify({ path: out, bytes: r.bytes, manifest: r.manifest }, null, 2)}\n`);
      else io.out(`${summary(out, r.bytes, r.manifest)}\n`);
      done(EXIT.ok);
    });
}

/** The absolute path to write, or a sentence naming --out. */
function checkOut(given: string, force: boolean): string {
  const out = resolve(given);
  const parent = dirname(out);
  if (!existsSync(parent) || !statSync(parent).isDirectory()) throw badRequest(`--out: the folder ${parent} does not exist`, 'out');
  if (existsSync(out)) {
    if (statSync(out).isDirectory()) throw badRequest(`--out: ${out} is a directory; name a file in it`, 'out');
    if (!force) throw badRequest(`--out: ${out} already exists; name another file, or add --force to replace it`, 'out');
  }
  return out;
}

type Written = { bytes: number; manifest: BackupManifest };

/**
 * Streams the backup into a temporary file beside `out` and renames it into place once it is
 * complete, checked and on disk: a failed or interrupted backup never leaves a partial file under
 * the name asked for.
 */
async function writeBackup(opts: StoreOpts, out: string): Promise<Written> {
  const partial = join(dirname(out), `.${basename(out)}.partial-${randomBytes(4).toString('hex')}`);
  // The file holds the whole database (token hashes, sealed secrets): only its owner reads it.
  const fd = openSync(partial, 'wx', 0o600);
  let closed = false;
  try {
    const hash = createHash('sha256');
    let bytes = 0;
    const onEvent = (event: unknown) => {
      const chunk = (event as { chunk?: unknown })?.chunk;
      if (typeof chunk !== 'string') return;
      const buf = Buffer.from(chunk, 'base64');
      writeSync(fd, buf);
      hash.update(buf);
      bytes += buf.length;
    };
    const result = await backupOperation(opts, onEvent);
    if (bytes !== result.bytes || hash.digest('hex') !== result.sha256) {
      throw new Error(`the backup arrived incomplete (${bytes} of ${result.bytes} bytes); nothing was written to ${out}`);
    }
    fsyncSync(fd);
    closeSync(fd);
    closed = true;
    renameSync(partial, out);
    // The rename itself on disk too.
    const dirFd = openSync(dirname(out), 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
    return { bytes: result.bytes, manifest: result.manifest as BackupManifest };
  } catch (err) {
    if (!closed) closeSync(fd);
    rmSync(partial, { force: true });
    throw err;
  }
}

/**
 * Runs `backup.create` on the store when this process can open it, else through the admin socket
 * of the server that holds it. Unlike the other store commands it never migrates first: a backup
 * taken before an upgrade must hold the schema as it was.
 */
async function backupOperation(opts: StoreOpts, onEvent: (event: unknown) => void): Promise<ResultOf<'backup.create'>> {
  const { dataDir } = storeConfig(opts);
  if (!existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))) {
    throw badRequest(`--data: there is no embedded database in ${dataDir} (no pgdata folder there); name the data directory that \`changeledger serve\` uses`, 'data');
  }
  return runStoreOperation(opts, 'backup.create', {}, onEvent, { migrate: false });
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Each chain's head as `audit digest` prints it: organisation, sequence, hash. */
export function digestsText(m: BackupManifest): string {
  return m.organizations.length === 0 ? 'no organisations yet' : m.organizations.map((o) => `${o.slug} #${o.seq} ${o.hash}`).join(', ');
}

function summary(out: string, bytes: number, m: BackupManifest): string {
  const by = m.source.madeBy === 'server' ? `by the running server (pid ${m.source.pid})` : 'by this command (no server was running)';
  return `backup written: ${out} (${formatBytes(bytes)}), snapshot of ${m.source.dataDir} at ${m.createdAt} ${by}, schema ${m.schemaVersion}; audit digests: ${digestsText(m)}`;
}
