/**
 * The intake core: what one delivery or one pull page becomes, in ONE transaction. Events in time
 * order; dedupe on the sender's event id (rows and receipts alike, a re-seen event that brings a
 * missing diff enriches its row); the Kubernetes 50-objects-an-hour cap per cluster · account ·
 * hour, counting what is stored first; 500 rows a call; scrub then cut; service resolution; a
 * write carrying a planned change's id folded into that change's receipt (harvest sources only);
 * the connection's counters; one audit event for a call that wrote anything.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Tx } from '../../platform/db/database.js';
import { notFound } from '../../platform/errors.js';
import { cutText, scrubJson, scrubSecrets } from '../../platform/scrub.js';
import { readServiceNames } from '../catalogue/service-names.js';
import { appendAtCommit, appendAuditEvents, type AuditContext, type NewAuditEvent } from '../ledger/index.js';
import {
  addCounts, bucketCounts, enrichObserved, enrichReceipt, findDelivery, findSeen, findSource, insertObserved, insertReceipt, newObservedId, plannedByDisplayId,
  rememberDelivery, type NewObserved, type Seen, type SourceRow,
} from './observed-store.js';
import type { RevertDraft } from './unmanaged/unmanaged-types.js';
import { HARVEST_KINDS, LIMITS, type IntakeCounts, type ObservedEvent, type Parsed, type Rejected, type SourceKind } from './observed-types.js';
import { compileMaps, resolveServices, type ServiceMaps } from './resolution.js';
import { readObservedSettings } from './source-store.js';
import { classifyPrincipal, type ClassOfPrincipal } from './unmanaged/principal-class.js';
import { JUDGED_SOURCES, judgeWrite, NOT_JUDGED, type Judgement } from './unmanaged/reference-rule.js';
import { CaseService } from './unmanaged/case-service.js';
import { accountOf } from './unmanaged/cases.js';
import { UnmanagedService } from './unmanaged/unmanaged-service.js';
import type { UnmanagedSettings } from './unmanaged/unmanaged-settings.js';
import { readUnmanagedSettings } from './unmanaged/unmanaged-store.js';

export type IntakeVia = 'webhook' | 'pull' | 'manual';
export type IntakeResult = {
  counts: IntakeCounts;
  /** A Kubernetes bucket reached its 50 objects, or the call its 500 rows: the caller notes it once (a pull's marker). */
  capReached: boolean;
  /** The call's 500 rows were reached: a resend of the same delivery could record more, so it is not remembered. */
  rowLimitReached: boolean;
};

/** A request's delivery as the intake routes answer it. */
export type Received = IntakeResult & { rejected: Rejected[]; events: number; replayed: boolean };

/**
 * Batch senders resend a whole batch byte for byte when they missed our answer. For these kinds
 * the body alone says what the delivery is (no header carries an event's id or type), so its
 * digest can stand for it.
 */
const REMEMBERED_KINDS: readonly SourceKind[] = ['kubernetes', 'aws', 'azure'];
const REMEMBER_HOURS = 24;

export const emptyCounts = (): IntakeCounts => ({ recorded: 0, duplicate: 0, enriched: 0, noise: 0, capped: 0, denied: 0, ignored: 0, rejected: 0, receipts: 0 });

/** A diff scrubbed of secrets, then cut at the limit; null stays null. */
export function cleanDiff(diff: string | null): string | null {
  return diff === null || diff === '' ? null : cutText(scrubSecrets(diff), LIMITS.diffChars);
}

/** Parameters scrubbed value by value; when their JSON is over the limit, the cut JSON text is stored as a string. */
export function cleanParams(params: unknown): unknown {
  if (params === null || params === undefined) return null;
  const scrubbed = scrubJson(params);
  const text = JSON.stringify(scrubbed);
  return text.length <= LIMITS.diffChars ? scrubbed : cutText(text, LIMITS.diffChars);
}

/**
 * A drafted revert as stored: what it shows of the write scrubbed like a diff, and a manifest past
 * the limit left out (a cut manifest cannot be applied), saying so.
 */
