import { hostname, userInfo } from 'node:os';
import type { Command } from 'commander';
import { join } from 'node:path';
import { pino } from 'pino';
import { compose, type Services } from '../compose.js';
import { storeConfig } from '../config.js';
import { systemClock } from '../platform/clock.js';
import { lazySealer, loadDataKey } from '../platform/crypto/sealed.js';
import { DataDirBusyError } from '../platform/db/data-dir-lock.js';
import type { Database } from '../platform/db/database.js';
import { openStore } from '../platform/db/open-store.js';
import { createOutboundClient } from '../platform/net/outbound.js';
import { AppError } from '../platform/errors.js';
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

export function withStoreOptions(cmd: Command): Command {
  return cmd
    .option('--data <dir>', 'data directory of the embedded database', process.env.CHANGELEDGER_DATA ?? './data')
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
  });
}

export function cliContext(): AuditContext {
  let who = 'unknown';
  try {
    who = userInfo().username;
  } catch {
    // no passwd entry (containers): keep 'unknown'
  }
  return { actor: { kind: 'system', id: null, name: `cli:${who}@${hostname()}` }, source: 'cli' };
}

/** Maps what a command threw to a message and an exit code. */
export function reportError(err: unknown, io: Io, program: string): number {
  if (err instanceof DataDirBusyError) {
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
