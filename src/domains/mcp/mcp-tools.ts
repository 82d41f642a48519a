/**
 * The tools an MCP client sees: each with a JSON Schema input, a structured result and the scope a
 * token needs to see it. They call the same services as the HTTP API, as the token's owner.
 */
import { Type, type TSchema } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import { timeBound } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { badRequest } from '../../platform/errors.js';
import type { Principal, Scope } from '../auth/index.js';
import type { BlastService } from '../catalogue/blast-service.js';
import type { ChangeService } from '../changes/change-service.js';
import { readStatus } from '../changes/change-view.js';
import type { FlagService } from '../flags/index.js';
import { AUDIT_PAGE_MAX, listAuditEvents, publicEvent, type AuditContext } from '../ledger/index.js';
import { MAX_CHANGES, WhatChanged, type WhatChangedInput } from './what-changed.js';

export type ToolDeps = {
  db: Database; clock: Clock; changes: ChangeService; blast: BlastService; flags: FlagService; baseUrl: () => string;
};

export type Tool = {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  readOnly: boolean;
  input: TSchema;
  output: TSchema;
  run(p: Principal, ctx: AuditContext, args: Record<string, unknown>): Promise<Record<string, unknown>>;
};

const Str = (o: Parameters<typeof Type.String>[0] = {}) => Type.String(o);
const Open = (props: Parameters<typeof Type.Object>[0], description?: string) => Type.Object(props, { additionalProperties: true, ...(description ? { description } : {}) });
const Items = Type.Array(Type.Record(Type.String(), Type.Unknown()));

const WhatChangedIn = Type.Object({
  entity: Str({ minLength: 1, maxLength: 500, description: 'A service or asset, by key (svc:checkout) or by name (Checkout)' }),
  around: Type.Optional(Str({ maxLength: 40, description: 'The moment to look around: "now" (default) or an ISO-8601 time, such as the incident start' })),
  before: Type.Optional(Str({ maxLength: 10, description: 'How far back from that moment: a duration such as 60m (default), 4h or 2d' })),
  after: Type.Optional(Str({ maxLength: 10, description: 'How far after it: a duration, 15m by default' })),
  hops: Type.Optional(Type.Integer({ minimum: 0, maximum: 2, description: 'Neighbours to include: 0 the entity alone, 1 (default) its direct neighbours, 2 theirs too' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CHANGES, description: 'Changes answered at most (default 100)' })),
}, { additionalProperties: false });

const WhatChangedOut = Open({
  entity: Open({ key: Str(), name: Str(), kind: Str() }),
  window: Open({ around: Str(), from: Str(), to: Str() }),
  changes: Items, neverCaptured: Type.Array(Str()), note: Str(), searched: Type.Array(Str()), truncated: Type.Boolean(),
});

const ChangeStatusIn = Type.Object({ id: Str({ minLength: 1, maxLength: 100, description: 'The change: CHG-XXXXXXXX or its chg_ id' }) }, { additionalProperties: false });

