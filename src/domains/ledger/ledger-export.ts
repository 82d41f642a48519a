import type { Queryable } from '../../platform/db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { AuditEvent } from './audit-event.js';
import { GENESIS_HASH } from './audit-event.js';
import { EXPORT_FORMAT, type ExportTrailer } from './ledger-file.js';
import { iterateAuditEvents, type AuditFilter } from './ledger-queries.js';
import { readChainPageDown, readHead } from './ledger-store.js';

/** The API shape: the organisation is implied by who asks (and stated once, in an export's trailer). */
export function publicEvent(e: AuditEvent) {
  const { orgId: _org, ...rest } = e;
  return rest;
}

export type ExportLine = ReturnType<typeof publicEvent> | { trailer: ExportTrailer };

function isFiltered(f: AuditFilter): boolean {
  return Object.values(f).some((v) => v !== undefined && v !== null && v !== '');
}

/**
 * An export: the events newest first, then a trailer with the head they lead to. The head is read
 * first and nothing above it is written out, so the file is one consistent stretch of the chain
 * however many events are appended meanwhile. Unfiltered, every event from the head down to the
 * first is there, which lets `audit verify --file` prove the whole chain offline.
 */
export async function* exportLedger(db: Queryable, clock: Clock, org: { id: string; slug: string }, f: AuditFilter, pageSize = 2000): AsyncGenerator<ExportLine> {
  const head = (await readHead(db, org.id)) ?? { seq: 0, hash: GENESIS_HASH };
  const seqHead = Number(head.seq);
  const complete = !isFiltered(f);
  let events = 0;
  if (complete) {
    for (let below = seqHead + 1; below > 1;) {
      const page = await readChainPageDown(db, org.id, below, pageSize);
      if (page.length === 0) break;
      for (const e of page) yield publicEvent(e);
      events += page.length;
      below = page.at(-1)!.seq;
    }
  } else {
    for await (const e of iterateAuditEvents(db, org.id, f, pageSize)) {
      if (e.seq > seqHead) continue;
      yield publicEvent(e);
      events += 1;
    }
  }
  const filter = complete ? undefined : Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));
  yield {
    trailer: {
      format: EXPORT_FORMAT, organization: { id: org.id, slug: org.slug }, head: { seq: seqHead, hash: head.hash }, events, complete,
      order: 'newest-first', exportedAt: clock.now().toISOString(), ...(filter ? { filter } : {}),
    },
  };
}
