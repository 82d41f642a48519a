import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { openDatabase, type Database, type Engine } from '../../src/platform/db/database.js';

export type TestEngine = {
  name: Engine;
  /** The open database of the current test file. */
  db(): Database;
  /** For PostgreSQL: the URL of this file's database (a second pool, a CLI process). */
  url(): string;
  /** For PGlite: this file's data directory. */
  dataDir(): string;
  /** A superuser connection: PGlite is one already; on PostgreSQL the cluster's admin. */
  superuser(): Database;
};

export function engineNames(): Engine[] {
  return inject('pgUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

/** A fresh, migrated database per test file and engine: a copied PGlite template or a cloned PostgreSQL template. */
function useEngine(name: Engine): TestEngine {
  let db: Database | null = null;
  let dir = '';
  let url = '';
  let dbName = '';
  beforeAll(async () => {
    if (name === 'pglite') {
      dir = mkdtempSync(join(tmpdir(), 'changeledger-test-'));
      cpSync(inject('pgliteTemplate'), dir, { recursive: true });
      db = await openDatabase({ engine: 'pglite', dataDir: dir });
    } else {
      const admin = inject('pgUrl')!;
      dbName = `cltest_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`CREATE DATABASE ${dbName} TEMPLATE changeledger_template`);
      await c.end();
      const u = new URL(admin);
      u.pathname = `/${dbName}`;
      url = u.toString();
      db = await openDatabase({ engine: 'postgres', url });
    }
  });
  afterAll(async () => {
    await db?.close();
    if (name === 'pglite') rmSync(dir, { recursive: true, force: true });
    else {
      const c = new pg.Client({ connectionString: inject('pgUrl')! });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    }
  });
  const get = () => {
    if (!db) throw new Error('the test database is not open yet (use it inside a test or hook)');
    return db;
  };
  return { name, db: get, url: () => url, dataDir: () => dir, superuser: get };
}

/** One suite, run once per engine: PGlite always, PostgreSQL when reachable. */
export function describeEachEngine(title: string, body: (engine: TestEngine) => void): void {
  for (const name of engineNames()) {
    describe(`${title} [${name}]`, () => body(useEngine(name)));
  }
}

/**
 * An empty PostgreSQL database of its own, for a test whose real processes (a server, the CLI)
 * migrate it themselves; `drop` ends their connections and removes it.
 */
export async function emptyPostgresDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = inject('pgUrl');
  if (!admin) throw new Error('no PostgreSQL server for this run');
  const name = `cltest_${label}_${Math.random().toString(36).slice(2, 10)}`;
  const asAdmin = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await asAdmin(`CREATE DATABASE ${name}`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
