import { afterEach, describe, expect, it } from 'vitest';
import { createOutboundClient, OutboundFailed } from '../../../platform/net/outbound.js';
import { startJiraServer, type JiraServer } from '../../../../test/support/vendors/jira-server.js';
import { aTicketChange, aTicketStep } from '../../../../test/support/vendors/ticket-steps.js';
import { adfDoc, jiraAdapter } from './jira.js';
import type { AdapterContext, JiraTicketing, TicketRef } from './ticket-types.js';

const ctx: AdapterContext = { client: createOutboundClient({ testOnlyAllowLoopback: true }), allowPrivate: false };
const LINK = aTicketChange().links.change;

let server: JiraServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function cloud(over: Partial<JiraTicketing> = {}): Promise<{ server: JiraServer; settings: JiraTicketing }> {
  server = await startJiraServer({ deployment: 'cloud', email: 'jane@example.com', token: 'atl-token-1' });
  return { server, settings: { kind: 'jira', baseUrl: `${server.url}/`, deployment: 'cloud', email: 'jane@example.com', apiToken: 'atl-token-1', projectKey: 'OPS', issueType: 'Change', labels: ['changeledger'], ...over } };
}
async function dataCenter(over: Partial<JiraTicketing> = {}): Promise<{ server: JiraServer; settings: JiraTicketing }> {
  server = await startJiraServer({ deployment: 'datacenter', token: 'pat-secret-1' });
  return { server, settings: { kind: 'jira', baseUrl: server.url, deployment: 'datacenter', email: null, apiToken: 'pat-secret-1', projectKey: 'OPS', issueType: 'Change', labels: [], ...over } };
}
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

