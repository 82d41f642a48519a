import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gitlabDeployment, gitlabMergeRequest, gitlabUser, startGitlabApi, type GitlabApi } from '../../../../test/support/gitlab-api.js';
import { createOutboundClient } from '../../../platform/net/outbound.js';
import type { AdapterContext, PullDeps } from '../observed-types.js';
import { gitlabIntake, gitlabPull } from './gitlab.js';

const deps: PullDeps = { outbound: createOutboundClient({ testOnlyAllowLoopback: true }), allowLoopback: true };
const since = new Date('2026-01-02T02:00:00Z');
const until = new Date('2026-01-02T03:00:00Z');
const window = { since, until, maxRaw: 1500 };
let api: GitlabApi;
const ctx = (o: Partial<AdapterContext & { credential: string | null }> = {}) => ({ sourceId: 'src_1', config: { apiUrl: api.url, projects: ['acme/checkout'] }, ciNamespaces: [], now: until, credential: 'glpat-test', ...o });

beforeAll(async () => {
  api = await startGitlabApi({ token: 'glpat-test' });
});
afterAll(() => api.close());
beforeEach(() => {
  api.requests.length = 0;
  api.fail(null);
});

describe('GitLab REST pull (a loopback server replaying the documented answers)', () => {
  it('reads finished deployments and merge requests merged inside the window, by project path', async () => {
    api.project({
      id: 42, path: 'acme/checkout',
      deployments: [
        gitlabDeployment({ id: 501, status: 'success', updatedAt: '2026-01-02T02:30:00Z', message: 'Ship it\n\nChange-Id: CHG-AAAA0001' }),
        gitlabDeployment({ id: 502, status: 'failed', updatedAt: '2026-01-02T02:40:00Z', user: gitlabUser('project_42_bot_ab12', 9) }),
        gitlabDeployment({ id: 503, status: 'running', updatedAt: '2026-01-02T02:50:00Z' }),
        gitlabDeployment({ id: 400, status: 'success', updatedAt: '2025-12-01T00:00:00Z' }),
      ],
      mergeRequests: [
        gitlabMergeRequest({ id: 9001, iid: 5, projectId: 42, title: 'Merged now', description: 'Change-Id: CHG-BBBB0002', updatedAt: '2026-01-02T02:45:00Z', mergeUser: gitlabUser('alice', 5) }),
        // Merged long ago, commented on inside the window: not a change now.
        gitlabMergeRequest({ id: 9000, iid: 4, projectId: 42, title: 'Old merge', updatedAt: '2026-01-02T02:20:00Z', mergedAt: '2025-11-01T00:00:00Z' }),
        gitlabMergeRequest({ id: 9002, iid: 6, projectId: 42, title: 'Still open', state: 'opened', updatedAt: '2026-01-02T02:21:00Z' }),
      ],
    });
    const got = await gitlabPull.pull(deps, ctx(), window);
    expect(got.events.map((e) => [e.eventId, e.kind, e.outcome, e.changeRef, e.principal.kind])).toEqual([
      ['deployment:502', 'deploy', 'failed', null, 'service'],
      ['deployment:501', 'deploy', 'succeeded', 'CHG-AAAA0001', 'person'],
      ['merge_request:9001', 'pr_merged', null, 'CHG-BBBB0002', 'person'],
    ]);
    expect(got.events[2]).toMatchObject({ repo: 'acme/checkout', principal: { name: 'alice' }, title: '!5 Merged now merged into main', occurredAt: '2026-01-02T02:45:00.000Z' });
    expect(got.ignored).toBe(1); // the running deployment
    expect(api.requests.every((r) => r.token === 'glpat-test')).toBe(true);
    expect(api.requests[0]!.path).toBe('/api/v4/projects/acme%2Fcheckout');
    expect(api.requests.find((r) => r.path.endsWith('/deployments'))!.query).toMatchObject({ updated_after: since.toISOString(), updated_before: until.toISOString(), order_by: 'updated_at', sort: 'desc', per_page: '100' });
    expect(api.requests.find((r) => r.path.endsWith('/merge_requests'))!.query).toMatchObject({ state: 'merged', updated_after: since.toISOString() });
  });

  it('gives a pulled deployment the hook\'s key, title and text, so the two are one row', async () => {
    const sha = '279484c09fbe69ededfced8c1bb6e6d24616b468';
    api.project({ id: 42, path: 'acme/checkout', deployments: [gitlabDeployment({ id: 88, status: 'success', updatedAt: '2026-01-02T02:30:00Z', sha, message: 'Add new file' })], mergeRequests: [] });
    const pulled = (await gitlabPull.pull(deps, ctx({ config: { apiUrl: api.url, projects: [42] } }), window)).events[0]!;
    const hook = gitlabIntake.parse({ headers: {}, rawBody: Buffer.from('{}'), body: {
      object_kind: 'deployment', status: 'success', status_changed_at: '2026-01-02 02:30:00 UTC', deployment_id: 88, deployable_url: 'x', environment: 'production',
      project: { id: 42, path_with_namespace: 'acme/checkout' }, short_sha: sha.slice(0, 8), user: gitlabUser('root'), commit_url: `https://gitlab.example.com/acme/checkout/-/commit/${sha}`, commit_title: 'Add new file', ref: 'main',
    } }, { sourceId: 's', config: {}, ciNamespaces: [], now: until }).events[0]!;
    expect([pulled.eventId, pulled.title, pulled.diff, pulled.occurredAt, pulled.principal]).toEqual([hook.eventId, hook.title, hook.diff, hook.occurredAt, hook.principal]);
  });

  it('follows X-Next-Page through every page and stops at window.maxRaw raw items', async () => {
    const deployments = Array.from({ length: 230 }, (_, i) => gitlabDeployment({ id: 1000 + i, status: 'success', updatedAt: new Date(since.getTime() + (i + 1) * 10_000).toISOString() }));
    api.project({ id: 42, path: 'acme/checkout', deployments, mergeRequests: [] });
    expect((await gitlabPull.pull(deps, ctx(), window)).events).toHaveLength(230);
    expect(api.requests.filter((r) => r.path.endsWith('/deployments')).map((r) => r.query.page ?? '1')).toEqual(['1', '2', '3']);
    api.requests.length = 0;
    expect((await gitlabPull.pull(deps, ctx(), { ...window, maxRaw: 120 })).events).toHaveLength(120);
    expect(api.requests.filter((r) => r.path.endsWith('/deployments'))).toHaveLength(2);
    expect(api.requests.filter((r) => r.path.endsWith('/merge_requests'))).toHaveLength(0);
  });

  it('says in words what failed: a refused token (401), an unknown project (404), a bad project list', async () => {
    api.project({ id: 42, path: 'acme/checkout', deployments: [], mergeRequests: [] });
    await expect(gitlabPull.pull(deps, ctx({ credential: 'wrong' }), window)).rejects.toThrow('acme/checkout: GitLab answered 401 (401 Unauthorized) reading /api/v4/projects/acme%2Fcheckout: check the connection’s token');
    await expect(gitlabPull.pull(deps, ctx({ config: { apiUrl: api.url, projects: ['acme/none'] } }), window)).rejects.toThrow(/acme\/none: GitLab answered 404 \(404 Project Not Found\).*check the project/);
    await expect(gitlabPull.pull(deps, ctx({ config: { apiUrl: api.url, projects: ['no spaces allowed'] } }), window)).rejects.toThrow(/is not a GitLab project id or group\/project path/);
    await expect(gitlabPull.pull(deps, ctx({ config: { apiUrl: api.url } }), window)).rejects.toThrow(/lists no projects/);
  });
});
