import { afterEach, describe, expect, it } from 'vitest';
import { createOutboundClient, OutboundRefused } from '../../../platform/net/outbound.js';
import { startAsanaServer } from '../../../../test/support/vendors/asana-server.js';
import type { VendorControls } from '../../../../test/support/vendors/vendor-server.js';
import { startWebhookServer } from '../../../../test/support/vendors/webhook-server.js';
import { aTicketStep } from '../../../../test/support/vendors/ticket-steps.js';
import { adapterFor, probe, sendStep } from './adapters.js';
import { asanaAdapter } from './asana.js';
import { jiraAdapter } from './jira.js';
import { serviceNowAdapter } from './servicenow.js';
import { TICKET_KINDS, type AdapterContext } from './ticket-types.js';
import { webhookAdapter } from './webhook.js';

const ctx: AdapterContext = { client: createOutboundClient({ testOnlyAllowLoopback: true }), allowPrivate: false };
const servers: VendorControls[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('ticket adapter registry', () => {
  it('has one adapter per ticket kind', () => {
    expect(TICKET_KINDS.map((k) => adapterFor(k))).toEqual([jiraAdapter, asanaAdapter, serviceNowAdapter, webhookAdapter]);
  });

  it('sends a step to the destination the settings name', async () => {
    const receiver = await startWebhookServer();
    const asana = await startAsanaServer({ token: 't' });
    servers.push(receiver, asana);

    const viaWebhook = await sendStep(ctx, { kind: 'webhook', url: receiver.url, secret: 'webhook-secret-0123456789' }, aTicketStep());
    const viaAsana = await sendStep(ctx, { kind: 'asana', apiUrl: asana.url, token: 't', workspaceGid: '1200000000000010', projectGid: '1200000000000100', completeOnReport: false }, aTicketStep());

    expect(viaWebhook.ticket?.kind).toBe('webhook');
    expect(viaAsana.ticket?.kind).toBe('asana');
    expect([receiver.requests.length, asana.requests.length]).toEqual([1, 1]);
  });

  it('lets the guard’s refusal propagate from sendStep, and reports it from probe', async () => {
    const settings = { kind: 'servicenow', instanceUrl: 'http://169.254.169.254', username: 'u', password: 'p', changeType: 'normal', assignmentGroup: null, closeOnReport: true } as const;
    await expect(sendStep(ctx, settings, aTicketStep())).rejects.toBeInstanceOf(OutboundRefused);
    const test = await probe(ctx, settings);
    expect(test).toMatchObject({ kind: 'servicenow', ok: false, steps: [{ ok: false, status: null, detail: expect.stringContaining('metadata') }] });
  });
});
