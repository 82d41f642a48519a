import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import type { AdapterContext, IntakeRequest, Parsed } from '../observed-types.js';
import { gitlabIntake } from './gitlab.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'gitlab');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`gitlab adapter: SKIPPING the shared real-payload tests: ${SHARED} is absent`);

const ctx: AdapterContext = { sourceId: 'src_1', config: {}, ciNamespaces: [], now: new Date('2026-01-02T03:04:05Z') };
const req = (body: unknown, headers: Record<string, string> = {}): IntakeRequest => ({ headers, rawBody: Buffer.from(JSON.stringify(body)), body });
const parse = (body: unknown, headers?: Record<string, string>): Parsed => gitlabIntake.parse(req(body, headers), ctx);

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

const project = { id: 42, path_with_namespace: 'acme/checkout', default_branch: 'main', web_url: 'https://gitlab.example.com/acme/checkout' };
function push(o: { ref?: string; messages?: string[]; username?: string; kind?: string; after?: string } = {}) {
  const commits = (o.messages ?? ['Fix the cart']).map((m, i) => ({ id: `${i}bcdef0123456789`, message: m, timestamp: `2026-01-02T03:0${i}:00+01:00`, added: [], modified: ['cart.ts'], removed: [] }));
  return {
    object_kind: o.kind ?? 'push', before: '1111111111', after: o.after ?? '2222222222', ref: o.ref ?? 'refs/heads/main', checkout_sha: '2222222222',
    user_id: 5, user_name: 'Alice', user_username: o.username ?? 'alice', user_email: 'alice@example.com', project_id: 42, project, commits, total_commits_count: commits.length,
  };
}
function mr(attrs: Record<string, unknown>) {
  return {
    object_kind: 'merge_request', user: { id: 5, name: 'Alice', username: 'alice' }, project,
    object_attributes: { id: 7001, iid: 12, title: 'Faster checkout', description: 'Speeds it up', target_branch: 'main', source_branch: 'speed', merge_commit_sha: 'abcdef123456', url: 'https://gitlab.example.com/acme/checkout/-/merge_requests/12', updated_at: '2026-01-02 02:59:00 UTC', state: 'merged', action: 'merge', last_commit: { id: 'c1', message: 'speed\n\nChange-Id: CHG-CAFEF00D' }, ...attrs },
  };
}
function deployment(status: string) {
  return {
    object_kind: 'deployment', status, status_changed_at: '2026-01-02 04:00:00 +0100', deployment_id: 88, deployable_id: 9, deployable_url: 'https://gitlab.example.com/acme/checkout/-/jobs/9',
    environment: 'production', project, short_sha: '279484c0', user: { id: 5, name: 'Alice', username: 'alice' },
    commit_url: 'https://gitlab.example.com/acme/checkout/-/commit/279484c09fbe69ededfced8c1bb6e6d24616b468', commit_title: 'Add new file', ref: 'main',
  };
}

describe('GitLab webhook token (X-Gitlab-Token)', () => {
  it('accepts the connection secret and refuses another, an empty or a missing token', async () => {
    expect(await gitlabIntake.authenticate(req({}, { 'x-gitlab-token': 's3cret' }), 's3cret')).toBe(true);
    expect(await gitlabIntake.authenticate(req({}, { 'x-gitlab-token': 's3cret ' }), 's3cret')).toBe(false);
    expect(await gitlabIntake.authenticate(req({}, { 'x-gitlab-token': '' }), 's3cret')).toBe(false);
    expect(await gitlabIntake.authenticate(req({}, { authorization: 'Bearer s3cret' }), 's3cret')).toBe(false);
  });
});

