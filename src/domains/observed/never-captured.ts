/**
 * What the organisation's connected sources cannot see, so an empty change list reads as "nothing
 * in what we can see" rather than "nothing happened". Pure: the lines follow the kinds connected.
 */
import type { SourceKind } from './observed-types.js';

const has = (kinds: ReadonlySet<SourceKind>, ...any: SourceKind[]) => any.some((k) => kinds.has(k));

export function neverCaptured(connected: readonly SourceKind[]): string[] {
  const kinds = new Set(connected);
  const lines: string[] = [];
  if (kinds.size === 0) lines.push('anything outside changeledger: no change source is connected, so this list holds registered changes and flag writes only');
  if (!has(kinds, 'github', 'gitlab')) lines.push('pushes, merges and releases in Git repositories: no GitHub or GitLab connection');
  if (!has(kinds, 'argocd')) lines.push('Argo CD syncs: no Argo CD connection');
  lines.push(has(kinds, 'webhook', 'cloudevents', 'pagerduty')
    ? 'settings changed inside an application (its admin screen or its own database) that it does not report to the generic webhook, CloudEvents or PagerDuty-style connection'
    : 'settings changed inside an application (its admin screen or its own database): no generic webhook, CloudEvents or PagerDuty-style connection reports them');
  if (kinds.has('kubernetes')) {
    lines.push('Kubernetes objects edited on a cluster whose audit webhook does not point here: only the connected clusters are seen');
  } else {
    const seen = [has(kinds, 'github', 'gitlab') ? 'pushes to the connected repositories' : null, kinds.has('argocd') ? 'Argo CD syncs' : null].filter(Boolean);
    lines.push(`Kubernetes objects edited directly (kubectl, Helm, an operator): no Kubernetes audit connection${seen.length ? `; only ${seen.join(' and ')} are seen` : ''}`);
  }
  lines.push('files, packages and registry settings inside a VM or a container');
  if (!has(kinds, 'aws', 'azure')) {
    lines.push('cloud control-plane writes at all: no AWS or Azure connection');
  } else {
    if (!kinds.has('aws')) lines.push('AWS writes at all: no AWS connection');
    if (!kinds.has('azure')) lines.push('Azure writes at all: no Azure connection');
    lines.push('data-plane writes made through a service’s own endpoint: S3 objects, DynamoDB items, Key Vault secrets, App Configuration key-values (their control-plane writes are recorded)');
  }
  if (kinds.has('aws')) {
    lines.push('the values written to Parameter Store, Secrets Manager, AppConfig or a Lambda or ECS environment: they read [not stored], only which key changed is kept');
    lines.push('AWS writes in regions an AWS connection does not list: only its regions and us-east-1 are read');
  }
  return lines;
}
