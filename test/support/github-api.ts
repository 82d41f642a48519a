import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A loopback stand-in for GitHub's REST API (api.github.com cannot be reached from here). It answers
 * the endpoints the pull adapter calls, in the shapes GitHub's REST reference documents:
 * - GET /repos/{owner}/{repo}/deployments → array of deployments, newest first
 *   (https://docs.github.com/en/rest/deployments/deployments#list-deployments)
 * - GET /repos/{owner}/{repo}/deployments/{id}/statuses → array of statuses, newest first
 *   (https://docs.github.com/en/rest/deployments/statuses#list-deployment-statuses)
 * - GET /repos/{owner}/{repo}/pulls?state=closed&sort=updated&direction=desc → array of pull requests
 *   (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests); GET …/pulls/{number} → one, with merged_by
 * - pages: `per_page` (max 100) and `page`, with a Link header carrying rel="next" and rel="last"
 *   (https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api)
 * - errors as GitHub writes them: 401 {"message":"Bad credentials","documentation_url":…,"status":"401"},
 *   404 {"message":"Not Found",…}.
 * A test hands it objects (its own, or the deployment / deployment_status / pull_request objects
 * of the shared real webhook payloads, which GitHub documents as the same objects) and reads the
 * requests it recorded.
 */

export type GithubRequest = { path: string; query: Record<string, string>; authorization: string | null };
export type GithubRepoData = { deployments?: Array<Record<string, unknown>>; statuses?: Record<string, Array<Record<string, unknown>>>; pulls?: Array<Record<string, unknown>> };

export type GithubApi = {
  /** The base URL to put in a connection's apiUrl. */
  url: string;
  requests: GithubRequest[];
  /** Sets (or replaces) what a repository holds. */
  repo(fullName: string, data: GithubRepoData): void;
  /** Every request answers this status and GitHub-style message, or null to answer again. */
  fail(status: number | null, message?: string): void;
  close(): Promise<void>;
};

const DOCS = 'https://docs.github.com/rest';

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

const time = (o: Record<string, unknown>, k: string) => Date.parse(String(o[k] ?? '')) || 0;

export async function startGithubApi(opts: { token?: string | null } = {}): Promise<GithubApi> {
  const repos = new Map<string, GithubRepoData>();
  const requests: GithubRequest[] = [];
  let failing: { status: number; message: string } | null = null;
  let base = '';

  function paged(req: IncomingMessage, res: ServerResponse, u: URL, all: Array<Record<string, unknown>>) {
    const perPage = Math.min(100, Math.max(1, Number(u.searchParams.get('per_page') ?? 30) || 30));
    const page = Math.max(1, Number(u.searchParams.get('page') ?? 1) || 1);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const links: string[] = [];
    const at = (p: number) => {
      const n = new URL(u.toString());
      n.searchParams.set('page', String(p));
      return `<${base}${n.pathname}${n.search}>`;
    };
    if (page < last) links.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`);
    if (page > 1) links.push(`${at(1)}; rel="first"`, `${at(page - 1)}; rel="prev"`);
    send(res, 200, all.slice((page - 1) * perPage, page * perPage), links.length ? { link: links.join(', ') } : {});
  }

  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const authorization = req.headers.authorization ?? null;
    requests.push({ path: u.pathname, query: Object.fromEntries(u.searchParams), authorization });
    if (failing) return send(res, failing.status, { message: failing.message, documentation_url: DOCS, status: String(failing.status) });
    if (opts.token !== null && authorization !== `Bearer ${opts.token ?? 'ghp_test'}`) {
      return send(res, 401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' });
    }
    const m = /^\/repos\/([^/]+\/[^/]+)\/(deployments|pulls)(?:\/(\d+)(?:\/(statuses))?)?$/.exec(u.pathname);
    const data = m ? repos.get(decodeURIComponent(m[1]!)) : undefined;
    if (req.method !== 'GET' || !m || !data) return send(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
    const [, , what, id, sub] = m;
    if (what === 'deployments' && !id) {
      return paged(req, res, u, [...(data.deployments ?? [])].sort((a, b) => Number(b.id) - Number(a.id)));
    }
    if (what === 'deployments' && sub) {
      const list = [...(data.statuses?.[id!] ?? [])].sort((a, b) => time(b, 'created_at') - time(a, 'created_at') || Number(b.id) - Number(a.id));
      return paged(req, res, u, list);
    }
    if (what === 'pulls' && !id) {
      const state = u.searchParams.get('state') ?? 'open';
      const list = (data.pulls ?? []).filter((p) => state === 'all' || p.state === state);
      const dir = u.searchParams.get('direction') === 'asc' ? 1 : -1;
      const key = u.searchParams.get('sort') === 'updated' ? 'updated_at' : 'created_at';
      // The list form of a pull request leaves out merged_by, as GitHub's does.
      return paged(req, res, u, [...list].sort((a, b) => dir * (time(a, key) - time(b, key))).map(({ merged_by: _m, merged: _g, ...rest }) => rest));
    }
    if (what === 'pulls' && id && !sub) {
      const pr = (data.pulls ?? []).find((p) => String(p.number) === id);
      return pr ? send(res, 200, pr) : send(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
    }
    return send(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url: base,
    requests,
    repo: (fullName, d) => void repos.set(fullName, d),
    fail: (status, message = 'Server Error') => {
      failing = status === null ? null : { status, message };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A GitHub user or bot as the REST API shows one (`type` "User" or "Bot"). */
export function githubUser(login: string, id = 1, type: 'User' | 'Bot' = login.endsWith('[bot]') ? 'Bot' : 'User') {
  return { login, id, node_id: `U_${id}`, avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`, url: `https://api.github.com/users/${login}`, html_url: `https://github.com/${login}`, type, site_admin: false };
}

/** A deployment in the documented REST shape. */
export function githubDeployment(repo: string, o: { id: number; ref?: string; sha?: string; environment?: string; createdAt: string; updatedAt?: string; creator?: ReturnType<typeof githubUser>; payload?: unknown; description?: string | null }) {
  const api = `https://api.github.com/repos/${repo}`;
  return {
    url: `${api}/deployments/${o.id}`, id: o.id, node_id: `DE_${o.id}`, sha: o.sha ?? 'a84d88e7554fc1fa21bcbc4efae3c782a70d2b9d', ref: o.ref ?? 'main', task: 'deploy',
    payload: o.payload ?? {}, original_environment: o.environment ?? 'production', environment: o.environment ?? 'production', description: o.description ?? null,
    creator: o.creator ?? githubUser('octocat'), created_at: o.createdAt, updated_at: o.updatedAt ?? o.createdAt,
    statuses_url: `${api}/deployments/${o.id}/statuses`, repository_url: api, transient_environment: false, production_environment: true,
  };
}

/** A deployment status in the documented REST shape. */
export function githubDeploymentStatus(repo: string, deploymentId: number, o: { id: number; state: 'error' | 'failure' | 'inactive' | 'pending' | 'success' | 'queued' | 'in_progress'; createdAt: string; environment?: string }) {
  const api = `https://api.github.com/repos/${repo}`;
  return {
    url: `${api}/deployments/${deploymentId}/statuses/${o.id}`, id: o.id, node_id: `DES_${o.id}`, state: o.state, creator: githubUser('octocat'),
    description: `Deployment ${o.state}`, environment: o.environment ?? 'production', target_url: `https://example.com/deployment/${deploymentId}/output`,
    created_at: o.createdAt, updated_at: o.createdAt, deployment_url: `${api}/deployments/${deploymentId}`, repository_url: api,
    environment_url: '', log_url: `https://example.com/deployment/${deploymentId}/output`,
  };
}

/** A pull request in the documented REST shape (the parts the adapter and a person read). */
export function githubPullRequest(repo: string, o: { id: number; number: number; title: string; body?: string | null; base?: string; head?: string; updatedAt: string; mergedAt?: string | null; mergedBy?: ReturnType<typeof githubUser>; user?: ReturnType<typeof githubUser> }) {
  const merged = o.mergedAt ?? null;
  return {
    url: `https://api.github.com/repos/${repo}/pulls/${o.number}`, id: o.id, node_id: `PR_${o.id}`, html_url: `https://github.com/${repo}/pull/${o.number}`,
    number: o.number, state: 'closed', locked: false, title: o.title, user: o.user ?? githubUser('octocat'), body: o.body ?? null,
    created_at: o.updatedAt, updated_at: o.updatedAt, closed_at: o.updatedAt, merged_at: merged, merge_commit_sha: merged ? 'e5bd3914e2e596debea16f433f57875b5b90bcd6' : null,
    head: { label: `octocat:${o.head ?? 'feature'}`, ref: o.head ?? 'feature', sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e' },
    base: { label: `octocat:${o.base ?? 'main'}`, ref: o.base ?? 'main', sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e', repo: { full_name: repo } },
    merged: merged !== null, merged_by: merged ? (o.mergedBy ?? githubUser('hubot', 2)) : null,
  };
}
