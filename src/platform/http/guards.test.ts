import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { countRows, createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

describeEachEngine('the two listeners', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: { id: string; secret: string };
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t);
    token = await createToken(t, owner, ['audit:read']);
  });
  afterAll(async () => t.close());
  const bearer = (secret = token.secret) => ({ authorization: `Bearer ${secret}` });

  it('main listener: answers any bearer token with 401 without looking it up', async () => {
    for (const url of ['/api/audit', '/api/nowhere']) {
      const res = await t.main.inject({ method: 'GET', url, headers: bearer() });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'API tokens are only accepted on the pipeline listener' });
    }
  });

  it('pipeline listener: a path outside its routes is 404 even without a token', async () => {
    const res = await t.pipeline.inject({ method: 'GET', url: '/api/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatch(/not a pipeline route/);
    expect((await t.pipeline.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it('pipeline listener: no or unknown token is 401 before the body is read', async () => {
    const none = await t.pipeline.inject({ method: 'POST', url: '/api/changes', headers: { 'content-type': 'application/json' }, payload: '{not json' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toMatch(/Bearer clt_/);
    const fake = 'clt_AAAAAAAA_' + 'a'.repeat(43);
    const unknown = await t.pipeline.inject({ method: 'POST', url: '/api/changes', headers: { ...bearer(fake), 'content-type': 'application/json' }, payload: 'x'.repeat(70_000) });
    expect(unknown.statusCode).toBe(401);
    const wrongSecret = `clt_${token.id}_${'b'.repeat(43)}`;
    expect((await t.pipeline.inject({ method: 'GET', url: '/api/audit', headers: bearer(wrongSecret) })).statusCode).toBe(401);
  });

  it('pipeline listener: a body over 64 KiB is 413, ahead of the scope check', async () => {
    const res = await t.pipeline.inject({ method: 'POST', url: '/api/changes', headers: { ...bearer(), 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'x'.repeat(70_000) }) });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatch(/64 KiB/);
  });

  it('pipeline listener: a session-only route is 404 like a path that does not exist, before the token is looked at', async () => {
    const fake = 'clt_AAAAAAAA_' + 'a'.repeat(43);
    for (const [method, url] of [['GET', '/api/tokens'], ['POST', '/api/tokens'], ['POST', '/api/session'], ['PUT', '/api/settings/flags'], ['GET', '/api/sdk-keys']] as const) {
      for (const headers of [bearer(), bearer(fake), {}]) {
        const res = await t.pipeline.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ error: `${method} ${url} is not a pipeline route` });
      }
    }
    const absent = await t.pipeline.inject({ method: 'GET', url: '/api/nowhere', headers: bearer() });
    expect(absent.json()).toEqual({ error: 'GET /api/nowhere is not a pipeline route' });
  });

  it('pipeline listener: the change decisions of people refuse tokens with 403, and a missing scope is 403', async () => {
    const res = await t.pipeline.inject({ method: 'POST', url: '/api/changes/chg_x/approve', headers: bearer() });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/signed-in person/);
    const other = await createToken(t, owner, ['changes:read'], 'no-audit');
    const scoped = await t.pipeline.inject({ method: 'GET', url: '/api/audit', headers: bearer(other.secret) });
    expect(scoped.statusCode).toBe(403);
    expect(scoped.json().error).toBe('this token lacks the scope audit:read');
  });

  it('pipeline listener: the 61st request of a minute for one token is 429 with Retry-After; the next minute it passes', async () => {
    const own = await createToken(t, owner, ['audit:read'], 'busy');
    for (let i = 0; i < 60; i++) {
      const ok = await t.pipeline.inject({ method: 'GET', url: '/api/audit?limit=1', headers: bearer(own.secret) });
      expect(ok.statusCode).toBe(200);
    }
    const limited = await t.pipeline.inject({ method: 'GET', url: '/api/audit?limit=1', headers: bearer(own.secret) });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.pipeline.inject({ method: 'GET', url: '/api/audit?limit=1', headers: bearer() })).statusCode).toBe(200);
    t.clock.advance(61_000);
    expect((await t.pipeline.inject({ method: 'GET', url: '/api/audit?limit=1', headers: bearer(own.secret) })).statusCode).toBe(200);
  });

  it('main listener: an unsafe request without the CSRF token is 403 and writes nothing', async () => {
    const before = await countRows(engine.db());
    const res = await t.main.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: owner.headers.cookie! }, payload: { name: 'x', scopes: ['audit:read'] } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/CSRF/);
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('logs each answered request in one line, with what was asked, the answer and its time; probes stay out of the info log', async () => {
    const from = t.logs.length;
    const listed = await t.main.inject({ method: 'GET', url: '/api/flags?namespace=ops.*', headers: owner.headers });
    expect(listed.statusCode).toBe(200);
    expect((await t.main.inject({ url: '/healthz' })).statusCode).toBe(200);
    const missing = await t.pipeline.inject({ method: 'GET', url: '/api/nowhere' });
    const lines = t.logs.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId !== undefined);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30, msg: 'request completed', listener: 'main', reqId: listed.headers['x-request-id'],
        req: expect.objectContaining({ method: 'GET', url: '/api/flags?namespace=ops.*', remoteAddress: '127.0.0.1' }), res: { statusCode: 200 }, responseTime: expect.any(Number),
      }),
      expect.objectContaining({ msg: 'request completed', listener: 'pipeline', reqId: missing.headers['x-request-id'], req: expect.objectContaining({ method: 'GET', url: '/api/nowhere' }), res: { statusCode: 404 } }),
    ]);
  });

  it('serves health, readiness, Prometheus metrics and the OpenAPI document', async () => {
    expect((await t.main.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.main.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready', engine: engine.name });
    const metrics = await t.main.inject({ url: '/metrics' });
    expect(metrics.body).toMatch(/changeledger_http_requests_total\{listener="main"/);
    const doc = (await t.main.inject({ url: '/api/openapi.json' })).json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/audit', '/api/audit/export', '/api/tokens', '/api/tokens/{id}', '/api/session', '/api/changes/{id}/callback-test', '/api/changes/{id}/deliveries', '/api/organizations/{id}/change-settings/ticketing-test']));
    expect((await t.main.inject({ url: '/api/docs/' })).statusCode).toBe(200);
  });
});
