/**
 * GitHub: webhooks signed with X-Hub-Signature-256, and the REST pull of deployments and merged
 * pull requests (github-pull.ts). Payload shapes: https://docs.github.com/en/webhooks/webhook-events-and-payloads
 * (checked against @octokit/webhooks-examples, the shared real fixtures).
 */
import { verify } from '@octokit/webhooks-methods';
import { badRequest } from '../../../platform/errors.js';
import type { AdapterContext, IntakeAdapter, IntakeRequest, Parsed } from '../observed-types.js';
import { header } from './auth.js';
import { trailerChangeRef } from './change-ref.js';
import { Fields, commitLines, firstLine, gitEvent, ignoredOne, one, shortSha, ZERO_SHA, type Json } from './git-common.js';
import { GITHUB_FINAL_STATES, githubDeploymentEvent, githubMergedEvent, githubPrincipal } from './github-events.js';
import { githubPull as githubPullAdapter } from './github-pull.js';

function parsePush(f: Fields, b: Json, repo: string, repository: Json, deliveryId: string | null, now: Date): Parsed {
  const ref = f.str(b, 'ref');
  const after = f.optStr(b, 'after') ?? '';
  const before = f.optStr(b, 'before') ?? '';
  const commits = f.list(b, 'commits');
  const head = f.optObj(b, 'head_commit');
  const pusher = f.optObj(b, 'pusher');
  const sender = f.optObj(b, 'sender');
  const principal = githubPrincipal(sender ?? { login: pusher?.name }, { email: typeof pusher?.email === 'string' ? pusher.email : null });
  const compare = f.optStr(b, 'compare');
  const deleted = b.deleted === true || ZERO_SHA.test(after);
  const at = f.time(head ?? {}, 'timestamp', 'head_commit.timestamp') ?? f.time(repository, 'pushed_at', 'repository.pushed_at') ?? now.toISOString();
  const messages = [...commits.map((c) => (typeof c.message === 'string' ? c.message : null)), typeof head?.message === 'string' ? head.message : null];
  const eventId = deliveryId ?? `push:${repo}:${ref}:${before}..${after}`;
  if (ref.startsWith('refs/tags/')) {
    const tag = ref.slice('refs/tags/'.length);
    return one(gitEvent({
      eventId, kind: 'tag', action: deleted ? 'tag_deleted' : 'tag_pushed', resource: ref,
      title: deleted ? `Tag ${tag} deleted` : `Tag ${tag} pushed at ${shortSha(after)}`,
      occurredAt: at, principal, repo, location: { repo, ref }, link: compare,
      diff: deleted ? `tag ${tag} deleted (was ${shortSha(before)})` : [`tag ${tag} → ${shortSha(after)}`, ...(head ? [`${shortSha(String(head.id ?? ''))} ${firstLine(String(head.message ?? ''))}`] : [])].join('\n'),
      changeRef: deleted ? null : trailerChangeRef(messages), params: { ref, before, after },
    }));
  }
  // Older GitHub Enterprise payloads name it master_branch only.
  const defaultBranch = typeof repository.master_branch === 'string' && typeof repository.default_branch !== 'string' ? repository.master_branch : f.str(repository, 'default_branch', 'repository.default_branch');
  // Only the default branch is a change to production; feature branches and a deleted branch are not.
  if (ref !== `refs/heads/${defaultBranch}` || deleted) return ignoredOne();
  const shown = commits.length ? commits : head ? [head] : [];
  return one(gitEvent({
    eventId, kind: 'push', action: b.forced === true ? 'force_push' : 'push', resource: ref,
    title: `${shown.length === 1 ? '1 commit' : `${shown.length} commits`} pushed to ${defaultBranch}${head ? `: ${firstLine(String(head.message ?? ''))}` : ''}`,
    occurredAt: at, principal, repo, location: { repo, ref }, link: compare,
    diff: [`${shortSha(before)}..${shortSha(after)}${b.forced === true ? ' (forced)' : ''}`, ...commitLines(shown)].join('\n'),
    changeRef: trailerChangeRef(messages), params: { ref, before, after, forced: b.forced === true },
  }));
}