describe('GitLab webhook events', () => {
  it('records a push to the default branch; its id is X-Gitlab-Event-UUID, else Idempotency-Key, else the push itself', () => {
    const e = parse(push({ messages: ['Fix the cart', 'Tidy\n\nChange-Id: CHG-0A0B0C0D'] }), { 'x-gitlab-event-uuid': 'uuid-1' }).events[0]!;
    expect(e).toMatchObject({
      eventId: 'uuid-1', kind: 'push', repo: 'acme/checkout', title: '2 commits pushed to main: Tidy', occurredAt: '2026-01-02T02:01:00.000Z', changeRef: 'CHG-0A0B0C0D',
      principal: { kind: 'person', name: 'alice', id: '5', detail: { email: 'alice@example.com', name: 'Alice' } }, location: { repo: 'acme/checkout', ref: 'refs/heads/main' },
      link: 'https://gitlab.example.com/acme/checkout/-/compare/1111111111...2222222222',
    });
    expect(e.diff).toBe('1111111..2222222\n0bcdef0 Fix the cart\n1bcdef0 Tidy\nmodified: cart.ts');
    expect(parse(push(), { 'idempotency-key': 'idem-1' }).events[0]!.eventId).toBe('idem-1');
    expect(parse(push()).events[0]!.eventId).toBe('push:42:refs/heads/main:1111111111..2222222222');
  });

  it('ignores a push to another branch and a deleted branch', () => {
    expect(parse(push({ ref: 'refs/heads/feature' }))).toMatchObject({ events: [], ignored: 1 });
    expect(parse(push({ after: '0000000000000000000000000000000000000000' }))).toMatchObject({ events: [], ignored: 1 });
  });

  it('records a tag push as kind tag', () => {
    const e = parse(push({ kind: 'tag_push', ref: 'refs/tags/v1.0.0' })).events[0]!;
    expect(e).toMatchObject({ kind: 'tag', title: 'Tag v1.0.0 pushed at 2222222', link: 'https://gitlab.example.com/acme/checkout/-/tags/v1.0.0' });
  });

  it('makes a project or group access-token bot a service principal', () => {
    expect(parse(push({ username: 'project_42_bot_0a1b2c' })).events[0]!.principal.kind).toBe('service');
    expect(parse(push({ username: 'group_7_bot' })).events[0]!.principal.kind).toBe('service');
  });

  it('records a merged merge request keyed by its id (the REST pull uses the same), with the trailer of its last commit', () => {
    const e = parse(mr({})).events[0]!;
    expect(e).toMatchObject({
      eventId: 'merge_request:7001', kind: 'pr_merged', title: '!12 Faster checkout merged into main', principal: { name: 'alice' }, changeRef: 'CHG-CAFEF00D',
      occurredAt: '2026-01-02T02:59:00.000Z', link: 'https://gitlab.example.com/acme/checkout/-/merge_requests/12', diff: '!12 Faster checkout\nmain ← speed\nmerge commit: abcdef1',
    });
    // state merged with another action (a later update) is the same merge: same key, deduped by the intake.
    expect(parse(mr({ action: 'update' })).events[0]!.eventId).toBe('merge_request:7001');
  });

  it('ignores a merge request opened, updated or closed without merging', () => {
    for (const [action, state] of [['open', 'opened'], ['update', 'opened'], ['close', 'closed']]) {
      expect(parse(mr({ action, state }))).toMatchObject({ events: [], ignored: 1 });
    }
  });

  it('records a deployment that succeeded or failed, keyed by its id, and ignores running and canceled ones', () => {
    const ok = parse(deployment('success')).events[0]!;
    expect(ok).toMatchObject({
      eventId: 'deployment:88', kind: 'deploy', outcome: 'succeeded', title: 'Deployment of main to production succeeded', occurredAt: '2026-01-02T03:00:00.000Z',
      location: { repo: 'acme/checkout', ref: 'main', environment: 'production' }, link: 'https://gitlab.example.com/acme/checkout/-/jobs/9',
    });
    expect(ok.diff).toBe('environment: production\nref: main\ncommit: 279484c0 Add new file\nstatus: success');
    expect(parse(deployment('failed')).events[0]!.outcome).toBe('failed');
    for (const s of ['running', 'canceled', 'created']) expect(parse(deployment(s))).toMatchObject({ events: [], ignored: 1 });
  });

  it('ignores event kinds it does not record (pipeline, note, issue)', () => {
    for (const object_kind of ['pipeline', 'note', 'issue', 'build']) expect(parse({ object_kind, project })).toMatchObject({ events: [], ignored: 1 });
  });

  it('answers 400 naming the field for a malformed body', () => {
    expect(fieldOf(() => parse({ project }))).toBe('object_kind');
    expect(fieldOf(() => parse('push'))).toBe('body');
    expect(fieldOf(() => parse({ ...push(), project: undefined }))).toBe('project');
    expect(fieldOf(() => parse({ ...push(), project: { ...project, path_with_namespace: 7 } }))).toBe('project.path_with_namespace');
    expect(fieldOf(() => parse({ ...push(), ref: 12 }))).toBe('ref');
    expect(fieldOf(() => parse({ ...push(), commits: [1] }))).toBe('commits');
    expect(fieldOf(() => parse({ ...mr({}), object_attributes: undefined }))).toBe('object_attributes');
    expect(fieldOf(() => parse(mr({ id: 'x' })))).toBe('object_attributes.id');
    expect(fieldOf(() => parse({ ...deployment('success'), deployment_id: null }))).toBe('deployment_id');
    expect(fieldOf(() => parse({ ...deployment('success'), status_changed_at: 'yesterday' }))).toBe('status_changed_at');
  });
});

