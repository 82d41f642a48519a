import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { acquireDataDirLock, isAlive, type DataDirLock } from './data-dir-lock.js';
import { DatabaseBusyError, isDatabaseUnavailable } from './unavailable.js';

export type Engine = 'pglite' | 'postgres';
export type Row = Record<string, unknown>;
export type QueryResult<R> = { rows: R[]; rowCount: number };

/** Anything that runs SQL: the database itself or an open transaction. */
export type Queryable = {
  query<R extends Row = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Runs several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
};

/** A transaction handle. Only `Database.transaction` makes one. */
export type Tx = Queryable & {
  readonly transactional: true;
  /**
   * Runs the transaction's last statement and its COMMIT in one call (on PostgreSQL, one round
   * trip), so whatever row locks the statement takes are held only inside the engine, never across
   * a trip to this process and back (a busy event loop can add milliseconds there). The parameters
   * are written into the text as literals ($n must not appear inside the statement's own strings
   * or comments; values are text, numbers, booleans or null; any other value sends the statement
   * with its parameters and the COMMIT after it). Nothing may run on the transaction after it, and
   * the callback should do nothing after it that can fail: the write has committed, yet the caller
   * would see the error (and a client that retries would write twice). Both engines have it; a
   * wrapper of a transaction may leave it out, and the caller then uses `query`.
   */
  readonly queryThenCommit?: <R extends Row = Row>(text: string, params: readonly unknown[]) => Promise<QueryResult<R>>;
  /**
   * Work for the end of the transaction: it runs once the callback has returned, before the COMMIT,
   * in the order it was given. `last` says no other work is kept after it: its last statement may
   * then carry the COMMIT (`queryThenCommit`). A callback that throws runs none of it. What needs a
   * lock only for its own statement (the ledger's head) goes here, so that the lock is not held
   * across the callback's later round trips. Both engines have it; a wrapper of a transaction may
   * leave it out.
   */
  readonly beforeCommit?: (work: (last: boolean) => Promise<void>) => void;
};

export type Database = Queryable & {
  readonly engine: Engine;
  /** Where the data is: a directory for PGlite, the URL without password for PostgreSQL. */
  readonly location: string;
  /** The one way to write: the whole callback commits, or nothing does. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * The embedded database only: its files as one uncompressed tar. It waits for the statement in
   * hand, not for a transaction, so a backup calls it inside a transaction of its own, which keeps
   * every other transaction out while the files are copied (platform/db/data-dir-snapshot.ts).
   */
  dumpDataDir?(): Promise<Blob>;
};

export type OpenOptions =
  | {
      engine: 'pglite'; dataDir: string; holder?: string; lock?: boolean;
      /** PostgreSQL's shared_buffers inside PGlite, in MiB (CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB); DEFAULT_PGLITE_SHARED_BUFFERS_MB when absent. */
      sharedBuffersMb?: number;
      /** A tar of a data directory (dumpDataDir) to create `<dataDir>/pgdata` from, which must not exist yet. */
      loadDataDir?: Blob;
      /** Run the marked statements used more than once by SQL's PREPARE and EXECUTE (CHANGELEDGER_DB_PREPARED_STATEMENTS); on when absent. */
      preparedStatements?: boolean;
    }
  | {
      engine: 'postgres'; url: string; poolSize?: number;
      /** Keep the statements used more than once prepared on each connection (CHANGELEDGER_DB_PREPARED_STATEMENTS); on when absent. */
      preparedStatements?: boolean;
    };

const INT8 = 20;
/** A callback that went on after one of its statements failed: the engine rolled its transaction back. */
const TRANSACTION_ABORTED = 'the transaction was rolled back: a statement in it failed';
/** A statement sent on a transaction after its callback ended (one it did not wait for). */
const TRANSACTION_ENDED = 'this transaction has ended: no statement may follow it';
/**
 * One transaction handle's life, the same on both engines. Its statements go in the order the
 * callback sent them, one after the other (neither engine runs two of one session at once): so the
 * first one sent carries the BEGIN even when it must be prepared first, and a statement is
 * prepared once even when two uses of it are sent at once. A failed statement aborts the
 * transaction, as PostgreSQL does after BEGIN, though the BEGIN that went with a first statement
 * may not have run (a syntax error refuses the whole message): nothing more is sent in it. Once it
 * has ended (`close`, or the last statement with its COMMIT) no statement runs.
 */
