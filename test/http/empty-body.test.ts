import { afterAll, beforeAll, expect, it } from 'vitest';
import { listAuditEvents } from '../../src/domains/ledger/index.js';
import { describeEachEngine } from '../support/engines.js';
import { countRows, createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../support/test-app.js';

type Doc = { paths: Record<string, Record<string, unknown>> };

const ESTATE = 'entities:\n  - { key: "svc:web", kind: service, name: web, tier: standard }\n';

describeEachEngine('an empty JSON body is no body: every action route takes it as {}', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: string;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Empty');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    const s = await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { approvalRequired: 'none' } });
    expect(s.statusCode, s.body).toBe(200);
    token = (await createToken(t, owner, ['changes:read', 'changes:write'], 'pipeline')).secret;
  });
  afterAll(async () => t.close());

  /** What a pipeline's `curl -X POST -H 'content-type: application/json'` sends: the header and no body. */
  const pipelinePost = (url: string, payload = '') =>
    t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload });

  it('starts and completes a change with the JSON header and no body, audited', async () => {
    const registered = await t.pipeline.inject({ method: 'POST', url: '/api/changes', headers: { authorization: `Bearer ${token}` }, payload: { title: 'Deploy web', components: [{ query: 'web' }] } });
    expect(registered.statusCode, registered.body).toBe(201);
    const id = registered.json().change.id as string;
    expect(registered.json().change.status).toBe('scheduled');

    const started = await pipelinePost(`/api/changes/${id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().change.status).toBe('active');
    const completed = await pipelinePost(`/api/changes/${id}/complete`, ' \n');
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json().change).toMatchObject({ status: 'evaluating', outcome: 'success' });

    const actions = (await listAuditEvents(engine.db(), owner.org.id, { targetType: 'change', targetId: id }, 50)).items.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['change.started', 'change.completed']));
  });

  it('a refused complete says "complete", a refused finish says "finish": the word of the route called', async () => {
    const registered = await t.pipeline.inject({ method: 'POST', url: '/api/changes', headers: { authorization: `Bearer ${token}` }, payload: { title: 'Not started', components: [{ query: 'web' }] } });
    const id = registered.json().change.id as string;
    const before = await countRows(engine.db());
    const complete = await pipelinePost(`/api/changes/${id}/complete`);
    expect(complete.statusCode, complete.body).toBe(409);
    expect(complete.json()).toMatchObject({ status: 'scheduled' });
    expect(complete.json().error).toMatch(/^cannot complete a change that is scheduled/);
    const finish = await pipelinePost(`/api/changes/${id}/finish`);
    expect(finish.json().error).toMatch(/^cannot finish a change that is scheduled/);
    const abort = await pipelinePost(`/api/changes/${id}/abort`);
    expect(abort.json().error).toMatch(/^cannot abort a change that is scheduled/);
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('no route of the OpenAPI document answers "Body cannot be empty" or a 5xx to the JSON header and no body', async () => {
    const doc = (await t.main.inject({ url: '/api/openapi.json' })).json() as Doc;
    const bad: string[] = [];
    let tried = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        if (method !== 'post' && method !== 'put' && method !== 'delete') continue;
        // Signing out rightly writes; it is not an input case.
        if (method === 'delete' && path === '/api/session') continue;
        const url = path.replace('{id}', path.startsWith('/api/organizations/') ? owner.org.id : 'x').replace(/\{[A-Za-z]+\}/g, 'x');
        for (const payload of ['', '   ']) {
          tried += 1;
          const res = await t.main.inject({ method: method.toUpperCase() as 'POST', url, headers: { ...owner.headers, 'content-type': 'application/json' }, payload });
          if (res.statusCode >= 500 || /body cannot be empty/i.test(res.body) || /Unexpected end of JSON/i.test(res.body)) bad.push(`${method.toUpperCase()} ${url} ${JSON.stringify(payload)} → ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(bad).toEqual([]);
    expect(tried).toBeGreaterThan(40);
  });

  it('still refuses a body that is not JSON', async () => {
    const res = await pipelinePost('/api/changes/x/complete', '{"outcome":');
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().error).toBe('string');
  });
});
