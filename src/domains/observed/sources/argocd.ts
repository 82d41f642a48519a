/**
 * Argo CD notifications: its webhook service POSTs whatever body the template renders (Argo CD does
 * not sign it; the service adds `Authorization: Bearer <secret>`). The body read here is the one the
 * template in docs/observed.md ("Argo CD") renders from the Application: one JSON object per
 * notification, with `event` naming the trigger that fired. argocd.test.ts renders that very
 * template against the real Applications in ../shared/fixtures/real/argocd.
 * Shapes: github:argoproj/argo-cd docs/operator-manual/notifications/services/webhook.md,
 * templates.md (Sprig functions) and notifications_catalog/triggers/*.yaml; the body is rendered
 * with Go's text/template, not html/template, and resent unchanged on a 5xx
 * (github:argoproj/notifications-engine pkg/services/webhook.go), so a retry has the same key.
 */
import { invalid } from '../../../platform/errors.js';
import type { RecordPrincipal } from '../../changes/change-feed.js';
import type { AdapterContext, IntakeAdapter, ObservedEvent, Parsed } from '../observed-types.js';
import { bearerMatches } from './auth.js';
import { wholeChangeRef } from './change-ref.js';
import { isObj, optLink, optObj, optText, optTime, repoFromUrl, reqText, unknownPrincipal, type Obj } from './standard-fields.js';

/** The triggers the template is sent for, and what each records. */
const EVENTS = {
  'sync-succeeded': { kind: 'sync', outcome: 'succeeded' },
  'sync-failed': { kind: 'sync', outcome: 'failed' },
  'health-degraded': { kind: 'health', outcome: 'degraded' },
} as const;
type ArgoEvent = keyof typeof EVENTS;

/** The Application label naming its service, as Kubernetes' recommended labels spell it. */
export const ARGOCD_SERVICE_LABEL = 'app.kubernetes.io/name';
/** Application labels read as the environment, first found wins. */
export const ARGOCD_ENVIRONMENT_LABELS = ['changeledger.io/environment', 'environment'] as const;

const short = (rev: string | null) => (rev && /^[0-9a-f]{40}$/i.test(rev) ? rev.slice(0, 7) : rev);

