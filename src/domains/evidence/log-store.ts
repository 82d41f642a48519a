import type { Queryable } from '../../platform/db/database.js';
import type { Plain } from './otlp-logs.js';

/**
 * SQL of log_records: what POST /v1/logs writes, what the otlp logs part of a report reads, and
 * what the retention sweep deletes. Reads match services by lower(service), the index's form.
 */

export type LogRecordRow = {
  service: string;
  at: string;
  severityNumber: number | null;
  severityText: string | null;
  body: string;
  fingerprint: string;
  attributes: Record<string, Plain>;
  traceId: string | null;
};

/** Rows a statement inserts: 10 parameters each, well under PostgreSQL's 65,535. */
const INSERT_CHUNK = 500;

export async function insertLogRecords(db: Queryable, orgId: string, rows: LogRecordRow[], receivedAt: string): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    const params: unknown[] = [orgId, receivedAt];
    const values = chunk.map((r) => {
      const b = params.length;
      params.push(r.service, r.at, r.severityNumber, r.severityText, r.body, r.fingerprint, JSON.stringify(r.attributes), r.traceId);
      return `($1, $${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}::jsonb, $${b + 8}, $2)`;
    });
    await db.query(
      `INSERT INTO log_records (org_id, service, at, severity_number, severity_text, body, fingerprint, attributes, trace_id, received_at) VALUES ${values.join(', ')}`,
      params,
    );
  }
}

/** OTLP SeverityNumber 17..20 is ERROR, 21..24 FATAL: both count as errors. */
export const ERROR_SEVERITY = 17;

/**
 * An error record: its severity number says so, or, when the sender set none, its severity text
 * does (some bridges send only the text).
 */
const IS_ERROR = `(severity_number >= ${ERROR_SEVERITY} OR (severity_number IS NULL AND lower(severity_text) IN ('error', 'err', 'fatal', 'critical', 'crit', 'alert', 'emergency', 'panic')))`;

export type SpanCounts = { volume: number; errors: number };

/** Records and error records of these services (lower-cased names) in [start, end). */
export async function countLogs(db: Queryable, orgId: string, services: string[], start: string, end: string): Promise<SpanCounts> {
  const { rows } = await db.query<{ volume: string; errors: string }>(
    `SELECT count(*) AS volume, count(*) FILTER (WHERE ${IS_ERROR}) AS errors
       FROM log_records WHERE org_id = $1 AND lower(service) = ANY($2::text[]) AND at >= $3 AND at < $4`,
    [orgId, services, start, end],
  );
  return { volume: Number(rows[0]?.volume ?? 0), errors: Number(rows[0]?.errors ?? 0) };
}

export type FingerprintCount = { fingerprint: string; count: number; services: string[]; sample: string };

/**
 * Error fingerprints of these services in [start, end), most frequent first, at most `limit`;
 * `only`, when given, restricts to those fingerprints (the baselines count the window's ones).
 * The sample is the newest body of each.
 */
export async function errorFingerprints(
  db: Queryable, orgId: string, services: string[], start: string, end: string, limit: number, only?: string[],
): Promise<FingerprintCount[]> {
  const params: unknown[] = [orgId, services, start, end, limit];
  const restrict = only ? `AND fingerprint = ANY($6::text[])` : '';
  if (only) params.push(only);
  const { rows } = await db.query<{ fingerprint: string; n: string; services: string[]; sample: string }>(
    `SELECT fingerprint, count(*) AS n, array_agg(DISTINCT service COLLATE "C" ORDER BY service COLLATE "C") AS services,
            (array_agg(body ORDER BY at DESC, id DESC))[1] AS sample
       FROM log_records
      WHERE org_id = $1 AND lower(service) = ANY($2::text[]) AND at >= $3 AND at < $4 AND ${IS_ERROR} ${restrict}
      GROUP BY fingerprint ORDER BY count(*) DESC, fingerprint LIMIT $5`,
    params,
  );
  return rows.map((r) => ({ fingerprint: r.fingerprint, count: Number(r.n), services: r.services, sample: r.sample }));
}

/** Organisations that hold log records: the sweep goes through them one by one, on the (org_id, at) index. */
export async function orgsWithLogRecords(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM organizations o WHERE EXISTS (SELECT 1 FROM log_records l WHERE l.org_id = o.id) ORDER BY id');
  return rows.map((r) => r.id);
}

/** Deletes at most `batch` of the organisation's records stamped before `before`; answers how many went. */
export async function deleteLogRecordsBefore(db: Queryable, orgId: string, before: string, batch: number): Promise<number> {
  const r = await db.query(
    'DELETE FROM log_records WHERE id IN (SELECT id FROM log_records WHERE org_id = $1 AND at < $2 ORDER BY at LIMIT $3)',
    [orgId, before, batch],
  );
  return r.rowCount;
}
