/**
 * Change and freeze windows: kept by owners and admins, imported from iCalendar feeds, and asked
 * through the one matcher (window-matcher.ts). The compiled set of an organisation is cached under
 * a stamp of its rows, so a check costs one small read and the matcher; every replica sees a
 * write at its next check.
 */
import { canonicalJson } from '../../platform/canonical-json.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { OutboundFailed, OutboundRefused, type OutboundClient } from '../../platform/net/outbound.js';
import type { Principal } from '../auth/index.js';
import { isProduction, readSettings, type GovernanceReader, type GovernanceView, type TemplateScope, type WindowFacts } from '../changes/index.js';
import type { FreezeCheck } from '../flags/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import * as store from './governance-store.js';
import type { StoredWindow, WindowFields } from './governance-store.js';
import { IcsError, MAX_ICS_BYTES, parseFreezeCalendar, type SkippedEvent } from './ical-import.js';
import { compileWindows, matchWindows, windowConflicts, type WindowConflict, type WindowMatch, type WindowSet } from './window-matcher.js';
import { expand, isoUtc, isTimeZone, validateSchedule, validateScope, type WindowKind, type WindowSchedule, type WindowScope } from './window-schedule.js';

const DAY = 86_400_000;
/** The compiled horizon: a week back (a window that began before now), about 13 months ahead (next openings, the calendar). */
const BACK = 8 * DAY;
const AHEAD = 400 * DAY;
export const MAX_WINDOWS = 500;

export type WindowInput = { name?: string; kind?: WindowKind; schedule?: unknown; scope?: unknown; description?: string | null };
export type Occurrence = { windowId: string; name: string; kind: WindowKind; start: string; end: string };
export type ImportResult = { feed: string; calendarName: string | null; created: number; updated: number; unchanged: number; removed: number; skipped: SkippedEvent[] };

function manage(p: Principal, what: string): void {
  if (p.role !== 'owner' && p.role !== 'admin') throw forbidden(`only owners and admins ${what} change and freeze windows`);
}

/** Name, kind, schedule and scope checked; each refusal names its field. */
export function checkWindow(input: WindowInput): WindowFields {
  const name = input.name?.trim() ?? '';
  if (!name) throw badRequest('name is required', 'name');
  if (name.length > 200) throw badRequest('name must be at most 200 characters', 'name');
  if (input.kind !== 'change' && input.kind !== 'freeze') throw badRequest('kind must be change or freeze', 'kind');
  const s = validateSchedule(input.schedule);
  if (!s.ok) throw badRequest(`${s.field} ${s.reason}`, s.field);
  const sc = validateScope(input.scope ?? { type: 'all' });
  if (!sc.ok) throw badRequest(`${sc.field} ${sc.reason}`, sc.field);
  return { name, kind: input.kind, schedule: s.schedule, scope: sc.scope, description: input.description?.trim().slice(0, 2000) || null };
}

export class WindowService {
  private readonly cache = new Map<string, { version: number; set: WindowSet }>();
  private readonly templates = new Map<string, { version: number; templates: TemplateScope[] }>();

  constructor(private readonly deps: { db: Database; clock: Clock; outbound: OutboundClient }) {}

  list(p: Principal): Promise<StoredWindow[]> {
    return store.listWindows(this.deps.db, p.org.id);
  }

  /** The compiled set covering [at, until] (and a month beyond), from the cache while the windows' version is unchanged. */
  private async compiled(db: Queryable, orgId: string, version: number, at: number, until = at): Promise<WindowSet> {
    const hit = this.cache.get(orgId);
    if (hit && hit.version === version && at >= hit.set.from + DAY && until + 35 * DAY <= hit.set.to) return hit.set;
    const defs = await store.listWindows(db, orgId);
    const now = this.deps.clock.now().getTime();
    const set = compileWindows(defs, Math.min(now, at) - BACK, Math.max(now, until) + AHEAD);
    // Only the set around now is kept: a far-future question compiles its own.
    if (at - now < 30 * DAY) this.cache.set(orgId, { version, set });
    return set;
  }

  private async setAt(db: Queryable, orgId: string, at: number, until = at): Promise<WindowSet> {
    return this.compiled(db, orgId, (await store.governanceVersions(db, orgId)).windows, at, until);
  }

  private async certified(db: Queryable, orgId: string, version: number): Promise<TemplateScope[]> {
    const hit = this.templates.get(orgId);
    if (hit && hit.version === version) return hit.templates;
    const templates = await store.certifiedTemplates(db, orgId);
    this.templates.set(orgId, { version, templates });
    return templates;
  }

