import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { githubDeployment, startGithubApi, type GithubApi } from '../../../test/support/github-api.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import { listAuditEvents } from '../ledger/index.js';
import { LIMITS } from './observed-types.js';
import { PULL_JOB } from './pull-scheduler.js';
import { nextPullAt } from './pull-window.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const REPO = 'acme/checkout';
const asked = (api: GithubApi, repo: string) => api.requests.filter((r) => r.path.startsWith(`/repos/${repo}/`)).length;
const MIN = 60_000;

/**
 * The scheduled and manual pulls end to end: a GitHub connection read through the real pull
 * adapter from a loopback server replaying GitHub's documented REST answers (GitHub itself cannot
 * be reached from here), run by the durable job worker on a settable clock.
 */
describeEachEngine('scheduled and manual pulls', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let gh: GithubApi;
  const clock = new SettableClock(new Date('2026-05-06T08:00:00Z'));
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => t.main.inject({ method, url, headers: owner.headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const pending = async (sourceId: string) => (await engine.db().query<{ run_at: Date }>(
    `SELECT run_at FROM jobs WHERE kind = $1 AND payload->>'sourceId' = $2 AND status = 'pending' ORDER BY run_at`, [PULL_JOB, sourceId])).rows.map((r) => new Date(r.run_at).toISOString());
  const rows = async (sourceId: string) => (await engine.db().query<{ event_id: string }>('SELECT event_id FROM observed_changes WHERE source_id = $1 ORDER BY event_id', [sourceId])).rows.map((r) => r.event_id);
  const source = async (id: string) => (await api('GET', `/api/change-sources/${id}`)).json().source as Json;
  /** Moves the clock to the connection's next due pull and lets the worker run what is due. */
  const runDue = async (sourceId: string) => {
    const [due] = await pending(sourceId);
    if (due) clock.set(new Date(due));
    await t.services.worker.runOnce();
    return due;
  };
  const deployment = (id: number, minutesAgo: number, repo = REPO) => githubDeployment(repo, { id, createdAt: new Date(clock.now().getTime() - minutesAgo * MIN).toISOString() });
  /** Each test's connection reads its own repository, so the pulls of the others' (due at the same clock) never touch its data. */
  const connect = async (name: string, extra: Json = {}, repo = REPO) => {
    const res = await api('POST', '/api/change-sources', { kind: 'github', name, config: { apiUrl: gh.url, repos: [repo] }, credential: 'ghp_test', ...extra });
    expect(res.statusCode).toBe(201);
    return res.json().source as Json;
  };

  beforeAll(async () => {
    gh = await startGithubApi({ token: 'ghp_test' });
    t = await testApp(engine.db(), { clock });
    owner = await signedInOwner(t, 'Pulls');
  });
  afterAll(async () => {
    await t.close();
    await gh.close();
  });

  it('pulls on schedule: the first pull reads the last interval, the next from the marker minus 20 minutes; the marker moves with the rows', async () => {
    const s = await connect('Scheduled');
    const [first] = await pending(s.id);
    expect(first).toBe(nextPullAt(s.id, clock.now(), LIMITS.defaultIntervalSeconds).toISOString());
    clock.set(new Date(first!));
    // 10 minutes old: inside the first window (the last 15 minutes); 25 minutes old: before it.
    gh.repo(REPO, { deployments: [deployment(1, 10), deployment(2, 25)] });
    await runDue(s.id);
    expect(await rows(s.id)).toEqual(['deployment:1']);
    let after = await source(s.id);
    expect(after.markers.scheduled.position).toBe(first);
    expect(after).toMatchObject({ lastPullAt: first, lastPullError: null, counts: { recorded: 1 } });
    const [second] = await pending(s.id);
    expect(new Date(second!).getTime() - new Date(first!).getTime()).toBe(LIMITS.defaultIntervalSeconds * 1000);
    // A deployment GitHub lists late, 19 minutes before the marker: the overlap reads it; 21 minutes before: not.
    const marker = new Date(first!).getTime();
    gh.repo(REPO, { deployments: [deployment(1, 10), deployment(2, 25), githubDeployment(REPO, { id: 3, createdAt: new Date(marker - 19 * MIN).toISOString() }), githubDeployment(REPO, { id: 4, createdAt: new Date(marker - 21 * MIN).toISOString() })] });
    await runDue(s.id);
    expect(await rows(s.id)).toEqual(['deployment:1', 'deployment:3']);
    after = await source(s.id);
    expect(after.markers.scheduled.position).toBe(second);
    // Deployment 1 was read again inside the overlap: a duplicate, never a second row.
    expect(after.counts).toMatchObject({ recorded: 2, duplicate: 1 });
    const received = (await listAuditEvents(engine.db(), owner.org.id, { action: 'change_source.received' }, 50)).items.filter((e) => e.target?.id === s.id || JSON.stringify(e.data).includes(s.id));
    expect(received.length).toBeGreaterThanOrEqual(1);
  });

  it('keeps a failure in words, leaves the marker where it was and tries again at the next tick', async () => {
    const s = await connect('Failing', {}, 'acme/failing');
    gh.repo('acme/failing', { deployments: [] });
    gh.fail(401, 'Bad credentials');
    const due = await runDue(s.id);
    let after = await source(s.id);
    expect(after.lastPullError).toMatch(/401|Bad credentials/);
    expect(after.lastPullAt).toBe(due);
    expect(after.markers.scheduled).toBeNull();
    expect(await pending(s.id)).toHaveLength(1);
    gh.fail(null);
    await runDue(s.id);
    after = await source(s.id);
    expect(after.lastPullError).toBeNull();
    expect(after.markers.scheduled).not.toBeNull();
  });

  it('a connection that opts out is not pulled, and nothing is scheduled for it', async () => {
    const s = await connect('Opted out', { pullEnabled: false });
    expect(await pending(s.id)).toEqual([]);
    expect((await source(s.id)).notPulledBecause).toBe('it opted out of the scheduled pull');
    // Opting out while a pull is pending: the pending one does nothing and schedules no other.
    const t2 = await connect('Opts out later', {}, 'acme/opt-out');
    expect(await pending(t2.id)).toHaveLength(1);
    const [due] = await pending(t2.id);
    expect((await api('PUT', `/api/change-sources/${t2.id}`, { pullEnabled: false })).statusCode).toBe(200);
    gh.repo('acme/opt-out', { deployments: [deployment(50, 1, 'acme/opt-out')] });
    clock.set(new Date(due!));
    await t.services.worker.runOnce();
    expect(asked(gh, 'acme/opt-out')).toBe(0);
    expect(await rows(t2.id)).toEqual([]);
    expect(await pending(t2.id)).toEqual([]);
    expect((await source(t2.id)).markers.scheduled).toBeNull();
  });

  it('one connection has one pending pull however often it is saved; a deleted one is never pulled again', async () => {
    const s = await connect('Saved often', {}, 'acme/saved');
    for (const name of ['Saved often 2', 'Saved often 3']) expect((await api('PUT', `/api/change-sources/${s.id}`, { name })).statusCode).toBe(200);
    expect(await pending(s.id)).toHaveLength(1);
    const [due] = await pending(s.id);
    expect((await t.main.inject({ method: 'DELETE', url: `/api/change-sources/${s.id}`, headers: owner.headers })).statusCode).toBe(204);
    gh.repo('acme/saved', { deployments: [deployment(60, 1, 'acme/saved')] });
    clock.set(new Date(due!));
    await t.services.worker.runOnce();
    expect(asked(gh, 'acme/saved')).toBe(0);
    expect(await pending(s.id)).toEqual([]);
  });

  it('a manual pull reads the last N minutes under its own marker and leaves the scheduled one alone', async () => {
    const s = await connect('Manual', {}, 'acme/manual');
    // The scheduled pull runs once, so its marker exists.
    gh.repo('acme/manual', { deployments: [] });
    await runDue(s.id);
    const scheduled = (await source(s.id)).markers.scheduled;
    expect(scheduled).not.toBeNull();
    clock.set(new Date(clock.now().getTime() + 5 * MIN));
    // 3 hours old: far before the scheduled window; the manual "last 4 hours" reads it.
    gh.repo('acme/manual', { deployments: [deployment(70, 180, 'acme/manual'), deployment(71, 300, 'acme/manual')] });
    const res = await api('POST', `/api/change-sources/${s.id}/pull`, { minutes: 240 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, counts: { recorded: 1 } });
    expect(res.json().message).toMatch(/^Read the last 240 minutes: 1 recorded/);
    expect(await rows(s.id)).toEqual(['deployment:70']);
    const after = await source(s.id);
    expect(after.markers.manual.position).toBe(clock.now().toISOString());
    expect(after.markers.scheduled).toEqual(scheduled);
    const [ev] = (await listAuditEvents(engine.db(), owner.org.id, { action: 'change_source.pulled' }, 10)).items.filter((e) => e.target?.id === s.id);
    expect(ev!.data).toMatchObject({ minutes: 240, ok: true, counts: { recorded: 1 } });
  });

  it('a manual pull that fails answers why in words, records nothing and is audited', async () => {
    const s = await connect('Manual failing');
    gh.fail(401, 'Bad credentials');
    const res = await api('POST', `/api/change-sources/${s.id}/pull`, { minutes: 30 });
    gh.fail(null);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: false, counts: null });
    expect(res.json().message).toMatch(/^The pull failed: .*(401|Bad credentials)/);
    expect((await source(s.id)).markers.manual).toBeNull();
    const [ev] = (await listAuditEvents(engine.db(), owner.org.id, { action: 'change_source.pulled' }, 10)).items.filter((e) => e.target?.id === s.id);
    expect(ev!.data).toMatchObject({ ok: false });
  });

  it('Test on a GitHub connection reads the API and says what it found, recording nothing', async () => {
    const s = await connect('Tested', {}, 'acme/tested');
    gh.repo('acme/tested', { deployments: [deployment(90, 60, 'acme/tested')] });
    const res = await api('POST', `/api/change-sources/${s.id}/test`);
    expect(res.json()).toMatchObject({ ok: true, curl: null });
    expect(res.json().message).toMatch(/The API answered: .*1 change to record.*Nothing was recorded/);
    expect(await rows(s.id)).toEqual([]);
    gh.fail(401, 'Bad credentials');
    const bad = await api('POST', `/api/change-sources/${s.id}/test`);
    gh.fail(null);
    expect(bad.json()).toMatchObject({ ok: false });
    expect(bad.json().message).toMatch(/^The pull failed: /);
  });

  it('interval 0 turns scheduled pulls off: a pending one does nothing and no other is scheduled; back on, each connection is scheduled again', async () => {
    const s = await connect('Interval', {}, 'acme/interval');
    const [due] = await pending(s.id);
    expect(due).toBeDefined();
    expect((await api('PUT', '/api/observed-settings', { pullIntervalSeconds: 0 })).statusCode).toBe(200);
    expect((await source(s.id)).notPulledBecause).toMatch(/interval 0/);
    gh.repo('acme/interval', { deployments: [deployment(80, 1, 'acme/interval')] });
    clock.set(new Date(due!));
    await t.services.worker.runOnce();
    expect(asked(gh, 'acme/interval')).toBe(0);
    expect(await rows(s.id)).toEqual([]);
    expect(await pending(s.id)).toEqual([]);
    const created = await connect('Made while off');
    expect(await pending(created.id)).toEqual([]);
    expect((await api('PUT', '/api/observed-settings', { pullIntervalSeconds: 600 })).statusCode).toBe(200);
    expect(await pending(s.id)).toEqual([nextPullAt(s.id, clock.now(), 600).toISOString()]);
    expect(await pending(created.id)).toHaveLength(1);
  });
});

describe('the pull job', () => {
  it('holds its claim longer than a slow pull', async () => {
    const { pullJobHandlers, PULL_LEASE_MS } = await import('./pull-scheduler.js');
    const handlers = pullJobHandlers({} as never);
    expect(handlers[PULL_JOB]!.leaseMs).toBe(PULL_LEASE_MS);
    expect(PULL_LEASE_MS).toBeGreaterThanOrEqual(10 * 60_000);
  });
});
