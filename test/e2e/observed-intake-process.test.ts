import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSealer } from '../../src/platform/crypto/sealed.js';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { emptyPostgresDatabase, engineNames } from '../support/engines.js';
import { createOwner, startServer } from '../support/spawn-server.js';

const PASSWORD = 'correct horse battery staple';
const KEY = randomBytes(32);

type Target = { args: string[]; env: Record<string, string>; dataDir: string; open(): Promise<Database>; cleanup(): Promise<void> };

async function freshTarget(engine: 'pglite' | 'postgres'): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-intake-e2e-'));
  // The server seals with this key, so the test can seal the connection's secret the same way.
  const env = { CHANGELEDGER_SECRET_KEY: KEY.toString('base64') };
  if (engine === 'pglite') {
    return { args: [], env, dataDir, open: () => openDatabase({ engine: 'pglite', dataDir, lock: false }), cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const pgdb = await emptyPostgresDatabase('intake');
  return {
    args: ['--database-url', pgdb.url], env: { ...env, DATABASE_URL: pgdb.url }, dataDir, open: () => openDatabase({ engine: 'postgres', url: pgdb.url }),
    cleanup: async () => {
      await pgdb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

for (const engine of engineNames()) {
  describe(`the intake of a real server process [${engine}]`, () => {
    const targets: Target[] = [];
    afterAll(async () => {
      for (const t of targets) await t.cleanup();
    });

    it('a 2xx means committed: every change it acknowledged is there after kill -9 right after the answer', async () => {
      const target = await freshTarget(engine);
      targets.push(target);
      await createOwner(target.dataDir, 'ops@example.test', PASSWORD, target.args);
      const secret = randomBytes(24).toString('base64url');
      const sourceId = `src_${randomBytes(16).toString('hex')}`;
      const db = await target.open();
      try {
        const org = (await db.query<{ id: string }>('SELECT id FROM organizations')).rows[0]!.id;
        await db.query(
          `INSERT INTO change_sources (id, org_id, kind, name, secret_sealed, secret_hash, created_at, updated_at) VALUES ($1, $2, 'webhook', 'deploy bot', $3, $4, now(), now())`,
          [sourceId, org, createSealer(KEY).seal(secret), createHash('sha256').update(secret).digest('hex')]);
      } finally {
        await db.close();
      }
      const server = await startServer({ dataDir: target.dataDir, env: target.env, args: target.args });
      const acknowledged: string[] = [];
      try {
        for (let i = 0; i < 12; i++) {
          const res = await fetch(`${server.pipelineUrl}/v1/changes/webhook/${sourceId}`, {
            method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
            body: JSON.stringify({ id: `deploy-${i}`, title: `deploy checkout ${i}`, kind: 'deploy' }),
          });
          expect(res.status, await res.clone().text()).toBe(200);
          expect(((await res.json()) as { recorded: number }).recorded).toBe(1);
          acknowledged.push(`${sourceId}/deploy-${i}`);
        }
      } finally {
        // No graceful shutdown: what was answered must already be on disk.
        await server.kill9();
      }
      const after = await target.open();
      try {
        const ids = (await after.query<{ event_id: string }>('SELECT event_id FROM observed_changes WHERE source_id = $1', [sourceId])).rows.map((r) => r.event_id);
        expect(ids.sort()).toEqual([...acknowledged].sort());
        const audited = await after.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_events WHERE action = 'change_source.received' AND target_id = $1", [sourceId]);
        expect(Number(audited.rows[0]!.n)).toBe(acknowledged.length);
      } finally {
        await after.close();
      }
    }, 240_000);
  });
}