function parseRelease(f: Fields, b: Json, repo: string, deliveryId: string | null, now: Date): Parsed {
  if (b.action !== 'published') return ignoredOne();
  const r = f.obj(b, 'release');
  const tag = f.str(r, 'tag_name', 'release.tag_name');
  const name = f.optStr(r, 'name', 'release.name');
  const body = f.optStr(r, 'body', 'release.body');
  const id = f.id(r, 'id', 'release.id');
  return one(gitEvent({
    eventId: deliveryId ?? `release:${id}`, kind: 'release', action: 'published', resource: `refs/tags/${tag}`,
    title: `Release ${name || tag} published`,
    occurredAt: f.time(r, 'published_at', 'release.published_at') ?? now.toISOString(),
    principal: githubPrincipal(f.optObj(b, 'sender') ?? f.optObj(r, 'author', 'release.author')), repo,
    location: { repo, ref: `refs/tags/${tag}` }, link: f.optStr(r, 'html_url', 'release.html_url'),
    diff: [`tag: ${tag}`, ...(name && name !== tag ? [`name: ${name}`] : []), `target: ${f.optStr(r, 'target_commitish', 'release.target_commitish') ?? ''}`, ...(body ? ['', body] : [])].join('\n'),
    changeRef: trailerChangeRef([body]), params: { releaseId: id, tag, prerelease: r.prerelease === true },
  }));
}

export function parseGithub(req: IntakeRequest, ctx: AdapterContext): Parsed {
  const event = header(req, 'x-github-event');
  if (!event) throw badHeader();
  // A webhook left on GitHub's default content type posts `payload=<url-encoded JSON>`: say what to change, even on the ping.
  if (req.body === null && req.rawBody.length > 0) throw badRequest('GitHub sent a body that is not JSON: set the webhook\'s Content type to application/json', 'body');
  if (event === 'ping') return ignoredOne();
  if (!['push', 'pull_request', 'deployment', 'deployment_status', 'release'].includes(event)) return ignoredOne();
  const f = new Fields(`the GitHub ${event} event`);
  const b = f.body(req.body);
  const repository = f.obj(b, 'repository');
  const repo = f.str(repository, 'full_name', 'repository.full_name');
  const deliveryId = header(req, 'x-github-delivery') ?? null;
  switch (event) {
    case 'push':
      return parsePush(f, b, repo, repository, deliveryId, ctx.now);
    case 'pull_request': {
      const pr = f.obj(b, 'pull_request');
      // Closed without merging changed nothing; opened, edited, synchronize … are not changes either.
      if (b.action !== 'closed' || pr.merged !== true) return ignoredOne();
      return one(githubMergedEvent(f, pr, repo, ctx.now));
    }
    case 'deployment': {
      const d = f.obj(b, 'deployment');
      return one(githubDeploymentEvent(f, d, repo, f.optObj(d, 'creator', 'deployment.creator') ?? f.optObj(b, 'sender'), null, ctx.now));
    }
    case 'deployment_status': {
      const d = f.obj(b, 'deployment');
      const s = f.obj(b, 'deployment_status');
      if (!GITHUB_FINAL_STATES.has(f.str(s, 'state', 'deployment_status.state'))) return ignoredOne();
      return one(githubDeploymentEvent(f, d, repo, f.optObj(d, 'creator', 'deployment.creator') ?? f.optObj(b, 'sender'), s, ctx.now));
    }
    default:
      return parseRelease(f, b, repo, deliveryId, ctx.now);
  }
}

const badHeader = () => badRequest('the request has no X-GitHub-Event header: GitHub names the event there', 'X-GitHub-Event');

/** GitHub signs the exact bytes with the webhook's secret: `X-Hub-Signature-256: sha256=<hex>`. */
async function githubAuthenticate(req: IntakeRequest, secret: string): Promise<boolean> {
  const signature = header(req, 'x-hub-signature-256');
  if (!signature || !secret || req.rawBody.length === 0) return false;
  return verify(secret, req.rawBody.toString('utf8'), signature);
}

export const githubIntake: IntakeAdapter = { kind: 'github', authenticate: githubAuthenticate, parse: parseGithub };

/** The REST pull: deployments (with their latest status) and merged pull requests. */
export const githubPull = githubPullAdapter;
