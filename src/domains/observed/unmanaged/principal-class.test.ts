import { describe, expect, it } from 'vitest';
import type { RecordPrincipal } from '../../changes/change-feed.js';
import { classifyPrincipal, looksLikeCi } from './principal-class.js';

const p = (kind: RecordPrincipal['kind'], name: string, detail: Record<string, string> = {}): RecordPrincipal => ({ kind, name, id: null, detail });

describe('principal class of an observed write', () => {
  const cases: Array<[string, string, RecordPrincipal, string, RegExp]> = [
    ['a Kubernetes user', 'kubernetes', p('person', 'alice@example.com'), 'human', /person: the Kubernetes user alice@example\.com/],
    ['a service account of a CI namespace', 'kubernetes', p('service', 'system:serviceaccount:jenkins:deployer', { ciNamespace: 'jenkins' }), 'pipeline', /CI namespaces/],
    ['a service account elsewhere', 'kubernetes', p('service', 'system:serviceaccount:shop:app', { namespace: 'shop' }), 'system', /not a CI namespace/],
    ['a node', 'kubernetes', p('system', 'system:node:w1'), 'system', /plumbing \(system:node:w1\)/],
    ['an anonymous request', 'kubernetes', p('person', 'system:anonymous'), 'unknown', /anonymous/],
    ['changeledger\'s own write', 'kubernetes', p('service', 'system:serviceaccount:ops:changeledger', { namespace: 'ops', userAgent: 'changeledger/0.1.0' }), 'changeledger', /changeledger's own write/],
    ['an IAM user', 'aws', p('person', 'alice', { identityType: 'IAMUser' }), 'human', /IAM user alice/],
    ['the root user', 'aws', p('person', 'root', { identityType: 'Root' }), 'human', /root user/],
    ['a console session of a role', 'aws', p('person', 'Admin/alice', { identityType: 'AssumedRole', roleArn: 'arn:aws:iam::1:role/Admin' }), 'human', /opened from the console/],
    ['an Identity Center session', 'aws', p('person', 'AWSReservedSSO_Dev_1/alice', { identityType: 'AssumedRole', roleArn: 'arn:aws:iam::1:role/aws-reserved/sso.amazonaws.com/AWSReservedSSO_Dev_1' }), 'human', /Identity Center/],
    ['a deploy role', 'aws', p('service', 'deploy-prod/run-42', { identityType: 'AssumedRole', roleArn: 'arn:aws:iam::1:role/deploy-prod', sessionName: 'run-42' }), 'pipeline', /role deploy-prod, whose name says it deploys/],
    ['a GitHub Actions session of a neutral role', 'aws', p('service', 'ops/GitHubActions', { identityType: 'AssumedRole', roleArn: 'arn:aws:iam::1:role/ops', sessionName: 'GitHubActions' }), 'pipeline', /a pipeline/],
    ['a workload role', 'aws', p('service', 'lambda-exec/fn', { identityType: 'AssumedRole', roleArn: 'arn:aws:iam::1:role/lambda-exec', sessionName: 'fn' }), 'system', /a workload/],
    ['an AWS service', 'aws', p('service', 'autoscaling.amazonaws.com', { identityType: 'AWSService' }), 'system', /AWS service/],
    ['another account', 'aws', p('service', 'account 999', { identityType: 'AWSAccount' }), 'unknown', /another AWS account/],
    ['an Azure user', 'azure', p('person', 'bob@contoso.com'), 'human', /Azure user bob@contoso\.com/],
    ['an Azure DevOps service principal', 'azure', p('service', 'azure-devops-prod'), 'pipeline', /service principal azure-devops-prod/],
    ['an Azure managed identity', 'azure', p('service', 'vm-identity'), 'system', /managed identity vm-identity/],
    ['a source that did not say', 'webhook', p('unknown', 'unknown'), 'unknown', /did not say/],
    ['an API token', 'cloudevents', p('token', 'ci-token'), 'pipeline', /API token/],
  ];
  it.each(cases)('%s', (_name, source, principal, cls, reason) => {
    const r = classifyPrincipal(source, principal);
    expect(r.principalClass).toBe(cls);
    expect(r.reason).toMatch(reason);
  });

  it('reads CI words as whole words, in any case and in camel case', () => {
    expect(looksLikeCi('GitHubActions')).toBe(true);
    expect(looksLikeCi('prod-deployer')).toBe(true);
    expect(looksLikeCi('TerraformApply')).toBe(true);
    expect(looksLikeCi('decider')).toBe(false);
    expect(looksLikeCi('cicada-app')).toBe(false);
    expect(looksLikeCi('web-frontend')).toBe(false);
  });
});
