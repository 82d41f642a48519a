/**
 * SQL of unmanaged_settings and itsm_tickets, and the reads the reference rule needs once per
 * delivery: the planned changes that could vouch for writes of a time span, and the tickets that
 * arrived with the ITSM token.
 */
import type { Queryable, Row, Tx } from '../../../platform/db/database.js';
import { DEFAULT_UNMANAGED_SETTINGS, type UnmanagedSettings } from './unmanaged-settings.js';
import type { ItsmChangeMatch, ItsmSystem, Ticket } from './unmanaged-types.js';

export type StoredSettings = UnmanagedSettings & { itsmTokenMintedAt: string | null; updatedAt: string | null };

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

type SettingsRow = Row & {
  reference_rule: boolean; authorized_principals: string[]; itsm_change_match: ItsmChangeMatch; denied_access_to_secops: boolean;
  itsm_token_minted_at: Date | null; updated_at: Date;
};

/** The organisation's settings, the defaults while none is saved; `lock` for a read-modify-write. */
export async function readUnmanagedSettings(q: Queryable, orgId: string, lock = false): Promise<StoredSettings> {
  // Before its first save the organisation has no row to lock: two first PUTs would both start from
  // the defaults and one would be lost. The organisation's row stands in (NO KEY UPDATE leaves
  // inserts that reference it alone).
  if (lock) await q.query('SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [orgId]);
  const r = await q.query<SettingsRow>(`SELECT * FROM unmanaged_settings WHERE org_id = $1${lock ? ' FOR UPDATE' : ''}`, [orgId]);
  const row = r.rows[0];
  if (!row) return { ...DEFAULT_UNMANAGED_SETTINGS, authorizedPrincipals: [], itsmChangeMatch: {}, itsmTokenMintedAt: null, updatedAt: null };
  return {
    referenceRule: row.reference_rule, authorizedPrincipals: row.authorized_principals, itsmChangeMatch: row.itsm_change_match ?? {},
    deniedAccessToSecops: row.denied_access_to_secops, itsmTokenMintedAt: iso(row.itsm_token_minted_at), updatedAt: iso(row.updated_at),
  };
}

export async function writeUnmanagedSettings(tx: Tx, orgId: string, s: UnmanagedSettings, now: string): Promise<void> {
  await tx.query(
    `INSERT INTO unmanaged_settings (org_id, reference_rule, authorized_principals, itsm_change_match, denied_access_to_secops, updated_at)
     VALUES ($1, $2, $3::text[], $4, $5, $6)
     ON CONFLICT (org_id) DO UPDATE SET reference_rule = $2, authorized_principals = $3::text[], itsm_change_match = $4, denied_access_to_secops = $5, updated_at = $6`,
    [orgId, s.referenceRule, s.authorizedPrincipals, JSON.stringify(s.itsmChangeMatch), s.deniedAccessToSecops, now]);
}

/** A new ITSM token's hash replaces the old one: from now on only the new token vouches. */
export async function setItsmToken(tx: Tx, orgId: string, hash: string, now: string): Promise<void> {
  await tx.query(
    `INSERT INTO unmanaged_settings (org_id, itsm_token_hash, itsm_token_minted_at, updated_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT (org_id) DO UPDATE SET itsm_token_hash = $2, itsm_token_minted_at = $3, updated_at = $3`, [orgId, hash, now]);
}

/** The organisation whose ITSM token has this hash. */
export async function orgOfItsmToken(q: Queryable, hash: string): Promise<string | null> {
  const r = await q.query<{ org_id: string }>('SELECT org_id FROM unmanaged_settings WHERE itsm_token_hash = $1', [hash]);
  return r.rows[0]?.org_id ?? null;
}

export async function hasItsmToken(q: Queryable, orgId: string): Promise<boolean> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM unmanaged_settings WHERE org_id = $1 AND itsm_token_hash IS NOT NULL', [orgId]);
  return (r.rows[0]?.n ?? 0) > 0;
}

export type StoredTicket = Ticket & { verified: boolean; unverifiedReason: string | null; firstReceivedAt: string; receivedAt: string };