describe('Jira Cloud (REST v3, ADF)', () => {
  it('creates one issue with Basic e-mail:token auth, the step line first and the change link marked', async () => {
    const { server, settings } = await cloud();
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep());

    expect(answer).toEqual({ status: 201, calls: 1, ticket: { kind: 'jira', id: '10001', key: 'OPS-1', url: `${server.url}/browse/OPS-1` } });
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/rest/api/3/issue');
    expect(req!.headers.authorization).toBe(basic('jane@example.com', 'atl-token-1'));
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toEqual({
      fields: {
        project: { key: 'OPS' }, summary: '[CHG-1a2b3c4d] Roll out checkout v2', issuetype: { name: 'Change' }, labels: ['changeledger'],
        description: {
          type: 'doc', version: 1, content: [
            { type: 'paragraph', content: [{ type: 'text', text: 'Approved by 2 of 2 approvers.' }] },
            { type: 'paragraph', content: [{ type: 'text', text: 'Components: checkout, payments' }] },
            { type: 'paragraph', content: [{ type: 'text', text: 'Window: 2026-10-06 09:00–11:30 UTC' }] },
            { type: 'paragraph', content: [{ type: 'text', text: 'Change: ' }, { type: 'text', text: LINK, marks: [{ type: 'link', attrs: { href: LINK } }] }] },
          ],
        },
      },
    });
  });

  it('adds the change link as its own paragraph when the description does not carry it', () => {
    const doc = adfDoc(['line', ''], 'https://x.example/c/1');
    expect(doc.content).toEqual([{ type: 'paragraph', content: [{ type: 'text', text: 'line' }] }, { type: 'paragraph', content: [] }]);
  });

  it.each([
    ['change.started', 'Started by the deploy pipeline.'],
    ['change.completed', 'Completed: outcome success.'],
    ['change.aborted', 'Aborted: rolled back.'],
    ['change.reported', 'Surveillance report: impact none, outcome success.'],
    ['change.cancelled', 'Cancelled before it started.'],
    ['change.expired', 'Approval window expired before it started.'],
  ] as const)('answers %s with one ADF comment on the issue', async (event, text) => {
    const { server, settings } = await cloud();
    const created = await jiraAdapter.send(ctx, settings, aTicketStep());
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep({ action: 'update', event, ticket: created.ticket! }));

    expect(answer).toEqual({ status: 201, calls: 1 });
    const req = server.requests[1]!;
    expect([req.method, req.url, req.headers.authorization]).toEqual(['POST', '/rest/api/3/issue/OPS-1/comment', basic('jane@example.com', 'atl-token-1')]);
    expect(req.body).toEqual({ body: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] } });
    expect(server.issues[0]!.comments).toHaveLength(1);
  });

  it('refuses an update without a ticket before calling Jira', async () => {
    const { server, settings } = await cloud();
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.started', ticket: null }));
    expect(answer).toEqual({ status: 400, error: 'no ticket to update: the step that opens it did not succeed', calls: 0 });
    expect(server.requests).toHaveLength(0);
  });

  it('reports a wrong token with the 401 Jira Cloud answers in plain text', async () => {
    const { settings } = await cloud({ apiToken: 'wrong' });
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep());
    expect(answer).toEqual({ status: 401, error: 'Jira answered 401: Client must be authenticated to access this resource.', calls: 1 });
  });

  it('says when Jira answered a wrong token as to an anonymous user', async () => {
    server = await startJiraServer({ deployment: 'cloud', email: 'jane@example.com', token: 'atl-token-1', anonymousOnBadCredentials: true });
    const settings: JiraTicketing = { kind: 'jira', baseUrl: server.url, deployment: 'cloud', email: 'jane@example.com', apiToken: 'revoked', projectKey: 'OPS', issueType: 'Change', labels: [] };
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep());
    expect(answer).toEqual({ status: 400, calls: 1, error: 'Jira answered 400: project: valid project is required (Jira did not accept the credentials and answered as to an anonymous user)' });
    const test = await jiraAdapter.probe(ctx, settings);
    expect(test.message).toBe('authenticate failed: Jira answered 401: Client must be authenticated to access this resource.');
  });

  it('reports an unknown project with Jira’s field error', async () => {
    const { settings } = await cloud({ projectKey: 'NOPE' });
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep());
    expect(answer).toEqual({ status: 400, error: 'Jira answered 400: project: valid project is required', calls: 1 });
  });

  it('reports a refused issue type with Jira’s field error', async () => {
    const { settings } = await cloud({ issueType: 'Epicc' });
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep());
    expect(answer).toEqual({ status: 400, error: 'Jira answered 400: issuetype: Specify a valid issue type', calls: 1 });
  });

  it('shortens a summary Jira would refuse as longer than 255 characters', async () => {
    const { server, settings } = await cloud();
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep({ summary: `[CHG-1a2b3c4d] ${'x'.repeat(300)}` }));
    expect(answer.status).toBe(201);
    const fields = (server.requests[0]!.body as { fields: { summary: string } }).fields;
    expect(fields.summary).toHaveLength(254);
    expect(fields.summary.endsWith('…')).toBe(true);
  });

  it('reports a comment on a missing issue with Jira’s 404 words', async () => {
    const { settings } = await cloud();
    const ticket: TicketRef = { kind: 'jira', id: '999', key: 'OPS-999', url: null };
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.started', ticket }));
    expect(answer).toEqual({ status: 404, error: 'Jira answered 404: Issue does not exist or you do not have permission to see it.', calls: 1 });
  });

  it('answers a 503 HTML page with the status alone and does not throw on the body', async () => {
    const { server, settings } = await cloud();
    server.failNext(503);
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep());
    expect(answer).toEqual({ status: 503, error: 'Jira answered 503', calls: 1 });
  });

  it('lets a network failure propagate from send', async () => {
    const { server, settings } = await cloud();
    server.hangNext();
    const impatient: AdapterContext = { client: createOutboundClient({ testOnlyAllowLoopback: true, timeoutMs: 200 }), allowPrivate: false };
    await expect(jiraAdapter.send(impatient, settings, aTicketStep())).rejects.toBeInstanceOf(OutboundFailed);
  });

  it('probes who answers and whether the project exists', async () => {
    const { server, settings } = await cloud();
    const test = await jiraAdapter.probe(ctx, settings);
    expect(test).toEqual({
      kind: 'jira', ok: true, message: 'Jira Cloud answered as Jane Doe; project OPS found',
      steps: [
        { name: 'authenticate', ok: true, status: 200, detail: 'as Jane Doe' },
        { name: 'project OPS', ok: true, status: 200, detail: 'OPS — Operations' },
      ],
    });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /rest/api/3/myself', 'GET /rest/api/3/project/OPS']);
  });

  it('probe: a bad token fails the first step and skips the project check', async () => {
    const { server, settings } = await cloud({ apiToken: 'wrong' });
    const test = await jiraAdapter.probe(ctx, settings);
    expect(test.ok).toBe(false);
    expect(test.steps).toEqual([{ name: 'authenticate', ok: false, status: 401, detail: 'Jira answered 401: Client must be authenticated to access this resource.' }]);
    expect(test.message).toBe('authenticate failed: Jira answered 401: Client must be authenticated to access this resource.');
    expect(server.requests).toHaveLength(1);
  });

  it('probe: an unknown project fails its step with Jira’s 404 words', async () => {
    const { settings } = await cloud({ projectKey: 'NOPE' });
    const test = await jiraAdapter.probe(ctx, settings);
    expect(test.ok).toBe(false);
    expect(test.steps[1]).toEqual({ name: 'project NOPE', ok: false, status: 404, detail: "Jira answered 404: No project could be found with key 'NOPE'." });
    expect(test.message).toBe("project NOPE failed: Jira answered 404: No project could be found with key 'NOPE'.");
  });

  it('probe: an unreachable or refused destination is a failed step, not a throw', async () => {
    const { settings } = await cloud({ baseUrl: 'http://10.1.2.3' });
    const test = await jiraAdapter.probe(ctx, settings);
    expect(test.ok).toBe(false);
    expect(test.steps).toEqual([{ name: 'authenticate', ok: false, status: null, detail: expect.stringMatching(/^refused: 10\.1\.2\.3 is a private/) }]);
  });
});

