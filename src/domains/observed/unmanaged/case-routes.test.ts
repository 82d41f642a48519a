import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../../test/support/engines.js';
import { auditEventList, auditWrite } from '../../../../test/support/k8s-audit.js';
import { addChangeSource } from '../../../../test/support/observed-intake.js';
import { countRows, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../../test/support/test-app.js';
import { SettableClock } from '../../../platform/clock.js';
import { JobWorker } from '../../../platform/jobs/job-worker.js';
import { CASE_NOTIFY_JOB } from './case-service.js';

/**
 * Cases on both engines: writes flagged at the intake open one case per account · principal · UTC
 * hour (mailed to approvers and owners, posted to the channel); approvers keep or roll back;
 * denied attempts open their own case, which is only acknowledged.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const T0 = new Date('2026-12-03T10:00:00.000Z');
const minutes = (m: number) => new Date(T0.getTime() + m * 60_000).toISOString();

const write = (id: string, o: { username: string; name: string; minute: number; code?: number; verb?: string }) => auditWrite(id, { ...o, app: o.name, at: minutes(o.minute) });
const eventList = auditEventList;

describeEachEngine('cases of unmanaged changes', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let approver: SignedIn;
  let member: SignedIn;
  let src: { id: string; secret: string };
  const post = (items: unknown[]) => t.pipeline.inject({ method: 'POST', url: `/v1/changes/kubernetes/${src.id}`, payload: JSON.stringify(eventList(items)), headers: { 'content-type': 'application/json', authorization: `Bearer ${src.secret}` } });
  const as = (s: SignedIn) => ({
    get: (url: string) => t.main.inject({ method: 'GET', url, headers: s.headers }),
    post: (url: string, payload?: unknown) => t.main.inject({ method: 'POST', url, headers: s.headers, ...(payload === undefined ? {} : { payload: payload as Json }) }),
  });
  const audits = async (action: string) => (await t.services.db.query<Json>('SELECT * FROM audit_events WHERE org_id = $1 AND action = $2 ORDER BY seq', [owner.org.id, action])).rows;
  const cases = async (q = '') => ((await as(owner).get(`/api/cases${q}`)).json() as { cases: Json[] }).cases;

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
    owner = await signedInOwner(t, 'Cases');
    for (const [name, role] of [['ada', 'member'], ['moe', 'member']] as const) {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${name}.${Math.random().toString(36).slice(2, 6)}@x.test`, role, displayName: name, password: PASSWORD });
      const s = await signIn(t, owner.org, user, PASSWORD);
      if (name === 'ada') approver = s;
      else member = s;
    }
    const ap = await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-approvers`, headers: owner.headers, payload: { userIds: [approver.user.id] } });
    expect(ap.statusCode, ap.body).toBe(200);
    const ch = await t.main.inject({ method: 'PUT', url: '/api/settings/incidents', headers: owner.headers, payload: { channelUrl: 'http://127.0.0.1:9/hooks/secops' } });
    expect(ch.statusCode, ch.body).toBe(200);
    const put = await t.main.inject({ method: 'PUT', url: '/api/unmanaged-settings', headers: owner.headers, payload: { referenceRule: true } });
    expect(put.statusCode, put.body).toBe(200);
    src = await addChangeSource(t, owner.org.id, 'kubernetes', { config: { cluster: 'prod-eu' } });
  });
  afterAll(async () => t.close());

  it('flagged writes of one principal, account and hour open one case, mailed to approvers and owners and posted to the channel; the next hour opens another', async () => {
    const r = await post([
      write('m1', { username: 'mallory@example.com', name: 'checkout', minute: 5 }),
      write('m2', { username: 'mallory@example.com', name: 'payments', minute: 20, verb: 'delete' }),
      write('m3', { username: 'mallory@example.com', name: 'search', minute: 65 }),
      write('e1', { username: 'eve@example.com', name: 'checkout', minute: 6, code: 403 }),
      write('e2', { username: 'eve@example.com', name: 'payments', minute: 7, code: 403 }),
    ]);
    expect(r.statusCode, r.body).toBe(200);
    const all = await cases();
    expect(all.map((c) => [c.kind, c.correlationKey, c.changes, c.status]).sort()).toEqual([
      ['denied_access', 'denied_access=prod-eu/eve@example.com@2026-12-03T10Z', 2, 'open'],
      ['unauthorized_change', 'unauthorized=prod-eu/mallory@example.com@2026-12-03T10Z', 2, 'open'],
      ['unauthorized_change', 'unauthorized=prod-eu/mallory@example.com@2026-12-03T11Z', 1, 'open'],
    ]);
    expect(await audits('case.opened')).toHaveLength(3);

    // The delivery queued one notify job; the worker turns it into the mails and channel posts (run twice: nothing twice).
    const notify = await t.services.db.query<Json>('SELECT payload FROM jobs WHERE org_id = $1 AND kind = $2', [owner.org.id, CASE_NOTIFY_JOB]);
    expect(notify.rows).toHaveLength(1);
    expect(notify.rows[0]!.payload.notices).toHaveLength(3);
    const worker = new JobWorker({ db: t.services.db, clock: t.services.clock, logger: t.services.logger, handlers: t.services.cases.jobHandlers() });
    expect(await worker.runOnce()).toBe(1);
    await t.services.db.query("UPDATE jobs SET status = 'pending' WHERE org_id = $1 AND kind = $2", [owner.org.id, CASE_NOTIFY_JOB]);
    expect(await worker.runOnce()).toBe(1);
    const mails = (await t.services.db.query<Json>("SELECT payload, dedupe_key FROM jobs WHERE org_id = $1 AND kind = 'mail.send' AND dedupe_key LIKE 'case:%'", [owner.org.id])).rows;
    // Three cases, each to the approver and the owner.
    expect(mails).toHaveLength(6);
    expect(new Set(mails.map((m) => m.payload.to))).toEqual(new Set([approver.user.email.toLowerCase(), owner.user.email.toLowerCase()]));
    const unauthorizedMail = mails.find((m) => m.payload.subject === 'Unauthorized change: mallory@example.com in prod-eu')!;
    expect(unauthorizedMail.payload.text).toContain('/cases/case_');
    const posts = (await t.services.db.query<Json>("SELECT payload FROM jobs WHERE org_id = $1 AND kind = 'incident.post-flag-changes'", [owner.org.id])).rows;
    expect(posts).toHaveLength(3);
    expect(posts.map((p) => p.payload.target.type)).toEqual(['case', 'case', 'case']);
    expect(posts.some((p) => /^Denied attempts: eve@example\.com in prod-eu \(CASE-[0-9A-F]{8}\)/.test(p.payload.text))).toBe(true);

    // The case page's read: its writes with their drafted reverts.
    const tenOclock = all.find((c) => c.correlationKey.endsWith('T10Z') && c.kind === 'unauthorized_change')!;
    const one = (await as(member).get(`/api/cases/${tenOclock.id}`)).json() as { case: Json };
    expect(one.case.canAnswer).toBe(false);
    expect(((await as(approver).get(`/api/cases/${tenOclock.id}`)).json() as { case: Json }).case.canAnswer).toBe(true);
    expect(one.case.writes.map((w: Json) => w.eventId)).toEqual(['m1', 'm2']);
    expect(one.case.writes[0].revert).toMatchObject({ tool: 'kubectl', command: 'kubectl rollout undo deployments/checkout -n shop' });
  });

  it('keeping needs an approver and a note of 10 characters; it authorizes every change of the case, audited per change and on the case', async () => {
    const c = (await cases('?kind=unauthorized_change')).find((x) => x.correlationKey.endsWith('T10Z'))!;
    const before = await countRows(t.services.db);
    const short = await as(approver).post(`/api/cases/${c.id}/keep`, { note: 'fine' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ field: 'note' });
    const notApprover = await as(member).post(`/api/cases/${c.id}/keep`, { note: 'this was the planned migration' });
    expect(notApprover.statusCode).toBe(403);
    expect(await countRows(t.services.db)).toEqual(before);

    const kept = await as(approver).post(`/api/cases/${c.id}/keep`, { note: 'hotfix agreed on the incident call' });
    expect(kept.statusCode, kept.body).toBe(200);
    const k = (kept.json() as { case: Json }).case;
    expect(k).toMatchObject({ status: 'kept', note: 'hotfix agreed on the incident call', closedBy: { id: approver.user.id } });
    for (const w of k.writes) expect(w).toMatchObject({ authorized: true, authorizedReason: 'kept as legitimate: hotfix agreed on the incident call', reference: 'kept' });
    expect(await audits('change.kept')).toHaveLength(2);
    expect((await audits('case.change_kept'))[0]).toMatchObject({ target_id: c.id });
    expect((await t.main.inject({ method: 'GET', url: '/api/changes?unauthorized=true', headers: owner.headers })).json().changes).toHaveLength(1);

    const again = await as(approver).post(`/api/cases/${c.id}/keep`, { note: 'hotfix agreed on the incident call' });
    expect(again.statusCode).toBe(409);
  });

  it('a rollback is approved, run by a person, marked done, and the change can then no longer be kept', async () => {
    const c = (await cases('?kind=unauthorized_change')).find((x) => x.correlationKey.endsWith('T11Z'))!;
    expect((await as(approver).post(`/api/cases/${c.id}/rolled-back`)).statusCode).toBe(409);
    const approved = await as(approver).post(`/api/cases/${c.id}/approve-rollback`, { note: 'undo it' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((approved.json() as { case: Json }).case).toMatchObject({ status: 'rollback_approved', rollbackApprovedBy: { id: approver.user.id } });
    expect((await audits('case.rollback_approved'))[0]!.data.reverts).toEqual([{ change: expect.any(String), tool: 'kubectl', command: 'kubectl rollout undo deployments/search -n shop' }]);
    const done = await as(approver).post(`/api/cases/${c.id}/rolled-back`);
    expect(done.statusCode, done.body).toBe(200);
    expect((done.json() as { case: Json }).case.status).toBe('rolled_back');
    const keep = await as(approver).post(`/api/cases/${c.id}/keep`, { note: 'changed my mind entirely' });
    expect(keep.statusCode).toBe(409);
    expect(keep.json().error).toMatch(/marked as run/);
  });

  it('a case of denied attempts cannot be rolled back or kept, only acknowledged; a new write reopens a closed case', async () => {
    const d = (await cases('?kind=denied_access'))[0]!;
    expect((await as(approver).post(`/api/cases/${d.id}/approve-rollback`)).statusCode).toBe(409);
    expect((await as(approver).post(`/api/cases/${d.id}/keep`, { note: 'not a change at all, really' })).statusCode).toBe(409);
    const ack = await as(approver).post(`/api/cases/${d.id}/resolve`, { note: 'eve was testing her new role' });
    expect(ack.statusCode, ack.body).toBe(200);
    expect((ack.json() as { case: Json }).case.status).toBe('resolved');

    const r = await post([write('e3', { username: 'eve@example.com', name: 'search', minute: 30, code: 403 })]);
    expect(r.statusCode, r.body).toBe(200);
    const reopened = (await cases('?kind=denied_access'))[0]!;
    expect(reopened).toMatchObject({ id: d.id, status: 'open', changes: 3 });
    expect(await audits('case.reopened')).toHaveLength(1);
    expect((await as(owner).get('/api/cases?status=nope')).json()).toMatchObject({ field: 'status' });
  });

  it('with denied attempts not sent to cases, a refusal opens none', async () => {
    await t.main.inject({ method: 'PUT', url: '/api/unmanaged-settings', headers: owner.headers, payload: { deniedAccessToSecops: false } });
    const before = (await cases()).length;
    expect((await post([write('z1', { username: 'zed@example.com', name: 'search', minute: 40, code: 403 })])).statusCode).toBe(200);
    expect(await cases()).toHaveLength(before);
  });
});
