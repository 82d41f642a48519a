import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { verifyLedger } from '../ledger/index.js';

/**
 * The domain write and its audit event commit together or not at all. Faults are injected into
 * the real engine with triggers scoped to one organisation, so nothing else is disturbed.
 */
describeEachEngine('a write and its audit event are one transaction', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Faulty');
  });
  afterAll(async () => t.close());

  const state = async () => {
    const tokens = await engine.db().query('SELECT id FROM api_tokens WHERE org_id = $1', [owner.org.id]);
    const head = await engine.db().query<{ seq: number }>('SELECT seq FROM audit_heads WHERE org_id = $1', [owner.org.id]);
    const events = await engine.db().query("SELECT seq FROM audit_events WHERE org_id = $1 AND action = 'token.created'", [owner.org.id]);
    return { tokens: tokens.rows.length, head: head.rows[0]!.seq, tokenEvents: events.rows.length };
  };
  const create = () => t.main.inject({ method: 'POST', url: '/api/tokens', headers: owner.headers, payload: { name: 'atomic', scopes: ['audit:read'] } });

  it('when the audit append fails, the token is not created and the request fails', async () => {
    // audit_log keys its rows by the organisation's number; a trigger's WHEN cannot look it up.
    const orgNo = Number((await engine.db().query<{ n: number }>('SELECT org_no AS n FROM audit_heads WHERE org_id = $1', [owner.org.id])).rows[0]!.n);
    const before = await state();
    const su = engine.superuser();
    await su.exec(`
      CREATE FUNCTION test_fail_append() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected: audit append failed'; END $$;
      CREATE TRIGGER test_fail_append BEFORE INSERT ON audit_log FOR EACH ROW
        WHEN (NEW.org_no = ${orgNo} AND NEW.action = 'token.created') EXECUTE FUNCTION test_fail_append();`);
    try {
      const res = await create();
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ error: 'internal error' });
    } finally {
      await su.exec('DROP TRIGGER test_fail_append ON audit_log; DROP FUNCTION test_fail_append();');
    }
    expect(await state()).toEqual(before);
    expect((await verifyLedger(engine.db(), owner.org.id)).ok).toBe(true);
    expect((await create()).statusCode).toBe(201);
  });

  it('when the domain write fails after the append (at commit), the audit event is not kept either', async () => {
    const before = await state();
    const su = engine.superuser();
    await su.exec(`
      CREATE FUNCTION test_fail_token() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected: token write failed at commit'; END $$;
      CREATE CONSTRAINT TRIGGER test_fail_token AFTER INSERT ON api_tokens DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (NEW.org_id = '${owner.org.id}') EXECUTE FUNCTION test_fail_token();`);
    try {
      expect((await create()).statusCode).toBe(500);
    } finally {
      await su.exec('DROP TRIGGER test_fail_token ON api_tokens; DROP FUNCTION test_fail_token();');
    }
    expect(await state()).toEqual(before);
    expect((await verifyLedger(engine.db(), owner.org.id)).ok).toBe(true);
    const ok = await create();
    expect(ok.statusCode).toBe(201);
    const after = await state();
    expect(after).toEqual({ tokens: before.tokens + 1, head: before.head + 1, tokenEvents: before.tokenEvents + 1 });
  });
});
