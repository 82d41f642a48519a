import { basicCredentials, bearerToken, isObject, json, startVendorServer, text, type RecordedRequest, type Reply, type VendorControls } from './vendor-server.js';

/**
 * A Jira that answers the calls our adapter makes the way Jira documents them (REST v3 on Cloud,
 * v2 on Data Center): Basic e-mail + API token on Cloud, a personal access token as Bearer on
 * Data Center; 201 {id, key, self} for a created issue; the `{errorMessages, errors}` body for
 * refusals, with Jira's own words.
 */

export type JiraProject = { key: string; name: string; issueTypes: string[] };
export type JiraIssue = { id: string; key: string; fields: Record<string, unknown>; comments: unknown[] };

export type JiraServer = VendorControls & { issues: JiraIssue[] };

export type JiraServerOptions = {
  deployment: 'cloud' | 'datacenter';
  /** Cloud: the account's e-mail; Data Center ignores it. */
  email?: string;
  /** Cloud: the API token; Data Center: the personal access token. */
  token: string;
  displayName?: string;
  projects?: JiraProject[];
  /**
   * Serve refused credentials as an anonymous user, as Jira does on endpoints anonymous users may
   * call (only /myself insists on a login); every answer then carries X-Seraph-LoginReason.
   */
  anonymousOnBadCredentials?: boolean;
};

const errors = (status: number, errorMessages: string[], fieldErrors: Record<string, string> = {}): Reply => json(status, { errorMessages, errors: fieldErrors });

const isAdf = (v: unknown) => isObject(v) && v.type === 'doc' && v.version === 1 && Array.isArray(v.content);
/** Jira counts an ADF document without any text as empty. */
const adfText = (v: unknown): string => {
  if (!isObject(v)) return '';
  const own = typeof v.text === 'string' ? v.text : '';
  return own + (Array.isArray(v.content) ? v.content.map(adfText).join('') : '');
};

