import { expect } from 'vitest';
import { createToken, PASSWORD, signIn, testCtx, type SignedIn, type TestApp } from './test-app.js';

/**
 * An organisation whose changes go through a pipeline: an owner, Alice the one approver (quorum 1),
 * Mia who owns the pipeline's token (changes:read and changes:write), and a catalogue imported from
 * `estate` (changeledger YAML).
 */
export async function pipelineOrganization(t: TestApp, name: string, estate: string): Promise<{ owner: SignedIn; alice: SignedIn; mia: SignedIn; token: string }> {
  const created = await t.services.auth.createOrganizationWithOwner(testCtx, { name, email: `olivia-${Math.random().toString(36).slice(2, 8)}@acme.dev`, password: PASSWORD });
  const owner = await signIn(t, created.org, created.owner, PASSWORD);
  const add = async (who: string) => {
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${who}-${owner.org.slug}@acme.dev`, role: 'member', displayName: who, password: PASSWORD });
    return signIn(t, owner.org, user, PASSWORD);
  };
  const alice = await add('alice');
  const mia = await add('mia');
  const put = (url: string, payload: Record<string, unknown>) => t.main.inject({ method: 'PUT', url, headers: owner.headers, payload });
  const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: estate });
  expect(imp.statusCode, imp.body).toBe(200);
  expect((await put(`/api/organizations/${owner.org.id}/change-approvers`, { userIds: [alice.user.id] })).statusCode).toBe(200);
  expect((await put(`/api/organizations/${owner.org.id}/change-settings`, { quorum: 1 })).statusCode).toBe(200);
  const token = (await createToken(t, mia, ['changes:read', 'changes:write'], 'pipeline')).secret;
  return { owner, alice, mia, token };
}
