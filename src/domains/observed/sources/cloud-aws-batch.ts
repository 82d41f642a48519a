/** Many CloudTrail records read at once: the session tags of the batch's STS calls lend their CHG- id to the calls made with those sessions. Pure. */
import type { Parsed } from '../observed-types.js';
import { sessionTagRefs } from './cloud-aws-identity.js';
import { readCloudTrailRecord } from './cloud-aws-record.js';
import { isObj, type Json } from './cloud-fields.js';

export type RecordItem = { record: unknown; at: string; index: number; fallback?: { account?: string | null; region?: string | null } };

export function readCloudTrailItems(items: readonly RecordItem[]): Parsed {
  const out: Parsed = { events: [], ignored: 0, noise: 0, rejected: [] };
  const tags = sessionTagRefs(items.map((i) => i.record).filter(isObj) as Json[]);
  for (const item of items) {
    const r = readCloudTrailRecord(item.record, item.at, tags, item.fallback);
    if (r.as === 'event') out.events.push(r.event);
    else if (r.as === 'rejected') out.rejected.push({ index: item.index, field: r.problem.field, message: r.problem.message });
    else if (r.as === 'ignored') out.ignored += 1;
    else out.noise += 1;
  }
  return out;
}
