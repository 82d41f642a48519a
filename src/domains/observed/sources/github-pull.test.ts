import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { githubDeployment, githubDeploymentStatus, githubPullRequest, githubUser, startGithubApi, type GithubApi } from '../../../../test/support/github-api.js';
import { createOutboundClient } from '../../../platform/net/outbound.js';
import type { AdapterContext, PullDeps } from '../observed-types.js';
import { githubIntake, githubPull } from './github.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'github');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`github pull: SKIPPING the replay of the shared real payloads: ${SHARED} is absent`);

const deps: PullDeps = { outbound: createOutboundClient({ testOnlyAllowLoopback: true }), allowLoopback: true };
const REPO = 'acme/checkout';
const since = new Date('2026-01-02T02:00:00Z');
const until = new Date('2026-01-02T03:00:00Z');
const window = { since, until, maxRaw: 1500 };
let api: GithubApi;
const ctx = (o: Partial<AdapterContext & { credential: string | null }> = {}) => ({ sourceId: 'src_1', config: { apiUrl: api.url, repos: [REPO] }, ciNamespaces: [], now: until, credential: 'ghp_test', ...o });

beforeAll(async () => {
  api = await startGithubApi({ token: 'ghp_test' });
});
afterAll(() => api.close());
beforeEach(() => {
  api.requests.length = 0;
  api.fail(null);
});

