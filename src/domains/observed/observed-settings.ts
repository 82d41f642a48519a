import { invalid } from '../../platform/errors.js';
import { DEFAULT_CI_NAMESPACES, LIMITS, NEVER_CI_NAMESPACES } from './observed-types.js';

/**
 * The organisation's observed-change settings: how often sources are pulled, which Kubernetes
 * namespaces hold CI service accounts, and the two maps that link an observed change to services.
 * Pure: the checks of a PUT, field by field, worded for a person.
 */

export type ObservedSettings = {
  pullIntervalSeconds: number;
  ciNamespaces: string[];
  /** {repo_glob: service}: a repository's changes belong to that service. */
  serviceMap: Record<string, string>;
  /** {resource_glob: service | [services]}: extra links only. */
  resourceMap: Record<string, string | string[]>;
};

export type ObservedSettingsInput = Partial<Record<keyof ObservedSettings, unknown>>;

export const DEFAULT_OBSERVED_SETTINGS: ObservedSettings = {
  pullIntervalSeconds: LIMITS.defaultIntervalSeconds, ciNamespaces: [...DEFAULT_CI_NAMESPACES], serviceMap: {}, resourceMap: {},
};

/** The table's own bound (a day): a longer interval would leave a marker's 20-minute overlap meaningless. */
export const MAX_INTERVAL_SECONDS = 86_400;
/** Namespaces one organisation lists as CI: far more than any cluster has CI systems. */
export const MAX_CI_NAMESPACES = 50;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SERVICE = /^[^\u0000-\u001f\u007f]{1,200}$/;
import { globProblem } from '../../platform/globs.js';

export { GLOB_OPTIONS, globProblem } from '../../platform/globs.js';

function checkInterval(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_INTERVAL_SECONDS) {
    throw invalid('pullIntervalSeconds', `must be a whole number of seconds from 0 (no scheduled pulls) to ${MAX_INTERVAL_SECONDS} (a day)`);
  }
  if (v > 0 && v < 60) throw invalid('pullIntervalSeconds', 'must be at least 60 seconds (or 0 to turn scheduled pulls off): the sources\' APIs limit how often they may be asked');
  return v;
}

function checkNamespaces(v: unknown): string[] {
  if (!Array.isArray(v)) throw invalid('ciNamespaces', 'must be a list of Kubernetes namespaces');
  if (v.length > MAX_CI_NAMESPACES) throw invalid('ciNamespaces', `must list at most ${MAX_CI_NAMESPACES} namespaces`);
  const out: string[] = [];
  v.forEach((ns, i) => {
    if (typeof ns !== 'string' || ns.length > 63 || !NAMESPACE.test(ns)) throw invalid(`ciNamespaces.${i}`, 'is not a Kubernetes namespace name (lower-case letters, digits and dashes, at most 63)');
    if (ns === 'argocd') throw invalid(`ciNamespaces.${i}`, 'cannot be a CI namespace: Argo CD\'s syncs arrive through the Argo CD connection, and counting its service account\'s writes too would record each change twice');
    if ((NEVER_CI_NAMESPACES as readonly string[]).includes(ns)) throw invalid(`ciNamespaces.${i}`, `cannot be a CI namespace: ${ns} belongs to the cluster itself, and its service accounts' writes are the cluster's own plumbing`);
    if (!out.includes(ns)) out.push(ns);
  });
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkService(field: string, v: unknown): string {
  if (typeof v !== 'string' || !SERVICE.test(v.trim())) throw invalid(field, 'must be a service name of 1 to 200 characters');
  return v.trim();
}

function checkServiceMap(v: unknown): Record<string, string> {
  if (!isRecord(v)) throw invalid('serviceMap', 'must be an object {repository glob: service}, such as {"acme/checkout-*": "checkout"}');
  const keys = Object.keys(v);
  // The issue bounds only the resource map; the repository map takes the same bound (one page of globs).
  if (keys.length > LIMITS.resourceMapGlobs) throw invalid('serviceMap', `must have at most ${LIMITS.resourceMapGlobs} globs`);
  const out: Record<string, string> = {};
  for (const glob of keys) {
    const p = globProblem(glob);
    if (p) throw invalid(`serviceMap.${glob}`, p);
    out[glob] = checkService(`serviceMap.${glob}`, v[glob]);
  }
  return out;
}

function checkResourceMap(v: unknown): Record<string, string | string[]> {
  if (!isRecord(v)) throw invalid('resourceMap', 'must be an object {resource glob: service or [services]}, such as {"arn:aws:sqs:*:*:orders-*": ["orders", "billing"]}');
  const keys = Object.keys(v);
  if (keys.length > LIMITS.resourceMapGlobs) throw invalid('resourceMap', `must have at most ${LIMITS.resourceMapGlobs} globs`);
  const out: Record<string, string | string[]> = {};
  for (const glob of keys) {
    const p = globProblem(glob);
    if (p) throw invalid(`resourceMap.${glob}`, p);
    const value = v[glob];
    if (Array.isArray(value)) {
      if (value.length === 0 || value.length > LIMITS.servicesPerGlob) throw invalid(`resourceMap.${glob}`, `must name 1 to ${LIMITS.servicesPerGlob} services`);
      out[glob] = [...new Set(value.map((s, i) => checkService(`resourceMap.${glob}.${i}`, s)))];
    } else out[glob] = checkService(`resourceMap.${glob}`, value);
  }
  return out;
}

const CHECKS: { [K in keyof ObservedSettings]: (v: unknown) => ObservedSettings[K] } = {
  pullIntervalSeconds: checkInterval, ciNamespaces: checkNamespaces, serviceMap: checkServiceMap, resourceMap: checkResourceMap,
};

/** The settings after a PUT: the fields given, checked; the rest kept. `changed` lists what differs. */
export function applySettings(before: ObservedSettings, input: ObservedSettingsInput): { next: ObservedSettings; changed: Array<keyof ObservedSettings> } {
  const next: ObservedSettings = { ...before };
  const changed: Array<keyof ObservedSettings> = [];
  for (const key of Object.keys(CHECKS) as Array<keyof ObservedSettings>) {
    if (input[key] === undefined) continue;
    const value = CHECKS[key](input[key]);
    (next as Record<string, unknown>)[key] = value;
    if (canonical(value) !== canonical(before[key])) changed.push(key);
  }
  return { next, changed };
}

/** Maps compare by content, whatever the order of their keys. */
function canonical(v: unknown): string {
  if (isRecord(v)) return JSON.stringify(Object.keys(v).sort().map((k) => [k, v[k]]));
  return JSON.stringify(v);
}
