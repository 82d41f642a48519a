import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { listAuditEvents } from '../ledger/index.js';

// Standard-change templates, the class and risk tier a change gets at registration, the class
// dropping when its template stops backing it, reclassification by an approver, and approvals
// bound to the content they approved. Time is the test clock's, never the wall clock's.

const ESTATE = `
entities:
  - { key: "svc:web", kind: service, name: web, tier: standard }
  - { key: "svc:search", kind: service, name: search, tier: standard }
  - { key: "svc:payments", kind: service, name: payments, tier: critical }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every row of the database, the governance tables (which countRows does not know) included. */
async function allRows(db: Database): Promise<Record<string, number>> {
  const out = await countRows(db);
  for (const table of ['change_templates', 'change_windows', 'change_voided_approvals']) {
    out[table] = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n);
  }
  return out;
}

/** What a request wrote: the tables whose row count moved, and by how much. */
const moved = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.keys(after).filter((k) => after[k] !== before[k]).map((k) => [k, after[k]! - (before[k] ?? 0)]));

const WEB_DEPLOYS = { name: 'Web deploys', kind: 'deploy', services: ['svc:web'], environments: ['staging', 'prod*'], maxBlastServices: 5, hops: 1 };

describeEachEngine('governance: templates, change classes and approvals bound to content', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock('2026-09-02T10:00:00Z') });
  });
  afterAll(async () => t.close());

  /**
   * A new organisation: its owner, ada (an admin), alice, bob and carol (members), all four
   * designated approvers; dave (a member, not an approver) and mia (a member whose pipeline
   * token registers changes). Its estate is imported.
   */
  const organisation = async (label: string) => {
    const owner = await signedInOwner(t, label);
    const people: Record<string, SignedIn> = {};
    for (const [name, role] of [['ada', 'admin'], ['alice', 'member'], ['bob', 'member'], ['carol', 'member'], ['dave', 'member'], ['mia', 'member']] as const) {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${name}.${Math.random().toString(36).slice(2, 8)}@x.test`, role, displayName: name, password: PASSWORD });
      people[name] = await signIn(t, owner.org, user, PASSWORD);
    }
    const p = people as Record<'ada' | 'alice' | 'bob' | 'carol' | 'dave' | 'mia', SignedIn>;
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    const token = (await createToken(t, p.mia, ['changes:read', 'changes:write'], 'pipeline')).secret;
    const as = (s: SignedIn) => ({
      get: async (url: string) => t.main.inject({ method: 'GET', url, headers: s.headers }),
      post: async (url: string, payload?: unknown) => t.main.inject({ method: 'POST', url, headers: s.headers, ...(payload === undefined ? {} : { payload: payload as Json }) }),
      put: async (url: string, payload: unknown) => t.main.inject({ method: 'PUT', url, headers: s.headers, payload: payload as Json }),
    });
    const pipe = {
      post: async (url: string, payload?: unknown) => t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as Json }) }),
      put: async (url: string, payload: unknown) => t.pipeline.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${token}` }, payload: payload as Json }),
      get: async (url: string) => t.pipeline.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }),
    };
    const approvers = await as(owner).put(`/api/organizations/${owner.org.id}/change-approvers`, { userIds: [p.ada.user.id, p.alice.user.id, p.bob.user.id, p.carol.user.id] });
    expect(approvers.statusCode, approvers.body).toBe(200);
    return {
      owner, p, as, pipe,
      settings: async (patch: Json) => as(owner).put(`/api/organizations/${owner.org.id}/change-settings`, patch),
      audit: async (action: string, targetId?: string) => (await listAuditEvents(engine.db(), owner.org.id, { action, ...(targetId ? { targetId } : {}) }, 50)).items,
      /** A template drafted by ada and certified by alice. */
      certified: async (fields: Json) => {
        const drafted = await as(p.ada).post('/api/change-templates', fields);
        expect(drafted.statusCode, drafted.body).toBe(201);
        const done = await as(p.alice).post(`/api/change-templates/${drafted.json().id}/certify`);
        expect(done.statusCode, done.body).toBe(200);
        return done.json() as Json;
      },
      /** A pipeline deploy of web to an environment, planned for tomorrow (nothing starts by itself in these tests). */
      deploy: async (extra: Json = {}) => pipe.post('/api/changes', {
        title: 'Deploy web 2.4', kind: 'deploy', components: [{ query: 'web' }], windowStart: '2026-09-03T08:00:00Z', windowEnd: '2026-09-03T09:00:00Z',
        pipeline: { pipeline: 'deploy-web', environment: 'staging', commit: 'abc123' }, ...extra,
      }),
    };
  };
  type Org = Awaited<ReturnType<typeof organisation>>;

  describe('standard-change templates', () => {
    let o: Org;
    beforeAll(async () => {
      o = await organisation('Templates');
    });

    it('an admin drafts a template: 201, a draft at version 1 authored by them, audited template.created', async () => {
      const r = await o.as(o.p.ada).post('/api/change-templates', WEB_DEPLOYS);
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json()).toMatchObject({ ...WEB_DEPLOYS, state: 'draft', version: 1, author: { id: o.p.ada.user.id }, certifiedBy: null, certifiedVersion: null });
      const [created] = await o.audit('template.created', r.json().id);
      expect(created).toMatchObject({ actor: { kind: 'user', id: o.p.ada.user.id }, target: { type: 'template', id: r.json().id }, data: { name: 'Web deploys', services: ['svc:web'], version: 1 } });
    });

    it('its author cannot certify it, even as a designated approver (403, nothing written); another approver certifies it, audited template.certified', async () => {
      const id = (await o.as(o.p.ada).get('/api/change-templates')).json().items[0].id as string;
      const before = await allRows(engine.db());
      const own = await o.as(o.p.ada).post(`/api/change-templates/${id}/certify`);
      expect(own.statusCode).toBe(403);
      expect(own.json().error).toContain('you drafted this version');
      expect(await allRows(engine.db())).toEqual(before);
      expect((await o.as(o.p.ada).get(`/api/change-templates/${id}`)).json()).toMatchObject({ state: 'draft', certifiedBy: null });
      const ok = await o.as(o.p.alice).post(`/api/change-templates/${id}/certify`);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ state: 'certified', version: 1, certifiedVersion: 1, certifiedBy: { id: o.p.alice.user.id }, certifiedAt: '2026-09-02T10:00:00.000Z' });
      const [certified] = await o.audit('template.certified', id);
      expect(certified).toMatchObject({ actor: { id: o.p.alice.user.id }, data: { name: 'Web deploys', version: 1, author: o.p.ada.user.email } });
    });

    it('a member cannot draft a template: 403, nothing written', async () => {
      const before = await allRows(engine.db());
      const r = await o.as(o.p.dave).post('/api/change-templates', { ...WEB_DEPLOYS, name: 'Mine' });
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toContain('only owners and admins');
      expect(await allRows(engine.db())).toEqual(before);
    });

    it('an edit makes the next version, a draft again (no longer certified), audited template.edited', async () => {
      const id = (await o.as(o.p.ada).get('/api/change-templates')).json().items[0].id as string;
      const r = await o.as(o.owner).put(`/api/change-templates/${id}`, { maxBlastServices: 3 });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ dropped: 0, template: { version: 2, state: 'draft', maxBlastServices: 3, certifiedBy: null, certifiedVersion: null, author: { id: o.owner.user.id } } });
      const [edited] = await o.audit('template.edited', id);
      expect(edited!.data).toMatchObject({ version: { from: 1, to: 2 }, changed: ['maxBlastServices'], wasCertified: true, maxBlastServices: 3 });
    });

    it('refuses missing services and maxBlastServices 0 with 400 naming the field, writing nothing', async () => {
      const before = await allRows(engine.db());
      const { services: _s, ...noServices } = WEB_DEPLOYS;
      for (const [body, field] of [
        [{ ...WEB_DEPLOYS, name: 'B', services: [] }, 'services'],
        [{ ...noServices, name: 'C' }, 'services'],
        [{ ...WEB_DEPLOYS, name: 'D', maxBlastServices: 0 }, 'maxBlastServices'],
      ] as const) {
        const r = await o.as(o.p.ada).post('/api/change-templates', body);
        expect(r.statusCode, `${JSON.stringify(body)} ${r.body}`).toBe(400);
        expect(r.json().field, JSON.stringify(body)).toBe(field);
      }
      expect(await allRows(engine.db())).toEqual(before);
    });

    it('refuses a glob that is not valid (an empty range) with 400 naming the entry, writing nothing', async () => {
      const before = await allRows(engine.db());
      for (const [body, field] of [
        [{ ...WEB_DEPLOYS, name: 'Bad services', services: ['svc:web', 'svc:[z-a]'] }, 'services.1'],
        [{ ...WEB_DEPLOYS, name: 'Bad environments', environments: ['[z-a]'] }, 'environments.0'],
      ] as const) {
        const r = await o.as(o.p.ada).post('/api/change-templates', body);
        expect(r.statusCode, `${JSON.stringify(body)} ${r.body}`).toBe(400);
        expect(r.json().field).toBe(field);
      }
      expect(await allRows(engine.db())).toEqual(before);
    });
  });

  describe('the class and risk tier a change gets at registration', () => {
    let o: Org;
    let template: Json;
    beforeAll(async () => {
      o = await organisation('Classes');
      template = await o.certified(WEB_DEPLOYS);
    });

    it('a pipeline deploy to staging of a standard service, naming a certified template that covers it, is standard, L1 and needs no approval', async () => {
      const r = await o.deploy({ template: 'web deploys' });
      expect(r.statusCode, r.body).toBe(201);
      const { change, governance } = r.json();
      expect(change).toMatchObject({ status: 'scheduled', gated: false, changeClass: 'standard', changeClassSource: 'template', template: { id: template.id, version: 1 }, riskTier: 'L1' });
      expect(change.changeClassReason).toContain('“Web deploys” v1');
      expect(governance).toMatchObject({ changeClass: 'standard', riskTier: 'L1', policy: expect.stringContaining('no approval') });
      const status = (await o.pipe.get(`/api/changes/${change.id}/status`)).json();
      expect(status).toMatchObject({ status: 'scheduled', changeClass: 'standard', approval: { state: 'not_required', tier: 'L1', policy: expect.stringContaining('no approval'), digest: null } });
      const [registered] = await o.audit('change.registered', change.id);
      expect(registered!.data).toMatchObject({ changeClass: 'standard', changeClassSource: 'template', template: { id: template.id, version: 1 }, riskTier: 'L1', gated: false });
    });

    it('a person registering in the UI gets the template’s class, but a hand-registered production change stays L2 and waits for approval', async () => {
      const broad = await o.certified({ name: 'Any web change', kind: 'config', services: ['web'], maxBlastServices: 5, hops: 1 });
      const r = await o.as(o.p.dave).post('/api/changes', { title: 'Raise web pool size', kind: 'config', components: [{ query: 'web' }], template: broad.id });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json().change).toMatchObject({ changeClass: 'standard', changeClassSource: 'template', riskTier: 'L2', status: 'pending_approval', gated: true, quorum: 2 });
      expect(r.json().change.riskReason).toContain('registered by hand');
    });

    it('naming the template with a service outside it makes the change normal, the reason naming that service', async () => {
      const r = await o.deploy({ template: 'Web deploys', components: [{ query: 'web' }, { query: 'search' }] });
      expect(r.statusCode, r.body).toBe(201);
      const { change } = r.json();
      expect(change).toMatchObject({ changeClass: 'normal', changeClassSource: 'default', template: null, riskTier: 'L2', status: 'pending_approval' });
      expect(change.changeClassReason).toContain('svc:search is outside the template’s services');
    });

    it('a template that is only a draft makes nothing standard', async () => {
      expect((await o.as(o.p.ada).post('/api/change-templates', { ...WEB_DEPLOYS, name: 'Drafted only' })).statusCode).toBe(201);
      const { change } = (await o.deploy({ template: 'Drafted only' })).json();
      expect(change).toMatchObject({ changeClass: 'normal', changeClassReason: 'normal: no certified template is named “Drafted only”' });
    });

    it('standard_by_default makes a covered change standard without naming the template; normal_by_default does not', async () => {
      expect((await o.deploy()).json().change).toMatchObject({ changeClass: 'normal', changeClassReason: 'normal by default: it names no template' });
      const s = await o.settings({ changeClassPolicy: 'standard_by_default' });
      expect(s.statusCode, s.body).toBe(200);
      expect(s.json().settings.changeClassPolicy).toBe('standard_by_default');
      const { change } = (await o.deploy()).json();
      expect(change).toMatchObject({ changeClass: 'standard', changeClassSource: 'template', template: { id: template.id }, riskTier: 'L1', status: 'scheduled' });
      expect(change.changeClassReason).toContain('standard by default');
      expect((await o.settings({ changeClassPolicy: 'normal_by_default' })).statusCode).toBe(200);
    });

    it('refuses an emergency without its reason or without an incident or ticket (400 naming the field), writing nothing', async () => {
      const before = await allRows(engine.db());
      for (const [extra, field] of [
        [{ emergency: true, incident: 'INC-4711' }, 'emergencyReason'],
        [{ emergency: true, emergencyReason: 'web is down for everyone' }, 'incident'],
      ] as const) {
        const r = await o.deploy(extra);
        expect(r.statusCode, r.body).toBe(400);
        expect(r.json().field).toBe(field);
      }
      expect(await allRows(engine.db())).toEqual(before);
    });

    it('a declared emergency with its reason and incident is class emergency, L3, and needs max(2, quorum) approvals', async () => {
      expect((await o.settings({ quorum: 1 })).statusCode).toBe(200);
      const r = await o.deploy({ emergency: true, emergencyReason: 'web is down for everyone', incident: 'INC-4711' });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json().change).toMatchObject({
        changeClass: 'emergency', changeClassSource: 'emergency', emergency: { reason: 'web is down for everyone', link: 'INC-4711' },
        riskTier: 'L3', status: 'pending_approval', quorum: 2,
      });
      expect(r.json().governance.policy).toBe('L3: 2 distinct approvers');
      // The same organisation's normal change needs its quorum of 1.
      expect((await o.deploy()).json().change).toMatchObject({ changeClass: 'normal', quorum: 1 });
      expect((await o.settings({ quorum: 2 })).statusCode).toBe(200);
    });
  });

  describe('a template that stops backing its changes', () => {
    it('withdrawing it drops its standard changes not started to normal, waiting for approval, audited change.class_dropped; a started one keeps standard', async () => {
      const o = await organisation('Withdraw');
      const tpl = await o.certified(WEB_DEPLOYS);
      const waiting = (await o.deploy({ template: 'Web deploys' })).json().change;
      const running = await o.deploy({ template: 'Web deploys', windowStart: undefined, windowEnd: undefined, startNow: true });
      expect(running.statusCode, running.body).toBe(201);
      expect(running.json().change).toMatchObject({ status: 'active', changeClass: 'standard' });
      expect(waiting).toMatchObject({ status: 'scheduled', changeClass: 'standard' });

      const before = await allRows(engine.db());
      const w = await o.as(o.owner).post(`/api/change-templates/${tpl.id}/withdraw`, { reason: 'too broad' });
      expect(w.statusCode, w.body).toBe(200);
      expect(w.json()).toMatchObject({ dropped: 1, template: { state: 'withdrawn', withdrawnReason: 'too broad' } });
      const dropped = (await o.pipe.get(`/api/changes/${waiting.id}`)).json().change;
      expect(dropped).toMatchObject({ changeClass: 'normal', changeClassCause: 'template_withdrawn', template: null, riskTier: 'L2', status: 'pending_approval', gated: true, quorum: 2 });
      expect((await o.pipe.get(`/api/changes/${waiting.id}/status`)).json().approval).toMatchObject({ state: 'pending', tier: 'L2' });
      const [event] = await o.audit('change.class_dropped', waiting.id);
      expect(event!.data).toMatchObject({ from: 'standard', to: 'normal', cause: 'template_withdrawn', template: { id: tpl.id, name: 'Web deploys' } });
      expect((await o.audit('template.withdrawn', tpl.id))[0]!.data).toMatchObject({ reason: 'too broad', was: 'certified' });
      // The started change keeps the class it runs under, and nothing was written about it.
      expect((await o.pipe.get(`/api/changes/${running.json().change.id}`)).json().change).toMatchObject({ status: 'active', changeClass: 'standard', changeClassCause: null });
      expect(await o.audit('change.class_dropped', running.json().change.id)).toEqual([]);
      // Written: template.withdrawn, change.class_dropped and change.reopened, and the timers and news of waiting for approval; no row added or removed elsewhere.
      expect(moved(before, await allRows(engine.db()))).toEqual({ audit_events: 3, jobs: expect.any(Number) });
    });

    it('editing it drops its standard changes not started likewise, cause template_edited', async () => {
      const o = await organisation('Edit');
      const tpl = await o.certified(WEB_DEPLOYS);
      const c = (await o.deploy({ template: 'Web deploys' })).json().change;
      const e = await o.as(o.p.ada).put(`/api/change-templates/${tpl.id}`, { description: 'web only, staging and production' });
      expect(e.statusCode, e.body).toBe(200);
      expect(e.json()).toMatchObject({ dropped: 1, template: { version: 2, state: 'draft' } });
      expect((await o.pipe.get(`/api/changes/${c.id}`)).json().change).toMatchObject({ changeClass: 'normal', changeClassCause: 'template_edited', status: 'pending_approval' });
      expect((await o.audit('change.class_dropped', c.id))[0]!.data).toMatchObject({ cause: 'template_edited', to: 'normal' });
    });
  });

  describe('reclassifying a change', () => {
    let o: Org;
    let id: string;
    beforeAll(async () => {
      o = await organisation('Reclassify');
      id = (await o.deploy({ pipeline: { environment: 'production', commit: 'abc123' } })).json().change.id;
      const given = await o.as(o.p.alice).post(`/api/changes/${id}/approve`);
      expect(given.json()).toMatchObject({ status: 'pending_approval', approvals: 1, required: 2 });
    });

    it('refuses a note under 5 characters (400 note), a person who is not an approver (403) and an API token (403), writing nothing', async () => {
      const before = await allRows(engine.db());
      const short = await o.as(o.p.bob).post(`/api/changes/${id}/class`, { changeClass: 'standard', note: 'ok!' });
      expect(short.statusCode).toBe(400);
      expect(short.json().field).toBe('note');
      const member = await o.as(o.p.dave).post(`/api/changes/${id}/class`, { changeClass: 'standard', note: 'routine rollout' });
      expect(member.statusCode).toBe(403);
      expect(member.json().error).toContain('designated approvers');
      const token = await o.pipe.post(`/api/changes/${id}/class`, { changeClass: 'standard', note: 'routine rollout' });
      expect(token.statusCode).toBe(403);
      expect(await allRows(engine.db())).toEqual(before);
      expect((await o.pipe.get(`/api/changes/${id}`)).json().change).toMatchObject({ changeClass: 'normal', status: 'pending_approval' });
    });

    it('an approver reclassifies it: 200, source reclassified, audited change.reclassified, the approvals collected voided', async () => {
      const before = await allRows(engine.db());
      const r = await o.as(o.p.bob).post(`/api/changes/${id}/class`, { changeClass: 'standard', note: 'routine rollout of web' });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().change).toMatchObject({ changeClass: 'standard', changeClassSource: 'reclassified', riskTier: 'L1', status: 'scheduled', gated: false });
      expect(r.json().change.changeClassReason).toContain('routine rollout of web');
      const [event] = await o.audit('change.reclassified', id);
      expect(event).toMatchObject({ actor: { id: o.p.bob.user.id }, data: { from: 'normal', to: 'standard', note: 'routine rollout of web', votesCleared: 1, riskTier: { from: 'L2', to: 'L1' } } });
      expect((await o.as(o.p.bob).get(`/api/changes/${id}/approvals`)).json().approvals).toEqual([]);
      expect(moved(before, await allRows(engine.db()))).toEqual({ audit_events: 2, jobs: expect.any(Number), change_approvals: -1, change_voided_approvals: 1 });
      const voided = await engine.db().query<{ user_id: string; cause: string }>('SELECT user_id, cause FROM change_voided_approvals WHERE change_id = $1', [id]);
      expect(voided.rows).toEqual([{ user_id: o.p.alice.user.id, cause: 'reclassified' }]);
    });
  });

  describe('approvals bound to the content they approved', () => {
    it('an edit after an approval voids it: pending_approval again, no approvals left, audited change.approvals_voided with the old digest', async () => {
      const o = await organisation('Digest');
      const c = (await o.deploy({ pipeline: { environment: 'production', commit: 'abc123' } })).json().change;
      expect(c.approvalDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect((await o.as(o.p.alice).post(`/api/changes/${c.id}/approve`)).statusCode).toBe(200);
      const recorded = await engine.db().query<{ digest: string }>('SELECT digest FROM change_approvals WHERE change_id = $1', [c.id]);
      expect(recorded.rows).toEqual([{ digest: c.approvalDigest }]);

      const edited = await o.pipe.put(`/api/changes/${c.id}`, { title: 'Deploy web 2.5' });
      expect(edited.statusCode, edited.body).toBe(200);
      const now = edited.json().change;
      expect(now).toMatchObject({ title: 'Deploy web 2.5', status: 'pending_approval', approvedDigest: null });
      expect(now.approvalDigest).not.toBe(c.approvalDigest);
      expect((await o.as(o.p.bob).get(`/api/changes/${c.id}/approvals`)).json()).toMatchObject({ status: 'pending_approval', approvals: [], canApprove: true });
      const [voided] = await o.audit('change.approvals_voided', c.id);
      expect(voided!.data).toEqual({ cause: 'edited', voided: [{ userId: o.p.alice.user.id, decision: 'approved', digest: c.approvalDigest }], digest: { from: c.approvalDigest, to: now.approvalDigest } });

      // Approved again, now for what would run: /status tells the pipeline what was approved.
      expect((await o.as(o.p.alice).post(`/api/changes/${c.id}/approve`)).json()).toMatchObject({ status: 'pending_approval', approvals: 1 });
      expect((await o.as(o.p.bob).post(`/api/changes/${c.id}/approve`)).json()).toMatchObject({ status: 'approved', approvals: 2 });
      const approved = (await o.pipe.get(`/api/changes/${c.id}`)).json().change;
      expect(approved.approvedDigest).toBe(now.approvalDigest);
      const status = (await o.pipe.get(`/api/changes/${c.id}/status`)).json();
      expect(status.approval).toMatchObject({ state: 'approved', tier: 'L2', digest: approved.approvedDigest, approvedCommit: 'abc123' });
      expect((await o.audit('change.approved', c.id))[0]!.data).toMatchObject({ digest: now.approvalDigest });
    });
  });
});