function transactionLife() {
  let committed = false;
  let ended = false;
  let failed: unknown = null;
  let previous: Promise<unknown> = Promise.resolve();
  const atEnd: Array<(last: boolean) => Promise<void>> = [];
  return {
    /** Tx.beforeCommit: kept until the callback returns. */
    beforeCommit(work: (last: boolean) => Promise<void>): void {
      if (ended || committed) throw new Error(TRANSACTION_ENDED);
      atEnd.push(work);
    },
    /** Runs the work kept for the end, in order (work may add more), once the callback has returned. */
    async runAtEnd(): Promise<void> {
      for (let next = atEnd.shift(); next; next = atEnd.shift()) await next(atEnd.length === 0);
    },
    inOrder<R>(fn: () => Promise<R>): Promise<R> {
      const run = previous.then(() => {
        if (committed) throw new Error('this transaction has committed (queryThenCommit): no statement may follow it');
        if (ended) throw new Error(TRANSACTION_ENDED);
        if (failed) throw new Error(TRANSACTION_ABORTED, { cause: failed });
        return fn().catch((err: unknown) => {
          failed ??= err;
          throw err;
        });
      });
      previous = run.then(() => undefined, () => undefined);
      return run;
    },
    /** The last statement is on its way with its COMMIT: nothing follows it, whether it commits or fails. */
    ending() {
      // Work kept for the end (beforeCommit) would otherwise never run, and the write would commit without it.
      if (atEnd.length) throw new Error('this transaction has work kept for its end (beforeCommit): queryThenCommit would commit without it');
      ended = true;
    },
    committed() {
      committed = true;
    },
    get hasCommitted() {
      return committed;
    },
    /**
     * After the callback: waits for whatever it sent and did not wait for, then closes the handle.
     * `ok`: the callback returned, so a statement that failed in it (its error caught) is an error now.
     */
    async close(ok: boolean): Promise<void> {
      await previous;
      ended = true;
      if (ok && failed) throw new Error(TRANSACTION_ABORTED, { cause: failed });
    },
  };
}

/** Runs of a transaction the server aborted for a deadlock or a serialization failure. */
const RETRIES = 3;
/** How long a request waits for a pooled connection before it is answered 503 (the API never hangs past 5 s on it). */
export const CONNECT_TIMEOUT_MS = 3_000;
/** The default number of connections one process keeps to PostgreSQL (CHANGELEDGER_DB_POOL_SIZE). */
export const DEFAULT_POOL_SIZE = 10;

/**
 * PGlite's data directory asks for PostgreSQL's 128 MB of shared buffers, and in WebAssembly every
 * page of them stays resident once touched: PGlite's own open of an existing directory reached 291 MiB
 * with 128 MB and 170 MiB with 16 (measured, docs/performance.md). The
 * embedded engine serves one process, and the operating system's page cache still holds the files.
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 16;

/** How many requests may wait for a connection before more are turned away: four per connection, at least 16. */
export const maxWaitingFor = (poolSize: number): number => Math.max(16, poolSize * 4);

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  return opts.engine === 'pglite'
    ? openPglite(opts.dataDir, opts.holder ?? 'changeledger', opts.lock ?? true, opts.loadDataDir, opts.sharedBuffersMb ?? DEFAULT_PGLITE_SHARED_BUFFERS_MB, opts.preparedStatements ?? true)
    : openPostgres(opts.url, opts.poolSize ?? DEFAULT_POOL_SIZE, opts.preparedStatements ?? true);
}

