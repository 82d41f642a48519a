import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { join } from 'node:path';
import { pino } from 'pino';
import { compose, type Services } from '../compose.js';
import { checkpointName, storeConfig } from '../config.js';
import { systemClock } from '../platform/clock.js';
import { lazySealer, loadDataKey } from '../platform/crypto/sealed.js';
import { DataDirBusyError } from '../platform/db/data-dir-lock.js';
import type { Database } from '../platform/db/database.js';
import { openStore } from '../platform/db/open-store.js';
import { createOutboundClient } from '../platform/net/outbound.js';
import { AppError, badRequest } from '../platform/errors.js';
import { adminSocketPath, callAdminSocket, NoAdminSocketError, UnknownOperationError } from '../platform/admin/admin-socket.js';
import { operatorContext, operatorName, runOperation, type ArgsOf, type OperationName, type ResultOf } from './operations.js';
import type { AuditContext } from '../domains/ledger/index.js';

/** Exit codes every command shares. */
export const EXIT = { ok: 0, failed: 1, usage: 2, unavailable: 3 } as const;

export type Io = { out: (text: string) => void; err: (text: string) => void; stdin: () => Promise<string> };

export const processIo: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

/**
 * `viaServer`: the command also works while `changeledger serve` holds the embedded data
 * directory, by asking that server over its admin socket (serve and migrate need the store itself).
 */
export function withStoreOptions(cmd: Command, opts: { viaServer?: boolean; dataHelp?: string } = {}): Command {
  const data = opts.dataHelp ?? (opts.viaServer === false
    ? 'data directory of the embedded database'
    : 'data directory of the embedded database (while `changeledger serve` runs on it, that server does the work, through its admin socket)');
  return cmd
    .option('--data <dir>', data, process.env.CHANGELEDGER_DATA ?? './data')
    .option('--database-url <url>', 'PostgreSQL URL (default: $DATABASE_URL); when set, --data is not used');
}

export type StoreOpts = { data?: string; databaseUrl?: string };

/** Opens the store for one command and always closes it (releasing the data directory). */
export async function withStore<T>(opts: StoreOpts, command: string, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openStore(storeConfig(opts), `changeledger ${command}`);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/**
 * The same services the server composes, for one command on an open store: a command-line write
 * goes through the same use cases (and organisation set-up) as an API write.
 */
export function cliServices(db: Database, opts: StoreOpts): Services {
  const { dataDir } = storeConfig(opts);
  return compose({
    db, clock: systemClock, logger: pino({ level: 'silent' }),
    sealer: lazySealer(() => loadDataKey(process.env, join(dataDir, 'secret.key'))),
    outbound: { client: createOutboundClient(), allowPrivate: false },
    checkpoints: {
      name: checkpointName(process.env, process.env.CHANGELEDGER_PUBLIC_URL ?? null), pem: process.env.CHANGELEDGER_CHECKPOINT_KEY || null,
      witnessUrl: process.env.CHANGELEDGER_CHECKPOINT_WITNESS_URL || null,
    },
  });
}

export function cliContext(): AuditContext {
  return operatorContext(operatorName(), 'store');
}

/**
 * Runs one of the store commands' operations: on the store when it can be opened, else, when a
 * running server holds the embedded data directory, through that server's admin socket. Check the
 * arguments (`check`) before calling this: nothing is opened for a bad one.
 */
export async function runStoreOperation<N extends OperationName>(
  opts: StoreOpts, name: N, args: ArgsOf<N>, onEvent: (event: unknown) => void = () => undefined, open: { migrate?: boolean } = {},
): Promise<ResultOf<N>> {
  const cfg = storeConfig(opts);
  let db: Database;
  try {
    db = await openStore(cfg, `changeledger ${name.replace('.', ' ')}`, open);
  } catch (err) {
    if (!(err instanceof DataDirBusyError)) throw err;
    try {
      return (await callAdminSocket(adminSocketPath(cfg.dataDir), { op: name, args, operator: operatorName() }, onEvent)) as ResultOf<N>;
    } catch (e) {
      // No socket (a server older than the socket, or not a server at all): the lock's own message.
      if (e instanceof NoAdminSocketError) throw err;
      if (e instanceof UnknownOperationError) throw new ServerTooOldError(err, name);
      throw e;
    }
  }
  try {
    return (await runOperation(cliServices(db, opts), cliContext(), name, args, onEvent)) as ResultOf<N>;
  } finally {
    await db.close();
  }
}

/** The data directory is held by a server that cannot run this operation for us. */
export class ServerTooOldError extends Error {
  constructor(busy: DataDirBusyError, op: string) {
    super(`${busy.message.replace(/ Only one process.*$/, '')} That server is older than this command line and cannot run "${op.replace('.', ' ')}" for it: stop the server first, or upgrade it.`);
    this.name = 'ServerTooOldError';
  }
}

/** A file named on the command line, or a sentence that names it (exit 2) when it cannot be read. */
export function readInputFile(path: string): { text: string; bytes: number } {
  try {
    const text = readFileSync(path, 'utf8');
    return { text, bytes: Buffer.byteLength(text) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? `there is no file ${path}` :
      code === 'EACCES' || code === 'EPERM' ? `${path} cannot be read: permission denied` :
      code === 'EISDIR' ? `${path} is a directory, not a file` :
      `${path} cannot be read (${code ?? (err as Error).message})`;
    throw badRequest(why);
  }
}

/** Maps what a command threw to a message and an exit code. */
export function reportError(err: unknown, io: Io, program: string): number {
  if (err instanceof DataDirBusyError || err instanceof ServerTooOldError) {
    io.err(`${program}: ${err.message}\n`);
    return EXIT.unavailable;
  }
  if (err instanceof AppError) {
    io.err(`${program}: ${err.message}${err.field ? ` (field: ${err.field})` : ''}\n`);
    return EXIT.usage;
  }
  const code = (err as { code?: string }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '28P01' || code === '3D000') {
    io.err(`${program}: cannot reach the database: ${(err as Error).message}\n`);
    return EXIT.unavailable;
  }
  io.err(`${program}: ${err instanceof Error ? err.message : String(err)}\n`);
  return EXIT.failed;
}

export function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}
