/** Opens the two storage engines for a benchmark, each on a fresh, migrated, throw-away database. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database, type Engine, type OpenOptions } from '../src/platform/db/database.js';
import { migrate } from '../src/platform/db/migrate.js';
import { packageRoot } from '../src/platform/paths.js';
import { findPostgresBin, startCluster } from '../test/support/postgres-cluster.js';
import { Cleanup, say } from './bench-support.js';

export type BenchEngine = {
  name: Engine;
  db: Database;
  /** For the summary: what exactly was measured. */
  version: string;
  /** Where it ran and the settings that move the figures (durability, cache size). */
  notes: string[];
  /** How another process opens the same database (PGlite's only once this one has closed it). */
  reopen: OpenOptions;
};

export type Skipped = { name: Engine; skipped: string };

export const BENCH_URL_VAR = 'CHANGELEDGER_BENCH_DATABASE_URL';

/** The installed PGlite, read from its package.json: the lock file pins it, but a README must say which. */
export function pgliteVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export async function openPgliteEngine(cleanup: Cleanup): Promise<BenchEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'changeledger-bench-pglite-'));
  cleanup.add(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  const reopen: OpenOptions = { engine: 'pglite', dataDir: dir, holder: 'changeledger-bench' };
  const db = await openDatabase(reopen);
  cleanup.add('close PGlite', () => db.close());
  await migrate(db);
  const v = await db.query<{ v: string }>("SELECT current_setting('server_version') AS v");
  return { name: 'pglite', db, version: `PGlite ${pgliteVersion()} (PostgreSQL ${v.rows[0]?.v ?? '?'} in WebAssembly)`, notes: [`data directory ${dir}`], reopen };
}

/**
 * PostgreSQL from CHANGELEDGER_BENCH_DATABASE_URL (a server you point at; the benchmark makes and
 * drops its own database there, because a million audit events can never be deleted from a
 * database that keeps them) or else a throw-away cluster from the installed server binaries.
 * Answers why it was skipped when neither is possible; a URL that was given but fails is an error.
 */
/** poolSize: 1 by default (one writer, one session); a benchmark of the server's own concurrency asks for more. */
export async function openPostgresEngine(cleanup: Cleanup, opts: { poolSize?: number } = {}): Promise<BenchEngine | Skipped> {
  const poolSize = opts.poolSize ?? 1;
  let adminUrl = process.env[BENCH_URL_VAR];
  let origin = BENCH_URL_VAR;
  if (!adminUrl) {
    const bin = findPostgresBin();
    if (!bin) return { name: 'postgres', skipped: `${BENCH_URL_VAR} is not set and no PostgreSQL server binaries (initdb, pg_ctl) were found on PATH or in /usr/lib/postgresql` };
    try {
      const cluster = await startCluster(bin);
      cleanup.add('stop the throw-away PostgreSQL cluster', () => cluster.stop());
      adminUrl = cluster.url;
      origin = `throw-away cluster from ${bin} (fsync=off, as the test suite starts it)`;
    } catch (err) {
      const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
      return { name: 'postgres', skipped: `${BENCH_URL_VAR} is not set and starting a throw-away cluster from ${bin} failed: ${detail}` };
    }
  }

  const dbName = `clbench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${dbName}`);
  } finally {
    await admin.end();
  }
  cleanup.add(`drop database ${dbName}`, async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const reopen: OpenOptions = { engine: 'postgres', url: u.toString(), poolSize: 1 };
  const db = await openDatabase({ ...reopen, poolSize });
  cleanup.add('close the PostgreSQL pool', () => db.close());
  await migrate(db);
  const s = await db.query<{ name: string; setting: string }>(
    `SELECT name, current_setting(name) AS setting FROM unnest(ARRAY['server_version', 'shared_buffers', 'fsync', 'synchronous_commit', 'work_mem', 'random_page_cost', 'jit']) AS name`,
  );
  const setting = (n: string) => s.rows.find((r) => r.name === n)?.setting ?? '?';
  return {
    name: 'postgres',
    db,
    version: `PostgreSQL ${setting('server_version')}`,
    reopen,
    notes: [
      `${origin}, scratch database ${dbName} on ${db.location.replace(/\/[^/]*$/, '')}${poolSize > 1 ? `, pool of ${poolSize}` : ''}`,
      ['shared_buffers', 'fsync', 'synchronous_commit', 'work_mem', 'random_page_cost', 'jit'].map((n) => `${n}=${setting(n)}`).join(' '),
    ],
  };
}

/**
 * Runs a benchmark on each engine in turn. Each engine is torn down before the next starts, so one's
 * memory and page cache (a million-row PGlite) do not weigh on the other's figures.
 */
export async function onEachEngine<T>(names: readonly Engine[], bench: (engine: BenchEngine) => Promise<T>): Promise<Array<T | Skipped>> {
  const outcomes: Array<T | Skipped> = [];
  for (const name of names) {
    const cleanup = new Cleanup();
    try {
      const engine = name === 'pglite' ? await openPgliteEngine(cleanup) : await openPostgresEngine(cleanup);
      if ('skipped' in engine) {
        say(`\n== ${name}: SKIPPED - ${engine.skipped} ==`);
        outcomes.push(engine);
        continue;
      }
      outcomes.push(await bench(engine));
    } finally {
      await cleanup.run();
    }
  }
  return outcomes;
}