async function openPglite(dataDir: string, holder: string, lock: boolean, loadDataDir: Blob | undefined, sharedBuffersMb: number, preparedStatements: boolean): Promise<Database> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  // PGlite takes no lock of its own: two processes on one directory lose writes.
  const held: DataDirLock | null = lock ? acquireDataDirLock(dir, holder) : null;
  const pgdata = join(dir, 'pgdata');
  // PGlite's own start parameters, and the buffers; a command-line setting wins over postgresql.conf.
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`];
  let db: PGlite;
  try {
    if (!loadDataDir && !existsSync(join(pgdata, 'PG_VERSION'))) await createPgliteDataDir(pgdata, startParams, held !== null);
    db = await PGlite.create(pgdata, { parsers: { [INT8]: (v: string) => Number(v) }, startParams, ...(loadDataDir ? { loadDataDir } : {}) });
  } catch (err) {
    held?.release();
    throw err;
  }
  // PGlite sends every query() through the extended protocol and plans it again each time. A
  // marked statement (prepared()) used more than once is prepared instead with SQL's PREPARE, and
  // run by EXECUTE with its values written in, through the simple protocol: the ledger append's
  // statement ran 2.6 times as fast by hand, its benchmark 2.2 times (docs/performance.md). PGlite
  // is one session, so one set of names serves it; a PREPARE outlives a rollback.
  const names = preparedStatements ? statementNamer() : null;
  // Each name's PREPARE, once. While one is under way, other uses of the statement (in the same
  // transaction, at once) run it the usual way rather than prepare it twice.
  const prepared = new Map<string, 'pending' | 'ready'>();
  // PGlite is one session, and its own transaction() sends BEGIN and COMMIT as calls of their own
  // (about 40 µs each, docs/performance.md). So the transactions are ours: every statement outside
  // a transaction, and every transaction from start to end, takes its turn in this queue, first
  // come first served, and a transaction's BEGIN goes with its first statement and its COMMIT with
  // its last, as on PostgreSQL. As under PGlite's own transaction(), a callback must not use the
  // database itself: that waits for the transaction to end.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = turn.then(fn);
    turn = run.then(() => undefined, () => undefined);
    return run;
  };
  const resultOf = <R extends Row>(r: { rows: unknown[]; rowCount?: number; affectedRows?: number }): QueryResult<R> =>
    ({ rows: r.rows as R[], rowCount: r.rowCount ?? r.affectedRows ?? r.rows.length });
  /** A marked statement as `EXECUTE name(literals)` once it is prepared (preparing it now at its second use); null for any other. */
  const asExecute = async (text: string, params: readonly unknown[] | undefined): Promise<{ sql: string; name: string } | null> => {
    const name = params?.length && text.startsWith(PREPARED_MARK) && params.every(inlinable) ? names?.(text) : undefined;
    if (!name || prepared.get(name) === 'pending') return null;
    if (!prepared.has(name)) {
      prepared.set(name, 'pending');
      try {
        await db.exec(`PREPARE ${name} AS ${text}`);
      } catch (err) {
        // Not prepared (an aborted transaction, say): the next use tries again.
        prepared.delete(name);
        throw err;
      }
      prepared.set(name, 'ready');
    }
    return { sql: executeSql(name, params!), name };
  };
  /**
   * One statement, with the transaction's BEGIN before it and its COMMIT after it when asked: a
   * statement that can be written out (prepared, or without parameters, or ending the transaction
   * with values that can be written in) goes as one simple-protocol call with them; any other goes
   * with its parameters, and BEGIN and COMMIT as calls of their own.
   */
  const statement = async <R extends Row>(text: string, params: readonly unknown[] | undefined, begin: boolean, commit: boolean): Promise<QueryResult<R>> => {
    let execute: { sql: string; name: string | undefined } | null = null;
    try {
      execute = await asExecute(text, params);
      if (!execute && !params?.length) execute = { sql: text, name: undefined };
      if (!execute && commit && params!.every(inlinable)) execute = { sql: withLiterals(text, params!), name: undefined };
      if (execute) {
        // The semicolon on a line of its own: a statement may end with a -- comment.
        const results = await db.exec(`${begin ? 'BEGIN;\n' : ''}${execute.sql}${commit ? '\n;\nCOMMIT' : ''}`);
        // Text that is only a comment has no result of its own.
        return resultOf<R>(results[begin ? 1 : 0] ?? { rows: [] });
      }
      if (begin) await db.exec('BEGIN');
      const r = resultOf<R>(await db.query<R>(text, params as unknown[] | undefined));
      if (commit) await db.exec('COMMIT');
      return r;
    } catch (err) {
      // A schema change altered what the statement returns: it is prepared again under a new name,
      // and the statement (or, in a transaction, the transaction) runs again.
      if (isStalePlan(err)) names?.renew(execute?.name);
      throw err;
    }
  };
  const outside = {
    query<R extends Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      return inTurn(async () => {
        try {
          return await statement<R>(text, params, false, false);
        } catch (err) {
          if (!isStalePlan(err)) throw err;
          return statement<R>(text, params, false, false);
        }
      });
    },
    exec: (text: string) => inTurn(async () => void (await db.exec(text))),
  };
  const runTransaction = <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => inTurn(async () => {
    const life = transactionLife();
    // Whether the BEGIN has reached the engine, by the engine's own word (a first statement can fail
    // before its BEGIN runs: in its PREPARE, or refused whole for a syntax error).
    const begun = () => db.isInTransaction();
    const tx: Tx = {
      transactional: true,
      query: <R extends Row>(text: string, params?: readonly unknown[]) => life.inOrder(() => statement<R>(text, params, !begun(), false)),
      exec: (text: string) => life.inOrder(async () => void (await db.exec(begun() ? text : `BEGIN;\n${text}`))),
      queryThenCommit: <R extends Row>(text: string, params: readonly unknown[]) => life.inOrder(async () => {
        life.ending();
        const r = await statement<R>(text, params, !begun(), true);
        life.committed();
        return r;
      }),
      beforeCommit: (work) => life.beforeCommit(work),
    };
    try {
      const result = await fn(tx);
      await life.runAtEnd();
      await life.close(true);
      if (begun()) {
        // The COMMIT of a transaction a failed statement aborted answers ROLLBACK: that is an error.
        const [done] = await db.exec('COMMIT');
        if (done?.command === 'ROLLBACK') throw new Error(TRANSACTION_ABORTED);
      }
      return result;
    } catch (err) {
      await life.close(false);
      // Whatever did not commit is rolled back; the next transaction in turn finds the session idle.
      if (begun()) await db.exec('ROLLBACK').catch(() => undefined);
      throw err;
    }
  });
  return {
    engine: 'pglite',
    location: dir,
    ...outside,
    async transaction(fn) {
      try {
        return await runTransaction(fn);
      } catch (err) {
        // Nothing of the refused run committed; its statements now have new names.
        if (!isStalePlan(err)) throw err;
        return runTransaction(fn);
      }
    },
    dumpDataDir: () => db.dumpDataDir('none'),
    async close() {
      try {
        // After the transaction in hand, if any.
        if (!db.closed) await inTurn(() => db.close());
      } finally {
        held?.release();
      }
    },
  };
}

const PGLITE_MODULE = createRequire(import.meta.url).resolve('@electric-sql/pglite');

/** How long the process that makes a new data directory may take (initdb takes 4–10 s here). */
const CREATE_DATA_DIR_TIMEOUT_MS = 180_000;

/**
 * A new data directory is made by a short-lived process of its own. PGlite runs initdb in the
 * WebAssembly of the process that opens the directory, and keeps that memory: a server that made
 * its directory itself stayed at about 440 MiB instead of about 290 (measured,
 * docs/performance.md). The child's memory goes back to the system when it exits.
 *
 * The child makes it under a name of its own (`pgdata.init-<pid>`), and only a finished directory
 * is renamed to `pgdata`: a start that is killed part-way leaves no half-made database behind for
 * the next start to open. An empty `pgdata` that already exists (a mount point, which cannot be
 * renamed over) is filled in place instead, as before. The child exits when its parent does (its
 * stdin closes), and is killed if it takes longer than three minutes.
 */
async function createPgliteDataDir(pgdata: string, startParams: string[], lockHeld: boolean): Promise<void> {
  const inPlace = existsSync(pgdata);
  if (inPlace && readdirSync(pgdata).length > 0) {
    throw new Error(`${pgdata} is not empty but holds no database (there is no PG_VERSION in it): it may be left from a first start that was interrupted. Move it aside, or remove it if it holds nothing you need, and start again`);
  }
  removeAbandonedAttempts(pgdata, lockHeld);
  const attempt = inPlace ? pgdata : `${pgdata}.init-${process.pid}`;
  if (!inPlace) rmSync(attempt, { recursive: true, force: true });
  const script = [
    // The parent's end of stdin closes when the parent exits, however it exits.
    "process.stdin.on('end', () => process.exit(1)).resume();",
    'const { PGlite } = require(process.argv[1]);',
    'PGlite.create(process.argv[2], { startParams: JSON.parse(process.argv[3]) }).then((db) => db.close()).then(',
    '  () => process.exit(0),',
    '  (err) => { process.stderr.write(String((err && err.stack) || err)); process.exit(1); });',
  ].join('\n');
  try {
    await new Promise<void>((done, fail) => {
      const child = spawn(process.execPath, ['-e', script, PGLITE_MODULE, attempt, JSON.stringify(startParams)], { stdio: ['pipe', 'ignore', 'pipe'] });
      let err = '';
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, CREATE_DATA_DIR_TIMEOUT_MS);
      child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
      child.once('error', (e) => {
        clearTimeout(timer);
        fail(e);
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) return done();
        const how = timedOut ? `it did not finish within ${CREATE_DATA_DIR_TIMEOUT_MS / 1000} s and was killed` : signal ? `it was killed by ${signal}` : `it exited with code ${code}`;
        fail(new Error(`could not create the embedded database in ${pgdata}: ${how}${err.trim() ? `: ${err.trim()}` : ''}`));
      });
    });
    if (!inPlace) renameSync(attempt, pgdata);
  } catch (err) {
    // In place, what the child left is not a database: empty it again, so the next start is not refused.
    if (inPlace) for (const f of readdirSync(pgdata)) rmSync(join(pgdata, f), { recursive: true, force: true });
    throw err;
  } finally {
    if (!inPlace) rmSync(attempt, { recursive: true, force: true });
  }
}

/**
 * Attempts of earlier starts: a start killed while its child made the directory. With the data
 * directory's lock held no other start can be making one, so all go (a pid can be reused: in a
 * container the server is always pid 1); without the lock, only those of processes that are gone.
 */
function removeAbandonedAttempts(pgdata: string, lockHeld: boolean): void {
  const prefix = `${basename(pgdata)}.init-`;
  for (const name of readdirSync(dirname(pgdata))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!lockHeld && Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) continue;
    rmSync(join(dirname(pgdata), name), { recursive: true, force: true });
  }
}

/** At most this many statement texts are kept prepared, on each connection. */
export const MAX_PREPARED_STATEMENTS = 200;

const PREPARED_MARK = '/* prepared */ ';

/**
 * Marks a statement to keep prepared on PostgreSQL's connections: a hot lookup or write by key,
 * whose best plan does not depend on its values. Such a statement is parsed and planned once per
 * connection, and PostgreSQL may then run it on a generic plan, which is why only marked ones
 * are: one with optional filters (`$2 IS NULL OR …`) or a prefix `LIKE $n` is better planned for
 * its values at every run. Planning the flag write's five statements again each time took about
 * 0.7 ms of PostgreSQL's 2.0 ms of CPU a toggle (bench vs-unleash, docs/performance.md). The mark
 * is an SQL comment, so the text runs unchanged on the embedded engine.
 */
export function prepared(text: string): string {
  return PREPARED_MARK + text;
}

/**
 * Which marked statements (prepared()) are kept prepared on the server: a text gets a name at its
 * second use, until MAX_PREPARED_STATEMENTS have one, so a one-off never takes a slot. Texts are
 * remembered by a hash until their second use, and forgotten in bulk past 10,000.
 *
 * `renew(name)` gives every text a new name when `name` is of the current generation: after a
 * migration changed what a prepared `SELECT *` returns, the server refuses the old statement
 * (isStalePlan) and it is prepared again; several requests refused at once renew once. The old
 * generation's statements stay on their connections until those close.
 */
export function statementNamer(max = MAX_PREPARED_STATEMENTS): ((text: string) => string | undefined) & { renew(failed: string | undefined): void } {
  const seen = new Set<string>();
  const names = new Map<string, string>();
  let generation = 0;
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= max) return known;
    const digest = createHash('sha1').update(text).digest('hex').slice(0, 24);
    if (!seen.has(digest)) {
      if (seen.size >= 10_000) seen.clear();
      seen.add(digest);
      return undefined;
    }
    seen.delete(digest);
    const name = `cl${generation}_${digest}`;
    names.set(text, name);
    return name;
  };
  return Object.assign(nameOf, {
    renew(failed: string | undefined) {
      if (failed !== undefined && !failed.startsWith(`cl${generation}_`)) return;
      generation += 1;
      names.clear();
    },
  });
}

/**
 * The server's refusal of a prepared statement whose result columns a schema change altered. The
 * routine's name is never translated, whatever the server's lc_messages.
 */
export function isStalePlan(err: unknown): boolean {
  const e = err as { code?: string; message?: string; routine?: string } | null;
  return e?.code === '0A000' && (e.routine === 'RevalidateCachedQuery' || /cached plan must not change result type/.test(e.message ?? ''));
}

/** The statements each connection has prepared with SQL's PREPARE (queryThenCommit), by name. */
const preparedBySql = new WeakMap<pg.PoolClient, Set<string>>();

/** A statement's $n parameters written in as SQL literals (queryThenCommit). */
export function withLiterals(text: string, params: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_m, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new Error(`statement refers to $${n} but has ${params.length} parameters`);
    return literal(params[i], i + 1);
  });
}

/**
 * Whether literal() writes this value in (otherwise the statement goes with its parameters). Text
 * with a NUL character goes as a parameter: the server refuses it there as an invalid value (22021,
 * a client's mistake), where a NUL inside the statement's own text breaks the protocol message.
 */
const inlinable = (v: unknown): boolean =>
  v === null || v === undefined || (typeof v === 'string' && !v.includes('\0')) || typeof v === 'boolean' || typeof v === 'bigint' || (typeof v === 'number' && Number.isFinite(v));

/** SQL's EXECUTE of a statement prepared as `name`, its values written in as literals. */
function executeSql(name: string, params: readonly unknown[]): string {
  return `EXECUTE ${name}(${params.map((v, i) => literal(v, i + 1)).join(', ')})`;
}

/** One parameter as an SQL literal: untyped, as the driver sends a parameter, so the statement's context types it. */
function literal(v: unknown, n: number): string {
  if (!inlinable(v)) throw new Error(`parameter $${n} is a ${typeof v}: only text without NUL, finite numbers, booleans and null are written in as literals`);
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'string') return pg.escapeLiteral(v);
  if (typeof v === 'boolean') return v ? "'true'" : "'false'";
  return `'${String(v as number | bigint)}'`;
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

/**
 * A pool connection that turns PostgreSQL's JIT off for its session before the pool hands it out.
 * Our statements are short and indexed, but a few (the change list's OR-ed filters) carry planner
 * cost estimates above jit_above_cost, and PostgreSQL then spent 20–350 ms compiling a query that
 * runs in 3 ms (bench what-changed). A plain SET, so it also passes through a connection pooler;
 * if the server refuses it, the connection is used as it is.
 */
class SessionClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
  override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
    const ready = super.connect().then(() => super.query('SET jit = off').then(() => this, () => this));
    if (!callback) return ready;
    const cb = callback as (err: Error | null, c?: pg.Client) => void;
    ready.then((c) => cb(null, c), (err: Error) => cb(err));
  }
}

async function openPostgres(url: string, poolSize: number, preparedStatements: boolean): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A request waits this long for a connection (all in use, or the server not answering), then
    // fails as unavailable: the API answers 503 with Retry-After instead of hanging.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    Client: SessionClient,
    types: { getTypeParser: ((oid: number, format?: string) => (oid === INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser },
  });
  // A dropped connection must not crash the process, idle or checked out (a server shutdown ends
  // both): the query on it fails, the transaction drops it, and the next one reconnects.
  pool.on('error', () => undefined);
  const maxWaiting = maxWaitingFor(poolSize);
  const admit = () => {
    if (pool.waitingCount >= maxWaiting) throw new DatabaseBusyError(pool.waitingCount);
  };
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const names = preparedStatements ? statementNamer() : null;
  const wrap = (c: pg.Pool | pg.PoolClient) => ({
    async query<R extends Row>(text: string, params?: readonly unknown[]) {
      let name: string | undefined;
      const run = () => {
        name = params?.length && text.startsWith(PREPARED_MARK) ? names?.(text) : undefined;
        return c.query(name ? { name, text, values: params as unknown[] } : { text, values: params as unknown[] | undefined });
      };
      let r: pg.QueryResult;
      try {
        r = await run();
      } catch (err) {
        // Outside a transaction the statement runs again under a new name; in one, the transaction does.
        if (!isStalePlan(err) || !names) throw err;
        names.renew(name);
        if (c instanceof pg.Pool) r = await run();
        else throw err;
      }
      return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
    },
    async exec(text: string) {
      await c.query(text);
    },
  });
  await pool.query('SELECT 1');
  const direct = wrap(pool);
  return {
    engine: 'postgres',
    location: redactUrl(url),
    async query<R extends Row>(text: string, params?: readonly unknown[]) {
      admit();
      return direct.query<R>(text, params);
    },
    async exec(text: string) {
      admit();
      await direct.exec(text);
    },
    async transaction(fn) {
      // The server may abort a transaction to break a deadlock or a serialization conflict; the
      // whole callback runs again, which is safe because nothing of the aborted run committed.
      for (let attempt = 1; ; attempt++) {
        admit();
        const client = await pool.connect();
        let lostConnection = false;
        const life = transactionLife();
        const inTx = wrap(client);
        // BEGIN is not sent on its own: it goes with the transaction's first statement when that
        // statement is kept prepared (executed by name, its values written in as literals) or has
        // no parameters, one round trip fewer; otherwise it goes just before it. A callback that
        // sends nothing sends no BEGIN and no COMMIT. `begun`: a message with the BEGIN succeeded, so
        // the transaction is open. A message that failed may have run its BEGIN or not (a syntax error
        // refuses the whole message), so after any failure nothing more is sent (transactionLife), and
        // `sentBegin` makes the end send a ROLLBACK (one with no transaction is only a warning). The
        // driver's own transaction status is no help here: it is read after the error is reported.
        let begun = false;
        let sentBegin = false;
        const withBegin = async <R>(send: () => Promise<R>): Promise<R> => {
          sentBegin = true;
          const r = await send();
          begun = true;
          return r;
        };
        const onClient = () => {
          const set = preparedBySql.get(client) ?? new Set<string>();
          preparedBySql.set(client, set);
          return set;
        };
        /** A prepared() statement as SQL's EXECUTE with literal values, once it is prepared on this connection; null for any other. */
        const asExecute = async (text: string, params: readonly unknown[]): Promise<{ sql: string; name: string } | null> => {
          if (!text.startsWith(PREPARED_MARK) || !params.every(inlinable)) return null;
          const name = names?.(text);
          if (!name) return null;
          // Its own name: the driver's statements (the same text through query) share the session's namespace.
          const sqlName = `${name}_c`;
          const prepared = onClient();
          if (!prepared.has(sqlName)) {
            await client.query(`PREPARE ${sqlName} AS ${text}`);
            prepared.add(sqlName);
          }
          return { sql: executeSql(sqlName, params), name };
        };
        /** Runs a simple-protocol string of several statements and answers the result of the one at `index`. */
        const several = async <R extends Row>(sql: string, index: number, name: string | undefined): Promise<QueryResult<R>> => {
          let results: pg.QueryResult[];
          try {
            // One result for each statement that has one (a comment alone has none): an array of them, or the one.
            const got = (await client.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
            results = Array.isArray(got) ? got : [got];
          } catch (err) {
            if (isStalePlan(err)) names?.renew(name);
            // The session lost it (a pooler gave this connection another server session): prepare it again next time.
            if ((err as { code?: string }).code === '26000' && name) preparedBySql.get(client)?.delete(`${name}_c`);
            throw err;
          }
          const r = results[index];
          return { rows: (r?.rows ?? []) as R[], rowCount: r?.rowCount ?? 0 };
        };
        const begin = async () => {
          if (!begun) await withBegin(() => client.query('BEGIN'));
        };
        const queryNow = async <R extends Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>> => {
          if (!begun) {
            const execute = params?.length ? await asExecute(text, params) : { sql: text, name: undefined };
            if (execute) {
              return withBegin(() => several<R>(`BEGIN;\n${execute.sql}`, 1, execute.name));
            }
            await begin();
          }
          return inTx.query<R>(text, params);
        };
        const tx: Tx = {
          transactional: true,
          query: <R extends Row>(text: string, params?: readonly unknown[]) => life.inOrder(() => queryNow<R>(text, params)),
          exec: (text: string) => life.inOrder(async () => {
            if (!begun) {
              await withBegin(() => client.query(`BEGIN;\n${text}`));
              return;
            }
            await inTx.exec(text);
          }),
          queryThenCommit: <R extends Row>(text: string, params: readonly unknown[]) => life.inOrder(async () => {
            life.ending();
            if (!params.every(inlinable)) {
              // A value that cannot be written in: the statement goes with its parameters, and the COMMIT after it.
              const r = await queryNow<R>(text, params);
              await client.query('COMMIT');
              life.committed();
              return r;
            }
            // A statement used before is prepared on the connection (once) and executed by name.
            const execute = await asExecute(text, params);
            const statement = execute?.sql ?? withLiterals(text, params);
            const first = !begun;
            // One simple-protocol query of two statements (three with the BEGIN): if one fails, the server skips the rest.
            // The semicolon on a line of its own: a statement may end with a -- comment.
            const send = () => several<R>(`${first ? 'BEGIN;\n' : ''}${statement}\n;\nCOMMIT`, first ? 1 : 0, execute?.name);
            const r = await (first ? withBegin(send) : send());
            life.committed();
            return r;
          }),
          beforeCommit: (work) => life.beforeCommit(work),
        };
        try {
          const result = await fn(tx);
          await life.runAtEnd();
          await life.close(true);
          if (sentBegin && !life.hasCommitted) {
            // The COMMIT of a transaction a failed statement aborted answers ROLLBACK: that is an error.
            const done = await client.query('COMMIT');
            if (done.command === 'ROLLBACK') throw new Error(TRANSACTION_ABORTED);
          }
          return result;
        } catch (err) {
          if (isDatabaseUnavailable(err)) lostConnection = true;
          await life.close(false);
          // The work committed and something after it failed: nothing to roll back or run again.
          if (life.hasCommitted) throw err;
          if (sentBegin) await client.query('ROLLBACK').catch(() => undefined);
          const code = (err as { code?: string }).code;
          if ((code === '40P01' || code === '40001' || code === '26000' || isStalePlan(err)) && attempt < RETRIES) continue;
          throw err;
        } finally {
          // A connection the server dropped is not put back in the pool.
          client.release(lostConnection);
        }
      }
    },
    close: () => pool.end(),
  };
}