export function cleanRevert(r: RevertDraft | null): RevertDraft | null {
  if (r === null) return null;
  const changed = r.changed === null ? null : cutText(scrubSecrets(r.changed), LIMITS.diffChars);
  if (r.manifest !== null && Buffer.byteLength(r.manifest) > LIMITS.manifestBytes) {
    return { tool: 'none', command: null, manifest: null, changed, summary: `${r.summary} The object's manifest is over ${LIMITS.manifestBytes / 1024} KiB, so it is not kept here: take it from the audit log itself.` };
  }
  return { ...r, changed, manifest: r.manifest === null ? null : scrubSecrets(r.manifest) };
}

/** Time order, then the event id, so two deliveries of overlapping windows walk the same sequence. */
const byTime = (a: ObservedEvent, b: ObservedEvent) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt) || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0);

/** The same event twice in one delivery: one, carrying whatever diff or params either had. */
function uniqueEvents(events: ObservedEvent[], counts: IntakeCounts): ObservedEvent[] {
  const byId = new Map<string, ObservedEvent>();
  for (const e of events) {
    const first = byId.get(e.eventId);
    if (!first) byId.set(e.eventId, e);
    else {
      counts.duplicate += 1;
      byId.set(e.eventId, { ...first, diff: first.diff ?? e.diff, params: first.params ?? e.params });
    }
  }
  return [...byId.values()].sort(byTime);
}

export class IntakeService {
  readonly #unmanaged: UnmanagedService;
  readonly #cases: CaseService;

  constructor(private readonly deps: { db: Database; clock: Clock; sealer: Sealer; unmanaged?: UnmanagedService; cases?: CaseService }) {
    this.#unmanaged = deps.unmanaged ?? new UnmanagedService(deps);
    this.#cases = deps.cases ?? new CaseService(deps);
  }

  /** A connection's intake secret, for its adapter to check a request against (never logged or answered). */
  secretOf(source: Pick<SourceRow, 'secretSealed'>): string {
    return this.deps.sealer.open(source.secretSealed);
  }

  /**
   * A request's delivery: read by `read` (the adapter) and recorded in one transaction, unless it is
   * a byte-identical resend of a delivery of the last day from a batch sender: then nothing is read
   * again, every event it held counts as a duplicate and the first reading's noise, caps and bad
   * items are answered again.
   */
  async receive(ctx: AuditContext, source: SourceRow, rawBody: Buffer, read: (ciNamespaces: string[]) => Parsed): Promise<Received> {
    const digest = REMEMBERED_KINDS.includes(source.kind) && rawBody.length > 0 ? createHash('sha256').update(rawBody).digest('hex') : null;
    if (digest !== null) {
      const seen = await findDelivery(this.deps.db, source.id, digest);
      if (seen) {
        const counts: IntakeCounts = { ...emptyCounts(), duplicate: seen.events - seen.capped, capped: seen.capped, noise: seen.noise, ignored: seen.ignored, rejected: seen.rejected.length };
        await this.deps.db.transaction((tx) => addCounts(tx, source.id, counts, null, this.deps.clock.now().toISOString()));
        return { counts, capReached: false, rowLimitReached: false, rejected: seen.rejected, events: seen.events, replayed: true };
      }
    }
    // Read once: the adapter's rules need the CI namespaces, the record the maps.
    const settings = await readObservedSettings(this.deps.db, source.orgId);
    const parsed = read(settings.ciNamespaces);
    const result = await this.deps.db.transaction(async (tx) => {
      const r = await this.#record(tx, ctx, source, parsed, 'webhook', settings);
      if (digest !== null && !r.rowLimitReached) {
        const now = this.deps.clock.now();
        const answer = { events: parsed.events.length, noise: parsed.noise, ignored: parsed.ignored, capped: r.counts.capped, rejected: parsed.rejected };
        await rememberDelivery(tx, source.id, digest, answer, now.toISOString(), new Date(now.getTime() - REMEMBER_HOURS * 3_600_000).toISOString());
      }
      return r;
    });
    return { ...result, rejected: parsed.rejected, events: parsed.events.length, replayed: false };
  }

