import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { openDatabase, prepared, withLiterals, type Database, type Tx } from './database.js';

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

  it('commits with that statement in one call, returns its rows, and refuses anything after it', async () => {
    const got = await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} (id) VALUES ('a1')`);
      // A statement that ends with a comment still commits with it.
      const r = await tx.queryThenCommit!<{ id: string; note: string; n: number; yes: boolean }>(
        `INSERT INTO ${table} (id, note, n, yes) VALUES ($1, $2, $3::int, $4) RETURNING id, note, n, yes -- the last`, ['a2', TRICKY, 7, true]);
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

  it('when that statement fails, commits nothing of the transaction and the connection goes on working', async () => {
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

  it('with a value that cannot be written in, sends the statement with its parameters and commits after it', async () => {
    // An array is not written in as a literal: the statement goes the usual way, then the COMMIT.
    const got = await db.transaction(async (tx) => (await tx.queryThenCommit!<{ id: string }>(
      `INSERT INTO ${table} (id, note) SELECT $1, array_to_string($2::text[], '+') RETURNING id`, ['d1', ['x', 'y']])).rows);
    expect(got).toEqual([{ id: 'd1' }]);
    expect((await db.query<{ note: string }>(`SELECT note FROM ${table} WHERE id = 'd1'`)).rows).toEqual([{ note: 'x+y' }]);
    // The same path when the statement fails: nothing of the transaction stays.
    await expect(db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} (id) VALUES ('d2')`);
      await tx.queryThenCommit!(`INSERT INTO ${table} (id, note) SELECT $1, array_to_string($2::text[], '+')`, ['d1', ['z']]);
    })).rejects.toThrow(/duplicate key/);
    expect(await ids()).not.toContain('d2');
  });

  it('keeps statements sent at once inside their transaction, while the first of them is being prepared', async () => {
    const insert = prepared(`INSERT INTO ${table} (id, note) VALUES ($1, $2)`);
    // Its first use only makes it known; the next one, below, prepares it before it runs.
    await db.transaction((tx) => tx.query(insert, ['f1', null]));
    await expect(db.transaction(async (tx) => {
      await Promise.all([tx.query(insert, ['f2', null]), tx.query(insert, ['f3', null]), tx.query(`INSERT INTO ${table} (id) VALUES ($1)`, ['f4'])]);
      throw new Error('rolled back on purpose');
    })).rejects.toThrow('rolled back on purpose');
    expect((await ids()).filter((id) => id.startsWith('f'))).toEqual(['f1']);
    // The same at once, committed: all three are there.
    await db.transaction((tx) => Promise.all([tx.query(insert, ['f5', null]), tx.query(insert, ['f6', null]), tx.query(`INSERT INTO ${table} (id) VALUES ($1)`, ['f7'])]));
    expect((await ids()).filter((id) => id.startsWith('f'))).toEqual(['f1', 'f5', 'f6', 'f7']);
  });

  it('refuses a statement sent after its transaction ended, and the next transaction finds the connection clean', async () => {
    const later = (tx: Tx, id: string) => new Promise((resolve) => setTimeout(resolve, 30)).then(() => tx.query(`INSERT INTO ${table} (id) VALUES ($1)`, [id]));
    let late: Promise<unknown> | undefined;
    await expect(db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} (id) VALUES ('g1')`);
      late = later(tx, 'g2');
      throw new Error('rolled back on purpose');
    })).rejects.toThrow('rolled back on purpose');
    await expect(late).rejects.toThrow(/has ended/);
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} (id) VALUES ('g3')`);
      late = later(tx, 'g4');
    });
    await expect(late).rejects.toThrow(/has ended/);
    await expect(db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} (id) VALUES ('g5')`);
      throw new Error('rolled back on purpose');
    })).rejects.toThrow('rolled back on purpose');
    expect((await ids()).filter((id) => id.startsWith('g'))).toEqual(['g3']);
  });

  it('refuses every statement after one failed, as the server does, though the failure came before its BEGIN ran', async () => {
    await expect(db.transaction(async (tx) => {
      // A syntax error refuses the whole message, the BEGIN with it; the callback goes on.
      await tx.query(`INSERT INTO ${table} (id) VALUS ('h0')`).catch(() => undefined);
      await expect(tx.query(`INSERT INTO ${table} (id) VALUES ($1)`, ['h1'])).rejects.toThrow(/rolled back/);
    })).rejects.toThrow(/rolled back: a statement in it failed/);
    expect(await ids()).not.toContain('h1');
  });

  it('ends the transaction with its last statement even when the COMMIT fails, and nothing sent after it runs', async () => {
    // A unique key checked at COMMIT: the statement passes, its COMMIT fails.
    const late = `${table}_deferred`;
    await db.exec(`CREATE TABLE ${late} (id text, CONSTRAINT ${late}_once UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)`);
    try {
      await expect(db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${late} (id) VALUES ('k1')`);
        await expect(tx.queryThenCommit!(`INSERT INTO ${late} (id) VALUES ($1)`, ['k1'])).rejects.toThrow(/duplicate key/);
        // The callback goes on: the transaction is over.
        await expect(tx.query(`INSERT INTO ${table} (id) VALUES ($1)`, ['k2'])).rejects.toThrow(/has ended/);
      })).rejects.toThrow(/rolled back: a statement in it failed/);
      expect((await db.query(`SELECT count(*)::int AS n FROM ${late}`)).rows[0]).toEqual({ n: 0 });
      expect(await ids()).not.toContain('k2');
    } finally {
      await db.exec(`DROP TABLE ${late}`);
    }
  });

  it('refuses to commit a transaction in which a statement failed, though the callback went on', async () => {
    await expect(db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} (id) VALUES ('e1')`);
      await tx.query(`INSERT INTO ${table} (id) VALUES ('a1')`).catch(() => undefined);
    })).rejects.toThrow(/rolled back|aborted/);
    expect(await ids()).not.toContain('e1');
    expect((await db.transaction((tx) => tx.query(`INSERT INTO ${table} (id) VALUES ('e2')`))).rowCount).toBe(1);
  });
});

describeEachEngine('work kept for the end of a transaction (beforeCommit)', (engine) => {
  let db: Database;
  const table = `tx_end_${Math.random().toString(36).slice(2)}`;
  beforeAll(async () => {
    db = engine.db();
    await db.exec(`CREATE TABLE ${table} (id text PRIMARY KEY, at int GENERATED ALWAYS AS IDENTITY)`);
  });
  afterAll(async () => db.exec(`DROP TABLE ${table}`));
  const ids = async () => (await db.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY at`)).rows.map((r) => r.id);

  it('runs after the callback, in the order given, and its last statement may carry the COMMIT', async () => {
    const seen: string[] = [];
    const got = await db.transaction(async (tx) => {
      tx.beforeCommit!(async (last) => {
        seen.push(`first, last: ${last}`);
        await tx.query(`INSERT INTO ${table} (id) VALUES ('w1')`);
        // Work may keep more for the end; it runs after what was kept before it.
        tx.beforeCommit!(async (lastToo) => {
          seen.push(`third, last: ${lastToo}`);
          await tx.queryThenCommit!(`INSERT INTO ${table} (id) VALUES ($1)`, ['w3']);
        });
      });
      tx.beforeCommit!(async (last) => {
        seen.push(`second, last: ${last}`);
        await tx.query(`INSERT INTO ${table} (id) VALUES ('w2')`);
      });
      await tx.query(`INSERT INTO ${table} (id) VALUES ('c1')`);
      seen.push('callback');
      return 'answer';
    });
    expect(got).toBe('answer');
    expect(seen).toEqual(['callback', 'first, last: false', 'second, last: false', 'third, last: true']);
    expect(await ids()).toEqual(['c1', 'w1', 'w2', 'w3']);
  });

  it('runs none of it when the callback throws, and rolls the callback back when the work fails', async () => {
    let ran = false;
    await expect(db.transaction(async (tx) => {
      tx.beforeCommit!(async () => {
        ran = true;
      });
      await tx.query(`INSERT INTO ${table} (id) VALUES ('x1')`);
      throw new Error('the callback gave up');
    })).rejects.toThrow('the callback gave up');
    expect(ran).toBe(false);
    await expect(db.transaction(async (tx) => {
      tx.beforeCommit!(() => tx.query(`INSERT INTO ${table} (id) VALUES ('c1')`).then(() => undefined));
      await tx.query(`INSERT INTO ${table} (id) VALUES ('x2')`);
    })).rejects.toThrow(/duplicate key|unique/);
    expect(await ids()).not.toContain('x1');
    expect(await ids()).not.toContain('x2');
  });

  it('refuses a COMMIT sent by the callback while work is kept for the end, and writes nothing', async () => {
    await expect(db.transaction(async (tx) => {
      tx.beforeCommit!(() => tx.query(`INSERT INTO ${table} (id) VALUES ('y2')`).then(() => undefined));
      await tx.queryThenCommit!(`INSERT INTO ${table} (id) VALUES ($1)`, ['y1']);
    })).rejects.toThrow(/work kept for its end/);
    expect(await ids()).not.toContain('y1');
    expect(await ids()).not.toContain('y2');
    // Nor may work be kept once the COMMIT has gone.
    await expect(db.transaction(async (tx) => {
      await tx.queryThenCommit!(`INSERT INTO ${table} (id) VALUES ($1)`, ['y3']);
      tx.beforeCommit!(async () => undefined);
    })).rejects.toThrow(/has ended/);
  });
});

