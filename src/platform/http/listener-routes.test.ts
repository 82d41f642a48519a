import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

describeEachEngine('where the pipeline listener listens', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Listener');
  });
  afterAll(async () => t.close());

  it('answers a signed-in person the address in use, and null before it listens', async () => {
    const before = await t.main.inject({ method: 'GET', url: '/api/pipeline-listener', headers: owner.headers });
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toEqual({ url: null });
    await t.pipeline.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.pipeline.server.address() as { port: number }).port;
    expect(port).not.toBe(4320);
    const after = await t.main.inject({ method: 'GET', url: '/api/pipeline-listener', headers: owner.headers });
    expect(after.json()).toEqual({ url: `http://127.0.0.1:${String(port)}` });
  });

  it('refuses a caller without a session (401), and the pipeline listener does not know the route', async () => {
    expect((await t.main.inject({ method: 'GET', url: '/api/pipeline-listener' })).statusCode).toBe(401);
    expect((await t.pipeline.inject({ method: 'GET', url: '/api/pipeline-listener' })).statusCode).toBe(404);
  });
});
