/**
 * Which catalogue services an observed change belongs to. Pure: the catalogue's names and the
 * organisation's two maps come in, the event's service and every linked service go out.
 *
 * Order for the main service: the event's own service (a K8s label, an Argo CD app, a CDEvents
 * subject) when the catalogue knows it, else the repository through Backstage's project-slug
 * annotations, else the service map {repo_glob: service}, else unmapped (''). The resource map and
 * a cloud resource's own name only ADD links; they never make the main service.
 */
import picomatch from 'picomatch';
import type { ServiceNames } from '../catalogue/service-names.js';
import { resolveName } from '../catalogue/matching.js';
import type { ObservedChange, ObservedEvent } from './observed-types.js';

export type ServiceMaps = { serviceMap: Record<string, string>; resourceMap: Record<string, string | string[]> };
export type Resolution = Pick<ObservedChange, 'service' | 'serviceVia' | 'services'>;
type Matcher = (s: string) => boolean;
/** The maps with their globs compiled once per batch. */
export type CompiledMaps = { serviceMap: Array<[Matcher, string]>; resourceMap: Array<[Matcher, string[]]> };

// dot: a repo or resource segment may start with a dot; nocase: GitHub and GitLab paths are case-insensitive.
const compile = (glob: string): Matcher => picomatch(glob, { dot: true, nocase: true });

export function compileMaps(maps: ServiceMaps): CompiledMaps {
  return {
    serviceMap: Object.entries(maps.serviceMap).map(([g, s]) => [compile(g), s]),
    resourceMap: Object.entries(maps.resourceMap).map(([g, s]) => [compile(g), [s].flat()]),
  };
}

/** A name the catalogue knows → its key; otherwise null. */
function known(names: ServiceNames, name: string | null | undefined): string | null {
  if (!name || !name.trim()) return null;
  const r = resolveName(names.match, name);
  return 'candidates' in r ? null : r.key;
}

/** A map's value: the catalogue's key when it knows the name, else the value as written (a service yet to be imported). */
const mapped = (names: ServiceNames, value: string) => known(names, value) ?? value.trim();

type EventFacts = Pick<ObservedEvent, 'serviceHint' | 'repo' | 'resource' | 'resourceName' | 'location'>;

export function resolveServices(ev: EventFacts, names: ServiceNames, maps: CompiledMaps): Resolution {
  const repo = ev.repo ?? ev.location.repo ?? null;
  let service = '';
  let serviceVia: Resolution['serviceVia'] = 'unmapped';
  const fromEvent = known(names, ev.serviceHint) ?? (repo ? names.repoSlugs.get(repo.toLowerCase()) ?? null : null);
  if (fromEvent) {
    service = fromEvent;
    serviceVia = 'event';
  } else if (repo) {
    // The first glob that matches, in the order the organisation wrote them.
    const hit = maps.serviceMap.find(([m]) => m(repo));
    if (hit && hit[1].trim()) {
      service = mapped(names, hit[1]);
      serviceVia = 'repo_map';
    }
  }
  const services = new Set<string>(service ? [service] : []);
  if (ev.resource) {
    // A namespaced K8s object is matched as written and as namespace/resource (prod/deployments/checkout).
    const subjects = [ev.resource, ...(ev.location.namespace ? [`${ev.location.namespace}/${ev.resource}`] : [])];
    for (const [m, list] of maps.resourceMap) if (subjects.some((s) => m(s))) for (const s of list) if (s.trim()) services.add(mapped(names, s));
  }
  const own = known(names, ev.resourceName);
  if (own) services.add(own);
  return { service, serviceVia, services: [...services] };
}
