import { createSocket, type RemoteInfo } from 'node:dgram';
import { promises as dns } from 'node:dns';
import { isIPv4, isIPv6 } from 'node:net';

export type DnsQuestion = {
  /** Lower case, without the trailing dot. */
  name: string;
  type: 'A' | 'AAAA';
  /** How many questions of this name and type came before this one: 0 for the first. */
  index: number;
};

/** The addresses a name has (IPv4 and IPv6 mixed, each question gets its family), or undefined: NXDOMAIN. */
export type DnsAnswer = readonly string[] | undefined;
type Answerer = (q: DnsQuestion) => DnsAnswer | Promise<DnsAnswer>;
export type DnsZone = Answerer | Record<string, readonly string[] | Answerer>;

export type DnsServer = {
  /** host:port, for Resolver.setServers. */
  address: string;
  port: number;
  /** Every A and AAAA question received, in order. */
  questions: Array<{ name: string; type: 'A' | 'AAAA' }>;
  /** How many questions came for a name (of one type, or of both). */
  count(name: string, type?: 'A' | 'AAAA'): number;
  close(): Promise<void>;
};

const TYPES: Record<number, 'A' | 'AAAA'> = { 1: 'A', 28: 'AAAA' };

function ipv6Bytes(address: string): Buffer {
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, -dotted[1]!.length) + '0';
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  if (tail.length) (rest === undefined ? left : right).splice(-1, 1, ...tail);
  const words = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  const out = Buffer.alloc(16);
  words.forEach((w, i) => out.writeUInt16BE(w, i * 2));
  return out;
}

/**
 * A real DNS server on 127.0.0.1 over UDP that answers A and AAAA questions from a zone: a table
 * of names, or a function so an answer can change from one question to the next (DNS rebinding).
 * TTL 0, so no resolver keeps an answer. Unknown names get NXDOMAIN, a known name without an
 * address of the family asked gets an empty answer (ENODATA).
 */
export async function startDnsServer(zone: DnsZone): Promise<DnsServer> {
  const answerer: Answerer = typeof zone === 'function' ? zone : (q) => {
    const entry = zone[q.name];
    return typeof entry === 'function' ? entry(q) : entry;
  };
  const questions: DnsServer['questions'] = [];
  const socket = createSocket('udp4');

  const answer = async (msg: Buffer, from: RemoteInfo) => {
    if (msg.length < 12) return;
    const labels: string[] = [];
    let at = 12;
    while (at < msg.length && msg[at]! > 0) {
      labels.push(msg.toString('latin1', at + 1, at + 1 + msg[at]!));
      at += 1 + msg[at]!;
    }
    const qtype = msg.readUInt16BE(at + 1);
    const questionEnd = at + 5;
    const name = labels.join('.').toLowerCase();
    const type = TYPES[qtype];
    let addresses: DnsAnswer = [];
    if (type) {
      const index = questions.filter((q) => q.name === name && q.type === type).length;
      questions.push({ name, type });
      addresses = await answerer({ name, type, index });
    }
    const records = (addresses ?? []).filter((a) => (type === 'A' ? isIPv4(a) : type === 'AAAA' && isIPv6(a)));
    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0);
    // QR, the opcode and RD as asked, AA, RA; rcode 3 is NXDOMAIN.
    header.writeUInt16BE(0x8000 | (msg.readUInt16BE(2) & 0x7900) | 0x0400 | 0x0080 | (addresses === undefined ? 3 : 0), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(records.length, 6);
    const rrs = records.map((a) => {
      const data = type === 'A' ? Buffer.from(a.split('.').map(Number)) : ipv6Bytes(a);
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      rr.writeUInt16BE(qtype, 2);
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(0, 6); // TTL
      rr.writeUInt16BE(data.length, 10);
      return Buffer.concat([rr, data]);
    });
    socket.send(Buffer.concat([header, msg.subarray(12, questionEnd), ...rrs]), from.port, from.address);
  };
  socket.on('message', (msg, from) => void answer(msg, from).catch(() => undefined));

  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    questions,
    count: (name, type) => questions.filter((q) => q.name === name && (!type || q.type === type)).length,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/**
 * A resolve function for the outbound client that asks only this server (node:dns Resolver):
 * A and AAAA questions once each per call, the IPv4 answers first. A family without addresses
 * (ENODATA) is left out; NXDOMAIN or a failure of both is thrown, as the system resolver would.
 */
export function resolveWith(server: DnsServer, opts: { timeoutMs?: number } = {}) {
  const resolver = new dns.Resolver({ timeout: opts.timeoutMs ?? 3000, tries: 1 });
  resolver.setServers([server.address]);
  return async (host: string): Promise<Array<{ address: string; family: 4 | 6 }>> => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const noData = (r: PromiseSettledResult<string[]>) => r.status === 'rejected' && (r.reason as NodeJS.ErrnoException).code === 'ENODATA';
    if (v4.status === 'rejected' && v6.status === 'rejected' && !(noData(v4) && noData(v6))) throw noData(v4) ? v6.reason : v4.reason;
    if (v4.status === 'rejected' && !noData(v4)) throw v4.reason;
    if (v6.status === 'rejected' && !noData(v6)) throw v6.reason;
    return [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
  };
}
