/**
 * GitLab: project or group webhooks carrying the connection's secret in X-Gitlab-Token, and the
 * REST pull of deployments and merged merge requests (gitlab-pull.ts). Hook payloads:
 * https://docs.gitlab.com/user/project/integrations/webhook_events/ (checked against the shared
 * real fixtures from xanzy/go-gitlab and drone/go-scm).
 */
import { badRequest } from '../../../platform/errors.js';
import type { AdapterContext, IntakeAdapter, IntakeRequest, Parsed } from '../observed-types.js';
import { header, sameSecret } from './auth.js';
import { trailerChangeRef } from './change-ref.js';
import { commitLines, Fields, firstLine, gitEvent, ignoredOne, one, shortSha, ZERO_SHA, type Json } from './git-common.js';
import { GITLAB_FINAL_STATUSES, gitlabDeploymentEvent, gitlabMergeEvent, gitlabPrincipal } from './gitlab-events.js';
import { gitlabPull as gitlabPullAdapter } from './gitlab-pull.js';

/**
 * Keys with stray spaces ("state ": "merged ") occur in real group hooks (go-gitlab's test data):
 * read the object with its keys trimmed, the first spelling of a key winning.
 */
export function trimmedKeys(o: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    const key = k.trim();
    if (!(key in out)) out[key] = v;
  }
  return out;
}

/**
 * A push has no id of its own in the body: GitLab's X-Gitlab-Event-UUID header, else its
 * Idempotency-Key (the same on a retry, GitLab 17.4+), else the push itself (project, ref, before..after).
 */
function pushKey(req: IntakeRequest, project: string, ref: string, before: string, after: string): string {
  return header(req, 'x-gitlab-event-uuid') ?? header(req, 'idempotency-key') ?? `push:${project}:${ref}:${before}..${after}`;
}

