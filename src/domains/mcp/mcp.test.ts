import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { anObserved } from '../../../test/support/observed.js';
import { pipelineOrganization } from '../../../test/support/pipeline-org.js';
import { createToken, type SignedIn, type TestApp, testApp } from '../../../test/support/test-app.js';
import { cliEntry } from '../../../test/support/spawn-server.js';
import { SettableClock } from '../../platform/clock.js';
import { packageRoot } from '../../platform/paths.js';

const ESTATE = `
format: changeledger/catalogue/1
entities:
  - { key: "svc:web", kind: service, name: web, tier: important }
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: critical }
  - { key: "svc:payments", kind: service, name: payments }
  - { key: "svc:search", kind: service, name: search }
  - { key: "svc:fraud", kind: service, name: fraud, tier: standard }
links:
  - { from: "svc:web", to: "svc:checkout-api", via: calls }
  - { from: "svc:checkout-api", to: "svc:payments", via: calls }
  - { from: "svc:payments", to: "svc:fraud", via: calls }
`;
const PUBLIC_URL = 'https://changes.acme.dev';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('MCP: the SDK client over Streamable HTTP and over stdio', (engine) => {
  const clock = new SettableClock(new Date('2026-12-04T10:00:00Z'));
  let t: TestApp;
  let owner: SignedIn;
  let alice: SignedIn;
  let mia: SignedIn;
  let token: string;
  let readOnly: string;
  let pipelineBase: string;
  const clients: Client[] = [];

  const connectHttp = async (secret: string) => {
    const client = new Client({ name: 'changeledger-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${pipelineBase}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Json) => (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Json; content: Array<{ type: string; text: string }> };
  const eventCount = async () => (await engine.db().query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events WHERE org_id = $1', [owner.org.id])).rows[0]!.n;

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock, publicUrl: PUBLIC_URL });
    ({ owner, alice, mia, token } = await pipelineOrganization(t, 'MCP', ESTATE));
    readOnly = (await createToken(t, mia, ['changes:read'], 'assistant')).secret;
    const pipe = (url: string, payload: Json) => t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });
    // Planned: payments at 09:20 (near), search at 09:40 (not a neighbour), checkout-api a day before (outside the window).
    for (const [title, component, start] of [['Deploy payments 7.1', 'payments', '2026-12-04T09:20:00Z'], ['Reindex search', 'search', '2026-12-04T09:40:00Z'], ['Old checkout deploy', 'checkout-api', '2026-12-03T09:00:00Z']] as const) {
      const end = new Date(new Date(start).getTime() + 30 * 60_000).toISOString();
      clock.set(new Date(new Date(start).getTime() - 60_000));
      const r = await pipe('/api/changes', { title, kind: 'deploy', components: [{ query: component }], windowStart: start, windowEnd: end, draft: true });
      expect(r.statusCode, r.body).toBe(201);
    }
    // A flag owned by checkout-api, created at 09:50 and turned on at 09:51.
    const api = (method: 'POST' | 'PUT', url: string, payload: Json) => t.main.inject({ method, url, headers: owner.headers, payload });
    clock.set(new Date('2026-12-04T09:50:00Z'));
    expect((await api('POST', '/api/flags', { key: 'checkout.new-flow', type: 'boolean', risk: 'low', ownerService: 'svc:checkout-api' })).statusCode).toBe(201);
    clock.set(new Date('2026-12-04T09:51:00Z'));
    expect((await api('PUT', '/api/flags/checkout.new-flow/environments/production', { enabled: true, reason: 'canary' })).statusCode).toBe(200);
    // Seen, not registered: a kubectl edit of payments at 09:45 that nothing vouches for.
    await anObserved(engine.db(), owner.org.id, {
      source: 'kubernetes', kind: 'k8s_write', title: 'deployment payments patched', occurredAt: '2026-12-04T09:45:00.000Z', services: ['payments'], authorized: false,
      principal: { kind: 'person', name: 'dana@acme.dev', id: null, detail: {} }, link: 'https://k8s.acme.dev/audit/1',
    });
    clock.set(new Date('2026-12-04T10:00:00Z'));
    pipelineBase = await t.pipeline.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t.close();
  });

  it('lists the tools a token’s scopes allow, each with a JSON Schema input and output', async () => {
    const full = await connectHttp(token);
    const names = (await full.listTools()).tools.map((x) => x.name).sort();
    expect(names).toEqual(['blast_radius', 'change_status', 'register_change', 'what_changed']);
    const reader = await connectHttp(readOnly);
    const listed = (await reader.listTools()).tools;
    expect(listed.map((x) => x.name).sort()).toEqual(['blast_radius', 'change_status', 'what_changed']);
    const wc = listed.find((x) => x.name === 'what_changed')!;
    expect(wc.inputSchema).toMatchObject({ type: 'object', required: ['entity'] });
    expect(wc.outputSchema).toMatchObject({ type: 'object' });
    expect(wc.annotations).toMatchObject({ readOnlyHint: true });
    // A tool the token does not see is refused with the scope it needs, and nothing is written.
    const before = await eventCount();
    const refused = await call(reader, 'register_change', { title: 'x', components: ['web'] });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain('changes:write');
    expect(await eventCount()).toBe(before);
  });

  it('what_changed finds planned changes and flag writes around an entity and its neighbours, newest first, with what is never captured', async () => {
    const client = await connectHttp(token);
    const r = await call(client, 'what_changed', { entity: 'checkout-api', before: '60m', after: '15m', hops: 1 });
    expect(r.isError).toBeFalsy();
    const a = r.structuredContent!;
    expect(a.entity).toMatchObject({ key: 'svc:checkout-api', name: 'checkout-api' });
    expect(a.searched).toEqual(expect.arrayContaining(['svc:checkout-api', 'svc:payments', 'svc:web']));
    expect(a.searched).not.toContain('svc:search');
    const titles = a.changes.map((c: Json) => c.title);
    expect(titles).toEqual(['checkout.new-flow in production: enabled false → true', 'checkout.new-flow created', 'deployment payments patched', 'Deploy payments 7.1']);
    expect(titles).not.toContain('Reindex search');
    expect(titles).not.toContain('Old checkout deploy');
    const flag = a.changes.find((c: Json) => c.origin === 'flag' && c.title.includes('production'));
    expect(flag).toMatchObject({ relation: 'entity', link: `${PUBLIC_URL}/flags/checkout.new-flow`, who: { kind: 'person' } });
    const planned = a.changes.find((c: Json) => c.title === 'Deploy payments 7.1');
    expect(planned).toMatchObject({ origin: 'planned', relation: 'neighbour', touches: ['svc:payments'], status: 'draft', verdict: null, window: { start: '2026-12-04T09:20:00.000Z' } });
    expect(planned.id).toMatch(/^CHG-[0-9A-F]{8}$/);
    const seen = a.changes.find((c: Json) => c.origin === 'observed');
    expect(seen).toMatchObject({ title: 'deployment payments patched', authorized: false, relation: 'neighbour', touches: ['payments'], who: { name: 'dana@acme.dev' }, link: 'https://k8s.acme.dev/audit/1', approval: null });
    expect(planned.link).toMatch(new RegExp(`^${PUBLIC_URL}/\\?view=changes&change=chg_`));
    expect(a.changes.map((c: Json) => c.at)).toEqual([...a.changes.map((c: Json) => c.at)].sort().reverse());
    expect(a.neverCaptured.length).toBeGreaterThan(0);

    // hops 0: the entity alone. The payments deploy stays, because its own blast radius reaches checkout-api.
    const alone = (await call(client, 'what_changed', { entity: 'svc:checkout-api', hops: 0 })).structuredContent!;
    expect(alone.searched).toEqual(['svc:checkout-api']);
    expect(alone.changes.find((c: Json) => c.title === 'Deploy payments 7.1')).toMatchObject({ relation: 'blast_radius', touches: [] });
    const web = (await call(client, 'what_changed', { entity: 'web', hops: 0 })).structuredContent!;
    expect(web.changes.map((c: Json) => c.title)).not.toContain('Deploy payments 7.1');
    // Earlier: the day-old deploy, and an empty answer still says what cannot be seen.
    const dayBefore = (await call(client, 'what_changed', { entity: 'checkout-api', around: '2026-12-03T09:10:00Z', hops: 0 })).structuredContent!;
    expect(dayBefore.changes.map((c: Json) => c.title)).toEqual(['Old checkout deploy']);
    const empty = (await call(client, 'what_changed', { entity: 'fraud', around: '2026-11-01T00:00:00Z', hops: 0 })).structuredContent!;
    expect(empty.changes).toEqual([]);
    expect(empty.note).toMatch(/cannot see/);
    expect(empty.neverCaptured.length).toBeGreaterThan(0);
  });

  it('bad arguments are refused naming the field, and an unknown entity names the catalogue', async () => {
    const client = await connectHttp(token);
    const hops = await call(client, 'what_changed', { entity: 'web', hops: 5 });
    expect(hops.isError).toBe(true);
    expect(hops.content[0]!.text).toMatch(/hops/i);
    const unknown = await call(client, 'what_changed', { entity: 'web', colour: 'red' });
    expect(unknown.content[0]!.text).toBe('colour is not an argument of what_changed (field: colour)');
    const around = await call(client, 'what_changed', { entity: 'web', around: 'yesterday' });
    expect(around.content[0]!.text).toMatch(/^around must be "now" or an ISO-8601 time/);
    const missing = await call(client, 'what_changed', { entity: 'no-such-service' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toMatch(/no service or asset "no-such-service" in the catalogue/);
  });

  it('change_status, blast_radius and register_change answer as the API does; registering never approves', async () => {
    const client = await connectHttp(token);
    const before = await eventCount();
    const reg = await call(client, 'register_change', { title: 'Deploy checkout 4.2', kind: 'deploy', components: ['checkout-api'], maxDurationMinutes: 30 });
    expect(reg.isError, reg.content[0]?.text).toBeFalsy();
    const made = reg.structuredContent!;
    expect(made.id).toMatch(/^CHG-/);
    expect(made.status).toBe('pending_approval');
    expect(await eventCount()).toBeGreaterThan(before);
    const row = (await engine.db().query<{ status: string; owner_id: string }>('SELECT status, owner_id FROM changes WHERE id = $1', [made.changeId])).rows[0]!;
    expect(row).toEqual({ status: 'pending_approval', owner_id: mia.user.id });

    const status = (await call(client, 'change_status', { id: made.id })).structuredContent!;
    expect(status).toMatchObject({ status: 'pending_approval' });
    const gone = await call(client, 'change_status', { id: 'CHG-00000000' });
    expect(gone.isError).toBe(true);
    expect(gone.content[0]!.text).toMatch(/no change CHG-00000000/);

    const blast = (await call(client, 'blast_radius', { components: ['checkout-api'], hops: 1 })).structuredContent!;
    expect(blast.resolved).toEqual([expect.objectContaining({ key: 'svc:checkout-api' })]);
    expect(blast.services).toEqual(expect.arrayContaining(['svc:checkout-api', 'svc:payments', 'svc:web']));
    expect(blast.criticality).toBe('critical');
  });

  it('the reports are resources, and an assistant on stdio (changeledger mcp) sees the same tools through the server', async () => {
    const client = await connectHttp(token);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((x) => x.uriTemplate)).toEqual(['changeledger://changes/{id}/report']);
    const draft = (await engine.db().query<{ id: string }>("SELECT id FROM changes WHERE org_id = $1 AND title = 'Reindex search'", [owner.org.id])).rows[0]!.id;
    await expect(client.readResource({ uri: `changeledger://changes/${draft}/report` })).rejects.toThrow(/no report yet/);

    const stdio = new Client({ name: 'changeledger-stdio-test', version: '1.0.0' });
    await stdio.connect(new StdioClientTransport({
      command: process.execPath, args: [...cliEntry(), 'mcp', '--server', pipelineBase],
      env: { PATH: process.env.PATH ?? '', CHANGELEDGER_TOKEN: readOnly }, cwd: packageRoot, stderr: 'pipe',
    }));
    clients.push(stdio);
    expect((await stdio.listTools()).tools.map((x) => x.name).sort()).toEqual(['blast_radius', 'change_status', 'what_changed']);
    const r = (await stdio.callTool({ name: 'what_changed', arguments: { entity: 'payments', hops: 0 } })) as { structuredContent: Json };
    expect(r.structuredContent.changes.find((c: Json) => c.title === 'Deploy payments 7.1')).toMatchObject({ relation: 'entity', touches: ['svc:payments'] });
  });

  it('a finished change’s report is listed as a resource and read as text', async () => {
    const pipe = (url: string, payload: Json) => t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });
    const r = await pipe('/api/changes', { title: 'Deploy fraud 2.0', components: [{ query: 'fraud' }], startNow: true, autoStart: true, evidenceMinutes: 15 });
    expect(r.statusCode, r.body).toBe(201);
    const { id, displayId } = r.json().change as { id: string; displayId: string };
    const approved = await t.main.inject({ method: 'POST', url: `/api/changes/${id}/approve`, headers: alice.headers, payload: {} });
    expect(approved.statusCode, approved.body).toBe(200);
    clock.advance(5 * 60_000);
    const status = await t.pipeline.inject({ method: 'GET', url: `/api/changes/${id}`, headers: { authorization: `Bearer ${token}` } });
    if (status.json().change.status !== 'active') { const s = await pipe(`/api/changes/${id}/start`, {}); expect(s.statusCode, `${status.json().change.status}: ${s.body}`).toBe(200); }
    const done = await pipe(`/api/changes/${id}/complete`, { outcome: 'success' });
    expect(done.statusCode, done.body).toBe(200);
    clock.advance(15 * 60_000);
    while ((await t.services.worker.runOnce()) > 0);

    const client = await connectHttp(readOnly);
    const listed = (await client.listResources()).resources;
    const uri = `changeledger://changes/${displayId}/report`;
    expect(listed).toEqual([expect.objectContaining({ uri, mimeType: 'text/plain', title: `${displayId} · Deploy fraud 2.0` })]);
    const read = await client.readResource({ uri });
    const text = (read.contents[0] as { text: string }).text;
    expect(text).toContain('Deploy fraud 2.0');
    expect(text).toMatch(/Impact unknown/i);
  });

  it('flag_history and audit_query read the ledger for a token with flags:read and audit:read', async () => {
    const auditor = (await createToken(t, owner, ['flags:read', 'audit:read'], 'auditor')).secret;
    const client = await connectHttp(auditor);
    expect((await client.listTools()).tools.map((x) => x.name).sort()).toEqual(['audit_query', 'flag_history']);
    const one = (await call(client, 'flag_history', { key: 'checkout.new-flow' })).structuredContent!;
    expect(one.records.map((r: Json) => [r.change, r.env, r.from, r.to])).toEqual([['updated', 'production', false, true], ['created', null, '(absent)', false]]);
    expect(one.records[0]).toMatchObject({ reason: 'canary', who: owner.user.email });
    const ns = (await call(client, 'flag_history', { namespace: 'checkout.*', since: '2026-12-04T09:00:00Z' })).structuredContent!;
    expect(ns.records).toHaveLength(2);
    const both = await call(client, 'flag_history', { key: 'checkout.new-flow', namespace: 'checkout.*' });
    expect(both.content[0]!.text).toBe('give either key or namespace (field: namespace)');

    const events = (await call(client, 'audit_query', { action: 'flag.', target: 'checkout.new-flow' })).structuredContent!;
    expect(events.events.map((e: Json) => e.action)).toEqual(['flag.updated', 'flag.created']);
    expect(events.events[0]).toMatchObject({ actor: { name: owner.user.email }, target: { type: 'flag', id: 'checkout.new-flow' } });
    const byToken = (await call(client, 'audit_query', { actor: `token "pipeline" of ${mia.user.email}`, action: 'change.registered' })).structuredContent!;
    expect(byToken.events.map((e: Json) => e.data.title ?? e.target.id)).toEqual(expect.arrayContaining(['Deploy payments 7.1', 'Reindex search']));
    expect(byToken.events.every((e: Json) => e.actor.kind === 'token')).toBe(true);
    const byPerson = (await call(client, 'audit_query', { actor: owner.user.email, action: 'change.' })).structuredContent!;
    expect(byPerson.events).toEqual([]);
    const bad = await call(client, 'audit_query', { since: 'last week' });
    expect(bad.content[0]!.text).toMatch(/^since must be a duration such as 1h or 7d, or an ISO-8601 time/);
  });

  it('the HTTP endpoint wants a token, and is stateless: GET and DELETE answer 405', async () => {
    const none = await fetch(`${pipelineBase}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(none.status).toBe(401);
    const get = await fetch(`${pipelineBase}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await t.main.inject({ method: 'POST', url: '/mcp', headers: owner.headers, payload: {} })).statusCode).toBe(404);
  });
});
