import { parseDocument as parseYaml } from 'yaml';
import { serviceKey, type Entity, type Estate, type Link } from './entity.js';

/** What one caller asks of one callee on one route, for contracts. */
export type OtlpRoute = {
  /** Entity keys, as in the links: `svc:frontend` → `svc:checkout`; the caller `ingress` is outside the estate. */
  caller: string;
  callee: string;
  /** `GET`…; for RPC the system (`GRPC`); null when the span says neither. */
  method: string | null;
  /** `http.route`, else `rpc.service/rpc.method`, else the span name (low-cardinality by convention). */
  route: string;
  calls: number;
  /** Share of calls, 0 to 1, with status ERROR or an HTTP status of 500 or more. */
  errorShare: number;
  /** Nearest-rank 95th percentile of the server spans' durations. */
  p95Ms: number;
  /** The path of the latest call, without its query string (which may carry personal data). */
  samplePath: string | null;
  /** ISO time of the latest call's end, never after `now`. */
  lastSeen: string;
  /** A health or metrics endpoint: real traffic, but not a contract anybody wrote. */
  probe: boolean;
};

/** `ignored` counts CLIENT spans that made no link: no server span, no peer named, or a self-call. */
export type OtlpResult =
  | { ok: true; estate: Estate; routes: OtlpRoute[]; ignored: number }
  | { ok: false; error: string; field: string };

export const PROBE_PATHS = ['/health', '/healthz', '/ready', '/readyz', '/live', '/livez', '/metrics'] as const;
/** The caller of requests that entered the estate from outside; without a colon it is no entity key. */
export const INGRESS = 'ingress';

const SPAN_KINDS = ['SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER'];
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];
const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;
const TRACE_ID = /^[0-9a-f]{32}$/i;
const SPAN_ID = /^[0-9a-f]{16}$/i;
const MAX_NAME = 300;

type Obj = Record<string, unknown>;
type Fail = { ok: false; error: string; field: string };
type Attrs = Map<string, string | number | boolean>;
type Span = {
  service: string; traceId: string; spanId: string; parentSpanId: string | null; kind: number; name: string;
  startNs: bigint; endNs: bigint; attrs: Attrs; statusError: boolean;
};

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (field: string, error: string): Fail => ({ ok: false, error: `${field} ${error}`, field });
const isFail = (v: unknown): v is Fail => isObj(v) && v.ok === false;

/**
 * Protobuf's JSON mapping writes 64-bit integers as decimal strings and accepts numbers too;
 * nanosecond times exceed 2^53, so they are read as bigint.
 */
