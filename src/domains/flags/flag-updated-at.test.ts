import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

type FlagAnswer = { createdAt: string; updatedAt: string; states: Array<{ env: string; enabled: boolean; updatedAt: string }> };

describeEachEngine("a flag's updated time", (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Updated at');
  });
  afterAll(async () => t.close());
  const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
    t.main.inject({ method, url, headers: owner.headers, ...(payload === undefined ? {} : { payload }) });

  it('moves to the time of a toggle, in the write answer and in the flag read afterwards', async () => {
    const created = await api('POST', '/api/flags', { key: 'web.updated.toggle', type: 'boolean', risk: 'low', ownerService: 'web', reason: 'introduce it' });
    expect(created.statusCode, created.body).toBe(201);
    const createdAt = (created.json() as FlagAnswer).createdAt;
    t.clock.advance(90_000);
    const toggled = await api('PUT', '/api/flags/web.updated.toggle/environments/staging', { enabled: true, reason: 'try it' });
    expect(toggled.statusCode, toggled.body).toBe(200);
    const at = (toggled.json() as { record: { ts: string } }).record.ts;
    expect(Date.parse(at) - Date.parse(createdAt)).toBe(90_000);
    const read = (await api('GET', '/api/flags/web.updated.toggle')).json() as FlagAnswer;
    expect(read.createdAt).toBe(createdAt);
    expect(read.updatedAt).toBe(at);
    expect(read.states.find((s) => s.env === 'staging')?.updatedAt).toBe(at);
    const listed = (await api('GET', '/api/flags?namespace=web.updated.*')).json() as { items: Array<{ key: string; updatedAt: string }> };
    expect(listed.items.find((f) => f.key === 'web.updated.toggle')?.updatedAt).toBe(at);
  });

  it('stays where it was when a write changes nothing', async () => {
    await api('POST', '/api/flags', { key: 'web.updated.same', type: 'boolean', risk: 'low', ownerService: 'web', reason: 'introduce it' });
    const before = (await api('GET', '/api/flags/web.updated.same')).json() as FlagAnswer;
    t.clock.advance(60_000);
    const same = await api('PUT', '/api/flags/web.updated.same/environments/staging', { enabled: false, reason: 'already off' });
    expect(same.statusCode, same.body).toBe(200);
    expect((same.json() as { result: string }).result).toBe('unchanged');
    expect(((await api('GET', '/api/flags/web.updated.same')).json() as FlagAnswer).updatedAt).toBe(before.updatedAt);
  });
});
