/** Every source's adapters by kind: the intake and the scheduled pull look them up here. */
import type { IntakeAdapter, PullAdapter, SourceKind } from '../observed-types.js';
import { argocdIntake } from './argocd.js';
import { awsIntake, cloudtrailPull } from './aws.js';
import { azureIntake } from './azure.js';
import { cloudeventsIntake } from './cloudevents.js';
import { githubIntake, githubPull } from './github.js';
import { gitlabIntake, gitlabPull } from './gitlab.js';
import { kubernetesIntake } from './kubernetes.js';
import { pagerdutyIntake } from './pagerduty.js';
import { webhookIntake } from './webhook.js';

export const INTAKE_ADAPTERS: Record<SourceKind, IntakeAdapter> = {
  github: githubIntake, gitlab: gitlabIntake, argocd: argocdIntake, kubernetes: kubernetesIntake, aws: awsIntake,
  azure: azureIntake, pagerduty: pagerdutyIntake, cloudevents: cloudeventsIntake, webhook: webhookIntake,
};

export const PULL_ADAPTERS: Partial<Record<SourceKind, PullAdapter>> = { github: githubPull, gitlab: gitlabPull, aws: cloudtrailPull };
