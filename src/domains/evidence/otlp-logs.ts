import protobuf from 'protobufjs';

/**
 * OTLP/HTTP logs, read from either encoding into one shape. The messages are written here from
 * the OTLP specification (https://opentelemetry.io/docs/specs/otlp/ and the field numbers of
 * opentelemetry-proto's logs/v1/logs.proto, common/v1/common.proto, resource/v1/resource.proto,
 * collector/logs/v1/logs_service.proto), only the fields we read or answer; protobuf skips the
 * others. The JSON encoding is the protobuf JSON mapping with OTLP's exceptions: lowerCamelCase
 * keys, trace and span ids as hex, 64-bit integers as decimal strings (numbers accepted too),
 * enums as integers.
 */

const KV = { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } };
const DESCRIPTOR = {
  nested: {
    AnyValue: {
      oneofs: { value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] } },
      fields: {
        stringValue: { type: 'string', id: 1 }, boolValue: { type: 'bool', id: 2 }, intValue: { type: 'int64', id: 3 },
        doubleValue: { type: 'double', id: 4 }, arrayValue: { type: 'ArrayValue', id: 5 }, kvlistValue: { type: 'KeyValueList', id: 6 },
        bytesValue: { type: 'bytes', id: 7 },
      },
    },
    ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
    KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
    KeyValue: KV,
    Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
    InstrumentationScope: { fields: { name: { type: 'string', id: 1 }, version: { type: 'string', id: 2 } } },
    LogRecord: {
      fields: {
        timeUnixNano: { type: 'fixed64', id: 1 }, severityNumber: { type: 'int32', id: 2 }, severityText: { type: 'string', id: 3 },
        body: { type: 'AnyValue', id: 5 }, attributes: { rule: 'repeated', type: 'KeyValue', id: 6 }, flags: { type: 'fixed32', id: 8 },
        traceId: { type: 'bytes', id: 9 }, spanId: { type: 'bytes', id: 10 }, observedTimeUnixNano: { type: 'fixed64', id: 11 },
        eventName: { type: 'string', id: 12 },
      },
    },
    ScopeLogs: { fields: { scope: { type: 'InstrumentationScope', id: 1 }, logRecords: { rule: 'repeated', type: 'LogRecord', id: 2 } } },
    ResourceLogs: { fields: { resource: { type: 'Resource', id: 1 }, scopeLogs: { rule: 'repeated', type: 'ScopeLogs', id: 2 } } },
    ExportLogsServiceRequest: { fields: { resourceLogs: { rule: 'repeated', type: 'ResourceLogs', id: 1 } } },
    ExportLogsPartialSuccess: { fields: { rejectedLogRecords: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } } },
    ExportLogsServiceResponse: { fields: { partialSuccess: { type: 'ExportLogsPartialSuccess', id: 1 } } },
    // google.rpc.Status: what OTLP/HTTP answers a refused request with (details are not sent).
    Status: { fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 } } },
  },
};

const root = protobuf.Root.fromJSON(DESCRIPTOR);
const RequestType = root.lookupType('ExportLogsServiceRequest');
const ResponseType = root.lookupType('ExportLogsServiceResponse');
const StatusType = root.lookupType('Status');

/** google.rpc.Code INVALID_ARGUMENT. */
export const STATUS_INVALID_ARGUMENT = 3;

/** A JSON-ish value of an attribute or a body, as we store it. */
export type Plain = string | number | boolean | null | Plain[] | { [k: string]: Plain };

/** One log record as received, before the intake's time and acceptance rules. */
export type ReceivedLog = {
  service: string;
  /** Nanoseconds since the epoch as a decimal string; null when absent or 0 ("unknown"). */
  timeUnixNano: string | null;
  observedTimeUnixNano: string | null;
  severityNumber: number | null;
  severityText: string | null;
  body: string;
  attributes: Record<string, Plain>;
  traceId: string | null;
};

/** The request could not be read at all: a 400 with these words. */
export class OtlpBodyError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

function list(v: unknown, where: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new OtlpBodyError(`${where} must be a list`);
  return v;
}

/** A 64-bit unsigned as a decimal string: a string, a number, or protobuf's {low, high}. */
function nanos(v: unknown, where: string): string | null {
  if (v === undefined || v === null) return null;
  let s: string;
  if (typeof v === 'string') s = v.trim();
  else if (typeof v === 'number' && Number.isFinite(v) && v >= 0) s = BigInt(Math.trunc(v)).toString();
  else if (typeof v === 'bigint') s = v.toString();
  else if (isObj(v) && typeof v.low === 'number' && typeof v.high === 'number') s = ((BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0)).toString();
  else throw new OtlpBodyError(`${where} must be nanoseconds since 1970 as a decimal string`);
  if (!/^\d{1,20}$/.test(s)) throw new OtlpBodyError(`${where} must be nanoseconds since 1970 as a decimal string`);
  return BigInt(s) === 0n ? null : BigInt(s).toString();
}

function hexId(v: unknown, where: string): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (v instanceof Uint8Array) return v.length ? Buffer.from(v).toString('hex') : null;
  if (typeof v === 'string' && /^[0-9a-fA-F]*$/.test(v)) return v.toLowerCase() || null;
  throw new OtlpBodyError(`${where} must be a trace id in hex`);
}

