/**
 * The rest of the one change list (ChangeFeed): flag writes, flag change requests waiting on a
 * person, and observed changes. Changes never imports this domain; compose.ts plugs it in.
 */
import { createHash } from 'node:crypto';
import type { Database } from '../../platform/db/database.js';
import type { ChangeFeed, FeedEntry, FeedFilter, Receipt, RecordPrincipal } from '../changes/change-feed.js';
import { PLATFORM_MODE, serviceCandidates } from '../changes/change-record.js';
import { ownerNamesOf, FLAG_SOURCES, type Json } from '../flags/flag.js';
import { toFlagRecord, type FlagRecord } from '../flags/flag-record.js';
import type { FlagService } from '../flags/index.js';
import type { FlagRequestService } from '../flags/flag-request-service.js';
import type { StoredRequest } from '../flags/flag-request-store.js';
import { AUDIT_PAGE_MAX, listAuditEvents, type Actor } from '../ledger/index.js';
import { neverCaptured } from './never-captured.js';
import { connectedKinds, findObserved, listObserved, listReceipts } from './observed-feed-queries.js';
import { OBSERVED_KINDS } from '../changes/change-feed.js';
import { SOURCE_KINDS } from './observed-types.js';

/** The writes of a flag that changed something (an `unchanged` write is not a change). */
const FLAG_WRITES = ['flag.created', 'flag.updated', 'flag.deleted'];

const show = (v: Json) => (typeof v === 'string' ? v : JSON.stringify(v));
const hashId = (s: string) => `CHG-${createHash('sha256').update(s).digest('hex').slice(0, 8).toUpperCase()}`;

function principalOfActor(a: Actor, email?: string): RecordPrincipal {
  const kind: RecordPrincipal['kind'] = a.kind === 'user' ? 'person' : a.kind === 'token' ? 'token' : a.kind === 'system' ? 'system' : 'service';
  const detail: Record<string, string> = {};
  if (email) detail.email = email;
  if (a.automation) detail.automation = a.automation;
  if (a.trigger) detail.trigger = a.trigger;
  return { kind, name: a.name, id: a.id, detail };
}

function flagTitle(r: FlagRecord): string {
  if (r.change === 'created') return `${r.flag} created`;
  if (r.change === 'deleted') return `${r.flag} deleted`;
  const where = r.env ? ` in ${r.env}` : '';
  const what = r.fields.length ? ` ${r.fields.join(', ')}` : '';
  return `${r.flag}${where}:${what} ${show(r.from)} → ${show(r.to)}`;
}

/** The flag's owner as a service key: `payments-api` and `svc:payments-api` are the same service. */
const serviceOfOwner = (owner: string | null | undefined): string[] => (owner ? [ownerNamesOf(owner).at(-1)!] : []);

function flagEntry(r: FlagRecord, owner: string | null | undefined): FeedEntry {
  const services = serviceOfOwner(owner);
  return {
    id: `flag_${r.hash}`, displayId: `CHG-${r.hash.slice(0, 8).toUpperCase()}`, origin: 'flag', source: 'flags', mode: r.source, kind: 'flag', status: 'recorded',
    title: flagTitle(r), at: r.ts, principal: principalOfActor(r.actorDetail), service: services[0] ?? '', services, diff: `${show(r.from)} → ${show(r.to)}`,
    denied: false, authorized: true, link: `/flags/${encodeURIComponent(r.flag)}`,
    detail: { flag: r.flag, env: r.env, change: r.change, fields: r.fields, from: r.from, to: r.to, reason: r.reason, approvers: r.approvers, seq: r.seq, breakGlass: r.breakGlass },
  };
}

function requestEntry(q: StoredRequest, owner: string | null | undefined): FeedEntry {
  const services = serviceOfOwner(owner);
  const mode = typeof q.meta.source === 'string' ? q.meta.source : q.proposer.kind === 'token' ? 'api' : 'ui';
  return {
    id: q.id, displayId: hashId(q.id), origin: 'flag', source: 'flags', mode, kind: 'flag', status: 'pending_approval',
    title: `${q.flag} in ${q.env}: change request waiting for approval`, at: q.createdAt, principal: principalOfActor(q.proposer),
    service: services[0] ?? '', services, diff: JSON.stringify(q.patch), denied: false, authorized: true, link: `/flags/${encodeURIComponent(q.flag)}`,
    detail: { flag: q.flag, env: q.env, patch: q.patch, reason: q.reason, approvals: q.approvals.length, approvalsNeeded: q.approvalsNeeded, expiresAt: q.expiresAt },
  };
}

const isObservedKind = (k: string) => (OBSERVED_KINDS as readonly string[]).includes(k);
const within = (at: string, f: FeedFilter) => (!f.since || new Date(at) >= f.since) && (!f.until || new Date(at) <= f.until);
const matchesQ = (e: FeedEntry, q: string | null) => {
  if (!q) return true;
  const s = q.toLowerCase();
  return e.displayId.toLowerCase() === s || e.title.toLowerCase().includes(s) || e.services.some((x) => x.toLowerCase().includes(s));
};