describeEachEngine('a last statement used again and again', (engine) => {
  it('is prepared once on its connection, executed by name, and prepared again after a schema change', async () => {
    // One connection, so every use lands on the session the check looks at (PGlite is one session).
    const db = engine.name === 'postgres' ? await openDatabase({ engine: 'postgres', url: engine.url(), poolSize: 1 }) : engine.db();
    // PostgreSQL's connection keeps the driver's protocol-prepared statements apart from these by a suffix.
    const named = new RegExp(`^cl(\\d+)_[0-9a-f]{24}${engine.name === 'postgres' ? '_c' : ''}$`);
    const generation = (name: string | undefined) => Number(named.exec(name ?? '')?.[1]);
    const table = `tx_prep_${Math.random().toString(36).slice(2)}`;
    try {
      await db.exec(`CREATE TABLE ${table} (id text PRIMARY KEY, note text)`);
      const insert = prepared(`INSERT INTO ${table} (id, note) VALUES ($1, $2) RETURNING *`);
      const write = (id: string) => db.transaction(async (tx) => (await tx.queryThenCommit!(insert, [id, TRICKY])).rows[0]);
      expect(await write('a')).toEqual({ id: 'a', note: TRICKY });
      expect(await write('b')).toEqual({ id: 'b', note: TRICKY });
      expect(await write('c')).toEqual({ id: 'c', note: TRICKY });
      const kept = async () => (await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement LIKE $1 ORDER BY prepare_time', [`PREPARE %${table}%`])).rows.map((r) => r.name);
      const before = await kept();
      expect(before).toEqual([expect.stringMatching(named)]);
      // A migration changes what RETURNING * gives: the server refuses the prepared statement, and the write runs again and answers.
      await db.exec(`ALTER TABLE ${table} ADD COLUMN more int NOT NULL DEFAULT 5`);
      expect(await write('d')).toEqual({ id: 'd', note: TRICKY, more: 5 });
      expect(await write('e')).toEqual({ id: 'e', note: TRICKY, more: 5 });
      expect((await kept()).at(-1)).toMatch(named);
      expect(generation((await kept()).at(-1))).toBe(generation(before[0]) + 1);
      expect((await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]).toEqual({ n: 5 });
    } finally {
      await db.exec(`DROP TABLE IF EXISTS ${table}`);
      if (engine.name === 'postgres') await db.close();
    }
  });
});

describeEachEngine('a transaction whose first statement goes with its BEGIN', (engine) => {
  it('answers that statement, rolls it back with the rest, and leaves the connection working', async () => {
    // One connection, so the statement is prepared on the session the check looks at (PGlite is one session).
    const db = engine.name === 'postgres' ? await openDatabase({ engine: 'postgres', url: engine.url(), poolSize: 1 }) : engine.db();
    const table = `tx_first_${Math.random().toString(36).slice(2)}`;
    try {
      await db.exec(`CREATE TABLE ${table} (id text PRIMARY KEY, note text, n int)`);
      const insert = prepared(`INSERT INTO ${table} (id, note, n) VALUES ($1, $2, $3::int) RETURNING id, note, n`);
      const ids = async () => (await db.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);
      // Named at its second use; from then on a transaction that starts with it sends BEGIN and it together.
      for (const id of ['a', 'b']) await db.transaction((tx) => tx.query(insert, [id, TRICKY, 1]));
      expect(await db.transaction(async (tx) => (await tx.query(insert, ['c', TRICKY, 2])).rows)).toEqual([{ id: 'c', note: TRICKY, n: 2 }]);
      const bySql = await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement LIKE $1', [`PREPARE %${table}%`]);
      expect(bySql.rows.map((r) => r.name)).toEqual([expect.stringMatching(engine.name === 'postgres' ? /^cl\d+_[0-9a-f]{24}_c$/ : /^cl\d+_[0-9a-f]{24}$/)]);
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
      if (engine.name === 'postgres') await db.close();
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
