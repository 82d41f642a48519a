/**
 * The scheduled pull of GitHub's REST API for each configured repository:
 * - GET /repos/{owner}/{repo}/deployments (newest first) and, for each deployment the window can
 *   have touched, GET …/deployments/{id}/statuses?per_page=1 (the latest status, newest first);
 *   https://docs.github.com/en/rest/deployments/deployments#list-deployments and
 *   https://docs.github.com/en/rest/deployments/statuses#list-deployment-statuses
 * - GET /repos/{owner}/{repo}/pulls?state=closed&sort=updated&direction=desc, and for each PR merged
 *   in the window GET /pulls/{number} for `merged_by` (the list carries only the author);
 *   https://docs.github.com/en/rest/pulls/pulls
 * Pages follow the Link header (https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api).
 * Events have the webhook's shape and keys, so a pulled deployment and its webhook are one row.
 */
import type { AdapterContext, ObservedEvent, PullAdapter, PullDeps, PullWindow } from '../observed-types.js';
import { Fields, type Json } from './git-common.js';
import { GITHUB_FINAL_STATES, githubDeploymentEvent, githubMergedEvent } from './github-events.js';
import { apiBase, getJson, getList, ms, nextLink, RawBudget } from './git-rest.js';

export const GITHUB_API_DEFAULT = 'https://api.github.com';
/**
 * A deployment's latest status is read while it was created this long before the window (or was
 * updated inside it): a slow rollout that ends after the 20-minute overlap is still seen ending.
 */
export const STATUS_LOOKBACK_MS = 6 * 60 * 60 * 1000;

type Ctx = AdapterContext & { credential: string | null };

export function githubRepos(config: Record<string, unknown>): string[] {
  const repos = config.repos;
  if (!Array.isArray(repos) || repos.length === 0) throw new Error('the connection lists no repositories to read (config.repos, e.g. ["acme/checkout"])');
  for (const r of repos) if (typeof r !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(r)) throw new Error(`"${String(r)}" is not a repository as owner/name`);
  return repos as string[];
}

async function pullRepo(deps: PullDeps, api: string, headers: Record<string, string>, repo: string, w: PullWindow, budget: RawBudget, now: Date, out: { events: ObservedEvent[]; ignored: number }) {
  const f = new Fields(`GitHub's answer for ${repo}`);
  const since = w.since.getTime();
  const until = w.until.getTime();
  const inWindow = (t: number) => t >= since && t <= until;

  let url: string | null = `${api}/repos/${repo}/deployments?per_page=100`;
  deployments: while (url && !budget.spent) {
    const page = await getList(deps, 'GitHub', url, headers);
    for (const d of page.items) {
      if (!budget.take()) break deployments;
      const created = ms(d.created_at);
      const updated = Number.isNaN(ms(d.updated_at)) ? created : ms(d.updated_at);
      // Newest first: past this one nothing more can fall in the window.
      if (created < since - STATUS_LOOKBACK_MS && updated < since) break deployments;
      if (inWindow(created)) out.events.push(githubDeploymentEvent(f, d, repo, f.optObj(d, 'creator', 'deployment.creator'), null, now));
      if (!budget.take()) break deployments;
      const statuses = await getList(deps, 'GitHub', `${api}/repos/${repo}/deployments/${f.id(d, 'id', 'deployment.id')}/statuses?per_page=1`, headers);
      const latest = statuses.items[0];
      if (!latest || !inWindow(ms(latest.created_at))) continue;
      if (GITHUB_FINAL_STATES.has(String(latest.state))) out.events.push(githubDeploymentEvent(f, d, repo, f.optObj(d, 'creator', 'deployment.creator'), latest, now));
      else out.ignored += 1;
    }
    url = nextLink(page.headers, api);
  }

  url = `${api}/repos/${repo}/pulls?state=closed&sort=updated&direction=desc&per_page=100`;
  pulls: while (url && !budget.spent) {
    const page = await getList(deps, 'GitHub', url, headers);
    for (const pr of page.items) {
      if (!budget.take()) break pulls;
      if (ms(pr.updated_at) < since) break pulls;
      const merged = ms(pr.merged_at);
      if (Number.isNaN(merged)) {
        // Closed without merging: nothing changed.
        if (inWindow(ms(pr.updated_at))) out.ignored += 1;
        continue;
      }
      if (!inWindow(merged)) continue;
      let full: Json = pr;
      if (!pr.merged_by && budget.take()) {
        const one = await getJson(deps, 'GitHub', `${api}/repos/${repo}/pulls/${f.id(pr, 'number', 'pull_request.number')}`, headers);
        if (one.body && typeof one.body === 'object') full = { ...pr, merged_by: (one.body as Json).merged_by ?? null };
      }
      out.events.push(githubMergedEvent(f, full, repo, now));
    }
    url = nextLink(page.headers, api);
  }
}

async function pull(deps: PullDeps, ctx: Ctx, w: PullWindow) {
  const api = apiBase(ctx.config.apiUrl, GITHUB_API_DEFAULT);
  const repos = githubRepos(ctx.config);
  const headers: Record<string, string> = { 'x-github-api-version': '2022-11-28' };
  if (ctx.credential) headers.authorization = `Bearer ${ctx.credential}`;
  const budget = new RawBudget(w.maxRaw);
  const out = { events: [] as ObservedEvent[], ignored: 0 };
  for (const repo of repos) {
    if (budget.spent) break;
    try {
      await pullRepo(deps, api, headers, repo, w, budget, ctx.now, out);
    } catch (err) {
      // The scheduler keeps the message: say which repository failed.
      throw new Error(`${repo}: ${(err as Error).message}`, { cause: err });
    }
  }
  return { events: out.events, ignored: out.ignored, noise: 0, rejected: [] };
}

export const githubPull: PullAdapter = { kind: 'github', pull };
