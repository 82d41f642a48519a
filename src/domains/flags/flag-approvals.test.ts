import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

describeEachEngine('flag change requests', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Approvals');
    const add = async (name: string) => {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${name}.${Math.random().toString(36).slice(2, 7)}@x.test`, role: 'member', password: PASSWORD });
      return signIn(t, owner.org, user, PASSWORD);
    };
    alice = await add('alice');
    bob = await add('bob');
    const create = (key: string, risk: string, extra: Record<string, unknown> = {}) =>
      t.main.inject({ method: 'POST', url: '/api/flags', headers: owner.headers, payload: { key, type: 'boolean', risk, reason: 'introduce it please', ...extra } });
    await create('pay.high', 'high');
    await create('pay.low', 'low');
    await create('pay.strict', 'low', { approvalsNeeded: 2 });
    const policy = await t.main.inject({ method: 'PUT', url: '/api/environments/production', headers: owner.headers, payload: { approvalPolicy: 'high-risk', approvalsNeeded: 1 } });
    expect(policy.json()).toMatchObject({ approvalPolicy: 'high-risk', approvalsNeeded: 1 });
  });
  afterAll(async () => t.close());
  const put = (s: SignedIn, key: string, env: string, body: Record<string, unknown>) => t.main.inject({ method: 'PUT', url: `/api/flags/${key}/environments/${env}`, headers: s.headers, payload: body });
  const decide = (s: SignedIn, id: string, verb: 'approve' | 'reject', body: Record<string, unknown> = {}) => t.main.inject({ method: 'POST', url: `/api/flags/requests/${id}/${verb}`, headers: s.headers, payload: body });
  const enabledIn = async (key: string, env: string) => ((await t.main.inject({ url: `/api/flags/${key}`, headers: owner.headers })).json().states as Array<{ env: string; enabled: boolean }>).find((s) => s.env === env)!.enabled;

  it('a high-risk flag in production becomes a change request; another person’s approval applies it and the record lists them', async () => {
    const res = await put(alice, 'pay.high', 'production', { enabled: true, reason: 'enable for INC-12 mitigation' });
    expect(res.statusCode, res.body).toBe(202);
    const cr = res.json().changeRequest as { id: string; status: string; approvalsNeeded: number; proposer: { id: string } };
    expect(cr).toMatchObject({ status: 'proposed', approvalsNeeded: 1, proposer: { id: alice.user.id } });
    expect(await enabledIn('pay.high', 'production')).toBe(false);

    const own = await decide(alice, cr.id, 'approve');
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toMatch(/someone else must approve/);

    const ok = await decide(bob, cr.id, 'approve');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().changeRequest).toMatchObject({ status: 'applied', approvals: [{ user: { email: bob.user.email } }] });
    expect(ok.json().result.record).toMatchObject({ from: false, to: true, approvers: [bob.user.email], actor: alice.user.email, reason: 'enable for INC-12 mitigation', correlationId: cr.id });
    expect(ok.json().changeRequest.recordSeq).toBe(ok.json().result.record.seq);
    expect(await enabledIn('pay.high', 'production')).toBe(true);
    expect((await decide(owner, cr.id, 'approve')).statusCode).toBe(409);
  });

  it('other environments and low-risk flags follow the policy: they apply at once', async () => {
    expect((await put(alice, 'pay.high', 'staging', { enabled: true, reason: 'try it in staging first' })).statusCode).toBe(200);
    expect((await put(alice, 'pay.low', 'production', { enabled: true })).statusCode).toBe(200);
  });

  it('a flag that needs two approvals waits for two different people', async () => {
    const cr = (await put(owner, 'pay.strict', 'staging', { enabled: true })).json().changeRequest as { id: string };
    const first = await decide(alice, cr.id, 'approve');
    expect(first.json().changeRequest).toMatchObject({ status: 'proposed' });
    expect(first.json().result).toBeNull();
    expect((await decide(alice, cr.id, 'approve')).statusCode).toBe(409);
    const second = await decide(bob, cr.id, 'approve');
    expect(second.json().result.record.approvers).toEqual([alice.user.email, bob.user.email]);
    expect(await enabledIn('pay.strict', 'staging')).toBe(true);
  });

  it('a rejected request cannot be approved, and nothing changes', async () => {
    const cr = (await put(alice, 'pay.high', 'production', { enabled: false, reason: 'turn off again, INC-13' })).json().changeRequest as { id: string };
    const rej = await decide(bob, cr.id, 'reject', { comment: 'not during the freeze' });
    expect(rej.json().changeRequest).toMatchObject({ status: 'rejected', rejection: { by: bob.user.email, comment: 'not during the freeze' } });
    expect((await decide(owner, cr.id, 'approve')).statusCode).toBe(409);
    expect(await enabledIn('pay.high', 'production')).toBe(true);
  });

  it('tokens cannot decide: approvals are for people', async () => {
    const cr = (await put(alice, 'pay.high', 'production', { enabled: false, reason: 'turn off again, INC-14' })).json().changeRequest as { id: string };
    const tok = await createToken(t, bob, ['flags:read', 'flags:write']);
    // The pipeline listener does not serve session-only routes at all; the main listener takes no token.
    const res = await t.pipeline.inject({ method: 'POST', url: `/api/flags/requests/${cr.id}/approve`, headers: { authorization: `Bearer ${tok.secret}` }, payload: {} });
    expect(res.statusCode).toBe(404);
    const main = await t.main.inject({ method: 'POST', url: `/api/flags/requests/${cr.id}/approve`, headers: { authorization: `Bearer ${tok.secret}` }, payload: {} });
    expect(main.statusCode).toBe(401);
    const list = await t.pipeline.inject({ url: `/api/flags/requests?status=proposed&flag=pay.high`, headers: { authorization: `Bearer ${tok.secret}` } });
    expect(list.json().items.map((r: { id: string }) => r.id)).toContain(cr.id);
  });

  it('a request nobody decides on expires on the durable timer after 24 hours', async () => {
    const cr = (await put(alice, 'pay.strict', 'production', { enabled: true })).json().changeRequest as { id: string; expiresAt: string };
    expect(Date.parse(cr.expiresAt) - t.clock.now().getTime()).toBe(24 * 3_600_000);
    expect(await t.services.worker.runOnce()).toBe(0);
    t.clock.advance(24 * 3_600_000);
    expect(await t.services.worker.runOnce()).toBeGreaterThanOrEqual(1);
    // A day on, the 12-hour sessions have ended too.
    alice = await signIn(t, owner.org, alice.user, PASSWORD);
    bob = await signIn(t, owner.org, bob.user, PASSWORD);
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
    const [req] = (await t.main.inject({ url: `/api/flags/requests?flag=pay.strict&status=expired`, headers: alice.headers })).json().items as Array<{ id: string }>;
    expect(req!.id).toBe(cr.id);
    const ev = (await listAuditEvents(engine.db(), owner.org.id, { action: 'flag_request.expired', targetId: cr.id }, 1)).items[0];
    expect(ev).toMatchObject({ target: { id: cr.id }, actor: { kind: 'system' }, source: 'scheduler' });
    expect((await decide(bob, cr.id, 'approve')).statusCode).toBe(409);
    expect(await enabledIn('pay.strict', 'production')).toBe(false);
  });

  it('a kill switch applies what it may and proposes what needs approval, all under one correlation id', async () => {
    const res = await t.main.inject({ method: 'POST', url: '/api/flags/bulk', headers: owner.headers, payload: { namespace: 'pay.*', env: 'production', enabled: false, reason: 'kill switch for INC-15' } });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().results as Array<{ flag: string; result: string }>;
    expect(results.map((r) => [r.flag, r.result])).toEqual([['pay.high', 'proposed'], ['pay.low', 'changed'], ['pay.strict', 'proposed']]);
  });

  it('break glass turns flags off at once past the approval policy, with a strong reason, recorded for review', async () => {
    await put(owner, 'pay.low', 'production', { enabled: true });
    const thin = await t.main.inject({ method: 'POST', url: '/api/flags/bulk', headers: owner.headers, payload: { namespace: 'pay.*', env: 'production', enabled: false, breakGlass: true, reason: 'off' } });
    expect(thin.json()).toMatchObject({ field: 'reason' });
    const on = await put(owner, 'pay.high', 'production', { enabled: true, breakGlass: true, reason: 'turning on is never break glass' });
    expect(on.json()).toMatchObject({ field: 'breakGlass' });
    const res = await t.main.inject({ method: 'POST', url: '/api/flags/bulk', headers: owner.headers, payload: { namespace: 'pay.*', env: 'production', enabled: false, breakGlass: true, reason: 'INC-99 payments down, kill everything' } });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().results as Array<{ flag: string; result: string; record: { breakGlass: boolean; approvers: string[] } }>;
    expect(results.map((r) => [r.flag, r.result])).toEqual([['pay.high', 'changed'], ['pay.low', 'changed'], ['pay.strict', 'unchanged']]);
    expect(results.every((r) => r.record.breakGlass)).toBe(true);
    expect(await enabledIn('pay.high', 'production')).toBe(false);
  });
});
