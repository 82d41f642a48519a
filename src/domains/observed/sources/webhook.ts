/**
 * The generic change webhook: any tool that can POST JSON reports a change with a body we document
 * (docs/observed.md, "PagerDuty, CloudEvents and the generic webhook"). One change, or a batch
 * `{changes: [...]}` in which a bad item is reported and the good ones recorded.
 *
 * A generic sender can never stamp a receipt on a planned change: changeRef stays null whatever the
 * body says (only a harvest path may fold a write; the intake also refuses by HARVEST_KINDS).
 */
import { invalid } from '../../../platform/errors.js';
import type { ObservedKind, RecordPrincipal } from '../../changes/change-feed.js';
import { LIMITS, type AdapterContext, type IntakeAdapter, type ObservedEvent, type Parsed, type Rejected } from '../observed-types.js';
import { bearerMatches } from './auth.js';
import { isObj, optLink, optText, optTime, rejectedOf, repoFromUrl, reqText, unknownPrincipal, type Obj } from './standard-fields.js';

/**
 * The `kind` words a sender may use and the kind each is listed as. The list's own kinds map to
 * themselves; config and infra changes are `change` (the word itself is kept as the action).
 * Audit-log kinds (k8s_write, cloud_write) and Argo CD's health are not a sender's to claim.
 */
export const WEBHOOK_KINDS: Readonly<Record<string, ObservedKind>> = {
  change: 'change', config: 'change', configuration: 'change', infra: 'change', infrastructure: 'change', feature: 'change', database: 'change',
  deploy: 'deploy', deployment: 'deploy', rollback: 'deploy',
  release: 'release', push: 'push', pr_merged: 'pr_merged', merge: 'pr_merged', tag: 'tag', sync: 'sync',
};

/** The most a batch may hold: one delivery is at most a tick's worth of rows. */
export const WEBHOOK_BATCH_MAX = LIMITS.rowsPerTick;

function principalOf(v: unknown, field: string): RecordPrincipal {
  if (v === undefined || v === null) return unknownPrincipal();
  if (typeof v === 'string') {
    const name = reqText(v, field, 200);
    return { kind: 'unknown', name, id: null, detail: {} };
  }
  if (!isObj(v)) throw invalid(field, 'must be a name, or an object with a name');
  const name = reqText(v.name, `${field}.name`, 200);
  const email = optText(v.email, `${field}.email`, 320);
  const id = optText(v.id, `${field}.id`, 200);
  const kind = optText(v.kind, `${field}.kind`, 20);
  if (kind !== null && kind !== 'person' && kind !== 'service') throw invalid(`${field}.kind`, 'must be person or service', kind);
  return { kind: kind ?? 'unknown', name, id, detail: email ? { email } : {} };
}

/** One change of the body; `ctx.sourceId` scopes the sender's id (two senders may both count from 1). */
export function webhookEvent(item: unknown, ctx: AdapterContext): ObservedEvent {
  if (!isObj(item)) throw invalid('body', 'must be a JSON object with an id and a title');
  const c: Obj = item;
  const id = reqText(c.id, 'id', 200);
  const title = reqText(c.title, 'title', 1024);
  const word = optText(c.kind, 'kind', 40)?.toLowerCase() ?? 'change';
  // Own keys only: `constructor` or `toString` is no kind.
  const kind = Object.hasOwn(WEBHOOK_KINDS, word) ? WEBHOOK_KINDS[word] : undefined;
  if (!kind) throw invalid('kind', `must be one of: ${Object.keys(WEBHOOK_KINDS).join(', ')}`, word);
  const environment = optText(c.environment, 'environment', 200);
  const repo = optText(c.repo, 'repo', 300);
  return {
    eventId: `${ctx.sourceId}/${id}`,
    kind,
    title,
    occurredAt: optTime(c.occurredAt, 'occurredAt') ?? ctx.now.toISOString(),
    principal: principalOf(c.actor, 'actor'),
    action: word === kind ? null : word,
    resource: optText(c.resource, 'resource', 500),
    location: environment ? { environment } : {},
    serviceHint: optText(c.service, 'service', 200),
    repo: repo ? (repoFromUrl(repo) ?? repo) : null,
    // The intake scrubs and cuts it; text only, so what a person reads is what was sent.
    diff: optText(c.diff, 'diff', 1_000_000),
    params: null,
    link: optLink(c.link, 'link'),
    denied: false,
    errorCode: null,
    outcome: null,
    changeRef: null,
    capBucket: null,
  };
}

export function parseWebhook(body: unknown, ctx: AdapterContext): Parsed {
  if (!isObj(body)) throw invalid('body', 'must be a JSON object: one change, or {"changes": [...]}');
  if (!('changes' in body)) return { events: [webhookEvent(body, ctx)], ignored: 0, noise: 0, rejected: [] };
  const items = body.changes;
  if (!Array.isArray(items)) throw invalid('changes', 'must be a list of changes');
  if (items.length > WEBHOOK_BATCH_MAX) throw invalid('changes', `must have at most ${WEBHOOK_BATCH_MAX} entries`);
  const events: ObservedEvent[] = [];
  const rejected: Rejected[] = [];
  items.forEach((item, i) => {
    try {
      events.push(webhookEvent(item, ctx));
    } catch (e) {
      rejected.push(rejectedOf(i, e, `changes.${i}.`));
    }
  });
  return { events, ignored: 0, noise: 0, rejected };
}

export const webhookIntake: IntakeAdapter = {
  kind: 'webhook',
  authenticate: bearerMatches,
  parse: (req, ctx) => parseWebhook(req.body, ctx),
};
