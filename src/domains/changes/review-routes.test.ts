import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { listAuditEvents } from '../ledger/index.js';
import { unknownReport } from './change-reporter.js';
import type { Impact } from './change-store.js';

// Post-implementation reviews through the API: who may write one, what is refused (and that
// nothing is written then), the versions and their audit events, and the organisation's due list.
// Each test has an organisation of its own; the verdict of a change is whatever `verdicts` says.

const ESTATE = `
entities:
  - { key: "svc:web", kind: service, name: web, tier: standard }
`;
const DAY = 86_400_000;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every row countRows knows, with the reviews. */
async function allRows(db: Database): Promise<Record<string, number>> {
  const out = await countRows(db);
  out.change_reviews = Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM change_reviews')).rows[0]!.n);
  return out;
}

describeEachEngine('post-implementation reviews', (engine) => {
  let t: TestApp;
  /** The impact the test reporter gives a change's report (none unless set). */
  const verdicts = new Map<string, Impact>();
  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock('2026-03-02T09:00:00Z') });
    t.services.changes.setReporter({
      horizonReached: async (tx, ctx, ch) => {
        await t.services.changes.recordReport(tx, ctx, ch.id, ch.evaluateAt!, { ...unknownReport(ch), impact: verdicts.get(ch.id) ?? 'none', rule: 'test verdict', summary: 'judged by the test' });
      },
    });
  });
  afterAll(async () => t.close());

  const drain = async () => {
    while ((await t.services.worker.runOnce()) > 0);
  };

  /** A new organisation: its owner, alice and bob (the approvers), mia (who registers) and nina (a member, nothing more). */
  const organisation = async (label: string) => {
    const owner = await signedInOwner(t, label);
    const people: Record<string, SignedIn> = { owner };
    for (const name of ['alice', 'bob', 'mia', 'nina']) {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${name}.${Math.random().toString(36).slice(2, 6)}@pir.test`, role: 'member', displayName: name, password: PASSWORD });
      people[name] = await signIn(t, owner.org, user, PASSWORD);
    }
    const as = (who: string) => ({
      get: async (url: string) => t.main.inject({ method: 'GET', url, headers: people[who]!.headers }),
      post: async (url: string, payload?: unknown) => t.main.inject({ method: 'POST', url, headers: people[who]!.headers, ...(payload === undefined ? {} : { payload: payload as Json }) }),
      put: async (url: string, payload: unknown) => t.main.inject({ method: 'PUT', url, headers: people[who]!.headers, payload: payload as Json }),
    });
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    expect((await as('owner').put(`/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'none' })).statusCode).toBe(200);
    expect((await as('owner').put(`/api/organizations/${owner.org.id}/change-approvers`, { userIds: [people.alice!.user.id, people.bob!.user.id] })).statusCode).toBe(200);
    const token = (await createToken(t, people.mia!, ['changes:read', 'changes:write'], 'pipeline')).secret;
    return {
      owner, people, as, token,
      /** mia registers a change that starts now (15-minute horizon). */
      start: async (title: string, extra: Json = {}) => {
        const r = await as('mia').post('/api/changes', { title, components: [{ query: 'web' }], startNow: true, evidenceMinutes: 15, ...extra });
        expect(r.statusCode, r.body).toBe(201);
        expect(r.json().change.status).toBe('active');
        return r.json().change as Json;
      },
      /** Completes it with the outcome, then lets its horizon pass: it is reported with `impact`. */
      run: async (c: Json, outcome: 'success' | 'rolled_back', impact: Impact = 'none') => {
        verdicts.set(c.id, impact);
        const done = await as('mia').post(`/api/changes/${c.id}/complete`, { outcome });
        expect(done.statusCode, done.body).toBe(200);
        t.clock.advance(15 * 60_000);
        await drain();
        const got = (await as('mia').get(`/api/changes/${c.id}`)).json().change;
        expect(got).toMatchObject({ status: 'reported', outcome, impact });
        return got as Json;
      },
      audit: async (action: string, id?: string) => (await listAuditEvents(engine.db(), owner.org.id, { action, ...(id ? { targetType: 'change', targetId: id } : {}) }, 50)).items,
    };
  };
  const review = (summary = 'The deploy broke checkout for eight minutes; rolled back by the pipeline.', extra: Json = {}) => ({ summary, ...extra });

  describe('writing a review', () => {
    it('a rolled-back change requires one: each POST appends a version, audited change.reviewed with it', async () => {
      const o = await organisation('Versions');
      const c = await o.start('Deploy web 1.4');
      await o.run(c, 'rolled_back');
      const before = await o.as('nina').get(`/api/changes/${c.id}/review`);
      expect(before.statusCode, before.body).toBe(200);
      expect(before.json()).toEqual({ required: true, reasons: ['it was rolled back'], review: null, versions: 0 });

      const followUps = [{ text: 'Add a canary step for web', owner: 'alice@pir.test', due: '2026-03-20' }];
      const first = await o.as('mia').post(`/api/changes/${c.id}/review`, review('  The deploy broke checkout for eight minutes; rolled back by the pipeline.  ', { cause: 'A missing migration', followUps }));
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toEqual({
        required: true, reasons: ['it was rolled back'], versions: 1,
        review: {
          changeId: c.id, version: 1, summary: 'The deploy broke checkout for eight minutes; rolled back by the pipeline.', cause: 'A missing migration', whatWentWell: '',
          followUps, author: { id: o.people.mia!.user.id, email: o.people.mia!.user.email, name: 'mia' }, createdAt: t.clock.now().toISOString(),
        },
      });
      const [ev] = await o.audit('change.reviewed', c.id);
      expect(ev).toMatchObject({
        action: 'change.reviewed', target: { type: 'change', id: c.id }, actor: { kind: 'user', id: o.people.mia!.user.id },
        data: { version: 1, summary: 'The deploy broke checkout for eight minutes; rolled back by the pipeline.', followUps: 1, required: true, reasons: ['it was rolled back'] },
      });

      // An approver writes the second version; the answer and GET show the latest.
      const second = await o.as('alice').post(`/api/changes/${c.id}/review`, review('Second look: the migration ran after the deploy, not before it.', { whatWentWell: 'The rollback took 90 seconds' }));
      expect(second.statusCode, second.body).toBe(201);
      expect(second.json()).toMatchObject({ versions: 2, review: { version: 2, cause: '', whatWentWell: 'The rollback took 90 seconds', followUps: [], author: { name: 'alice' } } });
      const latest = (await o.as('nina').get(`/api/changes/${c.id}/review`)).json();
      expect(latest).toEqual(second.json());
      expect((await o.audit('change.reviewed', c.id)).map((e) => e.data['version'])).toEqual([2, 1]);
      // A token with changes:read reads it on the pipeline listener.
      const read = await t.pipeline.inject({ method: 'GET', url: `/api/changes/${c.id}/review`, headers: { authorization: `Bearer ${o.token}` } });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().review.version).toBe(2);
    });

    it('a change that did not require one may still get one: required false, said in the answer and the audit event', async () => {
      const o = await organisation('Optional');
      const c = await o.start('Routine config push');
      await o.run(c, 'success', 'minor');
      const r = await o.as('owner').post(`/api/changes/${c.id}/review`, review('Nothing broke; we wrote this down to learn how long the push took.'));
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json()).toMatchObject({ required: false, reasons: [], versions: 1, review: { version: 1 } });
      expect((await o.audit('change.reviewed', c.id))[0]!.data).toMatchObject({ required: false, reasons: [] });
    });

    it('its owner, an owner of the organisation and a designated approver may write it; a member who is none of these gets 403 and nothing is written', async () => {
      const o = await organisation('Who');
      const c = await o.start('Emergency fix', { emergency: true, emergencyReason: 'checkout is down', incident: 'INC-1' });
      await o.run(c, 'success');
      const before = await allRows(engine.db());
      const refused = await o.as('nina').post(`/api/changes/${c.id}/review`, review());
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: 'only the change’s owner, an owner or admin of the organisation, or a designated approver writes its review' });
      expect(await allRows(engine.db())).toEqual(before);
      for (const who of ['mia', 'owner', 'bob']) {
        const r = await o.as(who).post(`/api/changes/${c.id}/review`, review());
        expect(r.statusCode, `${who}: ${r.body}`).toBe(201);
        expect(r.json().reasons).toEqual(['an emergency change']);
      }
      expect((await o.audit('change.reviewed', c.id)).map((e) => e.actor.id)).toEqual([o.people.bob!.user.id, o.owner.user.id, o.people.mia!.user.id]);
    });

    it('refuses an API token with 403 (people write reviews), writing nothing', async () => {
      const o = await organisation('Token');
      const c = await o.start('Deploy with a token around');
      await o.run(c, 'rolled_back');
      const before = await allRows(engine.db());
      const r = await t.pipeline.inject({ method: 'POST', url: `/api/changes/${c.id}/review`, headers: { authorization: `Bearer ${o.token}` }, payload: review() });
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toBe('this route needs a signed-in person; API tokens cannot use it');
      // The service refuses a token by itself too (for callers other than the HTTP guard).
      const principal = (await t.services.auth.authenticateToken(o.token))!;
      await expect(t.services.reviews.submit(testCtx, principal, c.id, review())).rejects.toMatchObject({ status: 403, message: expect.stringContaining('never with an API token') });
      expect(await allRows(engine.db())).toEqual(before);
    });

    it('refuses bad input with 400 naming the field, writing nothing', async () => {
      const o = await organisation('Input');
      const c = await o.start('Deploy to be reviewed');
      await o.run(c, 'rolled_back');
      const good = { text: 'Write the runbook', owner: 'Alice', due: '2026-04-01' };
      const cases: Array<[Json, string, string | null]> = [
        [{ summary: '   too short: 19 chr   ' }, 'summary', 'summary must say what happened in at least 20 characters'],
        [{ summary: 'x'.repeat(19) }, 'summary', 'summary must say what happened in at least 20 characters'],
        [{}, 'summary', null],
        [review('x'.repeat(5001)), 'summary', null],
        [review(undefined, { cause: 'c'.repeat(5001) }), 'cause', null],
        [review(undefined, { whatWentWell: 'w'.repeat(5001) }), 'whatWentWell', null],
        [review(undefined, { followUps: [{ ...good, due: '2026-02-30' }] }), 'followUps.0.due', 'follow-up 1 needs its due date as YYYY-MM-DD (a real day)'],
        [review(undefined, { followUps: [good, { ...good, due: '01/04/2026' }] }), 'followUps.1.due', null],
        [review(undefined, { followUps: [{ ...good, text: '' }] }), 'followUps.0.text', null],
        [review(undefined, { followUps: [{ ...good, text: '   ' }] }), 'followUps.0.text', null],
        [review(undefined, { followUps: [{ ...good, text: 't'.repeat(501) }] }), 'followUps.0.text', null],
        [review(undefined, { followUps: [{ ...good, owner: '  ' }] }), 'followUps.0.owner', null],
        [review(undefined, { followUps: [{ ...good, owner: 'o'.repeat(201) }] }), 'followUps.0.owner', null],
        [review(undefined, { followUps: [{ text: 'no owner', due: '2026-04-01' }] }), 'followUps.0.owner', null],
        [review(undefined, { followUps: Array.from({ length: 21 }, () => good) }), 'followUps', null],
        [review(undefined, { summary: 42 }), 'summary', null],
        [review(undefined, { severity: 'high' }), 'severity', null],
      ];
      const before = await allRows(engine.db());
      for (const [body, field, error] of cases) {
        const r = await o.as('mia').post(`/api/changes/${c.id}/review`, body);
        expect(r.statusCode, `${field}: ${r.body}`).toBe(400);
        expect(r.json().field, r.body).toBe(field);
        if (error) expect(r.json().error).toBe(error);
      }
      expect(await allRows(engine.db())).toEqual(before);
      expect(await o.audit('change.reviewed', c.id)).toEqual([]);
    });

    it('answers 409 for a change that has not run yet (scheduled, running) and 404 for one that is not the organisation’s, writing nothing', async () => {
      const o = await organisation('NotRun');
      const start = new Date(t.clock.now().getTime() + DAY);
      const planned = await o.as('mia').post('/api/changes', { title: 'Tomorrow', components: [{ query: 'web' }], windowStart: start.toISOString(), windowEnd: new Date(start.getTime() + 3_600_000).toISOString(), emergency: true, emergencyReason: 'search is slow', incident: 'INC-9' });
      expect(planned.statusCode, planned.body).toBe(201);
      const running = await o.start('Running now', { emergency: true, emergencyReason: 'search is down', incident: 'INC-10' });
      const other = await organisation('Elsewhere');
      const before = await allRows(engine.db());
      for (const c of [planned.json().change, running]) {
        const r = await o.as('mia').post(`/api/changes/${c.id}/review`, review());
        expect(r.statusCode, r.body).toBe(409);
        expect(r.json()).toEqual({ error: `the change is ${c.status}: it has not run yet, so there is nothing to review`, status: c.status });
        expect((await o.as('mia').get(`/api/changes/${c.id}/review`)).json()).toEqual({ required: false, reasons: [], review: null, versions: 0 });
      }
      const foreign = await other.as('owner').post(`/api/changes/${running.id}/review`, review());
      expect(foreign.statusCode).toBe(404);
      expect((await other.as('owner').get(`/api/changes/${running.id}/review`)).statusCode).toBe(404);
      expect(await allRows(engine.db())).toEqual(before);
    });
  });

  describe('the due list', () => {
    it('lists the changes that require a review and have none, oldest finish first, with the reasons; overdue after 3 days', async () => {
      const o = await organisation('Due');
      const emergency = await o.start('Hotfix payments', { emergency: true, emergencyReason: 'payments fail', incident: 'INC-7' });
      await o.run(emergency, 'success');
      t.clock.advance(60 * 60_000);
      const outage = await o.start('Resize the database');
      await o.run(outage, 'success', 'outage');
      const fine = await o.start('Quiet deploy');
      await o.run(fine, 'success', 'minor');
      const significant = await o.start('Rotate certificates');
      await o.run(significant, 'rolled_back', 'significant');
      const reviewed = await o.start('Reviewed already');
      await o.run(reviewed, 'rolled_back');
      expect((await o.as('mia').post(`/api/changes/${reviewed.id}/review`, review())).statusCode).toBe(201);
      // Another organisation's change never shows.
      const other = await organisation('NotMine');
      await other.run(await other.start('Theirs'), 'rolled_back');

      const r = await o.as('nina').get('/api/reviews/due');
      expect(r.statusCode, r.body).toBe(200);
      const finished = async (c: Json) => (await o.as('nina').get(`/api/changes/${c.id}`)).json().change.finishedAt as string;
      const item = async (c: Json, reasons: string[]) => ({ changeId: c.id, displayId: c.displayId, title: c.title, finishedAt: await finished(c), dueSince: await finished(c), reasons, overdue: false });
      expect(r.json()).toEqual({
        items: [
          await item(emergency, ['an emergency change']),
          await item(outage, ['its verdict was outage']),
          await item(significant, ['it was rolled back', 'its verdict was significant']),
        ],
      });
      // Three days after the emergency's finish it is overdue; the outage, finished 75 minutes later, not yet.
      t.clock.set(new Date(new Date(await finished(emergency)).getTime() + 3 * DAY + 1));
      const later = await t.pipeline.inject({ method: 'GET', url: '/api/reviews/due', headers: { authorization: `Bearer ${o.token}` } });
      expect(later.statusCode, later.body).toBe(200);
      expect(later.json().items.map((i: Json) => [i.title, i.overdue])).toEqual([['Hotfix payments', true], ['Resize the database', false], ['Rotate certificates', false]]);
    });
  });
});
