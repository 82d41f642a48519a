import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { openDatabase, prepared, withLiterals, type Database } from './database.js';

const TRICKY = "it's a \\ back'slash, \"quoted\", ü 🚀, $1 and a\nnew line";

describeEachEngine('a transaction that ends with its last statement', (engine) => {
  let db: Database;
  const table = `tx_last_${Math.random().toString(36).slice(2)}`;
  beforeAll(async () => {
    db = engine.db();
    await db.exec(`CREATE TABLE ${table} (id text PRIMARY KEY, note text, n int, yes boolean)`);
  });
  afterAll(async () => db.exec(`DROP TABLE ${table}`));
  const ids = async () => (await db.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);

  it('on PostgreSQL, commits with that statement in one round trip, returns its rows, and refuses anything after it', async () => {
    if (engine.name === 'pglite') {
      // The embedded engine's COMMIT costs no round trip: it has no such method, and the caller uses query.
      await db.transaction(async (tx) => expect(tx.queryThenCommit).toBeUndefined());
      return;
    }
    const got = await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} (id) VALUES ('a1')`);
      const r = await tx.queryThenCommit!<{ id: string; note: string; n: number; yes: boolean }>(
        `INSERT INTO ${table} (id, note, n, yes) VALUES ($1, $2, $3::int, $4) RETURNING id, note, n, yes`, ['a2', TRICKY, 7, true]);
      await expect(tx.query('SELECT 1')).rejects.toThrow(/has committed/);
      return r.rows[0];
    });
    expect(got).toEqual({ id: 'a2', note: TRICKY, n: 7, yes: true });
    expect(await ids()).toEqual(['a1', 'a2']);
    // A failure of the callback after the commit reaches the caller, and the write stays.
    await expect(db.transaction(async (tx) => {
      await tx.queryThenCommit!(`INSERT INTO ${table} (id, note) VALUES ($1, $2)`, ['a3', null]);
      throw new Error('after the commit');
    })).rejects.toThrow('after the commit');
    expect(await ids()).toEqual(['a1', 'a2', 'a3']);
  });

  it('on PostgreSQL, when that statement fails, commits nothing of the transaction and the connection goes on working', async () => {
    if (engine.name === 'pglite') {
      await db.transaction(async (tx) => expect(tx.queryThenCommit).toBeUndefined());
      return;
    }
    await expect(db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} (id) VALUES ('b1')`);
      // The primary key is taken: the INSERT fails and the server skips the COMMIT sent with it.
      await tx.queryThenCommit!(`INSERT INTO ${table} (id) VALUES ($1)`, ['a1']);
    })).rejects.toThrow(/duplicate key/);
    expect(await ids()).not.toContain('b1');
    // Every connection of the pool is back in a clean state.
    await Promise.all(Array.from({ length: 12 }, (_, i) => db.transaction((tx) => tx.query(`INSERT INTO ${table} (id) VALUES ($1)`, [`c${String(i).padStart(2, '0')}`]))));
    expect((await ids()).filter((id) => id.startsWith('c'))).toHaveLength(12);
  });
});