describe('Jira Data Center (REST v2, strings)', () => {
  it('creates the issue with a Bearer PAT and a plain description', async () => {
    const { server, settings } = await dataCenter();
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep());

    expect(answer.ticket).toEqual({ kind: 'jira', id: '10001', key: 'OPS-1', url: `${server.url}/browse/OPS-1` });
    const req = server.requests[0]!;
    expect([req.method, req.url, req.headers.authorization]).toEqual(['POST', '/rest/api/2/issue', 'Bearer pat-secret-1']);
    expect(req.body).toEqual({
      fields: {
        project: { key: 'OPS' }, summary: '[CHG-1a2b3c4d] Roll out checkout v2', issuetype: { name: 'Change' }, labels: [],
        description: ['Approved by 2 of 2 approvers.', 'Components: checkout, payments', 'Window: 2026-10-06 09:00–11:30 UTC', `Change: ${LINK}`].join('\n'),
      },
    });
  });

  it('comments with a string body', async () => {
    const { server, settings } = await dataCenter();
    const { ticket } = await jiraAdapter.send(ctx, settings, aTicketStep());
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.completed', ticket: ticket! }));
    expect(answer).toEqual({ status: 201, calls: 1 });
    expect(server.requests[1]!.url).toBe('/rest/api/2/issue/OPS-1/comment');
    expect(server.requests[1]!.body).toEqual({ body: 'Completed: outcome success.' });
  });

  it('reports a wrong PAT from the JSON 401', async () => {
    const { settings } = await dataCenter({ apiToken: 'nope' });
    const answer = await jiraAdapter.send(ctx, settings, aTicketStep());
    expect(answer).toEqual({ status: 401, error: 'Jira answered 401: Client must be authenticated to access this resource.', calls: 1 });
  });

  it('probes through v2 and names Data Center', async () => {
    const { server, settings } = await dataCenter();
    const test = await jiraAdapter.probe(ctx, settings);
    expect(test.message).toBe('Jira Data Center answered as Jane Doe; project OPS found');
    expect(server.requests.map((r) => r.url)).toEqual(['/rest/api/2/myself', '/rest/api/2/project/OPS']);
  });
});