describe('GitHub REST pull (a loopback server replaying the documented answers)', () => {
  it('reads deployments and their final status, and merged pull requests, inside the window only', async () => {
    api.repo(REPO, {
      deployments: [
        githubDeployment(REPO, { id: 10, createdAt: '2026-01-02T02:30:00Z', payload: { changeId: 'CHG-AAAA0001' } }),
        githubDeployment(REPO, { id: 11, createdAt: '2026-01-02T02:40:00Z', creator: githubUser('deployer[bot]', 5) }),
        githubDeployment(REPO, { id: 3, createdAt: '2025-12-01T00:00:00Z' }),
      ],
      statuses: {
        10: [githubDeploymentStatus(REPO, 10, { id: 100, state: 'in_progress', createdAt: '2026-01-02T02:31:00Z' }), githubDeploymentStatus(REPO, 10, { id: 101, state: 'success', createdAt: '2026-01-02T02:35:00Z' })],
        11: [githubDeploymentStatus(REPO, 11, { id: 110, state: 'in_progress', createdAt: '2026-01-02T02:41:00Z' })],
      },
      pulls: [
        githubPullRequest(REPO, { id: 900, number: 7, title: 'Merged one', body: 'Change-Id: CHG-BBBB0002', updatedAt: '2026-01-02T02:50:00Z', mergedAt: '2026-01-02T02:50:00Z' }),
        githubPullRequest(REPO, { id: 901, number: 8, title: 'Closed, not merged', updatedAt: '2026-01-02T02:45:00Z' }),
        githubPullRequest(REPO, { id: 902, number: 9, title: 'Old', updatedAt: '2025-12-20T00:00:00Z', mergedAt: '2025-12-20T00:00:00Z' }),
      ],
    });
    const got = await githubPull.pull(deps, ctx(), window);
    // Newest deployment first, as GitHub lists them; the old deployment 3 and PR 9 are outside the window.
    expect(got.events.map((e) => [e.eventId, e.kind, e.outcome, e.changeRef])).toEqual([
      ['deployment:11', 'deploy', null, null],
      ['deployment:10', 'deploy', null, 'CHG-AAAA0001'],
      ['deployment_status:101', 'deploy', 'succeeded', 'CHG-AAAA0001'],
      ['pull_request:900', 'pr_merged', null, 'CHG-BBBB0002'],
    ]);
    expect(got.events.find((e) => e.eventId === 'deployment:11')!.principal).toMatchObject({ kind: 'service', name: 'deployer[bot]' });
    // merged_by is read from the single pull request: the list leaves it out.
    expect(got.events.find((e) => e.kind === 'pr_merged')!.principal).toMatchObject({ name: 'hubot' });
    expect(got.ignored).toBe(2); // deployment 11 still in progress, PR 8 closed unmerged
    expect(api.requests.every((r) => r.authorization === 'Bearer ghp_test')).toBe(true);
    expect(api.requests.map((r) => r.path)).toContain(`/repos/${REPO}/pulls/7`);
    expect(api.requests.find((r) => r.path.endsWith('/pulls'))!.query).toMatchObject({ state: 'closed', sort: 'updated', direction: 'desc', per_page: '100' });
  });

  it('follows the Link header to the next pages and stops at window.maxRaw raw items', async () => {
    const deployments = Array.from({ length: 230 }, (_, i) => githubDeployment(REPO, { id: 1000 + i, createdAt: new Date(since.getTime() + (i + 1) * 10_000).toISOString() }));
    api.repo(REPO, { deployments, statuses: {}, pulls: [] });
    const all = await githubPull.pull(deps, ctx(), window);
    expect(all.events.filter((e) => e.eventId.startsWith('deployment:'))).toHaveLength(230);
    expect(api.requests.filter((r) => r.path === `/repos/${REPO}/deployments`).map((r) => r.query.page ?? '1')).toEqual(['1', '2', '3']);

    api.requests.length = 0;
    // Each deployment costs two raw items (itself and its latest status).
    const capped = await githubPull.pull(deps, ctx(), { ...window, maxRaw: 50 });
    expect(capped.events).toHaveLength(25);
    expect(api.requests.filter((r) => r.path === `/repos/${REPO}/deployments`)).toHaveLength(1);
  });

  it('says in words what failed: a refused token (401), a missing repository (404), no repositories configured', async () => {
    api.repo(REPO, { deployments: [] });
    await expect(githubPull.pull(deps, ctx({ credential: 'wrong' }), window)).rejects.toThrow(`${REPO}: GitHub answered 401 (Bad credentials) reading /repos/${REPO}/deployments: check the connection’s token`);
    await expect(githubPull.pull(deps, ctx({ config: { apiUrl: api.url, repos: ['acme/nope'] } }), window)).rejects.toThrow(/acme\/nope: GitHub answered 404 \(Not Found\).*check the repository name/);
    await expect(githubPull.pull(deps, ctx({ config: { apiUrl: api.url, repos: [] } }), window)).rejects.toThrow(/lists no repositories/);
    api.fail(503, 'Service Unavailable');
    await expect(githubPull.pull(deps, ctx(), window)).rejects.toThrow(/GitHub answered 503 \(Service Unavailable\)/);
  });

  it('refuses an address the SSRF guard does not open (loopback without the test switch)', async () => {
    const guarded: PullDeps = { outbound: createOutboundClient(), allowLoopback: false };
    api.repo(REPO, { deployments: [] });
    await expect(githubPull.pull(guarded, ctx(), window)).rejects.toThrow(/could not reach GitHub at 127\.0\.0\.1:\d+: refused: 127\.0\.0\.1 is a loopback address/);
    expect(api.requests).toHaveLength(0);
  });

  it.skipIf(!hasShared)('gives a replayed real deployment and status the webhook\'s keys and text, so the two are one row', async () => {
    const created = JSON.parse(readFileSync(join(SHARED, 'deployment-created.json'), 'utf8')) as { deployment: Record<string, unknown>; repository: { full_name: string } };
    const done = JSON.parse(readFileSync(join(SHARED, 'deployment_status-success.json'), 'utf8')) as { deployment_status: Record<string, unknown> };
    const repo = created.repository.full_name;
    api.repo(repo, { deployments: [created.deployment], statuses: { [String(created.deployment.id)]: [done.deployment_status] }, pulls: [] });
    const at = new Date(String(created.deployment.created_at));
    const pulled = await githubPull.pull(deps, ctx({ config: { apiUrl: api.url, repos: [repo] } }), { since: new Date(at.getTime() - 60_000), until: new Date(at.getTime() + 3_600_000), maxRaw: 100 });
    const hook = (event: string, file: string) => githubIntake.parse({ headers: { 'x-github-event': event, 'x-github-delivery': 'x' }, rawBody: Buffer.from('{}'), body: JSON.parse(readFileSync(join(SHARED, file), 'utf8')) }, { sourceId: 's', config: {}, ciNamespaces: [], now: until }).events[0]!;
    const fromHooks = [hook('deployment', 'deployment-created.json'), hook('deployment_status', 'deployment_status-success.json')];
    expect(pulled.events.map((e) => [e.eventId, e.title, e.diff, e.occurredAt])).toEqual(fromHooks.map((e) => [e.eventId, e.title, e.diff, e.occurredAt]));
  });
});
