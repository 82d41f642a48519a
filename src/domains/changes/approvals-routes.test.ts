import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

// The quorum rule between the quorum and the approver list, the critical approver's wording
// when the requester is the only one, autoStart's actor, and a name with no candidate.

const ESTATE = `
entities:
  - { key: "svc:payments", kind: service, name: payments, tier: critical }
  - { key: "svc:web", kind: service, name: web, tier: standard }
  - { key: "db:pg-1/wallet", kind: database, name: wallet }
  - { key: "db:pg-2/wallet", kind: database, name: wallet }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('approvals: the quorum rule, critical approvers, autoStart', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(engine.db());
  });
  afterAll(async () => t.close());

  /** A new organisation with these members (display name = the given name), its estate imported. */
  const organisation = async (label: string, names: string[]) => {
    const owner = await signedInOwner(t, label);
    const people: Record<string, SignedIn> = {};
    for (const name of names) {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${name}.${Math.random().toString(36).slice(2, 6)}@x.test`, role: 'member', displayName: name, password: PASSWORD });
      people[name] = await signIn(t, owner.org, user, PASSWORD);
    }
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    const as = (s: SignedIn) => ({
      get: async (url: string) => t.main.inject({ method: 'GET', url, headers: s.headers }),
      post: async (url: string, payload?: unknown) => t.main.inject({ method: 'POST', url, headers: s.headers, ...(payload === undefined ? {} : { payload: payload as Json }) }),
      put: async (url: string, payload: unknown) => t.main.inject({ method: 'PUT', url, headers: s.headers, payload: payload as Json }),
    });
    return {
      owner, people, as,
      settings: async (patch: Json) => as(owner).put(`/api/organizations/${owner.org.id}/change-settings`, patch),
      approvers: async (userIds: string[], criticalUserIds?: string[]) => as(owner).put(`/api/organizations/${owner.org.id}/change-approvers`, { userIds, ...(criticalUserIds ? { criticalUserIds } : {}) }),
      audit: async (action: string) => (await listAuditEvents(engine.db(), owner.org.id, { action }, 10)).items,
    };
  };

  describe('the quorum and the approver list', () => {
    it('takes any quorum while approvers are still being designated, answering 200 with a warning on the quorum — audited', async () => {
      const o = await organisation('Designating', ['alice', 'bob']);
      // A new organisation: quorum 2, nobody designated. Quorum 1 is as short as 2: taken alike.
      for (const quorum of [1, 3, 2]) {
        const r = await o.settings({ quorum });
        expect(r.statusCode, r.body).toBe(200);
        const body = r.json();
        expect(body.settings.quorum).toBe(quorum);
        expect(body.warnings).toEqual([
          { field: 'quorum', message: expect.stringContaining(`only 0 approvers are designated for a quorum of ${quorum}`) },
          { field: 'criticalUserIds', message: expect.stringContaining('no critical approver') },
        ]);
        expect(body.warning).toBe(body.warnings[0].message);
      }
      const changed = (await o.audit('settings.changes_updated')).map((e) => e.data['changed']);
      expect(changed).toEqual([{ quorum: { from: 3, to: 2 } }, { quorum: { from: 1, to: 3 } }, { quorum: { from: 2, to: 1 } }]);
      // Still short at 1 of 2: a designation, and taking it back, are both taken with the warning.
      const one = await o.approvers([o.people.alice!.user.id]);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json().warnings[0]).toEqual({ field: 'quorum', message: expect.stringContaining('only 1 approver is designated for a quorum of 2') });
      const none = await o.approvers([]);
      expect(none.statusCode, none.body).toBe(200);
      expect(none.json().warnings[0].message).toContain('designate 2 more');
    });

    it('refuses a write that leaves a list which reached the quorum short of it, naming the field and writing nothing', async () => {
      const o = await organisation('Complete', ['alice', 'bob']);
      const both = await o.approvers([o.people.alice!.user.id, o.people.bob!.user.id], [o.people.bob!.user.id]);
      expect(both.statusCode, both.body).toBe(200);
      expect(both.json()).toMatchObject({ warning: null, criticalWarning: null, warnings: [] });
      const before = await countRows(engine.db());
      const raised = await o.settings({ quorum: 3 });
      expect(raised.statusCode).toBe(400);
      expect(raised.json()).toEqual({ error: expect.stringContaining('cannot be above the number of approvers (2)'), field: 'quorum' });
      const shrunk = await o.approvers([o.people.alice!.user.id]);
      expect(shrunk.statusCode).toBe(400);
      expect(shrunk.json()).toEqual({ error: expect.stringContaining('lower the quorum first'), field: 'userIds' });
      expect(await countRows(engine.db())).toEqual(before);
      // Lowered first, the list may shrink; with approval not required any quorum is taken without a warning.
      expect((await o.settings({ quorum: 1 })).statusCode).toBe(200);
      expect((await o.approvers([o.people.alice!.user.id])).json()).toMatchObject({ warnings: [{ field: 'criticalUserIds' }] });
      const off = await o.settings({ approvalRequired: 'none', quorum: 5 });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json()).toMatchObject({ warning: null, warnings: [] });
    });
  });

  describe('the change', () => {
    it('says the only critical approver requested the change, by name, instead of "none is designated"', async () => {
      const o = await organisation('Critical', ['alice', 'bob']);
      const { alice, bob } = o.people as Record<'alice' | 'bob', SignedIn>;
      expect((await o.approvers([alice.user.id, bob.user.id], [alice.user.id])).statusCode).toBe(200);
      const r = await o.as(alice).post('/api/changes', { title: 'Rotate the payments keys', components: [{ query: 'payments' }] });
      expect(r.statusCode, r.body).toBe(201);
      const { change, approval } = r.json();
      const reason = 'Needs a critical approver: the only critical approver, alice, requested this change and cannot approve it — an owner or admin can mark another approver Critical';
      expect(approval.warning).toContain('the only critical approver, alice, requested this change and cannot approve it');
      expect(approval.warning).not.toContain('none is designated');
      const view = (await o.as(bob).get(`/api/changes/${change.id}/approvals`)).json();
      expect(view).toMatchObject({ blockedOn: 'critical_approver', blockedReason: reason });
      // Nobody critical at all: that is what it says.
      expect((await o.approvers([alice.user.id, bob.user.id], [])).statusCode).toBe(200);
      expect((await o.as(bob).get(`/api/changes/${change.id}/approvals`)).json().blockedReason).toBe('Needs a critical approver: none is designated — an owner or admin can mark an approver Critical');
    });

    it('records an autoStart start as the automation, triggered by the approval that completed the quorum', async () => {
      const o = await organisation('AutoStart', ['alice', 'mia']);
      const { alice, mia } = o.people as Record<'alice' | 'mia', SignedIn>;
      expect((await o.approvers([alice.user.id])).statusCode).toBe(200);
      expect((await o.settings({ quorum: 1 })).statusCode).toBe(200);
      const token = (await createToken(t, mia, ['changes:read', 'changes:write'], 'pipeline')).secret;
      const r = await t.pipeline.inject({ method: 'POST', url: '/api/changes', headers: { authorization: `Bearer ${token}` }, payload: { title: 'Deploy web', components: [{ query: 'web' }], autoStart: true, maxDurationMinutes: 20 } });
      expect(r.statusCode, r.body).toBe(201);
      const id = r.json().change.id as string;
      const approved = await o.as(alice).post(`/api/changes/${id}/approve`);
      expect(approved.json()).toMatchObject({ status: 'active' });
      const events = (await listAuditEvents(engine.db(), o.owner.org.id, { targetType: 'change', targetId: id }, 20)).items.reverse();
      expect(events.map((e) => [e.action, e.actor.kind])).toEqual([
        ['change.registered', 'token'], ['change.approval_given', 'user'], ['change.approved', 'user'], ['change.started', 'automation'],
      ]);
      const started = events.at(-1)!;
      expect(started.actor).toEqual({ kind: 'automation', id: null, name: 'autoStart', automation: 'autoStart', trigger: 'approval by alice' });
      expect(started.requestId).toBe(events[1]!.requestId);
      expect(started.data).toMatchObject({ from: 'approved', to: 'active' });
    });

    it('offers candidates only where there are some: a name that matches nothing says what to do', async () => {
      const o = await organisation('Names', ['alice']);
      const before = await countRows(engine.db());
      const none = await o.as(o.people.alice!).post('/api/changes', { title: 'Deploy', components: [{ query: 'no-such-service' }] });
      expect(none.statusCode).toBe(400);
      expect(none.json()).toMatchObject({
        field: 'components', unresolved: [{ query: 'no-such-service', candidates: [] }],
        error: 'not recognised: no-such-service (nothing in the catalogue matches it) — name it by its catalogue key (svc:…), register the entity in the catalogue first, or leave it out',
      });
      const two = await o.as(o.people.alice!).post('/api/changes', { title: 'Deploy', components: [{ query: 'wallet' }] });
      expect(two.json().error).toBe('not recognised: wallet — pick one of its candidates');
      expect(await countRows(engine.db())).toEqual(before);
    });
  });
});