  /** One delivery (or pull page) in its own transaction: the answer is sent only after it commits. */
  async record(ctx: AuditContext, sourceId: string, parsed: Parsed, via: IntakeVia): Promise<IntakeResult> {
    return this.deps.db.transaction((tx) => this.recordIn(tx, ctx, sourceId, parsed, via));
  }

  /** The same inside the caller's transaction (a pull moves its marker in it). */
  async recordIn(tx: Tx, ctx: AuditContext, sourceId: string, parsed: Parsed, via: IntakeVia): Promise<IntakeResult> {
    const source = await findSource(tx, sourceId);
    if (!source) throw notFound(`no change source ${sourceId}`);
    return this.#record(tx, ctx, source, parsed, via, null);
  }

  /** The record itself; `known` is the organisation's settings when the caller has read them already. */
  async #record(tx: Tx, ctx: AuditContext, source: SourceRow, parsed: Parsed, via: IntakeVia, known: ServiceMaps | null): Promise<IntakeResult> {
    const now = this.deps.clock.now().toISOString();
    const counts: IntakeCounts = { ...emptyCounts(), ignored: parsed.ignored, noise: parsed.noise, rejected: parsed.rejected.length };
    const events = uniqueEvents(parsed.events, counts);
    const seen = await findSeen(tx, source.orgId, source.kind, events.map((e) => e.eventId));
    const fresh: ObservedEvent[] = [];
    for (const e of events) {
      const before = seen.get(e.eventId);
      if (!before) fresh.push(e);
      else if (await this.#enrich(tx, source, before, e)) counts.enriched += 1;
      else counts.duplicate += 1;
    }

    let capReached = false;
    let rowLimitReached = false;
    let unmanaged: UnmanagedSettings | null = null;
    const rows: NewObserved[] = [];
    const receipts: Array<{ changeId: string; e: ObservedEvent }> = [];
    if (fresh.length) {
      const settings = known ?? await readObservedSettings(tx, source.orgId);
      const names = await readServiceNames(tx, source.orgId);
      const maps = compileMaps(settings);
      // Only a source that reads a system's own record may stamp a receipt; a webhook sender cannot.
      const folds = HARVEST_KINDS.includes(source.kind);
      const planned = folds ? await plannedByDisplayId(tx, source.orgId, fresh.flatMap((e) => (e.changeRef ? [e.changeRef] : []))) : new Map<string, string>();
      unmanaged = (JUDGED_SOURCES as readonly string[]).includes(source.kind) ? await readUnmanagedSettings(tx, source.orgId) : null;
      // Each event resolved once: with the rule on, the applied ones up front, since the rule's
      // context reads only the planned changes covering their services.
      const resolved = new Map<ObservedEvent, ReturnType<typeof resolveServices>>();
      const resolve = (e: ObservedEvent) => {
        let r = resolved.get(e);
        if (!r) resolved.set(e, (r = resolveServices(e, names, maps)));
        return r;
      };
      const applied = fresh.filter((e) => !e.denied);
      const rule = unmanaged?.referenceRule && applied.length
        ? await this.#unmanaged.contextFor(tx, source.orgId, unmanaged, {
          times: applied.map((e) => e.occurredAt), services: applied.flatMap((e) => resolve(e).services), changeRefs: fresh.flatMap((e) => (e.changeRef ? [e.changeRef] : [])),
        })
        : null;
      const buckets = await bucketCounts(tx, source.orgId, [...new Set(fresh.flatMap((e) => (e.capBucket && !e.denied ? [e.capBucket] : [])))]);
      let written = 0;
      for (const e of fresh) {
        // A denied attempt is never capped by the K8s rule: it is what SecOps must see.
        if (e.capBucket && !e.denied) {
          const n = buckets.get(e.capBucket) ?? 0;
          if (n >= LIMITS.objectsPerAccountHour) {
            counts.capped += 1;
            capReached = true;
            continue;
          }
          buckets.set(e.capBucket, n + 1);
        }
        if (written >= LIMITS.rowsPerTick) {
          counts.capped += 1;
          capReached = true;
          rowLimitReached = true;
          continue;
        }
        written += 1;
        const changeId = e.changeRef ? planned.get(e.changeRef.toUpperCase()) : undefined;
        const resolution = resolve(e);
        const who = classifyPrincipal(source.kind, e.principal);
        const judgement = rule
          ? judgeWrite({ source: source.kind, denied: e.denied, outcome: e.outcome, principalClass: who.principalClass, principal: e.principal, at: e.occurredAt, services: resolution.services, resource: e.resource, changeRef: e.changeRef }, rule)
          : NOT_JUDGED;
        // With the rule on, only a change that vouches for the write may take it as its receipt; any
        // other id it carries (a refused change, one whose scope misses it) leaves it a judged row.
        if (changeId && (judgement.authorized === null || judgement.reference === 'change_id')) receipts.push({ changeId, e });
        else rows.push(this.#row(source, e, now, resolution, who, judgement));
      }
    }

