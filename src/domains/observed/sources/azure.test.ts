import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import { NOT_STORED, type AdapterContext, type IntakeRequest, type ObservedEvent, type Parsed } from '../observed-types.js';
import { azureIntake } from './azure.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'azure-activity-log');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`azure intake: SKIPPING the shared real Activity Log payload tests: ${SHARED} is absent`);

const ctx: AdapterContext = { sourceId: 'src_az', config: {}, ciNamespaces: [], now: new Date('2026-12-01T00:00:00Z') };
const req = (body: unknown, headers: IntakeRequest['headers'] = {}): IntakeRequest => ({ headers, rawBody: Buffer.from(JSON.stringify(body)), body });
const parse = (body: unknown): Parsed => azureIntake.parse(req(body), ctx);
const one = (body: unknown): ObservedEvent => {
  const p = parse(body);
  expect(p.rejected).toEqual([]);
  expect(p.events).toHaveLength(1);
  return p.events[0]!;
};

const VM = '/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/shop-rg/providers/Microsoft.Compute/virtualMachines/checkout-vm';
/** A resource-log entry of our own (the diagnostic setting's form): a person's successful VM write unless told otherwise. */
function rec(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    time: '2026-11-30T10:00:00.1234567Z', resourceId: VM, operationName: 'Microsoft.Compute/virtualMachines/write', category: 'Administrative',
    resultType: 'Success', resultSignature: 'Succeeded.OK', callerIpAddress: '198.51.100.7', correlationId: 'corr-1', level: 'Information', location: 'westeurope',
    identity: { claims: { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn': 'alice@contoso.com', name: 'Alice', 'http://schemas.microsoft.com/identity/claims/objectidentifier': 'oid-alice' } },
    properties: { statusCode: 'OK', serviceRequestId: 'srq-1' },
    ...over,
  };
}
/** A REST list entry of our own. */
function restEntry(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventDataId: 'ed-1', correlationId: 'corr-2', operationName: { value: 'Microsoft.Web/sites/restart/action', localizedValue: 'Restart Web App' },
    category: { value: 'Administrative' }, status: { value: 'Succeeded' }, subStatus: { value: 'OK' }, caller: 'bob@contoso.com',
    eventTimestamp: '2026-11-30T11:00:00Z', resourceId: '/subscriptions/1/resourceGroups/web/providers/Microsoft.Web/sites/storefront', subscriptionId: '1',
    httpRequest: { method: 'POST' }, claims: {}, properties: {},
    ...over,
  };
}

