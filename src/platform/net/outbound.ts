import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { ipv6Groups } from './ip-address.js';

/**
 * Where an address leads, for the one judgement every outbound request passes:
 * `public` goes anywhere; `private` (RFC 1918, CGNAT, unique-local) only where the organisation
 * allows it; everything else never.
 */
export type AddressClass = 'public' | 'private' | 'loopback' | 'link-local' | 'metadata' | 'multicast' | 'unspecified' | 'reserved';

const RANGES: Array<[Exclude<AddressClass, 'public'>, 'ipv4' | 'ipv6', string, number]> = [
  // Cloud metadata first: these sit inside ranges judged below and must win.
  ['metadata', 'ipv4', '169.254.169.254', 32], ['metadata', 'ipv4', '169.254.170.2', 32], ['metadata', 'ipv4', '100.100.100.200', 32],
  ['metadata', 'ipv6', 'fd00:ec2::254', 128],
  ['unspecified', 'ipv4', '0.0.0.0', 8], ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv4', '127.0.0.0', 8], ['loopback', 'ipv6', '::1', 128],
  ['link-local', 'ipv4', '169.254.0.0', 16], ['link-local', 'ipv6', 'fe80::', 10],
  ['multicast', 'ipv4', '224.0.0.0', 4], ['multicast', 'ipv6', 'ff00::', 8],
  ['private', 'ipv4', '10.0.0.0', 8], ['private', 'ipv4', '172.16.0.0', 12], ['private', 'ipv4', '192.168.0.0', 16],
  ['private', 'ipv4', '100.64.0.0', 10], ['private', 'ipv6', 'fc00::', 7],
  // Protocol assignments, documentation, benchmarking, the old class E and broadcast: nothing to call.
  ['reserved', 'ipv4', '192.0.0.0', 24], ['reserved', 'ipv4', '192.0.2.0', 24], ['reserved', 'ipv4', '198.18.0.0', 15],
  ['reserved', 'ipv4', '198.51.100.0', 24], ['reserved', 'ipv4', '203.0.113.0', 24], ['reserved', 'ipv4', '240.0.0.0', 4],
  ['reserved', 'ipv6', '2001:db8::', 32], ['reserved', 'ipv6', '64:ff9b:1::', 48], ['reserved', 'ipv6', '100::', 64], ['reserved', 'ipv6', '::', 96],
];
const LISTS = new Map<Exclude<AddressClass, 'public'>, BlockList>();
for (const [cls, family, net, bits] of RANGES) {
  const list = LISTS.get(cls) ?? new BlockList();
  list.addSubnet(net, bits, family);
  LISTS.set(cls, list);
}

const dotted = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');

/**
 * IPv4 reached through an IPv6 address: mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) and 6to4
 * (2002::/16) are judged as the IPv4 address they carry.
 */
function embeddedIpv4(address: string): string | null {
  if (isIP(address) !== 6) return null;
  const g = ipv6Groups(address);
  if (!g) return null;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x2002) return dotted(g[1]!, g[2]!);
  return null;
}

export function classifyAddress(address: string): AddressClass {
  const inner = embeddedIpv4(address);
  if (inner) return classifyAddress(inner);
  const family = isIP(address);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [cls, list] of LISTS) if (list.check(address, type)) return cls;
  return 'public';
}

const DESCRIBED: Record<Exclude<AddressClass, 'public'>, string> = {
  private: 'a private address (RFC 1918, CGNAT or unique-local)', loopback: 'a loopback address', 'link-local': 'a link-local address',
  metadata: 'a cloud metadata address', multicast: 'a multicast address', unspecified: 'an unspecified address', reserved: 'a reserved address',
};

/** The request was not sent: the URL or the address it leads to is not allowed. Never retried. */
export class OutboundRefused extends Error {
  constructor(message: string, readonly reason: AddressClass | 'url') {
    super(message);
  }
}

/**
 * The request got no answer: a timeout, a refused connection, a reset, or a name that did not
 * resolve (`unresolved`: NXDOMAIN, SERVFAIL, no DNS answer — names come and go, so this is worth
 * retrying like an unreachable receiver).
 */
export class OutboundFailed extends Error {
  constructor(message: string, readonly kind: 'timeout' | 'unreachable' | 'unresolved', readonly durationMs: number, readonly address: string) {
    super(message);
  }
}

/** Who may be reached besides public addresses: the organisation's setting and the tests' switch. */
export type Reach = { allowPrivate: boolean; allowLoopback: boolean };

/**
 * The one judgement of an address, for requests and for URLs checked before any request: null
 * when it may be reached, else the refusal. `host` is the name it came from, for the message.
 */
export function judgeAddress(address: string, reach: Reach, host: string | null = null): OutboundRefused | null {
  const cls = classifyAddress(address);
  if (cls === 'public') return null;
  if (cls === 'private' && reach.allowPrivate) return null;
  if (cls === 'loopback' && reach.allowLoopback) return null;
  const hint = cls === 'private' ? ' — the organisation’s change settings can allow private addresses (allowPrivateCallbacks)' : '';
  const what = host ? `${host} resolves to ${address}, ${DESCRIBED[cls]}` : `${address} is ${DESCRIBED[cls]}`;
  return new OutboundRefused(`refused: ${what}${hint}`, cls);
}

