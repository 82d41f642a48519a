import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

describeEachEngine('sessions and API tokens', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t);
  });
  afterAll(async () => t.close());
  const lastEvent = async (orgId: string, action: string) => (await listAuditEvents(engine.db(), orgId, { action }, 1)).items[0];

  it('signs in with a password into an HttpOnly, SameSite session cookie and audits it', async () => {
    const res = await t.main.inject({ method: 'POST', url: '/api/session', payload: { email: owner.user.email.toUpperCase(), password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'cl_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(res.json()).toMatchObject({ user: { email: owner.user.email }, organization: { id: owner.org.id }, role: 'owner' });
    const ev = await lastEvent(owner.org.id, 'session.created');
    expect(ev).toMatchObject({ actor: { kind: 'user', id: owner.user.id }, data: { method: 'password' }, requestId: res.headers['x-request-id'] });
  });

  it('refuses a wrong password or an unknown e-mail with the same 401, writing nothing', async () => {
    const before = await countRows(engine.db());
    for (const payload of [{ email: owner.user.email, password: 'wrong password!' }, { email: 'nobody@example.test', password: PASSWORD }]) {
      const res = await t.main.inject({ method: 'POST', url: '/api/session', payload });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'e-mail or password is wrong' });
    }
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('answers bad input with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ scopes: ['audit:read'] }, 'name', /^Name is required$/],
      [{ name: 'x', scopes: ['audit:write'] }, 'scopes.0', /must be one of: changes:read/],
      [{ name: 'x', scopes: [] }, 'scopes', /^Scopes must have at least 1 entry$/],
      [{ name: 'x', scopes: ['audit:read'], expiresInDays: 0 }, 'expiresInDays', /^Expires \(days\) must be at least 1$/],
      [{ name: 'x', scopes: ['audit:read'], colour: 'red' }, 'colour', /not a known field/],
      [{ name: '   ', scopes: ['audit:read'] }, 'name', /1 to 100/],
    ];
    for (const [payload, field, message] of cases) {
      const res = await t.main.inject({ method: 'POST', url: '/api/tokens', headers: owner.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ field });
      expect(res.json().error).toMatch(message);
    }
    const notJson = await t.main.inject({ method: 'POST', url: '/api/tokens', headers: { ...owner.headers, 'content-type': 'application/json' }, payload: '{"name":' });
    expect(notJson.statusCode).toBe(400);
  });

  it('creates a token shown once, stored only as SHA-256, and audits who made it', async () => {
    const res = await t.main.inject({ method: 'POST', url: '/api/tokens', headers: { ...owner.headers, 'x-correlation-id': 'deploy-991' }, payload: { name: 'ci-deploy', scopes: ['changes:write', 'audit:read'], expiresInDays: 30 } });
    expect(res.statusCode).toBe(201);
    const body = res.json() as { token: { id: string; expiresAt: string }; secret: string };
    expect(body.secret).toMatch(/^clt_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
    expect(body.secret.slice(4, 12)).toBe(body.token.id);
    expect(Date.parse(body.token.expiresAt) - t.clock.now().getTime()).toBe(30 * 86_400_000);
    const stored = await engine.db().query<{ secret_hash: string }>('SELECT secret_hash FROM api_tokens WHERE id = $1', [body.token.id]);
    expect(stored.rows[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    const all = JSON.stringify((await engine.db().query('SELECT * FROM api_tokens')).rows) + JSON.stringify((await engine.db().query('SELECT * FROM audit_events')).rows);
    expect(all).not.toContain(body.secret.slice(13));
    const ev = await lastEvent(owner.org.id, 'token.created');
    expect(ev).toMatchObject({ target: { type: 'token', id: body.token.id }, correlationId: 'deploy-991', source: 'ui', data: { name: 'ci-deploy', scopes: ['changes:write', 'audit:read'] } });
    const list = await t.main.inject({ method: 'GET', url: '/api/tokens', headers: owner.headers });
    expect(JSON.stringify(list.json())).not.toContain(body.secret);
  });

  it('a token acts as its owner on the pipeline listener, and its use is audited as the token', async () => {
    const tok = await createToken(t, owner, ['audit:read']);
    const res = await t.pipeline.inject({ method: 'GET', url: '/api/audit?action=token.&limit=5', headers: { authorization: `Bearer ${tok.secret}` } });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { items: Array<{ action: string }> }).items.every((e) => e.action.startsWith('token.'))).toBe(true);
  });

  it('writes last-used at most once a minute', async () => {
    const tok = await createToken(t, owner, ['audit:read'], 'poller');
    const lastUsed = async () => (await engine.db().query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_tokens WHERE id = $1', [tok.id])).rows[0]!.last_used_at;
    const call = () => t.pipeline.inject({ method: 'GET', url: '/api/audit?limit=1', headers: { authorization: `Bearer ${tok.secret}` } });
    await call();
    const first = await lastUsed();
    expect(first).not.toBeNull();
    t.clock.advance(30_000);
    await call();
    expect(await lastUsed()).toEqual(first);
    t.clock.advance(31_000);
    await call();
    expect(new Date((await lastUsed())!).getTime()).toBe(t.clock.now().getTime());
  });

  it('revokes a token: it stops working at once and the revocation is audited', async () => {
    const tok = await createToken(t, owner, ['audit:read'], 'to-revoke');
    const res = await t.main.inject({ method: 'DELETE', url: `/api/tokens/${tok.id}`, headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().token.revokedAt).toBe(t.clock.now().toISOString());
    expect((await t.pipeline.inject({ method: 'GET', url: '/api/audit', headers: { authorization: `Bearer ${tok.secret}` } })).statusCode).toBe(401);
    expect(await lastEvent(owner.org.id, 'token.revoked')).toMatchObject({ target: { id: tok.id } });
    const again = await t.main.inject({ method: 'DELETE', url: `/api/tokens/${tok.id}`, headers: owner.headers });
    expect(again.statusCode).toBe(409);
  });

  it('an expired token is refused', async () => {
    const res = await t.main.inject({ method: 'POST', url: '/api/tokens', headers: owner.headers, payload: { name: 'short', scopes: ['audit:read'], expiresInDays: 1 } });
    const secret = res.json().secret as string;
    const call = () => t.pipeline.inject({ method: 'GET', url: '/api/audit?limit=1', headers: { authorization: `Bearer ${secret}` } });
    expect((await call()).statusCode).toBe(200);
    t.clock.advance(86_400_000);
    expect((await call()).statusCode).toBe(401);
    // A day on, the owner's 12-hour session has ended too.
    expect((await t.main.inject({ url: '/api/session', headers: owner.headers })).statusCode).toBe(401);
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
  });

  it('a token stops working when its owner leaves the organisation; so does their session', async () => {
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `leaver${Math.random().toString(36).slice(2)}@x.test`, role: 'member', password: PASSWORD });
    const leaver = await signIn(t, owner.org, user, PASSWORD);
    const tok = await createToken(t, leaver, ['audit:read']);
    const call = () => t.pipeline.inject({ method: 'GET', url: '/api/audit?limit=1', headers: { authorization: `Bearer ${tok.secret}` } });
    expect((await call()).statusCode).toBe(200);
    await t.services.auth.removeMember(testCtx, owner.org, user.email);
    expect((await call()).statusCode).toBe(401);
    expect((await t.main.inject({ method: 'GET', url: '/api/session', headers: leaver.headers })).statusCode).toBe(401);
    expect(await lastEvent(owner.org.id, 'membership.removed')).toMatchObject({ target: { id: user.id } });
  });

  it('members see only their own tokens; owners see all', async () => {
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `member${Math.random().toString(36).slice(2)}@x.test`, role: 'member', password: PASSWORD });
    const member = await signIn(t, owner.org, user, PASSWORD);
    await createToken(t, member, ['audit:read'], 'mine');
    const mine = (await t.main.inject({ url: '/api/tokens', headers: member.headers })).json() as { items: Array<{ owner: { id: string } }> };
    expect(mine.items.length).toBe(1);
    const all = (await t.main.inject({ url: '/api/tokens', headers: owner.headers })).json() as { items: unknown[] };
    expect(all.items.length).toBeGreaterThan(1);
  });

  it('signs in once with a one-time link, then sets a password', async () => {
    const { org, owner: fresh } = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Linked', email: `linked${Math.random().toString(36).slice(2)}@x.test` });
    const token = await t.services.auth.createSignInLink(testCtx, org, fresh.email);
    const first = await t.main.inject({ method: 'POST', url: '/api/session/link', payload: { token } });
    expect(first.statusCode).toBe(200);
    expect(first.json().user.hasPassword).toBe(false);
    const second = await t.main.inject({ method: 'POST', url: '/api/session/link', payload: { token } });
    expect(second.statusCode).toBe(401);
    const session = { cookie: `cl_session=${first.cookies[0]!.value}`, 'x-csrf-token': first.json().csrfToken as string };
    const short = await t.main.inject({ method: 'PUT', url: '/api/me/password', headers: session, payload: { newPassword: 'short' } });
    expect(short.json()).toMatchObject({ field: 'newPassword' });
    expect((await t.main.inject({ method: 'PUT', url: '/api/me/password', headers: session, payload: { newPassword: PASSWORD } })).statusCode).toBe(204);
    const change = await t.main.inject({ method: 'PUT', url: '/api/me/password', headers: session, payload: { newPassword: 'another long password' } });
    expect(change.json()).toMatchObject({ field: 'currentPassword' });
    await signIn(t, org, fresh, PASSWORD);
  });

  it('signing out ends the session', async () => {
    const s = await signedInOwner(t, 'Leaving');
    expect((await t.main.inject({ method: 'DELETE', url: '/api/session', headers: s.headers })).statusCode).toBe(204);
    expect((await t.main.inject({ method: 'GET', url: '/api/session', headers: s.headers })).statusCode).toBe(401);
    expect(await lastEvent(s.org.id, 'session.ended')).toBeDefined();
  });

  it('never writes a token value or a session cookie into a log line', async () => {
    const tok = await createToken(t, owner, ['audit:read'], 'logged');
    await t.pipeline.inject({ method: 'GET', url: `/api/audit?q=${tok.secret}`, headers: { authorization: `Bearer ${tok.secret}` } });
    await t.pipeline.inject({ method: 'GET', url: `/api/nowhere/${tok.secret}`, headers: { authorization: `Bearer ${tok.secret}` } });
    t.services.logger.info({ token: tok.secret, note: `leaked ${tok.secret}` }, `message with ${tok.secret}`);
    t.services.logger.flush();
    await new Promise((r) => setTimeout(r, 50));
    const logs = t.logs.join('');
    expect(logs).toContain('/api/nowhere/clt_[redacted]');
    expect(logs).not.toContain(tok.secret);
    expect(logs).not.toContain(tok.secret.slice(13));
    expect(logs).not.toContain(owner.cookie);
  });
});
