import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

// Before-states, the rule that holds a production change without one, and rollbacks: released by
// people (two at L3), flags written back by changeledger, deploys asked of the pipeline, and the sweep.

const ESTATE = `
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }
  - { key: "svc:ledger", kind: service, name: ledger, tier: critical }
`;

const SWEEP_ONCE = fileURLToPath(new URL('../../../test/support/sweep-once.ts', import.meta.url));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('before-states and rollbacks', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(engine.db());
  });
  afterAll(async () => t.close());

  const organisation = async (label: string) => {
    const owner = await signedInOwner(t, label);
    const people: Record<string, SignedIn> = {};
    for (const name of ['alice', 'bob']) {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${name}.${Math.random().toString(36).slice(2, 6)}@x.test`, role: 'member', displayName: name, password: PASSWORD });
      people[name] = await signIn(t, owner.org, user, PASSWORD);
    }
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    const token = await createToken(t, owner, ['changes:read', 'changes:write', 'flags:read', 'flags:write']);
    const pipe = { authorization: `Bearer ${token.secret}` };
    const call = (headers: Record<string, string>, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      (headers.authorization?.startsWith('Bearer ') ? t.pipeline : t.main).inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
    const settings = await call(owner.headers, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'none' });
    expect(settings.statusCode, settings.body).toBe(200);
    const approvers = await call(owner.headers, 'PUT', `/api/organizations/${owner.org.id}/change-approvers`, { userIds: [people.alice!.user.id, people.bob!.user.id] });
    expect(approvers.statusCode, approvers.body).toBe(200);
    return {
      owner, people, pipe, call,
      audit: async (action: string) => (await listAuditEvents(engine.db(), owner.org.id, { action }, 20)).items,
    };
  };

  describe('before-state captures and the rule', () => {
    it('keeps what the pipeline sent as append-only captures, bound into the approval digest', async () => {
      const o = await organisation('Captures');
      const plain = await o.call(o.pipe, 'POST', '/api/changes', { title: 'Deploy checkout 3.2', kind: 'deploy', components: [{ key: 'svc:checkout' }], pipeline: { pipeline: 'deploy', environment: 'staging' } });
      const r = await o.call(o.pipe, 'POST', '/api/changes', {
        title: 'Deploy checkout 3.2', kind: 'deploy', components: [{ key: 'svc:checkout' }], pipeline: { pipeline: 'deploy', environment: 'staging' },
        previousVersion: '3.1.4', beforeState: { artifact: 'replicas: 3\nimage: checkout:3.1.4\n', artifactName: 'deploy/checkout.yaml', completeness: 'complete' },
      });
      expect(r.statusCode, r.body).toBe(201);
      const c = r.json().change;
      expect(c.captureDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(c.approvalDigest).not.toBe(plain.json().change.approvalDigest);
      const view = (await o.call(o.pipe, 'GET', `/api/changes/${c.id}/before-state`)).json();
      expect(view.captures.map((x: Json) => [x.method, x.completeness, x.restorable])).toEqual([['previous_version', 'partial', true], ['artifact', 'complete', true]]);
      const artifact = view.captures[1];
      expect(artifact).toMatchObject({ artifact: null, artifactName: 'deploy/checkout.yaml', sizeBytes: 34, source: 'pipeline' });
      const one = (await o.call(o.pipe, 'GET', `/api/changes/${c.id}/before-state/${artifact.id}`)).json();
      expect(one.artifact).toBe('replicas: 3\nimage: checkout:3.1.4\n');
      // A JSON artifact is kept canonical: not byte-exact, so not restorable.
      const added = await o.call(o.pipe, 'POST', `/api/changes/${c.id}/before-state`, { artifact: { replicas: 3, image: 'checkout:3.1.4' } });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json().captures.at(-1)).toMatchObject({ artifactType: 'json', restorable: false, completeness: 'unknown' });
      expect(added.json().change.captureDigest).not.toBe(c.captureDigest);
      const audited = await o.audit('change.before_state_captured');
      expect(audited[0]!.data).toMatchObject({ digest: { from: c.captureDigest, to: added.json().change.captureDigest } });
      // The store refuses to edit a capture.
      await expect(engine.db().query(`UPDATE change_captures SET sha256 = 'x' WHERE change_id = $1`, [c.id])).rejects.toThrow(/append-only/);
    });

    it('a before-state added after approval voids the approvals: the approvers approved a change without it', async () => {
      const o = await organisation('Capture after approval');
      expect((await o.call(o.owner.headers, 'PUT', `/api/organizations/${o.owner.org.id}/change-settings`, { approvalRequired: 'all', quorum: 1 })).statusCode).toBe(200);
      const c = (await o.call(o.pipe, 'POST', '/api/changes', { title: 'Deploy checkout', kind: 'deploy', components: [{ key: 'svc:checkout' }], pipeline: { environment: 'staging' } })).json().change;
      expect(c.status).toBe('pending_approval');
      const approved = await o.call(o.people.alice!.headers, 'POST', `/api/changes/${c.id}/approve`, {});
      expect(approved.json()).toMatchObject({ status: 'approved' });
      const added = await o.call(o.pipe, 'POST', `/api/changes/${c.id}/before-state`, { previousVersion: '2.0.1' });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json().change).toMatchObject({ status: 'pending_approval', approvedDigest: null });
      expect((await o.audit('change.approvals_voided'))[0]!.data).toMatchObject({ cause: 'before_state_added', voided: [{ userId: o.people.alice!.user.id }] });
      // Approved again, the approval covers the before-state.
      expect((await o.call(o.people.alice!.headers, 'POST', `/api/changes/${c.id}/approve`, {})).json()).toMatchObject({ status: 'approved' });
      const status = (await o.call(o.pipe, 'GET', `/api/changes/${c.id}/status`)).json();
      expect(status.approval.digest).toBe(added.json().change.approvalDigest);
      expect(status.beforeState.captures).toEqual([expect.objectContaining({ previousVersion: '2.0.1' })]);
    });

    it('refuses to start a production change without a before-state (409 naming what is missing, audited change.prestate_blocked), and starts it once one arrives', async () => {
      const o = await organisation('Prestate');
      const r = await o.call(o.pipe, 'POST', '/api/changes', { title: 'Deploy ledger', kind: 'deploy', components: [{ key: 'svc:checkout' }], pipeline: { pipeline: 'deploy', environment: 'production' } });
      const id = r.json().change.id;
      const refused = await o.call(o.pipe, 'POST', `/api/changes/${id}/start`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatch(/needs a before-state before it starts: send previousVersion, previousCommit or a beforeState artifact/);
      expect((await o.call(o.pipe, 'GET', `/api/changes/${id}`)).json().change.status).toBe('scheduled');
      expect((await o.audit('change.prestate_blocked')).map((e) => e.target.id)).toEqual([id]);
      // startNow at registration is refused the same way, and nothing is registered.
      const before = (await countRows(engine.db()))['changes'];
      const now = await o.call(o.pipe, 'POST', '/api/changes', { title: 'Hotfix', kind: 'deploy', startNow: true, components: [{ key: 'svc:checkout' }], pipeline: { environment: 'prod' } });
      expect(now.statusCode).toBe(409);
      expect((await countRows(engine.db()))['changes']).toBe(before);
      // The repository base commit is a before-state: exempt.
      const based = await o.call(o.pipe, 'POST', '/api/changes', { title: 'Hotfix', kind: 'deploy', startNow: true, components: [{ key: 'svc:checkout' }], pipeline: { environment: 'prod', baseCommit: '9f1c2ab' } });
      expect(based.statusCode, based.body).toBe(201);
      expect(based.json().change.status).toBe('active');
      // Once the pipeline sends one, the start goes through.
      expect((await o.call(o.pipe, 'POST', `/api/changes/${id}/before-state`, { previousCommit: '1a2b3c4' })).statusCode).toBe(201);
      const started = await o.call(o.pipe, 'POST', `/api/changes/${id}/start`);
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json().change.status).toBe('active');
      // A started change takes no new before-state.
      const late = await o.call(o.pipe, 'POST', `/api/changes/${id}/before-state`, { previousVersion: '1.0' });
      expect(late.statusCode).toBe(409);
    });

    it('refuses an artifact over 256 KiB with 413, more than 10 validation items with 400, and writes nothing', async () => {
      const o = await organisation('Limits');
      const before = (await countRows(engine.db()))['changes'];
      const big = await o.call(o.owner.headers, 'POST', '/api/changes', { title: 'Big', components: [{ key: 'svc:checkout' }], beforeState: { artifact: 'x'.repeat(256 * 1024 + 1) } });
      expect(big.statusCode).toBe(413);
      expect(big.json()).toMatchObject({ field: 'beforeState.artifact' });
      expect(big.json().error).toMatch(/at most 256 KiB/);
      const items = Array.from({ length: 11 }, (_, i) => ({ id: `c${i}`, target: 'checkout', check: 'http', url: 'https://checkout.example/healthz', expected: { op: '==', value: 200 } }));
      const many = await o.call(o.owner.headers, 'POST', '/api/changes', { title: 'Many', components: [{ key: 'svc:checkout' }], validationPlan: items });
      expect(many.statusCode).toBe(400);
      expect(many.json()).toMatchObject({ field: 'validationPlan' });
      expect((await countRows(engine.db()))['changes']).toBe(before);
      const ok = await o.call(o.owner.headers, 'POST', '/api/changes', { title: 'Fine', components: [{ key: 'svc:checkout' }] });
      const id = ok.json().change.id;
      const captures = (await countRows(engine.db()))['change_captures'];
      const bigLater = await o.call(o.owner.headers, 'POST', `/api/changes/${id}/before-state`, { artifact: 'y'.repeat(300 * 1024) });
      expect(bigLater.statusCode).toBe(413);
      expect((await countRows(engine.db()))['change_captures']).toBe(captures);
    });
  });

  describe('rollbacks', () => {
    it('refuses the rollback of a change that never ran (409), from a token (403), and from a person who is not an approver (403)', async () => {
      const o = await organisation('Never ran');
      const id = (await o.call(o.owner.headers, 'POST', '/api/changes', { title: 'Later', components: [{ key: 'svc:checkout' }] })).json().change.id;
      const never = await o.call(o.people.alice!.headers, 'POST', `/api/changes/${id}/rollback`, {});
      expect(never.statusCode).toBe(409);
      expect(never.json().error).toMatch(/never ran, so there is nothing to roll back/);
      expect((await o.call(o.pipe, 'POST', `/api/changes/${id}/rollback`, {})).statusCode).toBe(403);
      expect((await o.call(o.owner.headers, 'POST', `/api/changes/${id}/rollback`, {})).statusCode).toBe(403);
      expect(await o.audit('change.rollback_released')).toEqual([]);
    });

    it('writes a flag change back itself: each linked flag write reverted, audited as a flag write naming the change', async () => {
      const o = await organisation('Flag revert');
      expect((await o.call(o.owner.headers, 'POST', '/api/flags', { key: 'checkout.new-cart', type: 'boolean', risk: 'low' })).statusCode).toBe(201);
      const c = (await o.call(o.pipe, 'POST', '/api/changes', { title: 'Turn on the new cart', kind: 'config', startNow: true, components: [{ key: 'svc:checkout' }] })).json().change;
      const write = await o.call(o.pipe, 'PUT', '/api/flags/checkout.new-cart/environments/production', { enabled: true, reason: 'new cart', changeId: c.id });
      expect(write.statusCode, write.body).toBe(200);
      expect(write.json().record).toMatchObject({ changeId: c.id, revertOf: null, from: false, to: true });
      expect((await o.call(o.pipe, 'POST', `/api/changes/${c.id}/complete`, { outcome: 'partial' })).statusCode).toBe(200);
      const path = (await o.call(o.pipe, 'GET', `/api/changes/${c.id}/rollback`)).json();
      expect(path.path).toMatchObject({ kind: 'revert_flag', generatedBy: 'changeledger' });
      expect(path.path.plan).toMatch(/checkout\.new-cart in production back to false/);
      const released = await o.call(o.people.alice!.headers, 'POST', `/api/changes/${c.id}/rollback`, { note: 'cart errors' });
      expect(released.statusCode, released.body).toBe(200);
      expect(released.json()).toMatchObject({ executed: true, change: { rollbackState: 'rolled_back' }, reverted: [{ flag: 'checkout.new-cart', env: 'production', result: 'changed' }] });
      const flag = (await o.call(o.pipe, 'GET', '/api/flags/checkout.new-cart')).json();
      expect(flag.states.find((s: Json) => s.env === 'production').enabled).toBe(false);
      const records = (await listAuditEvents(engine.db(), o.owner.org.id, { targetType: 'flag', action: 'flag.updated' }, 10)).items;
      expect(records[0]!.data).toMatchObject({ changeId: c.id, revertOf: write.json().record.hash, from: true, to: false });
      expect((await o.audit('change.rolled_back'))[0]!.data).toMatchObject({ kind: 'revert_flag', by: 'changeledger' });
      // Once rolled back, a second release is refused.
      expect((await o.call(o.people.bob!.headers, 'POST', `/api/changes/${c.id}/rollback`, {})).statusCode).toBe(409);
    });

    it('asks the pipeline to roll a deploy back, and takes its word that it did; an L3 rollback waits for a second approver', async () => {
      const o = await organisation('Deploy rollback');
      const c = (await o.call(o.pipe, 'POST', '/api/changes', {
        title: 'Deploy ledger 7', kind: 'deploy', startNow: true, components: [{ key: 'svc:ledger' }], pipeline: { pipeline: 'deploy-ledger', environment: 'production' },
        previousVersion: '6.9.1', callbackUrl: 'https://ci.example.com/hooks',
      })).json().change;
      expect(c.riskTier).toBe('L3');
      expect((await o.call(o.pipe, 'POST', `/api/changes/${c.id}/complete`, { outcome: 'partial' })).statusCode).toBe(200);
      const first = await o.call(o.people.alice!.headers, 'POST', `/api/changes/${c.id}/rollback`, {});
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ executed: false, change: { rollbackState: null }, rollback: { releasesNeeded: 2 } });
      expect((await o.call(o.people.alice!.headers, 'POST', `/api/changes/${c.id}/rollback`, {})).json().error).toMatch(/second, distinct approver/);
      const second = await o.call(o.people.bob!.headers, 'POST', `/api/changes/${c.id}/rollback`, {});
      expect(second.json()).toMatchObject({ executed: true, change: { rollbackState: 'requested' }, rollback: { path: { kind: 'redeploy_previous' } } });
      expect(second.json().rollback.path.plan).toMatch(/6\.9\.1/);
      // Both approvers are named as its releasers.
      expect(second.json().rollback.releasedBy.map((r: Json) => r.email).sort()).toEqual([o.people.alice!.user.email, o.people.bob!.user.email].sort());
      const deliveries = await engine.db().query<{ event: string }>(`SELECT event FROM deliveries WHERE change_id = $1`, [c.id]);
      expect(deliveries.rows.map((d) => d.event)).toContain('change.rollback_requested');
      const done = await o.call(o.pipe, 'POST', `/api/changes/${c.id}/rollback/complete`, { result: 'rolled_back', notes: 'redeployed 6.9.1' });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json().change).toMatchObject({ rollbackState: 'rolled_back' });
      expect((await o.call(o.pipe, 'POST', `/api/changes/${c.id}/rollback/complete`, { result: 'rolled_back' })).statusCode).toBe(409);
    });
    it('a flag rollback with no flag write naming the change is asked of people instead; after a failed rollback it may be released again', async () => {
      const o = await organisation('Nothing to write back');
      const c = (await o.call(o.pipe, 'POST', '/api/changes', { title: 'Flip by hand', kind: 'config', startNow: true, components: [{ key: 'svc:checkout' }], rollback: { kind: 'revert_flag', plan: 'turn checkout.fast-path off' } })).json().change;
      await o.call(o.pipe, 'POST', `/api/changes/${c.id}/complete`, { outcome: 'partial' });
      const first = await o.call(o.people.alice!.headers, 'POST', `/api/changes/${c.id}/rollback`, {});
      expect(first.json()).toMatchObject({ executed: true, change: { rollbackState: 'requested' }, reverted: [] });
      expect((await o.call(o.pipe, 'POST', `/api/changes/${c.id}/rollback/complete`, { result: 'failed', notes: 'the flag was locked' })).json().change).toMatchObject({ rollbackState: 'failed' });
      const again = await o.call(o.people.alice!.headers, 'POST', `/api/changes/${c.id}/rollback`, {});
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().change).toMatchObject({ rollbackState: 'requested' });
      expect((await o.audit('change.rollback_failed')).map((e) => e.data.notes)).toEqual(['the flag was locked']);
    });
  });

  describe('the automatic rollback sweep', () => {
    it('decides each failed change once: executes a flag revert for an L1 change with verdict outage, escalates an outcome-only failure, skips a success', async () => {
      const o = await organisation('Sweep');
      expect((await o.call(o.owner.headers, 'POST', '/api/flags', { key: 'checkout.fast-path', type: 'boolean', risk: 'low' })).statusCode).toBe(201);
      // A certified template makes the flag change standard (L1): the sweep may revert it by itself.
      const drafted = await o.call(o.owner.headers, 'POST', '/api/change-templates', { name: 'Checkout flag flips', kind: 'config', services: ['svc:checkout'], maxBlastServices: 5, hops: 1 });
      expect(drafted.statusCode, drafted.body).toBe(201);
      expect((await o.call(o.people.alice!.headers, 'POST', `/api/change-templates/${drafted.json().id}/certify`)).statusCode).toBe(200);
      const mk = async (title: string, template?: string) => (await o.call(o.pipe, 'POST', '/api/changes', {
        title, kind: 'config', startNow: true, components: [{ key: 'svc:checkout' }], pipeline: { environment: 'staging' }, ...(template ? { template } : {}),
      })).json().change;
      const outage = await mk('Fast path on', 'Checkout flag flips');
      expect(outage).toMatchObject({ changeClass: 'standard', riskTier: 'L1' });
      await o.call(o.pipe, 'PUT', '/api/flags/checkout.fast-path/environments/staging', { enabled: true, reason: 'fast path', changeId: outage.id });
      await o.call(o.pipe, 'POST', `/api/changes/${outage.id}/complete`, { outcome: 'success' });
      // The verdict is the evidence domain's: here it is set as a report would set it.
      await engine.db().query(`UPDATE changes SET status = 'reported', impact = 'outage', reported_at = finished_at WHERE id = $1`, [outage.id]);
      const partial = await mk('Partial');
      await o.call(o.pipe, 'PUT', '/api/flags/checkout.fast-path/environments/production', { enabled: true, reason: 'fast path in production', changeId: partial.id });
      await o.call(o.pipe, 'POST', `/api/changes/${partial.id}/complete`, { outcome: 'partial' });
      const fine = await mk('Fine');
      await o.call(o.pipe, 'POST', `/api/changes/${fine.id}/complete`, { outcome: 'success' });

      const decided = await engine.db().transaction((tx) => t.services.rollbacks.sweep(tx));
      const byId = Object.fromEntries(decided.map((d) => [d.changeId, d]));
      expect(byId[outage.id]).toMatchObject({ decision: 'execute' });
      expect(byId[partial.id]).toMatchObject({ decision: 'escalate' });
      expect(byId[fine.id]).toBeUndefined();
      expect((await o.call(o.pipe, 'GET', `/api/changes/${outage.id}`)).json().change).toMatchObject({ rollbackState: 'rolled_back', rollbackDecision: { decision: 'execute' } });
      const flag = (await o.call(o.pipe, 'GET', '/api/flags/checkout.fast-path')).json();
      expect(flag.states.find((s: Json) => s.env === 'staging').enabled).toBe(false);
      expect((await o.audit('change.auto_rollback')).map((e) => e.target.id)).toEqual([outage.id]);
      expect((await o.audit('change.rollback_escalated'))[0]!.data.reason).toMatch(/^escalate: /);
      // The first rollback of a change its template made standard demotes the template.
      const template = (await o.call(o.owner.headers, 'GET', `/api/change-templates/${drafted.json().id}`)).json();
      expect(template.state).toBe('draft');
      expect((await o.audit('template.demoted'))[0]!.data).toMatchObject({ change: outage.id });
      expect((await o.audit('change.template_demoted')).map((e) => e.target.id)).toEqual([outage.id]);
      // Decided once: the next tick finds nothing of these.
      const again = await engine.db().transaction((tx) => t.services.rollbacks.sweep(tx));
      expect(again.filter((d) => [outage.id, partial.id].includes(d.changeId))).toEqual([]);
    });

    it.runIf(engine.name === 'postgres')('two server processes sweeping one PostgreSQL at the same moment decide each change once', async () => {
      const o = await organisation('Two sweeps');
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const c = (await o.call(o.pipe, 'POST', '/api/changes', { title: `Partial ${i}`, kind: 'config', startNow: true, components: [{ key: 'svc:checkout' }], pipeline: { environment: 'staging' } })).json().change;
        await o.call(o.pipe, 'POST', `/api/changes/${c.id}/complete`, { outcome: 'partial' });
        ids.push(c.id);
      }
      // Both processes start, load the app, then sweep at the same instant.
      const startAt = Date.now() + 8_000;
      const sweepIn = () => new Promise<Array<{ changeId: string; decision: string }>>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', SWEEP_ONCE], { env: { ...process.env, DATABASE_URL: engine.url(), START_AT: String(startAt) }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Array<{ changeId: string; decision: string }>) : reject(new Error(`the sweep process exited ${code}: ${err}`))));
      });
      const [a, b] = await Promise.all([sweepIn(), sweepIn()]);
      const mine = (d: Array<{ changeId: string }>) => d.map((x) => x.changeId).filter((id) => ids.includes(id));
      expect([...mine(a), ...mine(b)].sort()).toEqual([...ids].sort());
      expect(mine(a).filter((id) => mine(b).includes(id))).toEqual([]);
      const audited = (await listAuditEvents(engine.db(), o.owner.org.id, { action: 'change.rollback_skipped' }, 100)).items;
      expect(audited.map((e) => e.target.id).sort()).toEqual([...ids].sort());
    }, 60_000);
  });
});
