/**
 * The GitLab events both the webhook and the REST pull build (a finished deployment, a merged
 * merge request), from one neutral shape each, so a change seen both ways reads the same and
 * dedupes on GitLab's own id of the object.
 * Hook shapes: https://docs.gitlab.com/user/project/integrations/webhook_events/ ;
 * REST: https://docs.gitlab.com/api/deployments/ and https://docs.gitlab.com/api/merge_requests/
 */
import type { ObservedEvent } from '../observed-types.js';
import { trailerChangeRef } from './change-ref.js';
import { firstLine, gitEvent, gitPrincipal, shortSha, type Json } from './git-common.js';

/** GitLab's own automation: project and group access-token bots, and service accounts. */
const GITLAB_BOT = /^(?:(?:project|group)_\d+_bot(?:_[0-9a-f]+)?|service_account_.+|.+-bot)$/;

export function gitlabPrincipal(user: { username?: unknown; name?: unknown; id?: unknown; email?: unknown } | null) {
  const username = typeof user?.username === 'string' ? user.username : null;
  const name = typeof user?.name === 'string' ? user.name : null;
  const id = typeof user?.id === 'number' || typeof user?.id === 'string' ? String(user.id) : null;
  // GitLab writes [REDACTED] for a private e-mail: nothing to keep.
  const email = typeof user?.email === 'string' && user.email.includes('@') ? user.email : null;
  return gitPrincipal(username ?? name ?? 'unknown', id, username !== null && GITLAB_BOT.test(username), { username, name, email });
}

export const gitlabKeys = {
  deployment: (id: string) => `deployment:${id}`,
  mergeRequest: (id: string) => `merge_request:${id}`,
};

/** Deployment statuses that end one: success and failed (running, created, canceled, blocked are not recorded). */
export const GITLAB_FINAL_STATUSES = new Set(['success', 'failed']);

export type GitlabDeployment = {
  id: string; status: string; environment: string; ref: string; sha: string; commitTitle: string | null; commitMessage: string | null;
  user: Json | null; at: string; link: string | null; repo: string;
};

export function gitlabDeploymentEvent(d: GitlabDeployment): ObservedEvent {
  const outcome = d.status === 'success' ? 'succeeded' : 'failed';
  const commit = `${d.sha.slice(0, 8)}${d.commitTitle ? ` ${firstLine(d.commitTitle)}` : ''}`;
  return gitEvent({
    eventId: gitlabKeys.deployment(d.id), kind: 'deploy', action: `deployment:${d.status}`, outcome, resource: d.environment || null,
    title: `Deployment of ${d.ref || shortSha(d.sha)} to ${d.environment} ${outcome}`, occurredAt: d.at,
    principal: gitlabPrincipal(d.user), repo: d.repo, location: { repo: d.repo, ref: d.ref, environment: d.environment },
    diff: [`environment: ${d.environment}`, `ref: ${d.ref}`, `commit: ${commit}`, `status: ${d.status}`].join('\n'),
    link: d.link, changeRef: trailerChangeRef([d.commitMessage]),
    params: { deploymentId: d.id, sha: d.sha, ref: d.ref, environment: d.environment, status: d.status },
  });
}

export type GitlabMerge = {
  id: string; iid: string; title: string; description: string | null; target: string; source: string; mergeSha: string | null;
  url: string | null; at: string; user: Json | null; repo: string; lastCommitMessage: string | null;
};

export function gitlabMergeEvent(m: GitlabMerge): ObservedEvent {
  return gitEvent({
    eventId: gitlabKeys.mergeRequest(m.id), kind: 'pr_merged', action: 'merged', resource: `merge_requests/${m.iid}`,
    title: `!${m.iid} ${firstLine(m.title)} merged into ${m.target}`, occurredAt: m.at,
    principal: gitlabPrincipal(m.user), repo: m.repo, location: { repo: m.repo, ref: m.target },
    diff: [`!${m.iid} ${m.title.trim()}`, `${m.target} ← ${m.source}`, ...(m.mergeSha ? [`merge commit: ${shortSha(m.mergeSha)}`] : [])].join('\n'),
    link: m.url, changeRef: trailerChangeRef([m.description, m.lastCommitMessage, m.title]),
    params: { iid: m.iid, target: m.target, source: m.source, mergeCommitSha: m.mergeSha },
  });
}
