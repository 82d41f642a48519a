import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { findPostgresBin, startCluster, type Cluster } from '../support/postgres-cluster.js';
import { createOwner, startServer, type ServerProcess } from '../support/spawn-server.js';

// PostgreSQL stopped under load and started again, under a real server process: while it is down
// every answer is 503 with Retry-After (never a 500, never a wait past 5 s) and /readyz says so;
// once it is back the same process serves again without a restart, and every write it
// acknowledged is there.

const PASSWORD = 'correct horse battery staple';
const OWNER = 'ops@faults.test';
const FLAG = 'ops.faults.toggle';
const bin = findPostgresBin();
if (!bin) console.warn('no PostgreSQL binaries (initdb, pg_ctl): the PostgreSQL fault test is skipped');

type Answer = { status: number; ms: number; retryAfter: string | null; seq: number | null; at: number; error: string | null };

describe.runIf(bin !== null)('PostgreSQL stopped and started under a running server', () => {
  let cluster: Cluster;
  let server: ServerProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-faults-'));
  let session: Record<string, string>;

  beforeAll(async () => {
    cluster = await startCluster(bin!);
    await createOwner(dataDir, OWNER, PASSWORD, ['--database-url', cluster.url]);
    server = await startServer({ dataDir, env: { DATABASE_URL: cluster.url }, args: ['--database-url', cluster.url] });
    const signedIn = await fetch(`${server.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: OWNER, password: PASSWORD }) });
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('cl_session='))!.split(';')[0]!;
    session = { cookie, 'x-csrf-token': ((await signedIn.json()) as { csrfToken: string }).csrfToken, 'content-type': 'application/json' };
    const flag = await fetch(`${server.url}/api/flags`, { method: 'POST', headers: session, body: JSON.stringify({ key: FLAG, type: 'boolean', risk: 'low', reason: 'fault test' }) });
    expect(flag.status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** One toggle by a person signed in (a token would soon meet its 60 a minute), timed. */
  const toggle = async (enabled: boolean): Promise<Answer> => {
    const t0 = Date.now();
    try {
      const res = await fetch(`${server.url}/api/flags/${FLAG}/environments/staging`, {
        method: 'PUT', headers: session, body: JSON.stringify({ enabled, reason: 'load' }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await res.json().catch(() => null)) as { record?: { seq: number } } | null;
      return { status: res.status, ms: Date.now() - t0, retryAfter: res.headers.get('retry-after'), seq: res.status === 200 ? body?.record?.seq ?? null : null, at: t0, error: null };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      return { status: 0, ms: Date.now() - t0, retryAfter: null, seq: null, at: t0, error: `${e.message}: ${e.cause?.code ?? ''} ${e.cause?.message ?? ''}` };
    }
  };

  it('answers 503 with Retry-After while it is down, recovers without a restart, and keeps every acknowledged write', async () => {
    const answers: Answer[] = [];
    let running = true;
    // Four clients toggling the flag as fast as they are answered.
    const load = Promise.all(Array.from({ length: 4 }, async (_, i) => {
      let on = i % 2 === 0;
      while (running) {
        answers.push(await toggle(on));
        on = !on;
      }
    }));
    await new Promise((r) => setTimeout(r, 1_500));
    cluster.halt();
    const haltedAt = Date.now();
    // Down: readiness says so, within 5 s.
    const t0 = Date.now();
    const ready = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(15_000) });
    expect(ready.status).toBe(503);
    expect(Date.now() - t0).toBeLessThan(5_000);
    await new Promise((r) => setTimeout(r, 4_000));
    cluster.resume();
    const resumedAt = Date.now();
    await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, { timeout: 30_000, interval: 250 }).toBe(200);
    // Back: toggles succeed again through the same process.
    await expect.poll(() => answers.filter((a) => a.at > resumedAt && a.status === 200).length, { timeout: 30_000, interval: 250 }).toBeGreaterThan(3);
    running = false;
    await load;

    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) expect(a.retryAfter).toBe('5');
    // While it was down, nobody waited past 5 s for an answer.
    expect(Math.max(...answers.filter((a) => a.at >= haltedAt && a.at < resumedAt).map((a) => a.ms))).toBeLessThan(5_000);

    // Every acknowledged toggle is in the ledger (a toggle to the state it had is recorded unchanged).
    const acked = answers.filter((a) => a.seq !== null).map((a) => a.seq!);
    expect(acked.length).toBeGreaterThan(10);
    const db = await openDatabase({ engine: 'postgres', url: cluster.url });
    try {
      const found = await db.query<{ seq: number }>(`SELECT seq FROM audit_events WHERE action IN ('flag.updated', 'flag.unchanged') AND target_id = $1 AND seq = ANY($2::bigint[])`, [FLAG, acked]);
      expect(found.rows.length).toBe(new Set(acked).size);
    } finally {
      await db.close();
    }
  }, 180_000);

  it('answers 503 at once when every pooled connection is taken and many already wait, and serves again when they free up', async () => {
    // A web-only process with two connections; an outside session locks the flags table, so the
    // two requests that reach it hold both connections until the lock goes.
    const busy = await startServer({ dataDir, env: { DATABASE_URL: cluster.url, CHANGELEDGER_DB_POOL_SIZE: '2' }, args: ['--database-url', cluster.url, '--role', 'web'] });
    const locker = await openDatabase({ engine: 'postgres', url: cluster.url, poolSize: 1 });
    type Got = { status: number; retryAfter: string | null; error: string };
    const arrived: Got[] = [];
    let unlock = () => undefined as void;
    let locked = () => undefined as void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const lockHeld = locker.transaction(async (tx) => {
      await tx.query('LOCK TABLE flags IN ACCESS EXCLUSIVE MODE');
      const released = new Promise<void>((r) => (unlock = r));
      locked();
      await released;
    });
    try {
      await isLocked;
      const read = async (): Promise<Got> => {
        const res = await fetch(`${busy.url}/api/flags/${FLAG}`, { headers: session, signal: AbortSignal.timeout(30_000) });
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        const got = { status: res.status, retryAfter: res.headers.get('retry-after'), error: body.error ?? '' };
        arrived.push(got);
        return got;
      };
      const requests = Array.from({ length: 40 }, () => read());
      // 2 hold the connections, 16 wait in the queue (four per connection, at least 16): the rest
      // are turned away at once, before any queued request has waited out its 3 s for a connection.
      await expect.poll(() => arrived.length, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(22);
      const firstTimedOut = arrived.findIndex((a) => /not answering/.test(a.error));
      const turnedAway = arrived.filter((a) => /every database connection is in use/.test(a.error));
      expect(turnedAway.length).toBeGreaterThanOrEqual(22);
      if (firstTimedOut >= 0) expect(arrived.slice(firstTimedOut).some((a) => /in use/.test(a.error))).toBe(false);
      for (const a of turnedAway) expect([a.status, a.retryAfter]).toEqual([503, '1']);
      unlock();
      await lockHeld;
      const all = await Promise.all(requests);
      // Nothing but answers and 503s with Retry-After; the two that held connections were answered.
      expect(all.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
      expect(all.filter((a) => a.status === 503 && !a.retryAfter)).toEqual([]);
      expect(all.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(2);
      // The same process serves again.
      expect((await fetch(`${busy.url}/api/flags/${FLAG}`, { headers: session })).status).toBe(200);
      expect((await fetch(`${busy.url}/readyz`)).status).toBe(200);
    } finally {
      unlock();
      await lockHeld.catch(() => undefined);
      await locker.close();
      await busy.stop();
    }
  }, 120_000);
});
