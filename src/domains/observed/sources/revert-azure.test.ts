import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NOT_STORED, type ObservedEvent } from '../observed-types.js';
import { azureIntake } from './azure.js';
import { draftAzureRevert, type AzureWriteFacts } from './revert-azure.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'azure-activity-log');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`azure revert: SKIPPING the shared real Activity Log payload tests: ${SHARED} is absent`);

const SUB = '/subscriptions/11111111-2222-3333-4444-555555555555';
const ASSIGNMENT = `${SUB}/providers/Microsoft.Authorization/roleAssignments/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0`;
const ASSIGNMENT_BODY = JSON.stringify({ Id: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0', Properties: { PrincipalId: '770797c4-e05a-43f9-bda2-1f1f379987ae', RoleDefinitionId: '/providers/Microsoft.Authorization/roleDefinitions/8e3af657-a8ff-443c-a75c-2fe8c4bcb635', Scope: SUB } });
const facts = (operation: string, resourceId: string | null, requestBody: string | null = null): AzureWriteFacts => ({ operation, resourceId, requestBody });

type Want = { tool: 'az' | 'none'; command: string | null; summary: RegExp; changed?: unknown };

describe('draftAzureRevert: what a person is shown for each kind of write', () => {
  const cases: Array<[string, AzureWriteFacts, Want]> = [
    ['a new role assignment is deleted by its id', facts('Microsoft.Authorization/roleAssignments/write', ASSIGNMENT, ASSIGNMENT_BODY),
      { tool: 'az', command: `az role assignment delete --ids ${ASSIGNMENT}`, summary: /^Removes the role assignment this write made \(principal 770797c4-e05a-43f9-bda2-1f1f379987ae with the role definition 8e3af657-a8ff-443c-a75c-2fe8c4bcb635\): whoever it was given to loses that access\.$/, changed: null }],
    ['the operation name is read in any case', facts('MICROSOFT.AUTHORIZATION/ROLEASSIGNMENTS/WRITE', ASSIGNMENT),
      { tool: 'az', command: `az role assignment delete --ids ${ASSIGNMENT}`, summary: /^Removes the role assignment this write made: whoever/ }],
    ['a role assignment write without the assignment\'s id has no command', facts('Microsoft.Authorization/roleAssignments/write', SUB),
      { tool: 'none', command: null, summary: /does not carry the id of the role assignment/ }],
    ['a deleted lock: none, naming the lock and the scope it guarded', facts('Microsoft.Authorization/locks/delete', `${SUB}/resourceGroups/prod-rg/providers/Microsoft.Authorization/locks/DoNotDelete`),
      { tool: 'none', command: null, summary: /^The lock DoNotDelete was removed from \/subscriptions\/11111111-2222-3333-4444-555555555555\/resourceGroups\/prod-rg\. Its level \(CanNotDelete or ReadOnly\)/, changed: { operation: 'Microsoft.Authorization/locks/delete', resourceId: `${SUB}/resourceGroups/prod-rg/providers/Microsoft.Authorization/locks/DoNotDelete`, lock: 'DoNotDelete', scope: `${SUB}/resourceGroups/prod-rg` } }],
    ['a deleted resource group can only come back from a backup', facts('Microsoft.Resources/subscriptions/resourceGroups/delete', `${SUB}/resourceGroups/shop-rg`),
      { tool: 'none', command: null, summary: /^A deleted resource group \(with every resource in it\) cannot be brought back by a command: it can only be restored from a backup/, changed: { operation: 'Microsoft.Resources/subscriptions/resourceGroups/delete', resourceId: `${SUB}/resourceGroups/shop-rg` } }],
    ['a deleted virtual machine can only come back from a backup', facts('Microsoft.Compute/virtualMachines/delete', `${SUB}/resourceGroups/shop-rg/providers/Microsoft.Compute/virtualMachines/vm1`),
      { tool: 'none', command: null, summary: /^A deleted virtual machine cannot be brought back by a command/ }],
    ['anything else: no known inverse, named, with its request body', facts('Microsoft.Network/networkSecurityGroups/securityRules/write', `${SUB}/resourceGroups/rg/providers/Microsoft.Network/networkSecurityGroups/nsg/securityRules/ssh`, '{"properties":{"access":"Allow","destinationPortRange":"22"}}'),
      { tool: 'none', command: null, summary: /^No known inverse for Microsoft\.Network\/networkSecurityGroups\/securityRules\/write: the entry does not hold the state before this write\.$/, changed: { properties: { access: 'Allow', destinationPortRange: '22' } } }],
    ['anything else without a body shows the operation and resource', facts('Microsoft.Web/sites/restart/action', `${SUB}/resourceGroups/rg/providers/Microsoft.Web/sites/shop`),
      { tool: 'none', command: null, summary: /^No known inverse for Microsoft\.Web\/sites\/restart\/action/, changed: { operation: 'Microsoft.Web/sites/restart/action', resourceId: `${SUB}/resourceGroups/rg/providers/Microsoft.Web/sites/shop` } }],
  ];

  it.each(cases)('%s', (_name, f, want) => {
    const d = draftAzureRevert(f);
    expect(d).toMatchObject({ tool: want.tool, command: want.command, manifest: null });
    expect(d.summary).toMatch(want.summary);
    if (want.changed !== undefined) expect(want.changed === null ? d.changed : JSON.parse(d.changed!)).toEqual(want.changed);
  });
});

describe('draftAzureRevert: nothing from an entry reaches the shell unquoted', () => {
  it('quotes an id like …/x\'; rm -rf /, and bash reads it back as one word', () => {
    const id = `${SUB}/providers/Microsoft.Authorization/roleAssignments/x'; rm -rf /`;
    const d = draftAzureRevert(facts('Microsoft.Authorization/roleAssignments/write', id));
    expect(d.command).toBe(`az role assignment delete --ids '${id.replace(/'/g, `'\\''`)}'`);
    const args = execFileSync('bash', ['-c', `printf '%s\\0' ${d.command!.slice('az '.length)}`], { encoding: 'utf8' }).split('\0').slice(0, -1);
    expect(args).toEqual(['role', 'assignment', 'delete', '--ids', id]);
  });

  it('an id that is not a resource path (a dash-led one) gets no command', () => {
    expect(draftAzureRevert(facts('Microsoft.Authorization/roleAssignments/write', '--yes'))).toMatchObject({ tool: 'none', command: null });
  });
});

describe('the adapter carries the revert', () => {
  const parse = (body: unknown) => azureIntake.parse({ headers: {}, rawBody: Buffer.from(JSON.stringify(body)), body }, { sourceId: 's', config: {}, ciNamespaces: [], now: new Date('2026-12-01T00:00:00Z') });
  const entry = (over: Record<string, unknown>) => ({
    time: '2026-11-30T10:00:00Z', resourceId: ASSIGNMENT, operationName: 'Microsoft.Authorization/roleAssignments/write', category: 'Administrative', resultType: 'Success', resultSignature: 'Succeeded.Created', correlationId: 'corr-1',
    identity: { claims: { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn': 'eve@contoso.com' } }, properties: { statusCode: 'Created', requestbody: ASSIGNMENT_BODY }, ...over,
  });

  it('an applied write carries its drafted inverse; a refused one carries null', () => {
    expect(parse({ records: [entry({})] }).events[0]!.revert).toMatchObject({ tool: 'az', command: `az role assignment delete --ids ${ASSIGNMENT}` });
    expect(parse({ records: [entry({ resultType: 'Failure', resultSignature: 'Forbidden.403' })] }).events[0]).toMatchObject({ denied: true, revert: null });
  });

  it('a Key Vault secret write shows its value [not stored]', () => {
    const e = parse({ records: [entry({ operationName: 'Microsoft.KeyVault/vaults/secrets/write', resourceId: `${SUB}/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/kv/secrets/db`, properties: { requestbody: '{"properties":{"value":"hunter2"}}' } })] }).events[0]!;
    expect(JSON.parse(e.revert!.changed!)).toEqual({ properties: { value: NOT_STORED } });
  });
});

describe.skipIf(!hasShared)('draftAzureRevert on the shared real Activity Log payloads (../shared/fixtures/real/azure-activity-log)', () => {
  const load = (f: string) => JSON.parse(readFileSync(join(SHARED, f), 'utf8')) as Record<string, unknown>;
  const one = (body: unknown): ObservedEvent => {
    const p = azureIntake.parse({ headers: {}, rawBody: Buffer.from('{}'), body }, { sourceId: 's', config: {}, ciNamespaces: [], now: new Date('2026-12-01T00:00:00Z') });
    expect(p.events).toHaveLength(1);
    return p.events[0]!;
  };
  const fromRecord = (f: string) => one({ records: [load(f)] });

  it('the Owner role assignment: deleted by its id, naming the principal it was given to', () => {
    const d = fromRecord('panther-administrative-roleAssignments-write-owner.json').revert!;
    expect(d).toMatchObject({ tool: 'az', command: 'az role assignment delete --ids /subscriptions/12345678-1234-1234-1234-123456789abc/providers/Microsoft.Authorization/roleAssignments/a1b2c3d4-e5f6-7890-abcd-ef1234567890', changed: null });
    // The body's principal is who was given the role; the evidence's is the caller's own assignment.
    expect(d.summary).toContain('principal 770797c4-e05a-43f9-bda2-1f1f379987ae');
  });

  it.each([
    ['panther-administrative-resourceGroups-delete.json', /^A deleted resource group .* restored from a backup/],
    ['panther-administrative-virtualMachines-delete.json', /^A deleted virtual machine .* restored from a backup/],
  ])('%s: none', (file, summary) => {
    expect(fromRecord(file).revert).toMatchObject({ tool: 'none', command: null, summary: expect.stringMatching(summary) });
  });

  it('the refused ones carry null, though a lock\'s delete would name its scope', () => {
    expect(fromRecord('panther-administrative-locks-delete-failed-403.json').revert).toBeNull();
    expect(fromRecord('panther-administrative-listkeys-failed-403.json').revert).toBeNull();
    const lock = load('panther-administrative-locks-delete-failed-403.json');
    expect(draftAzureRevert({ operation: lock.operationName as string, resourceId: lock.resourceId as string, requestBody: null }).summary)
      .toMatch(/^The lock CriticalLock was removed from \/subscriptions\/12345678-1234-1234-1234-123456789abc\/resourceGroups\/protected-rg\./);
  });

  it('the REST example\'s support ticket write: no known inverse, by its operation', () => {
    const body = (load('rest-api-GetActivityLogsFiltered-example.json').responses as Record<string, { body: unknown }>)['200']!.body;
    expect(one(body).revert).toMatchObject({ tool: 'none', command: null, summary: expect.stringMatching(/^No known inverse for microsoft\.support\/supporttickets\/write/) });
  });
});