function parsePush(req: IntakeRequest, f: Fields, b: Json, tag: boolean, now: Date): Parsed {
  const project = f.obj(b, 'project');
  const repo = f.str(project, 'path_with_namespace', 'project.path_with_namespace');
  const ref = f.str(b, 'ref');
  const before = f.optStr(b, 'before') ?? '';
  const after = f.optStr(b, 'after') ?? '';
  const commits = f.list(b, 'commits');
  const deleted = ZERO_SHA.test(after);
  const principal = gitlabPrincipal({ username: b.user_username, name: b.user_name, id: b.user_id, email: b.user_email });
  const head = commits.find((c) => c.id === after || c.id === b.checkout_sha) ?? commits[commits.length - 1] ?? null;
  const times = commits.map((c, i) => f.time(c, 'timestamp', `commits.${i}.timestamp`)).filter((t): t is string => t !== null).sort();
  const at = times[times.length - 1] ?? now.toISOString();
  const messages = [f.optStr(b, 'message'), ...commits.map((c) => (typeof c.message === 'string' ? c.message : null))];
  const webUrl = f.optStr(project, 'web_url', 'project.web_url');
  const eventId = pushKey(req, String(project.id ?? repo), ref, before, after);
  if (tag) {
    const name = ref.replace(/^refs\/tags\//, '');
    return one(gitEvent({
      eventId, kind: 'tag', action: deleted ? 'tag_deleted' : 'tag_pushed', resource: ref,
      title: deleted ? `Tag ${name} deleted` : `Tag ${name} pushed at ${shortSha(after)}`, occurredAt: at, principal, repo,
      location: { repo, ref }, link: webUrl && !deleted ? `${webUrl}/-/tags/${encodeURIComponent(name)}` : webUrl,
      diff: deleted ? `tag ${name} deleted (was ${shortSha(before)})` : [`tag ${name} → ${shortSha(after)}`, ...commitLines(head ? [head] : [])].join('\n'),
      changeRef: deleted ? null : trailerChangeRef(messages), params: { ref, before, after },
    }));
  }
  const defaultBranch = f.str(project, 'default_branch', 'project.default_branch');
  if (ref !== `refs/heads/${defaultBranch}` || deleted) return ignoredOne();
  return one(gitEvent({
    eventId, kind: 'push', action: 'push', resource: ref,
    title: `${commits.length === 1 ? '1 commit' : `${commits.length} commits`} pushed to ${defaultBranch}${head ? `: ${firstLine(String(head.message ?? ''))}` : ''}`,
    occurredAt: at, principal, repo, location: { repo, ref },
    link: webUrl ? (ZERO_SHA.test(before) ? `${webUrl}/-/commit/${after}` : `${webUrl}/-/compare/${before}...${after}`) : null,
    diff: [`${shortSha(before)}..${shortSha(after)}`, ...commitLines(commits)].join('\n'),
    changeRef: trailerChangeRef(messages), params: { ref, before, after, totalCommits: b.total_commits_count ?? commits.length },
  }));
}

function parseMerge(f: Fields, b: Json, now: Date): Parsed {
  const project = f.obj(b, 'project');
  const repo = f.str(project, 'path_with_namespace', 'project.path_with_namespace');
  const a = trimmedKeys(f.obj(b, 'object_attributes'));
  const state = typeof a.state === 'string' ? a.state.trim() : '';
  const action = typeof a.action === 'string' ? a.action.trim() : '';
  // Opened, updated, closed, approved … change nothing; a later update of a merged MR dedupes on its id.
  if (action !== 'merge' && state !== 'merged') return ignoredOne();
  const last = f.optObj(a, 'last_commit', 'object_attributes.last_commit');
  return one(gitlabMergeEvent({
    id: f.id(a, 'id', 'object_attributes.id'), iid: f.id(a, 'iid', 'object_attributes.iid'),
    title: f.optStr(a, 'title', 'object_attributes.title') ?? '', description: f.optStr(a, 'description', 'object_attributes.description'),
    target: (f.optStr(a, 'target_branch', 'object_attributes.target_branch') ?? '').trim(), source: (f.optStr(a, 'source_branch', 'object_attributes.source_branch') ?? '').trim(),
    mergeSha: f.optStr(a, 'merge_commit_sha', 'object_attributes.merge_commit_sha'), url: f.optStr(a, 'url', 'object_attributes.url'),
    at: f.time(a, 'merged_at', 'object_attributes.merged_at') ?? f.time(a, 'updated_at', 'object_attributes.updated_at') ?? now.toISOString(),
    user: f.optObj(b, 'user'), repo, lastCommitMessage: last && typeof last.message === 'string' ? last.message : null,
  }));
}

function parseDeployment(f: Fields, b: Json, now: Date): Parsed {
  const status = f.str(b, 'status');
  if (!GITLAB_FINAL_STATUSES.has(status)) return ignoredOne();
  const project = f.obj(b, 'project');
  const commitUrl = f.optStr(b, 'commit_url');
  const fullSha = commitUrl ? /\/commit\/([0-9a-f]{7,64})$/.exec(commitUrl)?.[1] : undefined;
  return one(gitlabDeploymentEvent({
    id: f.id(b, 'deployment_id'), status, environment: f.optStr(b, 'environment') ?? '', ref: f.optStr(b, 'ref') ?? '',
    sha: fullSha ?? f.optStr(b, 'short_sha') ?? '', commitTitle: f.optStr(b, 'commit_title'), commitMessage: null,
    user: f.optObj(b, 'user'), at: f.time(b, 'status_changed_at') ?? now.toISOString(), link: f.optStr(b, 'deployable_url'),
    repo: f.str(project, 'path_with_namespace', 'project.path_with_namespace'),
  }));
}

export function parseGitlab(req: IntakeRequest, ctx: AdapterContext): Parsed {
  const f0 = new Fields('the GitLab event');
  const b = f0.body(req.body);
  // Project and group hooks name the kind in object_kind; system hooks in event_name.
  const kind = typeof b.object_kind === 'string' ? b.object_kind : typeof b.event_name === 'string' ? b.event_name : null;
  if (!kind) throw badRequest('the GitLab event has no object_kind (a text): GitLab names the event there', 'object_kind');
  const f = new Fields(`the GitLab ${kind.replaceAll('_', ' ')} event`);
  switch (kind) {
    case 'push':
      return parsePush(req, f, b, false, ctx.now);
    case 'tag_push':
      return parsePush(req, f, b, true, ctx.now);
    case 'merge_request':
      return parseMerge(f, b, ctx.now);
    case 'deployment':
      return parseDeployment(f, b, ctx.now);
    default:
      return ignoredOne();
  }
}

/** GitLab sends the webhook's secret token as is in X-Gitlab-Token. */
const gitlabAuthenticate = async (req: IntakeRequest, secret: string) => sameSecret(header(req, 'x-gitlab-token'), secret);

export const gitlabIntake: IntakeAdapter = { kind: 'gitlab', authenticate: gitlabAuthenticate, parse: parseGitlab };

/** The REST pull: deployments and merged merge requests. */
export const gitlabPull = gitlabPullAdapter;
