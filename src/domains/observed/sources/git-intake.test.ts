import { sign } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../../test/support/engines.js';
import { addChangeSource } from '../../../../test/support/observed-intake.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../../test/support/test-app.js';
import { SettableClock } from '../../../platform/clock.js';

/**
 * GitHub and GitLab webhooks through the pipeline listener and the real intake, on both engines:
 * what a sender sees (status, body) and what is stored (rows, receipts, audit), nothing on a 4xx.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const T0 = new Date('2026-03-02T10:00:00.000Z');
const repository = { full_name: 'acme/checkout', default_branch: 'main', html_url: 'https://github.com/acme/checkout' };
const sender = { login: 'alice', id: 7, type: 'User' };
const pushBody = (ref = 'refs/heads/main') => ({
  ref, before: '1111111111', after: '2222222222', deleted: false, forced: false, compare: 'https://github.com/acme/checkout/compare/1111111111...2222222222',
  commits: [{ id: '2222222222', message: 'Fix the cart', timestamp: '2026-03-02T09:58:00Z', added: [], removed: [], modified: ['cart.ts'] }],
  head_commit: { id: '2222222222', message: 'Fix the cart', timestamp: '2026-03-02T09:58:00Z' }, repository, sender, pusher: { name: 'alice', email: 'alice@example.com' },
});

describeEachEngine('GitHub and GitLab webhooks through the intake', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const rows = async (sourceId: string) => (await t.services.db.query<Json>('SELECT event_id, kind, title, link, location, change_ref FROM observed_changes WHERE source_id = $1 ORDER BY event_id', [sourceId])).rows;
  const counters = async (id: string) => (await t.services.db.query<Json>('SELECT recorded, duplicate, ignored, rejected, receipts FROM change_sources WHERE id = $1', [id])).rows[0]!;
  const raw = (payload: unknown, headers: Record<string, string>, url: string) => t.pipeline.inject({ method: 'POST', url, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...headers } });
  async function github(sourceId: string, secret: string, event: string, body: unknown, delivery: string, signWith = secret) {
    const text = JSON.stringify(body);
    return t.pipeline.inject({ method: 'POST', url: `/v1/changes/github/${sourceId}`, payload: text, headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': delivery, 'x-hub-signature-256': await sign(signWith, text) } });
  }

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
    owner = await signedInOwner(t, 'Git intake');
    const estate = 'entities:\n  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }\nlinks: []\n';
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: estate });
    expect(imp.statusCode, imp.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('GitHub: a signed push to the default branch is recorded once; a bad signature, a feature branch, a ping and a malformed body store nothing', async () => {
    const src = await addChangeSource(t, owner.org.id, 'github');
    const ok = await github(src.id, src.secret, 'push', pushBody(), 'delivery-1');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ recorded: 1, duplicate: 0, rejected: [] });
    expect(await rows(src.id)).toEqual([{ event_id: 'delivery-1', kind: 'push', title: '1 commit pushed to main: Fix the cart', link: 'https://github.com/acme/checkout/compare/1111111111...2222222222', location: expect.objectContaining({ repo: 'acme/checkout', ref: 'refs/heads/main' }), change_ref: null }]);

    // GitHub redelivers with the same delivery id: a duplicate, not a second row.
    expect((await github(src.id, src.secret, 'push', pushBody(), 'delivery-1')).json()).toMatchObject({ recorded: 0, duplicate: 1 });
    const before = await counters(src.id);
    const forged = await github(src.id, src.secret, 'push', pushBody(), 'delivery-2', 'not-the-secret');
    expect(forged.statusCode).toBe(401);
    const unsigned = await raw(pushBody(), { 'x-github-event': 'push', 'x-github-delivery': 'delivery-3' }, `/v1/changes/github/${src.id}`);
    expect(unsigned.statusCode).toBe(401);
    expect(await counters(src.id)).toEqual(before);

    const branch = await github(src.id, src.secret, 'push', pushBody('refs/heads/feature'), 'delivery-4');
    expect([branch.statusCode, branch.json()]).toEqual([202, { ignored: 1 }]);
    const ping = await github(src.id, src.secret, 'ping', { zen: 'Design for failure.', hook_id: 1, repository }, 'delivery-5');
    expect([ping.statusCode, ping.json()]).toEqual([202, { ignored: 1 }]);
    const malformed = await github(src.id, src.secret, 'push', { ...pushBody(), repository: undefined }, 'delivery-6');
    expect(malformed.statusCode, malformed.body).toBe(400);
    expect(malformed.json()).toMatchObject({ field: 'repository' });
    expect((await rows(src.id)).map((r) => r.event_id)).toEqual(['delivery-1']);
  });

  it('GitHub: a deployment whose payload carries a planned change\'s id becomes that change\'s receipt, never a row', async () => {
    const reg = await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: 'ship checkout', components: [{ key: 'svc:checkout' }], startNow: true } });
    expect(reg.statusCode, reg.body).toBe(201);
    const change = (reg.json() as { change: { id: string; displayId: string } }).change;
    const src = await addChangeSource(t, owner.org.id, 'github');
    const deployment = { id: 4242, sha: 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e', ref: 'main', task: 'deploy', environment: 'production', payload: { changeId: change.displayId }, creator: sender, created_at: '2026-03-02T09:59:00Z', statuses_url: 'https://api.github.com/repos/acme/checkout/deployments/4242/statuses' };
    const r = await github(src.id, src.secret, 'deployment', { action: 'created', deployment, repository, sender }, 'delivery-d1');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ recorded: 0, receipts: 1 });
    expect(await rows(src.id)).toEqual([]);
    const receipts = (await t.services.db.query<Json>('SELECT event_id, source FROM change_receipts WHERE change_id = $1', [change.id])).rows;
    expect(receipts).toEqual([{ event_id: 'deployment:4242', source: 'github' }]);
    const audit = (await t.services.db.query<Json>("SELECT target_id FROM audit_events WHERE org_id = $1 AND action = 'change.confirmed_by_audit_log' ORDER BY seq DESC LIMIT 1", [owner.org.id])).rows[0];
    expect(audit).toMatchObject({ target_id: change.id });
  });

  it('GitLab: X-Gitlab-Token checked (401 stores nothing), a push and a merged MR with space-padded keys recorded', async () => {
    const src = await addChangeSource(t, owner.org.id, 'gitlab');
    const url = `/v1/changes/gitlab/${src.id}`;
    const project = { id: 42, path_with_namespace: 'acme/checkout', default_branch: 'main', web_url: 'https://gitlab.example.com/acme/checkout' };
    const push = { object_kind: 'push', before: '1111111111', after: '2222222222', ref: 'refs/heads/main', user_username: 'alice', user_name: 'Alice', project, commits: [{ id: '2222222222', message: 'Fix', timestamp: '2026-03-02T09:58:00Z' }] };
    expect((await raw(push, { 'x-gitlab-token': 'wrong', 'x-gitlab-event': 'Push Hook' }, url)).statusCode).toBe(401);
    expect(await rows(src.id)).toEqual([]);
    const ok = await raw(push, { 'x-gitlab-token': src.secret, 'x-gitlab-event': 'Push Hook', 'x-gitlab-event-uuid': 'uuid-push-1' }, url);
    expect(ok.statusCode, ok.body).toBe(200);
    const merged = { object_kind: 'merge_request', user: { username: 'bob', name: 'Bob' }, project, object_attributes: { 'id ': 77, 'iid ': 3, 'title ': 'Tidy ', 'state ': 'merged ', 'target_branch ': 'main', 'source_branch ': 'tidy', action: 'merge', url: 'https://gitlab.example.com/acme/checkout/-/merge_requests/3' } };
    const mr = await raw(merged, { 'x-gitlab-token': src.secret, 'x-gitlab-event': 'Merge Request Hook' }, url);
    expect(mr.statusCode, mr.body).toBe(200);
    expect((await rows(src.id)).map((r) => [r.event_id, r.kind, r.title])).toEqual([
      ['merge_request:77', 'pr_merged', '!3 Tidy merged into main'],
      ['uuid-push-1', 'push', '1 commit pushed to main: Fix'],
    ]);
  });
});
