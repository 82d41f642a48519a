import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { MAX_PREPARED_STATEMENTS, openDatabase, prepared, statementNamer, type Database } from './database.js';

describe('the statement namer', () => {
  it('names a text at its second use, the same name each time, and stops at its limit', () => {
    const nameOf = statementNamer(2);
    expect(nameOf('SELECT $1')).toBeUndefined();
    const name = nameOf('SELECT $1');
    expect(name).toMatch(/^cl0_[0-9a-f]{24}$/);
    expect(nameOf('SELECT $1')).toBe(name);
    nameOf('SELECT $1 + 1');
    expect(nameOf('SELECT $1 + 1')).toMatch(/^cl0_/);
    // Two texts have names: a third is used, often, without one.
    for (let i = 0; i < 5; i++) expect(nameOf('SELECT $1 + 2')).toBeUndefined();
    nameOf.renew(name);
    expect(nameOf('SELECT $1')).toBeUndefined();
    const renewed = nameOf('SELECT $1');
    expect(renewed).toMatch(/^cl1_/);
    // A second request refused for the old generation's statement keeps the names already renewed.
    nameOf.renew(name);
    expect(nameOf('SELECT $1')).toBe(renewed);
    expect(MAX_PREPARED_STATEMENTS).toBeGreaterThanOrEqual(100);
  });
});