describe('azureIntake: which entries are recorded', () => {
  it('records an Administrative write from a diagnostic setting\'s records[], with who, where and a portal link', () => {
    const e = one({ records: [rec()] });
    expect(e).toMatchObject({
      kind: 'cloud_write', action: 'Microsoft.Compute/virtualMachines/write', resource: VM, occurredAt: '2026-11-30T10:00:00.123Z',
      location: { subscription: '11111111-2222-3333-4444-555555555555', resourceGroup: 'shop-rg', region: 'westeurope' },
      principal: { kind: 'person', name: 'alice@contoso.com', id: 'oid-alice' }, denied: false, outcome: 'succeeded',
      link: `https://portal.azure.com/#resource${VM}`, title: 'write virtualMachines checkout-vm',
    });
    expect(e.eventId).toMatch(/^az-[0-9a-f]{32}$/);
  });

  it('the same entry sent again keeps its key; another phase or operation of the correlation does not', () => {
    const key = (over: Record<string, unknown>) => one({ records: [rec(over)] }).eventId;
    expect(key({})).toBe(key({ callerIpAddress: '203.0.113.9' }));
    expect(key({})).not.toBe(key({ resourceId: `${VM}-2` }));
    expect(key({})).not.toBe(key({ time: '2026-11-30T10:00:01Z' }));
  });

  it('records the REST list shape by its eventDataId, a caller with an @ being a person', () => {
    expect(one({ value: [restEntry()] })).toMatchObject({ eventId: 'ed-1', action: 'Microsoft.Web/sites/restart/action', principal: { kind: 'person', name: 'bob@contoso.com' }, title: 'restart sites storefront' });
  });

  it('one operation makes one row: its Started and Accepted entries are folded (noise), its Succeeded entry recorded', () => {
    const p = parse({ value: [restEntry({ eventDataId: 'a', status: { value: 'Started' } }), restEntry({ eventDataId: 'b', status: { value: 'Accepted' } }), restEntry({ eventDataId: 'c' })] });
    expect([p.events.map((e) => e.eventId), p.noise]).toEqual([['c'], 2]);
  });

  it.each([
    ['a read-type operation', { operationName: 'Microsoft.Compute/virtualMachines/read' }],
    ['a Policy entry', { category: 'Policy', operationName: 'Microsoft.Authorization/policies/audit/action' }],
    ['a ServiceHealth entry', { category: 'ServiceHealth' }],
  ])('leaves out %s (ignored)', (_what, over) => {
    expect(parse({ records: [rec(over)] })).toEqual({ events: [], ignored: 1, noise: 0, rejected: [] });
  });

  it('a failed operation changed nothing (noise); a 403 is a denied attempt, wherever Azure writes it', () => {
    expect(parse({ records: [rec({ resultType: 'Failure', resultSignature: 'Failed.Conflict' })] })).toMatchObject({ events: [], noise: 1 });
    for (const over of [{ resultSignature: '403' }, { resultSignature: 'Failed.Forbidden' }, { resultSignature: 'Failed', properties: { statusCode: 'Forbidden' } }]) {
      expect(one({ records: [rec({ resultType: 'Failure', ...over })] })).toMatchObject({ denied: true, outcome: 'failed' });
    }
    const rest = one({ value: [restEntry({ status: { value: 'Failed' }, subStatus: { value: 'Forbidden' }, properties: { statusCode: 'Forbidden' } })] });
    expect(rest).toMatchObject({ denied: true, errorCode: 'Forbidden' });
    expect(rest.title).toMatch(/^Denied: /);
  });

  it('an application\'s token is a service', () => {
    const p = one({ records: [rec({ identity: { claims: { appid: 'app-123', 'http://schemas.microsoft.com/identity/claims/objectidentifier': 'oid-sp' } } })] }).principal;
    expect(p).toMatchObject({ kind: 'service', name: 'app-123', id: 'oid-sp' });
    expect(one({ value: [restEntry({ caller: '2468adf0-8211-44e3-95aa-85137af64708' })] }).principal.kind).toBe('service');
  });

  it('a Key Vault secret or an app\'s settings written through ARM: values [not stored], keys kept', () => {
    const body = JSON.stringify({ properties: { DB_PASSWORD: 'hunter2', MODE: 'live' } });
    const e = one({ records: [rec({ operationName: 'Microsoft.Web/sites/config/write', properties: { requestbody: body } })] });
    expect(JSON.parse(e.diff!)).toEqual({ properties: { DB_PASSWORD: NOT_STORED, MODE: NOT_STORED } });
    expect(JSON.stringify(e)).not.toContain('hunter2');
    const other = one({ records: [rec({ properties: { requestbody: '{"tags":{"team":"shop"}}' } })] });
    expect(other.diff).toBe('{"tags":{"team":"shop"}}');
  });
});

