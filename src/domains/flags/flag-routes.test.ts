import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { appendAuditEvent, verifyLedger } from '../ledger/index.js';
import { FLAG_RECORD_VERSION } from './flag-record.js';

type Rec = { flag: string; env: string | null; from: unknown; to: unknown; actor: string; actorDetail: { kind: string; automation: string | null; trigger: string | null }; reason: string; source: string; correlationId: string | null; change: string; schemaVersion: number; gitops: unknown; ts: string };

describeEachEngine('feature flags and their change records', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Flags');
  });
  afterAll(async () => t.close());
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, s: SignedIn = owner) =>
    t.main.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const create = (key: string, risk: 'low' | 'high' = 'low', extra: Record<string, unknown> = {}) =>
    api('POST', '/api/flags', { key, type: 'boolean', risk, ownerService: 'payments', reason: 'introduce the flag', ...extra });
  const set = (key: string, env: string, body: Record<string, unknown>) => api('PUT', `/api/flags/${key}/environments/${env}`, body);

  it('creates a flag off in every environment of the organisation, and records its creation', async () => {
    const res = await create('ops.payments.new-processor', 'high', { tags: ['payments'] });
    expect(res.statusCode, res.body).toBe(201);
    const flag = res.json() as { states: Array<{ env: string; enabled: boolean }> };
    expect(flag.states.map((s) => [s.env, s.enabled])).toEqual([['production', false], ['staging', false]]);
    const hist = (await api('GET', '/api/flags/ops.payments.new-processor/history')).json() as { items: Rec[] };
    expect(hist.items[0]).toMatchObject({ change: 'created', flag: 'ops.payments.new-processor', actor: owner.user.email, source: 'ui' });
  });

  it('a toggle writes one complete record: who, from, to, why, where, when (UTC, Z)', async () => {
    await create('web.checkout.x');
    const res = await set('web.checkout.x', 'production', { enabled: true, reason: 'GA' });
    expect(res.statusCode, res.body).toBe(200);
    const rec = res.json().record as Rec;
    expect(rec).toMatchObject({ flag: 'web.checkout.x', env: 'production', from: false, to: true, actor: owner.user.email, reason: 'GA', source: 'ui', change: 'updated', schemaVersion: FLAG_RECORD_VERSION });
    expect(rec.ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(rec.actorDetail).toMatchObject({ kind: 'user', id: owner.user.id });
  });

  it('a high-risk flag refuses "." as a reason with 400 naming the field, and writes nothing', async () => {
    const before = (await api('GET', '/api/flags/ops.payments.new-processor/history')).json().items.length;
    const res = await set('ops.payments.new-processor', 'production', { enabled: true, reason: '.' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'reason' });
    expect(res.json().error).toMatch(/too thin for a high-risk flag/);
    expect((await api('GET', '/api/flags/ops.payments.new-processor')).json().states[0].enabled).toBe(false);
    expect((await api('GET', '/api/flags/ops.payments.new-processor/history')).json().items.length).toBe(before);
    expect((await set('ops.payments.new-processor', 'production', { enabled: true, reason: 'INC-4411' })).statusCode).toBe(200);
  });

  it('a rollout change records the slice that moved: 5 % → 50 %', async () => {
    await create('ops.search.ranking');
    await set('ops.search.ranking', 'production', { rollout: { percentage: 5, bucketBy: 'userId' } });
    const rec = (await set('ops.search.ranking', 'production', { rollout: { percentage: 50, bucketBy: 'userId' } })).json().record as Rec;
    expect(rec).toMatchObject({ from: { rollout: { percentage: 5 } }, to: { rollout: { percentage: 50 } } });
  });

  it('records rapid successive changes one by one, never folded', async () => {
    await create('ops.payments.retry');
    for (const enabled of [true, false, true, false, true]) await set('ops.payments.retry', 'staging', { enabled });
    const hist = (await api('GET', '/api/flags/ops.payments.retry/history?env=staging')).json() as { items: Rec[] };
    expect(hist.items.map((r) => r.to)).toEqual([true, false, true, false, true]);
  });

  it('a namespace kill switch writes one record per flag under one correlation id, the already-off flag as unchanged', async () => {
    await create('ops.kill.a');
    await create('ops.kill.b');
    await create('ops.kill.c');
    await set('ops.kill.a', 'production', { enabled: true });
    await set('ops.kill.b', 'production', { enabled: true });
    const res = await api('POST', '/api/flags/bulk', { namespace: 'ops.kill.*', env: 'production', enabled: false, reason: 'kill switch during INC-77' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { correlationId: string; results: Array<{ flag: string; result: string; record: Rec }> };
    expect(body.results.map((r) => [r.flag, r.result, r.record.from, r.record.to])).toEqual([
      ['ops.kill.a', 'changed', true, false], ['ops.kill.b', 'changed', true, false], ['ops.kill.c', 'unchanged', false, false],
    ]);
    expect(new Set(body.results.map((r) => r.record.correlationId))).toEqual(new Set([body.correlationId]));
    const audit = (await api('GET', `/api/flags/audit?namespace=ops.kill.*&env=production&since=1h`)).json() as { items: Rec[] };
    expect(audit.items.filter((r) => r.correlationId === body.correlationId)).toHaveLength(3);
  });

  it('records gitops provenance and automation as an actor with its trigger', async () => {
    await create('ops.gitops.flag');
    const g = (await set('ops.gitops.flag', 'production', { enabled: true, source: 'gitops', gitops: { commitSha: 'a1b2c3d4e5', deployRun: 'https://ci.example/runs/88' } })).json().record as Rec;
    expect(g).toMatchObject({ source: 'gitops', gitops: { commitSha: 'a1b2c3d4e5', deployRun: 'https://ci.example/runs/88' } });
    const missing = await set('ops.gitops.flag', 'production', { enabled: false, source: 'gitops' });
    expect(missing.json()).toMatchObject({ field: 'gitops' });
    const a = (await set('ops.gitops.flag', 'production', { enabled: false, source: 'automation', automation: { name: 'guardrail-bot', trigger: 'error rate 7% > 2% on checkout' } })).json().record as Rec;
    expect(a.actorDetail).toMatchObject({ kind: 'automation', automation: 'guardrail-bot', trigger: 'error rate 7% > 2% on checkout' });
    expect(a.actor).toMatch(/^guardrail-bot \(via /);
  });

  it('answers the three retro questions: a flag’s changes, an actor’s changes, a window', async () => {
    const byActor = (await api('GET', `/api/flags/audit?actor=${owner.user.id}&since=1h&limit=500`)).json() as { items: Rec[] };
    expect(byActor.items.length).toBeGreaterThan(10);
    expect(byActor.items.every((r) => r.actorDetail && r.ts)).toBe(true);
    const ns = (await api('GET', '/api/flags/audit?namespace=ops.payments.*')).json() as { items: Rec[] };
    expect(new Set(ns.items.map((r) => r.flag))).toEqual(new Set(['ops.payments.new-processor', 'ops.payments.retry']));
    t.clock.advance(2 * 3_600_000);
    expect((await api('GET', '/api/flags/audit?since=1h')).json().items).toHaveLength(0);
    const iso = new Date(t.clock.now().getTime() - 3 * 3_600_000).toISOString();
    expect((await api('GET', `/api/flags/audit?since=${iso}&limit=5`)).json().items).toHaveLength(5);
    expect((await api('GET', '/api/flags/audit?since=soon')).json()).toMatchObject({ field: 'since' });
  });

  it('reads version-1 records beside current ones in one query', async () => {
    await create('ops.legacy.flag');
    await engine.db().transaction((tx) => appendAuditEvent(tx, t.clock, { actor: { kind: 'user', id: 'usr_old', name: 'alice' }, source: 'api' }, {
      orgId: owner.org.id, action: 'flag.updated', target: { type: 'flag', id: 'ops.legacy.flag' }, schemaVersion: 1,
      data: { flag: 'ops.legacy.flag', environment: 'production', old: false, new: true, reason: 'GA' },
    }));
    await set('ops.legacy.flag', 'production', { enabled: true, reason: 'after the shape changed' });
    const recs = (await api('GET', '/api/flags/audit?namespace=ops.legacy.flag&env=production')).json() as { items: Rec[] };
    expect(recs.items.map((r) => [r.schemaVersion, r.env, r.from, r.to, r.reason])).toEqual([
      [FLAG_RECORD_VERSION, 'production', false, true, 'after the shape changed'],
      [1, 'production', false, true, 'GA'],
    ]);
  });

  it('a committed record cannot be rewritten: the engine refuses, and the chain stays whole', async () => {
    await expect(engine.db().query("UPDATE audit_log SET actor_name = 'bob' WHERE org_no = (SELECT org_no FROM audit_heads WHERE org_id = $1) AND target_type = 'flag'", [owner.org.id])).rejects.toThrow(/append-only/);
    expect((await verifyLedger(engine.db(), owner.org.id)).ok).toBe(true);
  });

  it('on the pipeline listener: flags:read reads, flags:write writes, and the record names the token', async () => {
    const reader = await createToken(t, owner, ['flags:read'], 'dashboards');
    const writer = await createToken(t, owner, ['flags:read', 'flags:write'], 'deploy-bot');
    const as = (secret: string) => ({ authorization: `Bearer ${secret}` });
    expect((await t.pipeline.inject({ url: '/api/flags?namespace=ops.*', headers: as(reader.secret) })).statusCode).toBe(200);
    const denied = await t.pipeline.inject({ method: 'PUT', url: '/api/flags/web.checkout.x/environments/staging', headers: as(reader.secret), payload: { enabled: true } });
    expect(denied.statusCode).toBe(403);
    const ok = await t.pipeline.inject({ method: 'PUT', url: '/api/flags/web.checkout.x/environments/staging', headers: as(writer.secret), payload: { enabled: true, reason: 'ship it' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().record).toMatchObject({ source: 'api', actorDetail: { kind: 'token', id: writer.id } });
    expect(ok.json().record.actor).toMatch(/deploy-bot/);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: Array<[string, 'POST' | 'PUT', Record<string, unknown>, string]> = [
      ['/api/flags', 'POST', { key: 'Bad Key', type: 'boolean', risk: 'low' }, 'key'],
      ['/api/flags', 'POST', { key: 'audit', type: 'boolean', risk: 'low' }, 'key'],
      ['/api/flags', 'POST', { key: 'a.b', type: 'boolean', risk: 'medium' }, 'risk'],
      ['/api/flags', 'POST', { key: 'a.num', type: 'number', risk: 'low', value: 'x' }, 'value'],
      ['/api/flags/web.checkout.x/environments/production', 'PUT', { value: 'yes' }, 'value'],
      ['/api/flags/web.checkout.x/environments/production', 'PUT', { rollout: { percentage: 150, bucketBy: 'u' } }, 'rollout.percentage'],
      ['/api/flags/web.checkout.x/environments/production', 'PUT', { reason: 'nothing to change' }, 'enabled'],
      ['/api/flags/bulk', 'POST', { env: 'production', enabled: false }, 'namespace'],
    ];
    for (const [url, method, payload, field] of cases) {
      const res = await api(method, url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)} → ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ field });
    }
    expect((await set('web.checkout.x', 'qa', { enabled: true })).statusCode).toBe(404);
    expect((await set('no.such.flag', 'production', { enabled: true })).statusCode).toBe(404);
  });

  it('a new organisation has production and staging before its first flag', async () => {
    const other = await signedInOwner(t, 'Fresh');
    const envs = (await t.main.inject({ url: '/api/environments', headers: other.headers })).json() as { items: Array<{ key: string }> };
    expect(envs.items.map((e) => e.key)).toEqual(['production', 'staging']);
  });

  it('answers “everything this person did” by their e-mail as well as their id', async () => {
    const byEmail = (await api('GET', `/api/flags/audit?actor=${encodeURIComponent(owner.user.email)}&limit=500`)).json() as { items: Rec[] };
    const byId = (await api('GET', `/api/flags/audit?actor=${owner.user.id}&limit=500`)).json() as { items: Rec[] };
    expect(byEmail.items.length).toBeGreaterThan(5);
    expect(byEmail.items.map((r) => r.ts)).toEqual(byId.items.filter((r) => r.actor === owner.user.email).map((r) => r.ts));
  });

  it('an unchanged write records what was asked for at the value it already had', async () => {
    await create('ops.same.rollout');
    await set('ops.same.rollout', 'staging', { rollout: { percentage: 20, bucketBy: 'userId' } });
    const rec = (await set('ops.same.rollout', 'staging', { rollout: { percentage: 20, bucketBy: 'userId' } })).json().record as Rec;
    expect(rec).toMatchObject({ change: 'unchanged', from: { rollout: { percentage: 20, bucketBy: 'userId' } }, to: { rollout: { percentage: 20, bucketBy: 'userId' } } });
  });

  it('takes ticket references in the organisation’s own pattern', async () => {
    await create('ops.ticketed', 'high');
    expect((await set('ops.ticketed', 'staging', { enabled: true, reason: 'JIRA#42' })).statusCode).toBe(400);
    const bad = await api('PUT', '/api/settings/flags', { ticketPattern: '([' });
    expect(bad.json()).toMatchObject({ field: 'ticketPattern' });
    expect((await api('PUT', '/api/settings/flags', { ticketPattern: 'JIRA#\\d+' })).json()).toEqual({ ticketPattern: 'JIRA#\\d+', isDefault: false });
    expect((await set('ops.ticketed', 'staging', { enabled: true, reason: 'JIRA#42' })).statusCode).toBe(200);
    expect((await api('PUT', '/api/settings/flags', { ticketPattern: null })).json().isDefault).toBe(true);
  });

  it('refuses at save a ticket pattern the linear-time engine cannot run, naming ticketPattern, and writes nothing', async () => {
    const events = async () => (await api('GET', '/api/audit?action=settings.flags_updated&limit=500')).json().items.length as number;
    const before = await events();
    for (const [pattern, why] of [['(?=OPS-)OPS-\\d+', /lookaround/], ['([A-Z]+)-\\1', /backreference/]] as const) {
      const res = await api('PUT', '/api/settings/flags', { ticketPattern: pattern });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ field: 'ticketPattern' });
      expect(res.json().error).toMatch(why);
    }
    expect(await events()).toBe(before);
    expect((await api('GET', '/api/settings/flags')).json()).toMatchObject({ isDefault: true });
  });

  it('runs the saved pattern in linear time: the reported ReDoS pattern, a 9-character reason, an answer at once', async () => {
    // Nine of the report's groups: a backtracking engine needs about a minute for this one write.
    const evil = `^${'(a|a?)+'.repeat(9)}$`;
    expect((await api('PUT', '/api/settings/flags', { ticketPattern: evil })).statusCode).toBe(200);
    await create('ops.redos', 'high');
    const res = await set('ops.redos', 'staging', { enabled: true, reason: 'aaaaaaaa!' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'reason' });
    expect((await set('ops.redos', 'staging', { enabled: true, reason: 'aaaaaaaa' })).statusCode).toBe(200);
    // RE2 meaning at write time: \pL is any letter (a JavaScript RegExp would read "pL").
    expect((await api('PUT', '/api/settings/flags', { ticketPattern: '^\\pL{3}-\\d+$' })).statusCode).toBe(200);
    expect((await set('ops.redos', 'staging', { enabled: false, reason: 'ÄBC-1' })).statusCode).toBe(200);
    expect((await api('PUT', '/api/settings/flags', { ticketPattern: null })).statusCode).toBe(200);
  });

  if (engine.name === 'postgres')
  it('concurrent kill switches and single writes on the same flags all complete (no deadlock)', async () => {
    for (const k of ['ops.race.a', 'ops.race.b', 'ops.race.c']) await create(k);
    const writes = [
      ...Array.from({ length: 6 }, (_, i) => api('POST', '/api/flags/bulk', { namespace: 'ops.race.*', env: 'production', enabled: i % 2 === 0, reason: 'race test' })),
      ...Array.from({ length: 12 }, (_, i) => set(['ops.race.c', 'ops.race.b', 'ops.race.a'][i % 3]!, 'production', { enabled: i % 2 === 0 })),
    ];
    const codes = (await Promise.all(writes)).map((r) => r.statusCode);
    expect(codes.every((c) => c === 200)).toBe(true);
    expect((await verifyLedger(engine.db(), owner.org.id)).ok).toBe(true);
  });
});
