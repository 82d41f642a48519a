/**
 * The scheduled pull of GitLab's REST API (v4) for each configured project (an id or a
 * `group/project` path), with `PRIVATE-TOKEN`:
 * - GET /projects/:id → path_with_namespace (deployments do not carry it); https://docs.gitlab.com/api/projects/#get-a-single-project
 * - GET /projects/:id/deployments?updated_after=&updated_before=&order_by=updated_at&sort=desc;
 *   https://docs.gitlab.com/api/deployments/#list-project-deployments
 * - GET /projects/:id/merge_requests?state=merged&updated_after=&order_by=updated_at&sort=desc, kept
 *   when merged_at falls in the window; https://docs.gitlab.com/api/merge_requests/#list-project-merge-requests
 * Pages follow X-Next-Page (else the Link header); https://docs.gitlab.com/api/rest/#pagination
 * Events have the webhook's shape and keys, so a pulled deployment and its hook are one row.
 */
import type { AdapterContext, ObservedEvent, PullAdapter, PullDeps, PullWindow } from '../observed-types.js';
import { Fields, type Json } from './git-common.js';
import { GITLAB_FINAL_STATUSES, gitlabDeploymentEvent, gitlabMergeEvent } from './gitlab-events.js';
import { apiBase, getJson, getList, ms, nextLink, RawBudget } from './git-rest.js';

export const GITLAB_API_DEFAULT = 'https://gitlab.com/api/v4';
type Ctx = AdapterContext & { credential: string | null };

export function gitlabProjects(config: Record<string, unknown>): string[] {
  const projects = config.projects;
  if (!Array.isArray(projects) || projects.length === 0) throw new Error('the connection lists no projects to read (config.projects, e.g. ["acme/checkout"] or [42])');
  return projects.map((p) => {
    if (typeof p === 'number' && Number.isInteger(p) && p > 0) return String(p);
    if (typeof p === 'string' && /^(\d+|[\w.-]+(\/[\w.-]+)+)$/.test(p)) return p;
    throw new Error(`"${String(p)}" is not a GitLab project id or group/project path`);
  });
}

/** The next page: X-Next-Page (empty on the last page), else a Link rel="next" on the API's own origin. */
function nextPage(url: string, headers: import('node:http').IncomingHttpHeaders, api: string): string | null {
  const n = headers['x-next-page'];
  const next = Array.isArray(n) ? n[0] : n;
  if (next !== undefined) {
    if (!/^\d+$/.test(next.trim())) return null;
    const u = new URL(url);
    u.searchParams.set('page', next.trim());
    return u.toString();
  }
  return nextLink(headers, api);
}

