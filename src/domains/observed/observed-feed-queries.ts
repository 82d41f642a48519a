/** SQL reads of the one change list's observed part: rows, one row, a change's receipts, the connected kinds. */
import type { Queryable, Row } from '../../platform/db/database.js';
import type { FeedEntry, Receipt, RecordPrincipal } from '../changes/change-feed.js';
import { observedOf } from './observed-store.js';
import type { SourceKind } from './observed-types.js';

type ObservedRow = Row & { connection_name: string | null };

const iso = (d: Date | string) => new Date(d).toISOString();

/** An observed row as the one list answers it: the shared fields, and the row's own under detail. */
function toEntry(r: ObservedRow): FeedEntry {
  const o = observedOf(r);
  return {
    id: o.id, displayId: o.displayId, origin: 'observed', source: o.source, mode: o.kind, kind: o.kind, status: o.status, title: o.title,
    at: o.occurredAt, principal: o.principal, service: o.service, services: o.services, diff: o.diff, denied: o.denied, authorized: o.authorized, link: o.link,
    detail: {
      eventId: o.eventId, sourceId: o.sourceId, connection: r.connection_name, receivedAt: o.receivedAt, action: o.action, resource: o.resource,
      location: o.location, params: o.params, serviceVia: o.serviceVia, errorCode: o.errorCode, outcome: o.outcome,
      authorizedReason: o.authorizedReason, capBucket: o.capBucket, changeRef: o.changeRef,
      principalClass: o.principalClass, principalClassReason: o.principalClassReason, reference: o.reference, revert: o.revert, caseId: o.caseId,
    },
  };
}

export type ObservedFilter = {
  kinds: string[]; sources: string[]; services: string[]; unauthorized: boolean; denied: boolean; q: string | null;
  since?: Date; until?: Date; limit: number;
};

const SELECT = `SELECT o.*, s.name AS connection_name FROM observed_changes o LEFT JOIN change_sources s ON s.id = o.source_id`;

/** Newest first. `services` are lower case; a row matches when one of its linked services is among them. */
export async function listObserved(db: Queryable, orgId: string, f: ObservedFilter): Promise<FeedEntry[]> {
  const r = await db.query<ObservedRow>(
    `${SELECT} WHERE o.org_id = $1
       AND (cardinality($2::text[]) = 0 OR o.kind = ANY($2::text[]))
       AND (cardinality($3::text[]) = 0 OR o.source = ANY($3::text[]))
       AND (cardinality($4::text[]) = 0 OR EXISTS (SELECT 1 FROM unnest(o.services) v WHERE lower(v) = ANY($4::text[])))
       AND ($5::boolean = false OR o.authorized = false)
       AND o.denied = $6::boolean
       AND ($7::text IS NULL OR strpos(lower(o.title), lower($7)) > 0 OR upper('CHG-' || substr(o.id, 5, 8)) = upper($7) OR o.id = $7
         OR EXISTS (SELECT 1 FROM unnest(o.services) v WHERE strpos(lower(v), lower($7)) > 0))
       AND ($8::timestamptz IS NULL OR o.occurred_at >= $8::timestamptz)
       AND ($9::timestamptz IS NULL OR o.occurred_at <= $9::timestamptz)
     ORDER BY o.occurred_at DESC, o.id DESC LIMIT $10`,
    [orgId, f.kinds, f.sources, f.services, f.unauthorized, f.denied, f.q, f.since?.toISOString() ?? null, f.until?.toISOString() ?? null, f.limit],
  );
  return r.rows.map(toEntry);
}

export async function findObserved(db: Queryable, orgId: string, id: string): Promise<FeedEntry | null> {
  const r = await db.query<ObservedRow>(`${SELECT} WHERE o.org_id = $1 AND o.id = $2`, [orgId, id]);
  return r.rows[0] ? toEntry(r.rows[0]) : null;
}

/** The kinds of the organisation's connections: what the never-captured list follows. */
export async function connectedKinds(db: Queryable, orgId: string): Promise<SourceKind[]> {
  const r = await db.query<{ kind: SourceKind }>('SELECT DISTINCT kind FROM change_sources WHERE org_id = $1 ORDER BY kind', [orgId]);
  return r.rows.map((x) => x.kind);
}

type ReceiptRow = Row & {
  source: string; kind: string; event_id: string; title: string; occurred_at: Date; received_at: Date; principal: RecordPrincipal;
  action: string | null; resource: string | null; location: Record<string, string>; diff: string | null; link: string | null;
};

export async function listReceipts(db: Queryable, orgId: string, changeId: string): Promise<Receipt[]> {
  const r = await db.query<ReceiptRow>('SELECT * FROM change_receipts WHERE org_id = $1 AND change_id = $2 ORDER BY occurred_at, source, event_id', [orgId, changeId]);
  return r.rows.map((x) => ({
    source: x.source, kind: x.kind, eventId: x.event_id, title: x.title, at: iso(x.occurred_at), receivedAt: iso(x.received_at), principal: x.principal,
    action: x.action, resource: x.resource, location: x.location, diff: x.diff, link: x.link,
  }));
}
