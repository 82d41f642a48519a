import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

/** The flag write and its record are one unit: a fault in either leaves both as they were. */
describeEachEngine('a flag write and its record commit together or not at all', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Atomic flags');
    await t.main.inject({ method: 'POST', url: '/api/flags', headers: owner.headers, payload: { key: 'ops.atomic', type: 'boolean', risk: 'low' } });
  });
  afterAll(async () => t.close());
  const state = async () => ({
    enabled: (await engine.db().query<{ enabled: boolean; version: number }>("SELECT enabled, version FROM flag_states WHERE org_id = $1 AND flag_key = 'ops.atomic' AND env_key = 'production'", [owner.org.id])).rows[0],
    records: (await engine.db().query("SELECT seq FROM audit_events WHERE org_id = $1 AND target_type = 'flag' AND target_id = 'ops.atomic'", [owner.org.id])).rows.length,
  });
  const toggle = () => t.main.inject({ method: 'PUT', url: '/api/flags/ops.atomic/environments/production', headers: owner.headers, payload: { enabled: true } });

  it('when the record cannot be appended, the flag does not move', async () => {
    // audit_log keys its rows by the organisation's number; a trigger's WHEN cannot look it up.
    const orgNo = Number((await engine.db().query<{ n: number }>('SELECT org_no AS n FROM audit_heads WHERE org_id = $1', [owner.org.id])).rows[0]!.n);
    const before = await state();
    await engine.superuser().exec(`
      CREATE FUNCTION test_fail_flag_record() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected: record append failed'; END $$;
      CREATE TRIGGER test_fail_flag_record BEFORE INSERT ON audit_log FOR EACH ROW
        WHEN (NEW.org_no = ${orgNo} AND NEW.target_type = 'flag') EXECUTE FUNCTION test_fail_flag_record();`);
    try {
      expect((await toggle()).statusCode).toBe(500);
    } finally {
      await engine.superuser().exec('DROP TRIGGER test_fail_flag_record ON audit_log; DROP FUNCTION test_fail_flag_record();');
    }
    expect(await state()).toEqual(before);
  });

  it('when the flag’s update fails in the record’s statement, neither the state nor the record moves, and the head stays', async () => {
    // The state's update, the flag's updated_at and the record go in one statement: fail the second.
    const head = async () => (await engine.db().query<{ seq: string }>('SELECT seq FROM audit_heads WHERE org_id = $1', [owner.org.id])).rows[0]!.seq;
    const before = { ...(await state()), head: await head() };
    await engine.superuser().exec(`
      CREATE FUNCTION test_fail_flag_touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected: flag updated_at failed'; END $$;
      CREATE TRIGGER test_fail_flag_touch BEFORE UPDATE ON flags FOR EACH ROW
        WHEN (NEW.org_id = '${owner.org.id}') EXECUTE FUNCTION test_fail_flag_touch();`);
    try {
      expect((await toggle()).statusCode).toBe(500);
    } finally {
      await engine.superuser().exec('DROP TRIGGER test_fail_flag_touch ON flags; DROP FUNCTION test_fail_flag_touch();');
    }
    expect({ ...(await state()), head: await head() }).toEqual(before);
  });

  it('when the flag write fails at commit, after the record was appended, the record is gone too', async () => {
    const before = await state();
    await engine.superuser().exec(`
      CREATE FUNCTION test_fail_flag_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected: flag write failed at commit'; END $$;
      CREATE CONSTRAINT TRIGGER test_fail_flag_write AFTER UPDATE ON flag_states DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (NEW.org_id = '${owner.org.id}') EXECUTE FUNCTION test_fail_flag_write();`);
    try {
      expect((await toggle()).statusCode).toBe(500);
    } finally {
      await engine.superuser().exec('DROP TRIGGER test_fail_flag_write ON flag_states; DROP FUNCTION test_fail_flag_write();');
    }
    expect(await state()).toEqual(before);
    expect((await toggle()).statusCode).toBe(200);
    const after = await state();
    expect(after).toEqual({ enabled: { enabled: true, version: before.enabled!.version + 1 }, records: before.records + 1 });
  });
});
