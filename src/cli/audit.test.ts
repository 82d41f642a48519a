import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase, engineNames } from '../../test/support/engines.js';
import { createOwner, runCli } from '../../test/support/spawn-server.js';
import { systemClock } from '../platform/clock.js';
import { openDatabase, type Database } from '../platform/db/database.js';
import { appendAuditEvent } from '../domains/ledger/index.js';
import { cliContext } from './common.js';

/** A new embedded data directory, or a new PostgreSQL database, for the CLI processes of one engine. */
async function freshStore(engine: 'pglite' | 'postgres'): Promise<{ dataDir: string; args: string[]; open(): Promise<Database>; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-audit-cli-'));
  if (engine === 'pglite') {
    return { dataDir, args: ['--data', dataDir], open: () => openDatabase({ engine: 'pglite', dataDir, lock: false }), drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const pgdb = await emptyPostgresDatabase('audit');
  return {
    dataDir, args: ['--data', dataDir, '--database-url', pgdb.url],
    open: () => openDatabase({ engine: 'postgres', url: pgdb.url }),
    drop: async () => {
      await pgdb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

for (const engine of engineNames()) describe(`changeledger audit verify on a broken chain [${engine}]`, { timeout: 120_000 }, () => {
  let store: Awaited<ReturnType<typeof freshStore>>;
  beforeAll(async () => {
    store = await freshStore(engine);
    await createOwner(store.dataDir, 'ops@example.test', 'correct horse battery staple', engine === 'postgres' ? store.args.slice(2) : []);
    // 60 events, the 59th edited behind the trigger's back (as a superuser can): the test's own connection.
    const db = await store.open();
    try {
      const { rows } = await db.query<{ id: string }>('SELECT id FROM organizations');
      const orgId = rows[0]!.id;
      const seq = async () => Number((await db.query<{ seq: string }>('SELECT seq FROM audit_heads WHERE org_id = $1', [orgId])).rows[0]!.seq);
      while ((await seq()) < 60) await db.transaction((tx) => appendAuditEvent(tx, systemClock, cliContext(), { orgId, action: 'flag.updated', target: { type: 'flag', id: 'x' } }));
      await db.exec('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
      await db.query("UPDATE audit_log SET actor_name = 'mallory' WHERE org_no = (SELECT org_no FROM audit_heads WHERE org_id = $1) AND seq = 59", [orgId]);
      await db.exec('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
    } finally {
      await db.close();
    }
  }, 120_000);
  afterAll(async () => store?.drop());

  it('--json counts the 59 events it checked, up to and including the broken one, and exits 1', async () => {
    const r = await runCli(['audit', 'verify', '--json', ...store.args]);
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ ok: false, checked: 59, firstBrokenSeq: 59 })]);
    const human = await runCli(['audit', 'verify', ...store.args]);
    expect(human.stdout).toMatch(/BROKEN at event 59 \(59 events checked\): event 59 was altered/);
  });
});
