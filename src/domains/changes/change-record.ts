/**
 * A registered change as one entry of the one change list: every Change field, plus the fields
 * flag writes and observed changes share (RecordCommon). Pure.
 */
import type { Change } from './change-store.js';
import type { RecordCommon, RecordPrincipal } from './change-feed.js';

/** The channels a registered change arrives through. */
export const REGISTERED_MODES = ['ui', 'api', 'pipeline'] as const;
export type RegisteredMode = (typeof REGISTERED_MODES)[number];

/**
 * A change that names its pipeline came from one; a token without pipeline fields is some other
 * API client; everything else was registered by a person in the UI. The SQL filter of the list
 * (change-store's modeOf) says the same in SQL.
 */
export function modeOf(c: Pick<Change, 'pipeline' | 'viaTokenId'>): RegisteredMode {
  if (c.pipeline && Object.keys(c.pipeline).length > 0) return 'pipeline';
  return c.viaTokenId ? 'api' : 'ui';
}

function principalOf(c: Change): RecordPrincipal {
  const detail: Record<string, string> = { email: c.owner.email };
  if (c.viaTokenId) return { kind: 'token', name: c.owner.name || c.owner.email, id: c.viaTokenId, detail: { ...detail, ownerId: c.owner.id } };
  return { kind: 'person', name: c.owner.name || c.owner.email, id: c.owner.id, detail };
}

export type RegisteredEntry = Change & RecordCommon & { origin: 'registered' };

export function recordOf(c: Change): RegisteredEntry {
  // Its services are the service components; a change on a database alone links no service.
  const services = c.components.filter((x) => x.kind === 'service').map((x) => x.key);
  return {
    ...c,
    origin: 'registered', source: 'changeledger', mode: modeOf(c), at: c.windowStart, principal: principalOf(c),
    service: services[0] ?? '', services, diff: null, denied: false, authorized: true, link: null,
  };
}

/** mode=platform: what changeledger itself recorded (registered changes and flag writes), none of what a source saw. */
export const PLATFORM_MODE = 'platform';

/**
 * service= names a service by key or by name: `checkout` and `svc:checkout` find the same
 * service (lower case, for a case-blind match).
 */
export function serviceCandidates(given: string): string[] {
  const s = given.trim().toLowerCase();
  if (s === '') return [];
  const bare = s.startsWith('svc:') ? s.slice('svc:'.length) : s;
  return [...new Set([s, bare, `svc:${bare}`])];
}
