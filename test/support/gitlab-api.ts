import { createServer, type Server, type ServerResponse } from 'node:http';

/**
 * A loopback stand-in for GitLab's REST API v4 (gitlab.com cannot be reached from here). It answers
 * the endpoints the pull adapter calls, in the shapes GitLab's API reference documents:
 * - GET /projects/:id (an id or a URL-encoded path) → the project
 *   (https://docs.gitlab.com/api/projects/#get-a-single-project)
 * - GET /projects/:id/deployments?updated_after&updated_before&order_by=updated_at&sort → array of deployments
 *   (https://docs.gitlab.com/api/deployments/#list-project-deployments; the example response's fields)
 * - GET /projects/:id/merge_requests?state=merged&updated_after&order_by=updated_at&sort → array of merge requests
 *   (https://docs.gitlab.com/api/merge_requests/#list-project-merge-requests)
 * - offset pages: `per_page` (max 100) and `page`, with X-Page, X-Per-Page, X-Total, X-Total-Pages,
 *   X-Next-Page (empty on the last page), X-Prev-Page and a Link header (https://docs.gitlab.com/api/rest/#pagination)
 * - errors as GitLab writes them: 401 {"message":"401 Unauthorized"}, 404 {"message":"404 Project Not Found"}.
 * It checks the PRIVATE-TOKEN header and records every request.
 */

export type GitlabRequest = { path: string; query: Record<string, string>; token: string | null };
export type GitlabProjectData = { id: number; path: string; deployments?: Array<Record<string, unknown>>; mergeRequests?: Array<Record<string, unknown>> };

export type GitlabApi = {
  /** The base URL to put in a connection's apiUrl (…/api/v4). */
  url: string;
  requests: GitlabRequest[];
  project(p: GitlabProjectData): void;
  fail(status: number | null, message?: string): void;
  close(): Promise<void>;
};

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const at = (o: Record<string, unknown>, k: string) => Date.parse(String(o[k] ?? '')) || 0;

