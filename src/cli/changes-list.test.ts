import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../test/support/engines.js';
import { aConnection, anObserved } from '../../test/support/observed.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../test/support/test-app.js';
import { changeCommands } from './changes.js';
import { listQuery, renderList, type ListAnswer } from './changes-list.js';

describe('changes list: the query and the table', () => {
  it('sends each option as the server’s filter, the switches as true', () => {
    expect(listQuery({ source: 'kubernetes', since: '24h', service: 'checkout', kind: ' push,deploy ', includeProposed: true, denied: true, unauthorized: false }))
      .toEqual({ source: 'kubernetes', since: '24h', service: 'checkout', kind: 'push,deploy', include_proposed: 'true', denied: 'true' });
  });
  it('prints what cannot be seen under the table, and under an empty answer too', () => {
    const entry = { displayId: 'CHG-ABCDEF12', origin: 'observed', source: 'kubernetes', kind: 'k8s_write', status: 'recorded', title: 'patch deployments/checkout', at: '2026-03-02T09:00:00.000Z', service: '', denied: false, authorized: false, principal: { name: 'system:serviceaccount:jenkins:deployer' } };
    const text = renderList({ changes: [entry], neverCaptured: ['files inside a VM'] });
    expect(text).toMatch(/^ID +WHEN +SOURCE +KIND +STATUS +SERVICE +WHO +TITLE\n/);
    expect(text).toContain('CHG-ABCDEF12  2026-03-02T09:00:00.000Z  kubernetes  k8s_write  recorded (unauthorized)  (unmapped)  system:serviceaccount:jenkins:deployer  patch deployments/checkout');
    expect(text.endsWith('\nWhat we cannot see (so not listed):\n  - files inside a VM\n')).toBe(true);
    const empty: ListAnswer = { changes: [], neverCaptured: ['files inside a VM'] };
    expect(renderList(empty)).toBe('No change matches.\n\nWhat we cannot see (so not listed):\n  - files inside a VM\n');
  });
});

describeEachEngine('changeledger changes list against the pipeline listener', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let env: NodeJS.ProcessEnv;
  const cli = async (args: string[]) => {
    let out = '';
    let err = '';
    let code = -1;
    const program = new Command('changeledger').exitOverride();
    changeCommands(program, { out: (s) => void (out += s), err: (s) => void (err += s), stdin: async () => '' }, (c) => (code = c), { tty: false, env });
    await program.parseAsync(['changes', 'list', ...args], { from: 'user' });
    return { code, out, err };
  };

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'ListCli');
    const now = t.clock.now().getTime();
    await aConnection(engine.db(), owner.org.id, 'kubernetes');
    await anObserved(engine.db(), owner.org.id, { source: 'kubernetes', kind: 'k8s_write', title: 'patch deployments/checkout in prod', occurredAt: new Date(now - 3_600_000).toISOString(), services: ['svc:checkout'] });
    await anObserved(engine.db(), owner.org.id, { source: 'kubernetes', kind: 'k8s_write', title: 'patch deployments/payments in prod', occurredAt: new Date(now - 7_200_000).toISOString(), services: ['svc:payments'] });
    await anObserved(engine.db(), owner.org.id, { source: 'kubernetes', kind: 'k8s_write', title: 'patch deployments/checkout last week', occurredAt: new Date(now - 7 * 86_400_000).toISOString(), services: ['svc:checkout'] });
    const address = await t.pipeline.listen({ port: 0, host: '127.0.0.1' });
    env = { CHANGELEDGER_URL: address, CHANGELEDGER_TOKEN: (await createToken(t, owner, ['changes:read'], 'reader')).secret };
  });
  afterAll(async () => t.close());

  it('--source kubernetes --since 24h --service X --json answers the server’s list', async () => {
    const r = await cli(['--source', 'kubernetes', '--since', '24h', '--service', 'checkout', '--json']);
    expect(r.code, r.err).toBe(0);
    const body = JSON.parse(r.out) as ListAnswer;
    expect(body.changes.map((c) => c.title)).toEqual(['patch deployments/checkout in prod']);
    expect(body.neverCaptured.some((l) => l.startsWith('Kubernetes objects edited on a cluster whose audit webhook'))).toBe(true);
  });

  it('prints the table and, under it, what the connected sources cannot see', async () => {
    const r = await cli(['--source', 'kubernetes', '--since', '24h']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('\n').filter((l) => l.startsWith('CHG-')).map((l) => l.split('  ').at(-1))).toEqual(['patch deployments/checkout in prod', 'patch deployments/payments in prod']);
    expect(r.out).toMatch(/\nWhat we cannot see \(so not listed\):\n {2}- /);
    expect(r.out).toContain('cloud control-plane writes at all');
  });

  it('a refused filter exits 2 naming the option', async () => {
    const r = await cli(['--kind', 'teleport']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown kind "teleport".*option --kind/);
  });
});