type Expect = { ignored?: true; kind?: string; eventId?: string; title?: string; occurredAt?: string; principal?: { kind: string; name: string }; outcome?: string | null };
/** What each shared real payload must give (go-gitlab's and go-scm's test data). */
const SHARED_EXPECT: Record<string, Expect> = {
  'deployment-hook-success.json': { kind: 'deploy', eventId: 'deployment:15', outcome: 'succeeded', title: 'Deployment of 1.0.0 to staging succeeded', occurredAt: '2021-04-28T19:50:00.000Z', principal: { kind: 'person', name: 'user1' } },
  'merge-request-hook-closed.json': { ignored: true },
  // Keys with trailing spaces ("state ": "merged ") upstream: read with the keys trimmed.
  'merge-request-hook-merged-quirky-keys.json': { kind: 'pr_merged', eventId: 'merge_request:15917', title: '!1402 source-branch-test merged into master', occurredAt: '2016-12-01T13:21:20.000Z' },
  'merge-request-hook-merged.json': { kind: 'pr_merged', eventId: 'merge_request:6632669', title: '!1 update readme merged into master', principal: { kind: 'person', name: 'sytses' } },
  'merge-request-hook-opened-docs-sample.json': { ignored: true },
  'pipeline-hook-success-docs-sample.json': { ignored: true },
  'pipeline-hook.json': { ignored: true },
  'push-hook.json': { kind: 'push', eventId: 'push:4861503:refs/heads/master:9217710ce8c7e1eae7a5d1c45f6e43e1c769f866..2adc9465c4edfc33834e173fe89436a7cb899a1d', title: '1 commit pushed to master: added readme', occurredAt: '2017-12-10T08:26:38.000Z' },
};

describe('GitLab webhook: the shared real payloads', () => {
  it.skipIf(!hasShared)('reads every one of them as the rules say', () => {
    const files = readdirSync(SHARED).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const want = SHARED_EXPECT[file];
      expect(want, `no expectation written for ${file}`).toBeDefined();
      const got = parse(JSON.parse(readFileSync(join(SHARED, file), 'utf8')));
      if (want!.ignored) {
        expect(got, file).toMatchObject({ events: [], ignored: 1 });
        continue;
      }
      expect(got.events, file).toHaveLength(1);
      const { ignored: _i, ...fields } = want!;
      expect(got.events[0], file).toMatchObject({ repo: expect.stringMatching(/^[^/]+\/[^/]+/), ...fields });
      expect(got.events[0]!.diff, file).toBeTruthy();
    }
  });
});
