import { afterAll, beforeAll, expect, it } from 'vitest';
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
