import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { PG_DUMP_COMMAND, PG_RESTORE_COMMAND } from '../../src/cli/backup.js';
import { cliContext, cliServices } from '../../src/cli/common.js';
import { main } from '../../src/cli/main.js';
import { runOperation } from '../../src/cli/operations.js';
import { unpackBackup } from '../../src/platform/db/backup-archive.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { engineNames } from '../support/engines.js';
import { PG_TEMPLATE_DB } from '../support/global-setup.js';
import { findPostgresBin } from '../support/postgres-cluster.js';
import { startServer } from '../support/spawn-server.js';

const EMAIL = 'lead@example.test';
/** The command line in this process: only the server needs a process of its own. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { io: { out: (t) => void (out += t), err: (t) => void (err += t), stdin: async () => '' } });
  return { code, out, err };
}

type Head = { organization: string; seq: number; hash: string };
const heads = (json: string) => (JSON.parse(json) as Head[]).map(({ organization, seq, hash }) => ({ organization, seq, hash }));

describe('changeledger backup while `changeledger serve` runs and takes writes [pglite]', () => {
  const root = mkdtempSync(join(tmpdir(), 'changeledger-backup-e2e-'));
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(root, { recursive: true, force: true });
  });

  it('the server makes the snapshot: every write acknowledged before it is restored, the chain verifies, the digest is the one recorded', async () => {
    vi.stubEnv('DATABASE_URL', '');
    const data = join(root, 'data');
    cpSync(inject('pgliteTemplate'), data, { recursive: true });
    const server = await startServer({ dataDir: data, env: { DATABASE_URL: '' }, args: ['--org-name', 'Platform team', '--owner-email', EMAIL] });
    try {
      const link = /\/signin\/link#([A-Za-z0-9_-]{43})/.exec(server.stderr())?.[1];
      const signIn = await fetch(`${server.url}/api/session/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: link }) });
      expect(signIn.status).toBe(200);
      const session = { cookie: signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), 'x-csrf-token': ((await signIn.json()) as { csrfToken: string }).csrfToken };

      // A writer that keeps creating tokens through the API, before, during and after the backup.
      const acked: string[] = [];
      let stop = false;
      const writer = (async () => {
        for (let i = 0; !stop; i++) {
          const res = await fetch(`${server.url}/api/tokens`, { method: 'POST', headers: { 'content-type': 'application/json', ...session }, body: JSON.stringify({ name: `writer-${i}`, scopes: ['audit:read'] }) });
          expect(res.status).toBe(201);
          acked.push(`writer-${i}`);
          // A steady stream, not a flood: the point is writes in flight, not a CPU race with the backup.
          await new Promise((r) => setTimeout(r, 25));
        }
      })();
      while (acked.length < 5) await new Promise((r) => setTimeout(r, 20));
      const before = [...acked];
      const file = join(root, 'online.backup');
      const backup = await cli('backup', '--out', file, '--data', data);
      const duringAndAfter = acked.length;
      while (acked.length < duringAndAfter + 2) await new Promise((r) => setTimeout(r, 20));
      stop = true;
      await writer;
      expect(backup.code, backup.err).toBe(0);
      expect(backup.out).toContain(`by the running server (pid ${server.pid})`);
      const { manifest } = unpackBackup(readFileSync(file));
      expect(manifest.source).toMatchObject({ madeBy: 'server', pid: server.pid, dataDir: data });
      expect(manifest.organizations).toHaveLength(1);
      // The server kept answering: writes went on after the backup began.
      expect(acked.length).toBeGreaterThan(before.length);

      // Restore refuses the directory the server holds, naming it.
      const held = await cli('restore', '--from', file, '--data', data, '--force');
      expect(held.code).toBe(3);
      expect(held.err).toContain(`pid ${server.pid}`);

      const target = join(root, 'restored');
      const restored = await cli('restore', '--from', file, '--data', target);
      expect(restored.code, restored.err + restored.out).toBe(0);
      expect(restored.out).toMatch(/intact, \d+ events, head #\d+ [0-9a-f]{64} as in the backup/);
      // audit verify on the restored directory: intact, and its heads are the digests recorded at backup time.
      const verify = await cli('audit', 'verify', '--json', '--data', target);
      expect(verify.code, verify.out + verify.err).toBe(0);
      const verified = JSON.parse(verify.out) as Array<{ organization: string; ok: boolean; head: { seq: number; hash: string } }>;
      expect(verified.map((v) => ({ organization: v.organization, ok: v.ok, seq: v.head.seq, hash: v.head.hash }))).toEqual(
        manifest.organizations.map((o) => ({ organization: o.slug, ok: true, seq: o.seq, hash: o.hash })),
      );
      const tokens = await cli('tokens', 'list', '--json', '--data', target);
      const names = (JSON.parse(tokens.out) as Array<{ name: string }>).map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(before));
      // Whatever the copy holds is a prefix of what was acknowledged: nothing half-written.
      expect(acked.slice(0, names.length)).toEqual([...names].sort((a, b) => Number(a.split('-')[1]) - Number(b.split('-')[1])));
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 90_000);
});

for (const engine of engineNames().filter((e) => e === 'postgres')) {
  describe(`the documented pg_dump -Fc / pg_restore recipe [${engine}]`, () => {
    const admin = () => inject('pgUrl')!;
    const names = [`cltest_bk_${process.pid}_src`, `cltest_bk_${process.pid}_dst`];
    const urlOf = (name: string) => {
      const u = new URL(admin());
      u.pathname = `/${name}`;
      return u.toString();
    };
    const asAdmin = async (sql: string) => {
      const c = new pg.Client({ connectionString: admin() });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end();
      }
    };
    const dir = mkdtempSync(join(tmpdir(), 'changeledger-pgdump-'));
    afterAll(async () => {
      for (const n of names) await asAdmin(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
      rmSync(dir, { recursive: true, force: true });
    });

    it('round-trips a database: audit verify passes and audit digest is the same before and after', async () => {
      await asAdmin(`CREATE DATABASE ${names[0]} TEMPLATE ${PG_TEMPLATE_DB}`);
      await asAdmin(`CREATE DATABASE ${names[1]}`);
      const [src, dst] = names.map(urlOf) as [string, string];
      const db = await openDatabase({ engine: 'postgres', url: src });
      try {
        const s = cliServices(db, { databaseUrl: src });
        await runOperation(s, cliContext(), 'users.add', { email: EMAIL, role: 'owner' }, () => undefined);
        await runOperation(s, cliContext(), 'tokens.create', { user: EMAIL, name: 'gitlab-ci', scopes: ['changes:write'], expiresAt: null }, () => undefined);
      } finally {
        await db.close();
      }
      const before = await cli('audit', 'digest', '--json', '--database-url', src);
      expect(before.code, before.err).toBe(0);

      // pg_dump and pg_restore beside initdb, found the way the test cluster finds it.
      const bin = join(realpathSync(join(findPostgresBin()!, 'initdb')), '..');
      const sh = (command: string, url: string) => promisify(execFile)('sh', ['-c', command], { cwd: dir, env: { ...process.env, DATABASE_URL: url, PATH: `${bin}:${process.env.PATH}` } });
      await sh(PG_DUMP_COMMAND, src);
      await sh(PG_RESTORE_COMMAND, dst);

      const verify = await cli('audit', 'verify', '--database-url', dst);
      expect(verify.code, verify.out + verify.err).toBe(0);
      const after = await cli('audit', 'digest', '--json', '--database-url', dst);
      expect(heads(after.out)).toEqual(heads(before.out));
      expect(heads(after.out)[0]!.seq).toBeGreaterThan(1);
      const tokens = await cli('tokens', 'list', '--json', '--database-url', dst);
      expect((JSON.parse(tokens.out) as Array<{ name: string }>).map((t) => t.name)).toContain('gitlab-ci');
    }, 60_000);
  });
}
