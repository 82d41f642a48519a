import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { describeEachEngine, type TestEngine } from '../../test/support/engines.js';
import { startGithubApi, type GithubApi } from '../../test/support/github-api.js';
import { drain, HOLD_ESTATE, prepareHoldsOrg } from '../../test/support/holds.js';
import { startReceiver } from '../../test/support/receiver.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../test/support/test-app.js';
import { CHANGE_STATUSES } from '../domains/changes/index.js';
import { PULL_JOB } from '../domains/observed/pull-scheduler.js';
import { SettableClock } from '../platform/clock.js';
import { openDatabase, type Database } from '../platform/db/database.js';
import { createLogger } from '../platform/logger.js';
import { createOpsMetrics, DELIVERY_KINDS, DELIVERY_STATES } from './ops-metrics.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Sample = { name: string; labels: Record<string, string>; value: number };
const MIN = 60_000;

/** The samples of a Prometheus text exposition, labels unescaped enough for our values. */
function parseSamples(text: string): Sample[] {
  return text.split('\n').filter((l) => l !== '' && !l.startsWith('#')).map((line) => {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1]!, x[2]!]));
    return { name: m[1]!, labels, value: Number(m[3]) };
  });
}

/** GET /metrics on the main listener, as Prometheus scrapes it; answers a reader of one series (exact label set), undefined when absent. */
async function scrape(t: TestApp) {
  const res = await t.main.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode, res.body).toBe(200);
  const samples = parseSamples(res.body);
  const value = (name: string, labels: Record<string, string> = {}) => {
    const want = JSON.stringify(Object.entries(labels).sort());
    return samples.find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === want)?.value;
  };
  return { body: res.body, samples, value };
}