/**
 * What can be known of a URL without asking DNS, for a URL saved now and used later:
 * `refused` — it can never be delivered (an address literal no setting opens, credentials in it);
 * `private` — a private address literal, reached only once the organisation allows private
 * addresses; `ok` — a name (judged when it is resolved, at each request) or an address that may
 * be reached. `what` says it in words: "127.0.0.1 is a loopback address".
 */
export type LiteralJudgement =
  | { verdict: 'ok' }
  | { verdict: 'private' | 'refused'; address: string | null; what: string };

/**
 * Judges the host of a URL when it is an address literal. The WHATWG parser has already turned
 * 2130706433, 0x7f000001, 0177.1 and 127.1 into 127.0.0.1 and [::ffff:127.0.0.1] into
 * [::ffff:7f00:1], so every spelling meets the same judgement. A URL that does not parse is
 * answered `ok`: saying so is the caller's own validation.
 */
export function judgeUrlLiteral(url: string, reach: Reach): LiteralJudgement {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { verdict: 'ok' };
  }
  if (u.username || u.password) return { verdict: 'refused', address: null, what: 'credentials in the URL are never sent' };
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!isIP(host)) return { verdict: 'ok' };
  if (!judgeAddress(host, reach)) return { verdict: 'ok' };
  const cls = classifyAddress(host) as Exclude<AddressClass, 'public'>;
  return { verdict: cls === 'private' ? 'private' : 'refused', address: host, what: `${host} is ${DESCRIBED[cls]}` };
}

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

export type OutboundClientOptions = {
  /** How a host name becomes addresses; the system resolver unless a test brings its own DNS. */
  resolve?: Resolve;
  timeoutMs?: number;
  maxResponseBytes?: number;
  userAgent?: string;
  /**
   * Tests only: lets requests reach 127.0.0.0/8 and ::1, where test receivers listen. Nothing in
   * the server's configuration sets it; every other class stays refused.
   */
  testOnlyAllowLoopback?: boolean;
};

export type OutboundRequest = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** The organisation allows RFC 1918 / CGNAT / unique-local addresses (allowPrivateCallbacks). */
  allowPrivate?: boolean;
  /**
   * This request's own deadline instead of the client's 10 s: an AI model may think for up to its
   * two-minute budget. The same guard, the same cap on the answer.
   */
  timeoutMs?: number;
  /** This request's own cap on the answer instead of the client's 256 KiB: a Prometheus range query for hundreds of services. */
  maxResponseBytes?: number;
};

export type OutboundResponse = {
  status: number; headers: IncomingHttpHeaders; body: string; truncated: boolean; address: string; durationMs: number;
};

export type OutboundClient = {
  request(r: OutboundRequest): Promise<OutboundResponse>;
  /**
   * Judges a URL without sending anything: the refusal a request would meet, or null. A name
   * that does not resolve throws OutboundFailed, as a request would.
   */
  check(url: string, allowPrivate: boolean): Promise<OutboundRefused | null>;
  /** judgeUrlLiteral with this client's own reach (the tests' loopback switch included). No DNS. */
  judgeLiteral(url: string, allowPrivate: boolean): LiteralJudgement;
};

export const OUTBOUND_TIMEOUT_MS = 10_000;
export const OUTBOUND_MAX_RESPONSE_BYTES = 256 * 1024;

const systemResolve: Resolve = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * The only way out of the server to an address someone typed in: resolve once, judge every
 * address of the answer, connect to the judged one (a second DNS answer is never asked for),
 * follow no redirect, give up after 10 s, keep at most 256 KiB of the answer.
 */