function textMap(v: unknown, field: string): Record<string, string> {
  const o = optObj(v, field) ?? {};
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Who made a sync: the person Argo CD names, or its automated sync; a health change is Argo CD's own report. */
function principalOf(event: ArgoEvent, initiatedBy: Obj): RecordPrincipal {
  if (event === 'health-degraded') return { kind: 'system', name: 'argocd', id: null, detail: {} };
  const username = optText(initiatedBy.username, 'initiatedBy.username', 300);
  if (username) return { kind: 'person', name: username, id: null, detail: { via: 'argocd' } };
  if (initiatedBy.automated === true) return { kind: 'service', name: 'argocd (automated sync)', id: null, detail: { automated: 'true' } };
  return unknownPrincipal('argocd');
}

/** The synced resources as lines a person reads: `Deployment test-lla/test-lla: Synced (serverside-applied)`. */
function resourceLines(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalid('resources', 'must be a list');
  return v.filter(isObj).map((r) => {
    const where = [r.namespace, r.name].filter((x) => typeof x === 'string' && x !== '').join('/');
    const msg = typeof r.message === 'string' && r.message !== '' ? ` (${r.message})` : '';
    return `${String(r.kind ?? 'object')} ${where}: ${String(r.status ?? r.hookPhase ?? '')}${msg}`.trim();
  });
}

export function parseArgocd(body: unknown, ctx: AdapterContext): Parsed {
  if (!isObj(body)) throw invalid('body', 'must be the JSON object the changeledger notification template renders');
  const name = reqText(body.event, 'event', 100);
  // A trigger we do not record (on-sync-running, on-created …) wired to the same template.
  if (!Object.hasOwn(EVENTS, name)) return { events: [], ignored: 1, noise: 0, rejected: [] };
  const event = name as ArgoEvent;
  const app = reqText(body.app, 'app', 300);
  const appNamespace = optText(body.appNamespace, 'appNamespace', 300);
  const uid = optText(body.uid, 'uid', 100);
  const labels = textMap(body.labels, 'labels');
  const destination = textMap(body.destination, 'destination');
  const revision = optText(body.revision, 'revision', 300);
  const finishedAt = optTime(body.finishedAt, 'finishedAt');
  const startedAt = optTime(body.startedAt, 'startedAt');
  const healthSince = optTime(body.healthSince, 'healthSince');
  const message = optText(body.message, 'message', 5000);
  const base = uid ?? `${appNamespace ?? ''}/${app}`;
  let eventId: string;
  let occurredAt: string;
  let title: string;
  if (event === 'health-degraded') {
    // Argo CD ≥ 2.11 sends when health last changed; older ones do not, so a degradation is one per synced revision.
    eventId = healthSince ? `${base}:health:${healthSince}` : `${base}:health:${revision ?? '-'}:${finishedAt ?? '-'}`;
    occurredAt = healthSince ?? ctx.now.toISOString();
    title = `Argo CD: ${app} is degraded`;
  } else {
    const when = finishedAt ?? startedAt;
    if (!when) throw invalid('finishedAt', 'is required for a sync: the template sends the operation\'s finishedAt');
    // Argo CD gives a sync operation no id of its own: the application, the revision and when the sync finished name it.
    eventId = `${base}:sync:${revision ?? '-'}:${when}`;
    occurredAt = when;
    title = event === 'sync-succeeded'
      ? `Argo CD synced ${app}${revision ? ` to ${short(revision)}` : ''}`
      : `Argo CD sync of ${app} failed${message ? `: ${message.slice(0, 200)}` : ''}`;
  }
  const repoURL = optText(body.repoURL, 'repoURL', 2000)
    ?? (Array.isArray(body.sources) ? body.sources.filter(isObj).map((s) => s.repoURL).find((u): u is string => typeof u === 'string' && u !== '') ?? null : null);
  const environment = ARGOCD_ENVIRONMENT_LABELS.map((l) => labels[l]).find((v) => v !== undefined && v !== '');
  const argocdUrl = optLink(body.argocdUrl, 'argocdUrl');
  const changeId = optText(body.changeId, 'changeId', 100);
  const lines = event === 'health-degraded' ? [] : [...(message ? [message] : []), ...resourceLines(body.resources)];
  const cluster = destination.name ?? destination.server;
  const e: ObservedEvent = {
    eventId,
    kind: EVENTS[event].kind,
    title,
    occurredAt,
    principal: principalOf(event, optObj(body.initiatedBy, 'initiatedBy') ?? {}),
    action: EVENTS[event].kind,
    resource: `applications/${app}`,
    location: {
      ...(cluster ? { cluster } : {}),
      ...(destination.namespace ? { namespace: destination.namespace } : {}),
      ...(environment ? { environment } : {}),
    },
    serviceHint: labels[ARGOCD_SERVICE_LABEL] || app,
    repo: repoFromUrl(repoURL),
    diff: lines.length ? lines.join('\n') : null,
    params: {
      project: optText(body.project, 'project', 300), appNamespace, revision,
      syncStatus: optText(body.syncStatus, 'syncStatus', 100), healthStatus: optText(body.healthStatus, 'healthStatus', 100), phase: optText(body.phase, 'phase', 100),
    },
    link: argocdUrl ? `${argocdUrl.replace(/\/+$/, '')}/applications/${appNamespace ? `${encodeURIComponent(appNamespace)}/` : ''}${encodeURIComponent(app)}` : null,
    denied: false,
    errorCode: null,
    outcome: EVENTS[event].outcome,
    // Only a succeeded sync wrote the planned change's manifests: a failed sync or a degraded app confirms nothing.
    changeRef: event === 'sync-succeeded' ? wholeChangeRef(changeId) : null,
    capBucket: null,
  };
  return { events: [e], ignored: 0, noise: 0, rejected: [] };
}

export const argocdIntake: IntakeAdapter = {
  kind: 'argocd',
  authenticate: bearerMatches,
  parse: (req, ctx) => parseArgocd(req.body, ctx),
};