    // Cases are opened or joined first, so that each flagged row is inserted naming its case.
    const cases = unmanaged ? await this.#cases.openOrJoin(tx, source.orgId, rows, unmanaged.deniedAccessToSecops) : null;
    if (cases) for (const r of rows) r.caseId = cases.caseOf.get(r.id) ?? null;
    const stored = await insertObserved(tx, rows);
    for (const r of rows) {
      // Not written: a concurrent delivery of the same event committed first.
      if (!stored.has(r.id)) counts.duplicate += 1;
      else if (r.denied) counts.denied += 1;
      else counts.recorded += 1;
    }
    // One audit event per denied attempt and per flagged write, appended as one batch.
    const flagged: NewAuditEvent[] = [];
    for (const r of rows) {
      if (!stored.has(r.id) || (!r.denied && r.authorized !== false)) continue;
      const who = { principal: r.principal.name, principalClass: r.principalClass, source: r.source, title: r.title, occurredAt: r.occurredAt, account: accountOf(r.location) };
      flagged.push(r.denied
        ? { orgId: source.orgId, action: 'change.denied_attempt', target: { type: 'observed_change', id: r.id }, data: { ...who, errorCode: r.errorCode, action: r.action, resource: r.resource } }
        : { orgId: source.orgId, action: 'change.unauthorized_detected', target: { type: 'observed_change', id: r.id }, data: { ...who, reason: r.authorizedReason, services: r.services, resource: r.resource } });
    }
    // The cases opened or reopened: their audit events go into the same batch, after the writes'.
    const opened = cases ? await cases.finish(stored) : [];
    await appendAuditEvents(tx, this.deps.clock, ctx, [...flagged, ...opened]);
    for (const { changeId, e } of receipts) {
      const receipt = {
        orgId: source.orgId, changeId, sourceId: source.id, source: source.kind, kind: e.kind, eventId: e.eventId, title: e.title, occurredAt: e.occurredAt,
        receivedAt: now, principal: e.principal, action: e.action, resource: e.resource, location: withRepo(e), diff: cleanDiff(e.diff), link: e.link,
      };
      if (!(await insertReceipt(tx, receipt))) {
        counts.duplicate += 1;
        continue;
      }
      counts.receipts += 1;
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: source.orgId, action: 'change.confirmed_by_audit_log', target: { type: 'change', id: changeId },
        data: { sourceId: source.id, source: source.kind, kind: e.kind, eventId: e.eventId, title: e.title, occurredAt: e.occurredAt, principal: e.principal.name },
      });
    }

    const lastEventAt = [...rows.filter((r) => stored.has(r.id)).map((r) => r.occurredAt), ...receipts.map((r) => r.e.occurredAt)].sort().at(-1) ?? null;
    await addCounts(tx, source.id, counts, lastEventAt, now);
    if (counts.recorded + counts.denied + counts.enriched + counts.receipts > 0) {
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: source.orgId, action: 'change_source.received', target: { type: 'change_source', id: source.id },
        data: { ...counts, via, kind: source.kind, name: source.name, ...(capReached ? { capReached } : {}) },
      });
    }
    return { counts, capReached, rowLimitReached };
  }

  /** Fills the diff or params a first sighting lacked; false when it brings nothing new (a duplicate). */
  async #enrich(tx: Tx, source: SourceRow, before: Seen, e: ObservedEvent): Promise<boolean> {
    // The common retry brings nothing the row lacks: decided before any scrubbing, which is the costly part.
    const bringsDiff = !before.hasDiff && e.diff !== null && e.diff !== '';
    const bringsParams = before.table === 'row' && !before.hasParams && e.params !== null && e.params !== undefined;
    if (!bringsDiff && !bringsParams) return false;
    const diff = cleanDiff(e.diff);
    if (before.table === 'receipt') return !before.hasDiff && diff !== null && enrichReceipt(tx, source.orgId, source.kind, e.eventId, diff);
    const params = cleanParams(e.params);
    if ((before.hasDiff || diff === null) && (before.hasParams || params === null)) return false;
    return enrichObserved(tx, before.id, before.hasDiff ? null : diff, before.hasParams ? null : params);
  }

  #row(source: SourceRow, e: ObservedEvent, now: string, r: ReturnType<typeof resolveServices>, who: ClassOfPrincipal, j: Judgement): NewObserved {
    return {
      id: newObservedId(), orgId: source.orgId, sourceId: source.id, source: source.kind, kind: e.kind, eventId: e.eventId, title: e.title.slice(0, 500),
      occurredAt: new Date(e.occurredAt).toISOString(), receivedAt: now, principal: e.principal, action: e.action, resource: e.resource, location: withRepo(e),
      ...r, diff: cleanDiff(e.diff), params: cleanParams(e.params), link: e.link, denied: e.denied, errorCode: e.errorCode, outcome: e.outcome,
      capBucket: e.capBucket, changeRef: e.changeRef, serviceHint: e.serviceHint, resourceName: e.resourceName ?? null,
      principalClass: who.principalClass, principalClassReason: who.reason, authorized: j.authorized, authorizedReason: j.reason, reference: j.reference,
      // A refused call changed nothing: there is nothing to revert.
      revert: e.denied ? null : cleanRevert(e.revert ?? null),
    };
  }
}

