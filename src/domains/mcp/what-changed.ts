/**
 * "What changed near this incident?": every planned change, flag write and observed change that
 * touches an entity or the services and assets around it, in a window around a moment, newest
 * first, with what the connected sources can never see (so an empty answer is an honest one).
 */
import { parseDuration } from '../../platform/clock.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { Principal } from '../auth/index.js';
import type { BlastService } from '../catalogue/blast-service.js';
import type { ChangeService } from '../changes/change-service.js';
import type { RegisteredEntry } from '../changes/change-record.js';
import type { FeedEntry } from '../changes/change-feed.js';

/** The entity and its neighbours searched at most; beyond, the answer says how many were left out. */
export const MAX_SEARCHED = 50;
/** Changes answered at most (the change list's own cap). */
export const MAX_CHANGES = 200;
/** The widest window either side of the moment. */
const MAX_SPAN_MS = 30 * 24 * 3600_000;

export type WhatChangedInput = { entity: string; around?: string; before?: string; after?: string; hops?: number; limit?: number };

export type WhatChangedEntry = {
  id: string; origin: 'planned' | 'flag' | 'observed'; kind: string; title: string; status: string;
  who: { kind: string; name: string }; at: string; window: { start: string; end: string } | null;
  approval: { state: 'not_needed' | 'pending' | 'approved' | 'rejected' | 'expired'; quorum: number | null; decidedAt: string | null } | null;
  verdict: { impact: string; aiImpact: string | null } | null;
  authorized: boolean | null; denied: boolean;
  /** Which of the searched entities it names; empty when only its blast radius reaches the entity. */
  touches: string[];
  relation: 'entity' | 'neighbour' | 'blast_radius';
  link: string | null;
};

export type WhatChangedAnswer = {
  entity: { key: string; name: string; kind: string; inCatalogue: boolean };
  window: { around: string; from: string; to: string };
  hops: number;
  searched: string[];
  notSearched: number;
  changes: WhatChangedEntry[];
  truncated: boolean;
  neverCaptured: string[];
  note: string;
};

type ApprovalState = NonNullable<WhatChangedEntry['approval']>['state'];

/** A planned change's approval as a responder reads it: asked of people or not, and where it stands. */
export function approvalState(c: Pick<RegisteredEntry, 'status' | 'gated' | 'decidedAt'>): ApprovalState {
  if (c.status === 'rejected') return 'rejected';
  if (c.status === 'expired') return 'expired';
  if (!c.gated) return 'not_needed';
  return c.decidedAt ? 'approved' : 'pending';
}

function span(text: string | undefined, fallback: number, field: string): number {
  if (text === undefined || text === '') return fallback;
  const ms = parseDuration(text);
  if (ms === null) throw badRequest(`${field} must be a duration such as 60m, 2h or 1d`, field);
  if (ms > MAX_SPAN_MS) throw badRequest(`${field} may be at most 30d`, field);
  return ms;
}

function moment(text: string | undefined, now: Date): Date {
  if (text === undefined || text === '' || text === 'now') return now;
  const d = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(text.trim()) ? new Date(text) : null;
  if (!d || Number.isNaN(d.getTime())) throw badRequest('around must be "now" or an ISO-8601 time with a zone, such as 2026-12-04T09:30:00Z', 'around');
  return d;
}

const lower = (s: string) => s.toLowerCase();

export class WhatChanged {
  constructor(private readonly deps: { changes: ChangeService; blast: BlastService; baseUrl: () => string; now: () => Date }) {}

