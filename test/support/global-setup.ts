import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { findPostgresBin, startCluster, type Cluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string | null;
    pgliteTemplate: string;
  }
}

export const PG_TEMPLATE_DB = 'changeledger_template';

/**
 * Before any test: a migrated PGlite directory to copy per test file, and a PostgreSQL with a
 * migrated template database (the one in CHANGELEDGER_TEST_DATABASE_URL, or a throw-away cluster
 * when the server binaries are installed). Prints which engines the run covers.
 */
export default async function setup(project: TestProject) {
  const pgliteTemplate = mkdtempSync(join(tmpdir(), 'changeledger-pglite-template-'));
  const lite = await openDatabase({ engine: 'pglite', dataDir: pgliteTemplate, lock: false });
  await migrate(lite);
  await lite.close();

  let cluster: Cluster | null = null;
  let pgUrl: string | null = process.env.CHANGELEDGER_TEST_DATABASE_URL ?? null;
  let how = pgUrl ? 'CHANGELEDGER_TEST_DATABASE_URL' : '';
  if (!pgUrl) {
    const bin = findPostgresBin();
    if (bin) {
      cluster = await startCluster(bin);
      pgUrl = cluster.url;
      how = `throw-away cluster from ${bin}`;
    }
  }
  if (pgUrl) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${PG_TEMPLATE_DB}`);
    await admin.query(`CREATE DATABASE ${PG_TEMPLATE_DB}`);
    await admin.end();
    const u = new URL(pgUrl);
    u.pathname = `/${PG_TEMPLATE_DB}`;
    const tdb = await openDatabase({ engine: 'postgres', url: u.toString(), poolSize: 1 });
    await migrate(tdb);
    await tdb.close();
  }

  const engines = pgUrl ? `pglite and postgres (${how})` : 'pglite only: no PostgreSQL reachable (set CHANGELEDGER_TEST_DATABASE_URL or install postgresql)';
  process.stdout.write(`\nchangeledger tests: storage engines covered: ${engines}\n\n`);
  if (!pgUrl && process.env.CI) throw new Error('CI must cover both storage engines, but no PostgreSQL is reachable');

  project.provide('pgUrl', pgUrl);
  project.provide('pgliteTemplate', pgliteTemplate);

  return async () => {
    rmSync(pgliteTemplate, { recursive: true, force: true });
    if (pgUrl && !cluster) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      const left = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'cltest_%' OR datname = $1", [PG_TEMPLATE_DB]);
      for (const r of left.rows) await admin.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`);
      await admin.end();
    }
    cluster?.stop();
    process.stdout.write(`\nchangeledger tests: storage engines covered: ${engines}\n`);
  };
}
