/**
 * The GitHub events both the webhook and the REST pull build (a deployment, its final status, a
 * merged pull request), so a change seen both ways reads the same and dedupes on the same key.
 * Shapes: https://docs.github.com/en/rest/deployments/deployments, …/deployments/statuses,
 * https://docs.github.com/en/rest/pulls/pulls and the webhook payloads of the same objects.
 */
import type { ObservedEvent } from '../observed-types.js';
import { trailerChangeRef } from './change-ref.js';
import { Fields, firstLine, gitEvent, gitPrincipal, payloadChangeRef, shortSha, type Json } from './git-common.js';

/** A GitHub account: a bot or an app (`dependabot[bot]`, type Bot) is a service, anyone else a person. */
export function githubPrincipal(user: Json | null, extra: Record<string, string | null | undefined> = {}) {
  const login = typeof user?.login === 'string' ? user.login : 'unknown';
  const service = user?.type === 'Bot' || login.endsWith('[bot]');
  const id = typeof user?.id === 'number' || typeof user?.id === 'string' ? String(user.id) : null;
  return gitPrincipal(login, id, service, { login, ...extra });
}

/**
 * Dedupe keys shared by the webhook and the REST pull, so a deployment or a merge seen both ways
 * is one row: GitHub's own ids of the deployment, the status and the pull request.
 */
export const githubKeys = {
  deployment: (id: string) => `deployment:${id}`,
  deploymentStatus: (id: string) => `deployment_status:${id}`,
  pullRequest: (id: string) => `pull_request:${id}`,
};

/** A deployment as both the webhook and the REST API describe it. */
export function githubDeploymentEvent(f: Fields, d: Json, repo: string, creator: Json | null, status: Json | null, now: Date): ObservedEvent {
  const id = f.id(d, 'id', 'deployment.id');
  const environment = f.optStr(d, 'environment', 'deployment.environment') ?? '';
  const ref = f.optStr(d, 'ref', 'deployment.ref') ?? '';
  const sha = f.optStr(d, 'sha', 'deployment.sha') ?? '';
  const task = f.optStr(d, 'task', 'deployment.task') ?? 'deploy';
  const description = f.optStr(d, 'description', 'deployment.description');
  const lines = [`environment: ${environment}`, `ref: ${ref}`, `sha: ${sha}`];
  if (task !== 'deploy') lines.push(`task: ${task}`);
  if (description) lines.push(`description: ${description}`);
  const base = {
    principal: githubPrincipal(creator), repo,
    location: { repo, ref, environment },
    changeRef: payloadChangeRef(d.payload) ?? trailerChangeRef([description]),
    params: { deploymentId: id, sha, ref, task, environment, payload: d.payload ?? null },
    resource: environment || null,
  };
  if (!status) {
    return gitEvent({
      ...base, eventId: githubKeys.deployment(id), kind: 'deploy', action: 'deployment',
      title: `Deployment of ${ref || shortSha(sha)} to ${environment} created`,
      occurredAt: f.time(d, 'created_at', 'deployment.created_at') ?? now.toISOString(),
      diff: lines.join('\n'), link: f.optStr(d, 'statuses_url', 'deployment.statuses_url'),
    });
  }
  const state = f.str(status, 'state', 'deployment_status.state');
  const outcome = state === 'success' ? 'succeeded' : 'failed';
  const sid = f.id(status, 'id', 'deployment_status.id');
  const statusText = f.optStr(status, 'description', 'deployment_status.description');
  return gitEvent({
    ...base, eventId: githubKeys.deploymentStatus(sid), kind: 'deploy', action: `deployment_status:${state}`, outcome,
    title: `Deployment of ${ref || shortSha(sha)} to ${environment} ${outcome}`,
    occurredAt: f.time(status, 'created_at', 'deployment_status.created_at') ?? f.time(d, 'created_at', 'deployment.created_at') ?? now.toISOString(),
    diff: [...lines, `state: ${state}`, ...(statusText ? [`status: ${statusText}`] : [])].join('\n'),
    link: f.optStr(status, 'log_url', 'deployment_status.log_url') || f.optStr(status, 'target_url', 'deployment_status.target_url') || f.optStr(d, 'statuses_url', 'deployment.statuses_url'),
    params: { ...base.params, statusId: sid, state },
  });
}

/** Deployment states that end a deployment: success, failure, error. queued, pending, in_progress and inactive are not recorded. */
export const GITHUB_FINAL_STATES = new Set(['success', 'failure', 'error']);

/** A merged pull request as both the webhook and the REST API describe it. */
export function githubMergedEvent(f: Fields, pr: Json, repo: string, now: Date): ObservedEvent {
  const id = f.id(pr, 'id', 'pull_request.id');
  const number = f.id(pr, 'number', 'pull_request.number');
  const title = f.optStr(pr, 'title', 'pull_request.title') ?? '';
  const body = f.optStr(pr, 'body', 'pull_request.body');
  const baseRef = f.optStr(f.obj(pr, 'base', 'pull_request.base'), 'ref', 'pull_request.base.ref') ?? '';
  const headRef = f.optStr(f.obj(pr, 'head', 'pull_request.head'), 'ref', 'pull_request.head.ref') ?? '';
  const mergeSha = f.optStr(pr, 'merge_commit_sha', 'pull_request.merge_commit_sha');
  const mergedBy = f.optObj(pr, 'merged_by', 'pull_request.merged_by') ?? f.optObj(pr, 'user', 'pull_request.user');
  return gitEvent({
    eventId: githubKeys.pullRequest(id), kind: 'pr_merged', action: 'merged', resource: `pull/${number}`,
    title: `#${number} ${firstLine(title)} merged into ${baseRef}`,
    occurredAt: f.time(pr, 'merged_at', 'pull_request.merged_at') ?? now.toISOString(),
    principal: githubPrincipal(mergedBy), repo, location: { repo, ref: baseRef },
    diff: [`#${number} ${title}`, `${baseRef} ← ${headRef}`, ...(mergeSha ? [`merge commit: ${shortSha(mergeSha)}`] : [])].join('\n'),
    link: f.optStr(pr, 'html_url', 'pull_request.html_url'),
    changeRef: trailerChangeRef([body, title]),
    params: { number, base: baseRef, head: headRef, mergeCommitSha: mergeSha },
  });
}