/** The repository is kept in the location, so a relink (and the list's filters) can read it back. */
function withRepo(e: ObservedEvent): ObservedEvent['location'] {
  return e.repo && !e.location.repo ? { ...e.location, repo: e.repo } : e.location;
}

/**
 * Re-resolves the services of the organisation's rows since a time, with the maps as they are now
 * (the sources helper calls it in the transaction that saves a map edit). Answers how many rows
 * changed their service or links.
 */
export async function relink(tx: Tx, orgId: string, since: Date): Promise<number> {
  const settings = await readObservedSettings(tx, orgId);
  const names = await readServiceNames(tx, orgId);
  const maps = compileMaps(settings);
  const rows = await tx.query<{ id: string; service: string; service_via: string; services: string[]; service_hint: string | null; resource: string | null; resource_name: string | null; location: Record<string, string> }>(
    'SELECT id, service, service_via, services, service_hint, resource, resource_name, location FROM observed_changes WHERE org_id = $1 AND occurred_at >= $2', [orgId, since.toISOString()]);
  let changed = 0;
  for (const row of rows.rows) {
    const r = resolveServices({ serviceHint: row.service_hint, repo: row.location.repo ?? null, resource: row.resource, resourceName: row.resource_name, location: row.location }, names, maps);
    if (r.service === row.service && r.serviceVia === row.service_via && r.services.join('\n') === row.services.join('\n')) continue;
    await tx.query('UPDATE observed_changes SET service = $2, service_via = $3, services = $4::text[] WHERE id = $1', [row.id, r.service, r.serviceVia, r.services]);
    changed += 1;
  }
  return changed;
}