function int64(v: unknown): bigint | null {
  if (typeof v === 'string' && /^-?\d{1,20}$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  return null;
}

/** An enum as OTLP/JSON writes it (an integer) or as plain protobuf JSON does (its name). */
function enumValue(v: unknown, names: string[]): number | null {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 && v < names.length ? v : null;
  if (typeof v === 'string') return names.indexOf(v) >= 0 ? names.indexOf(v) : null;
  return null;
}

/** A KeyValue list, keeping the scalar values we read (strings, ints, doubles, booleans). */
function attributes(v: unknown, at: string): Attrs | Fail {
  const out: Attrs = new Map();
  if (v === undefined || v === null) return out;
  if (!Array.isArray(v)) return fail(at, 'must be a list of {key, value}');
  for (const [i, kv] of v.entries()) {
    if (!isObj(kv) || typeof kv.key !== 'string') return fail(`${at}.${i}.key`, 'must be a string');
    const val = isObj(kv.value) ? kv.value : {};
    if (typeof val.stringValue === 'string') out.set(kv.key, val.stringValue);
    else if (typeof val.boolValue === 'boolean') out.set(kv.key, val.boolValue);
    else if (typeof val.doubleValue === 'number') out.set(kv.key, val.doubleValue);
    else if (val.intValue !== undefined) {
      const n = int64(val.intValue);
      if (n === null) return fail(`${at}.${i}.value.intValue`, 'must be an integer, as a number or a decimal string');
      out.set(kv.key, Number(n));
    }
  }
  return out;
}

const str = (a: Attrs, ...keys: string[]) => {
  for (const k of keys) {
    const v = a.get(k);
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return null;
};
const num = (a: Attrs, ...keys: string[]) => {
  for (const k of keys) {
    const v = a.get(k);
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
  }
  return null;
};

/** The spans of one ExportTraceServiceRequest, validated; `prefix` is `` or `3.` for a list of requests. */
function readRequest(req: unknown, prefix: string, spans: Span[], services: Map<string, Entity>): Fail | null {
  if (!isObj(req) || !Array.isArray(req.resourceSpans)) return fail(`${prefix}resourceSpans`, 'is required: expected OTLP/JSON trace data, {"resourceSpans": [...]}');
  for (const [r, rs] of req.resourceSpans.entries()) {
    const at = `${prefix}resourceSpans.${r}`;
    if (!isObj(rs)) return fail(at, 'must be an object with resource and scopeSpans');
    const resource = isObj(rs.resource) ? rs.resource : {};
    const ra = attributes(resource.attributes, `${at}.resource.attributes`);
    if (isFail(ra)) return ra;
    const service = str(ra, 'service.name');
    if (!service || service.length > MAX_NAME) return fail(`${at}.resource.attributes`, `must hold service.name, 1 to ${MAX_NAME} characters`);
    const key = serviceKey(service);
    if (!services.has(key)) {
      const attrs: Record<string, unknown> = {};
      const ns = str(ra, 'service.namespace');
      const version = str(ra, 'service.version');
      if (ns) attrs.namespace = ns;
      if (version) attrs.version = version;
      services.set(key, { key, kind: 'service', name: service, environment: str(ra, 'deployment.environment.name', 'deployment.environment'), attrs });
    }
    // instrumentationLibrarySpans is the name scopeSpans had before OTLP 0.15; old agents still send it.
    const scopesKey = rs.scopeSpans !== undefined ? 'scopeSpans' : 'instrumentationLibrarySpans';
    const scopes = rs[scopesKey] ?? [];
    if (!Array.isArray(scopes)) return fail(`${at}.${scopesKey}`, 'must be a list');
    for (const [s, ss] of scopes.entries()) {
      const sat = `${at}.${scopesKey}.${s}`;
      if (!isObj(ss)) return fail(sat, 'must be an object with spans');
      const list = ss.spans ?? [];
      if (!Array.isArray(list)) return fail(`${sat}.spans`, 'must be a list');
      for (const [k, raw] of list.entries()) {
        const span = readSpan(raw, `${sat}.spans.${k}`, service);
        if (isFail(span)) return span;
        spans.push(span);
      }
    }
  }
  return null;
}

function readSpan(raw: unknown, at: string, service: string): Span | Fail {
  if (!isObj(raw)) return fail(at, 'must be a span object');
  // Ids are case-insensitive hex in OTLP/JSON; all zeros is the invalid id.
  const id = (k: string, re: RegExp, optional: boolean): string | null | Fail => {
    const v = raw[k];
    if (optional && (v === undefined || v === null || v === '')) return null;
    if (typeof v !== 'string' || !re.test(v) || /^0+$/.test(v)) return fail(`${at}.${k}`, `must be ${re === TRACE_ID ? 32 : 16} hex digits, not all zero`);
    return v.toLowerCase();
  };
  const traceId = id('traceId', TRACE_ID, false);
  if (isFail(traceId)) return traceId;
  const spanId = id('spanId', SPAN_ID, false);
  if (isFail(spanId)) return spanId;
  const parentSpanId = id('parentSpanId', SPAN_ID, true);
  if (isFail(parentSpanId)) return parentSpanId;
  if (raw.name !== undefined && typeof raw.name !== 'string') return fail(`${at}.name`, 'must be a string');
  const kind = enumValue(raw.kind, SPAN_KINDS);
  if (kind === null) return fail(`${at}.kind`, 'must be 0 to 5 or a SPAN_KIND_* name');
  const startNs = int64(raw.startTimeUnixNano);
  if (startNs === null || startNs < 0n) return fail(`${at}.startTimeUnixNano`, 'must be nanoseconds since 1970, as a decimal string');
  const endNs = int64(raw.endTimeUnixNano);
  if (endNs === null || endNs < 0n) return fail(`${at}.endTimeUnixNano`, 'must be nanoseconds since 1970, as a decimal string');
  if (endNs < startNs) return fail(`${at}.endTimeUnixNano`, 'is before startTimeUnixNano');
  const status = raw.status === undefined || raw.status === null ? {} : raw.status;
  if (!isObj(status)) return fail(`${at}.status`, 'must be an object');
  const code = enumValue(status.code, STATUS_CODES);
  if (code === null) return fail(`${at}.status.code`, 'must be 0, 1, 2 or a STATUS_CODE_* name');
  const attrs = attributes(raw.attributes, `${at}.attributes`);
  if (isFail(attrs)) return attrs;
  return { service, traceId: traceId!, spanId: spanId!, parentSpanId, kind, name: (raw.name as string | undefined) ?? '', startNs, endNs, attrs, statusError: code === ERROR };
}

export type OtlpText = { ok: true; value: unknown } | { ok: false; error: string; field: string; line: number | null };

/**
 * The text of an OTLP/JSON file: one JSON request, or JSON lines, one request a line, as the
 * collector's file exporter writes (read as a list of requests). A syntax error names its line.
 */
export function parseOtlpText(text: string): OtlpText {
  let whole: Error;
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    whole = e as Error;
  }
  const lines = text.split('\n').map((l, i) => [l, i + 1] as const).filter(([l]) => l.trim() !== '');
  const parses = (l: string) => {
    try {
      return { ok: true as const, value: JSON.parse(l) as unknown };
    } catch (e) {
      return { ok: false as const, error: (e as Error).message };
    }
  };
  if (lines.length > 1 && parses(lines[0]![0]).ok) {
    const values: unknown[] = [];
    for (const [l, n] of lines) {
      const p = parses(l);
      if (!p.ok) return { ok: false, error: `line ${n} is not JSON: ${p.error}`, field: 'body', line: n };
      values.push(p.value);
    }
    return { ok: true, value: values };
  }
  return { ok: false, error: `the file is not OTLP/JSON: ${whole.message.split('\n')[0]}`, field: 'body', line: errorLine(text, whole.message) };
}

/** V8 names a position in some messages, a line in others (Node 22), neither in the rest: then YAML's parser finds it. */
function errorLine(text: string, message: string): number | null {
  const line = /\(line (\d+) column \d+\)/.exec(message);
  if (line) return Number(line[1]);
  const pos = /at position (\d+)/.exec(message);
  if (pos) return text.slice(0, Number(pos[1])).split('\n').length;
  return parseYaml(text).errors[0]?.linePos?.[0].line ?? null;
}

/** The host a client span went to, when no server span answers it. */
function peerHost(a: Attrs): string | null {
  const host = str(a, 'server.address', 'net.peer.name');
  if (host) return host;
  const url = str(a, 'url.full', 'http.url');
  if (url) {
    try {
      return new URL(url).hostname || null;
    } catch {
      return null;
    }
  }
  return null;
}

const pathOf = (a: Attrs) => str(a, 'url.path', 'http.target')?.split('?')[0] ?? null;
const isProbe = (path: string | null) => path !== null && (PROBE_PATHS as readonly string[]).includes(path.length > 1 ? path.replace(/\/+$/, '') : path);

type Group = { caller: string; callee: string; method: string | null; route: string; durations: number[]; errors: number; lastNs: bigint; samplePath: string | null; sampleNs: bigint };

/**
 * OTLP/JSON trace data (one ExportTraceServiceRequest, or a list of them as the collector's file
 * exporter writes, one a line) → the services, who calls whom, and the routes each caller uses.
 * A CLIENT span of A whose child is a SERVER span of B is a call A → B; a CLIENT span without one
 * (the callee is not traced, or not in this export) names its callee by peer.service when that is a
 * service of the export, else by its server address as an external `ext:<host>`. A SERVER span
 * without a parent is a request from outside the estate: a route of the caller `ingress`, with no
 * entity and no link.
 */
export function fromOtlpTraces(doc: unknown, opts: { now: Date }): OtlpResult {
  const spans: Span[] = [];
  const services = new Map<string, Entity>();
  const requests = Array.isArray(doc) ? doc.map((r, i) => [r, `${i}.`] as const) : [[doc, ''] as const];
  for (const [req, prefix] of requests) {
    const bad = readRequest(req, prefix, spans, services);
    if (bad) return bad;
  }
  // An exporter retries what it is not sure was delivered: a span seen twice counts once.
  const byId = new Map<string, Span>();
  for (const s of spans) if (!byId.has(`${s.traceId}/${s.spanId}`)) byId.set(`${s.traceId}/${s.spanId}`, s);
  const serversUnder = new Map<string, Span[]>();
  const ingress: Span[] = [];
  for (const s of byId.values()) {
    if (s.kind !== SERVER) continue;
    if (!s.parentSpanId) {
      ingress.push(s);
      continue;
    }
    const parent = `${s.traceId}/${s.parentSpanId}`;
    const list = serversUnder.get(parent);
    if (list) list.push(s);
    else serversUnder.set(parent, [s]);
  }

  // A clock ahead of ours must not make a link look fresher than the import itself.
  const nowNs = BigInt(opts.now.getTime()) * 1_000_000n;
  const iso = (ns: bigint) => new Date(Number((ns < nowNs ? ns : nowNs) / 1_000_000n)).toISOString();
  const entities = new Map(services);
  const links = new Map<string, Link & { lastNs: bigint }>();
  const link = (from: string, to: string, endNs: bigint) => {
    const id = `${from}\u0000${to}\u0000calls`;
    const l = links.get(id);
    if (!l) links.set(id, { from, to, via: 'calls', lastNs: endNs });
    else if (endNs > l.lastNs) l.lastNs = endNs;
  };
  const groups = new Map<string, Group>();
  let ignored = 0;

  for (const c of byId.values()) {
    if (c.kind !== CLIENT) continue;
    const caller = serviceKey(c.service);
    const servers = serversUnder.get(`${c.traceId}/${c.spanId}`) ?? [];
    if (servers.length > 0) {
      const others = servers.filter((s) => s.service !== c.service);
      if (others.length === 0) ignored += 1;
      for (const s of others) {
        const callee = serviceKey(s.service);
        link(caller, callee, c.endNs > s.endNs ? c.endNs : s.endNs);
        addRoute(groups, caller, callee, s);
      }
      continue;
    }
    const peer = str(c.attrs, 'peer.service');
    if (peer && services.has(serviceKey(peer))) {
      if (peer === c.service) ignored += 1;
      else link(caller, serviceKey(peer), c.endNs);
      continue;
    }
    const host = peerHost(c.attrs) ?? peer;
    if (!host || host.length > MAX_NAME) {
      ignored += 1;
      continue;
    }
    const key = `ext:${host}`;
    if (!entities.has(key)) {
      const attrs: Record<string, unknown> = {};
      if (peer) attrs.peerService = peer;
      entities.set(key, { key, kind: 'external', name: host, engine: str(c.attrs, 'db.system.name', 'db.system'), attrs });
    }
    link(caller, key, c.endNs);
  }

  for (const s of ingress) addRoute(groups, INGRESS, serviceKey(s.service), s);

  const routes: OtlpRoute[] = [...groups.values()].map((g) => {
    const sorted = [...g.durations].sort((a, b) => a - b);
    const p95 = sorted[Math.max(0, Math.ceil(0.95 * sorted.length) - 1)] ?? 0;
    return {
      caller: g.caller, callee: g.callee, method: g.method, route: g.route, calls: g.durations.length, errorShare: g.errors / g.durations.length,
      p95Ms: Math.round(p95 * 1000) / 1000, samplePath: g.samplePath, lastSeen: iso(g.lastNs), probe: isProbe(g.route),
    };
  });
  routes.sort((a, b) => `${a.caller} ${a.callee} ${a.route} ${a.method}`.localeCompare(`${b.caller} ${b.callee} ${b.route} ${b.method}`));
  return {
    ok: true,
    estate: { entities: [...entities.values()], links: [...links.values()].map(({ from, to, via, lastNs }) => ({ from, to, via, lastSeen: iso(lastNs) })) },
    routes,
    ignored,
  };
}

/** Adds a SERVER span to its (caller, callee, method, route) group. */
function addRoute(groups: Map<string, Group>, caller: string, callee: string, s: Span) {
  const a = s.attrs;
  const rpc = str(a, 'rpc.system');
  const method = str(a, 'http.request.method', 'http.method')?.toUpperCase() ?? rpc?.toUpperCase() ?? null;
  const rpcService = str(a, 'rpc.service');
  const rpcMethod = str(a, 'rpc.method');
  const path = pathOf(a);
  // Without http.route a probe's path is its route: probe paths are few, unlike /orders/8812.
  const route = str(a, 'http.route') ?? (rpcService && rpcMethod ? `${rpcService}/${rpcMethod}` : isProbe(path) ? path! : s.name || '(unnamed)');
  const id = `${caller}\u0000${callee}\u0000${method ?? ''}\u0000${route}`;
  let g = groups.get(id);
  if (!g) {
    g = { caller, callee, method, route, durations: [], errors: 0, lastNs: s.endNs, samplePath: null, sampleNs: -1n };
    groups.set(id, g);
  }
  g.durations.push(Number(s.endNs - s.startNs) / 1e6);
  const status = num(a, 'http.response.status_code', 'http.status_code');
  if (s.statusError || (status !== null && status >= 500)) g.errors += 1;
  if (s.endNs > g.lastNs) g.lastNs = s.endNs;
  if (path !== null && s.endNs >= g.sampleNs) {
    g.samplePath = path;
    g.sampleNs = s.endNs;
  }
}
