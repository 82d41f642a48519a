import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

describeEachEngine('the source a flag write is recorded with', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: string;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Sources');
    token = (await createToken(t, owner, ['flags:read', 'flags:write'], 'flagctl')).secret;
    const res = await t.main.inject({ method: 'POST', url: '/api/flags', headers: owner.headers, payload: { key: 'ops.sources.x', type: 'boolean', risk: 'low' } });
    expect(res.statusCode, res.body).toBe(201);
  });
  afterAll(async () => t.close());

  /** One toggle; answers the record's source and the audit event's source. */
  const toggle = async (via: 'pipeline' | 'main', headers: Record<string, string>, enabled: boolean) => {
    const res = await t[via].inject({ method: 'PUT', url: '/api/flags/ops.sources.x/environments/staging', headers, payload: { enabled } });
    expect(res.statusCode, res.body).toBe(200);
    const record = res.json().record as { seq: number; source: string };
    const event = (await listAuditEvents(engine.db(), owner.org.id, { action: 'flag.', targetId: 'ops.sources.x' }, 50)).items.find((e) => e.seq === record.seq)!;
    return [record.source, event.source];
  };

  it.each([
    ['a token through our command-line clients (they send x-changeledger-client: cli)', 'pipeline', 'cli', true, ['cli', 'cli']],
    ['a token without the header: any other API client', 'pipeline', null, false, ['api', 'api']],
    ['a token with any other value in the header', 'pipeline', 'ui', true, ['api', 'api']],
    ['a signed-in person, header or not', 'main', 'cli', false, ['ui', 'ui']],
  ] as const)('%s', async (_who, via, client, enabled, expected) => {
    const headers: Record<string, string> = via === 'main' ? { ...owner.headers } : { authorization: `Bearer ${token}` };
    if (client) headers['x-changeledger-client'] = client;
    expect(await toggle(via, headers, enabled)).toEqual(expected);
  });
});
