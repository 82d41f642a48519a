import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { loadMigrations, migrate, pendingMigrations } from './migrate.js';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'changeledger-migrations-'));
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

it('refuses migration files that are misnamed or leave a gap in the numbering', () => {
  const misnamed = dirWith({ '0001_ok.sql': 'SELECT 1;', 'two.sql': 'SELECT 1;' });
  const gap = dirWith({ '0001_ok.sql': 'SELECT 1;', '0003_skip.sql': 'SELECT 1;' });
  try {
    expect(() => loadMigrations(misnamed)).toThrow(/must look like 0001_name\.sql: two\.sql/);
    expect(() => loadMigrations(gap)).toThrow(/expected 2, found 3/);
  } finally {
    rmSync(misnamed, { recursive: true });
    rmSync(gap, { recursive: true });
  }
});

describeEachEngine('the migration runner', (engine) => {
  it('applies pending migrations in order, records them, and rolls back a failing one whole', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    // The shipped migrations are applied already; these come after them.
    const shipped = loadMigrations();
    const n = shipped.length;
    const v = (i: number) => String(n + i).padStart(4, '0');
    const extra = (failing: boolean) => [
      ...shipped,
      { version: n + 1, name: `first_${suffix}`, sql: `CREATE TABLE t1_${suffix} (id int PRIMARY KEY);` },
      { version: n + 2, name: `second_${suffix}`, sql: `CREATE TABLE t2_${suffix} (id int PRIMARY KEY); ${failing ? 'SELECT no_such_function();' : ''}` },
    ];
    await expect(migrate(engine.db(), extra(true))).rejects.toThrow(/no_such_function/);
    const tables = async () => (await engine.db().query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE tablename LIKE '%${suffix}' ORDER BY 1`)).rows.map((r) => r.t);
    expect(await tables()).toEqual([`t1_${suffix}`]);
    expect((await pendingMigrations(engine.db(), extra(false))).map((m) => m.version)).toEqual([n + 2]);
    const fixed = await migrate(engine.db(), extra(false));
    expect(fixed.applied.map((m) => `${v(m.version - n)}`)).toEqual([v(2)]);
    expect(await tables()).toEqual([`t1_${suffix}`, `t2_${suffix}`]);
    expect((await migrate(engine.db(), extra(false))).applied).toEqual([]);
    const recorded = await engine.db().query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(recorded.rows.map((r) => r.version)).toEqual(Array.from({ length: n + 2 }, (_, i) => i + 1));
  });
});