  async answer(p: Principal, input: WhatChangedInput): Promise<WhatChangedAnswer> {
    const name = input.entity.trim();
    if (!name) throw badRequest('entity must name a service or asset, by key (svc:checkout) or by name', 'entity');
    const hops = input.hops ?? 1;
    if (![0, 1, 2].includes(hops)) throw badRequest('hops must be 0, 1 or 2', 'hops');
    const limit = Math.min(input.limit ?? 100, MAX_CHANGES);
    const around = moment(input.around, this.deps.now());
    const from = new Date(around.getTime() - span(input.before, 60 * 60_000, 'before'));
    const to = new Date(around.getTime() + span(input.after, 15 * 60_000, 'after'));

    // The entity by key or by name, and the services and assets within `hops` of it.
    const byKey = name.includes(':');
    const preview = await this.deps.blast.preview(p.org.id, { components: [byKey ? { key: name } : { query: name }], hops: hops === 2 ? 2 : 1 });
    const entity = preview.resolved[0];
    if (!entity) {
      const candidates = preview.unresolved[0]?.candidates.slice(0, 5).map((c) => `${c.name} (${c.key})`) ?? [];
      throw notFound(`no service or asset "${name}" in the catalogue${candidates.length ? `; did you mean ${candidates.join(', ')}?` : ''}`);
    }
    const around1 = hops === 0 || !entity.seen ? [] : [...preview.blast.scope.serviceKeys, ...preview.blast.scope.assetKeys].filter((k) => k !== entity.key);
    const all = [entity.key, ...new Set(around1)];
    const searched = all.slice(0, MAX_SEARCHED);
    const window = { since: from.toISOString(), until: to.toISOString(), limit };

    // Anything naming one of the searched entities, and planned changes whose blast radius reaches the entity.
    const [named, reaching] = await Promise.all([
      this.deps.changes.list(p, { ...window, services: searched }),
      this.deps.changes.list(p, { ...window, component: entity.key, skipNeverCaptured: true }),
    ]);
    const seen = new Map<string, RegisteredEntry | FeedEntry>();
    for (const e of [...named.changes, ...reaching.changes]) if (!seen.has(e.id)) seen.set(e.id, e);
    const ordered = [...seen.values()].sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id));
    const searchedSet = new Set(searched.map(lower));
    const changes = ordered.slice(0, limit).map((e) => this.entry(e, entity.key, searchedSet));
    const neverCaptured = named.neverCaptured;
    return {
      entity: { key: entity.key, name: entity.name, kind: entity.kind, inCatalogue: entity.seen },
      window: { around: around.toISOString(), from: from.toISOString(), to: to.toISOString() },
      hops, searched, notSearched: all.length - searched.length, changes, truncated: ordered.length > limit, neverCaptured,
      note: changes.length
        ? 'Newest first. Changes outside what the connected sources can see (neverCaptured) are not here.'
        : 'Nothing changeledger can see changed here in this window; it cannot see what neverCaptured lists.',
    };
  }

  private entry(e: RegisteredEntry | FeedEntry, entityKey: string, searched: Set<string>): WhatChangedEntry {
    const base = this.deps.baseUrl();
    if (e.origin === 'registered') {
      const c = e as RegisteredEntry;
      const keys = c.components.map((x) => x.key);
      const touches = keys.filter((k) => searched.has(lower(k)));
      return {
        id: c.displayId, origin: 'planned', kind: c.kind, title: c.title, status: c.status,
        who: { kind: e.principal.kind, name: e.principal.name }, at: c.windowStart, window: { start: c.windowStart, end: c.windowEnd },
        approval: { state: approvalState(c), quorum: c.quorum, decidedAt: c.decidedAt },
        verdict: c.impact ? { impact: c.impact, aiImpact: c.aiImpact } : null,
        authorized: true, denied: false, touches,
        relation: touches.some((k) => lower(k) === lower(entityKey)) ? 'entity' : touches.length ? 'neighbour' : 'blast_radius',
        link: `${base}/?view=changes&change=${c.id}`,
      };
    }
    const f = e as FeedEntry;
    const touches = f.services.filter((s) => searched.has(lower(s)) || searched.has(`svc:${lower(s)}`));
    const isEntity = f.services.some((s) => [lower(entityKey), lower(entityKey).replace(/^svc:/, '')].includes(lower(s)));
    return {
      id: f.displayId, origin: f.origin === 'flag' ? 'flag' : 'observed', kind: f.kind, title: f.title, status: f.status,
      who: { kind: f.principal.kind, name: f.principal.name }, at: f.at, window: null, approval: null, verdict: null,
      authorized: f.authorized, denied: f.denied, touches, relation: isEntity ? 'entity' : 'neighbour',
      link: f.link ? (f.link.startsWith('/') ? `${base}${f.link}` : f.link) : null,
    };
  }
}
