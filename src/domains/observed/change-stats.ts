/**
 * Statistics of the one change list over a time range: how many changes, from which source, on
 * which service, how many unauthorized, and the denied attempts counted apart. A denied attempt is
 * a write the source refused (an access attempt, not a change): it is never in the change total, a
 * source, a service or the unauthorized changes.
 *
 * One statement over three index range reads: planned changes by window start
 * (changes_org_window_idx), flag writes by time (the ledger's action index), observed rows by
 * occurred_at (observed_changes_org_time_idx). The range is half-open, [since, until), so two
 * adjacent ranges never count one change twice.
 */
import type { Queryable, Row } from '../../platform/db/database.js';

/**
 * The flag writes the one list shows (observed-feed.ts's FLAG_WRITES): an `unchanged` write is
 * recorded in the ledger but is not a change.
 */
const FLAG_WRITES = ['flag.created', 'flag.updated', 'flag.deleted'];

/** How many services and principals of denied attempts the answer names. */
export const STATS_TOP_SERVICES = 20;
export const STATS_TOP_DENIED_PRINCIPALS = 10;

export type ChangeStats = {
  since: string;
  until: string;
  /** Planned changes, flag writes and observed changes; never a denied attempt. */
  total: number;
  /** changeledger (planned), flags, and each connection kind (github … webhook). */
  bySource: Record<string, number>;
  /** The most frequent main services, most first then by key; '' = no service (unmapped). */
  byService: Array<{ service: string; count: number }>;
  /** Observed changes the reference rule flagged (authorized = false), denied attempts excluded. */
  unauthorized: number;
  denied: { total: number; byPrincipal: Array<{ principal: string; account: string; count: number }> };
};

type StatRow = Row & { dim: 'source' | 'service' | 'unauthorized' | 'denied_total' | 'denied'; k1: string; k2: string; n: number };

/*
 * A planned change's service is the list's (change-record's recordOf): the key of its first
 * service component, '' when it has none. A flag write's is the list's too (observed-feed's
 * serviceOfOwner): its flag's owner as `svc:<name>`, '' when the flag has no owner or is gone.
 * An observed row's is its `service` column.
 */
const SQL = `
WITH o AS MATERIALIZED (
  SELECT source, service, denied, authorized, coalesce(principal->>'name', '') AS principal,
         coalesce(nullif(location->>'account', ''), nullif(location->>'subscription', ''), nullif(location->>'cluster', ''), '') AS account
    FROM observed_changes
   WHERE org_id = $1 AND occurred_at >= $2::timestamptz AND occurred_at < $3::timestamptz
), counted AS MATERIALIZED (
  SELECT 'changeledger' AS source,
         coalesce((SELECT x->>'key' FROM jsonb_array_elements(c.components) WITH ORDINALITY AS e(x, n)
                    WHERE x->>'kind' = 'service' ORDER BY e.n LIMIT 1), '') AS service
    FROM changes c
   WHERE c.org_id = $1 AND c.window_start >= $2::timestamptz AND c.window_start < $3::timestamptz
  UNION ALL
  SELECT 'flags',
         CASE WHEN coalesce(f.owner_service, '') = '' THEN ''
              WHEN f.owner_service LIKE 'svc:%' THEN f.owner_service ELSE 'svc:' || f.owner_service END
    FROM audit_log a
    LEFT JOIN flags f ON f.org_id = $1 AND f.key = a.target_id
   WHERE a.org_no = (SELECT org_no FROM audit_heads WHERE org_id = $1) AND a.target_type = 'flag' AND hashtext(split_part(a.action, '.', 1)) = hashtext('flag') AND a.action = ANY($4::text[])
     AND a.occurred_at >= $2::timestamptz AND a.occurred_at < $3::timestamptz
  UNION ALL
  SELECT source, service FROM o WHERE NOT denied
)
SELECT 'source' AS dim, source AS k1, '' AS k2, count(*)::int AS n FROM counted GROUP BY source
UNION ALL
(SELECT 'service', service, '', count(*)::int FROM counted GROUP BY service ORDER BY count(*) DESC, service COLLATE "C" LIMIT $5)
UNION ALL
SELECT 'unauthorized', '', '', count(*)::int FROM o WHERE NOT denied AND authorized = false
UNION ALL
SELECT 'denied_total', '', '', count(*)::int FROM o WHERE denied
UNION ALL
(SELECT 'denied', principal, account, count(*)::int FROM o WHERE denied GROUP BY principal, account
  ORDER BY count(*) DESC, principal COLLATE "C", account COLLATE "C" LIMIT $6)`;

/** Code-unit order: the same on both engines and in every locale (SQL sorts with COLLATE "C"). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function changeStats(db: Queryable, orgId: string, since: Date, until: Date): Promise<ChangeStats> {
  const r = await db.query<StatRow>(SQL, [orgId, since.toISOString(), until.toISOString(), FLAG_WRITES, STATS_TOP_SERVICES, STATS_TOP_DENIED_PRINCIPALS]);
  const rows = r.rows.map((x) => ({ ...x, n: Number(x.n) }));
  const of = (dim: StatRow['dim']) => rows.filter((x) => x.dim === dim);
  const bySource: Record<string, number> = {};
  for (const x of of('source').sort((a, b) => byName(a.k1, b.k1))) bySource[x.k1] = x.n;
  return {
    since: since.toISOString(),
    until: until.toISOString(),
    total: Object.values(bySource).reduce((s, n) => s + n, 0),
    bySource,
    byService: of('service').sort((a, b) => b.n - a.n || byName(a.k1, b.k1)).map((x) => ({ service: x.k1, count: x.n })),
    unauthorized: of('unauthorized')[0]?.n ?? 0,
    denied: {
      total: of('denied_total')[0]?.n ?? 0,
      byPrincipal: of('denied').sort((a, b) => b.n - a.n || byName(a.k1, b.k1) || byName(a.k2, b.k2)).map((x) => ({ principal: x.k1, account: x.k2, count: x.n })),
    },
  };
}