const BlastIn = Type.Object({
  components: Type.Array(Str({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 100, description: 'Services or assets by key or name' }),
  hops: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 (default) or 2' })),
}, { additionalProperties: false });

const FlagHistoryIn = Type.Object({
  key: Type.Optional(Str({ minLength: 1, maxLength: 200, description: 'One flag key' })),
  namespace: Type.Optional(Str({ minLength: 1, maxLength: 200, description: 'A namespace glob such as ops.payments.* (give key or namespace)' })),
  since: Type.Optional(Str({ maxLength: 40, description: 'A duration back from now (24h, 7d) or an ISO-8601 time' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Records at most (default 50)' })),
}, { additionalProperties: false });

const AuditIn = Type.Object({
  action: Type.Optional(Str({ maxLength: 100, description: 'An action or its prefix: flag.updated, change., token.' })),
  actor: Type.Optional(Str({ maxLength: 320, description: 'Who, exactly as the ledger names them: a person’s e-mail (their own writes), a token as token "ci" of a@acme.dev, or an actor id' })),
  target: Type.Optional(Str({ maxLength: 300, description: 'The target’s id, such as a flag key or a chg_ id' })),
  since: Type.Optional(Str({ maxLength: 40, description: 'A duration back from now (24h) or an ISO-8601 time' })),
  until: Type.Optional(Str({ maxLength: 40, description: 'A duration back from now or an ISO-8601 time' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_PAGE_MAX, description: 'Events at most (default 50)' })),
}, { additionalProperties: false });

const RegisterIn = Type.Object({
  title: Str({ minLength: 1, maxLength: 200 }),
  kind: Type.Optional(Type.Union(['deploy', 'config', 'infra', 'other'].map((k) => Type.Literal(k)), { description: 'deploy, config, infra or other (default)' })),
  description: Type.Optional(Str({ maxLength: 20_000 })),
  ticketUrl: Type.Optional(Str({ maxLength: 1000 })),
  components: Type.Array(Str({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 100, description: 'Services or assets by key (svc:checkout) or name; names the catalogue cannot match wait for a person to map them' }),
  hops: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
  windowStart: Type.Optional(Str({ maxLength: 40, description: 'ISO-8601 date-time' })),
  windowEnd: Type.Optional(Str({ maxLength: 40, description: 'ISO-8601 date-time, 5 min – 7 days after the start' })),
  maxDurationMinutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 10080, description: 'A window from now for this long, instead of windowStart and windowEnd' })),
  draft: Type.Optional(Type.Boolean({ description: 'Save it as a draft, not submitted' })),
}, { additionalProperties: false });

export function tools(d: ToolDeps): Tool[] {
  const whatChanged = new WhatChanged({ changes: d.changes, blast: d.blast, baseUrl: d.baseUrl, now: () => d.clock.now() });
  const link = (id: string) => `${d.baseUrl()}/?view=changes&change=${id}`;
  return [
    {
      name: 'what_changed', title: 'What changed near a service', scope: 'changes:read', readOnly: true,
      description: 'Planned changes, flag writes and observed changes that touch a service or asset, or the services around it, in a window around a moment (newest first). '
        + 'Each carries its CHG id, who, what, when, approval, verdict and a link. neverCaptured lists what the connected sources cannot see, so an empty answer is read right.',
      input: WhatChangedIn, output: WhatChangedOut,
      run: (p, _ctx, a) => whatChanged.answer(p, a as WhatChangedInput) as Promise<Record<string, unknown>>,
    },
    {
      name: 'change_status', title: 'A change’s status', scope: 'changes:read', readOnly: true,
      description: 'Where a planned change stands: status, approvals and who is still asked, window, alert hold, deliveries and verdict (the pipeline’s /status answer).',
      input: ChangeStatusIn, output: Open({ id: Str(), status: Str() }),
      run: async (p, _ctx, a) => {
        const c = await d.changes.getByRef(p, a.id as string);
        const status = await readStatus(d.db, c, { change: link(c.id), approve: `${link(c.id)}&approve=1` }, d.changes.readDeliveries, d.changes.readSuppression);
        return { ...status, impact: c.impact, aiImpact: c.aiImpact, link: link(c.id) } as Record<string, unknown>;
      },
    },
    {
      name: 'blast_radius', title: 'Blast radius preview', scope: 'changes:read', readOnly: true,
      description: 'What a change to these components would reach: the services and assets of its blast radius, their criticality, and what could not be matched. Computed, never stored.',
      input: BlastIn, output: Open({ resolved: Items, unresolved: Items, services: Type.Array(Str()), assets: Type.Array(Str()), scopeLine: Str() }),
      run: async (p, _ctx, a) => {
        const components = (a.components as string[]).map((c) => (c.includes(':') ? { key: c } : { query: c }));
        const v = await d.blast.preview(p.org.id, { components, hops: (a.hops as 1 | 2 | undefined) ?? 1 });
        return {
          resolved: v.resolved.map((r) => ({ key: r.key, name: r.name, kind: r.kind, inCatalogue: r.seen })),
          unresolved: v.unresolved.map((u) => ({ query: u.query, candidates: u.candidates.slice(0, 5) })),
          services: v.blast.scope.serviceKeys, assets: v.blast.scope.assetKeys, counts: v.counts, scopeLine: v.scopeLine, scopeBreakdown: v.scopeBreakdown,
          criticality: v.criticality, criticalitySource: v.criticalitySource, refused: v.refused, large: v.large, warnings: v.blast.warnings,
          notSilenced: v.blast.notSilenced,
        };
      },
    },
    {
      name: 'flag_history', title: 'Flag history', scope: 'flags:read', readOnly: true,
      description: 'The changes of one flag, or of every flag in a namespace glob (ops.payments.*), newest first: what changed, from and to, where, who, why and when.',
      input: FlagHistoryIn, output: Open({ records: Items }),
      run: async (p, _ctx, a) => {
        const pattern = (a.key ?? a.namespace) as string | undefined;
        if (!pattern || (a.key && a.namespace)) throw badRequest('give either key or namespace', a.key ? 'namespace' : 'key');
        if (a.key && (a.key as string).includes('*')) throw badRequest('key is one flag; use namespace for a glob', 'key');
        const since = timeBound(a.since as string | undefined, d.clock.now(), 'since');
        const page = await d.flags.audit(p.org.id, { namespace: pattern, since }, (a.limit as number | undefined) ?? 50);
        return {
          records: page.items.map((r) => ({
            flag: r.flag, env: r.env, change: r.change, fields: r.fields, from: r.from, to: r.to, reason: r.reason,
            who: r.actor, source: r.source, at: r.ts, seq: r.seq, approvers: r.approvers, link: `${d.baseUrl()}/flags/${encodeURIComponent(r.flag)}`,
          })),
          more: page.nextCursor !== null,
        };
      },
    },
    {
      name: 'audit_query', title: 'Audit events', scope: 'audit:read', readOnly: true,
      description: 'Events of the tamper-evident ledger, newest first, filtered by action (or its prefix), actor, target and time.',
      input: AuditIn, output: Open({ events: Items }),
      run: async (p, _ctx, a) => {
        const now = d.clock.now();
        const actor = a.actor as string | undefined;
        const page = await listAuditEvents(d.db, p.org.id, {
          action: a.action as string | undefined, targetId: a.target as string | undefined,
          ...(actor ? (/^[a-z]+_[0-9a-f]+$/i.test(actor) ? { actor } : { actorName: actor }) : {}),
          since: timeBound(a.since as string | undefined, now, 'since'), until: timeBound(a.until as string | undefined, now, 'until'),
        }, (a.limit as number | undefined) ?? 50);
        return { events: page.items.map(publicEvent), more: page.nextCursor !== null };
      },
    },
    {
      name: 'register_change', title: 'Register a planned change', scope: 'changes:write', readOnly: false,
      description: 'Registers a planned change as the token’s owner. It never approves, maps or classifies: approvers decide, and names the catalogue cannot match wait for a person.',
      input: RegisterIn, output: Open({ id: Str(), status: Str(), link: Str() }),
      run: async (p, ctx, a) => {
        const { components, ...rest } = a as { components: string[] } & Record<string, unknown>;
        const r = await d.changes.register(ctx, p, { ...rest, components: components.map((c) => (c.includes(':') ? { key: c } : { query: c })) } as never);
        return {
          id: r.change.displayId, changeId: r.change.id, status: r.change.status, link: link(r.change.id), window: { start: r.change.windowStart, end: r.change.windowEnd },
          blast: r.blast ? { counts: r.blast.counts } : null, match: r.match, approval: r.approval ?? null, mapping: r.mapping ?? null, governance: r.governance ?? null,
          windows: r.windows ?? null, warnings: r.warnings ?? [],
        };
      },
    },
  ];
}
