import { createServer, type IncomingMessage, type Server } from 'node:http';

/**
 * A loopback stand-in for Grafana Loki, which cannot be installed here. It answers the endpoints
 * our client calls in the shapes Loki's HTTP API reference documents
 * (https://grafana.com/docs/loki/latest/reference/loki-http-api/):
 * - GET /loki/api/v1/status/buildinfo → {version, revision, branch, buildUser, buildDate, goVersion}
 * - GET /loki/api/v1/labels → {status: "success", data: [names]}
 * - GET /loki/api/v1/query (a metric query) → {status, data: {resultType: "vector", result: [{metric, value: [<s>, "<n>"]}], stats}}
 * - GET /loki/api/v1/query_range (a log query) → {status, data: {resultType: "streams", result: [{stream, values: [["<ns>", "<line>"]]}], stats}}
 * - errors: plain text with the status, as Loki writes them ("parse error at line 1, col 1: …").
 * It evaluates only the LogQL our adapter writes — a selector of `=`/`=~` matchers, an optional
 * `| detected_level=~"…"` / `|= "…"` stage, `sum(count_over_time(… [Ns]))` — over the lines a test
 * gave it, and records every request, so a test asserts the queries sent as well as the figures.
 */

export type LokiLine = { at: string; labels: Record<string, string>; line: string; level?: string };
export type LokiRequest = { path: string; params: Record<string, string>; authorization: string | null };

export type LokiReplay = {
  url: string;
  requests: LokiRequest[];
  /** Lines it holds; `detected_level` is the line's `level` (Loki 3's structured metadata). */
  push(...lines: LokiLine[]): void;
  /** Makes every query answer this status and text (a broken Loki), or null to answer again. */
  fail(status: number | null, text?: string): void;
  close(): Promise<void>;
};

type Matcher = { name: string; op: '=' | '=~' | '!=' | '!~'; value: string };
type Parsed = { matchers: Matcher[]; stages: Array<(l: LokiLine) => boolean> };

class ParseError extends Error {}

function unquote(s: string): string {
  if (s.startsWith('`')) return s.slice(1, -1);
  return JSON.parse(s) as string;
}

/** RE2 with a leading (?i), anchored as Loki anchors matchers, in JavaScript. */
function re2(value: string, anchored: boolean): RegExp {
  const ci = value.startsWith('(?i)');
  const body = ci ? value.slice(4) : value;
  return new RegExp(anchored ? `^(?:${body})$` : body, ci ? 'i' : '');
}

const STRING = String.raw`("(?:[^"\\]|\\.)*"|` + '`[^`]*`)';

function parseLogQuery(q: string): Parsed {
  const m = /^\s*\{([^}]*)\}(.*)$/s.exec(q);
  if (!m) throw new ParseError('parse error at line 1, col 1: syntax error: unexpected IDENTIFIER, expecting {');
  const matchers: Matcher[] = [];
  const matcherRe = new RegExp(String.raw`\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*${STRING}\s*(?:,|$)`, 'gy');
  let mm: RegExpExecArray | null;
  while ((mm = matcherRe.exec(m[1]!)) !== null) {
    matchers.push({ name: mm[1]!, op: mm[2] as Matcher['op'], value: unquote(mm[3]!) });
    if (matcherRe.lastIndex >= m[1]!.length) break;
  }
  if (matchers.length === 0) throw new ParseError('parse error : queries require at least one regexp or equality matcher that does not have an empty-compatible value');
  const stages: Parsed['stages'] = [];
  let rest = m[2]!.trim();
  const stageRe = new RegExp(String.raw`^\|\s*(?:detected_level\s*(=~|=)\s*${STRING}|(=|~)\s*${STRING})\s*`);
  while (rest) {
    const s = stageRe.exec(rest);
    if (!s) throw new ParseError(`parse error at line 1, col ${q.length - rest.length + 1}: syntax error: unexpected ${rest.slice(0, 10)}`);
    if (s[1]) {
      const v = unquote(s[2]!);
      const re = s[1] === '=~' ? re2(v, true) : null;
      stages.push((l) => (re ? re.test(l.level ?? '') : (l.level ?? '') === v));
    } else {
      const v = unquote(s[4]!);
      const re = s[3] === '~' ? re2(v, false) : null;
      stages.push((l) => (re ? re.test(l.line) : l.line.includes(v)));
    }
    rest = rest.slice(s[0].length).trim();
  }
  return { matchers, stages };
}

