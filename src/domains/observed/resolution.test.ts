import { describe, expect, it } from 'vitest';
import { matchContext } from '../catalogue/matching.js';
import type { ServiceNames } from '../catalogue/service-names.js';
import { compileMaps, resolveServices, type ServiceMaps } from './resolution.js';

const names: ServiceNames = {
  match: matchContext(
    [{ kind: 'service', key: 'svc:checkout', name: 'checkout' }, { kind: 'service', key: 'svc:payments', name: 'payments' }, { kind: 'service', key: 'svc:orders-queue', name: 'orders-queue' }],
    [{ alias: 'pay', kind: 'service', key: 'svc:payments' }], []),
  repoSlugs: new Map([['acme/checkout-web', 'svc:checkout']]),
};
const maps: ServiceMaps = {
  serviceMap: { 'acme/pay-*': 'payments', 'acme/**': 'platform-tools' },
  resourceMap: { 'deployments/checkout*': ['payments'], 'arn:aws:s3:::invoices-*': 'payments', 'prod/configmaps/*': ['checkout', 'payments'] },
};
const ev = (over: Partial<Parameters<typeof resolveServices>[0]>) => ({ serviceHint: null, repo: null, resource: null, resourceName: null, location: {}, ...over });

describe('service resolution of an observed change', () => {
  const compiled = compileMaps(maps);
  it.each([
    ['the event\'s own service the catalogue knows', ev({ serviceHint: 'checkout', repo: 'acme/pay-api' }), { service: 'svc:checkout', serviceVia: 'event', services: ['svc:checkout'] }],
    ['an alias of the event\'s service', ev({ serviceHint: 'pay' }), { service: 'svc:payments', serviceVia: 'event', services: ['svc:payments'] }],
    ['the repository through a Backstage project-slug (any case)', ev({ repo: 'Acme/Checkout-Web' }), { service: 'svc:checkout', serviceVia: 'event', services: ['svc:checkout'] }],
    ['a hint the catalogue does not know falls to the service map', ev({ serviceHint: 'nobody-knows', repo: 'acme/pay-api' }), { service: 'svc:payments', serviceVia: 'repo_map', services: ['svc:payments'] }],
    ['the first matching glob wins; an unknown service is kept as written', ev({ repo: 'acme/tools' }), { service: 'platform-tools', serviceVia: 'repo_map', services: ['platform-tools'] }],
    ['the repo of the location counts too', ev({ location: { repo: 'acme/pay-ui' } }), { service: 'svc:payments', serviceVia: 'repo_map', services: ['svc:payments'] }],
    ['nothing matches: unmapped, under the empty service', ev({ repo: 'other/thing' }), { service: '', serviceVia: 'unmapped', services: [] }],
    ['the resource map only adds links', ev({ serviceHint: 'checkout', resource: 'deployments/checkout-api' }), { service: 'svc:checkout', serviceVia: 'event', services: ['svc:checkout', 'svc:payments'] }],
    ['a resource map hit alone leaves the record unmapped', ev({ resource: 'arn:aws:s3:::invoices-2026' }), { service: '', serviceVia: 'unmapped', services: ['svc:payments'] }],
    ['a namespaced object matches as namespace/resource', ev({ resource: 'configmaps/feature-x', location: { namespace: 'prod' } }), { service: '', serviceVia: 'unmapped', services: ['svc:checkout', 'svc:payments'] }],
    ['a cloud resource links the service of its own name', ev({ resource: 'arn:aws:sqs:eu-west-1:1:orders-queue', resourceName: 'orders-queue' }), { service: '', serviceVia: 'unmapped', services: ['svc:orders-queue'] }],
    ['a resource name the catalogue does not know adds nothing', ev({ resourceName: 'i-0abc' }), { service: '', serviceVia: 'unmapped', services: [] }],
  ])('%s', (_name, event, want) => {
    expect(resolveServices(event, names, compiled)).toEqual(want);
  });
});