/** An AnyValue as a plain value. Bytes become base64, 64-bit integers numbers when exact, else strings. */
export function plainOf(v: unknown): Plain {
  if (!isObj(v)) return null;
  if ('stringValue' in v && v.stringValue != null) return String(v.stringValue);
  if ('boolValue' in v && v.boolValue != null) return Boolean(v.boolValue);
  if ('intValue' in v && v.intValue != null) {
    const s = isObj(v.intValue) ? nanos(v.intValue, 'intValue') ?? '0' : String(v.intValue);
    const n = Number(s);
    return Number.isSafeInteger(n) ? n : s;
  }
  if ('doubleValue' in v && v.doubleValue != null) {
    const n = Number(v.doubleValue);
    return Number.isFinite(n) ? n : String(v.doubleValue);
  }
  if ('arrayValue' in v && isObj(v.arrayValue)) return list(v.arrayValue.values, 'arrayValue.values').map(plainOf);
  if ('kvlistValue' in v && isObj(v.kvlistValue)) return attributesOf(v.kvlistValue.values, 'kvlistValue.values');
  if ('bytesValue' in v && v.bytesValue != null) return v.bytesValue instanceof Uint8Array ? Buffer.from(v.bytesValue).toString('base64') : String(v.bytesValue);
  return null;
}

function attributesOf(v: unknown, where: string): Record<string, Plain> {
  const out: Record<string, Plain> = {};
  for (const kv of list(v, where)) if (isObj(kv) && typeof kv.key === 'string') out[kv.key] = plainOf(kv.value);
  return out;
}

/** A body as the text we fingerprint: a string as it is, anything else as JSON. */
function bodyText(v: unknown): string {
  const p = plainOf(v);
  if (p === null) return '';
  return typeof p === 'string' ? p : JSON.stringify(p);
}

/** The records of a decoded request (either encoding, camelCase keys). */
export function recordsOf(request: unknown): ReceivedLog[] {
  if (!isObj(request)) throw new OtlpBodyError('the body must be an ExportLogsServiceRequest object');
  const out: ReceivedLog[] = [];
  list(request.resourceLogs, 'resourceLogs').forEach((rl, i) => {
    if (!isObj(rl)) throw new OtlpBodyError(`resourceLogs[${i}] must be an object`);
    const resource = isObj(rl.resource) ? attributesOf(rl.resource.attributes, `resourceLogs[${i}].resource.attributes`) : {};
    const name = resource['service.name'];
    const service = typeof name === 'string' ? name : '';
    list(rl.scopeLogs, `resourceLogs[${i}].scopeLogs`).forEach((sl, j) => {
      if (!isObj(sl)) throw new OtlpBodyError(`resourceLogs[${i}].scopeLogs[${j}] must be an object`);
      list(sl.logRecords, `resourceLogs[${i}].scopeLogs[${j}].logRecords`).forEach((r, k) => {
        const where = `resourceLogs[${i}].scopeLogs[${j}].logRecords[${k}]`;
        if (!isObj(r)) throw new OtlpBodyError(`${where} must be an object`);
        const sev = r.severityNumber;
        if (sev !== undefined && sev !== null && (typeof sev !== 'number' || !Number.isInteger(sev))) throw new OtlpBodyError(`${where}.severityNumber must be an integer`);
        out.push({
          service,
          timeUnixNano: nanos(r.timeUnixNano, `${where}.timeUnixNano`),
          observedTimeUnixNano: nanos(r.observedTimeUnixNano, `${where}.observedTimeUnixNano`),
          severityNumber: typeof sev === 'number' && sev > 0 ? sev : null,
          severityText: typeof r.severityText === 'string' && r.severityText ? r.severityText : null,
          body: bodyText(r.body),
          attributes: attributesOf(r.attributes, `${where}.attributes`),
          traceId: hexId(r.traceId, `${where}.traceId`),
        });
      });
    });
  });
  return out;
}

export function parseJsonRequest(text: string): ReceivedLog[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new OtlpBodyError(`the body is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  return recordsOf(parsed);
}

export function parseProtobufRequest(bytes: Uint8Array): ReceivedLog[] {
  let decoded: protobuf.Message;
  try {
    decoded = RequestType.decode(bytes);
  } catch (err) {
    throw new OtlpBodyError(`the body is not an ExportLogsServiceRequest in protobuf: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Longs as strings, bytes as Uint8Array, absent fields absent: the shape recordsOf reads.
  return recordsOf(RequestType.toObject(decoded, { longs: String, bytes: Uint8Array, defaults: false }));
}

export type PartialSuccess = { rejectedLogRecords: number; errorMessage: string } | null;

/** ExportLogsServiceResponse in JSON: {} on full success, partialSuccess when records were refused. */
export function jsonResponse(p: PartialSuccess): Record<string, unknown> {
  return p ? { partialSuccess: { rejectedLogRecords: String(p.rejectedLogRecords), errorMessage: p.errorMessage } } : {};
}

export function protobufResponse(p: PartialSuccess): Uint8Array {
  const msg = p ? { partialSuccess: { rejectedLogRecords: p.rejectedLogRecords, errorMessage: p.errorMessage } } : {};
  return ResponseType.encode(ResponseType.fromObject(msg)).finish();
}

/** The google.rpc.Status of a refused request, in protobuf. */
export function protobufStatus(code: number, message: string): Uint8Array {
  return StatusType.encode(StatusType.fromObject({ code, message })).finish();
}

/** For tests and the bench: a request in protobuf from the camelCase shape. */
export function encodeProtobufRequest(request: unknown): Uint8Array {
  return RequestType.encode(RequestType.fromObject(request as Obj)).finish();
}

export function decodeProtobufResponse(bytes: Uint8Array): Record<string, unknown> {
  return ResponseType.toObject(ResponseType.decode(bytes), { longs: Number, defaults: false });
}
