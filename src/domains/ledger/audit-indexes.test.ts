import { beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { testCtx } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import type { Queryable, Row } from '../../platform/db/database.js';
import { AuthService } from '../auth/index.js';
import { findAuditEvent, listAuditEvents, type AuditFilter } from './index.js';
import { SETTINGS_ACTIONS } from './settings-capture.js';

/**
 * Every index of audit_log (migration 0040 lists them with their queries; 0041 ends four of them
 * at the time) is the one the planner takes for the product's own query, on both engines. The
 * organisation holds 20,000 events shaped like a flag-heavy one: 96 % flag writes over 400 flags
 * of one namespace, a rare namespace, rare categories (deliveries, settings), 50 people, a
 * correlation id on a few.
 */
const EVENTS = 20_000;

/** Hands every statement through and keeps the last, so it can be EXPLAINed with its own parameters. */
function recording(db: Queryable): Queryable & { last: { text: string; params: readonly unknown[] } | null } {
  const rec = {
    last: null as { text: string; params: readonly unknown[] } | null,
    query<R extends Row = Row>(text: string, params?: readonly unknown[]) {
      rec.last = { text, params: params ?? [] };
      return db.query<R>(text, params);
    },
    exec: (text: string) => db.exec(text),
  };
  return rec;
}

describeEachEngine('the audit indexes', (engine) => {
  const clock = new SettableClock('2026-07-22T13:00:00.000Z');
  let orgId = '';
  const settingsActions = [...SETTINGS_ACTIONS.values()];

  beforeAll(async () => {
    const auth = new AuthService({ db: engine.db(), clock });
    orgId = (await auth.createOrganizationWithOwner(testCtx, { name: 'Index org', email: 'owner@index.test' })).org.id;
    // Rows written straight into the table: the plans depend on the rows' shape, not on their chain.
    await engine.db().query(
      `INSERT INTO audit_log (org_no, seq, occurred_at, actor_kind, actor_id, actor_name, action, target_type, target_id,
                              correlation_id, source, data, schema_version, hash)
       SELECT (SELECT org_no FROM audit_heads WHERE org_id = $1), 1000 + g, timestamptz '2026-07-01T00:00:00Z' + g * interval '1 minute', 'user', 'usr_' || (g % 50),
              'person' || (g % 50) || '@index.test',
              CASE WHEN g % 100 = 0 THEN 'delivery.sent' WHEN g % 100 = 1 THEN $2 WHEN g % 100 = 2 THEN 'change.registered'
                   WHEN g % 100 = 3 THEN 'change.approved' WHEN g % 2 = 0 THEN 'flag.updated' ELSE 'flag.unchanged' END,
              CASE WHEN g % 100 < 4 THEN 'thing' ELSE 'flag' END,
              CASE WHEN g % 100 = 50 THEN 'ops.rare.f' || (g % 7) ELSE 'ops.bulk.f' || (g % 400) END,
              CASE WHEN g % 500 = 0 THEN 'inc-' || g END, 'api', '{}'::jsonb, 1, sha256(int4send(g))
         FROM generate_series(1, ${EVENTS}) AS g`,
      [orgId, settingsActions[0]],
    );
    await engine.db().exec('ANALYZE audit_log');
  });

  /** The plan of the statement a filter makes, without running it. */
  async function planOf(run: (db: Queryable) => Promise<unknown>): Promise<string> {
    const rec = recording(engine.db());
    await run(rec);
    const r = await engine.db().query<{ 'QUERY PLAN': string }>(`EXPLAIN ${rec.last!.text}`, rec.last!.params);
    return r.rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  const page = (f: AuditFilter) => (db: Queryable) => listAuditEvents(db, orgId, f, 50);
  /** The page after the first: its cursor still narrows the index scan. */
  const next = (f: AuditFilter) => async (db: Queryable) => listAuditEvents(db, orgId, f, 50, (await listAuditEvents(engine.db(), orgId, f, 50)).nextCursor!);
  const cases: Array<[string, string, (db: Queryable) => Promise<unknown>]> = [
    ['the audit page with no filter', 'audit_log_time_idx', page({})],
    ['the audit page after the first', 'audit_log_time_idx', next({})],
    ['a time range', 'audit_log_time_idx', page({ since: new Date('2026-07-03T00:00:00Z'), until: new Date('2026-07-03T06:00:00Z') })],
    ['one actor', 'audit_log_actor_idx', page({ actor: 'usr_7' })],
    ['one actor, the page after the first', 'audit_log_actor_idx', next({ actor: 'usr_7' })],
    ['one actor by name', 'audit_log_actor_name_idx', page({ actorName: 'person7@index.test' })],
    ['a rare category', 'audit_log_category_idx', page({ action: 'delivery.' })],
    ['a rare category, the page after the first', 'audit_log_category_idx', next({ action: 'delivery.' })],
    ['the settings history (exact actions)', 'audit_log_category_idx', page({ actions: settingsActions })],
    ['one flag', 'audit_log_target_prefix_idx', page({ targetType: 'flag', targetId: 'ops.bulk.f7' })],
    ['several flags', 'audit_log_target_prefix_idx', page({ targetType: 'flag', targetIds: ['ops.rare.f1', 'ops.rare.f2'] })],
    ['a rare flag namespace', 'audit_log_target_prefix_idx', page({ targetType: 'flag', targetIdPrefix: 'ops.rare.' })],
    ['one correlation id', 'audit_log_correlation_idx', page({ correlationId: 'inc-500' })],
    ['one event by its number', 'audit_log_pkey', (db) => findAuditEvent(db, orgId, 1500)],
  ];

  for (const [what, index, run] of cases) {
    it(`${what} is read through ${index}`, async () => {
      const plan = await planOf(run);
      expect(plan, plan).toContain(index);
      expect(plan, plan).not.toMatch(/Seq Scan on audit_log/);
      // A later page's cursor bounds the index scan by its time; the number is checked on each row.
      if (what.endsWith('the page after the first')) expect(plan, plan).toMatch(/Index Cond: .*occurred_at <= /);
    });
  }

  it('the two indexes migration 0039 dropped are gone, and the filters they served still answer', async () => {
    const names = (await engine.db().query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE tablename = 'audit_log' ORDER BY indexname`)).rows.map((r) => r.indexname);
    expect(names).toEqual(['audit_log_actor_idx', 'audit_log_actor_name_idx', 'audit_log_category_idx', 'audit_log_correlation_idx',
      'audit_log_pkey', 'audit_log_target_prefix_idx', 'audit_log_time_idx']);
    const settings = await listAuditEvents(engine.db(), orgId, { actions: settingsActions }, 500);
    expect(settings.items).toHaveLength(EVENTS / 100);
    expect(new Set(settings.items.map((e) => e.action))).toEqual(new Set([settingsActions[0]]));
    const flag = await listAuditEvents(engine.db(), orgId, { targetType: 'flag', targetId: 'ops.bulk.f7' }, 500);
    expect(flag.items.map((e) => e.target.id)).toEqual(Array(flag.items.length).fill('ops.bulk.f7'));
    expect(flag.items.length).toBeGreaterThan(40);
  });
});