  /** The seam changes asks through: one small read (the versions); templates and windows come from the cache while those hold. */
  reader(): GovernanceReader {
    return {
      prepare: async (db: Queryable, orgId: string, from: Date, to: Date): Promise<GovernanceView> => {
        const v = await store.governanceVersions(db, orgId);
        const templates = await this.certified(db, orgId, v.templates);
        const set = await this.compiled(db, orgId, v.windows, from.getTime(), to.getTime());
        return {
          templates,
          check: (at, facts) => matchWindows(set, at.getTime(), facts),
          conflicts: (start, end, facts) => windowConflicts(set, start.getTime(), end.getTime(), facts),
        };
      },
    };
  }

  /** For flag writes: the freeze a production environment is in now (for the flag's owner service), or null. */
  freezeCheck(): FreezeCheck {
    return async (db, orgId, at, facts) => {
      if (!isProduction(facts.environment)) return null;
      const v = matchWindows(await this.setAt(db, orgId, at.getTime()), at.getTime(), { services: facts.services, environments: [facts.environment], criticality: null });
      return !v.allowed && v.window?.kind === 'freeze' ? { name: v.window.name, start: v.window.start, end: v.window.end } : null;
    };
  }

  /** The matcher's answer for given facts at an instant (the check route). */
  async check(orgId: string, when: Date | undefined, facts: WindowFacts, end?: Date): Promise<WindowMatch & { conflicts?: WindowConflict[] }> {
    const at = when ?? this.deps.clock.now();
    if (end && end.getTime() <= at.getTime()) throw badRequest('end must be after the start (at)', 'end');
    if (end && end.getTime() - at.getTime() > 7 * DAY) throw badRequest('end must be at most 7 days after the start, as a change’s window is', 'end');
    const set = await this.setAt(this.deps.db, orgId, at.getTime(), end?.getTime());
    const verdict = matchWindows(set, at.getTime(), facts);
    return end ? { ...verdict, conflicts: windowConflicts(set, at.getTime(), end.getTime(), facts) } : verdict;
  }

  /** Every occurrence of every window overlapping [from, to): the calendar. At most 62 days. */
  async occurrences(p: Principal, from: Date, to: Date): Promise<Occurrence[]> {
    if (!(to > from)) throw badRequest('to must be after from', 'to');
    if (to.getTime() - from.getTime() > 62 * DAY) throw badRequest('ask for at most 62 days at a time', 'to');
    const defs = await store.listWindows(this.deps.db, p.org.id);
    const out: Occurrence[] = [];
    for (const d of defs) {
      for (const [s, e] of expand(d, from.getTime(), to.getTime())) out.push({ windowId: d.id, name: d.name, kind: d.kind, start: isoUtc(s), end: isoUtc(e) });
    }
    return out.sort((a, b) => a.start.localeCompare(b.start) || a.name.localeCompare(b.name));
  }

