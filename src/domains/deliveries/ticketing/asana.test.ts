import { afterEach, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../../platform/net/outbound.js';
import { startAsanaServer, type AsanaServer } from '../../../../test/support/vendors/asana-server.js';
import { aTicketChange, aTicketStep } from '../../../../test/support/vendors/ticket-steps.js';
import { asanaAdapter } from './asana.js';
import type { AdapterContext, AsanaTicketing, TicketRef } from './ticket-types.js';

const ctx: AdapterContext = { client: createOutboundClient({ testOnlyAllowLoopback: true }), allowPrivate: false };
const WORKSPACE = '1200000000000010';
const PROJECT = '1200000000000100';
const OTHER_WORKSPACE = '1200000000000020';
const FOREIGN_PROJECT = '1200000000000200';

let server: AsanaServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function asana(over: Partial<AsanaTicketing> = {}): Promise<{ server: AsanaServer; settings: AsanaTicketing }> {
  server = await startAsanaServer({
    token: '2/1200000000000001/1210000000000000:pat',
    workspaces: [{ gid: WORKSPACE, name: 'Example Corp' }, { gid: OTHER_WORKSPACE, name: 'Side project' }],
    projects: [{ gid: PROJECT, name: 'Change tickets', workspaceGid: WORKSPACE }, { gid: FOREIGN_PROJECT, name: 'Elsewhere', workspaceGid: OTHER_WORKSPACE }],
  });
  return { server, settings: { kind: 'asana', apiUrl: server.url, token: '2/1200000000000001/1210000000000000:pat', workspaceGid: WORKSPACE, projectGid: PROJECT, completeOnReport: true, ...over } };
}

async function opened(): Promise<{ server: AsanaServer; settings: AsanaTicketing; ticket: TicketRef }> {
  const { server, settings } = await asana();
  const { ticket } = await asanaAdapter.send(ctx, settings, aTicketStep());
  server.requests.length = 0;
  return { server, settings, ticket: ticket! };
}

describe('Asana', () => {
  it('creates one task in the project with the step line, the description and the change link in its notes', async () => {
    const { server, settings } = await asana();
    const answer = await asanaAdapter.send(ctx, settings, aTicketStep());

    const gid = server.tasks[0]!.gid;
    expect(answer).toEqual({ status: 201, calls: 1, ticket: { kind: 'asana', id: gid, key: gid, url: `https://app.asana.com/1/${WORKSPACE}/project/${PROJECT}/task/${gid}` } });
    const req = server.requests[0]!;
    expect([req.method, req.url, req.headers.authorization]).toEqual(['POST', '/api/1.0/tasks?opt_fields=gid,name,permalink_url', 'Bearer 2/1200000000000001/1210000000000000:pat']);
    expect(req.body).toEqual({
      data: {
        name: '[CHG-1a2b3c4d] Roll out checkout v2',
        notes: ['Approved by 2 of 2 approvers.', 'Components: checkout, payments', 'Window: 2026-10-06 09:00–11:30 UTC', `Change: ${aTicketChange().links.change}`].join('\n'),
        projects: [PROJECT], workspace: WORKSPACE,
      },
    });
  });

  it.each(['change.started', 'change.completed', 'change.aborted', 'change.cancelled', 'change.expired'] as const)(
    'answers %s with one comment (story) and leaves the task open', async (event) => {
      const { server, settings, ticket } = await opened();
      const step = aTicketStep({ action: 'update', event, ticket, close: event === 'change.cancelled' ? { reason: 'cancelled' } : null });
      const answer = await asanaAdapter.send(ctx, settings, step);

      expect(answer).toEqual({ status: 201, calls: 1 });
      expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual([['POST', `/api/1.0/tasks/${ticket.id}/stories`, { data: { text: step.text } }]]);
      expect(server.tasks[0]!.completed).toBe(false);
    });

  it('completes the task at the report when completeOnReport, then comments', async () => {
    const { server, settings, ticket } = await opened();
    const step = aTicketStep({ action: 'update', event: 'change.reported', ticket, close: { reason: 'reported', outcome: 'success', impact: 'none' } });
    const answer = await asanaAdapter.send(ctx, settings, step);

    expect(answer).toEqual({ status: 201, calls: 2 });
    expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['PUT', `/api/1.0/tasks/${ticket.id}`, { data: { completed: true } }],
      ['POST', `/api/1.0/tasks/${ticket.id}/stories`, { data: { text: 'Surveillance report: impact none, outcome success.' } }],
    ]);
    expect(server.tasks[0]!.completed).toBe(true);
  });

  it('only comments at the report without completeOnReport', async () => {
    const { server, ticket } = await opened();
    const settings: AsanaTicketing = { kind: 'asana', apiUrl: server.url, token: '2/1200000000000001/1210000000000000:pat', workspaceGid: WORKSPACE, projectGid: PROJECT, completeOnReport: false };
    const answer = await asanaAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.reported', ticket, close: { reason: 'reported', outcome: 'success', impact: 'none' } }));
    expect(answer).toEqual({ status: 201, calls: 1 });
    expect(server.tasks[0]!.completed).toBe(false);
  });

  it('answers with the failing call when the completion is refused, and writes no comment', async () => {
    const { server, settings, ticket } = await opened();
    server.failNext(429);
    const answer = await asanaAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.reported', ticket, close: { reason: 'reported', outcome: 'success', impact: 'none' } }));
    expect(answer).toEqual({ status: 429, error: "Asana answered 429: You've made too many requests and hit a rate limit. Please retry after the given amount of time.", calls: 1 });
    expect(server.tasks[0]!.stories).toEqual([]);
  });

  it('answers with the comment’s failure when the completion went through', async () => {
    const { server, settings, ticket } = await opened();
    const answer = await asanaAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.reported', ticket, text: '   ', close: { reason: 'reported', outcome: 'success', impact: 'none' } }));
    expect(answer).toEqual({ status: 400, error: 'Asana answered 400: text: Missing input', calls: 2 });
    expect(server.tasks[0]!.completed).toBe(true);
  });

  it('refuses an update without a ticket before calling Asana', async () => {
    const { server, settings } = await asana();
    expect(await asanaAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.started' }))).toEqual({ status: 400, error: 'no ticket to update: the step that opens it did not succeed', calls: 0 });
    expect(server.requests).toHaveLength(0);
  });

  it('reports a bad token with Asana’s 401 message', async () => {
    const { settings } = await asana({ token: 'wrong' });
    expect(await asanaAdapter.send(ctx, settings, aTicketStep())).toEqual({ status: 401, error: 'Asana answered 401: Not Authorized', calls: 1 });
  });

  it('reports an unknown project with Asana’s message', async () => {
    const { settings } = await asana({ projectGid: '1200000000009999' });
    expect(await asanaAdapter.send(ctx, settings, aTicketStep())).toEqual({ status: 404, error: 'Asana answered 404: project: Not a recognized ID: 1200000000009999', calls: 1 });
  });

  it('reports a comment on a task that is gone', async () => {
    const { settings } = await asana();
    const ticket: TicketRef = { kind: 'asana', id: '1219999999999999', key: '1219999999999999', url: null };
    expect(await asanaAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.started', ticket }))).toEqual({ status: 404, error: 'Asana answered 404: task: Not a recognized ID: 1219999999999999', calls: 1 });
  });

  it('keeps the 500 error phrase Asana support asks for', async () => {
    const { server, settings } = await asana();
    server.failNext(500);
    expect(await asanaAdapter.send(ctx, settings, aTicketStep())).toEqual({ status: 500, error: 'Asana answered 500: Server Error (error phrase "6 sad squid snuggle softly")', calls: 1 });
  });

  it('probes the user and checks the project belongs to the configured workspace', async () => {
    const { server, settings } = await asana();
    const test = await asanaAdapter.probe(ctx, settings);
    expect(test).toEqual({
      kind: 'asana', ok: true, message: `Asana answered as Jane Doe; project Change tickets found in workspace ${WORKSPACE}`,
      steps: [
        { name: 'authenticate', ok: true, status: 200, detail: 'as Jane Doe' },
        { name: `project ${PROJECT}`, ok: true, status: 200, detail: 'Change tickets, in workspace Example Corp' },
      ],
    });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/1.0/users/me', `GET /api/1.0/projects/${PROJECT}`]);
  });

  it('probe: a project of another workspace fails with a clear detail', async () => {
    const { settings } = await asana({ projectGid: FOREIGN_PROJECT });
    const test = await asanaAdapter.probe(ctx, settings);
    expect(test.ok).toBe(false);
    expect(test.steps[1]).toEqual({ name: `project ${FOREIGN_PROJECT}`, ok: false, status: 200, detail: `Elsewhere is in workspace ${OTHER_WORKSPACE} (Side project), not in the configured workspace ${WORKSPACE}` });
    expect(test.message).toBe(`project ${FOREIGN_PROJECT} failed: Elsewhere is in workspace ${OTHER_WORKSPACE} (Side project), not in the configured workspace ${WORKSPACE}`);
  });

  it('probe: a bad token stops at authenticate', async () => {
    const { settings } = await asana({ token: 'wrong' });
    const test = await asanaAdapter.probe(ctx, settings);
    expect(test).toEqual({ kind: 'asana', ok: false, message: 'authenticate failed: Asana answered 401: Not Authorized', steps: [{ name: 'authenticate', ok: false, status: 401, detail: 'Asana answered 401: Not Authorized' }] });
  });

  it('probe: an unknown project fails its step', async () => {
    const { settings } = await asana({ projectGid: '1200000000009999' });
    const test = await asanaAdapter.probe(ctx, settings);
    expect(test.steps[1]).toEqual({ name: 'project 1200000000009999', ok: false, status: 404, detail: 'Asana answered 404: project: Not a recognized ID: 1200000000009999' });
  });
});
