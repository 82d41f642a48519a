import { afterEach, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../../platform/net/outbound.js';
import { startServiceNowServer, type ServiceNowServer } from '../../../../test/support/vendors/servicenow-server.js';
import { aTicketChange, aTicketStep } from '../../../../test/support/vendors/ticket-steps.js';
import { closeCode, serviceNowAdapter, serviceNowDateTime, stateForStep } from './servicenow.js';
import type { AdapterContext, ServiceNowTicketing, TicketClose, TicketEvent, TicketRef } from './ticket-types.js';

const ctx: AdapterContext = { client: createOutboundClient({ testOnlyAllowLoopback: true }), allowPrivate: false };
const QUERY = 'sysparm_fields=sys_id,number,state&sysparm_input_display_value=false&sysparm_exclude_reference_link=true';
const BASIC = `Basic ${Buffer.from('svc-changeledger:s3cret!').toString('base64')}`;

let server: ServiceNowServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function instance(over: Partial<ServiceNowTicketing> = {}): Promise<{ server: ServiceNowServer; settings: ServiceNowTicketing }> {
  server = await startServiceNowServer({ username: 'svc-changeledger', password: 's3cret!' });
  return {
    server,
    settings: { kind: 'servicenow', instanceUrl: server.url, username: 'svc-changeledger', password: 's3cret!', changeType: 'normal', assignmentGroup: null, closeOnReport: true, ...over },
  };
}

/** A change request opened through the adapter; the create's request is forgotten. */
async function opened(over: Partial<ServiceNowTicketing> = {}): Promise<{ server: ServiceNowServer; settings: ServiceNowTicketing; ticket: TicketRef }> {
  const { server, settings } = await instance(over);
  const { ticket } = await serviceNowAdapter.send(ctx, settings, aTicketStep());
  server.requests.length = 0;
  return { server, settings, ticket: ticket! };
}

describe('ServiceNow: the mapping of steps onto the change model (pure)', () => {
  it.each<[string, 'create' | 'update', TicketEvent, 'normal' | 'standard', boolean, string | null]>([
    ['a normal change opens without a state', 'create', 'change.approved', 'normal', true, null],
    ['a normal change opened at start still opens without a state', 'create', 'change.started', 'normal', true, null],
    ['a standard change opens Scheduled at approval', 'create', 'change.approved', 'standard', true, '-2'],
    ['a standard change opened at start opens in Implement', 'create', 'change.started', 'standard', true, '-1'],
    ['started → Implement', 'update', 'change.started', 'normal', true, '-1'],
    ['completed → Review', 'update', 'change.completed', 'normal', true, '0'],
    ['aborted → Review (the close code tells how it went)', 'update', 'change.aborted', 'normal', true, '0'],
    ['reported → Closed with closeOnReport', 'update', 'change.reported', 'normal', true, '3'],
    ['reported → work note only without closeOnReport', 'update', 'change.reported', 'normal', false, null],
    ['cancelled → Canceled', 'update', 'change.cancelled', 'normal', true, '4'],
    ['expired → Canceled', 'update', 'change.expired', 'standard', true, '4'],
  ])('%s', (_rule, action, event, changeType, closeOnReport, state) => {
    expect(stateForStep({ action, event }, { changeType, closeOnReport })).toBe(state);
  });

  it.each<[string | null, string | null, string]>([
    ['success', 'none', 'successful'],
    ['success', null, 'successful'],
    ['success', 'unknown', 'successful'],
    [null, 'none', 'successful'],
    ['success', 'minor', 'successful_issues'],
    ['success', 'outage', 'successful_issues'],
    ['partial', 'none', 'successful_issues'],
    ['rolled_back', 'none', 'unsuccessful'],
    ['failed', 'minor', 'unsuccessful'],
    ['rolled_back', 'outage', 'unsuccessful'],
  ])('outcome %s with impact %s closes as %s', (outcome, impact, code) => {
    expect(closeCode({ reason: 'reported', outcome, impact })).toBe(code);
  });

  it('writes dates in ServiceNow’s UTC format', () => {
    expect(serviceNowDateTime('2026-10-06T11:30:00.000+02:00')).toBe('2026-10-06 09:30:00');
    expect(serviceNowDateTime('not a date')).toBeNull();
  });
});

describe('ServiceNow: creating the change request', () => {
  it('opens a normal change without a state, with the window in UTC and the step line as first work note', async () => {
    const { server, settings } = await instance({ assignmentGroup: '287ebd7da9fe198100f92cc8d1d2154e' });
    const answer = await serviceNowAdapter.send(ctx, settings, aTicketStep());

    const rec = server.records[0]!;
    expect(answer).toEqual({
      status: 201, calls: 1,
      ticket: { kind: 'servicenow', id: rec.sys_id, key: 'CHG0030001', url: `${server.url}/nav_to.do?uri=change_request.do?sys_id=${rec.sys_id}` },
    });
    const req = server.requests[0]!;
    expect([req.method, req.url, req.headers.authorization]).toEqual(['POST', `/api/now/table/change_request?${QUERY}`, BASIC]);
    expect(req.body).toEqual({
      short_description: '[CHG-1a2b3c4d] Roll out checkout v2',
      description: ['Components: checkout, payments', 'Window: 2026-10-06 09:00–11:30 UTC', `Change: ${aTicketChange().links.change}`].join('\n'),
      type: 'normal', impact: '2', correlation_id: 'chg_01927c3a5b6d7e8f9a0b1c2d3e4f5a6b', correlation_display: 'changeledger',
      work_notes: 'Approved by 2 of 2 approvers.', assignment_group: '287ebd7da9fe198100f92cc8d1d2154e',
      start_date: '2026-10-06 09:00:00', end_date: '2026-10-06 11:30:00',
    });
    expect(rec.state).toBe('-5');
    expect(rec.workNotes).toEqual(['Approved by 2 of 2 approvers.']);
  });

  it.each([['critical', '1'], ['important', '2'], ['standard', '3'], [null, '3']] as const)('sets impact from criticality %s → %s', async (criticality, impact) => {
    const { server, settings } = await instance();
    await serviceNowAdapter.send(ctx, settings, aTicketStep({ change: aTicketChange({ criticality }) }));
    expect((server.requests[0]!.body as { impact: string }).impact).toBe(impact);
    expect(server.requests[0]!.body).not.toHaveProperty('assignment_group');
  });

  it.each([['change.approved', '-2'], ['change.started', '-1']] as const)('opens a standard change at %s in state %s', async (event, state) => {
    const { server, settings } = await instance({ changeType: 'standard' });
    const answer = await serviceNowAdapter.send(ctx, settings, aTicketStep({ event }));
    expect(answer.note).toBeUndefined();
    expect(server.requests[0]!.body).toMatchObject({ type: 'standard', state });
    expect(server.records[0]!.state).toBe(state);
  });

  it('reports a wrong password with ServiceNow’s 401 words', async () => {
    const { settings } = await instance({ password: 'nope' });
    expect(await serviceNowAdapter.send(ctx, settings, aTicketStep())).toEqual({ status: 401, error: 'ServiceNow answered 401: User Not Authenticated: Required to provide Auth information', calls: 1 });
  });

  it('reports a refused record with the data policy’s words, as a final failure', async () => {
    const { settings } = await instance();
    const answer = await serviceNowAdapter.send(ctx, settings, aTicketStep({ summary: '' }));
    expect(answer).toEqual({ status: 403, error: 'ServiceNow answered 403: Operation Failed: Data Policy Exception: The following fields are mandatory: Short description', calls: 1 });
  });

  it('answers a 503 with the instance’s own words', async () => {
    const { server, settings } = await instance();
    server.failNext(503);
    expect(await serviceNowAdapter.send(ctx, settings, aTicketStep())).toEqual({ status: 503, error: 'ServiceNow answered 503: Instance unavailable: The instance is hibernating or under maintenance', calls: 1 });
  });
});

describe('ServiceNow: updates follow the mapping', () => {
  const reported = (outcome: string, impact: string | null): TicketClose => ({ reason: 'reported', outcome, impact });

  it.each<[TicketEvent, TicketClose | null, Record<string, string>]>([
    ['change.started', null, { state: '-1' }],
    ['change.completed', null, { state: '0' }],
    ['change.aborted', null, { state: '0' }],
    ['change.reported', reported('success', 'none'), { state: '3', close_code: 'successful' }],
    ['change.reported', reported('partial', 'none'), { state: '3', close_code: 'successful_issues' }],
    ['change.reported', reported('success', 'minor'), { state: '3', close_code: 'successful_issues' }],
    ['change.reported', reported('rolled_back', 'outage'), { state: '3', close_code: 'unsuccessful' }],
    ['change.cancelled', { reason: 'cancelled' }, { state: '4' }],
    ['change.expired', { reason: 'expired' }, { state: '4' }],
  ])('%s (%j) PATCHes %j with its work note', async (event, close, fields) => {
    const { server, settings, ticket } = await opened({ changeType: 'standard' });
    const step = aTicketStep({ action: 'update', event, close, ticket });
    const answer = await serviceNowAdapter.send(ctx, settings, step);

    expect(answer).toEqual({ status: 200, calls: 1 });
    const req = server.requests[0]!;
    expect([req.method, req.url, req.headers.authorization]).toEqual(['PATCH', `/api/now/table/change_request/${ticket.id}?${QUERY}`, BASIC]);
    const closeNotes = fields.state === '3' || fields.state === '4' ? { close_notes: step.text } : {};
    expect(req.body).toEqual({ work_notes: step.text, ...fields, ...closeNotes });
    expect(server.records[0]!.state).toBe(fields.state);
    expect(server.records[0]!.workNotes.at(-1)).toBe(step.text);
  });

  it('writes the report as a work note alone when closeOnReport is off', async () => {
    const { server, settings, ticket } = await opened({ changeType: 'standard', closeOnReport: false });
    const answer = await serviceNowAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.reported', close: reported('success', 'none'), ticket }));
    expect(answer).toEqual({ status: 200, calls: 1 });
    expect(server.requests[0]!.body).toEqual({ work_notes: 'Surveillance report: impact none, outcome success.' });
    expect(server.records[0]!.state).toBe('-2');
  });

  it('a normal change awaiting CAB keeps its state: the work note goes alone in a second PATCH, noted, not failed', async () => {
    const { server, settings, ticket } = await opened();
    const step = aTicketStep({ action: 'update', event: 'change.started', ticket });
    const answer = await serviceNowAdapter.send(ctx, settings, step);

    expect(answer).toEqual({ status: 200, calls: 2, note: 'state not changed: ServiceNow kept New (business rule "Change Model: Check State Transition" refused Implement)' });
    expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['PATCH', `/api/now/table/change_request/${ticket.id}?${QUERY}`, { work_notes: step.text, state: '-1' }],
      ['PATCH', `/api/now/table/change_request/${ticket.id}?${QUERY}`, { work_notes: step.text }],
    ]);
    expect(server.records[0]!.state).toBe('-5');
    // The refused update saved nothing, so the note is there once.
    expect(server.records[0]!.workNotes).toEqual(['Approved by 2 of 2 approvers.', step.text]);
  });

  it('a report on a normal change still in Authorize writes its note and leaves the change open', async () => {
    const { server, settings, ticket } = await opened();
    server.setState(ticket.id, '-3');
    const answer = await serviceNowAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.reported', close: reported('success', 'none'), ticket }));
    expect(answer).toMatchObject({ status: 200, calls: 2, note: 'state not changed: ServiceNow kept Authorize (business rule "Change Model: Check State Transition" refused Closed)' });
    expect(server.records[0]!.close_code).toBe('');
  });

  it('once CAB authorised the normal change, the steps move it through Implement, Review and Closed', async () => {
    const { server, settings, ticket } = await opened();
    server.setState(ticket.id, '-2');
    for (const [event, close] of [['change.started', null], ['change.completed', null], ['change.reported', reported('success', 'none')]] as const) {
      const answer = await serviceNowAdapter.send(ctx, settings, aTicketStep({ action: 'update', event, close, ticket }));
      expect(answer).toEqual({ status: 200, calls: 1 });
    }
    expect(server.records[0]).toMatchObject({ state: '3', close_code: 'successful', close_notes: 'Surveillance report: impact none, outcome success.' });
  });

  it('a normal change awaiting CAB can still be cancelled', async () => {
    const { server, settings, ticket } = await opened();
    const answer = await serviceNowAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.cancelled', close: { reason: 'cancelled' }, ticket }));
    expect(answer).toEqual({ status: 200, calls: 1 });
    expect(server.records[0]!.state).toBe('4');
  });

  it('an instance that keeps the state and answers 200 gets no second PATCH: its note was saved', async () => {
    const { server, settings, ticket } = await opened();
    server.keepStateSilently(true);
    const step = aTicketStep({ action: 'update', event: 'change.started', ticket });
    const answer = await serviceNowAdapter.send(ctx, settings, step);
    expect(answer).toEqual({ status: 200, calls: 1, note: 'state not changed: ServiceNow kept New (asked for Implement)' });
    expect(server.records[0]!.workNotes).toEqual(['Approved by 2 of 2 approvers.', step.text]);
  });

  it('a refusal of the work note itself is the step’s failure', async () => {
    const { server, settings, ticket } = await opened();
    server.failNext(403);
    server.failNext(429);
    const answer = await serviceNowAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.started', ticket }));
    expect(answer).toEqual({ status: 429, calls: 2, error: 'ServiceNow answered 429: Rate limit exceeded: Too many requests for this user; retry after the interval in Retry-After' });
  });

  it('a 5xx on the state update is answered as is, for the retry rule', async () => {
    const { server, settings, ticket } = await opened({ changeType: 'standard' });
    server.failNext(503);
    const answer = await serviceNowAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.started', ticket }));
    expect(answer).toMatchObject({ status: 503, calls: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('reports a change request that is gone', async () => {
    const { settings } = await instance();
    const ticket: TicketRef = { kind: 'servicenow', id: 'ffffffffffffffffffffffffffffffff', key: 'CHG0099999', url: null };
    const answer = await serviceNowAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.completed', ticket }));
    expect(answer).toEqual({ status: 404, calls: 1, error: "ServiceNow answered 404: No Record found: Record doesn't exist or ACL restricts the record retrieval" });
  });

  it('refuses an update without a ticket before calling ServiceNow', async () => {
    const { server, settings } = await instance();
    expect(await serviceNowAdapter.send(ctx, settings, aTicketStep({ action: 'update', event: 'change.completed' }))).toEqual({ status: 400, error: 'no ticket to update: the step that opens it did not succeed', calls: 0 });
    expect(server.requests).toHaveLength(0);
  });
});

describe('ServiceNow: probe', () => {
  it('reads one change request and writes nothing', async () => {
    const { server, settings } = await instance();
    const test = await serviceNowAdapter.probe(ctx, settings);
    expect(test).toEqual({
      kind: 'servicenow', ok: true, message: 'ServiceNow answered as svc-changeledger; the change_request table is readable',
      steps: [{ name: 'read change requests', ok: true, status: 200, detail: 'as svc-changeledger' }],
    });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/now/table/change_request?sysparm_limit=1&sysparm_fields=sys_id,number']);
    expect(server.records).toHaveLength(0);
  });

  it('fails on a wrong password with ServiceNow’s words', async () => {
    const { settings } = await instance({ password: 'nope' });
    const test = await serviceNowAdapter.probe(ctx, settings);
    expect(test).toMatchObject({ ok: false, message: 'read change requests failed: ServiceNow answered 401: User Not Authenticated: Required to provide Auth information' });
  });
});
