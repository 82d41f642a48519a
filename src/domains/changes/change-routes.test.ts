import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: important }
  - { key: "svc:payments", kind: service, name: payments, tier: critical }
  - { key: "svc:untiered", kind: service, name: untiered }
  - { key: "svc:web", kind: service, name: web, tier: standard }
  - { key: "db:pg-1/wallet", kind: database, name: wallet }
  - { key: "db:pg-2/wallet", kind: database, name: wallet }
links:
  - { from: "svc:web", to: "svc:checkout-api", via: calls }
  - { from: "svc:checkout-api", to: "svc:payments", via: calls }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('changes: registration, lifecycle and approvals', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const people: Record<string, SignedIn> = {};
  let token: string;
  let writeOnlyRead: string;

  const api = (s: SignedIn) => ({
    get: async (url: string) => t.main.inject({ method: 'GET', url, headers: s.headers }),
    post: async (url: string, payload?: unknown) => t.main.inject({ method: 'POST', url, headers: s.headers, ...(payload === undefined ? {} : { payload: payload as Json }) }),
    put: async (url: string, payload: unknown) => t.main.inject({ method: 'PUT', url, headers: s.headers, payload: payload as Json }),
  });
  const pipe = {
    post: async (url: string, payload?: unknown, secret = token) => t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${secret}` }, ...(payload === undefined ? {} : { payload: payload as Json }) }),
    get: async (url: string, secret = token) => t.pipeline.inject({ method: 'GET', url, headers: { authorization: `Bearer ${secret}` } }),
  };
  const settings = (patch: Json) => api(owner).put(`/api/organizations/${owner.org.id}/change-settings`, patch);
  const approvers = (userIds: string[], criticalUserIds?: string[]) => api(owner).put(`/api/organizations/${owner.org.id}/change-approvers`, { userIds, ...(criticalUserIds ? { criticalUserIds } : {}) });
  /** Runs every timer that is due, then signs everybody in again: a day on, sessions (12 h) are over. */
  const runTimers = async () => {
    while ((await t.services.worker.runOnce()) > 0);
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
    for (const [name, s] of Object.entries(people)) people[name] = await signIn(t, s.org, s.user, PASSWORD);
  };
  const events = async (id: string) => (await listAuditEvents(engine.db(), owner.org.id, { targetType: 'change', targetId: id }, 100)).items.map((e) => e.action).reverse();

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Changes');
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'mia']) {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${name}.${Math.random().toString(36).slice(2, 6)}@x.test`, role: 'member', displayName: name, password: PASSWORD });
      people[name] = await signIn(t, owner.org, user, PASSWORD);
    }
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    token = (await createToken(t, people.mia!, ['changes:read', 'changes:write'], 'pipeline')).secret;
    writeOnlyRead = (await createToken(t, people.mia!, ['changes:read'], 'reader')).secret;
  });
  afterAll(async () => t.close());

  describe('organisation settings and approvers', () => {
    it('starts a new organisation at approval for all, quorum 2, nobody designated — and warns', async () => {
      const r = await api(owner).get(`/api/organizations/${owner.org.id}/change-settings`);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({
        settings: { approvalRequired: 'all', quorum: 2, approvalExpiryMinutes: 1440, startTimeoutMinutes: 1440, surveillanceMinutes: 60, silenceInfra: 'dedicated', allowPrivateCallbacks: false },
        approvers: [], warning: expect.stringContaining('only 0 approvers are designated for a quorum of 2'), criticalWarning: expect.stringContaining('no critical approver'),
      });
      expect((await api(people.alice!).get(`/api/organizations/${owner.org.id}/change-settings`)).statusCode).toBe(403);
    });
    it('refuses bad settings naming the field, writing nothing', async () => {
      const before = await countRows(engine.db());
      for (const [patch, field] of [[{ quorum: 0 }, 'quorum'], [{ quorum: 26 }, 'quorum'], [{ approvalRequired: 'some' }, 'approvalRequired'], [{ surveillanceMinutes: 5 }, 'surveillanceMinutes'], [{ completionRecipients: ['not-an-address'] }, 'completionRecipients.0']] as const) {
        const r = await settings(patch);
        expect(r.statusCode, JSON.stringify(patch)).toBe(400);
        expect(r.json().field).toBe(field);
      }
      expect(await countRows(engine.db())).toEqual(before);
    });
    it('sets approvers (members only, critical ⊆ approvers), audited; the list cannot shrink below the quorum', async () => {
      expect((await approvers(['usr_nobody'])).json()).toMatchObject({ field: 'userIds' });
      expect((await approvers([people.alice!.user.id], [people.bob!.user.id])).json()).toMatchObject({ field: 'criticalUserIds' });
      const ok = await approvers([people.alice!.user.id, people.bob!.user.id, people.carol!.user.id, people.dave!.user.id, people.erin!.user.id, people.frank!.user.id], [people.carol!.user.id]);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ warning: null, criticalWarning: null, criticalApprovers: [{ userId: people.carol!.user.id }] });
      expect((await approvers([people.alice!.user.id])).json()).toMatchObject({ field: 'userIds', error: expect.stringContaining('lower the quorum first') });
      expect((await listAuditEvents(engine.db(), owner.org.id, { action: 'settings.change_approvers_updated' }, 1)).items[0]!.data).toMatchObject({ criticalAdded: [people.carol!.user.id] });
    });
  });

  describe('registration', () => {
    it('refuses bad input naming the field, writing nothing', async () => {
      const before = await countRows(engine.db());
      const base = { title: 'Deploy', components: [{ query: 'checkout-api' }] };
      for (const [body, field] of [
        [{ ...base, title: '' }, 'title'], [{ ...base, title: 'x'.repeat(201) }, 'title'], [{ ...base, components: [] }, 'components'],
        [{ ...base, kind: 'party' }, 'kind'], [{ ...base, hops: 3 }, 'hops'], [{ ...base, windowStart: '2030-01-01T00:00:00Z', windowEnd: '2030-01-01T00:04:00Z' }, 'windowEnd'],
        [{ ...base, evidenceMinutes: 14 }, 'evidenceMinutes'], [{ ...base, maxDurationMinutes: 4 }, 'maxDurationMinutes'], [{ ...base, pipeline: { run: 'x'.repeat(201) } }, 'pipeline.run'],
        [{ ...base, callbackUrl: 'ftp://ci/hook' }, 'callbackUrl'], [{ ...base, recipients: ['nope'] }, 'recipients.0'], [{ ...base, silenceInfra: 'some' }, 'silenceInfra'],
        [{ ...base, components: [{ kind: 'service' }] }, 'components.0'],
      ] as const) {
        const r = await pipe.post('/api/changes', body);
        expect(r.statusCode, `${JSON.stringify(body)} ${r.body}`).toBe(400);
        expect(r.json().field, JSON.stringify(body)).toBe(field);
      }
      expect(await countRows(engine.db())).toEqual(before);
    });

    it('answers a person an unrecognised name with its candidates (400), and a pipeline with 201 pending_mapping', async () => {
      const ui = await api(people.alice!).post('/api/changes', { title: 'Wallet migration', components: [{ query: 'wallet' }] });
      expect(ui.statusCode).toBe(400);
      expect(ui.json()).toMatchObject({ field: 'components', unresolved: [{ query: 'wallet', candidates: [{ key: 'db:pg-1/wallet' }, { key: 'db:pg-2/wallet' }] }] });
      const r = await pipe.post('/api/changes', { title: 'Wallet migration', components: [{ query: 'wallet' }, { query: 'web' }] });
      expect(r.statusCode, r.body).toBe(201);
      const body = r.json();
      expect(body.change).toMatchObject({ status: 'pending_mapping', viaTokenId: expect.stringMatching(/^tok_|^/), owner: { id: people.mia!.user.id } });
      expect(body.mapping.unresolved[0].query).toBe('wallet');
      expect(body.blast).toBeNull();
      const status = (await pipe.get(`/api/changes/${body.change.id}/status`)).json();
      expect(status).toMatchObject({ status: 'pending_mapping', approval: { state: 'mapping' }, mapping: { unresolved: ['wallet'], url: expect.stringContaining(`change=${body.change.id}`) } });
      // A token never maps; a person does, and remembers the name.
      expect((await pipe.post(`/api/changes/${body.change.id}/mappings`, { entries: [{ input: 'wallet', key: 'db:pg-1/wallet' }] })).statusCode).toBe(403);
      const mapped = await api(people.alice!).post(`/api/changes/${body.change.id}/mappings`, { entries: [{ input: 'wallet', key: 'db:pg-1/wallet', remember: true }] });
      expect(mapped.statusCode, mapped.body).toBe(200);
      expect(mapped.json()).toMatchObject({ remaining: 0, status: 'pending_approval' });
      const change = (await api(owner).get(`/api/changes/${body.change.id}?include=blast,events`)).json();
      expect(change.blast.scope.serviceKeys).toContain('db:pg-1/wallet');
      expect(change.change.blastVersion).toBe(1);
      expect(change.events.map((e: Json) => e.action)).toEqual(['change.registered', 'change.components_mapped', 'change.mapped']);
      // The alias matches by itself next time.
      expect((await pipe.post('/api/changes', { title: 'Again', components: [{ query: 'wallet' }] })).json().change.status).toBe('pending_approval');
    });

    it('registers a critical, gated change with its blast snapshot, criticality, approval summary and callback secret once', async () => {
      const r = await pipe.post('/api/changes', {
        title: 'Deploy checkout-api 1.2', kind: 'deploy', components: [{ query: 'checkout-api' }], hops: 2, maxDurationMinutes: 45,
        pipeline: { pipeline: 'deploy-checkout', run: '981', commit: 'abc123' }, callbackUrl: 'https://ci-hooks.example.com/cl',
      });
      expect(r.statusCode, r.body).toBe(201);
      const b = r.json();
      expect(b.callbackSecret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
      expect(b.change).toMatchObject({ status: 'pending_approval', kind: 'deploy', criticality: 'important', criticalitySource: 'components', gated: true, quorum: 2, displayId: expect.stringMatching(/^CHG-[0-9A-F]{8}$/) });
      expect(b.blast.scope.serviceKeys.sort()).toEqual(['svc:checkout-api', 'svc:payments', 'svc:web']);
      expect(b.approval).toMatchObject({ required: 2, approvers: 6, criticalRequired: false, expiresAt: b.change.approvalExpiresAt });
      expect(JSON.stringify((await api(owner).get(`/api/changes/${b.change.id}`)).json())).not.toContain(b.callbackSecret);
      const read = (await api(owner).get(`/api/changes/${b.change.id}?include=blast`)).json();
      expect(read).toMatchObject({ scopeLine: 'Silence scope: 3 services', scopeBreakdown: 'no infrastructure silenced' });
      // The answer is the change and the blast as stored, field for field.
      expect(b.change).toEqual(read.change);
      expect(b.blast).toEqual(read.blast);
      const row = await engine.db().query<{ s: string }>('SELECT callback_secret_sealed AS s FROM changes WHERE id = $1', [b.change.id]);
      expect(row.rows[0]!.s).not.toContain(b.callbackSecret.slice(3));
    });

    it('asks for confirmation at 100 services (409) and refuses over 300 (422)', async () => {
      const entities = Array.from({ length: 310 }, (_, i) => `  - { key: "svc:caller-${i}", kind: service, name: caller-${i}, tier: standard }`).join('\n');
      const links = (n: number, hub: string) => Array.from({ length: n }, (_, i) => `  - { from: "svc:caller-${i}", to: "${hub}", via: calls }`).join('\n');
      const yaml = `source: hubs\nentities:\n${entities}\n  - { key: "svc:hub-100", kind: service, name: hub-100, tier: standard }\n  - { key: "svc:hub-310", kind: service, name: hub-310, tier: standard }\nlinks:\n${links(99, 'svc:hub-100')}\n${links(310, 'svc:hub-310')}\n`;
      expect((await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=hubs', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: yaml })).statusCode).toBe(200);
      const large = await pipe.post('/api/changes', { title: 'Hub', components: [{ key: 'svc:hub-100' }] });
      expect(large.statusCode).toBe(409);
      expect(large.json()).toMatchObject({ needsConfirm: true, counts: { services: 100 } });
      expect((await pipe.post('/api/changes', { title: 'Hub', components: [{ key: 'svc:hub-100' }], confirmLarge: true })).statusCode).toBe(201);
      const refused = await pipe.post('/api/changes', { title: 'Hub', components: [{ key: 'svc:hub-310' }], confirmLarge: true });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({ refused: 'over 300 services (counting stopped at 301)', counts: { services: 301 }, silenceInfra: 'dedicated' });
    });
  });

  describe('approvals', () => {
    const register = async (body: Json = {}) => {
      const r = await pipe.post('/api/changes', { title: 'Deploy', components: [{ query: 'checkout-api' }], ...body });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().change as Json;
    };

    it('takes the quorum of listed approvers, never the requester or a token, once each; then the pipeline starts and completes it', async () => {
      const c = await register({ maxDurationMinutes: 30 });
      const url = `/api/changes/${c.id}`;
      expect((await pipe.post(`${url}/approve`)).statusCode).toBe(403);
      expect((await api(people.mia!).post(`${url}/approve`)).statusCode).toBe(403);
      expect((await api(owner).post(`${url}/approve`)).json().error).toContain('designated approvers');
      expect((await api(people.alice!).post(`${url}/approve`, { comment: 'fine' })).json()).toMatchObject({ status: 'pending_approval', approvals: 1, required: 2 });
      expect((await api(people.alice!).post(`${url}/approve`)).statusCode).toBe(409);
      expect((await pipe.get(`${url}/status`)).json()).toMatchObject({ status: 'pending_approval', approval: { state: 'pending', approvals: 1, required: 2 } });
      expect((await pipe.post(`${url}/start`)).statusCode).toBe(409);
      expect((await api(people.bob!).post(`${url}/approve`)).json()).toMatchObject({ status: 'approved', approvals: 2 });
      const approved = (await pipe.get(`${url}/status`)).json();
      expect(approved).toMatchObject({ approval: { state: 'approved', approvals: 2, decidedAt: expect.any(String) } });
      t.clock.advance(10 * 60_000);
      const startAnswer = (await pipe.post(`${url}/start`)).json();
      expect(startAnswer.started).toBe(true);
      const started = startAnswer.change;
      expect(started.status).toBe('active');
      // The pipeline window is re-stamped now … now + 30 min.
      expect(new Date(started.windowEnd).getTime() - new Date(started.windowStart).getTime()).toBe(30 * 60_000);
      expect(started.windowStart).toBe(t.clock.now().toISOString());
      const done = (await pipe.post(`${url}/complete`)).json().change;
      expect(done).toMatchObject({ status: 'evaluating', outcome: 'success' });
      expect((await pipe.post(`${url}/complete`)).json()).toMatchObject({ status: 'evaluating', error: expect.stringContaining('cannot complete a change that is evaluating') });
      expect(await events(c.id)).toEqual(['change.registered', 'change.approval_given', 'change.approval_given', 'change.approved', 'change.started', 'change.completed']);
    });

    it('rejects on the first rejection, with its reason', async () => {
      const c = await register();
      expect((await api(people.alice!).post(`/api/changes/${c.id}/reject`, { reason: ' ' })).json()).toMatchObject({ field: 'reason' });
      expect((await api(people.alice!).post(`/api/changes/${c.id}/reject`, { reason: 'not during the sale' })).json()).toEqual({ status: 'rejected' });
      expect((await pipe.get(`/api/changes/${c.id}/status`)).json().approval).toMatchObject({ state: 'rejected', reason: 'not during the sale' });
      expect((await api(people.bob!).post(`/api/changes/${c.id}/approve`)).statusCode).toBe(409);
      // Only a draft or a scheduled change is edited.
      const put = await t.pipeline.inject({ method: 'PUT', url: `/api/changes/${c.id}`, headers: { authorization: `Bearer ${token}` }, payload: { title: 'Too late' } });
      expect(put.statusCode).toBe(409);
      expect(put.json()).toMatchObject({ status: 'rejected' });
    });

    it('counts concurrent approvals under the change’s lock: exactly one moves it to approved, one event each, one mail', async () => {
      const ROUNDS = 8;
      for (let round = 0; round < ROUNDS; round++) {
        const c = await register();
        const all = await Promise.all(['alice', 'bob', 'dave', 'erin', 'frank'].map((n) => api(people[n]!).post(`/api/changes/${c.id}/approve`)));
        const accepted = all.filter((r) => r.statusCode === 200).length;
        // Two reach the quorum; the others find the change approved already (409), never a 5xx.
        expect(all.every((r) => r.statusCode === 200 || r.statusCode === 409), all.map((r) => r.body).join('\n')).toBe(true);
        expect(accepted).toBe(2);
        const actions = await events(c.id);
        expect(actions.filter((a) => a === 'change.approved')).toHaveLength(1);
        expect(actions.filter((a) => a === 'change.approval_given')).toHaveLength(accepted);
        const mails = await engine.db().query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE kind = 'mail.send' AND dedupe_key LIKE $1", [`mail:${c.id}:approved:%`]);
        expect(mails.rows[0]!.n, 'one Approved mail to the requester').toBe(1);
        expect((await api(owner).get(`/api/changes/${c.id}`)).json().change.status).toBe('approved');
      }
    });

    it('needs a critical approver for a critical change, and an approver’s classification before approval', async () => {
      const c = await register({ components: [{ query: 'payments' }] });
      expect(c.criticality).toBe('critical');
      await api(people.alice!).post(`/api/changes/${c.id}/approve`);
      const second = (await api(people.bob!).post(`/api/changes/${c.id}/approve`)).json();
      expect(second).toMatchObject({ status: 'pending_approval', approvals: 2, criticalRequired: true, criticalApproved: false, blockedOn: 'critical_approver' });
      expect((await api(people.alice!).get(`/api/changes/${c.id}/approvals`)).json().blockedReason).toBe('Needs a critical approver: carol');
      expect((await api(people.carol!).post(`/api/changes/${c.id}/approve`)).json()).toMatchObject({ status: 'approved', criticalApproved: true });

      const u = await register({ components: [{ query: 'untiered' }] });
      expect(u).toMatchObject({ criticality: null, criticalitySource: 'pending' });
      const blocked = await api(people.alice!).post(`/api/changes/${u.id}/approve`);
      expect(blocked.statusCode).toBe(409);
      expect(blocked.json()).toMatchObject({ blockedOn: 'classification', unknownTierComponents: [{ key: 'svc:untiered' }] });
      expect((await pipe.get(`/api/changes/${u.id}/status`)).json()).toMatchObject({ classification: { unknown: ['untiered'] }, approval: { blockedOn: 'classification' } });
      expect((await api(people.mia!).post(`/api/changes/${u.id}/classify`, { components: [{ key: 'svc:untiered', tier: 'standard' }] })).statusCode).toBe(403);
      expect((await api(people.alice!).post(`/api/changes/${u.id}/classify`, { components: [{ key: 'svc:untiered', tier: 'huge' }] })).json()).toMatchObject({ field: 'components.0.tier' });
      const cl = await api(people.alice!).post(`/api/changes/${u.id}/classify`, { components: [{ key: 'svc:untiered', tier: 'important' }] });
      expect(cl.statusCode, cl.body).toBe(200);
      expect(cl.json()).toMatchObject({ criticality: 'important', criticalitySource: 'components', classified: [{ key: 'svc:untiered', tier: 'important', where: 'catalogue' }] });
      // Saved to the catalogue: the next change knows it.
      expect((await register({ components: [{ query: 'untiered' }] })).criticality).toBe('important');
    });

    it('starts the moment it is approved with autoStart — and so with startNow under approval, its window moved to the start', async () => {
      const c = await register({ autoStart: true, maxDurationMinutes: 20 });
      await api(people.alice!).post(`/api/changes/${c.id}/approve`);
      expect((await api(people.bob!).post(`/api/changes/${c.id}/approve`)).json().status).toBe('active');
      const now = await register({ startNow: true });
      expect(now).toMatchObject({ status: 'pending_approval', autoStart: true, relativeWindow: true });
      t.clock.advance(90 * 60_000);
      owner = await signIn(t, owner.org, owner.user, PASSWORD);
      for (const n of ['alice', 'bob']) people[n] = await signIn(t, people[n]!.org, people[n]!.user, PASSWORD);
      await api(people.alice!).post(`/api/changes/${now.id}/approve`);
      expect((await api(people.bob!).post(`/api/changes/${now.id}/approve`)).json().status).toBe('active');
      const started = (await api(owner).get(`/api/changes/${now.id}`)).json().change;
      expect(started.windowStart).toBe(t.clock.now().toISOString());
      expect(new Date(started.windowEnd).getTime() - new Date(started.windowStart).getTime()).toBe(3_600_000);
    });
  });

  describe('timers', () => {
    it('expires an unapproved change at the deadline, and an approved one not started in time', async () => {
      const c = (await pipe.post('/api/changes', { title: 'Slow', components: [{ query: 'web' }] })).json().change;
      t.clock.advance(1440 * 60_000 + 1);
      await runTimers();
      expect((await pipe.get(`/api/changes/${c.id}/status`)).json()).toMatchObject({
        status: 'expired', statusReason: 'it was not approved before the deadline', approval: { state: 'expired', expiresAt: c.approvalExpiresAt },
      });
      const d = (await pipe.post('/api/changes', { title: 'Never started', components: [{ query: 'web' }] })).json().change;
      await api(people.alice!).post(`/api/changes/${d.id}/approve`);
      await api(people.bob!).post(`/api/changes/${d.id}/approve`);
      t.clock.advance(1440 * 60_000 + 1);
      await runTimers();
      expect((await api(owner).get(`/api/changes/${d.id}`)).json().change.status).toBe('expired');
      expect(await events(d.id)).toContain('change.expired');
    });

    it('runs an ungated change through its window and its horizon to a report that says nothing was measured', async () => {
      expect((await settings({ approvalRequired: 'none' })).statusCode).toBe(200);
      try {
        const start = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
        const end = new Date(t.clock.now().getTime() + 2 * 3_600_000).toISOString();
        const c = (await pipe.post('/api/changes', { title: 'Nightly', components: [{ query: 'web' }], windowStart: start, windowEnd: end, evidenceMinutes: 30 })).json().change;
        expect(c.status).toBe('scheduled');
        t.clock.set(start);
        await runTimers();
        expect((await api(owner).get(`/api/changes/${c.id}`)).json().change).toMatchObject({ status: 'active', startedAt: start });
        t.clock.set(end);
        await runTimers();
        const ended = (await api(owner).get(`/api/changes/${c.id}`)).json().change;
        expect(ended).toMatchObject({ status: 'evaluating', outcome: 'unknown', outcomeBy: 'window' });
        // The pipeline that finishes after its window still gives the outcome, once.
        expect((await pipe.post(`/api/changes/${c.id}/complete`, { outcome: 'partial' })).json().change).toMatchObject({ status: 'evaluating', outcome: 'partial', outcomeBy: 'pipeline' });
        expect((await pipe.post(`/api/changes/${c.id}/complete`)).statusCode).toBe(409);
        t.clock.advance(30 * 60_000);
        await runTimers();
        const status = (await pipe.get(`/api/changes/${c.id}/status`)).json();
        expect(status).toMatchObject({ status: 'reported', approval: { state: 'not_required' }, surveillance: { minutes: 30, impact: 'unknown', reportedAt: expect.any(String) } });
        const report = (await pipe.get(`/api/changes/${c.id}/report.json`)).json();
        expect(report).toMatchObject({ version: 1, report: { impact: 'unknown', rule: 'nothing_measured', summary: expect.stringMatching(/nothing was measured/i) } });
        // Evaluate again: a second version after the new horizon.
        expect((await pipe.post(`/api/changes/${c.id}/evaluate`, { evidenceMinutes: 15 })).json().change.status).toBe('evaluating');
        t.clock.advance(15 * 60_000);
        await runTimers();
        expect((await pipe.get(`/api/changes/${c.id}/report.json`)).json().version).toBe(2);
        expect((await pipe.get(`/api/changes/${c.id}/report.json?version=1`)).json().version).toBe(1);
        // A scheduled change is edited into a new blast version; a draft is submitted by PUT draft: false.
        const later = new Date(t.clock.now().getTime() + 5 * 3_600_000).toISOString();
        const sch = (await pipe.post('/api/changes', { title: 'Edit me', components: [{ query: 'web' }], windowStart: later })).json().change;
        const edited = await t.pipeline.inject({ method: 'PUT', url: `/api/changes/${sch.id}`, headers: { authorization: `Bearer ${token}` }, payload: { components: [{ query: 'checkout-api' }], hops: 2, title: 'Edited' } });
        expect(edited.statusCode, edited.body).toBe(200);
        expect(edited.json()).toMatchObject({ change: { title: 'Edited', status: 'scheduled', blastVersion: 2, criticality: 'important' }, blast: { scope: { serviceKeys: expect.arrayContaining(['svc:payments']) } } });
        const versions = await engine.db().query<{ n: number }>('SELECT count(*)::int AS n FROM change_blasts WHERE change_id = $1', [sch.id]);
        expect(versions.rows[0]!.n).toBe(2);
        const draft = (await pipe.post('/api/changes', { title: 'Draft', components: [{ query: 'web' }], draft: true, windowStart: later })).json().change;
        expect(draft.status).toBe('draft');
        const submitted = await t.pipeline.inject({ method: 'PUT', url: `/api/changes/${draft.id}`, headers: { authorization: `Bearer ${token}` }, payload: { draft: false } });
        expect(submitted.json().change.status).toBe('scheduled');
        // startNow starts at once; starting an active change again changes nothing.
        const now = (await pipe.post('/api/changes', { title: 'Now', components: [{ query: 'web' }], startNow: true, pipeline: { runUrl: '', commit: '' } })).json().change;
        expect(now).toMatchObject({ status: 'active', pipeline: null });
        const again = await pipe.post(`/api/changes/${now.id}/start`);
        expect(again.statusCode).toBe(200);
        expect(again.json()).toMatchObject({ started: false, change: { status: 'active', startedAt: now.startedAt } });
      } finally {
        await settings({ approvalRequired: 'all' });
      }
    });
  });

  describe('the list and the rest of the lifecycle', () => {
    it('lists newest window first with status, criticality, q and mine filters; a bad value names its field', async () => {
      // A service nobody has seen yet has no tier: the change waits for classification.
      expect((await pipe.post('/api/changes', { title: 'Unseen', components: [{ kind: 'service', key: 'svc:never-seen' }] })).json().change.criticalitySource).toBe('pending');
      const all = (await api(owner).get('/api/changes')).json().changes as Json[];
      expect(all.length).toBeGreaterThan(5);
      const starts = all.map((c) => c.windowStart);
      expect([...starts].sort().reverse()).toEqual(starts);
      expect(((await api(owner).get('/api/changes?criticality=critical')).json().changes as Json[]).every((c) => c.criticality === 'critical')).toBe(true);
      expect(((await api(owner).get('/api/changes?status=rejected,expired')).json().changes as Json[]).every((c) => ['rejected', 'expired'].includes(c.status))).toBe(true);
      expect((await api(owner).get('/api/changes?criticality=urgent')).json()).toMatchObject({ field: 'criticality' });
      const pending = (await api(owner).get('/api/changes?criticality=pending')).json().changes as Json[];
      expect(pending.length).toBeGreaterThan(0);
      expect(pending.every((c) => c.criticalitySource === 'pending')).toBe(true);
      expect((await api(owner).get('/api/changes?status=done')).json()).toMatchObject({ field: 'status' });
      expect((await api(owner).get('/api/changes?mine=1')).json().changes).toEqual([]);
      expect(((await api(people.mia!).get('/api/changes?mine=1')).json().changes as Json[]).length).toBe(all.length);
      const one = all[0]!;
      expect(((await api(owner).get(`/api/changes?q=${one.displayId}`)).json().changes as Json[]).map((c) => c.id)).toEqual([one.id]);
      // q is text, not a LIKE pattern: % and _ match only themselves.
      const pct = (await pipe.post('/api/changes', { title: 'Raise checkout to 50% of traffic', components: [{ kind: 'service', key: 'svc:never-seen' }] })).json().change as Json;
      const titles = async (q: string) => ((await api(owner).get(`/api/changes?q=${encodeURIComponent(q)}`)).json().changes as Json[]).map((c) => c.id);
      expect(await titles('50%')).toEqual([pct.id]);
      expect(await titles('_')).toEqual([]);
      expect(await titles('%')).toEqual([pct.id]);
    });

    it('cancels what has not started, refuses from a wrong status with the current one, and lets only writers act', async () => {
      const c = (await pipe.post('/api/changes', { title: 'Cancel me', components: [{ query: 'web' }] })).json().change;
      expect((await api(people.alice!).post(`/api/changes/${c.id}/cancel`)).statusCode).toBe(403);
      expect((await pipe.post(`/api/changes/${c.id}/cancel`, undefined, writeOnlyRead)).statusCode).toBe(403);
      expect((await pipe.post(`/api/changes/${c.id}/cancel`, { reason: 'superseded' })).json().change.status).toBe('cancelled');
      expect((await pipe.get(`/api/changes/${c.id}/status`)).json().statusReason).toBe('superseded');
      const again = await pipe.post(`/api/changes/${c.id}/cancel`);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ status: 'cancelled' });
      expect((await pipe.get('/api/changes/chg_nope/status')).statusCode).toBe(404);
    });
  });
});

describeEachEngine('changes: refusals a pipeline reads', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(engine.db());
  });
  afterAll(async () => t.close());
  it('names every allowed value of a field that is a union of literals', async () => {
    const owner = await signedInOwner(t, 'Hops');
    const r = await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: 'x', components: [{ key: 'svc:a' }], hops: 3 } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ error: 'Hops must be one of: 1, 2', field: 'hops' });
  });
});
