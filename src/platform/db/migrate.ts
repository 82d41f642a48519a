import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsDir } from '../paths.js';
import type { Database } from './database.js';

export type Migration = { version: number; name: string; sql: string };
export type MigrateResult = { applied: Migration[]; current: number };

const FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/;
/** Serialises concurrent migrators on one PostgreSQL (several servers starting at once). */
const MIGRATION_LOCK = 7_346_102_991;

export function loadMigrations(dir = migrationsDir): Migration[] {
  const list = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => {
      const m = FILE.exec(f);
      if (!m) throw new Error(`migration file name must look like 0001_name.sql: ${f}`);
      return { version: Number(m[1]), name: m[2]!, sql: readFileSync(join(dir, f), 'utf8') };
    })
    .sort((a, b) => a.version - b.version);
  list.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered without gaps: expected ${i + 1}, found ${m.version}`);
  });
  return list;
}

/** Applies pending migrations in order, each in its own transaction with its bookkeeping row. */
export async function migrate(db: Database, migrations = loadMigrations()): Promise<MigrateResult> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: Migration[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (seen.rows.length > 0) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m);
  }
  const cur = await db.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
  return { applied, current: cur.rows[0]?.v ?? 0 };
}

export async function pendingMigrations(db: Database, migrations = loadMigrations()): Promise<Migration[]> {
  const exists = await db.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t");
  if (!exists.rows[0]?.t) return migrations;
  const done = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  const have = new Set(done.rows.map((r) => r.version));
  return migrations.filter((m) => !have.has(m.version));
}
