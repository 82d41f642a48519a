import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/** Addresses a request to a user-supplied URL must not reach unless the operator allows it. */
const PRIVATE = new BlockList();
for (const [net, bits] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

export type OutboundPolicy = {
  /** Allow loopback and private networks (an on-premises Mattermost; tests). Off by default. */
  allowPrivate: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
};

export class OutboundRefused extends Error {}

export function isPrivateAddress(address: string): boolean {
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The one way out: resolve the host, judge every address, pin the socket to the judged one (no
 * DNS rebinding between check and connect), follow no redirects, stop after 10 s, read at most
 * 64 KiB of the answer.
 */
export async function postJson(url: string, body: unknown, policy: OutboundPolicy): Promise<{ status: number; body: string }> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new OutboundRefused('not a URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new OutboundRefused('only http and https URLs are allowed');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  if (addresses.length === 0) throw new OutboundRefused(`${host} does not resolve`);
  if (!policy.allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) throw new OutboundRefused(`${host} resolves to ${bad.address}, a private or local address`);
  }
  const pinned = addresses[0]!;
  const payload = Buffer.from(JSON.stringify(body));
  const maxBytes = policy.maxResponseBytes ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    const req = (u.protocol === 'https:' ? https : http).request(
      u,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': payload.length, 'user-agent': 'changeledger' },
        timeout: policy.timeoutMs ?? 10_000,
        // Node asks for one address or, with autoSelectFamily, for all: answer the pinned one either way.
        lookup: ((_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) =>
          o.all ? cb(null, [{ address: pinned.address, family: pinned.family }]) : cb(null, pinned.address, pinned.family)) as never,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= maxBytes) chunks.push(c);
          else res.destroy();
        });
        res.on('close', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${u.host} within ${policy.timeoutMs ?? 10_000} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}
