import type { Queryable } from '../../platform/db/database.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import type { EvidenceWindow, LogsPart, ServiceRef } from './evidence-types.js';
import type { LogSource } from './log-source-config.js';

/** The most error fingerprints a logs part keeps, most frequent in the window first. */
export const MAX_FINGERPRINTS = 20;

export type LogEvidenceDeps = { db: Queryable; outbound: OutboundClient };

/** Stub: filled in below by the logs helper. Never throws: an unreachable source is not_measured. */
export async function collectLogs(_deps: LogEvidenceDeps, source: LogSource, _orgId: string, _services: ServiceRef[], _window: EvidenceWindow): Promise<LogsPart> {
  return { source: { id: source.id, kind: source.kind, name: source.name }, status: 'not_measured', reason: 'log collection is not built yet' };
}
