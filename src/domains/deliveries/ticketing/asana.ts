import type { AdapterContext, AsanaTicketing, ProbeStep, StepAnswer, TicketAdapter, TicketStep } from './ticket-types.js';
import {
  NO_TICKET_TO_UPDATE, asText, callVendor, isRecord, isSuccess, parseJson, probeCall, probeResult, unanswered, vendorError, withChangeLink,
  withoutTrailingSlash,
} from './ticket-http.js';

/**
 * Asana: one task per change in the configured project, one comment (story) per update. With
 * completeOnReport the report also marks the task complete.
 */

const api = (s: AsanaTicketing) => `${withoutTrailingSlash(s.apiUrl)}/api/1.0`;
const auth = (s: AsanaTicketing) => `Bearer ${s.token}`;

/**
 * `{errors: [{message, help?, phrase?}]}`. The help link is the same on every error; the phrase of
 * a 500 is what Asana support looks the incident up by, so it stays.
 */
function asanaErrors(json: unknown): string[] {
  if (!isRecord(json) || !Array.isArray(json.errors)) return [];
  return json.errors.flatMap((e) => {
    if (!isRecord(e) || typeof e.message !== 'string') return [];
    return [typeof e.phrase === 'string' ? `${e.message} (error phrase "${e.phrase}")` : e.message];
  });
}

function failed(status: number, body: string, calls: number): StepAnswer {
  return { status, error: vendorError('Asana', { status, body }, asanaErrors), calls };
}

const data = (body: string): Record<string, unknown> | null => {
  const json = parseJson(body);
  return isRecord(json) && isRecord(json.data) ? json.data : null;
};

async function create(ctx: AdapterContext, s: AsanaTicketing, step: TicketStep): Promise<StepAnswer> {
  const notes = withChangeLink([step.text, ...step.description], step.change.links.change).join('\n');
  // A created task comes back whole today, but opt_fields pins the three fields we keep.
  const res = await callVendor(ctx, 'POST', `${api(s)}/tasks?opt_fields=gid,name,permalink_url`, auth(s), {
    data: { name: step.summary, notes, projects: [s.projectGid], workspace: s.workspaceGid },
  });
  if (!isSuccess(res.status)) return failed(res.status, res.body, 1);
  const task = data(res.body);
  const gid = task ? asText(task.gid) : null;
  if (!gid) return { status: res.status, note: `Asana answered ${res.status} without a task gid: updates cannot reach the task`, calls: 1 };
  return { status: res.status, ticket: { kind: 'asana', id: gid, key: gid, url: (task && asText(task.permalink_url)) ?? null }, calls: 1 };
}

/**
 * The completion goes first: it is idempotent, a comment is not. When the comment then fails and
 * the step is retried, the task is completed again (no change) and the comment is written once.
 */
async function update(ctx: AdapterContext, s: AsanaTicketing, step: TicketStep): Promise<StepAnswer> {
  if (!step.ticket) return NO_TICKET_TO_UPDATE;
  const task = `${api(s)}/tasks/${encodeURIComponent(step.ticket.id)}`;
  let calls = 0;
  if (step.close?.reason === 'reported' && s.completeOnReport) {
    const done = await callVendor(ctx, 'PUT', task, auth(s), { data: { completed: true } });
    calls++;
    if (!isSuccess(done.status)) return failed(done.status, done.body, calls);
  }
  const res = await callVendor(ctx, 'POST', `${task}/stories`, auth(s), { data: { text: step.text } });
  calls++;
  return isSuccess(res.status) ? { status: res.status, calls } : failed(res.status, res.body, calls);
}

export const asanaAdapter: TicketAdapter<AsanaTicketing> = {
  send: (ctx, s, step) => (step.action === 'create' ? create(ctx, s, step) : update(ctx, s, step)),

  async probe(ctx, s) {
    const steps: ProbeStep[] = [];
    const me = await probeCall(() => callVendor(ctx, 'GET', `${api(s)}/users/me`, auth(s)));
    if (me instanceof Error) steps.push(unanswered('authenticate', me));
    else if (!isSuccess(me.status)) steps.push({ name: 'authenticate', ok: false, status: me.status, detail: vendorError('Asana', me, asanaErrors) });
    else {
      const user = data(me.body);
      steps.push({ name: 'authenticate', ok: true, status: me.status, detail: `as ${(user && (asText(user.name) ?? asText(user.email))) ?? 'an unnamed user'}` });
    }
    let projectName = s.projectGid;
    if (steps[0]!.ok) {
      const name = `project ${s.projectGid}`;
      const res = await probeCall(() => callVendor(ctx, 'GET', `${api(s)}/projects/${encodeURIComponent(s.projectGid)}`, auth(s)));
      if (res instanceof Error) steps.push(unanswered(name, res));
      else if (!isSuccess(res.status)) steps.push({ name, ok: false, status: res.status, detail: vendorError('Asana', res, asanaErrors) });
      else {
        const project = data(res.body);
        projectName = (project && asText(project.name)) ?? s.projectGid;
        const ws = project && isRecord(project.workspace) ? project.workspace : null;
        const wsGid = ws ? asText(ws.gid) : null;
        if (wsGid === s.workspaceGid) steps.push({ name, ok: true, status: res.status, detail: `${projectName}, in workspace ${(ws && asText(ws.name)) ?? wsGid}` });
        else {
          const where = wsGid ? `workspace ${wsGid}${ws && asText(ws.name) ? ` (${asText(ws.name)})` : ''}` : 'no workspace Asana named';
          steps.push({ name, ok: false, status: res.status, detail: `${projectName} is in ${where}, not in the configured workspace ${s.workspaceGid}` });
        }
      }
    }
    return probeResult('asana', steps, () => `Asana answered ${steps[0]!.detail}; project ${projectName} found in workspace ${s.workspaceGid}`);
  },
};