describe('azureIntake: malformed bodies and bad items', () => {
  it.each([
    ['a body that is not an object', 'body', [1, 2]],
    ['an object with neither records nor value', 'records', { hello: 1 }],
    ['records that is not a list', 'records', { records: 'x' }],
    ['value that is not a list', 'value', { value: {} }],
  ])('%s → 400 naming %s', (_what, field, body) => {
    let err: unknown;
    try {
      parse(body);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect([(err as AppError).status, (err as AppError).field]).toEqual([400, field]);
  });

  it('any JSON body is read or answered 400 naming a field, never another error (no 500)', () => {
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    const mutated = fc.tuple(fc.constantFrom(...Object.keys(rec())), anyJson).map(([k, v]) => ({ ...rec(), [k]: v }));
    const bodies = fc.oneof(anyJson, mutated, fc.array(mutated, { maxLength: 3 }), fc.record({ Records: fc.array(mutated, { maxLength: 3 }), records: fc.array(mutated, { maxLength: 3 }), value: fc.array(mutated, { maxLength: 3 }) }, { requiredKeys: [] }));
    fc.assert(fc.property(bodies, (body) => {
      try {
        const p = parse(body);
        for (const e of p.events) expect(typeof e.eventId === 'string' && !Number.isNaN(Date.parse(e.occurredAt))).toBe(true);
      } catch (err) {
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).status).toBe(400);
        expect((err as AppError).field).toBeTruthy();
      }
    }), { numRuns: 400, seed: 15 });
  });

  it('a batch records the good entries and reports each bad one by index and field', () => {
    const p = parse({ records: [rec(), rec({ operationName: undefined }), rec({ correlationId: undefined }), 'x', rec({ time: 'soon', correlationId: 'c9' })] });
    expect(p.events).toHaveLength(1);
    expect(p.rejected.map((r) => [r.index, r.field])).toEqual([[1, 'records.1.operationName'], [2, 'records.2.correlationId'], [3, 'records.3'], [4, 'records.4.time']]);
    const rest = parse({ value: [restEntry({ eventDataId: undefined }), restEntry({ status: undefined })] });
    expect(rest.rejected.map((r) => r.field)).toEqual(['value.0.eventDataId', 'value.1.status']);
  });
});

describe.skipIf(!hasShared)('azureIntake on the shared real Activity Log payloads', () => {
  const load = (f: string) => JSON.parse(readFileSync(join(SHARED, f), 'utf8')) as Record<string, unknown>;
  /** The detection-rule test cases are single resource-log entries: a diagnostic setting sends them inside records[]. */
  const asRecords = (f: string) => ({ records: [load(f)] });

  it('reads every file: one event, noise or ignored entry each, nothing rejected', () => {
    for (const f of readdirSync(SHARED).filter((x) => x.startsWith('panther-'))) {
      const p = parse(asRecords(f));
      expect([f, p.rejected, p.events.length + p.noise + p.ignored]).toEqual([f, [], 1]);
    }
  });

  it('the 403 entries are denied attempts', () => {
    for (const f of ['panther-administrative-listkeys-failed-403.json', 'panther-administrative-locks-delete-failed-403.json']) {
      expect([f, one(asRecords(f)).denied]).toEqual([f, true]);
    }
    expect(one(asRecords('panther-administrative-locks-delete-failed-403.json')).action).toBe('MICROSOFT.AUTHORIZATION/LOCKS/DELETE');
  });

  it('the deletes and the role assignment are recorded with subscription and resource group', () => {
    expect(one(asRecords('panther-administrative-virtualMachines-delete.json'))).toMatchObject({ denied: false, title: 'delete virtualMachines myvm', location: { subscription: '12345678-1234-1234-1234-123456789abc', resourceGroup: 'myresourcegroup' } });
    expect(one(asRecords('panther-administrative-resourceGroups-delete.json')).location).toEqual({ subscription: '12345678-1234-1234-1234-123456789abc', resourceGroup: 'myresourcegroup', region: 'eastus' });
    const role = one(asRecords('panther-administrative-roleAssignments-write-owner.json'));
    expect(role.action).toBe('Microsoft.Authorization/roleAssignments/write');
    expect(role.diff).toContain('RoleDefinitionId');
  });

  it('the REST API example: the support ticket write by its eventDataId and caller', () => {
    const body = (load('rest-api-GetActivityLogsFiltered-example.json').responses as Record<string, { body: unknown }>)['200']!.body;
    expect(one(body)).toMatchObject({
      eventId: '44ade6b4-3813-45e6-ae27-7420a95fa2f8', action: 'microsoft.support/supporttickets/write', occurredAt: '2015-01-21T22:14:26.979Z',
      principal: { kind: 'person', name: 'admin@contoso.com' }, location: { subscription: '089bd33f-d4ec-47fe-8ba5-0753aa5c5b33', resourceGroup: 'MSSupportGroup' },
    });
  });
});
