import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { AI_PEER_KEY, GOOD_ANSWER, startOpenAiPeer, type AiPeer } from '../../../test/support/ai-peers.js';
import { startReceiver } from '../../../test/support/receiver.js';
import { insertSource } from './evidence-sources-store.js';
import { COLLECT_JOB } from './evidence-service.js';

const ESTATE = `
format: changeledger/catalogue/1
entities:
  - { key: "svc:checkout", kind: service, name: Checkout, tier: standard }
  - { key: "svc:payments", kind: service, name: Payments, tier: standard }
links:
  - { from: "svc:checkout", to: "svc:payments", via: calls }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ZERO = '0001-01-01T00:00:00Z';

/** A loopback port nobody listens on: a Prometheus that is down. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describeEachEngine('evidence: a change from its finish through the horizon to a stored report', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: string;
  let alertToken: string;

  const pipe = {
    post: async (url: string, payload?: unknown, secret = token) => t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${secret}` }, ...(payload === undefined ? {} : { payload: payload as Json }) }),
    get: async (url: string) => t.pipeline.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }),
  };
  const runJobs = async () => {
    while ((await t.services.worker.runOnce()) > 0);
  };
  const collectJobs = async (changeId: string) => (await engine.db().query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = $1 AND payload->>'changeId' = $2`, [COLLECT_JOB, changeId])).rows[0]!.n;
  /** Registers, starts now and finishes a change through the pipeline; answers it as it is after the finish. */
  const finished = async (title: string, evidenceMinutes = 30) => {
    const r = await pipe.post('/api/changes', { title, components: [{ key: 'svc:checkout' }], startNow: true, evidenceMinutes });
    expect(r.statusCode, r.body).toBe(201);
    const id = r.json().change.id as string;
    t.clock.advance(10 * 60_000);
    expect((await pipe.post(`/api/changes/${id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
    return id;
  };

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Evidence');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    expect((await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { approvalRequired: 'none' } })).statusCode).toBe(200);
    token = (await createToken(t, owner, ['changes:read', 'changes:write'], 'deploy-bot')).secret;
    alertToken = (await createToken(t, owner, ['alerts:write'], 'alertmanager')).secret;
  });
  afterAll(async () => {
    await t.close();
    await ai?.close();
  });
  let ai: AiPeer | undefined;

  it('with no source at all: the horizon schedules one collection, and the report is unknown with the reason of each part', async () => {
    const id = await finished('No sources');
    await runJobs();
    expect(await collectJobs(id)).toBe(0);
    expect((await pipe.get(`/api/changes/${id}/report.json`)).statusCode).toBe(404);
    t.clock.advance(30 * 60_000);
    await runJobs();
    expect(await collectJobs(id)).toBe(1);
    const status = (await pipe.get(`/api/changes/${id}/status`)).json();
    expect(status).toMatchObject({ status: 'reported', surveillance: { impact: 'unknown', aiImpact: null } });
    const r = (await pipe.get(`/api/changes/${id}/report.json`)).json();
    expect(r).toMatchObject({
      version: 1, change: { id, impact: 'unknown', aiImpact: null, status: 'reported' },
      report: { version: 1, impact: 'unknown', aiImpact: null, rule: 'nothing_measured', verdict: { impact: 'unknown', rule: 'nothing_measured' }, ai: { status: 'no_provider' } },
    });
    const ev = r.evidence;
    expect(ev.alerts).toMatchObject({ status: 'not_measured', reason: expect.stringContaining('no Alertmanager is configured') });
    expect([ev.metrics, ev.logs]).toEqual([[], []]);
    expect(ev.services).toEqual([{ key: 'svc:checkout', name: 'Checkout', role: 'component' }, { key: 'svc:payments', name: 'Payments', role: 'neighbour' }]);
    // The window judged runs from the start to the finish plus the horizon.
    expect(Date.parse(ev.window.end) - Date.parse(ev.window.finish)).toBe(30 * 60_000);
    // Registered by the token, named, and its owner.
    expect(ev.change.registeredBy).toEqual({ user: { email: owner.user.email, name: expect.any(String) }, token: { id: expect.any(String), name: 'deploy-bot' } });
    expect(r.report.summary).toMatch(/nothing was measured/i);
    const audit = await engine.db().query<{ data: Json }>(`SELECT data FROM audit_events WHERE target_id = $1 AND action = 'change.reported'`, [id]);
    expect(audit.rows.map((x) => x.data)).toEqual([expect.objectContaining({ impact: 'unknown', aiImpact: null, rule: 'nothing_measured', reportVersion: 1 })]);
  });

  it('with a Prometheus nobody answers: metrics are "not measured" with the reason, never an error; alerts count once an alert has arrived', async () => {
    await insertSource(engine.db(), {
      id: 'evs_dead', orgId: owner.org.id, kind: 'prometheus', name: 'Prometheus EU', url: `http://127.0.0.1:${await deadPort()}`,
      authKind: 'none', authSealed: null, config: {}, enabled: true, at: t.clock.now().toISOString(),
    });
    const id = await finished('Dead Prometheus');
    // An alert on the component fires and recovers inside the window: the alert history is a source now.
    const base = t.clock.now().getTime();
    const at = (m: number) => new Date(base + m * 60_000).toISOString();
    const labels = { alertname: 'CheckoutErrors', service: 'Checkout' };
    const wh = (status: 'firing' | 'resolved', endsAt: string) => ({ version: '4', groupKey: '{}', status, receiver: 'changeledger', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://am.example:9093', truncatedAlerts: 0, alerts: [{ status, labels, annotations: {}, startsAt: at(1), endsAt }] });
    t.clock.set(at(1));
    const fired = await pipe.post('/api/alerts/alertmanager', wh('firing', ZERO), alertToken);
    expect(fired.statusCode, fired.body).toBe(200);
    t.clock.set(at(6));
    expect((await pipe.post('/api/alerts/alertmanager', wh('resolved', at(6)), alertToken)).statusCode).toBe(200);
    t.clock.set(at(30));
    await runJobs();
    const r = (await pipe.get(`/api/changes/${id}/report.json`)).json();
    expect(r.evidence.metrics).toEqual([{ source: { id: 'evs_dead', kind: 'prometheus', name: 'Prometheus EU' }, status: 'not_measured', reason: expect.any(String) }]);
    expect(r.evidence.metrics[0].reason.length).toBeGreaterThan(0);
    expect(r.evidence.alerts.status).toBe('measured');
    expect(r.evidence.alerts.value.subjects).toEqual([expect.objectContaining({ key: 'svc:checkout', label: 'Checkout', role: 'component', enteredError: 1, firedAndRecovered: true, openAtEnd: false })]);
    expect(r.report).toMatchObject({ impact: 'significant', rule: 'alert_fired_recovered' });
    expect((await pipe.get(`/api/changes/${id}/status`)).json().surveillance.impact).toBe('significant');
  });

  it('serves each form of a version: HTML under a CSP that loads nothing, text, and CSV as change-<CHG id>-v<n>.csv; 404 names what is missing', async () => {
    const id = await finished('Forms');
    const none = await pipe.get(`/api/changes/${id}/report.html`);
    expect([none.statusCode, none.json().error]).toEqual([404, expect.stringContaining('no report yet')]);
    t.clock.advance(30 * 60_000);
    await runJobs();
    const html = await pipe.get(`/api/changes/${id}/report.html`);
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['content-security-policy']).toMatch(/^default-src 'none'(; style-src( 'sha256-[A-Za-z0-9+/=]+')+)?$/);
    expect(html.body).toContain('<');
    const txt = await pipe.get(`/api/changes/${id}/report.txt?version=1`);
    expect([txt.statusCode, txt.headers['content-type']]).toEqual([200, expect.stringMatching(/^text\/plain/)]);
    const displayId = (await pipe.get(`/api/changes/${id}/status`)).json().displayId as string;
    const csv = await pipe.get(`/api/changes/${id}/report.csv`);
    expect([csv.statusCode, csv.headers['content-type'], csv.headers['content-disposition']]).toEqual([200, expect.stringMatching(/^text\/csv/), `attachment; filename="change-${displayId}-v1.csv"`]);
    const missing = await pipe.get(`/api/changes/${id}/report.csv?version=9`);
    expect([missing.statusCode, missing.json().error]).toEqual([404, expect.stringContaining('no report version 9')]);
  });

  it('re-evaluates over the same window: at once when the new horizon has passed, else at that horizon', async () => {
    const id = await finished('Again', 30);
    t.clock.advance(30 * 60_000);
    await runJobs();
    const first = (await pipe.get(`/api/changes/${id}/report.json`)).json();
    // The same horizon again (finish + 30 min, passed): collected now, without the clock moving.
    expect((await pipe.post(`/api/changes/${id}/evaluate`)).json().change.status).toBe('evaluating');
    await runJobs();
    const second = (await pipe.get(`/api/changes/${id}/report.json`)).json();
    expect(second.version).toBe(2);
    expect(second.evidence.window).toEqual(first.evidence.window);
    // A longer horizon (finish + 120 min) still ahead: it waits for it.
    const again = await pipe.post(`/api/changes/${id}/evaluate`, { evidenceMinutes: 120 });
    expect(again.json().change).toMatchObject({ status: 'evaluating', evidenceMinutes: 120, evaluateAt: new Date(Date.parse(first.evidence.window.finish) + 120 * 60_000).toISOString() });
    await runJobs();
    expect((await pipe.get(`/api/changes/${id}/report.json`)).json().version).toBe(2);
    t.clock.advance(90 * 60_000);
    await runJobs();
    const third = (await pipe.get(`/api/changes/${id}/report.json`)).json();
    expect([third.version, third.evidence.window.start, third.evidence.window.evidenceMinutes]).toEqual([3, first.evidence.window.start, 120]);
    expect((await pipe.get(`/api/changes/${id}/report.json?version=1`)).json().version).toBe(1);
  });

  it('writes nothing for a collection the change has moved on from: another horizon, or already reported', async () => {
    const id = await finished('Moved on', 30);
    t.clock.advance(30 * 60_000);
    await runJobs();
    const first = (await pipe.get(`/api/changes/${id}/report.json`)).json();
    const stale = first.change.evaluateAt as string;
    const reports = async () => (await engine.db().query<{ n: number }>('SELECT count(*)::int AS n FROM change_reports WHERE change_id = $1', [id])).rows[0]!.n;
    const record = { impact: 'outage' as const, aiImpact: null, rule: 'component_down', summary: 'stale', body: {}, verdict: null, ai: null, html: null, textBody: null, csv: null };
    const ctx = { actor: { kind: 'system' as const, id: null, name: 'test' }, source: 'scheduler' as const };
    // Reported already: the stale collection is dropped.
    expect(await engine.db().transaction((tx) => t.services.changes.recordReport(tx, ctx, id, stale, record))).toBeNull();
    // Evaluated again with another horizon, still ahead: a collection of the old horizon is dropped too.
    expect((await pipe.post(`/api/changes/${id}/evaluate`, { evidenceMinutes: 240 })).statusCode).toBe(200);
    expect(await engine.db().transaction((tx) => t.services.changes.recordReport(tx, ctx, id, stale, record))).toBeNull();
    expect(await t.services.evidence.collect(owner.org.id, { changeId: id, evaluateAt: stale, version: 2 })).toBeNull();
    expect(await reports()).toBe(1);
    expect((await pipe.get(`/api/changes/${id}/status`)).json()).toMatchObject({ status: 'evaluating', surveillance: { impact: first.report.impact } });
  });

  it('ends surveillance with an unknown report that says why when every attempt to collect failed, rather than leaving the change evaluating', async () => {
    const id = await finished('Broken snapshot', 30);
    // A blast snapshot nobody can read: collecting throws on each attempt.
    await engine.db().query(`UPDATE change_blasts SET stored = '{}'::jsonb WHERE change_id = $1`, [id]);
    t.clock.advance(30 * 60_000);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      await runJobs();
      t.clock.advance(15 * 60_000);
    }
    const status = (await pipe.get(`/api/changes/${id}/status`)).json();
    expect(status).toMatchObject({ status: 'reported', surveillance: { impact: 'unknown' } });
    const r = (await pipe.get(`/api/changes/${id}/report.json`)).json();
    expect(r.report).toMatchObject({ version: 1, impact: 'unknown', rule: 'collection_failed', summary: expect.stringMatching(/could not be collected or judged \(.+\)\. Re-evaluate/) });
    const jobs = await engine.db().query<{ status: string; attempts: number }>(`SELECT status, attempts FROM jobs WHERE kind = $1 AND payload->>'changeId' = $2`, [COLLECT_JOB, id]);
    expect(jobs.rows).toEqual([{ status: 'done', attempts: 5 }]);
  });

  it('shows the validation plan checked 30 s after completion in the report, with its pass row, and the before-state the change was registered with', async () => {
    const probe = await startReceiver({ status: 200, body: '{"ok":true}' });
    try {
      const plan = [{ id: 'checkout-health', target: 'Checkout', check: 'http', url: `${probe.url}/healthz`, expected: { op: '==', value: 200 } }];
      const r = await pipe.post('/api/changes', { title: 'Validated', components: [{ key: 'svc:checkout' }], startNow: true, evidenceMinutes: 30, previousVersion: '2.3.9', validationPlan: plan });
      expect(r.statusCode, r.body).toBe(201);
      const id = r.json().change.id as string;
      t.clock.advance(10 * 60_000);
      expect((await pipe.post(`/api/changes/${id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
      const finishedAt = (await pipe.get(`/api/changes/${id}/status`)).json().deployment.finishedAt as string;
      // Not before 30 s: the probe has not been asked yet.
      t.clock.advance(29_000);
      await runJobs();
      expect(probe.received).toEqual([]);
      expect((await pipe.get(`/api/changes/${id}/validation`)).json()).toMatchObject({ result: null, checkedAt: null, rows: [] });
      t.clock.advance(1_000);
      await runJobs();
      expect(probe.received.map((x) => [x.method, x.path])).toEqual([['GET', '/healthz']]);
      const checkedAt = t.clock.now().toISOString();
      expect((await pipe.get(`/api/changes/${id}/validation`)).json()).toMatchObject({ result: 'cleared', checkedAt, rows: [{ itemId: 'checkout-health', state: 'pass' }] });

      t.clock.advance(30 * 60_000 - 30_000);
      await runJobs();
      const report = (await pipe.get(`/api/changes/${id}/report.json`)).json();
      expect(report.evidence.validation).toEqual({
        result: 'cleared', reason: 'cleared: the one item of the plan passed', checkedAt, dueAt: expect.any(String),
        items: [{
          id: 'checkout-health', target: 'Checkout', check: 'http', read: `${probe.url}/healthz`, expected: { op: '==', value: 200 },
          row: { state: 'pass', observed: '200', detail: 'observed status 200, expected == 200', checkedAt },
        }],
      });
      expect(report.evidence.validation.dueAt).toBe(new Date(Date.parse(finishedAt) + 30_000).toISOString());
      expect(report.evidence.governance).toEqual({
        beforeState: { digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), captures: [expect.objectContaining({ method: 'previous_version', reference: '2.3.9', restorable: true, capturedBy: expect.stringContaining('deploy-bot') })] },
        rollback: { state: null, requestedAt: null, completedAt: null, releasedBy: [], decision: null },
      });
      const txt = (await pipe.get(`/api/changes/${id}/report.txt`)).body;
      const at = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;
      expect(txt).toContain([
        'Validation', '----------',
        `Result cleared: the one item of the plan passed; checked ${at(checkedAt)}.`,
        `  - checkout-health · Checkout · http ${probe.url}/healthz · expected status == 200: pass (observed status 200, expected == 200)`,
      ].join('\n'));
      expect(txt).toMatch(/Before-state and rollback\n-+\nBefore-state: 1 capture, digest sha256:[0-9a-f]{64}\.\n {2}- previous version 2\.3\.9: partial, existed before, restorable; captured .+ by .*deploy-bot.*\nNo rollback was requested\.\n/);
      const html = (await pipe.get(`/api/changes/${id}/report.html`)).body;
      expect(html).toContain('<h2>Validation</h2>');
      expect(html).toMatch(/<td class="better">pass<\/td>/);
      const csv = (await pipe.get(`/api/changes/${id}/report.csv`)).body;
      expect(csv).toContain(`validation,validation plan,item:checkout-health,Checkout,,http,,,,,,pass,${checkedAt},200,status == 200,"observed status 200, expected == 200"\r\n`);
    } finally {
      await probe.close();
    }
  });

  it('says in the report of a change without a validation plan that it had none', async () => {
    const id = await finished('No plan');
    t.clock.advance(30 * 60_000);
    await runJobs();
    const r = (await pipe.get(`/api/changes/${id}/report.json`)).json();
    expect(r.evidence.validation).toBeNull();
    expect((await pipe.get(`/api/changes/${id}/report.txt`)).body).toContain('Validation\n----------\nNo validation plan was registered for this change.\n');
  });

  it('carries the AI assessment\'s tier beside the verdict: on the report, the change, /status and the report list', async () => {
    ai = await startOpenAiPeer(AI_PEER_KEY, JSON.stringify(GOOD_ANSWER));
    const put = await t.main.inject({ method: 'PUT', url: '/api/ai-provider', headers: owner.headers, payload: { kind: 'openai', url: ai.baseUrl, model: 'gpt-4o-mini', key: AI_PEER_KEY } });
    expect(put.statusCode, put.body).toBe(200);
    const id = await finished('With AI');
    t.clock.advance(30 * 60_000);
    await runJobs();
    const r = (await pipe.get(`/api/changes/${id}/report.json`)).json();
    expect(r.report).toMatchObject({ aiImpact: 'significant', ai: { status: 'done', tier: 'significant', provider: { kind: 'openai', model: 'gpt-4o-mini' } } });
    // The AI never changes the verdict: the rules' impact stands.
    expect(r.report.impact).toBe(r.report.verdict.impact);
    expect(r.change.aiImpact).toBe('significant');
    expect((await pipe.get(`/api/changes/${id}/status`)).json().surveillance).toMatchObject({ impact: r.report.impact, aiImpact: 'significant' });
    const listed = (await pipe.get(`/api/changes/${id}?include=reports`)).json();
    expect(listed.reports).toEqual([expect.objectContaining({ version: 1, impact: r.report.impact, aiImpact: 'significant', rule: r.report.rule })]);
  });
});