describeEachEngine('operations gauges on /metrics, read from the database at scrape time', (engine) => {
  const clock = new SettableClock(new Date('2026-05-06T08:00:00Z'));
  let t: TestApp;
  let gated: SignedIn;
  let open: SignedIn;
  let gatedToken: string;
  let openToken: string;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  let gh: GithubApi;
  const pipe = (secret: string, url: string, payload: Json = {}) => t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${secret}` }, payload });
  const register = async (secret: string, body: Json) => {
    const r = await pipe(secret, '/api/changes', body);
    expect(r.statusCode, r.body).toBe(201);
    return r.json().change as { id: string; status: string };
  };
  const auditEvents = async () => Number((await engine.db().query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events')).rows[0]!.n);

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock, outboundTimeoutMs: 400 });
    // An organisation with the default gate (approval by all) and one without a gate that holds alerts.
    gated = await signedInOwner(t, 'Gated');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...gated.headers, 'content-type': 'application/yaml' }, payload: HOLD_ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    gatedToken = (await createToken(t, gated, ['changes:read', 'changes:write'], 'deploy-bot')).secret;
    open = await signedInOwner(t, 'Open');
    await prepareHoldsOrg(t, open, createToken);
    openToken = (await createToken(t, open, ['changes:read', 'changes:write'], 'deploy-bot')).secret;
    hook = await startReceiver({ status: 204 });
    gh = await startGithubApi({ token: 'ghp_test' });
    await drain(t.services.worker);
  });
  afterAll(async () => {
    await t?.close();
    await hook?.close();
    await gh?.close();
  });

  it('with nothing waiting: every status and delivery series answers 0, the outbox waits 0 s, the ledger counts every audit event', async () => {
    const m = await scrape(t);
    for (const status of CHANGE_STATUSES) expect(m.value('changeledger_changes', { status }), status).toBe(0);
    for (const kind of DELIVERY_KINDS) for (const state of DELIVERY_STATES) expect(m.value('changeledger_deliveries', { kind, state }), `${kind} ${state}`).toBe(0);
    expect(m.value('changeledger_pending_approvals')).toBe(0);
    expect(m.value('changeledger_active_holds')).toBe(0);
    expect(m.value('changeledger_held_alerts')).toBe(0);
    expect(m.value('changeledger_outbox_oldest_age_seconds')).toBe(0);
    // Two organisations made, signed in, tokens created: the ledger holds their events.
    const events = await auditEvents();
    expect(events).toBeGreaterThan(0);
    expect(m.value('changeledger_ledger_events')).toBe(events);
    // No pulled connection yet: the harvest gauge is declared but has no sample.
    expect(m.body).toContain('# TYPE changeledger_harvest_lag_seconds gauge');
    expect(m.samples.filter((s) => s.name === 'changeledger_harvest_lag_seconds')).toEqual([]);
  });

  it('a change waiting for approval and one waiting for its components to be mapped are counted by status; the ledger grows with them', async () => {
    const before = (await scrape(t)).value('changeledger_ledger_events')!;
    expect((await register(gatedToken, { title: 'Upgrade checkout', components: [{ key: 'svc:checkout' }] })).status).toBe('pending_approval');
    expect((await register(gatedToken, { title: 'Resize the mystery box', components: [{ query: 'no-such-service' }] })).status).toBe('pending_mapping');
    const m = await scrape(t);
    expect(m.value('changeledger_changes', { status: 'pending_approval' })).toBe(1);
    expect(m.value('changeledger_changes', { status: 'pending_mapping' })).toBe(1);
    expect(m.value('changeledger_pending_approvals')).toBe(1);
    expect(m.value('changeledger_ledger_events')).toBeGreaterThan(before);
    expect(m.value('changeledger_ledger_events')).toBe(await auditEvents());
  });

  it('a running change holds the alerts of its blast radius: one hold, one held alert, still held while releasing, none after the release', async () => {
    const c = await register(openToken, { title: 'Deploy checkout', components: [{ key: 'svc:checkout' }], startNow: true });
    expect(c.status).toBe('active');
    let m = await scrape(t);
    expect(m.value('changeledger_changes', { status: 'active' })).toBe(1);
    expect([m.value('changeledger_active_holds'), m.value('changeledger_held_alerts')]).toEqual([1, 0]);

    const alertsToken = (await createToken(t, open, ['alerts:write'], 'alertmanager-2')).secret;
    const now = clock.now().toISOString();
    const fired = await pipe(alertsToken, '/api/alerts/alertmanager', {
      version: '4', groupKey: '{}', status: 'firing', receiver: 'changeledger', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://am.example:9093', truncatedAlerts: 0,
      alerts: [
        { status: 'firing', labels: { alertname: 'Down', service: 'checkout' }, annotations: {}, startsAt: now, endsAt: '0001-01-01T00:00:00Z' },
        { status: 'firing', labels: { alertname: 'Down', service: 'search' }, annotations: {}, startsAt: now, endsAt: '0001-01-01T00:00:00Z' },
      ],
    });
    expect(fired.json()).toMatchObject({ received: 2, held: 1 });
    m = await scrape(t);
    expect([m.value('changeledger_active_holds'), m.value('changeledger_held_alerts')]).toEqual([1, 1]);

    expect((await pipe(openToken, `/api/changes/${c.id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
    m = await scrape(t);
    expect([m.value('changeledger_active_holds'), m.value('changeledger_held_alerts')]).toEqual([1, 1]);
    expect(m.value('changeledger_changes', { status: 'active' })).toBe(0);

    clock.advance(5 * MIN);
    await drain(t.services.worker);
    m = await scrape(t);
    expect([m.value('changeledger_active_holds'), m.value('changeledger_held_alerts')]).toEqual([0, 0]);
  });

  it('a due job nobody runs ages on the outbox gauge; callbacks show as pending, then retrying after a 503, and failed after a 401', async () => {
    await drain(t.services.worker);
    expect((await scrape(t)).value('changeledger_outbox_oldest_age_seconds')).toBe(0);
    hook.answers.push({ status: 503 });
    await register(openToken, { title: 'Deploy with a callback', components: [{ key: 'svc:search' }], startNow: true, callbackUrl: `${hook.url}/busy` });
    let m = await scrape(t);
    expect(m.value('changeledger_deliveries', { kind: 'callback', state: 'pending' })).toBe(1);
    expect(m.value('changeledger_outbox_oldest_age_seconds')).toBe(0);

    // No worker runs for 7 minutes: the callback's job has waited 420 s.
    clock.advance(7 * MIN);
    m = await scrape(t);
    expect(m.value('changeledger_outbox_oldest_age_seconds')).toBe(420);
    expect(m.value('changeledger_deliveries', { kind: 'callback', state: 'pending' })).toBe(1);

    await drain(t.services.worker);
    m = await scrape(t);
    expect(hook.received.filter((r) => r.path === '/busy')).toHaveLength(1);
    expect(m.value('changeledger_deliveries', { kind: 'callback', state: 'pending' })).toBe(0);
    expect(m.value('changeledger_deliveries', { kind: 'callback', state: 'retrying' })).toBe(1);
    expect(m.value('changeledger_outbox_oldest_age_seconds')).toBe(0);

    hook.answers.push({ status: 401, body: 'bad signature', headers: { 'content-type': 'text/plain' } });
    await register(openToken, { title: 'Deploy with a strict receiver', components: [{ key: 'svc:search' }], startNow: true, callbackUrl: `${hook.url}/strict` });
    await drain(t.services.worker);
    m = await scrape(t);
    expect(m.value('changeledger_deliveries', { kind: 'callback', state: 'failed' })).toBe(1);
    expect(m.value('changeledger_deliveries', { kind: 'callback', state: 'retrying' })).toBe(1);
    expect(m.value('changeledger_deliveries', { kind: 'ticket', state: 'failed' })).toBe(0);
  });

  it('harvest lag: 0 after a successful pull, grows with the clock, and a failed pull does not reset it', async () => {
    const res = await t.main.inject({ method: 'POST', url: '/api/change-sources', headers: open.headers, payload: { kind: 'github', name: 'GitHub main', config: { apiUrl: gh.url, repos: ['acme/checkout'] }, credential: 'ghp_test' } });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().source.id as string;
    // A webhook-only connection is never pulled, so it has no lag to report.
    const pushed = await t.main.inject({ method: 'POST', url: '/api/change-sources', headers: open.headers, payload: { kind: 'webhook', name: 'Generic hook' } });
    expect(pushed.statusCode, pushed.body).toBe(201);
    const labels = { connection: id, name: 'GitHub main', kind: 'github' };
    const duePull = async () => new Date((await engine.db().query<{ run_at: Date }>(`SELECT run_at FROM jobs WHERE kind = $1 AND payload->>'sourceId' = $2 AND status = 'pending' ORDER BY run_at LIMIT 1`, [PULL_JOB, id])).rows[0]!.run_at);

    let m = await scrape(t);
    expect(m.value('changeledger_harvest_lag_seconds', labels)).toBe(0);
    expect(m.value('changeledger_harvest_interval_seconds', labels)).toBe(900);
    expect(m.samples.filter((s) => s.name === 'changeledger_harvest_lag_seconds')).toHaveLength(1);

    gh.repo('acme/checkout', { deployments: [] });
    clock.set(await duePull());
    await drain(t.services.worker);
    m = await scrape(t);
    expect(m.value('changeledger_harvest_lag_seconds', labels)).toBe(0);
    clock.advance(10 * MIN);
    expect((await scrape(t)).value('changeledger_harvest_lag_seconds', labels)).toBe(600);

    gh.fail(401, 'Bad credentials');
    const next = await duePull();
    clock.set(next);
    await drain(t.services.worker);
    const source = (await t.main.inject({ method: 'GET', url: `/api/change-sources/${id}`, headers: open.headers })).json().source as Json;
    expect(source.lastPullError).toMatch(/401|Bad credentials/);
    // One interval since the last success: the failure kept the lag growing.
    expect((await scrape(t)).value('changeledger_harvest_lag_seconds', labels)).toBe(900);
  });

  it('a database that does not answer within the budget: the scrape ends on time without the gauges, and a later scrape reads again', async () => {
    const logs: string[] = [];
    const logger = createLogger({ level: 'info', destination: new Writable({ write: (c: Buffer, _e, cb) => void (logs.push(c.toString('utf8')), cb()) }) });
    const registry = new Registry();
    createOpsMetrics({ registry, db: engine.db(), clock, logger, budgetMs: 300 });
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    // A writer holds the changes table (PostgreSQL: an exclusive lock; PGlite: its one connection) until released.
    let locked = () => {};
    const isLocked = new Promise<void>((r) => (locked = r));
    const writer = engine.db().transaction(async (tx) => {
      await tx.query('LOCK TABLE changes IN ACCESS EXCLUSIVE MODE');
      locked();
      await held;
    });
    await isLocked;
    const started = performance.now();
    const stalled = parseSamples(await registry.metrics());
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(stalled.filter((x) => x.name !== 'changeledger_ops_metrics_read_failures_total')).toEqual([]);
    expect(stalled.find((x) => x.name === 'changeledger_ops_metrics_read_failures_total')?.value).toBe(1);
    expect(logs.join('')).toContain('did not answer within 300 ms');
    release();
    await writer;
    const after = parseSamples(await registry.metrics());
    expect(after.find((x) => x.name === 'changeledger_pending_approvals')?.value).toBe(1);
  });
});