describeEachEngine('a last statement used again and again', (engine) => {
  it('on PostgreSQL, is prepared once on its connection, executed by name, and prepared again after a schema change', async () => {
    if (engine.name === 'pglite') {
      await engine.db().transaction(async (tx) => expect(tx.queryThenCommit).toBeUndefined());
      return;
    }
    // One connection, so every use lands on the session the check looks at.
    const db = await openDatabase({ engine: 'postgres', url: engine.url(), poolSize: 1 });
    const table = `tx_prep_${Math.random().toString(36).slice(2)}`;
    try {
      await db.exec(`CREATE TABLE ${table} (id text PRIMARY KEY, note text)`);
      const insert = prepared(`INSERT INTO ${table} (id, note) VALUES ($1, $2) RETURNING *`);
      const write = (id: string) => db.transaction(async (tx) => (await tx.queryThenCommit!(insert, [id, TRICKY])).rows[0]);
      expect(await write('a')).toEqual({ id: 'a', note: TRICKY });
      expect(await write('b')).toEqual({ id: 'b', note: TRICKY });
      expect(await write('c')).toEqual({ id: 'c', note: TRICKY });
      const kept = async () => (await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement LIKE $1 ORDER BY prepare_time', [`PREPARE %${table}%`])).rows.map((r) => r.name);
      expect(await kept()).toEqual([expect.stringMatching(/^cl0_[0-9a-f]{24}_c$/)]);
      // A migration changes what RETURNING * gives: the server refuses the prepared statement, and the write runs again and answers.
      await db.exec(`ALTER TABLE ${table} ADD COLUMN more int NOT NULL DEFAULT 5`);
      expect(await write('d')).toEqual({ id: 'd', note: TRICKY, more: 5 });
      expect(await write('e')).toEqual({ id: 'e', note: TRICKY, more: 5 });
      expect((await kept()).at(-1)).toMatch(/^cl1_/);
      expect((await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]).toEqual({ n: 5 });
    } finally {
      await db.exec(`DROP TABLE IF EXISTS ${table}`);
      await db.close();
    }
  });
});

describeEachEngine('a transaction whose first statement goes with its BEGIN', (engine) => {
  it('on PostgreSQL, answers that statement, rolls it back with the rest, and leaves the connection working', async () => {
    if (engine.name === 'pglite') {
      await engine.db().transaction(async (tx) => expect(tx.queryThenCommit).toBeUndefined());
      return;
    }
    // One connection, so the statement is prepared on the session the check looks at.
    const db = await openDatabase({ engine: 'postgres', url: engine.url(), poolSize: 1 });
    const table = `tx_first_${Math.random().toString(36).slice(2)}`;
    try {
      await db.exec(`CREATE TABLE ${table} (id text PRIMARY KEY, note text, n int)`);
      const insert = prepared(`INSERT INTO ${table} (id, note, n) VALUES ($1, $2, $3::int) RETURNING id, note, n`);
      const ids = async () => (await db.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);
      // Named at its second use; from then on a transaction that starts with it sends BEGIN and it together.
      for (const id of ['a', 'b']) await db.transaction((tx) => tx.query(insert, [id, TRICKY, 1]));
      expect(await db.transaction(async (tx) => (await tx.query(insert, ['c', TRICKY, 2])).rows)).toEqual([{ id: 'c', note: TRICKY, n: 2 }]);
      const bySql = await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement LIKE $1', [`PREPARE %${table}%`]);
      expect(bySql.rows.map((r) => r.name)).toEqual([expect.stringMatching(/^cl0_[0-9a-f]{24}_c$/)]);
      // A later failure takes the first statement back with it.
      await expect(db.transaction(async (tx) => {
        await tx.query(insert, ['d', null, 3]);
        await tx.query(`INSERT INTO ${table} (id) VALUES ($1)`, ['a']);
      })).rejects.toThrow(/duplicate key/);
      // The first statement itself fails: nothing is written, and the connection goes on.
      await expect(db.transaction(async (tx) => {
        await tx.query(insert, ['a', null, 4]);
        await tx.query(`INSERT INTO ${table} (id) VALUES ($1)`, ['e']);
      })).rejects.toThrow(/duplicate key/);
      // So does a callback that fails after its first statement; one that sends nothing writes nothing.
      await expect(db.transaction(async (tx) => {
        await tx.query(insert, ['f', null, 5]);
        throw new Error('after the first statement');
      })).rejects.toThrow('after the first statement');
      expect(await db.transaction(async () => 'nothing sent')).toBe('nothing sent');
      expect(await ids()).toEqual(['a', 'b', 'c']);
      expect(await db.transaction(async (tx) => (await tx.query(insert, ['g', null, 6])).rowCount)).toBe(1);
      expect(await ids()).toEqual(['a', 'b', 'c', 'g']);
    } finally {
      await db.exec(`DROP TABLE IF EXISTS ${table}`);
      await db.close();
    }
  });
});

it('writes parameters in as literals that read back as given, and refuses what it cannot write', () => {
  expect(withLiterals('SELECT $1, $2::int, $3, $10', ['x', 3, null, ...Array(6).fill(null), false])).toBe("SELECT 'x', '3'::int, NULL, 'false'");
  // A quote is doubled; a backslash makes it an escape string, the backslash doubled.
  expect(withLiterals('SELECT $1', ["o'clock \\"])).toBe("SELECT  E'o''clock \\\\'");
  expect(() => withLiterals('SELECT $2', ['x'])).toThrow('statement refers to $2 but has 1 parameters');
  expect(() => withLiterals('SELECT $1', [{ a: 1 }])).toThrow('parameter $1 is a object');
  expect(() => withLiterals('SELECT $1', [Number.NaN])).toThrow(/parameter \$1 is a number/);
});