  async create(ctx: AuditContext, p: Principal, input: WindowInput): Promise<StoredWindow> {
    manage(p, 'add');
    const f = checkWindow(input);
    const id = newId('win');
    return this.deps.db.transaction(async (tx) => {
      const n = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM change_windows WHERE org_id = $1', [p.org.id]);
      if (n.rows[0]!.n >= MAX_WINDOWS) throw badRequest(`an organisation keeps at most ${MAX_WINDOWS} windows`, 'name');
      const at = this.deps.clock.now().toISOString();
      await store.insertWindow(tx, p.org.id, id, f, p.user.id, at);
      await store.bumpVersion(tx, p.org.id, 'windows');
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'window.created', target: { type: 'window', id }, data: { ...f } });
      return (await store.findWindow(tx, p.org.id, id))!;
    });
  }

  async update(ctx: AuditContext, p: Principal, id: string, input: WindowInput): Promise<StoredWindow> {
    manage(p, 'change');
    return this.deps.db.transaction(async (tx) => {
      const before = await store.findWindow(tx, p.org.id, id);
      if (!before) throw notFound(`no window ${id}`);
      const f = checkWindow({ name: input.name ?? before.name, kind: input.kind ?? before.kind, schedule: input.schedule ?? before.schedule, scope: input.scope ?? before.scope, description: input.description === undefined ? before.description : input.description });
      const at = this.deps.clock.now().toISOString();
      await store.updateWindow(tx, id, f, at);
      await store.bumpVersion(tx, p.org.id, 'windows');
      // jsonb hands objects back with their keys reordered: compare canonical forms.
      const changed = (['name', 'kind', 'schedule', 'scope', 'description'] as const).filter((k) => canonicalJson(f[k] ?? null) !== canonicalJson(before[k] ?? null));
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'window.updated', target: { type: 'window', id }, data: Object.fromEntries(changed.map((k) => [k, { from: before[k], to: f[k] }])) });
      return (await store.findWindow(tx, p.org.id, id))!;
    });
  }

  async remove(ctx: AuditContext, p: Principal, id: string): Promise<void> {
    manage(p, 'remove');
    await this.deps.db.transaction(async (tx) => {
      const gone = await store.deleteWindow(tx, p.org.id, id);
      if (!gone) throw notFound(`no window ${id}`);
      await store.bumpVersion(tx, p.org.id, 'windows');
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'window.deleted', target: { type: 'window', id }, data: { name: gone.name, kind: gone.kind, schedule: gone.schedule, scope: gone.scope, feed: gone.feed } });
    });
  }

  /**
   * Imports the freezes of an iCalendar feed (a URL, fetched through the outbound guard, or the
   * text of a file). Each event is a freeze window keyed by its UID under the feed's name: a
   * re-import updates what changed, removes what the calendar no longer has, and leaves the rest.
   */
  async importIcs(ctx: AuditContext, p: Principal, input: { url?: string; ics?: string; feed?: string; scope?: unknown; timeZone?: string }): Promise<ImportResult> {
    manage(p, 'import');
    if (!input.url === !input.ics) throw badRequest('give either url (an .ics address) or ics (the calendar’s text)', 'url');
    const feed = (input.feed?.trim() || input.url?.trim() || '').slice(0, 500);
    if (!feed) throw badRequest('name the feed (feed): a re-import of the same feed updates its windows', 'feed');
    const sc = validateScope(input.scope ?? { type: 'all' });
    if (!sc.ok) throw badRequest(`${sc.field} ${sc.reason}`, sc.field);
    if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) throw badRequest(`timeZone ${JSON.stringify(input.timeZone)} is not an IANA time zone such as "Europe/Berlin"`, 'timeZone');
    const text = input.ics ?? await this.fetchIcs(p.org.id, input.url!);
    let parsed;
    try {
      parsed = parseFreezeCalendar(text, { defaultTimeZone: input.timeZone ?? 'UTC', now: this.deps.clock.now().getTime() });
    } catch (err) {
      if (err instanceof IcsError) throw badRequest(`${input.url ? 'url' : 'ics'}: ${err.message}`, input.url ? 'url' : 'ics');
      throw err;
    }
    return this.deps.db.transaction(async (tx) => {
      const existing = await store.feedWindows(tx, p.org.id, feed);
      const at = this.deps.clock.now().toISOString();
      const r: ImportResult = { feed, calendarName: parsed.calendarName, created: 0, updated: 0, unchanged: 0, removed: 0, skipped: parsed.skipped };
      const seen = new Set<string>();
      for (const w of parsed.windows) {
        seen.add(w.uid);
        const f: WindowFields = { name: w.name, kind: 'freeze', schedule: w.schedule as WindowSchedule, scope: sc.scope as WindowScope, description: w.description };
        const old = existing.get(w.uid);
        if (!old) {
          await store.insertWindow(tx, p.org.id, newId('win'), f, p.user.id, at, feed, w.uid);
          r.created++;
        } else if (canonicalJson([old.name, old.schedule, old.scope, old.description]) !== canonicalJson([f.name, f.schedule, f.scope, f.description])) {
          await store.updateWindow(tx, old.id, f, at);
          r.updated++;
        } else r.unchanged++;
      }
      for (const [uid, old] of existing) {
        if (seen.has(uid)) continue;
        await store.deleteWindow(tx, p.org.id, old.id);
        r.removed++;
      }
      if (r.created || r.updated || r.removed) await store.bumpVersion(tx, p.org.id, 'windows');
      const total = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM change_windows WHERE org_id = $1', [p.org.id]);
      if (total.rows[0]!.n > MAX_WINDOWS) throw badRequest(`the import would leave ${total.rows[0]!.n} windows; an organisation keeps at most ${MAX_WINDOWS}`, input.url ? 'url' : 'ics');
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'window.imported', target: { type: 'window-feed', id: feed },
        data: { calendarName: r.calendarName, created: r.created, updated: r.updated, unchanged: r.unchanged, removed: r.removed, skipped: r.skipped.length, scope: sc.scope },
      });
      return r;
    });
  }

  private async fetchIcs(orgId: string, url: string): Promise<string> {
    const settings = await readSettings(this.deps.db, orgId);
    try {
      const res = await this.deps.outbound.request({ url, allowPrivate: settings.allowPrivateCallbacks, maxResponseBytes: MAX_ICS_BYTES + 1, headers: { accept: 'text/calendar' } });
      if (res.status !== 200) throw badRequest(`url: the calendar answered HTTP ${res.status}`, 'url');
      if (res.truncated) throw badRequest(`url: the calendar is larger than ${MAX_ICS_BYTES / 1024 / 1024} MiB`, 'url');
      return res.body;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof OutboundRefused || err instanceof OutboundFailed) throw badRequest(`url: ${err.message}`, 'url');
      throw err;
    }
  }
}
