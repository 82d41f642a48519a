import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import type { Job } from '../../platform/jobs/job.js';
import { COLLECT_JOB } from './evidence-service.js';

// The post-implementation review in the report: a review written after the report is added as the
// report's next version (the evidence, verdict and impact as they were), one written while the
// evidence is collected is in the report the horizon writes, and one that lands between the
// collection and its commit still reaches a version of its own.

const ESTATE = `
format: changeledger/catalogue/1
entities:
  - { key: "svc:checkout", kind: service, name: Checkout, tier: standard }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('the post-implementation review in the report', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: string;

  const pipe = {
    post: async (url: string, payload?: unknown) => t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as Json }) }),
    get: async (url: string) => t.pipeline.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }),
  };
  const runJobs = async () => {
    while ((await t.services.worker.runOnce()) > 0);
  };
  const review = async (id: string, body: Json) => {
    const r = await t.main.inject({ method: 'POST', url: `/api/changes/${id}/review`, headers: owner.headers, payload: body });
    expect(r.statusCode, r.body).toBe(201);
    return r.json();
  };
  const report = async (id: string, form: 'json' | 'html' | 'txt' | 'csv', version?: number) => {
    const r = await pipe.get(`/api/changes/${id}/report.${form}${version ? `?version=${version}` : ''}`);
    expect(r.statusCode, r.body).toBe(200);
    return r;
  };
  const audit = async (id: string, action: string) =>
    (await engine.db().query<{ data: Json }>('SELECT data FROM audit_events WHERE target_id = $1 AND action = $2 ORDER BY seq', [id, action])).rows.map((x) => x.data);
  /** Registers, starts and finishes a change through the pipeline (15-minute horizon). */
  const finished = async (title: string, outcome: 'success' | 'rolled_back' = 'success') => {
    const r = await pipe.post('/api/changes', { title, components: [{ key: 'svc:checkout' }], startNow: true, evidenceMinutes: 15 });
    expect(r.statusCode, r.body).toBe(201);
    const id = r.json().change.id as string;
    t.clock.advance(5 * 60_000);
    expect((await pipe.post(`/api/changes/${id}/complete`, { outcome })).statusCode).toBe(200);
    return id;
  };
  const pastHorizon = async () => {
    t.clock.advance(15 * 60_000);
    await runJobs();
  };

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Reviewed');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    expect((await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { approvalRequired: 'none' } })).statusCode).toBe(200);
    token = (await createToken(t, owner, ['changes:read', 'changes:write'], 'deploy-bot')).secret;
  });
  afterAll(async () => t.close());

  it('a review written after the report becomes its next version; the earlier version, the verdict and the impact stay as they were', async () => {
    const id = await finished('Checkout 4.2 with a bad migration', 'rolled_back');
    await pastHorizon();
    const v1 = (await report(id, 'json')).json();
    expect(v1.version).toBe(1);
    expect(v1.evidence.review).toEqual({ required: true, reasons: ['it was rolled back'], review: null });
    expect((await report(id, 'txt')).body).toContain('A review is required (it was rolled back), and none has been written yet.');

    await review(id, {
      summary: 'The migration locked the orders table for six minutes; the pipeline rolled back.',
      cause: 'An index built without CONCURRENTLY', whatWentWell: 'The rollback took 90 seconds',
      followUps: [{ text: 'Lint migrations for CONCURRENTLY', owner: 'dba@acme.test', due: '2026-12-20' }],
    });
    const v2 = (await report(id, 'json')).json();
    expect(v2.version).toBe(2);
    expect(v2.change).toMatchObject({ status: 'reported', reportVersion: 2, impact: v1.change.impact });
    expect(v2.report).toMatchObject({ impact: v1.report.impact, rule: v1.report.rule, summary: v1.report.summary, verdict: v1.report.verdict });
    expect(v2.evidence.review).toEqual({
      required: true, reasons: ['it was rolled back'],
      review: {
        version: 1, summary: 'The migration locked the orders table for six minutes; the pipeline rolled back.', cause: 'An index built without CONCURRENTLY',
        whatWentWell: 'The rollback took 90 seconds', followUps: [{ text: 'Lint migrations for CONCURRENTLY', owner: 'dba@acme.test', due: '2026-12-20' }],
        author: expect.any(String), createdAt: expect.any(String),
      },
    });
    // Nothing was collected again: the evidence is the stored one, review aside.
    const { review: _r1, ...rest1 } = v1.evidence;
    const { review: _r2, ...rest2 } = v2.evidence;
    expect(rest2).toEqual(rest1);

    const text = (await report(id, 'txt')).body;
    expect(text).toContain('Post-implementation review\n--------------------------\nA review is required (it was rolled back). Version 1, written by ');
    expect(text).toContain('What happened: The migration locked the orders table for six minutes; the pipeline rolled back.\nCause: An index built without CONCURRENTLY\nWhat went well: The rollback took 90 seconds\nFollow-ups:\n  - Lint migrations for CONCURRENTLY (owner dba@acme.test, due 2026-12-20)\n');
    expect(text).toContain('report version 2');
    const html = (await report(id, 'html')).body;
    expect(html).toContain('<h2>Post-implementation review</h2>');
    expect(html).toContain('<li>Lint migrations for CONCURRENTLY (owner dba@acme.test, due 2026-12-20)</li>');
    // Version 1 is still what was mailed.
    expect((await report(id, 'json', 1)).json().evidence.review.review).toBeNull();
    expect((await report(id, 'txt', 1)).body).not.toContain('What happened:');

    // Audited in the review's transaction; no second "reported", no news.
    expect(await audit(id, 'change.report_revised')).toEqual([{ version: 2, from: 1, reason: 'review', impact: v1.change.impact }]);
    expect(await audit(id, 'change.reported')).toHaveLength(1);

    // A second version of the review: the report's third version shows it.
    await review(id, { summary: 'Second look: the index build, not the migration itself, held the lock.' });
    const v3 = (await report(id, 'json')).json();
    expect(v3.version).toBe(3);
    expect(v3.evidence.review.review).toMatchObject({ version: 2, summary: 'Second look: the index build, not the migration itself, held the lock.', cause: '', followUps: [] });
    expect((await report(id, 'txt')).body).toContain('No follow-ups.');
  });

  it('a review written before the horizon is in the report the horizon writes: one version', async () => {
    const id = await finished('Checkout 4.3');
    await review(id, { summary: 'Went as planned; writing down how long the canary took.' });
    await pastHorizon();
    const r = (await report(id, 'json')).json();
    expect(r.version).toBe(1);
    expect(r.evidence.review).toMatchObject({ required: false, reasons: [], review: { version: 1, summary: 'Went as planned; writing down how long the canary took.' } });
    expect((await report(id, 'txt')).body).toContain('No review is required. Version 1, written by ');
    expect(await audit(id, 'change.report_revised')).toEqual([]);
  });

  it('a change that needs no review and has none says so', async () => {
    const id = await finished('Checkout 4.4');
    await pastHorizon();
    expect((await report(id, 'txt')).body).toContain('Post-implementation review\n--------------------------\nNo review is required, and none was written.\n');
  });

  it('a review that lands while the evidence is being collected reaches the next version at the commit', async () => {
    const id = await finished('Checkout 4.5', 'rolled_back');
    t.clock.advance(15 * 60_000);
    // The horizon: its collection is queued. Run the worker a batch at a time until then, and
    // collect by hand, as the job's perform would…
    const queued = async () => (await engine.db().query<{ payload: Json; org_id: string; status: string }>(`SELECT payload, org_id, status FROM jobs WHERE kind = $1 AND payload->>'changeId' = $2`, [COLLECT_JOB, id])).rows[0];
    for (let i = 0; i < 10 && !(await queued()); i += 1) await t.services.worker.runOnce();
    const job = (await queued())!;
    expect(job.status).toBe('pending');
    const record = await t.services.evidence.collect(job.org_id, job.payload as never);
    expect(record).not.toBeNull();
    // …a review is written meanwhile…
    await review(id, { summary: 'Rolled back after the error ratio doubled in eu-west.' });
    // …and the collection commits what it gathered before the review.
    const handler = t.services.evidence.jobHandlers()[COLLECT_JOB]!;
    await engine.db().transaction(async (tx) => handler.commit!(tx, { payload: job.payload, orgId: job.org_id } as unknown as Job, record));
    const v1 = (await report(id, 'json', 1)).json();
    expect(v1.evidence.review.review).toBeNull();
    const latest = (await report(id, 'json')).json();
    expect(latest.version).toBe(2);
    expect(latest.evidence.review.review).toMatchObject({ version: 1, summary: 'Rolled back after the error ratio doubled in eu-west.' });
    expect(await audit(id, 'change.report_revised')).toEqual([{ version: 2, from: 1, reason: 'review', impact: latest.change.impact }]);
  });
});
