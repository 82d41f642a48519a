import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SettableClock } from '../../src/platform/clock.js';
import { describeEachEngine } from '../support/engines.js';
import { startRelay, startSpecReceiver } from '../support/spec-receiver.js';
import { createToken, PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../support/test-app.js';

/**
 * The rollback job beside the spec's GitHub deploy job (test/fixtures/pipelines/github-rollback.sh),
 * run by bash with curl and jq against the pipeline listener: it blocks until an approver releases
 * the rollback, redeploys the before-state the pipeline registered, and reports it done. The spec's
 * own Node receiver takes the callback change.rollback_requested (and change.rolled_back).
 */

const PIPELINES = fileURLToPath(new URL('../fixtures/pipelines/', import.meta.url));
const missing = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
if (missing.length) throw new Error(`the rollback job needs ${missing.join(', ')} (apt-get install ${missing.join(' ')}; .ci/run installs them)`);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('a pipeline rollback job blocks on the rollback, redeploys the before-state and reports it', (engine) => {
  const clock = new SettableClock(new Date());
  let t: TestApp;
  let owner: SignedIn;
  let alice: SignedIn;
  let token: string;
  let url: string;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let receiver: Awaited<ReturnType<typeof startSpecReceiver>> | null = null;
  const dirs: string[] = [];

  const pipe = (method: 'GET' | 'POST', path: string, payload?: Json) =>
    t.pipeline.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload }) });
  const drain = async () => {
    while ((await t.services.worker.runOnce()) > 0);
  };

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock, publicUrl: 'https://changes.acme.dev' });
    const created = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Rollbacks', email: `olivia-${Math.random().toString(36).slice(2, 8)}@acme.dev`, password: PASSWORD });
    owner = await signIn(t, created.org, created.owner, PASSWORD);
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `alice-${owner.org.slug}@acme.dev`, role: 'member', displayName: 'alice', password: PASSWORD });
    alice = await signIn(t, owner.org, user, PASSWORD);
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: 'entities:\n  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: important }\n' });
    expect(imp.statusCode, imp.body).toBe(200);
    expect((await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-approvers`, headers: owner.headers, payload: { userIds: [alice.user.id] } })).statusCode).toBe(200);
    expect((await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { approvalRequired: 'none' } })).statusCode).toBe(200);
    token = (await createToken(t, owner, ['changes:read', 'changes:write'], 'github')).secret;
    await t.pipeline.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.pipeline.server.address() as { port: number }).port}`;
    relay = await startRelay(clock);
  });
  afterAll(async () => {
    receiver?.stop();
    await relay?.close();
    await t?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('waits while no rollback is requested, then redeploys the previous version once an approver releases it; the spec\'s receiver takes change.rollback_requested', async () => {
    const r = await pipe('POST', '/api/changes', {
      title: 'Deploy checkout-api 3.2.0', kind: 'deploy', components: [{ query: 'checkout-api' }], startNow: true,
      pipeline: { pipeline: 'deploy', run: '98765', repo: 'acme/checkout', commit: '9f1c2ab7e4d0', environment: 'production' },
      previousVersion: '3.1.4', callbackUrl: `${relay.url}/changeledger`,
    });
    expect(r.statusCode, r.body).toBe(201);
    const { change, callbackSecret } = r.json() as { change: Json; callbackSecret: string };
    receiver = await startSpecReceiver(callbackSecret);
    relay.target = receiver.port;
    expect((await pipe('POST', `/api/changes/${change.id}/complete`, { outcome: 'partial' })).statusCode).toBe(200);
    await drain();

    const dir = mkdtempSync(join(tmpdir(), 'changeledger-rollback-job-'));
    dirs.push(dir);
    copyFileSync(join(PIPELINES, 'rollback.sh'), join(dir, 'rollback.sh'));
    const child = spawn('bash', [join(PIPELINES, 'github-rollback.sh')], {
      cwd: dir, stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CHANGELEDGER_URL: url, CHANGELEDGER_TOKEN: token, CHANGE_ID: change.id, POLL_INTERVAL: '1' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const done = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    const until = Date.now() + 20_000;
    while (!out.includes('no rollback requested (evaluating)')) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`the job never waited:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const released = await t.main.inject({ method: 'POST', url: `/api/changes/${change.id}/rollback`, headers: alice.headers, payload: { note: 'checkout errors after 3.2.0' } });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ executed: true, change: { rollbackState: 'requested' }, rollback: { path: { kind: 'redeploy_previous' } } });
    await drain();
    expect(await done, out).toBe(0);
    expect(out).toContain('rolling back to 3.1.4');
    expect(readFileSync(join(dir, 'rollback.log'), 'utf8')).toBe('redeploying 3.1.4\n');
    await drain();

    const c = (await pipe('GET', `/api/changes/${change.id}`)).json().change;
    expect(c).toMatchObject({ rollbackState: 'rolled_back' });
    const events = relay.received.map((x) => String(x.headers['x-changeledger-event']));
    expect(events).toEqual(['change.started', 'change.completed', 'change.rollback_requested', 'change.rolled_back']);
    expect(relay.received.map((x) => x.answered)).toEqual([204, 204, 204, 204]);
    // The callback carries the before-state the pipeline needs to go back.
    const asked = JSON.parse(relay.received[2]!.raw.toString('utf8')) as Json;
    expect(asked.change.rollback).toMatchObject({ state: 'requested' });
    expect(asked.change.beforeState.captures).toEqual([expect.objectContaining({ method: 'previous_version', previousVersion: '3.1.4' })]);
    expect(await receiver.waitForLines(4)).toEqual([
      `change.started ${change.id} active not_required`, `change.completed ${change.id} evaluating not_required`,
      `change.rollback_requested ${change.id} evaluating not_required`, `change.rolled_back ${change.id} evaluating not_required`,
    ]);
  });
});
