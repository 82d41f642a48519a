import { gunzipSync } from 'node:zlib';
import { Counter, type Registry } from 'prom-client';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { maskMessage } from './log-fingerprint.js';
import { LOG_RETENTION_DAYS } from './log-retention.js';
import { insertLogRecords, type LogRecordRow } from './log-store.js';
import { OtlpBodyError, parseJsonRequest, parseProtobufRequest, type PartialSuccess, type ReceivedLog } from './otlp-logs.js';

/**
 * POST /v1/logs: an OpenTelemetry SDK's or collector's log export, kept for the logs part of a
 * change's report. Not audited: an SDK exports every second or so, and an audit event per batch
 * would bury the ledger's real events; intake is counted in /metrics instead, as alert intake's
 * repeats are.
 */

/** The bytes on the wire (compressed when gzip): 4 MiB, four times the OTel SDK's usual batch. */
export const LOGS_BODY_LIMIT = 4 * 1024 * 1024;
/** A gzip body may inflate to at most this: a small bomb is refused, not unpacked. */
export const LOGS_MAX_INFLATED_BYTES = 32 * 1024 * 1024;
/** Records in one request; an SDK's batch processor sends 512 at most by default. */
export const LOGS_MAX_RECORDS = 20_000;
/** Requests a minute per token: each process of a service exports about once a second. */
export const LOGS_INTAKE_PER_MINUTE = 1_200;
/** A record stamped further ahead than this is refused: a clock that far off would misplace it in every window. */
export const LOGS_FUTURE_TOLERANCE_MS = 60 * 60 * 1000;
/** What we keep of a body: the report shows one sample, and a fingerprint reads the first lines. */
export const LOG_BODY_MAX_CHARS = 8 * 1024;

export type LogsEncoding = 'json' | 'protobuf';

/** Refused before any record is read: the status and the words. */
export class LogsRefused extends Error {
  constructor(readonly status: 400 | 413 | 415, message: string) {
    super(message);
  }
}

export type LogsAccepted = { accepted: number; partial: PartialSuccess };

/** The request's bytes, inflated when gzip, refused when some other encoding. */
export function inflate(body: Buffer, contentEncoding: string | undefined): Buffer {
  const enc = (contentEncoding ?? '').trim().toLowerCase();
  if (enc === '' || enc === 'identity') return body;
  if (enc !== 'gzip') throw new LogsRefused(415, `Content-Encoding ${enc} is not supported: send gzip or none`);
  try {
    return gunzipSync(body, { maxOutputLength: LOGS_MAX_INFLATED_BYTES });
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new LogsRefused(413, `the body inflates to more than ${LOGS_MAX_INFLATED_BYTES / 1024 / 1024} MiB`);
    }
    throw new LogsRefused(400, 'the body is not valid gzip');
  }
}

function nsToIso(ns: string): string | null {
  const ms = BigInt(ns) / 1_000_000n;
  if (ms > 8_640_000_000_000_000n) return null;
  return new Date(Number(ms)).toISOString();
}

export class LogIntake {
  private readonly received: Counter<'encoding'> | null;
  private readonly rejected: Counter<'reason'> | null;

  constructor(private readonly deps: { db: Database; clock: Clock; registry?: Registry }) {
    const registers = deps.registry ? [deps.registry] : [];
    this.received = deps.registry ? new Counter({ name: 'changeledger_logs_received_total', help: 'OTLP log records stored, by encoding', labelNames: ['encoding'] as const, registers }) : null;
    this.rejected = deps.registry ? new Counter({ name: 'changeledger_logs_rejected_total', help: 'OTLP log records refused (partial success), by reason', labelNames: ['reason'] as const, registers }) : null;
  }

  /** Reads, judges and stores one export request; throws LogsRefused when it cannot be read. */
  async receive(orgId: string, encoding: LogsEncoding, raw: Buffer, contentEncoding: string | undefined): Promise<LogsAccepted> {
    const bytes = inflate(raw, contentEncoding);
    let logs: ReceivedLog[];
    try {
      logs = encoding === 'json' ? parseJsonRequest(bytes.toString('utf8')) : parseProtobufRequest(bytes);
    } catch (err) {
      if (err instanceof OtlpBodyError) throw new LogsRefused(400, err.message);
      throw err;
    }
    if (logs.length > LOGS_MAX_RECORDS) throw new LogsRefused(413, `more than ${LOGS_MAX_RECORDS} log records in one request: send smaller batches`);

    const now = this.deps.clock.now();
    const oldest = now.getTime() - LOG_RETENTION_DAYS * 24 * 3600 * 1000;
    const newest = now.getTime() + LOGS_FUTURE_TOLERANCE_MS;
    const rows: LogRecordRow[] = [];
    let tooOld = 0;
    let tooNew = 0;
    for (const l of logs) {
      // The record's own time, else when a collector observed it, else when we received it.
      const stamped = l.timeUnixNano ?? l.observedTimeUnixNano;
      const at = stamped ? nsToIso(stamped) : now.toISOString();
      const t = at ? Date.parse(at) : Number.NaN;
      if (!at || t > newest) {
        tooNew += 1;
        continue;
      }
      if (t < oldest) {
        tooOld += 1;
        continue;
      }
      const body = l.body.length > LOG_BODY_MAX_CHARS ? `${l.body.slice(0, LOG_BODY_MAX_CHARS)}…` : l.body;
      rows.push({
        service: l.service, at, severityNumber: l.severityNumber, severityText: l.severityText, body,
        fingerprint: maskMessage(body), attributes: l.attributes, traceId: l.traceId,
      });
    }
    if (rows.length) await this.deps.db.transaction((tx) => insertLogRecords(tx, orgId, rows, now.toISOString()));

    this.received?.inc({ encoding }, rows.length);
    if (tooOld) this.rejected?.inc({ reason: 'too_old' }, tooOld);
    if (tooNew) this.rejected?.inc({ reason: 'in_the_future' }, tooNew);
    const words: string[] = [];
    if (tooOld) words.push(`${tooOld} stamped more than ${LOG_RETENTION_DAYS} days ago (older records are not kept)`);
    if (tooNew) words.push(`${tooNew} stamped more than ${LOGS_FUTURE_TOLERANCE_MS / 60_000} minutes ahead of this server's clock`);
    const partial = tooOld + tooNew > 0 ? { rejectedLogRecords: tooOld + tooNew, errorMessage: `refused ${words.join(' and ')}` } : null;
    return { accepted: rows.length, partial };
  }
}