// PostgreSQL only: its pool, its protocol-level names and a second process (the embedded engine is covered below).
describeEachEngine('prepared statements on PostgreSQL', (engine) => {
  const table = `prep_${Math.random().toString(36).slice(2)}`;
  let one: Database | null = null;
  beforeAll(async () => {
    if (engine.name !== 'postgres') return;
    // One connection, so the statements prepared are all on the session the checks look at.
    one = await openDatabase({ engine: 'postgres', url: engine.url(), poolSize: 1 });
    await one.exec(`CREATE TABLE ${table} (id text PRIMARY KEY)`);
    await one.query(`INSERT INTO ${table} VALUES ($1)`, ['a']);
  });
  afterAll(async () => {
    if (!one) return;
    await one.exec(`DROP TABLE ${table}`);
    await one.close();
  });
  const kept = async (db: Database) => (await db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map((r) => r.statement);
  const namesOf = async (db: Database, text: string) =>
    (await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement = $1 ORDER BY prepare_time', [text])).rows.map((r) => r.name.slice(0, 4));

  it('are kept for what runs more than once, and survive a schema change that alters a SELECT *', async () => {
    if (engine.name !== 'postgres') {
      expect(engine.db().engine).toBe('pglite');
      return;
    }
    const db = one!;
    // Only a statement marked for it is kept: an unmarked one is planned for its values every time.
    const unmarked = `SELECT id FROM ${table} WHERE id LIKE $1`;
    for (let i = 0; i < 3; i++) await db.query(unmarked, ['a%']);
    expect(await kept(db)).not.toContain(unmarked);
    const select = prepared(`SELECT * FROM ${table} WHERE id = $1`);
    expect(await db.query(select, ['a'])).toMatchObject({ rows: [{ id: 'a' }] });
    expect(await kept(db)).not.toContain(select);
    await db.query(select, ['a']);
    expect(await kept(db)).toContain(select);
    // A migration of another process adds a column: the server refuses the prepared statement's
    // old shape, and the statement is prepared again, outside a transaction and inside one.
    const other = await openDatabase({ engine: 'postgres', url: engine.url(), poolSize: 1, preparedStatements: false });
    try {
      await other.exec(`ALTER TABLE ${table} ADD COLUMN note text NOT NULL DEFAULT 'new'`);
      expect((await db.query(select, ['a'])).rows).toEqual([{ id: 'a', note: 'new' }]);
      await db.query(select, ['a']);
      // Prepared again under a new name (a failed query outside a transaction also costs its connection: pg-pool's rule).
      expect((await namesOf(db, select)).at(-1)).toBe('cl1_');
      await other.exec(`ALTER TABLE ${table} ADD COLUMN more int NOT NULL DEFAULT 2`);
      // Not the transaction's first statement, which goes with its BEGIN (below).
      const inTx = await db.transaction(async (tx) => (await tx.query('SELECT 1'), (await tx.query(select, ['a'])).rows));
      expect(inTx).toEqual([{ id: 'a', note: 'new', more: 2 }]);
      await db.query(select, ['a']);
      expect((await namesOf(db, select)).at(-1)).toBe('cl2_');
      // A transaction's first statement goes with the BEGIN, as SQL's EXECUTE of the statement
      // prepared by SQL's PREPARE: that one is refused after a schema change too, and prepared again.
      const first = () => db.transaction(async (tx) => (await tx.query(select, ['a'])).rows);
      expect(await first()).toEqual([{ id: 'a', note: 'new', more: 2 }]);
      const bySql = async () => (await kept(db)).filter((st) => st.startsWith('PREPARE ') && st.includes(table)).map((st) => st.split(' ')[1]!.slice(0, 4));
      expect(await bySql()).toEqual(['cl2_']);
      await other.exec(`ALTER TABLE ${table} ADD COLUMN last int NOT NULL DEFAULT 3`);
      expect(await first()).toEqual([{ id: 'a', note: 'new', more: 2, last: 3 }]);
      expect(await first()).toEqual([{ id: 'a', note: 'new', more: 2, last: 3 }]);
      expect(await bySql()).toContain('cl3_');
      // Switched off (a pooler that cannot carry them), nothing is kept, however often it runs.
      for (let i = 0; i < 3; i++) await other.query(select, ['a']);
      expect(await kept(other)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describeEachEngine('a statement marked to keep prepared', (engine) => {
  const table = `kept_${Math.random().toString(36).slice(2)}`;
  let db: Database;
  let own: Database | null = null;
  beforeAll(async () => {
    // On PostgreSQL one connection, so that what is prepared is on the session the checks read.
    if (engine.name === 'postgres') own = await openDatabase({ engine: 'postgres', url: engine.url(), poolSize: 1 });
    db = own ?? engine.db();
    await db.exec(`CREATE TABLE ${table} (id int8 PRIMARY KEY, doc jsonb NOT NULL, at timestamptz NOT NULL, on_off boolean NOT NULL, tags text[] NOT NULL, note text)`);
    await db.query(`INSERT INTO ${table} VALUES (1, '{"a":[1,"two"]}', '2026-12-06T10:00:00.123Z', true, '{x,y}', $1)`, ["it's \\ odd"]);
  });
  afterAll(async () => {
    await db.exec(`DROP TABLE ${table}`);
    await own?.close();
  });
  const onSession = async () => (await db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.filter((r) => r.statement.includes(table)).length;

  it('answers what the same statement unmarked answers, rows, counts and errors alike, once it is kept', async () => {
    const text = `SELECT id, doc, at, on_off, tags, note, $2::text AS asked FROM ${table} WHERE id = $1`;
    const plain = await db.query(text, [1, 'q']);
    expect(plain.rows).toEqual([{ id: 1, doc: { a: [1, 'two'] }, at: new Date('2026-12-06T10:00:00.123Z'), on_off: true, tags: ['x', 'y'], note: "it's \\ odd", asked: 'q' }]);
    for (let i = 0; i < 3; i++) expect(await db.query(prepared(text), [1, 'q'])).toEqual(plain);
    expect(await onSession()).toBeGreaterThanOrEqual(1);
    const update = prepared(`UPDATE ${table} SET on_off = $2, note = $3 WHERE id = $1`);
    for (const [on, note] of [[false, null], [true, "it's \\ odd"], [false, 'n']] as const) expect((await db.query(update, [1, on, note])).rowCount).toBe(1);
    expect((await db.query(update, [2, true, null])).rowCount).toBe(0);
    const insert = prepared(`INSERT INTO ${table} (id, doc, at, on_off, tags) VALUES ($1, $2, $3, $4, '{}')`);
    await db.query(insert, [2, JSON.stringify({ b: 1 }), '2026-12-06T11:00:00Z', true]);
    await expect(db.query(insert, [2, '{}', '2026-12-06T11:00:00Z', true])).rejects.toMatchObject({ code: '23505' });
    expect((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n).toBe(2);
  });

  it('refuses text with a NUL character as the invalid value it is, written in or not, and keeps working', async () => {
    const update = prepared(`UPDATE ${table} SET note = $2 WHERE id = $1`);
    for (let i = 0; i < 3; i++) await db.query(update, [1, 'fine']);
    await expect(db.query(update, [1, 'a\0b'])).rejects.toMatchObject({ code: '22021' });
    // The last statement of a transaction, sent with its COMMIT on PostgreSQL.
    const last = db.transaction(async (tx) => {
      await tx.query(update, [1, 'first']);
      return (tx.queryThenCommit ?? tx.query.bind(tx))(update, [1, 'a\0b']);
    });
    await expect(last).rejects.toMatchObject({ code: '22021' });
    expect((await db.query<{ note: string }>(prepared(`SELECT note FROM ${table} WHERE id = $1`), [1])).rows).toEqual([{ note: 'fine' }]);
    const committed = await db.transaction(async (tx) => (tx.queryThenCommit ?? tx.query.bind(tx))(update, [1, 'done']));
    expect(committed.rowCount).toBe(1);
    expect((await db.query<{ note: string }>(`SELECT note FROM ${table} WHERE id = $1`, [1])).rows).toEqual([{ note: 'done' }]);
  });

  it('serves a transaction while a use of the same statement outside it waits for that transaction to end', async () => {
    const select = prepared(`SELECT id FROM ${table} WHERE id = $1 AND $2::int > 0`);
    await db.query(select, [1, 1]);
    let outside: Promise<{ rows: unknown[] }> | null = null;
    const inside = await db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      // Its second use: the statement gets a name here, and its preparing waits for the transaction.
      outside = db.query(select, [1, 2]);
      return (await tx.query(select, [1, 3])).rows;
    });
    expect(inside).toEqual([{ id: 1 }]);
    expect((await outside!).rows).toEqual([{ id: 1 }]);
    expect((await db.query(select, [1, 4])).rows).toEqual([{ id: 1 }]);
  });

  it('runs again, outside a transaction and inside one, after a schema change alters what its SELECT * returns', async () => {
    const select = prepared(`SELECT * FROM ${table} WHERE id = $1`);
    for (let i = 0; i < 3; i++) await db.query(select, [2]);
    await db.exec(`ALTER TABLE ${table} ADD COLUMN added int NOT NULL DEFAULT 7`);
    expect((await db.query<{ added: number }>(select, [2])).rows[0]!.added).toBe(7);
    for (let i = 0; i < 2; i++) await db.query(select, [2]);
    await db.exec(`ALTER TABLE ${table} ADD COLUMN later text NOT NULL DEFAULT 'l'`);
    const inTx = await db.transaction(async (tx) => (await tx.query('SELECT 1'), (await tx.query<{ added: number; later: string }>(select, [2])).rows));
    expect(inTx).toMatchObject([{ id: 2, added: 7, later: 'l' }]);
  });
});