/** A real handle of this engine, opened and closed: every query on it fails as a lost database does. */
async function closedDatabase(engine: TestEngine): Promise<{ db: Database; cleanup(): void }> {
  if (engine.name === 'postgres') {
    const db = await openDatabase({ engine: 'postgres', url: engine.url(), poolSize: 1 });
    await db.close();
    return { db, cleanup: () => undefined };
  }
  const dir = mkdtempSync(join(tmpdir(), 'changeledger-closed-'));
  cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  const db = await openDatabase({ engine: 'pglite', dataDir: dir });
  await db.close();
  return { db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describeEachEngine('operations gauges when the database cannot be read', (engine) => {
  let t: TestApp;
  let closed: Awaited<ReturnType<typeof closedDatabase>>;
  beforeAll(async () => {
    closed = await closedDatabase(engine);
    t = await testApp(closed.db);
  });
  afterAll(async () => {
    await t?.close();
    closed?.cleanup();
  });

  it('/metrics still answers 200 with the HTTP and process metrics; the gauges keep no sample, and each failed scrape is counted and logged once', async () => {
    const ops = ['changeledger_changes', 'changeledger_pending_approvals', 'changeledger_active_holds', 'changeledger_held_alerts', 'changeledger_deliveries', 'changeledger_outbox_oldest_age_seconds', 'changeledger_harvest_lag_seconds', 'changeledger_ledger_events'];
    const first = await scrape(t);
    expect(first.samples.filter((s) => ops.includes(s.name))).toEqual([]);
    // Declared all the same, so a dashboard shows "no data" rather than a false 0.
    expect(first.body).toContain('# TYPE changeledger_outbox_oldest_age_seconds gauge');
    expect(first.value('changeledger_ops_metrics_read_failures_total')).toBe(1);
    expect(first.samples.some((s) => s.name === 'changeledger_process_cpu_seconds_total')).toBe(true);

    const second = await scrape(t);
    expect(second.value('changeledger_ops_metrics_read_failures_total')).toBe(2);
    // The first scrape's request is counted in the HTTP metrics the second one reads.
    expect(second.value('changeledger_http_requests_total', { listener: 'main', method: 'GET', route: '/metrics', status: '200' })).toBe(1);
    const logged = t.logs.filter((l) => l.includes('ops metrics: the database could not be read'));
    expect(logged).toHaveLength(2);
    expect(JSON.parse(logged[0]!)).toMatchObject({ level: 40, err: expect.any(String) });
  });
});
