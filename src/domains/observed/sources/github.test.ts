import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sign } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import type { AdapterContext, IntakeRequest, Parsed } from '../observed-types.js';
import { githubIntake } from './github.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'github');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`github adapter: SKIPPING the shared real-payload tests: ${SHARED} is absent`);

const ctx: AdapterContext = { sourceId: 'src_1', config: {}, ciNamespaces: [], now: new Date('2026-01-02T03:04:05Z') };

function request(event: string | null, body: unknown, extra: Record<string, string> = {}): IntakeRequest {
  const raw = Buffer.from(JSON.stringify(body));
  return { headers: { ...(event ? { 'x-github-event': event } : {}), 'x-github-delivery': 'd-1', ...extra }, rawBody: raw, body };
}
const parse = (event: string | null, body: unknown, extra?: Record<string, string>): Parsed => githubIntake.parse(request(event, body, extra), ctx);

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    return (err as AppError).field;
  }
  throw new Error('expected a 400');
}

const repository = { full_name: 'acme/checkout', default_branch: 'main', html_url: 'https://github.com/acme/checkout' };
const alice = { login: 'alice', id: 7, type: 'User' };
function push(o: { ref?: string; messages?: string[]; sender?: unknown } = {}) {
  const messages = o.messages ?? ['Fix the cart total'];
  const commits = messages.map((m, i) => ({ id: `${i}abcdef0123456789`, message: m, timestamp: '2026-01-02T03:00:00Z', added: i === 0 ? ['a.ts'] : [], removed: [], modified: ['cart.ts'] }));
  return {
    ref: o.ref ?? 'refs/heads/main', before: '1111111111', after: '2222222222', created: false, deleted: false, forced: false,
    compare: 'https://github.com/acme/checkout/compare/1111111111...2222222222', commits, head_commit: commits[commits.length - 1],
    repository, pusher: { name: 'alice', email: 'alice@example.com' }, sender: o.sender ?? alice,
  };
}
function pr(o: { merged: boolean; body?: string | null; action?: string }) {
  return {
    action: o.action ?? 'closed', number: 42, repository, sender: alice,
    pull_request: {
      id: 9001, number: 42, title: 'Faster checkout', body: o.body ?? null, merged: o.merged, merged_at: o.merged ? '2026-01-02T02:59:00Z' : null,
      merge_commit_sha: 'abcdef1234567', html_url: 'https://github.com/acme/checkout/pull/42', base: { ref: 'main' }, head: { ref: 'speed' },
      user: { login: 'bob', id: 8, type: 'User' }, merged_by: o.merged ? alice : null,
    },
  };
}
function deployment(payload: unknown = {}, creator: unknown = alice) {
  return { id: 555, sha: 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e', ref: 'main', task: 'deploy', payload, environment: 'production', description: null, creator, created_at: '2026-01-02T03:01:00Z', statuses_url: 'https://api.github.com/repos/acme/checkout/deployments/555/statuses' };
}
const status = (state: string, extra: Record<string, unknown> = {}) => ({ id: 777, state, created_at: '2026-01-02T03:02:00Z', target_url: '', log_url: 'https://github.com/acme/checkout/actions/runs/1', description: null, ...extra });

describe('GitHub webhook signature (X-Hub-Signature-256, @octokit/webhooks-methods)', () => {
  const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
  const req = (signature: string | undefined, raw = body): IntakeRequest => ({ headers: { 'x-github-event': 'ping', ...(signature ? { 'x-hub-signature-256': signature } : {}) }, rawBody: Buffer.from(raw), body: JSON.parse(raw) });

  it('accepts the signature GitHub computes over the exact bytes with the secret', async () => {
    expect(await githubIntake.authenticate(req(await sign('s3cret', body)), 's3cret')).toBe(true);
  });

  it('refuses another secret, changed bytes, a missing header and the old SHA-1 header alone', async () => {
    expect(await githubIntake.authenticate(req(await sign('other', body)), 's3cret')).toBe(false);
    expect(await githubIntake.authenticate(req(await sign('s3cret', body), body.replace('awesome', 'AWESOME')), 's3cret')).toBe(false);
    expect(await githubIntake.authenticate(req(undefined), 's3cret')).toBe(false);
    expect(await githubIntake.authenticate(req('sha256=00'), 's3cret')).toBe(false);
    const sha1Only: IntakeRequest = { headers: { 'x-hub-signature': 'sha1=abc' }, rawBody: Buffer.from(body), body: {} };
    expect(await githubIntake.authenticate(sha1Only, 's3cret')).toBe(false);
  });
});

describe('GitHub webhook events', () => {
  it('answers ping and event types it does not record as ignored', () => {
    expect(parse('ping', { zen: 'x', hook_id: 1 })).toEqual({ events: [], ignored: 1, noise: 0, rejected: [] });
    expect(parse('star', { action: 'created', repository })).toMatchObject({ events: [], ignored: 1 });
    expect(parse('workflow_run', { action: 'completed', repository })).toMatchObject({ events: [], ignored: 1 });
  });

  it('records a push to the default branch with its commits and files, keyed by the delivery id', () => {
    const { events } = parse('push', push({ messages: ['Fix the cart total', 'Tidy'] }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      eventId: 'd-1', kind: 'push', repo: 'acme/checkout', title: '2 commits pushed to main: Tidy', occurredAt: '2026-01-02T03:00:00.000Z',
      principal: { kind: 'person', name: 'alice', id: '7', detail: { login: 'alice', email: 'alice@example.com' } },
      location: { repo: 'acme/checkout', ref: 'refs/heads/main' }, link: 'https://github.com/acme/checkout/compare/1111111111...2222222222', changeRef: null,
    });
    expect(events[0]!.diff).toBe('1111111..2222222\n0abcdef Fix the cart total\n1abcdef Tidy\nadded: a.ts\nmodified: cart.ts');
  });

  it('ignores a push to any other branch, and a deleted branch', () => {
    expect(parse('push', push({ ref: 'refs/heads/feature' }))).toMatchObject({ events: [], ignored: 1 });
    expect(parse('push', { ...push(), deleted: true, after: '0000000000000000000000000000000000000000' })).toMatchObject({ events: [], ignored: 1 });
  });

  it('reads the default branch from master_branch when an older payload has no default_branch', () => {
    const old = { ...push(), repository: { full_name: 'acme/checkout', master_branch: 'main' } };
    expect(parse('push', old).events[0]).toMatchObject({ kind: 'push', title: '1 commit pushed to main: Fix the cart total' });
    expect(fieldOf(() => parse('push', { ...push(), repository: { full_name: 'acme/checkout' } }))).toBe('repository.default_branch');
  });

  it('records a tag push (any tag) as kind tag', () => {
    const { events } = parse('push', push({ ref: 'refs/tags/v1.2.0' }));
    expect(events[0]).toMatchObject({ kind: 'tag', title: 'Tag v1.2.0 pushed at 2222222', location: { ref: 'refs/tags/v1.2.0' } });
  });

  it('reads a Change-Id: CHG-… trailer from any commit of the push (case of the hex ignored)', () => {
    const { events } = parse('push', push({ messages: ['One', 'Two\n\nChange-Id: chg-0a1b2c3d\nSigned-off-by: A <a@x>'] }));
    expect(events[0]!.changeRef).toBe('CHG-0A1B2C3D');
    // Gerrit's own Change-Id is not ours.
    expect(parse('push', push({ messages: ['x\n\nChange-Id: I8473b95934b5732ac55d26311a706c9c2bde9940'] })).events[0]!.changeRef).toBeNull();
  });

  it('makes a bot or app sender a service principal', () => {
    const byLogin = parse('push', push({ sender: { login: 'renovate[bot]', id: 3, type: 'User' } })).events[0]!;
    const byType = parse('push', push({ sender: { login: 'ci-app', id: 4, type: 'Bot' } })).events[0]!;
    expect(byLogin.principal).toMatchObject({ kind: 'service', name: 'renovate[bot]' });
    expect(byType.principal).toMatchObject({ kind: 'service', name: 'ci-app' });
  });

  it('records a merged pull request (by who merged it) keyed by the pull request so the REST pull dedupes with it', () => {
    const { events } = parse('pull_request', pr({ merged: true, body: 'Speeds it up.\n\nChange-Id: CHG-DEADBEEF' }));
    expect(events[0]).toMatchObject({
      eventId: 'pull_request:9001', kind: 'pr_merged', title: '#42 Faster checkout merged into main', principal: { name: 'alice' },
      link: 'https://github.com/acme/checkout/pull/42', changeRef: 'CHG-DEADBEEF', location: { repo: 'acme/checkout', ref: 'main' },
      diff: '#42 Faster checkout\nmain ← speed\nmerge commit: abcdef1',
    });
  });

  it('ignores a pull request closed without merging, and every other pull request action', () => {
    expect(parse('pull_request', pr({ merged: false }))).toMatchObject({ events: [], ignored: 1 });
    expect(parse('pull_request', pr({ merged: false, action: 'opened' }))).toMatchObject({ events: [], ignored: 1 });
  });

  it('records a deployment and reads the change id from its payload (changeId, change_id, changeledger_change_id, or a JSON text)', () => {
    const e = parse('deployment', { action: 'created', deployment: deployment({ changeId: 'CHG-0000ABCD' }), repository, sender: alice }).events[0]!;
    expect(e).toMatchObject({ eventId: 'deployment:555', kind: 'deploy', outcome: null, title: 'Deployment of main to production created', changeRef: 'CHG-0000ABCD', location: { repo: 'acme/checkout', ref: 'main', environment: 'production' } });
    expect(e.diff).toBe('environment: production\nref: main\nsha: f95f852bd8fca8fcc58a9a2d6c842781e32a215e');
    for (const payload of [{ change_id: 'CHG-0000ABCD' }, { changeledger_change_id: 'chg-0000abcd' }, '{"changeId":"CHG-0000ABCD"}']) {
      expect(parse('deployment', { deployment: deployment(payload), repository, sender: alice }).events[0]!.changeRef).toBe('CHG-0000ABCD');
    }
    expect(parse('deployment', { deployment: deployment({ changeId: 'not-a-change' }), repository, sender: alice }).events[0]!.changeRef).toBeNull();
  });

  it('records a deployment status that ends the deployment, with its outcome, and ignores queued / in_progress ones', () => {
    const ok = parse('deployment_status', { deployment: deployment(), deployment_status: status('success'), repository, sender: alice }).events[0]!;
    expect(ok).toMatchObject({ eventId: 'deployment_status:777', outcome: 'succeeded', title: 'Deployment of main to production succeeded', link: 'https://github.com/acme/checkout/actions/runs/1' });
    for (const s of ['failure', 'error']) expect(parse('deployment_status', { deployment: deployment(), deployment_status: status(s), repository }).events[0]!.outcome).toBe('failed');
    for (const s of ['queued', 'in_progress', 'pending', 'inactive']) expect(parse('deployment_status', { deployment: deployment(), deployment_status: status(s), repository })).toMatchObject({ events: [], ignored: 1 });
  });

  it('records a published release and ignores its other actions', () => {
    const release = { id: 3, tag_name: 'v2.0.0', name: 'Two', body: 'Notes\n\nChange-Id: CHG-12345678', target_commitish: 'main', html_url: 'https://github.com/acme/checkout/releases/tag/v2.0.0', published_at: '2026-01-02T03:03:00Z', prerelease: false };
    const e = parse('release', { action: 'published', release, repository, sender: alice }).events[0]!;
    expect(e).toMatchObject({ kind: 'release', title: 'Release Two published', link: release.html_url, changeRef: 'CHG-12345678', occurredAt: '2026-01-02T03:03:00.000Z' });
    expect(parse('release', { action: 'edited', release, repository })).toMatchObject({ events: [], ignored: 1 });
  });

  it('answers 400 naming the field for a malformed body or a missing event header', () => {
    expect(fieldOf(() => parse('push', { ref: 'refs/heads/main' }))).toBe('repository');
    expect(fieldOf(() => parse('push', { ...push(), repository: { full_name: 12, default_branch: 'main' } }))).toBe('repository.full_name');
    expect(fieldOf(() => parse('push', { ...push(), ref: undefined }))).toBe('ref');
    expect(fieldOf(() => parse('push', { ...push(), commits: 'many' }))).toBe('commits');
    expect(fieldOf(() => parse('pull_request', { action: 'closed', repository, pull_request: 'x' }))).toBe('pull_request');
    expect(fieldOf(() => parse('deployment', { repository, deployment: { ...deployment(), id: 'abc' } }))).toBe('deployment.id');
    expect(fieldOf(() => parse('deployment_status', { repository, deployment: deployment(), deployment_status: { id: 1 } }))).toBe('deployment_status.state');
    expect(fieldOf(() => parse('push', [1, 2]))).toBe('body');
    expect(fieldOf(() => parse(null, push()))).toBe('X-GitHub-Event');
    // GitHub's default content type (form-encoded): the intake hands over no JSON body.
    const form: IntakeRequest = { headers: { 'x-github-event': 'ping' }, rawBody: Buffer.from('payload=%7B%7D'), body: null };
    expect(() => githubIntake.parse(form, ctx)).toThrow(/set the webhook's Content type to application\/json/);
  });
});

type Expect = { ignored?: true; kind?: string; eventId?: string; principal?: { kind: string; name: string }; outcome?: string | null; title?: string };
/** What each shared real payload (octokit/webhooks examples) must give; the event name is the file name's prefix. */
const SHARED_EXPECT: Record<string, Expect> = {
  'deployment-created-github-pages-bot.json': { kind: 'deploy', eventId: 'deployment:145988746', principal: { kind: 'service', name: 'github-pages[bot]' }, outcome: null, title: 'Deployment of gh-pages to github-pages created' },
  'deployment-created.json': { kind: 'deploy', eventId: 'deployment:145988746', principal: { kind: 'person', name: 'Codertocat' }, outcome: null },
  'deployment_status-in_progress.json': { ignored: true },
  'deployment_status-success.json': { kind: 'deploy', eventId: 'deployment_status:209916254', outcome: 'succeeded', title: 'Deployment of master to production succeeded' },
  'pull_request-closed-not-merged.json': { ignored: true },
  'push-branch-master.json': { kind: 'push', principal: { kind: 'person', name: 'Codertocat' }, title: '1 commit pushed to master: Initial commit' },
  'push-tag-created.json': { kind: 'tag', title: 'Tag simple-tag pushed at 6113728' },
  'workflow_run-completed-success.json': { ignored: true },
  'workflow_run-completed-success-2.json': { ignored: true },
};

describe('GitHub webhook: the shared real payloads', () => {
  it.skipIf(!hasShared)('reads every one of them as the rules say', () => {
    const files = readdirSync(SHARED).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const want = SHARED_EXPECT[file];
      expect(want, `no expectation written for ${file}`).toBeDefined();
      const body = JSON.parse(readFileSync(join(SHARED, file), 'utf8')) as unknown;
      const got = parse(file.split('-')[0]!, body);
      if (want!.ignored) {
        expect(got, file).toMatchObject({ events: [], ignored: 1 });
        continue;
      }
      expect(got.events, file).toHaveLength(1);
      const e = got.events[0]!;
      const { ignored: _i, ...fields } = want!;
      expect(e, file).toMatchObject({ repo: expect.stringMatching(/^[^/]+\/[^/]+$/), ...fields });
      expect(Number.isNaN(Date.parse(e.occurredAt)), file).toBe(false);
      expect(e.diff, file).toBeTruthy();
    }
  });
});