async function pullProject(deps: PullDeps, api: string, headers: Record<string, string>, project: string, w: PullWindow, budget: RawBudget, now: Date, out: { events: ObservedEvent[]; ignored: number }) {
  const f = new Fields(`GitLab's answer for ${project}`);
  const p = (await getJson(deps, 'GitLab', `${api}/projects/${encodeURIComponent(project)}`, headers)).body;
  if (!p || typeof p !== 'object') throw new Error(`GitLab answered the project ${project} with something that is not a project`);
  const info = p as Json;
  const id = f.id(info, 'id', 'project.id');
  const repo = f.str(info, 'path_with_namespace', 'project.path_with_namespace');
  const since = encodeURIComponent(w.since.toISOString());
  const until = encodeURIComponent(w.until.toISOString());
  const inWindow = (t: number) => t >= w.since.getTime() && t <= w.until.getTime();

  let url: string | null = `${api}/projects/${id}/deployments?updated_after=${since}&updated_before=${until}&order_by=updated_at&sort=desc&per_page=100`;
  deployments: while (url && !budget.spent) {
    const page = await getList(deps, 'GitLab', url, headers);
    for (const d of page.items) {
      if (!budget.take()) break deployments;
      const status = typeof d.status === 'string' ? d.status : '';
      if (!GITLAB_FINAL_STATUSES.has(status)) {
        out.ignored += 1;
        continue;
      }
      const job = f.optObj(d, 'deployable', 'deployment.deployable');
      const commit = job ? f.optObj(job, 'commit', 'deployment.deployable.commit') : null;
      const env = f.optObj(d, 'environment', 'deployment.environment');
      out.events.push(gitlabDeploymentEvent({
        id: f.id(d, 'id', 'deployment.id'), status, environment: env && typeof env.name === 'string' ? env.name : '', ref: f.optStr(d, 'ref', 'deployment.ref') ?? '',
        sha: f.optStr(d, 'sha', 'deployment.sha') ?? '', commitTitle: commit && typeof commit.title === 'string' ? commit.title : null,
        commitMessage: commit && typeof commit.message === 'string' ? commit.message : null, user: f.optObj(d, 'user', 'deployment.user'),
        at: (job && f.time(job, 'finished_at', 'deployment.deployable.finished_at')) ?? f.time(d, 'updated_at', 'deployment.updated_at') ?? now.toISOString(),
        link: job && typeof job.web_url === 'string' ? job.web_url : null, repo,
      }));
    }
    url = nextPage(url, page.headers, api);
  }

  // No updated_before: a merge inside the window may have been commented on since; merged_at decides.
  url = `${api}/projects/${id}/merge_requests?state=merged&updated_after=${since}&order_by=updated_at&sort=desc&per_page=100`;
  merges: while (url && !budget.spent) {
    const page = await getList(deps, 'GitLab', url, headers);
    for (const m of page.items) {
      if (!budget.take()) break merges;
      const mergedAt = f.time(m, 'merged_at', 'merge_request.merged_at');
      if (!mergedAt || !inWindow(ms(mergedAt))) continue;
      out.events.push(gitlabMergeEvent({
        id: f.id(m, 'id', 'merge_request.id'), iid: f.id(m, 'iid', 'merge_request.iid'), title: f.optStr(m, 'title', 'merge_request.title') ?? '',
        description: f.optStr(m, 'description', 'merge_request.description'), target: f.optStr(m, 'target_branch', 'merge_request.target_branch') ?? '',
        source: f.optStr(m, 'source_branch', 'merge_request.source_branch') ?? '',
        mergeSha: f.optStr(m, 'merge_commit_sha', 'merge_request.merge_commit_sha') ?? f.optStr(m, 'squash_commit_sha', 'merge_request.squash_commit_sha'),
        url: f.optStr(m, 'web_url', 'merge_request.web_url'), at: mergedAt,
        // merge_user replaced merged_by (deprecated in GitLab 14.7); the author is the last resort.
        user: f.optObj(m, 'merge_user', 'merge_request.merge_user') ?? f.optObj(m, 'merged_by', 'merge_request.merged_by') ?? f.optObj(m, 'author', 'merge_request.author'),
        repo, lastCommitMessage: null,
      }));
    }
    url = nextPage(url, page.headers, api);
  }
}

async function pull(deps: PullDeps, ctx: Ctx, w: PullWindow) {
  const api = apiBase(ctx.config.apiUrl, GITLAB_API_DEFAULT);
  const projects = gitlabProjects(ctx.config);
  const headers: Record<string, string> = ctx.credential ? { 'private-token': ctx.credential } : {};
  const budget = new RawBudget(w.maxRaw);
  const out = { events: [] as ObservedEvent[], ignored: 0 };
  for (const project of projects) {
    if (budget.spent) break;
    try {
      await pullProject(deps, api, headers, project, w, budget, ctx.now, out);
    } catch (err) {
      throw new Error(`${project}: ${(err as Error).message}`, { cause: err });
    }
  }
  return { events: out.events, ignored: out.ignored, noise: 0, rejected: [] };
}

export const gitlabPull: PullAdapter = { kind: 'gitlab', pull };
