import { bearerToken, isObject, json, startVendorServer, type RecordedRequest, type Reply, type VendorControls } from './vendor-server.js';

/**
 * An Asana that answers as developers.asana.com documents: Bearer personal access token, payloads
 * wrapped in `data` both ways, `{errors: [{message, help}]}` for refusals, opt_fields honoured.
 */

export type AsanaProject = { gid: string; name: string; workspaceGid: string };
export type AsanaWorkspace = { gid: string; name: string };
export type AsanaTask = { gid: string; name: string; notes: string; projects: string[]; workspace: string; completed: boolean; stories: string[] };

export type AsanaServer = VendorControls & { tasks: AsanaTask[] };

export type AsanaServerOptions = {
  token: string;
  user?: { gid: string; name: string; email: string };
  workspaces?: AsanaWorkspace[];
  projects?: AsanaProject[];
};

const HELP = 'For more information on API status codes and how to handle them, read the docs on errors: https://developers.asana.com/docs/errors';
const errors = (status: number, ...messages: string[]): Reply => json(status, { errors: messages.map((message) => ({ message, help: HELP })) });

/** With opt_fields Asana returns the gid and exactly the fields asked for; without, the whole record. */
function pick(record: Record<string, unknown>, r: RecordedRequest): Record<string, unknown> {
  const opt = r.query.get('opt_fields');
  if (!opt) return record;
  const out: Record<string, unknown> = { gid: record.gid };
  for (const f of opt.split(',')) if (f in record) out[f] = record[f];
  return out;
}

export async function startAsanaServer(o: AsanaServerOptions): Promise<AsanaServer> {
  const user = o.user ?? { gid: '1200000000000001', name: 'Jane Doe', email: 'jane@example.com' };
  const workspaces = o.workspaces ?? [{ gid: '1200000000000010', name: 'Example Corp' }];
  const projects = o.projects ?? [{ gid: '1200000000000100', name: 'Change tickets', workspaceGid: workspaces[0]!.gid }];
  const tasks: AsanaTask[] = [];
  const workspaceRef = (gid: string) => ({ gid, resource_type: 'workspace', name: workspaces.find((w) => w.gid === gid)?.name ?? 'Unknown' });
  const taskRecord = (t: AsanaTask): Record<string, unknown> => ({
    gid: t.gid, resource_type: 'task', resource_subtype: 'default_task', name: t.name, notes: t.notes, completed: t.completed,
    projects: t.projects.map((gid) => ({ gid, resource_type: 'project', name: projects.find((p) => p.gid === gid)?.name })),
    workspace: workspaceRef(t.workspace), permalink_url: `https://app.asana.com/1/${t.workspace}/project/${t.projects[0] ?? '0'}/task/${t.gid}`,
  });

  const handle = (r: RecordedRequest): Reply => {
    if (bearerToken(r.headers.authorization) !== o.token) return errors(401, 'Not Authorized');
    const path = r.path.replace(/^\/api\/1\.0/, '');
    if (path === r.path) return errors(404, 'No matching route for request');

    if (r.method === 'GET' && path === '/users/me') {
      return json(200, { data: { gid: user.gid, resource_type: 'user', name: user.name, email: user.email, workspaces: workspaces.map((w) => workspaceRef(w.gid)) } });
    }

    const projectPath = /^\/projects\/([^/]+)$/.exec(path);
    if (r.method === 'GET' && projectPath) {
      const p = projects.find((x) => x.gid === projectPath[1]);
      if (!p) return errors(404, `project: Not a recognized ID: ${projectPath[1]}`);
      return json(200, { data: pick({ gid: p.gid, resource_type: 'project', name: p.name, archived: false, workspace: workspaceRef(p.workspaceGid), permalink_url: `https://app.asana.com/0/${p.gid}/${p.gid}` }, r) });
    }

    // Every write wraps its fields in `data`.
    const data = isObject(r.body) ? r.body.data : undefined;
    if (r.method !== 'GET' && isObject(r.body) && !isObject(data)) {
      const field = Object.keys(r.body).find((k) => k !== 'data' && k !== 'options') ?? 'data';
      return errors(400, `Unrecognized request field \`${field}\`. The only allowed keys at the top level are: data, options. Is it possible you did not wrap object properties in a \`data\` object?`);
    }

    if (r.method === 'POST' && path === '/tasks') {
      if (!isObject(data)) return errors(400, 'data: Missing input');
      const projectGids = Array.isArray(data.projects) ? data.projects.map(String) : [];
      if (!projectGids.length && typeof data.workspace !== 'string' && typeof data.parent !== 'string') {
        return errors(400, 'You must specify one of workspace, parent or projects');
      }
      const unknown = projectGids.find((gid) => !projects.some((p) => p.gid === gid));
      if (unknown) return errors(404, `project: Not a recognized ID: ${unknown}`);
      const workspace = typeof data.workspace === 'string' ? data.workspace : projects.find((p) => p.gid === projectGids[0])!.workspaceGid;
      if (!workspaces.some((w) => w.gid === workspace)) return errors(404, `workspace: Not a recognized ID: ${workspace}`);
      const outside = projectGids.find((gid) => projects.find((p) => p.gid === gid)!.workspaceGid !== workspace);
      if (outside) return errors(400, `projects: [0]: Project ${outside} is not in workspace ${workspace}`);
      const task: AsanaTask = { gid: String(1210000000000000 + tasks.length + 1), name: typeof data.name === 'string' ? data.name : '', notes: typeof data.notes === 'string' ? data.notes : '', projects: projectGids, workspace, completed: false, stories: [] };
      tasks.push(task);
      return json(201, { data: pick(taskRecord(task), r) }, { location: `/api/1.0/tasks/${task.gid}` });
    }

    const taskPath = /^\/tasks\/([^/]+)(\/stories)?$/.exec(path);
    if (taskPath && (r.method === 'PUT' || r.method === 'POST')) {
      const task = tasks.find((t) => t.gid === taskPath[1]);
      if (!task) return errors(404, `task: Not a recognized ID: ${taskPath[1]}`);
      if (r.method === 'POST' && taskPath[2]) {
        const said = isObject(data) ? data.text : undefined;
        if (typeof said !== 'string' || !said.trim()) return errors(400, 'text: Missing input');
        task.stories.push(said);
        return json(201, { data: { gid: String(1220000000000000 + task.stories.length), resource_type: 'story', resource_subtype: 'comment_added', type: 'comment', text: said, created_by: { gid: user.gid, resource_type: 'user', name: user.name } } });
      }
      if (r.method === 'PUT' && !taskPath[2] && isObject(data)) {
        if (typeof data.completed === 'boolean') task.completed = data.completed;
        return json(200, { data: pick(taskRecord(task), r) });
      }
    }

    return errors(404, 'No matching route for request');
  };

  const server = await startVendorServer(handle, (status) => (status === 429
    ? json(429, { errors: [{ message: "You've made too many requests and hit a rate limit. Please retry after the given amount of time.", help: HELP }] }, { 'retry-after': '30' })
    : json(status, { errors: [{ message: 'Server Error', phrase: '6 sad squid snuggle softly' }] })));
  return Object.assign(server, { tasks });
}