export async function startJiraServer(o: JiraServerOptions): Promise<JiraServer> {
  const projects = o.projects ?? [{ key: 'OPS', name: 'Operations', issueTypes: ['Change', 'Task'] }];
  const issues: JiraIssue[] = [];
  const version = o.deployment === 'cloud' ? '3' : '2';
  const prefix = `/rest/api/${version}`;
  let base = '';

  const authenticated = (r: RecordedRequest): boolean => {
    const auth = r.headers.authorization;
    if (o.deployment === 'datacenter') return bearerToken(auth) === o.token;
    const c = basicCredentials(auth);
    return c !== null && c.user === o.email && c.password === o.token;
  };

  const handle = (r: RecordedRequest): Reply => {
    if (!authenticated(r) && o.anonymousOnBadCredentials && !r.path.endsWith('/myself')) {
      const reply = anonymous(r);
      return { ...reply, headers: { ...(reply.headers ?? {}), 'x-seraph-loginreason': 'AUTHENTICATED_FAILED' } };
    }
    if (!authenticated(r)) {
      // Cloud answers a plain-text sentence; Data Center wraps the same sentence in JSON.
      return o.deployment === 'cloud'
        ? text(401, 'Client must be authenticated to access this resource.')
        : json(401, { message: 'Client must be authenticated to access this resource.', 'status-code': 401 });
    }
    if (!r.path.startsWith(`${prefix}/`)) return errors(404, [`null for uri: ${base}${r.path}`]);
    const rest = r.path.slice(prefix.length);

    if (r.method === 'GET' && rest === '/myself') {
      const name = o.displayName ?? 'Jane Doe';
      return json(200, o.deployment === 'cloud'
        ? { accountId: '5b10a2844c20165700ede21g', accountType: 'atlassian', emailAddress: o.email, displayName: name, active: true, timeZone: 'Europe/Berlin' }
        : { key: 'JIRAUSER10100', name: 'jdoe', emailAddress: 'jane@example.com', displayName: name, active: true, timeZone: 'Europe/Berlin' });
    }

    const projectPath = /^\/project\/([^/]+)$/.exec(rest);
    if (r.method === 'GET' && projectPath) {
      const key = decodeURIComponent(projectPath[1]!);
      const p = projects.find((x) => x.key === key);
      if (!p) return errors(404, [`No project could be found with key '${key}'.`]);
      return json(200, { id: String(10000 + projects.indexOf(p)), key: p.key, name: p.name, projectTypeKey: 'software', self: `${base}${prefix}/project/${p.key}` });
    }

    if (r.method === 'POST' && rest === '/issue') {
      if (!isObject(r.body) || !isObject(r.body.fields)) return errors(400, ['Can not deserialize instance of com.atlassian.jira.rest.v2.issue.IssueUpdateBean out of START_ARRAY token']);
      const f = r.body.fields;
      const key = isObject(f.project) && typeof f.project.key === 'string' ? f.project.key : null;
      const project = projects.find((p) => p.key === key);
      if (!project) return errors(400, [], { project: 'valid project is required' });
      const fieldErrors: Record<string, string> = {};
      if (typeof f.summary !== 'string' || !f.summary.trim()) fieldErrors.summary = 'You must specify a summary of the issue.';
      else if (f.summary.length > 255) fieldErrors.summary = 'Summary must be less than 255 characters.';
      const type = isObject(f.issuetype) ? f.issuetype.name : undefined;
      if (typeof type !== 'string' || !project.issueTypes.includes(type)) fieldErrors.issuetype = 'Specify a valid issue type';
      if (f.description !== undefined) {
        if (version === '3' && !isAdf(f.description)) fieldErrors.description = 'Operation value must be an Atlassian Document (see the Atlassian Document Format)';
        if (version === '2' && typeof f.description !== 'string') fieldErrors.description = 'Operation value must be a string';
      }
      if (f.labels !== undefined && !Array.isArray(f.labels)) fieldErrors.labels = 'data was not an array';
      if (Object.keys(fieldErrors).length) return errors(400, [], fieldErrors);
      const id = String(10000 + issues.length + 1);
      const issueKey = `${project.key}-${issues.filter((i) => i.key.startsWith(`${project.key}-`)).length + 1}`;
      issues.push({ id, key: issueKey, fields: f, comments: [] });
      return json(201, { id, key: issueKey, self: `${base}${prefix}/issue/${id}` });
    }

    const commentPath = /^\/issue\/([^/]+)\/comment$/.exec(rest);
    if (r.method === 'POST' && commentPath) {
      const ref = decodeURIComponent(commentPath[1]!);
      const issue = issues.find((i) => i.key === ref || i.id === ref);
      if (!issue) return errors(404, ['Issue does not exist or you do not have permission to see it.']);
      const body = isObject(r.body) ? r.body.body : undefined;
      if (version === '3' && body !== undefined && !isAdf(body)) return errors(400, [], { comment: 'Operation value must be an Atlassian Document (see the Atlassian Document Format)' });
      const content = version === '3' ? adfText(body) : typeof body === 'string' ? body : '';
      if (!content.trim()) return errors(400, [], { comment: 'Comment body can not be empty!' });
      issue.comments.push(body);
      const id = String(20000 + issue.comments.length);
      return json(201, { id, self: `${base}${prefix}/issue/${issue.id}/comment/${id}`, body, author: { displayName: o.displayName ?? 'Jane Doe' }, created: '2026-10-06T09:12:44.120+0000' });
    }

    return errors(404, [`null for uri: ${base}${r.path}`]);
  };

  /** An anonymous user sees no project: reads 404, a create is refused over its project. */
  const anonymous = (r: RecordedRequest): Reply => {
    if (r.method === 'POST' && r.path === `${prefix}/issue`) return errors(400, [], { project: 'valid project is required' });
    if (/\/issue\/[^/]+\/comment$/.test(r.path)) return errors(404, ['Issue does not exist or you do not have permission to see it.']);
    const key = /\/project\/([^/]+)$/.exec(r.path)?.[1];
    return key ? errors(404, [`No project could be found with key '${decodeURIComponent(key)}'.`]) : errors(401, ['You are not authenticated. Authentication required to perform this operation.']);
  };

  const server = await startVendorServer(handle, (status) => (status === 429
    ? json(429, { errorMessages: ['Rate limit exceeded.'], errors: {} }, { 'retry-after': '5' })
    : text(status, '<html><body><h1>Service Unavailable</h1></body></html>', 'text/html')));
  base = server.url;
  return Object.assign(server, { issues });
}