export function createOutboundClient(o: OutboundClientOptions = {}): OutboundClient {
  const resolve = o.resolve ?? systemResolve;
  const timeoutMs = o.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const maxBytes = o.maxResponseBytes ?? OUTBOUND_MAX_RESPONSE_BYTES;

  const loopback = o.testOnlyAllowLoopback ?? false;
  const judge = (address: string, allowPrivate: boolean, host: string | null) => judgeAddress(address, { allowPrivate, allowLoopback: loopback }, host);

  /** DNS failures that say nothing about the name itself: no server answered, or not in time. */
  const TRANSIENT_DNS = new Set(['ETIMEOUT', 'ESERVFAIL', 'EAI_AGAIN', 'ECONNREFUSED', 'EREFUSED', 'ECANCELLED', 'ETIMEDOUT']);

  async function lookupWithin(host: string, ms: number): Promise<ResolvedAddress[]> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_r, reject) => {
      timer = setTimeout(() => reject(new OutboundFailed(`no DNS answer for ${host} within ${ms / 1000} s`, 'timeout', ms, '')), ms);
    });
    try {
      return await Promise.race([resolve(host), deadline]);
    } catch (err) {
      if (err instanceof OutboundFailed) throw err;
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      const took = Math.round(performance.now() - started);
      // Even a name that does not exist (NXDOMAIN) may exist later, or on another resolver: a
      // receiver that cannot be found is unreachable, never refused. Only a judged address is final.
      if (TRANSIENT_DNS.has(code)) throw new OutboundFailed(`${host} could not be resolved just now (${code})`, 'unresolved', took, '');
      throw new OutboundFailed(`${host} does not resolve (${code})`, 'unresolved', took, '');
    } finally {
      clearTimeout(timer);
    }
  }

  async function target(url: string, allowPrivate: boolean, resolveWithinMs = timeoutMs): Promise<{ u: URL; pinned: ResolvedAddress }> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new OutboundRefused('refused: not a URL', 'url');
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new OutboundRefused(`refused: ${u.protocol} URLs are not allowed, only http and https`, 'url');
    if (u.username || u.password) throw new OutboundRefused('refused: credentials in the URL are not sent', 'url');
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const family = isIP(host);
    let addresses: ResolvedAddress[];
    if (family) addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
    else addresses = await lookupWithin(host, resolveWithinMs);
    if (addresses.length === 0) throw new OutboundFailed(`${host} does not resolve (no address)`, 'unresolved', 0, '');
    // Every address must pass: a name with one public and one private answer is refused.
    for (const a of addresses) {
      const refused = judge(a.address, allowPrivate, family ? null : host);
      if (refused) throw refused;
    }
    return { u, pinned: addresses[0]! };
  }

  return {
    async check(url, allowPrivate) {
      try {
        await target(url, allowPrivate);
        return null;
      } catch (err) {
        if (err instanceof OutboundRefused) return err;
        throw err;
      }
    },

    judgeLiteral: (url, allowPrivate) => judgeUrlLiteral(url, { allowPrivate, allowLoopback: loopback }),

    async request(r) {
      // One deadline for the whole exchange: name resolution, connection and answer.
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const limitMs = r.timeoutMs ?? timeoutMs;
      const capBytes = r.maxResponseBytes ?? maxBytes;
      const { u, pinned } = await target(r.url, r.allowPrivate ?? false, limitMs);
      const remaining = Math.max(1, limitMs - elapsed());
      const body = r.body === undefined ? undefined : Buffer.from(r.body, 'utf8');
      const headers: Record<string, string | number> = { 'user-agent': o.userAgent ?? 'changeledger/1', ...(r.headers ?? {}) };
      if (body) headers['content-length'] = body.length;
      return new Promise<OutboundResponse>((resolveResponse, reject) => {
        let settled = false;
        const fail = (err: Error) => {
          if (settled) return;
          settled = true;
          reject(err);
        };
        const req = (u.protocol === 'https:' ? https : http).request(u, {
          method: r.method ?? 'GET', headers, agent: false,
          // Node asks for one address or, with autoSelectFamily, for all: answer the judged one either way.
          lookup: ((_h: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) =>
            opts.all ? cb(null, [{ address: pinned.address, family: pinned.family }]) : cb(null, pinned.address, pinned.family)) as never,
        }, (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          let truncated = false;
          res.on('data', (c: Buffer) => {
            if (truncated) return;
            if (size + c.length > capBytes) {
              chunks.push(c.subarray(0, capBytes - size));
              truncated = true;
              res.destroy();
              return;
            }
            size += c.length;
            chunks.push(c);
          });
          const done = () => {
            if (settled) return;
            if (!res.complete && !truncated) {
              clearTimeout(timer);
              fail(new OutboundFailed(`${u.host} closed the connection before the answer was complete`, 'unreachable', elapsed(), pinned.address));
              return;
            }
            settled = true;
            clearTimeout(timer);
            resolveResponse({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), truncated, address: pinned.address, durationMs: elapsed() });
          };
          res.on('end', done);
          res.on('close', done);
          res.on('error', () => done());
        });
        // The answer counts too: a receiver that trickles bytes runs out of time like a silent one.
        const timer = setTimeout(() => {
          req.destroy();
          fail(new OutboundFailed(`no answer from ${u.host} within ${limitMs / 1000} s`, 'timeout', elapsed(), pinned.address));
        }, remaining);
        req.on('error', (err: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          fail(new OutboundFailed(`${u.host} unreachable (${err.code ?? err.message})`, 'unreachable', elapsed(), pinned.address));
        });
        req.end(body);
      });
    },
  };
}

/** Posts JSON through the client: the shape channel posts use. */
export async function postJson(client: OutboundClient, url: string, payload: unknown, allowPrivate: boolean): Promise<OutboundResponse> {
  return client.request({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload), allowPrivate });
}

/** What compose hands the services: the one client, and whether chat channels may be private. */
export type OutboundSettings = {
  client: OutboundClient;
  /** CHANGELEDGER_OUTBOUND_ALLOW_PRIVATE: a chat server on the operator's own network (never loopback). */
  allowPrivate: boolean;
};
