import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { openDatabase, type Database } from './database.js';

describeEachEngine('the sessions the store opens', (engine) => {
  let db: Database;
  beforeAll(async () => {
    // A store of its own, so its pool makes fresh connections, several at once.
    db = engine.name === 'postgres' ? await openDatabase({ engine: 'postgres', url: engine.url(), poolSize: 4 }) : engine.db();
  });
  afterAll(async () => {
    if (engine.name === 'postgres') await db.close();
  });

  it('have PostgreSQL’s JIT off on every connection, from its first query on', async () => {
    if (engine.name !== 'postgres') {
      // PGlite is built without LLVM: its JIT setting reads on, but no query can ever be compiled.
      expect((await db.query<{ available: boolean }>('SELECT pg_jit_available() AS available')).rows[0]!.available).toBe(false);
      return;
    }
    const answers = await Promise.all(Array.from({ length: 8 }, () => db.query<{ jit: string }>('SHOW jit')));
    expect(answers.map((r) => r.rows[0]!.jit)).toEqual(Array(8).fill('off'));
    const inTx = await db.transaction(async (tx) => (await tx.query<{ jit: string }>('SHOW jit')).rows[0]!.jit);
    expect(inTx).toBe('off');
  });
});

describe('the embedded engine', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const open = async (sharedBuffersMb?: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-pglite-buffers-'));
    dirs.push(dir);
    return openDatabase({ engine: 'pglite', dataDir: dir, ...(sharedBuffersMb ? { sharedBuffersMb } : {}) });
  };
  const show = async (db: Database, name: string) => (await db.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name];

  it('keeps 16 MiB of shared buffers, or what CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB asks, and PGlite’s own start settings', async () => {
    const small = await open();
    try {
      expect(await show(small, 'shared_buffers')).toBe('16MB');
      // Two of PGlite's own start parameters, which ours must extend and not replace.
      expect(await show(small, 'max_worker_processes')).toBe('0');
      expect(await show(small, 'search_path')).toBe('public');
    } finally {
      await small.close();
    }
    const asked = await open(24);
    try {
      expect(await show(asked, 'shared_buffers')).toBe('24MB');
    } finally {
      await asked.close();
    }
  });
});

describe("the embedded engine's first start", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-pglite-first-'));
    dirs.push(dir);
    return dir;
  };
  /** Opens the directory, asks the database a question, and says what the start left beside it. */
  const openAndAsk = async (dir: string, n: number) => {
    const db = await openDatabase({ engine: 'pglite', dataDir: dir });
    try {
      expect((await db.query<{ n: number }>(`SELECT ${n} AS n`)).rows[0]!.n).toBe(n);
    } finally {
      await db.close();
    }
    expect(existsSync(join(dir, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith('pgdata.init-'))).toEqual([]);
  };

  it('makes the database under a name of its own and renames it to pgdata when whole, clearing what a killed start left', async () => {
    const dir = newDir();
    // What a start killed while its child made the directory leaves: an attempt of a process that is gone.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(join(dir, `pgdata.init-${gone}`));
    writeFileSync(join(dir, `pgdata.init-${gone}`, 'PG_VERSION'), '15\n');
    await openAndAsk(dir, 1);
  });

  it('fills an empty pgdata in place (a mount point cannot be renamed over), and with the lock held clears every attempt, even one whose pid runs', async () => {
    const dir = newDir();
    mkdirSync(join(dir, 'pgdata'));
    // Pid 1 always runs, and in a container it is the server itself: only the lock says the attempt is abandoned.
    mkdirSync(join(dir, 'pgdata.init-1'));
    await openAndAsk(dir, 2);
  });

  it('refuses a pgdata that is not empty and holds no database, saying what to do, and makes nothing', async () => {
    const dir = newDir();
    mkdirSync(join(dir, 'pgdata'));
    writeFileSync(join(dir, 'pgdata', 'postgresql.conf'), '');
    await expect(openDatabase({ engine: 'pglite', dataDir: dir })).rejects.toThrow(/pgdata is not empty but holds no database \(there is no PG_VERSION in it\).*Move it aside/);
    expect(readdirSync(join(dir, 'pgdata'))).toEqual(['postgresql.conf']);
    expect(readdirSync(dir).filter((f) => f.startsWith('pgdata.init-'))).toEqual([]);
    // The directory's lock was let go: the next start is not told another process holds it.
    await expect(openDatabase({ engine: 'pglite', dataDir: dir })).rejects.toThrow(/holds no database/);
  });
});
