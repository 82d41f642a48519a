import type { StoreConfig } from '../../config.js';
import { openDatabase, type Database } from './database.js';
import { migrate, pendingMigrations } from './migrate.js';

/** Opens the configured engine and brings its schema up to date. */
export async function openStore(cfg: StoreConfig, holder: string, opts: { migrate?: boolean } = {}): Promise<Database> {
  const db = cfg.databaseUrl
    ? await openDatabase({ engine: 'postgres', url: cfg.databaseUrl, poolSize: cfg.poolSize, preparedStatements: cfg.preparedStatements })
    : await openDatabase({ engine: 'pglite', dataDir: cfg.dataDir, holder, sharedBuffersMb: cfg.pgliteSharedBuffersMb, preparedStatements: cfg.preparedStatements });
  try {
    // Checked first, so a role without DDL rights can run an up-to-date schema.
    if (opts.migrate !== false && (await pendingMigrations(db)).length > 0) await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
