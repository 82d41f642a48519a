import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { appendAuditEvent } from '../ledger/index.js';
import { FLAG_RECORD_VERSION } from './flag-record.js';

type Rec = { seq: number; ts: string; actor: string; flag: string; env: string | null; from: unknown; to: unknown; reason: string; change: string; fields: string[]; definition: unknown; schemaVersion: number; approvers: string[]; breakGlass: boolean };

/** The spec's completeness test: each of the six fields present and non-empty. */
const SIX = ['ts', 'actor', 'flag', 'from', 'to', 'reason'] as const;
const empty = (v: unknown) => v === undefined || v === null || v === '';
/** How jq's string interpolation shows a value. */
const jqText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

describeEachEngine('every kind of flag change record is complete', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let bob: SignedIn;
  let records: Rec[];
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Record kinds');
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `bob.${Math.random().toString(36).slice(2, 7)}@x.test`, role: 'member', password: PASSWORD });
    bob = await signIn(t, owner.org, user, PASSWORD);
    const call = async (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>, who = owner) => {
      const res = await t.main.inject({ method, url, headers: who.headers, payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json() as Record<string, unknown>;
    };
    const set = (key: string, env: string, body: Record<string, unknown>) => call('PUT', `/api/flags/${key}/environments/${env}`, body);

    await call('POST', '/api/flags', { key: 'ops.kinds.low', type: 'boolean', risk: 'low' });
    await call('POST', '/api/flags', { key: 'ops.kinds.high', type: 'boolean', risk: 'high', ownerService: 'payments', reason: 'PAY-12 introduce the new processor' });
    await call('POST', '/api/flags', { key: 'ops.kinds.colour', type: 'string', risk: 'low', value: 'red', reason: 'try colours' });
    await call('POST', '/api/flags', { key: 'ops.kinds.guarded', type: 'boolean', risk: 'low', approvalsNeeded: 1, reason: 'needs a second pair of eyes' });
    await set('ops.kinds.low', 'staging', { enabled: true });
    await set('ops.kinds.low', 'staging', { enabled: true });
    await set('ops.kinds.colour', 'staging', { value: 'blue', reason: 'blue wins' });
    await set('ops.kinds.colour', 'staging', { rules: [{ attribute: 'country', op: 'in', values: ['NL'], value: 'orange' }], reason: 'orange for NL' });
    await set('ops.kinds.colour', 'staging', { rollout: { percentage: 5, bucketBy: 'userId' }, reason: 'start small' });
    await set('ops.kinds.colour', 'staging', { rollout: { percentage: 50, bucketBy: 'userId' }, reason: 'half' });
    await call('PUT', '/api/flags/ops.kinds.low', { description: 'retries', reason: 'describe it' });
    await call('PUT', '/api/flags/ops.kinds.low', { description: 'retries' });
    await set('ops.kinds.high', 'production', { enabled: true, reason: 'INC-4411 switch on' });
    await call('POST', '/api/flags/bulk', { namespace: 'ops.kinds.*', env: 'production', enabled: false, reason: 'INC-4412 kill switch' });
    await call('POST', '/api/flags/bulk', { keys: ['ops.kinds.high'], env: 'staging', enabled: false, breakGlass: true, reason: 'INC-4413 break glass' });
    const proposed = await set('ops.kinds.guarded', 'staging', { enabled: true, reason: 'please turn it on' });
    await call('POST', `/api/flags/requests/${(proposed.changeRequest as { id: string }).id}/approve`, {}, bob);
    // Records written by earlier versions: a version-2 creation, a version-1 toggle without a reason, a deletion.
    const legacy = (action: string, schemaVersion: number, data: Record<string, unknown>) =>
      engine.db().transaction((tx) => appendAuditEvent(tx, t.clock, { actor: { kind: 'user', id: 'usr_old', name: 'alice@old.test' }, source: 'api' }, { orgId: owner.org.id, action, target: { type: 'flag', id: data.flag as string }, schemaVersion, data }));
    await legacy('flag.created', 2, { flag: 'ops.kinds.guarded', env: null, from: null, to: { type: 'boolean', risk: 'low' }, fields: ['type', 'risk'], reason: '', approvers: [], source: 'api', gitops: null });
    await legacy('flag.updated', 1, { flag: 'ops.kinds.guarded', environment: 'production', old: false, new: true });
    await legacy('flag.deleted', 2, { flag: 'ops.kinds.guarded', env: null, from: false, to: null, fields: [], reason: 'gone', approvers: [], source: 'api', gitops: null });
    const res = await t.main.inject({ url: '/api/flags/audit?namespace=ops.kinds.*&since=1h&limit=500', headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    records = (res.json() as { items: Rec[] }).items;
  });
  afterAll(async () => t.close());

  const one = (p: (r: Rec) => boolean) => {
    const found = records.filter(p);
    expect(found, JSON.stringify(records.map((r) => [r.flag, r.change, r.env, r.from, r.to, r.reason]))).toHaveLength(1);
    return found[0]!;
  };

  // [kind, which record, from, to, reason]
  const kinds: Array<[string, (r: Rec) => boolean, unknown, unknown, string]> = [
    ['a low-risk creation without a reason', (r) => r.flag === 'ops.kinds.low' && r.change === 'created', '(absent)', false, '(no reason required)'],
    ['a high-risk creation', (r) => r.flag === 'ops.kinds.high' && r.change === 'created', '(absent)', false, 'PAY-12 introduce the new processor'],
    ['a toggle without a reason', (r) => r.flag === 'ops.kinds.low' && r.change === 'updated' && r.env === 'staging', false, true, '(no reason required)'],
    ['an unchanged toggle', (r) => r.flag === 'ops.kinds.low' && r.change === 'unchanged' && r.env === 'staging', true, true, '(no reason required)'],
    ['a value change', (r) => r.reason === 'blue wins', 'red', 'blue', 'blue wins'],
    ['a rules change', (r) => r.reason === 'orange for NL', { rules: [] }, { rules: [{ attribute: 'country', op: 'in', values: ['NL'], value: 'orange' }] }, 'orange for NL'],
    ['a rollout change', (r) => r.reason === 'half', { rollout: { percentage: 5 } }, { rollout: { percentage: 50 } }, 'half'],
    ['a settings change', (r) => r.reason === 'describe it', { description: '' }, { description: 'retries' }, 'describe it'],
    ['an unchanged settings write', (r) => r.flag === 'ops.kinds.low' && r.change === 'unchanged' && r.env === null, { description: 'retries' }, { description: 'retries' }, '(no reason required)'],
    ['a kill switch', (r) => r.flag === 'ops.kinds.high' && r.reason === 'INC-4412 kill switch', true, false, 'INC-4412 kill switch'],
    ['a flag the kill switch found off', (r) => r.flag === 'ops.kinds.colour' && r.reason === 'INC-4412 kill switch', false, false, 'INC-4412 kill switch'],
    ['a break-glass write', (r) => r.breakGlass, false, false, 'INC-4413 break glass'],
    ['an approved change', (r) => r.approvers.length > 0, false, true, 'please turn it on'],
    ['a version-2 creation', (r) => r.schemaVersion === 2 && r.change === 'created', '(absent)', false, '(no reason required)'],
    ['a version-1 toggle without a reason', (r) => r.schemaVersion === 1, false, true, '(no reason required)'],
    ['a deletion', (r) => r.change === 'deleted', false, '(absent)', 'gone'],
  ];
  it.each(kinds)('%s: from/to is the value that changed, and the reason says something', (_kind, which, from, to, reason) => {
    const r = one(which);
    expect([r.from, r.to, r.reason]).toEqual([from, to, reason]);
  });

  it('the six fields are present and non-empty in every record the query returns, so the jq line never prints null', () => {
    expect(records.length).toBeGreaterThanOrEqual(kinds.length);
    for (const r of records) {
      for (const f of SIX) expect(empty(r[f]), `${f} of ${JSON.stringify(r)}`).toBe(false);
      // What the how-to's jq line prints for each: never a bare null, never an empty ().
      expect([jqText(r.from), jqText(r.to), jqText(r.reason)]).not.toContain('null');
      expect([jqText(r.from), jqText(r.to), jqText(r.reason)]).not.toContain('');
    }
  });

  it('a creation keeps what the flag was created as in its own field, and is written in the current version', () => {
    const high = one((r) => r.flag === 'ops.kinds.high' && r.change === 'created');
    expect(high).toMatchObject({ schemaVersion: FLAG_RECORD_VERSION, env: null, fields: ['enabled'] });
    expect(high.definition).toEqual({ type: 'boolean', risk: 'high', ownerService: 'payments', tags: [], offValue: false, value: true, approvalsNeeded: 0 });
    expect(one((r) => r.schemaVersion === 2 && r.change === 'created')).toMatchObject({ fields: ['enabled'], definition: { type: 'boolean', risk: 'low' } });
    expect(one((r) => r.reason === 'blue wins').definition).toBeNull();
  });
});
