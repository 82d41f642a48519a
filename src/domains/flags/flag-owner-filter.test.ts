import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { countRows, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { ownerNamesOf } from './flag.js';

describe('ownerNamesOf: the owner values that name a service', () => {
  it.each([
    ['svc:payments-api', ['payments-api', 'svc:payments-api']],
    ['payments-api', ['payments-api', 'svc:payments-api']],
    ['svc:', ['svc:']],
  ])('%s → %j', (service, names) => {
    expect(ownerNamesOf(service)).toEqual(names);
  });
});

// The catalogue entity page lists the flag changes of the flags its service owns.
describeEachEngine('flag records by owning service', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.main.inject({ method, url, headers: owner.headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const flagsIn = async (query: string): Promise<string[]> => {
    const r = await api('GET', `/api/flags/audit?${query}`);
    expect(r.statusCode, r.body).toBe(200);
    return (r.json() as { items: Array<{ flag: string; change: string }> }).items.map((i) => `${i.flag} ${i.change}`);
  };

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Owners');
    for (const [key, ownerService] of [['pay.retry', 'payments-api'], ['pay.keyed', 'svc:payments-api'], ['web.banner', 'web'], ['orphan.flag', null]] as const) {
      const r = await api('POST', '/api/flags', { key, type: 'boolean', risk: 'low', ...(ownerService ? { ownerService } : {}), reason: 'introduce the flag' });
      expect(r.statusCode, r.body).toBe(201);
    }
    expect((await api('PUT', '/api/flags/pay.retry/environments/production', { enabled: true, reason: 'turn it on' })).statusCode).toBe(200);
    expect((await api('PUT', '/api/flags/web.banner/environments/production', { enabled: true, reason: 'turn it on' })).statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  it('answers the records of the flags a service owns, by its key or its name, newest first', async () => {
    const expected = ['pay.retry updated', 'pay.keyed created', 'pay.retry created'];
    expect(await flagsIn('service=svc%3Apayments-api')).toEqual(expected);
    expect(await flagsIn('service=payments-api')).toEqual(expected);
    expect(await flagsIn('service=svc%3Aweb')).toEqual(['web.banner updated', 'web.banner created']);
  });

  it('answers nothing for a service that owns no flag', async () => {
    expect(await flagsIn('service=svc%3Aledger')).toEqual([]);
  });

  it('narrows a namespace, an environment and a window too', async () => {
    expect(await flagsIn('service=svc%3Apayments-api&namespace=pay.keyed')).toEqual(['pay.keyed created']);
    expect(await flagsIn('service=svc%3Apayments-api&namespace=web.*')).toEqual([]);
    expect(await flagsIn('service=svc%3Apayments-api&namespace=pay.*')).toEqual(['pay.retry updated', 'pay.keyed created', 'pay.retry created']);
    expect(await flagsIn('service=svc%3Aweb&namespace=pay.*')).toEqual([]);
    expect(await flagsIn('namespace=nobody.*')).toEqual([]);
    expect(await flagsIn('service=svc%3Apayments-api&env=production')).toEqual(['pay.retry updated']);
    expect(await flagsIn('service=svc%3Apayments-api&since=1h')).toEqual(['pay.retry updated', 'pay.keyed created', 'pay.retry created']);
  });

  it('refuses an empty service naming the field, writing nothing', async () => {
    const before = await countRows(engine.db());
    const r = await api('GET', '/api/flags/audit?service=');
    expect(r.statusCode).toBe(400);
    expect(r.json().field).toBe('service');
    expect(await countRows(engine.db())).toEqual(before);
  });
});
