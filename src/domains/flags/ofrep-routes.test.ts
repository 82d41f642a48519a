import { OpenFeature, type Client } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

describeEachEngine('flag evaluation over OFREP with SDK keys', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let base: string;
  let pipelineBase: string;
  let sdkKey: string;
  let stagingKey: string;
  let client: Client;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'OFREP');
    const api = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) => t.main.inject({ method, url, headers: owner.headers, payload });
    await api('POST', '/api/flags', { key: 'web.new-checkout', type: 'boolean', risk: 'low' });
    await api('POST', '/api/flags', { key: 'web.banner', type: 'string', risk: 'low', value: 'winter sale', offValue: '' });
    await api('POST', '/api/flags', { key: 'web.rollout', type: 'boolean', risk: 'low' });
    await api('POST', '/api/flags', { key: 'web.limits', type: 'json', risk: 'low', value: { max: 5 } });
    await api('PUT', '/api/flags/web.new-checkout/environments/production', { enabled: true, rules: [{ attribute: 'country', op: 'in', values: ['DE'], value: false }] });
    await api('PUT', '/api/flags/web.banner/environments/production', { enabled: true });
    await api('PUT', '/api/flags/web.rollout/environments/production', { enabled: true, rollout: { percentage: 50, bucketBy: 'targetingKey' } });
    await api('PUT', '/api/flags/web.limits/environments/production', { enabled: true });
    const created = await t.main.inject({ method: 'POST', url: '/api/sdk-keys', headers: owner.headers, payload: { name: 'checkout-service', env: 'production' } });
    expect(created.statusCode, created.body).toBe(201);
    sdkKey = created.json().secret as string;
    stagingKey = (await t.main.inject({ method: 'POST', url: '/api/sdk-keys', headers: owner.headers, payload: { name: 'checkout-staging', env: 'staging' } })).json().secret as string;
    base = await t.main.listen({ host: '127.0.0.1', port: 0 });
    pipelineBase = await t.pipeline.listen({ host: '127.0.0.1', port: 0 });
    const domain = `ofrep-${engine.name}-${Math.random().toString(36).slice(2, 6)}`;
    await OpenFeature.setProviderAndWait(domain, new OFREPProvider({ baseUrl: base, headers: { Authorization: `Bearer ${sdkKey}` } }));
    client = OpenFeature.getClient(domain);
  });
  afterAll(async () => {
    await OpenFeature.close();
    await t.close();
  });

  it('the OpenFeature SDK reads typed values, rules and reasons through the OFREP provider', async () => {
    expect(await client.getBooleanValue('web.new-checkout', false, { targetingKey: 'u1', country: 'FR' })).toBe(true);
    const de = await client.getBooleanDetails('web.new-checkout', true, { targetingKey: 'u1', country: 'DE' });
    expect(de).toMatchObject({ value: false, reason: 'TARGETING_MATCH', variant: 'rule-1' });
    expect(await client.getStringValue('web.banner', 'none', { targetingKey: 'u1' })).toBe('winter sale');
    expect(await client.getObjectValue('web.limits', {}, { targetingKey: 'u1' })).toEqual({ max: 5 });
  });

  it('missing flags, type mismatches and missing targeting keys come back as the SDK’s errors with the default', async () => {
    const missing = await client.getBooleanDetails('web.nope', true, { targetingKey: 'u1' });
    expect(missing).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });
    const mismatch = await client.getNumberDetails('web.banner', 7, { targetingKey: 'u1' });
    expect(mismatch).toMatchObject({ value: 7, errorCode: 'TYPE_MISMATCH' });
    const noKey = await client.getBooleanDetails('web.rollout', false, {});
    expect(noKey).toMatchObject({ value: false, errorCode: 'TARGETING_KEY_MISSING' });
  });

  it('a rollout splits contexts stably by targeting key', async () => {
    const served = await Promise.all(Array.from({ length: 200 }, (_, i) => client.getBooleanValue('web.rollout', false, { targetingKey: `user-${i}` })));
    const share = served.filter(Boolean).length / served.length;
    expect(share).toBeGreaterThan(0.35);
    expect(share).toBeLessThan(0.65);
    expect(await client.getBooleanValue('web.rollout', false, { targetingKey: 'user-7' })).toBe(served[7]);
  });

  it('bulk evaluation answers with an ETag and 304 while nothing changed; a flag change changes it', async () => {
    const post = (headers: Record<string, string> = {}) => fetch(`${base}/ofrep/v1/evaluate/flags`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': sdkKey, ...headers }, body: JSON.stringify({ context: { targetingKey: 'u1' } }) });
    const first = await post();
    expect(first.status).toBe(200);
    const body = (await first.json()) as { flags: Array<{ key: string; value: unknown }> };
    expect(body.flags.map((f) => f.key)).toEqual(['web.banner', 'web.limits', 'web.new-checkout', 'web.rollout']);
    const etag = first.headers.get('etag')!;
    expect((await post({ 'if-none-match': etag })).status).toBe(304);
    await t.main.inject({ method: 'PUT', url: '/api/flags/web.banner/environments/production', headers: owner.headers, payload: { value: 'spring sale' } });
    const after = await post({ 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it('an SDK key reads its own environment only, on either listener, and never authorises the API', async () => {
    const evalIn = async (url: string, key: string) => (await fetch(`${url}/ofrep/v1/evaluate/flags/web.banner`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: '{"context":{"targetingKey":"u1"}}' })).json() as Promise<{ value: unknown; reason: string }>;
    expect(await evalIn(base, stagingKey)).toMatchObject({ value: '', reason: 'DISABLED' });
    expect(await evalIn(pipelineBase, sdkKey)).toMatchObject({ value: 'spring sale' });
    expect((await fetch(`${pipelineBase}/api/flags`, { headers: { authorization: `Bearer ${sdkKey}` } })).status).toBe(401);
    const tok = await createToken(t, owner, ['flags:read']);
    expect((await fetch(`${pipelineBase}/ofrep/v1/evaluate/flags`, { method: 'POST', headers: { authorization: `Bearer ${tok.secret}` } })).status).toBe(401);
  });

  it('refuses bad bodies in OFREP’s error shape, and a revoked key with 401', async () => {
    const bad = await fetch(`${base}/ofrep/v1/evaluate/flags/web.banner`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': sdkKey }, body: '{"context": 5}' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ key: 'web.banner', errorCode: 'INVALID_CONTEXT' });
    const nul = await fetch(`${base}/ofrep/v1/evaluate/flags/%00`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': sdkKey }, body: '{}' });
    expect(nul.status).toBe(404);
    expect(await nul.json()).toMatchObject({ errorCode: 'FLAG_NOT_FOUND' });
    const parse = await fetch(`${base}/ofrep/v1/evaluate/flags/web.banner`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': sdkKey }, body: '{"context":' });
    expect(parse.status).toBe(400);
    expect(await parse.json()).toMatchObject({ errorCode: 'PARSE_ERROR' });
    const list = (await t.main.inject({ url: '/api/sdk-keys', headers: owner.headers })).json() as { items: Array<{ id: string; name: string; lastUsedAt: string | null }> };
    const staging = list.items.find((k) => k.name === 'checkout-staging')!;
    expect(staging.lastUsedAt).not.toBeNull();
    expect((await t.main.inject({ method: 'DELETE', url: `/api/sdk-keys/${staging.id}`, headers: owner.headers })).statusCode).toBe(200);
    const revoked = await fetch(`${base}/ofrep/v1/evaluate/flags/web.banner`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': stagingKey }, body: '{}' });
    expect(revoked.status).toBe(401);
  });
});
