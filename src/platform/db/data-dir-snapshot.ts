import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { openDatabase, type Database, type Tx } from './database.js';

/**
 * A consistent copy of the embedded database while it stays open and in use, and the way back.
 *
 * The embedded engine runs every statement and every transaction in turn (openDatabase). The
 * snapshot is taken inside a transaction of our own, so nothing else runs from the moment it
 * begins until the files are copied: every write acknowledged before it is in the copy, none that
 * starts after it is, and what `inside` reads (the chains' heads) is exactly what the copy holds.
 * PGlite's `dumpDataDir` takes only PGlite's own query mutex, which is free between our
 * statements, so it runs there without waiting on itself. Compression happens after the
 * transaction ends: the server goes on answering while the copy is gzipped.
 */
export async function snapshotDataDir<T>(db: Database, inside: (tx: Tx) => Promise<T>): Promise<{ gz: Buffer; seen: T }> {
  const dump = db.dumpDataDir;
  if (db.engine !== 'pglite' || !dump) throw new Error('a data-directory snapshot is for the embedded database only');
  const { tar, seen } = await db.transaction(async (tx) => {
    const seen = await inside(tx);
    const blob = await dump();
    return { tar: new Uint8Array(await blob.arrayBuffer()), seen };
  });
  return { gz: await promisify(gzip)(tar), seen };
}

/**
 * Creates a database directory (`<dataDir>/pgdata`, which must not hold one) from a snapshot and
 * answers it open, without the directory lock (the caller holds the data directory's own).
 */
export async function loadDataDirSnapshot(dataDir: string, gz: Uint8Array): Promise<Database> {
  let tar: Buffer;
  try {
    tar = await promisify(gunzip)(gz);
  } catch (err) {
    throw new Error(`the database inside the backup cannot be unpacked (${(err as Error).message})`);
  }
  return openDatabase({ engine: 'pglite', dataDir, lock: false, loadDataDir: new Blob([new Uint8Array(tar)], { type: 'application/x-tar' }) });
}
