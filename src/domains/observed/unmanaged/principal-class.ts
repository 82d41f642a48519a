/**
 * Who made an observed write, in one of five classes, with the reason in plain words. Pure: the
 * adapters already read the sender's identity into a RecordPrincipal; this only names its class.
 *
 * - human: a person's account (a Kubernetes user, an IAM user or console/Identity Center session,
 *   an Azure user principal name);
 * - pipeline: a CI/CD identity (a service account in one of the organisation's CI namespaces, a
 *   role or service principal whose name says it deploys);
 * - changeledger: the echo of a write changeledger made itself (its user agent);
 * - system: the platform's own plumbing (controllers, AWS services, workload roles);
 * - unknown: the source did not say who it was, or named no one we can class.
 */
import type { RecordPrincipal } from '../../changes/change-feed.js';
import type { PrincipalClass } from './unmanaged-types.js';

export type ClassOfPrincipal = { principalClass: PrincipalClass; reason: string };

/** Words in a role's or an application's name that mark a CI/CD identity (whole words, case-blind). */
const CI_WORDS = /(^|[^a-z0-9])(ci|cd|cicd|deploy|deployer|deployment|pipeline|pipelines|github|githubactions|gitlab|jenkins|terraform|atlantis|spacelift|circleci|buildkite|codebuild|codepipeline|argo|argocd|flux|tekton|azure-devops|azuredevops|devops|release)([^a-z0-9]|$)/i;

/** The name as written (githubactions), or split at its camel-case humps (TerraformApply → Terraform-Apply). */
export const looksLikeCi = (name: string) => CI_WORDS.test(name) || CI_WORDS.test(name.replace(/([a-z])([A-Z])/g, '$1-$2'));

const USER_AGENT = /^changeledger\//i;

export function classifyPrincipal(source: string, p: RecordPrincipal): ClassOfPrincipal {
  const d = p.detail ?? {};
  if (d.userAgent && USER_AGENT.test(d.userAgent)) {
    return { principalClass: 'changeledger', reason: `changeledger's own write, seen back in the audit log (user agent ${d.userAgent})` };
  }
  if (source === 'kubernetes') return kubernetes(p);
  if (source === 'aws') return aws(p);
  if (source === 'azure') return azure(p);
  return generic(p);
}

function kubernetes(p: RecordPrincipal): ClassOfPrincipal {
  const d = p.detail ?? {};
  if (p.name === 'system:anonymous' || p.name === '') return { principalClass: 'unknown', reason: 'an anonymous request: the cluster did not know who sent it' };
  if (p.kind === 'person') return { principalClass: 'human', reason: `a person: the Kubernetes user ${p.name}` };
  if (d.ciNamespace) return { principalClass: 'pipeline', reason: `a pipeline: a service account of ${d.ciNamespace}, one of the organisation's CI namespaces` };
  if (d.namespace) return { principalClass: 'system', reason: `the cluster's own plumbing: a service account of ${d.namespace}, which is not a CI namespace` };
  if (p.kind === 'system' || p.name.startsWith('system:')) return { principalClass: 'system', reason: `the cluster's own plumbing (${p.name})` };
  return generic(p);
}

function aws(p: RecordPrincipal): ClassOfPrincipal {
  const d = p.detail ?? {};
  const role = d.roleArn ? d.roleArn.slice(d.roleArn.lastIndexOf('/') + 1) : null;
  switch (d.identityType) {
    case 'IAMUser': return { principalClass: 'human', reason: `a person: the IAM user ${p.name}` };
    case 'Root': return { principalClass: 'human', reason: 'a person: the account\'s root user' };
    case 'AWSService': return { principalClass: 'system', reason: `an AWS service acting for the account (${p.name})` };
    case 'AWSAccount': return { principalClass: 'unknown', reason: `another AWS account (${p.name}): who in it made the call is not in the event` };
    case 'AssumedRole': {
      if (p.kind === 'person') return { principalClass: 'human', reason: `a person: a session of the role ${role ?? p.name}${role?.startsWith('AWSReservedSSO_') ? ' made for an Identity Center user' : ' opened from the console'}` };
      const session = d.sessionName ?? '';
      if ((role && looksLikeCi(role)) || looksLikeCi(session)) return { principalClass: 'pipeline', reason: `a pipeline: a session of the role ${role ?? p.name}, whose name says it deploys` };
      return { principalClass: 'system', reason: `a workload: a session of the role ${role ?? p.name}, not opened by a person and not named for CI/CD` };
    }
    default: break;
  }
  if (p.kind === 'person') return { principalClass: 'human', reason: `a person: ${p.name}` };
  return generic(p);
}

function azure(p: RecordPrincipal): ClassOfPrincipal {
  if (p.kind === 'person') return { principalClass: 'human', reason: `a person: the Azure user ${p.name}` };
  if (p.kind === 'service') {
    if (looksLikeCi(p.name)) return { principalClass: 'pipeline', reason: `a pipeline: the service principal ${p.name}, whose name says it deploys` };
    return { principalClass: 'system', reason: `a workload: the service principal or managed identity ${p.name}, not named for CI/CD` };
  }
  return generic(p);
}

/** Sources that say little (Git, Argo CD, other tools' events): the adapter's own kind decides. */
function generic(p: RecordPrincipal): ClassOfPrincipal {
  switch (p.kind) {
    case 'person': return { principalClass: 'human', reason: `a person: ${p.name}` };
    case 'token': return { principalClass: 'pipeline', reason: `an API token (${p.name})` };
    case 'service': return looksLikeCi(p.name)
      ? { principalClass: 'pipeline', reason: `a pipeline: ${p.name}` }
      : { principalClass: 'system', reason: `a service identity: ${p.name}` };
    case 'system': return { principalClass: 'system', reason: `plumbing: ${p.name}` };
    default: return { principalClass: 'unknown', reason: p.name && p.name !== 'unknown' ? `the source named ${p.name} but not what kind of identity it is` : 'the source did not say who made it' };
  }
}