export async function startGitlabApi(opts: { token?: string | null } = {}): Promise<GitlabApi> {
  const projects: GitlabProjectData[] = [];
  const requests: GitlabRequest[] = [];
  let failing: { status: number; message: string } | null = null;
  let base = '';

  function paged(res: ServerResponse, u: URL, all: Array<Record<string, unknown>>) {
    const perPage = Math.min(100, Math.max(1, Number(u.searchParams.get('per_page') ?? 20) || 20));
    const page = Math.max(1, Number(u.searchParams.get('page') ?? 1) || 1);
    const pages = Math.max(1, Math.ceil(all.length / perPage));
    const link = (p: number) => {
      const n = new URL(u.toString());
      n.searchParams.set('page', String(p));
      return `<${base}${n.pathname}${n.search}>`;
    };
    const links = [...(page < pages ? [`${link(page + 1)}; rel="next"`] : []), `${link(1)}; rel="first"`, `${link(pages)}; rel="last"`];
    send(res, 200, all.slice((page - 1) * perPage, page * perPage), {
      'x-page': String(page), 'x-per-page': String(perPage), 'x-total': String(all.length), 'x-total-pages': String(pages),
      'x-next-page': page < pages ? String(page + 1) : '', 'x-prev-page': page > 1 ? String(page - 1) : '', link: links.join(', '),
    });
  }

  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const token = typeof req.headers['private-token'] === 'string' ? req.headers['private-token'] : null;
    // The raw path keeps %2F, as GitLab needs for a namespaced path.
    const rawPath = (req.url ?? '/').split('?')[0]!;
    requests.push({ path: rawPath, query: Object.fromEntries(u.searchParams), token });
    if (failing) return send(res, failing.status, { message: failing.message });
    if (opts.token !== null && token !== (opts.token ?? 'glpat-test')) return send(res, 401, { message: '401 Unauthorized' });
    const m = /^\/api\/v4\/projects\/([^/]+)(?:\/(deployments|merge_requests))?$/.exec(rawPath);
    if (req.method !== 'GET' || !m) return send(res, 404, { error: '404 Not Found' });
    const key = decodeURIComponent(m[1]!);
    const p = projects.find((x) => String(x.id) === key || x.path === key);
    if (!p) return send(res, 404, { message: '404 Project Not Found' });
    const after = Date.parse(u.searchParams.get('updated_after') ?? '') || -Infinity;
    const before = Date.parse(u.searchParams.get('updated_before') ?? '') || Infinity;
    const dir = u.searchParams.get('sort') === 'asc' ? 1 : -1;
    const within = (o: Record<string, unknown>) => at(o, 'updated_at') > after && at(o, 'updated_at') < before;
    if (m[2] === 'deployments') return paged(res, u, (p.deployments ?? []).filter(within).sort((a, b) => dir * (at(a, 'updated_at') - at(b, 'updated_at'))));
    if (m[2] === 'merge_requests') {
      const state = u.searchParams.get('state') ?? 'all';
      return paged(res, u, (p.mergeRequests ?? []).filter((x) => (state === 'all' || x.state === state) && within(x)).sort((a, b) => dir * (at(a, 'updated_at') - at(b, 'updated_at'))));
    }
    const host = new URL(base).host;
    return send(res, 200, {
      id: p.id, name: p.path.split('/').pop(), path: p.path.split('/').pop(), path_with_namespace: p.path, name_with_namespace: p.path.replaceAll('/', ' / '),
      default_branch: 'main', web_url: `http://${host}/${p.path}`, http_url_to_repo: `http://${host}/${p.path}.git`,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url: `${base}/api/v4`,
    requests,
    project: (p) => {
      const i = projects.findIndex((x) => x.id === p.id);
      if (i >= 0) projects.splice(i, 1);
      projects.push(p);
    },
    fail: (status, message = '500 Internal Server Error') => {
      failing = status === null ? null : { status, message };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function gitlabUser(username: string, id = 1) {
  return { id, name: username, username, state: 'active', avatar_url: `https://www.gravatar.com/avatar/${id}`, web_url: `https://gitlab.example.com/${username}` };
}

/** A deployment in the documented list shape (deployable = the job, with its commit). */
export function gitlabDeployment(o: { id: number; iid?: number; status: 'created' | 'running' | 'success' | 'failed' | 'canceled' | 'blocked'; updatedAt: string; ref?: string; sha?: string; environment?: string; user?: ReturnType<typeof gitlabUser>; message?: string; projectPath?: string }) {
  const sha = o.sha ?? '99d03678b90d914dbb1b109132516d71a4a03ea8';
  const message = o.message ?? "Merge branch 'new-title' into 'main'\r\n\r\nUpdate README\r\n\r\nSee merge request !1";
  const user = o.user ?? gitlabUser('root');
  return {
    created_at: o.updatedAt, updated_at: o.updatedAt, status: o.status, id: o.id, iid: o.iid ?? o.id, ref: o.ref ?? 'main', sha, user,
    environment: { id: 9, name: o.environment ?? 'production', external_url: 'https://about.gitlab.com' },
    deployable: {
      id: 657 + o.id, name: 'deploy', ref: o.ref ?? 'main', stage: 'deploy', status: o.status, tag: false, created_at: o.updatedAt, started_at: o.updatedAt, finished_at: o.updatedAt,
      user, web_url: `https://gitlab.example.com/${o.projectPath ?? 'acme/checkout'}/-/jobs/${657 + o.id}`,
      commit: { id: sha, short_id: sha.slice(0, 8), title: message.split('\n')[0], message, author_name: 'Administrator', author_email: 'admin@example.com', created_at: o.updatedAt },
      pipeline: { id: 36, ref: o.ref ?? 'main', sha, status: o.status, created_at: o.updatedAt, updated_at: o.updatedAt, web_url: `https://gitlab.example.com/${o.projectPath ?? 'acme/checkout'}/pipelines/36` },
    },
  };
}

/** A merge request in the documented list shape. */
export function gitlabMergeRequest(o: { id: number; iid: number; projectId: number; title: string; description?: string | null; state?: 'merged' | 'opened' | 'closed'; updatedAt: string; mergedAt?: string | null; mergeUser?: ReturnType<typeof gitlabUser> | null; author?: ReturnType<typeof gitlabUser>; target?: string; source?: string; webUrl?: string }) {
  const merged = (o.state ?? 'merged') === 'merged';
  return {
    id: o.id, iid: o.iid, project_id: o.projectId, title: o.title, description: o.description ?? '', state: o.state ?? 'merged',
    created_at: o.updatedAt, updated_at: o.updatedAt, merged_at: merged ? (o.mergedAt ?? o.updatedAt) : null,
    merged_by: merged ? (o.mergeUser ?? null) : null, merge_user: merged ? (o.mergeUser ?? null) : null, closed_at: null,
    target_branch: o.target ?? 'main', source_branch: o.source ?? 'feature', author: o.author ?? gitlabUser('author', 3),
    source_project_id: o.projectId, target_project_id: o.projectId, merge_commit_sha: merged ? '78a76ee6b4992a6baf64c59fc4c44c7323d60438' : null, squash_commit_sha: null,
    web_url: o.webUrl ?? `https://gitlab.example.com/acme/checkout/-/merge_requests/${o.iid}`, references: { short: `!${o.iid}`, full: `acme/checkout!${o.iid}` },
  };
}