function matches(p: Parsed, l: LokiLine): boolean {
  for (const m of p.matchers) {
    const v = l.labels[m.name] ?? '';
    const ok = m.op === '=' || m.op === '!=' ? v === m.value : re2(m.value, true).test(v);
    if ((m.op === '=' || m.op === '=~') !== ok) return false;
  }
  return p.stages.every((s) => s(l));
}

const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
/** Loki takes a time as nanoseconds, seconds (with a fraction) or RFC 3339. */
function timeNs(v: string): bigint {
  if (/^\d{16,}$/.test(v)) return BigInt(v);
  if (/^\d+(\.\d+)?$/.test(v)) return BigInt(Math.round(Number(v) * 1000)) * 1_000_000n;
  return ns(v);
}

export async function startLokiReplay(opts: { version?: string } = {}): Promise<LokiReplay> {
  const lines: LokiLine[] = [];
  const requests: LokiRequest[] = [];
  let failing: { status: number; text: string } | null = null;

  const answer = (u: URL, req: IncomingMessage): { status: number; body: unknown; text?: string } => {
    const params = Object.fromEntries(u.searchParams);
    requests.push({ path: u.pathname, params, authorization: req.headers.authorization ?? null });
    if (failing) return { status: failing.status, body: null, text: failing.text };
    if (u.pathname === '/loki/api/v1/status/buildinfo') {
      return { status: 200, body: { version: opts.version ?? '3.1.0', revision: '935aee77ed', branch: 'HEAD', buildUser: 'root@buildkitsandbox', buildDate: '2024-07-01T00:00:00Z', goVersion: 'go1.22.2' } };
    }
    if (u.pathname === '/loki/api/v1/labels') {
      const names = new Set<string>();
      for (const l of lines) for (const k of Object.keys(l.labels)) names.add(k);
      return { status: 200, body: { status: 'success', data: [...names].sort() } };
    }
    const stats = { summary: { bytesProcessedPerSecond: 0, linesProcessedPerSecond: 0, totalBytesProcessed: 0, totalLinesProcessed: 0, execTime: 0.001 } };
    if (u.pathname === '/loki/api/v1/query') {
      const q = params.query ?? '';
      const m = /^sum\(count_over_time\((.*)\[(\d+)s\]\)\)$/s.exec(q.trim());
      if (!m) return { status: 400, body: null, text: `parse error : replay knows only sum(count_over_time(… [Ns])): ${q}` };
      const p = parseLogQuery(m[1]!);
      const end = timeNs(params.time ?? new Date().toISOString());
      const start = end - BigInt(m[2]!) * 1_000_000_000n;
      const n = lines.filter((l) => ns(l.at) > start && ns(l.at) <= end && matches(p, l)).length;
      const result = n === 0 ? [] : [{ metric: {}, value: [Number(end / 1_000_000n) / 1000, String(n)] }];
      return { status: 200, body: { status: 'success', data: { resultType: 'vector', result, stats } } };
    }
    if (u.pathname === '/loki/api/v1/query_range') {
      const p = parseLogQuery(params.query ?? '');
      const start = timeNs(params.start!);
      const end = timeNs(params.end!);
      const limit = Number(params.limit ?? 100);
      const picked = lines.filter((l) => ns(l.at) >= start && ns(l.at) < end && matches(p, l))
        .sort((a, b) => (params.direction === 'forward' ? 1 : -1) * (Date.parse(a.at) - Date.parse(b.at))).slice(0, limit);
      const streams = new Map<string, { stream: Record<string, string>; values: Array<[string, string]> }>();
      for (const l of picked) {
        const key = JSON.stringify(l.labels);
        const s = streams.get(key) ?? { stream: l.labels, values: [] };
        s.values.push([String(ns(l.at)), l.line]);
        streams.set(key, s);
      }
      return { status: 200, body: { status: 'success', data: { resultType: 'streams', result: [...streams.values()], stats } } };
    }
    return { status: 404, body: null, text: '404 page not found' };
  };

  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://loki');
    let out: { status: number; body: unknown; text?: string };
    try {
      out = answer(u, req);
    } catch (err) {
      out = { status: 400, body: null, text: err instanceof Error ? err.message : String(err) };
    }
    if (out.text !== undefined) res.writeHead(out.status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${out.text}\n`);
    else res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    push: (...ls) => lines.push(...ls),
    fail: (status, text = 'internal server error') => {
      failing = status === null ? null : { status, text };
    },
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