export class ObservedFeed implements ChangeFeed {
  readonly vocabulary = { sources: ['flags', ...SOURCE_KINDS], modes: [...FLAG_SOURCES, ...OBSERVED_KINDS] };

  constructor(private readonly deps: { db: Database; flags: FlagService; flagRequests: FlagRequestService }) {}

  async list(orgId: string, f: FeedFilter): Promise<FeedEntry[]> {
    const [flags, observed] = await Promise.all([this.flagEntries(orgId, f), this.observedEntries(orgId, f)]);
    return [...flags, ...observed].sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id)).slice(0, f.limit);
  }

  private async observedEntries(orgId: string, f: FeedFilter): Promise<FeedEntry[]> {
    if (f.requests) return [];
    if (f.statuses.length && !f.statuses.includes('recorded')) return [];
    if (f.sources.length && !f.sources.some((s) => (SOURCE_KINDS as readonly string[]).includes(s))) return [];
    // An observed row's mode is its event kind: kind= and mode= both narrow the kinds read.
    let kinds: string[] = [];
    for (const given of [f.kinds, f.modes]) {
      if (!given.length) continue;
      const observed = given.filter((k) => isObservedKind(k) && (!kinds.length || kinds.includes(k)));
      if (!observed.length) return [];
      kinds = observed;
    }
    return listObserved(this.deps.db, orgId, {
      kinds, sources: f.sources, services: f.services.flatMap(serviceCandidates), unauthorized: f.unauthorized, denied: f.denied,
      q: f.q, since: f.since, until: f.until, limit: f.limit,
    });
  }

  private async flagEntries(orgId: string, f: FeedFilter): Promise<FeedEntry[]> {
    if (f.unauthorized || f.denied) return [];
    if (f.kinds.length && !f.kinds.includes('flag')) return [];
    if (f.sources.length && !f.sources.includes('flags')) return [];
    const modes = f.modes.includes(PLATFORM_MODE) ? [] : f.modes;
    if (f.modes.length && !f.modes.includes(PLATFORM_MODE) && !modes.some((m) => (FLAG_SOURCES as readonly string[]).includes(m))) return [];
    const ownedBy = f.services.length ? new Set(f.services.flatMap((s) => ownerNamesOf(s.trim())).map((s) => s.toLowerCase())) : null;
    // For some services, only their flags' owners are read; for every service, every flag's owner.
    const owners: Map<string, string | null> = ownedBy
      ? await this.deps.flags.ownersAmong(orgId, [...ownedBy])
      : new Map((await this.deps.flags.list(orgId)).map((x) => [x.key, x.ownerService]));
    const keep = (e: FeedEntry, flag: string) =>
      (!ownedBy || ownedBy.has((owners.get(flag) ?? '').toLowerCase())) && (!modes.length || modes.includes(e.mode)) && matchesQ(e, f.q) && within(e.at, f);
    const out: FeedEntry[] = [];
    if (f.includeProposed || f.requests) {
      const wanted = !f.statuses.length || f.statuses.includes('pending_approval');
      if (wanted) for (const q of await this.deps.flagRequests.list(orgId, { status: 'proposed' })) {
        const e = requestEntry(q, owners.get(q.flag));
        if (keep(e, q.flag)) out.push(e);
      }
    }
    if (f.requests || (f.statuses.length && !f.statuses.includes('recorded'))) return out;
    const targetIds = ownedBy ? [...owners].filter(([, o]) => ownedBy.has((o ?? '').toLowerCase())).map(([k]) => k) : undefined;
    if (targetIds && !targetIds.length) return out;
    // q and mode are read from the record itself: a full page, then cut, so they never hide a newer match.
    const limit = f.q || modes.length ? AUDIT_PAGE_MAX : Math.min(f.limit, AUDIT_PAGE_MAX);
    const page = await listAuditEvents(this.deps.db, orgId, { targetType: 'flag', actions: FLAG_WRITES, targetIds, since: f.since, until: f.until }, limit);
    for (const ev of page.items) {
      const r = toFlagRecord(ev);
      const e = flagEntry(r, owners.get(r.flag));
      if (keep(e, r.flag)) out.push(e);
    }
    return out;
  }

  async neverCaptured(orgId: string): Promise<string[]> {
    return neverCaptured(await connectedKinds(this.deps.db, orgId));
  }

  async receipts(orgId: string, changeId: string): Promise<Receipt[]> {
    return listReceipts(this.deps.db, orgId, changeId);
  }

  /** One observed row with its own fields, for its page. */
  async observed(orgId: string, id: string): Promise<FeedEntry | null> {
    return findObserved(this.deps.db, orgId, id);
  }
}