type TicketRow = Row & {
  system: ItsmSystem; key: string; title: string; state: string | null; approval: string | null; planned_start: Date | null; planned_end: Date | null;
  items: string[]; assignment_group: string | null; link: string | null; tool_updated_at: Date | null; verified: boolean; unverified_reason: string | null;
  first_received_at: Date; received_at: Date;
};

const toTicket = (r: TicketRow): StoredTicket => ({
  system: r.system, key: r.key, title: r.title, state: r.state, approval: r.approval, plannedStart: iso(r.planned_start), plannedEnd: iso(r.planned_end),
  items: r.items, assignmentGroup: r.assignment_group, link: r.link, updatedAt: iso(r.tool_updated_at), verified: r.verified,
  unverifiedReason: r.unverified_reason, firstReceivedAt: iso(r.first_received_at)!, receivedAt: iso(r.received_at)!,
});

/**
 * A ticket's arrival: a new row, or its re-send refreshing every field. A re-send without the token
 * does not refresh a verified ticket's fields (nobody vouches for them); it is answered as kept.
 */
export async function upsertTicket(tx: Tx, orgId: string, t: Ticket, verified: boolean, unverifiedReason: string | null, now: string): Promise<{ created: boolean; refreshed: boolean }> {
  const r = await tx.query<{ created: boolean }>(
    `INSERT INTO itsm_tickets (org_id, system, key, title, state, approval, planned_start, planned_end, items, assignment_group, link, tool_updated_at, verified, unverified_reason, first_received_at, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[], $10, $11, $12, $13, $14, $15, $15)
     ON CONFLICT (org_id, system, key) DO UPDATE SET title = $4, state = $5, approval = $6, planned_start = $7, planned_end = $8, items = $9::text[],
       assignment_group = $10, link = $11, tool_updated_at = $12, verified = $13, unverified_reason = $14, received_at = $15
       WHERE $13 OR NOT itsm_tickets.verified
     RETURNING (xmax = 0) AS created`,
    [orgId, t.system, t.key, t.title, t.state, t.approval, t.plannedStart, t.plannedEnd, t.items, t.assignmentGroup, t.link, t.updatedAt, verified, unverifiedReason, now]);
  const row = r.rows[0];
  return { created: row?.created === true, refreshed: row !== undefined && row.created !== true };
}

export async function findTicket(q: Queryable, orgId: string, system: ItsmSystem, key: string): Promise<StoredTicket | null> {
  const r = await q.query<TicketRow>('SELECT * FROM itsm_tickets WHERE org_id = $1 AND system = $2 AND key = $3', [orgId, system, key]);
  return r.rows[0] ? toTicket(r.rows[0]) : null;
}

export async function listTickets(q: Queryable, orgId: string, limit = 200): Promise<StoredTicket[]> {
  const r = await q.query<TicketRow>('SELECT * FROM itsm_tickets WHERE org_id = $1 ORDER BY received_at DESC, key LIMIT $2', [orgId, limit]);
  return r.rows.map(toTicket);
}

/**
 * The tickets that could match writes between two times (a planned window around them, or no
 * window at all, which matches only when the organisation does not ask for one), in one read:
 * the verified ones (up to 1,000) that vouch, and the unverified ones (up to 100) that only show
 * what came close.
 */
export async function ticketsAround(q: Queryable, orgId: string, from: string, until: string): Promise<{ verified: StoredTicket[]; unverified: StoredTicket[] }> {
  const r = await q.query<TicketRow>(
    `(SELECT * FROM itsm_tickets WHERE org_id = $1 AND verified
        AND (planned_start IS NULL OR planned_start <= $3) AND (planned_end IS NULL OR planned_end >= $2)
      ORDER BY received_at DESC, key LIMIT 1000)
     UNION ALL
     (SELECT * FROM itsm_tickets WHERE org_id = $1 AND NOT verified
        AND (planned_start IS NULL OR planned_start <= $3) AND (planned_end IS NULL OR planned_end >= $2)
      ORDER BY received_at DESC, key LIMIT 100)`, [orgId, from, until]);
  const all = r.rows.map(toTicket);
  return { verified: all.filter((t) => t.verified), unverified: all.filter((t) => !t.verified) };
}

