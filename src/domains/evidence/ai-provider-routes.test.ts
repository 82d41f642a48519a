import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_PEER_KEY, startAnthropicPeer, startOpenAiPeer, type AiPeer } from '../../../test/support/ai-peers.js';
import { describeEachEngine } from '../../../test/support/engines.js';
import { PASSWORD, signIn, signedInOwner, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('Settings → AI provider API', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let member: SignedIn;
  let openai: AiPeer;
  let anthropic: AiPeer;
  const audit = async (action: string) => (await listAuditEvents(engine.db(), owner.org.id, { action }, 200)).items.filter((e) => e.action === action).reverse();
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who: SignedIn = owner) =>
    t.main.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const stored = async () => (await engine.db().query<{ kind: string; url: string; model: string; key_sealed: string | null }>(
    'SELECT kind, url, model, key_sealed FROM ai_providers WHERE org_id = $1', [owner.org.id],
  )).rows;

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'AI provider');
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `m${Math.random().toString(36).slice(2)}@x.test`, role: 'member', password: PASSWORD });
    member = await signIn(t, owner.org, user, PASSWORD);
    openai = await startOpenAiPeer(AI_PEER_KEY, '{"ok": true}');
    anthropic = await startAnthropicPeer(AI_PEER_KEY, '{"ok": true}');
  });
  afterAll(async () => {
    await t.close();
    await openai.close();
    await anthropic.close();
  });

  it('answers null while no provider is assigned, and Test says none is assigned', async () => {
    const res = await api('GET', '/api/ai-provider', undefined, member);
    expect([res.statusCode, res.json()]).toEqual([200, { provider: null }]);
    const test = await api('POST', '/api/ai-provider/test');
    expect([test.statusCode, (test.json() as Json).error]).toEqual([404, 'no AI provider is assigned to change assessment']);
  });

  describe('bad input: 400 naming the field, nothing written, nothing audited', () => {
    it.each([
      ['an unknown kind', { kind: 'gemini', model: 'x' }, 'kind'],
      ['no model', { kind: 'openai', url: 'https://api.openai.com/v1', model: '   ' }, 'model'],
      ['a URL that is not one', { kind: 'openai', url: 'not a url', model: 'gpt-4o-mini' }, 'url'],
      ['a metadata address', { kind: 'openai', url: 'http://169.254.169.254/v1', model: 'gpt-4o-mini' }, 'url'],
      ['Anthropic without a key', { kind: 'anthropic', model: 'claude-sonnet-4-5' }, 'key'],
      ['a key with a new line in it', { kind: 'openai', model: 'gpt-4o-mini', key: 'sk-abc\ndef' }, 'key'],
    ])('%s', async (_what, body, field) => {
      const before = (await audit('ai_provider.set')).length;
      const res = await api('PUT', '/api/ai-provider', body);
      expect(res.statusCode, res.body).toBe(400);
      expect((res.json() as Json).field).toBe(field);
      expect(await stored()).toEqual([]);
      expect((await audit('ai_provider.set')).length).toBe(before);
    });
  });

  it('lets only owners and admins assign, remove and test it; members read', async () => {
    const put = await api('PUT', '/api/ai-provider', { kind: 'openai', model: 'gpt-4o-mini' }, member);
    expect(put.statusCode).toBe(403);
    expect((await api('DELETE', '/api/ai-provider', undefined, member)).statusCode).toBe(403);
    expect((await api('POST', '/api/ai-provider/test', undefined, member)).statusCode).toBe(403);
    expect(await stored()).toEqual([]);
  });

  it('assigns a provider with its key sealed, answers hasKey and never the key, and audits ai_provider.set without it', async () => {
    const res = await api('PUT', '/api/ai-provider', { kind: 'openai', url: `${openai.baseUrl}/`, model: 'gpt-4o-mini', key: AI_PEER_KEY });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(AI_PEER_KEY);
    expect((res.json() as Json).provider).toMatchObject({ kind: 'openai', url: openai.baseUrl, endpoint: `${openai.baseUrl}/chat/completions`, model: 'gpt-4o-mini', hasKey: true });
    const [row] = await stored();
    expect(row!.key_sealed).toMatch(/^v1\./);
    expect(row!.key_sealed).not.toContain(AI_PEER_KEY);
    const [event] = await audit('ai_provider.set');
    expect(event!.data).toMatchObject({ kind: 'openai', url: openai.baseUrl, model: 'gpt-4o-mini', hasKey: true, changed: ['kind', 'url', 'model', 'key'] });
    expect(JSON.stringify(event)).not.toContain(AI_PEER_KEY);
    const read = await api('GET', '/api/ai-provider', undefined, member);
    expect((read.json() as Json).provider).toMatchObject({ kind: 'openai', hasKey: true });
    expect(read.body).not.toContain(AI_PEER_KEY);
  });

  it('keeps the stored key when it is left out, and Test asks the provider with it (audited ai_provider.tested)', async () => {
    const res = await api('PUT', '/api/ai-provider', { kind: 'openai', url: openai.baseUrl, model: 'gpt-4.1-mini' });
    expect((res.json() as Json).provider).toMatchObject({ model: 'gpt-4.1-mini', hasKey: true });
    expect((await audit('ai_provider.set')).at(-1)!.data).toMatchObject({ changed: ['model'] });
    const n = openai.requests.length;
    const test = await api('POST', '/api/ai-provider/test');
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json()).toMatchObject({ ok: true, model: 'gpt-4.1-mini', problem: null });
    expect(openai.requests[n]!.headers.authorization).toBe(`Bearer ${AI_PEER_KEY}`);
    expect((await audit('ai_provider.tested')).at(-1)!.data).toMatchObject({ kind: 'openai', model: 'gpt-4.1-mini', ok: true, problem: null });
  });

  it('says in words why Test failed: a wrong key, a provider down', async () => {
    await api('PUT', '/api/ai-provider', { kind: 'anthropic', url: anthropic.baseUrl, model: 'claude-sonnet-4-5', key: 'sk-ant-wrong-000000' });
    const wrong = await api('POST', '/api/ai-provider/test');
    expect(wrong.json()).toEqual({ ok: false, model: null, durationMs: null, problem: 'the provider answered 401: invalid x-api-key' });
    expect(wrong.body).not.toContain('sk-ant-wrong-000000');
    await api('PUT', '/api/ai-provider', { kind: 'anthropic', url: anthropic.baseUrl, model: 'claude-sonnet-4-5', key: AI_PEER_KEY });
    anthropic.failNext(529);
    const down = await api('POST', '/api/ai-provider/test');
    expect(down.json()).toMatchObject({ ok: false, problem: 'the provider answered 529: Overloaded' });
    const ok = await api('POST', '/api/ai-provider/test');
    expect(ok.json()).toMatchObject({ ok: true, model: 'claude-sonnet-4-5' });
    expect((await audit('ai_provider.tested')).slice(-3).map((e) => (e.data as Json).ok)).toEqual([false, false, true]);
  });

  it('removes a key with null (OpenAI-compatible only), then the provider, audited ai_provider.deleted', async () => {
    const keyless = await api('PUT', '/api/ai-provider', { kind: 'openai', url: openai.baseUrl, model: 'llama3', key: null });
    expect((keyless.json() as Json).provider).toMatchObject({ hasKey: false });
    expect((await stored())[0]!.key_sealed).toBeNull();
    const del = await api('DELETE', '/api/ai-provider');
    expect(del.statusCode).toBe(204);
    expect(await stored()).toEqual([]);
    expect((await audit('ai_provider.deleted')).at(-1)!.data).toMatchObject({ kind: 'openai', model: 'llama3' });
    expect((await api('DELETE', '/api/ai-provider')).statusCode).toBe(404);
    expect((await api('GET', '/api/ai-provider')).json()).toEqual({ provider: null });
  });
});
