import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { LOG_RETENTION_DAYS, LOG_SWEEP_JOB, scheduleLogSweep, sweepLogRecords } from './log-retention.js';
import { insertLogRecords, type LogRecordRow } from './log-store.js';

const DAY = 86_400_000;

describeEachEngine(`log retention: records older than ${LOG_RETENTION_DAYS} days are swept`, (engine) => {
  let t: TestApp;
  let a: SignedIn;
  let b: SignedIn;
  const row = (at: Date, body: string): LogRecordRow => ({ service: 'checkout', at: at.toISOString(), body, fingerprint: body, severityNumber: 17, severityText: null, attributes: {}, traceId: null });
  const bodies = async (org: SignedIn) => (await engine.db().query<{ body: string }>('SELECT body FROM log_records WHERE org_id = $1 ORDER BY body', [org.org.id])).rows.map((r) => r.body);
  const sweeps = async () => (await engine.db().query<{ run_at: Date; status: string }>(`SELECT run_at, status FROM jobs WHERE kind = $1 ORDER BY run_at`, [LOG_SWEEP_JOB])).rows;

  beforeAll(async () => {
    t = await testApp(engine.db());
    t.clock.set('2026-11-20T10:20:00.000Z');
    a = await signedInOwner(t, 'Retention A');
    b = await signedInOwner(t, 'Retention B');
  });
  afterAll(async () => t.close());

  it('deletes what is older than 9 days, in every organisation, in batches; keeps the rest', async () => {
    const now = t.clock.now();
    const old = (days: number) => new Date(now.getTime() - days * DAY);
    await insertLogRecords(engine.db(), a.org.id, [row(old(12), 'a-12d'), row(old(10), 'a-10d'), row(old(9.5), 'a-9.5d'), row(old(8.9), 'a-8.9d'), row(old(1), 'a-1d')], now.toISOString());
    await insertLogRecords(engine.db(), b.org.id, [row(old(30), 'b-30d'), row(old(7), 'b-7d')], now.toISOString());
    const first = await engine.db().transaction((tx) => sweepLogRecords(tx, now, 2));
    expect(first).toEqual({ deleted: 3, more: true });
    expect(await bodies(a)).toEqual(['a-1d', 'a-8.9d', 'a-9.5d']);
    const second = await engine.db().transaction((tx) => sweepLogRecords(tx, now, 2));
    expect(second).toEqual({ deleted: 1, more: false });
    expect(await bodies(a)).toEqual(['a-1d', 'a-8.9d']);
    expect(await bodies(b)).toEqual(['b-7d']);
  });

  it('runs as a durable job at each full hour that schedules the next, once per due time', async () => {
    await engine.db().transaction(async (tx) => {
      await scheduleLogSweep(tx, t.clock);
      await scheduleLogSweep(tx, t.clock);
    });
    expect((await sweeps()).map((j) => [new Date(j.run_at).toISOString(), j.status])).toEqual([['2026-11-20T11:00:00.000Z', 'pending']]);
    await insertLogRecords(engine.db(), a.org.id, [row(new Date(Date.parse('2026-11-20T11:00:00.000Z') - 9 * DAY - 1_000), 'a-just-over')], t.clock.now().toISOString());
    t.clock.set('2026-11-20T11:00:00.000Z');
    expect(await t.services.worker.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await bodies(a)).toEqual(['a-1d', 'a-8.9d']);
    expect((await sweeps()).map((j) => [new Date(j.run_at).toISOString(), j.status])).toEqual([['2026-11-20T11:00:00.000Z', 'done'], ['2026-11-20T12:00:00.000Z', 'pending']]);
  });
});
