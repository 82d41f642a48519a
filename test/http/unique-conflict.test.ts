import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditEvents } from '../../src/domains/ledger/index.js';
import { singular } from '../../src/platform/db/unique-violation.js';
import { installErrorHandler } from '../../src/platform/http/error-handler.js';
import { describeEachEngine } from '../support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../support/test-app.js';

const PARALLEL = 8;

describeEachEngine('creating one key from many requests at once', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Racing');
  });
  afterAll(async () => t.close());

  /**
   * Sends the same create PARALLEL times at once; exactly one wins, every other is a 409 naming the
   * key. On PGlite (one connection) the service's own check refuses them; on PostgreSQL the losers'
   * checks ran before the winner committed, and the unique constraint refuses them.
   */
  async function race(url: string, payload: Record<string, unknown>) {
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => t.main.inject({ method: 'POST', url, headers: owner.headers, payload })));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s >= 500), answers.map((a) => a.body).join('\n')).toEqual([]);
    expect(statuses.filter((s) => s < 300)).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode >= 300);
    expect(refused.map((a) => a.statusCode)).toEqual(Array(PARALLEL - 1).fill(409));
    return refused.map((a) => a.json() as { error: string; field?: string });
  }
  const audited = async (action: string, id: string) =>
    (await listAuditEvents(engine.db(), owner.org.id, { action, targetId: id }, 100)).items.filter((e) => e.action === action && e.target.id === id).length;

  it('a flag: one 201, seven 409 naming the key, one flag and one record written', async () => {
    const refused = await race('/api/flags', { key: 'ops.race', type: 'boolean', risk: 'low' });
    for (const r of refused) expect(r).toEqual({ error: 'flag ops.race exists already', field: 'key' });
    const n = await engine.db().query<{ n: number }>('SELECT count(*)::int AS n FROM flags WHERE org_id = $1 AND key = $2', [owner.org.id, 'ops.race']);
    expect(n.rows[0]!.n).toBe(1);
    expect(await audited('flag.created', 'ops.race')).toBe(1);
  });

  it('an environment: one 201, seven 409 naming the key', async () => {
    const refused = await race('/api/environments', { key: 'qa', name: 'QA' });
    for (const r of refused) expect(r).toEqual({ error: 'environment qa exists already', field: 'key' });
    expect(await audited('environment.created', 'qa')).toBe(1);
  });

  it('a manual service: one 200, seven 409 naming the service', async () => {
    const refused = await race(`/api/organizations/${owner.org.id}/manual-services`, { name: 'Ledger Racer' });
    for (const r of refused) expect(r).toEqual({ error: 'manual service svc:ledger-racer exists already', field: 'name' });
    expect(await audited('manual_service.created', 'svc:ledger-racer')).toBe(1);
  });
});

describeEachEngine('the error mapper answers any unique violation with 409', (engine) => {
  const app = Fastify();
  beforeAll(async () => {
    installErrorHandler(app);
    // A duplicate row straight into real tables: what a lost race does, on any table.
    app.post<{ Body: { sql: string; params: unknown[] } }>('/dup', async (req) => {
      await engine.db().transaction(async (tx) => {
        await tx.query(req.body.sql, req.body.params);
        await tx.query(req.body.sql, req.body.params);
      });
      return { ok: true };
    });
    await engine.db().query("INSERT INTO organizations (id, slug, name, created_at) VALUES ('org_dup', 'dup-org', 'Dup', now())");
  });
  afterAll(async () => app.close());

  const cases: [string, string, unknown[], { error: string; field?: string }][] = [
    ['flags', "INSERT INTO flags (org_id, key, type, description, owner_service, risk, tags, off_value, created_at, updated_at) VALUES ($1, $2, 'boolean', '', null, 'low', '{}', 'false', now(), now())", ['org_dup', 'ops.dup'], { error: 'flag ops.dup exists already', field: 'key' }],
    ['organizations (slug)', "INSERT INTO organizations (id, name, slug, created_at) VALUES (gen_random_uuid()::text, 'X', $1, now())", ['taken-slug'], { error: 'the organisation address taken-slug is taken', field: 'slug' }],
    ['users (lower(email))', "INSERT INTO users (id, email, display_name, password_hash, created_at, updated_at) VALUES (gen_random_uuid()::text, $1, 'X', 'x', now(), now())", ['Same@Example.test'], { error: 'an account with e-mail same@example.test exists already', field: 'email' }],
    ['component_aliases (a value holding ", ")', "INSERT INTO component_aliases (org_id, alias, kind, key, created_by, created_at) VALUES ($1, $2, 'service', 'svc:x', 'me', now())", ['org_dup', 'check, out'], { error: 'alias check, out exists already', field: 'alias' }],
    ['environments (told from the table and column)', "INSERT INTO environments (org_id, key, name, position, created_at) VALUES ($1, $2, 'QA', 9, now())", ['org_dup', 'qa'], { error: 'environment qa exists already', field: 'key' }],
  ];
  for (const [table, sql, params, answer] of cases) {
    it(`on ${table}`, async () => {
      const res = await app.inject({ method: 'POST', url: '/dup', payload: { sql, params } });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual(answer);
    });
  }
});

describe('a table name in words', () => {
  it.each([['flags', 'flag'], ['catalogue_entities', 'catalogue entity'], ['environments', 'environment'], ['change_approvals', 'change approval'], ['boxes', 'box'], ['class', 'class']])('%s → %s', (table, word) => {
    expect(singular(table)).toBe(word);
  });
});
