import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { BackupFileError, packBackup, sha256, unpackBackup, type BackupManifest } from '../platform/db/backup-archive.js';
import { acquireDataDirLock } from '../platform/db/data-dir-lock.js';
import { openDatabase } from '../platform/db/database.js';
import { cliContext, cliServices } from './common.js';
import { main } from './main.js';
import { runOperation } from './operations.js';

const EMAIL = 'ops@example.test';

/** Runs the command line in this process (no process start, no tsx): its exit code and output. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { io: { out: (t) => void (out += t), err: (t) => void (err += t), stdin: async () => '' } });
  return { code, out, err };
}

const manifestOf = (file: string) => unpackBackup(readFileSync(file)).manifest;

describe('changeledger backup and restore of the embedded database', () => {
  const root = mkdtempSync(join(tmpdir(), 'changeledger-backup-'));
  const source = join(root, 'source');
  const file = join(root, 'nightly.backup');
  let digestBefore: unknown;

  beforeAll(async () => {
    // No PostgreSQL from the environment: these commands must take --data.
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('CHANGELEDGER_SECRET_KEY', '');
    cpSync(inject('pgliteTemplate'), source, { recursive: true });
    // An organisation, its owner and a token, through the same operations the CLI runs: one open.
    const db = await openDatabase({ engine: 'pglite', dataDir: source });
    try {
      const s = cliServices(db, { data: source });
      await runOperation(s, cliContext(), 'users.add', { email: EMAIL, role: 'owner' }, () => undefined);
      await runOperation(s, cliContext(), 'tokens.create', { user: EMAIL, name: 'deploy-bot', scopes: ['audit:read'], expiresAt: null }, () => undefined);
      digestBefore = await runOperation(s, cliContext(), 'audit.digest', {}, () => undefined);
    } finally {
      await db.close();
    }
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(root, { recursive: true, force: true });
  });

  it('writes one file with a manifest of versions, schema level and each chain head, and prints where and what', async () => {
    const r = await cli('backup', '--out', file, '--data', source);
    expect(r.code, r.err).toBe(0);
    const heads = digestBefore as Array<{ organization: string; seq: number; hash: string }>;
    expect(r.out).toContain(`backup written: ${file} (`);
    expect(r.out).toContain(`${heads[0]!.organization} #${heads[0]!.seq} ${heads[0]!.hash}`);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    const m = manifestOf(file);
    expect(m).toMatchObject({ format: 'changeledger-backup', formatVersion: 1, engine: 'pglite', source: { madeBy: 'command line', dataDir: source } });
    expect(m.schemaVersion).toBeGreaterThan(30);
    expect(m.organizations.map((o) => ({ organization: o.slug, seq: o.seq, hash: o.hash }))).toEqual(heads.map((h) => ({ organization: h.organization, seq: h.seq, hash: h.hash })));
    // Only the finished file: no partial file is left beside it.
    expect(readdirSync(root).filter((f) => f.includes('partial'))).toEqual([]);
  }, 20_000);

  it('restores into a new directory: audit verify passes, audit digest equals the one before, the token is there', async () => {
    const target = join(root, 'restored');
    const r = await cli('restore', '--from', file, '--data', target);
    expect(r.code, r.err + r.out).toBe(0);
    expect(r.out).toMatch(/intact, \d+ events, head #\d+ [0-9a-f]{64} as in the backup/);
    expect(r.out).toContain(`restored ${file} into ${target}`);
    // What `audit verify`, `audit digest` and `tokens list` run, on one open of the restored store
    // (the end-to-end test runs the commands themselves).
    const db = await openDatabase({ engine: 'pglite', dataDir: target });
    try {
      const s = cliServices(db, { data: target });
      const run = (name: 'audit.verify' | 'audit.digest' | 'tokens.list') => runOperation(s, cliContext(), name, {}, () => undefined);
      expect(await run('audit.verify')).toEqual([expect.objectContaining({ ok: true, firstBrokenSeq: null })]);
      expect(await run('audit.digest')).toEqual(digestBefore);
      expect(((await run('tokens.list')) as Array<{ name: string }>).map((t) => t.name)).toContain('deploy-bot');
    } finally {
      await db.close();
    }
  }, 30_000);

  it('refuses to restore over a database unless --force, which moves the old one aside and never deletes it', async () => {
    const refused = await cli('restore', '--from', file, '--data', source);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/--data: .* already holds a database; .* add --force/);
    const forced = await cli('restore', '--from', file, '--data', source, '--force');
    expect(forced.code, forced.err + forced.out).toBe(0);
    const aside = readdirSync(source).filter((f) => f.startsWith('pgdata.before-restore-'));
    expect(aside).toHaveLength(1);
    expect(existsSync(join(source, aside[0]!, 'PG_VERSION'))).toBe(true);
    expect(forced.out).toContain(`kept in ${join(source, aside[0]!)}`);
    expect(existsSync(join(source, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(readdirSync(source).filter((f) => f.startsWith('.restore-'))).toEqual([]);
  }, 30_000);

  it('fails (exit 1) and changes nothing when the restored chains do not match the digests in the manifest', async () => {
    const { manifest, payload } = unpackBackup(readFileSync(file));
    const forged: BackupManifest = { ...manifest, organizations: manifest.organizations.map((o) => ({ ...o, hash: 'f'.repeat(64) })) };
    const bad = join(root, 'forged.backup');
    writeFileSync(bad, packBackup(forged, payload));
    const target = join(root, 'not-restored');
    const r = await cli('restore', '--from', bad, '--data', target);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/MISMATCH: the head is #\d+ [0-9a-f]{64}, the backup recorded #\d+ f{64}/);
    expect(r.err).toMatch(/does not match the backup's manifest; nothing was changed/);
    expect(existsSync(join(target, 'pgdata'))).toBe(false);
  }, 30_000);

  describe('refusals, before anything is opened', () => {
    it('an --out that exists, unless --force; an --out in a folder that does not exist', async () => {
      writeFileSync(join(root, 'taken.backup'), 'keep me');
      const r = await cli('backup', '--out', join(root, 'taken.backup'), '--data', source);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`--out: ${join(root, 'taken.backup')} already exists; name another file, or add --force to replace it`);
      expect(readFileSync(join(root, 'taken.backup'), 'utf8')).toBe('keep me');
      const nowhere = await cli('backup', '--out', join(root, 'no-such-folder', 'x.backup'), '--data', source);
      expect(nowhere.code).toBe(2);
      expect(nowhere.err).toContain(`--out: the folder ${join(root, 'no-such-folder')} does not exist`);
      const missing = await cli('backup', '--data', source);
      expect(missing.code).toBe(2);
      expect(missing.err).toMatch(/required option '--out <file>'/);
    });

    it('a data directory without a database to back up', async () => {
      const r = await cli('backup', '--out', join(root, 'empty.backup'), '--data', join(root, 'nothing-here'));
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/--data: there is no embedded database in .*nothing-here/);
    });

    it('a file that is not a backup, a truncated one, and one in a newer format', async () => {
      const notBackup = join(root, 'notes.txt');
      writeFileSync(notBackup, 'just some notes\n'.repeat(100));
      const a = await cli('restore', '--from', notBackup, '--data', join(root, 'x1'));
      expect(a.code).toBe(2);
      expect(a.err).toMatch(/--from: .*notes\.txt: this is not a changeledger backup/);

      const whole = readFileSync(file);
      const cut = join(root, 'cut.backup');
      writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
      const b = await cli('restore', '--from', cut, '--data', join(root, 'x2'));
      expect(b.code).toBe(2);
      expect(b.err).toMatch(/--from: .*cut\.backup: the file ends early: pgdata\.tar\.gz should hold \d+ bytes but only \d+ are there \(truncated\?\)/);

      const { manifest, payload } = unpackBackup(whole);
      const newer = join(root, 'newer.backup');
      writeFileSync(newer, packBackup({ ...manifest, formatVersion: 9, productVersion: '9.0.0' }, payload));
      const c = await cli('restore', '--from', newer, '--data', join(root, 'x3'));
      expect(c.code).toBe(2);
      expect(c.err).toMatch(/the backup is in format 9, made by changeledger 9\.0\.0; this changeledger reads format 1 and older: restore it with changeledger 9\.0\.0 or newer/);

      const ahead = join(root, 'ahead.backup');
      writeFileSync(ahead, packBackup({ ...manifest, schemaVersion: 9999, productVersion: '9.0.0' }, payload));
      const d = await cli('restore', '--from', ahead, '--data', join(root, 'x4'));
      expect(d.code).toBe(2);
      expect(d.err).toMatch(/schema is at version 9999.*restore it with changeledger 9\.0\.0 or newer/);
      for (const dir of ['x1', 'x2', 'x3', 'x4']) expect(existsSync(join(root, dir, 'pgdata'))).toBe(false);
    });

    it('a data directory another process holds, naming that process', async () => {
      const held = mkdtempSync(join(root, 'held-'));
      const lock = acquireDataDirLock(held, 'changeledger serve (test)');
      try {
        const r = await cli('restore', '--from', file, '--data', held);
        expect(r.code).toBe(3);
        expect(r.err).toContain(`cannot restore into ${held}: the embedded database in ${held} is in use by "changeledger serve (test)" (pid ${process.pid}`);
        expect(r.err).toMatch(/stop that server first, restore, then start it again/);
      } finally {
        lock.release();
      }
    });

    it('PostgreSQL: both commands refuse (exit 2) and name pg_dump and pg_restore', async () => {
      const url = 'postgres://changeledger@127.0.0.1:1/changeledger';
      const b = await cli('backup', '--out', join(root, 'pg.backup'), '--database-url', url);
      expect(b.code).toBe(2);
      expect(b.err).toContain('backup copies the embedded database (--data) only; with --database-url or DATABASE_URL the data is on a PostgreSQL server');
      expect(b.err).toContain('pg_dump -Fc -f changeledger.dump "$DATABASE_URL"');
      expect(b.err).toContain('(field: database-url)');
      vi.stubEnv('DATABASE_URL', url);
      try {
        const r = await cli('restore', '--from', file);
        expect(r.code).toBe(2);
        expect(r.err).toContain('pg_restore --clean --if-exists --no-owner --exit-on-error -d "$DATABASE_URL" changeledger.dump');
      } finally {
        vi.stubEnv('DATABASE_URL', '');
      }
      expect(existsSync(join(root, 'pg.backup'))).toBe(false);
    });
  });
});

describe('the backup file format', () => {
  const manifest: BackupManifest = {
    format: 'changeledger-backup', formatVersion: 1, productVersion: '0.1.0', schemaVersion: 3, engine: 'pglite', postgresVersion: '18', createdAt: '2026-01-01T00:00:00.000Z',
    source: { dataDir: '/data', madeBy: 'server', pid: 1 }, keyFingerprint: null, organizations: [],
    payload: { name: 'pgdata.tar.gz', bytes: 1500, sha256: '' },
  };
  const payload = Buffer.alloc(1500, 7);
  const whole = packBackup({ ...manifest, payload: { ...manifest.payload, sha256: sha256(payload) } }, payload);

  it('reads back what it wrote', () => {
    expect(unpackBackup(whole).payload.equals(payload)).toBe(true);
  });

  it('names every cut-off file as truncated or not a backup, never reads it as one', () => {
    for (let len = 0; len < whole.length - 1024; len += 97) {
      expect(() => unpackBackup(whole.subarray(0, len)), `cut at ${len}`).toThrow(BackupFileError);
      expect(() => unpackBackup(whole.subarray(0, len))).toThrow(/ends early|not a changeledger backup|empty/);
    }
  });

  it('names a damaged payload by its checksum', () => {
    const damaged = Buffer.from(whole);
    damaged[2048] = damaged[2048]! ^ 0xff;
    expect(() => unpackBackup(damaged)).toThrow(/does not match the checksum in its manifest/);
  });
});

