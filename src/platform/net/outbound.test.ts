import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDnsServer, resolveWith, type DnsServer } from '../../../test/support/dns-server.js';
import {
  classifyAddress, createOutboundClient, judgeUrlLiteral, OUTBOUND_MAX_RESPONSE_BYTES, OUTBOUND_TIMEOUT_MS, OutboundFailed, OutboundRefused, postJson,
  type AddressClass, type OutboundClient,
} from './outbound.js';

type Hit = { method: string; path: string; headers: IncomingHttpHeaders; body: Buffer };

/**
 * HTTP receivers on loopback, one port on both 127.0.0.1 and ::1. `connections` counts TCP
 * connections, so a refusal can show that nothing at all reached them.
 */
async function startReceiver(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const hits: Hit[] = [];
  const state = { hits, connections: 0, port: 0 };
  const servers: Server[] = [];
  for (const host of ['127.0.0.1', '::1']) {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hits.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        answer(req, res);
      });
    });
    server.on('connection', () => state.connections++);
    await new Promise<void>((r) => server.listen(state.port, host, r));
    state.port = (server.address() as { port: number }).port;
    servers.push(server);
  }
  const close = () => Promise.all(servers.map((s) => new Promise<void>((r) => {
    s.closeAllConnections();
    s.close(() => r());
  })));
  return Object.assign(state, { close, reset: () => { hits.length = 0; state.connections = 0; } });
}

/** What the receivers answer, by path. */
function answer(req: IncomingMessage, res: ServerResponse): void {
  const port = (req.socket.localPort ?? 0);
  if (req.url === '/redirect-away') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
  else if (req.url === '/redirect-here') res.writeHead(302, { location: `http://127.0.0.1:${port}/landed` }).end();
  else if (req.url === '/megabyte') res.end('x'.repeat(1024 * 1024));
  else if (req.url === '/silent') return; // never answers
  else if (req.url === '/cut-off') {
    // Promises 1,000 bytes, sends 10, hangs up.
    res.writeHead(200, { 'content-length': '1000' });
    res.write('0123456789', () => res.destroy());
  }
  else if (req.url === '/trickle') {
    res.writeHead(200);
    const t = setInterval(() => res.write('.'), 50);
    res.on('close', () => clearInterval(t));
  } else res.writeHead(200, { 'content-type': 'text/plain', 'x-receiver': 'yes' }).end('ok');
}

/** The refusal a promise rejects with, or a failed expectation if it settles any other way. */
async function refusal(p: Promise<unknown>): Promise<OutboundRefused> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(OutboundRefused);
  return err as OutboundRefused;
}

async function failure(p: Promise<unknown>): Promise<OutboundFailed> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(OutboundFailed);
  return err as OutboundFailed;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the outbound client (SSRF guard)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let dns: DnsServer;
  let at: (host: string, path?: string) => string;
  /** Through the test DNS server, loopback allowed where the receivers listen. */
  let viaDns: OutboundClient;
  /** Through the test DNS server, as configured in production: no loopback. */
  let strictViaDns: OutboundClient;

  beforeAll(async () => {
    receiver = await startReceiver(answer);
    dns = await startDnsServer({
      'private.test': ['10.1.2.3'],
      'public-and-private.test': ['93.184.215.14', '10.0.0.7'],
      'public-and-loopback6.test': ['93.184.215.14', '::1'],
      'loopback-and-private.test': ['127.0.0.1', '10.0.0.7'],
      'metadata.test': ['169.254.169.254'],
      'metadata6.test': ['fd00:ec2::254'],
      'no-address.test': [],
      'receiver.test': ['127.0.0.1'],
      'receiver6.test': ['::1'],
      'rebind.test': ({ index }) => [index === 0 ? '127.0.0.1' : '169.254.169.254'],
      'rebind-late.test': ({ index }) => [index === 0 ? '169.254.169.254' : '127.0.0.1'],
      'slow.test': async () => (await sleep(1500), ['127.0.0.1']),
    });
    at = (host, path = '/') => `http://${host}:${receiver.port}${path}`;
    viaDns = createOutboundClient({ resolve: resolveWith(dns), testOnlyAllowLoopback: true, timeoutMs: 2000 });
    strictViaDns = createOutboundClient({ resolve: resolveWith(dns), timeoutMs: 2000 });
  });
  afterAll(async () => {
    await receiver.close();
    await dns.close();
  });
  beforeEach(() => receiver.reset());

  it.each<[AddressClass, string[]]>([
    ['public', ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '2002:808:808::1']],
    ['private', ['10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.0.1', '192.168.255.254', '100.64.0.1', '100.127.255.254', 'fc00::1', 'fd12::1']],
    ['loopback', ['127.0.0.1', '127.5.5.5', '::1']],
    ['link-local', ['169.254.1.1', '169.254.0.1', 'fe80::1', 'febf::1']],
    ['metadata', ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200']],
    ['multicast', ['224.0.0.1', '239.255.255.250', 'ff02::1']],
    ['unspecified', ['0.0.0.0', '0.1.2.3', '::']],
    ['reserved', ['240.0.0.1', '255.255.255.255', '192.0.2.1', '198.51.100.7', '203.0.113.9', '2001:db8::1', 'not-an-address']],
  ])('classifies %s addresses', (cls, addresses) => {
    for (const a of addresses) expect([a, classifyAddress(a)]).toEqual([a, cls]);
  });

  it.each<[string, AddressClass]>([
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['::ffff:10.0.0.1', 'private'], ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'], ['64:ff9b::7f00:1', 'loopback'], ['64:ff9b::808:808', 'public'],
    ['2002:a00:1::', 'private'], ['2002:a9fe:a9fe::1', 'metadata'], ['2002:7f00:1::', 'loopback'],
  ])('judges %s (IPv4 inside IPv6) as the IPv4 address it carries: %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  // The short form drops the zero group: 2002:7f00::1 still carries 127.0.0.0.
  it('judges a 6to4 address whose IPv4 ends in .0.0 as the IPv4 address it carries', async () => {
    expect(classifyAddress('2002:a00::1')).toBe('private');
    expect((await strictViaDns.check('http://[2002:7f00::1]/', true))?.reason).toBe('loopback');
  });

  it.each<[string, AddressClass, string]>([
    ['169.254.169.254', 'metadata', '169.254.169.254'], ['100.100.100.200', 'metadata', '100.100.100.200'],
    ['[fd00:ec2::254]', 'metadata', 'fd00:ec2::254'], ['[::ffff:169.254.169.254]', 'metadata', '::ffff:a9fe:a9fe'],
    ['[64:ff9b::a9fe:a9fe]', 'metadata', '64:ff9b::a9fe:a9fe'],
    ['169.254.1.1', 'link-local', '169.254.1.1'], ['[fe80::1]', 'link-local', 'fe80::1'],
    ['224.0.0.1', 'multicast', '224.0.0.1'], ['[ff02::1]', 'multicast', 'ff02::1'],
    ['0.0.0.0', 'unspecified', '0.0.0.0'], ['[::]', 'unspecified', '::'],
    ['240.0.0.1', 'reserved', '240.0.0.1'], ['192.0.2.1', 'reserved', '192.0.2.1'],
  ])('always refuses http://%s, even with allowPrivate and the loopback test switch (%s)', async (host, reason, named) => {
    const url = at(host, '/latest/meta-data');
    for (const client of [strictViaDns, viaDns]) {
      const checked = await client.check(url, true);
      expect(checked).toBeInstanceOf(OutboundRefused);
      expect(checked?.reason).toBe(reason);
      expect(checked?.message).toContain(named);
      const refused = await refusal(client.request({ method: 'POST', url, body: '{}', allowPrivate: true }));
      expect([refused.reason, refused.message.includes(named)]).toEqual([reason, true]);
    }
    // 0.0.0.0 and :: connect to this host on Linux: the receivers would have seen a request.
    expect(receiver.connections).toBe(0);
  });

  it.each(['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]'])('refuses loopback http://%s even with allowPrivate; only the test switch opens it', async (host) => {
    const refused = await refusal(strictViaDns.request({ url: at(host, '/hook'), allowPrivate: true }));
    expect(refused.reason).toBe('loopback');
    expect(refused.message).toMatch(/loopback/);
    expect(await strictViaDns.check(at(host), true)).toBeInstanceOf(OutboundRefused);
    expect(receiver.connections).toBe(0);

    expect(await viaDns.check(at(host), false)).toBeNull();
    const res = await viaDns.request({ url: at(host, '/hook') });
    expect([res.status, res.body]).toEqual([200, 'ok']);
    expect(receiver.hits.map((h) => h.path)).toEqual(['/hook']);
  });

  it.each(['10.0.0.1', '10.200.3.4', '172.16.5.4', '172.31.255.255', '192.168.1.1', '100.64.0.1', '100.127.1.1', '[fd00::1]', '[fd12::1]', '[fc00::5]'])(
    'refuses the private address http://%s unless the organisation allows private callbacks', async (host) => {
      const url = `http://${host}/hook`;
      const refused = await strictViaDns.check(url, false);
      expect(refused?.reason).toBe('private');
      expect(refused?.message).toContain(host.replace(/^\[|\]$/g, ''));
      expect(refused?.message).toContain('allowPrivateCallbacks');
      expect((await refusal(strictViaDns.request({ url, allowPrivate: false }))).reason).toBe('private');
      expect(await strictViaDns.check(url, true)).toBeNull();
    },
  );

  it('refuses a name that resolves to a private address, naming the name and the address', async () => {
    const refused = await refusal(strictViaDns.request({ url: 'http://private.test/hook' }));
    expect(refused.reason).toBe('private');
    expect(refused.message).toContain('private.test resolves to 10.1.2.3');
    expect(refused.message).toContain('allowPrivateCallbacks');
    expect(await strictViaDns.check('http://private.test/hook', true)).toBeNull();
  });

  it('judges every address of a name: one public and one private answer is refused', async () => {
    const mixed = await strictViaDns.check('http://public-and-private.test/', false);
    expect([mixed?.reason, mixed?.message]).toEqual(['private', expect.stringContaining('public-and-private.test resolves to 10.0.0.7')]);
    const acrossFamilies = await strictViaDns.check('http://public-and-loopback6.test/', true);
    expect([acrossFamilies?.reason, acrossFamilies?.message]).toEqual(['loopback', expect.stringContaining('resolves to ::1')]);
    // The first answer leads to a receiver the test switch allows; the second one still refuses the request.
    const refused = await refusal(viaDns.request({ url: at('loopback-and-private.test') }));
    expect(refused.reason).toBe('private');
    expect(receiver.connections).toBe(0);
  });

  // A name that is not there now may be there in a minute (a new DNS record, a resolver back up):
  // the client reports it as unreachable, which a delivery retries; it never connects anywhere.
  it('reports a name that does not resolve (NXDOMAIN), or resolves to nothing, as unresolved: a failure, not a refusal', async () => {
    const unknown = await failure(viaDns.request({ url: at('nowhere.test'), allowPrivate: true }));
    expect([unknown.kind, unknown.address, unknown.message]).toEqual(['unresolved', '', 'nowhere.test does not resolve (ENOTFOUND)']);
    expect(dns.count('nowhere.test')).toBeGreaterThan(0);
    const empty = await failure(viaDns.request({ url: 'http://no-address.test/' }));
    expect([empty.kind, empty.message]).toEqual(['unresolved', expect.stringContaining('no-address.test does not resolve')]);
    await expect(viaDns.check('http://nowhere.test/', true)).rejects.toBeInstanceOf(OutboundFailed);
    expect(receiver.connections).toBe(0);
  });

  it('reports a DNS server that does not answer as unresolved too', async () => {
    const silent = await startDnsServer(async () => (await sleep(2000), []));
    try {
      const client = createOutboundClient({ resolve: resolveWith(silent, { timeoutMs: 100 }), testOnlyAllowLoopback: true, timeoutMs: 2000 });
      const failed = await failure(client.request({ url: 'http://ci-hooks.lan/hook' }));
      expect([failed.kind, failed.message]).toEqual(['unresolved', 'ci-hooks.lan could not be resolved just now (ETIMEOUT)']);
    } finally {
      await silent.close();
    }
  });

  it.each([['metadata.test', '169.254.169.254'], ['metadata6.test', 'fd00:ec2::254']])('refuses %s (a cloud metadata address) even with allowPrivate', async (name, address) => {
    const refused = await refusal(viaDns.request({ url: `http://${name}/latest/meta-data`, allowPrivate: true }));
    expect([refused.reason, refused.message]).toEqual(['metadata', expect.stringContaining(`${name} resolves to ${address}`)]);
  });

  // What a URL saved now (a callbackUrl, a ticket destination) can be told without DNS: the same
  // judgement as a request, on the address the WHATWG parser makes of every spelling.
  it.each<[string, string]>([
    ['http://127.0.0.1/hook', '127.0.0.1 is a loopback address'], ['http://2130706433/hook', '127.0.0.1 is a loopback address'],
    ['http://0x7f000001/', '127.0.0.1 is a loopback address'], ['http://127.1/', '127.0.0.1 is a loopback address'],
    ['http://0177.0.0.1/', '127.0.0.1 is a loopback address'], ['http://[::1]:8080/', '::1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is a loopback address'], ['https://[0:0:0:0:0:0:0:1]/', '::1 is a loopback address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a cloud metadata address'], ['http://169.254.169.254./', '169.254.169.254 is a cloud metadata address'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254 is a cloud metadata address'], ['http://[::ffff:a9fe:a9fe]/', '::ffff:a9fe:a9fe is a cloud metadata address'],
    ['http://169.254.10.1/', '169.254.10.1 is a link-local address'], ['http://[fe80::1]/', 'fe80::1 is a link-local address'],
    ['http://0.0.0.0:8080/', '0.0.0.0 is an unspecified address'], ['http://0/', '0.0.0.0 is an unspecified address'], ['http://[::]/', ':: is an unspecified address'],
    ['http://224.0.0.1/', '224.0.0.1 is a multicast address'], ['http://192.0.2.1/', '192.0.2.1 is a reserved address'],
    ['https://ci:token@hooks.acme.dev/', 'credentials in the URL are never sent'],
  ])('judges %s as never deliverable, with or without allowPrivate: %s', (url, what) => {
    for (const allowPrivate of [false, true]) expect(judgeUrlLiteral(url, { allowPrivate, allowLoopback: false })).toMatchObject({ verdict: 'refused', what });
    expect(strictViaDns.judgeLiteral(url, true)).toMatchObject({ verdict: 'refused', what });
  });

  it.each([
    ['http://10.1.2.3/hook', '10.1.2.3'], ['http://172.16.0.9/', '172.16.0.9'], ['http://192.168.1.1/', '192.168.1.1'], ['http://100.64.0.1/', '100.64.0.1'],
    ['http://167772161/', '10.0.0.1'], ['http://[fd12::1]/', 'fd12::1'], ['http://[::ffff:10.0.0.1]/', '::ffff:a00:1'],
  ])('judges the private literal %s as reachable only with allowPrivate', (url, address) => {
    expect(judgeUrlLiteral(url, { allowPrivate: false, allowLoopback: false })).toEqual({ verdict: 'private', address, what: expect.stringContaining(`${address} is a private address`) });
    expect(judgeUrlLiteral(url, { allowPrivate: true, allowLoopback: false })).toEqual({ verdict: 'ok' });
  });

  it('leaves names and public addresses to the request, and opens loopback only with the test switch', () => {
    for (const url of ['https://ci-hooks.lan/x', 'http://localhost:8080/', 'https://8.8.8.8/', 'https://[2606:4700::1111]/', 'not a url']) {
      expect([url, judgeUrlLiteral(url, { allowPrivate: false, allowLoopback: false })]).toEqual([url, { verdict: 'ok' }]);
    }
    expect(viaDns.judgeLiteral('http://127.0.0.1:9/hook', false)).toEqual({ verdict: 'ok' });
    expect(viaDns.judgeLiteral('http://[::1]:9/hook', false)).toEqual({ verdict: 'ok' });
    expect(viaDns.judgeLiteral('http://169.254.169.254/', true)).toMatchObject({ verdict: 'refused' });
    expect(strictViaDns.judgeLiteral('http://127.0.0.1:9/hook', true)).toMatchObject({ verdict: 'refused', address: '127.0.0.1' });
  });

  it('reaches a name that resolves to loopback only with the test switch, by IPv4 or IPv6', async () => {
    expect((await refusal(strictViaDns.request({ url: at('receiver.test'), allowPrivate: true }))).reason).toBe('loopback');
    expect(receiver.connections).toBe(0);
    const v4 = await viaDns.request({ url: at('receiver.test', '/four') });
    const v6 = await viaDns.request({ url: at('receiver6.test', '/six') });
    expect([v4.status, v4.address, v6.status, v6.address]).toEqual([200, '127.0.0.1', 200, '::1']);
    expect(receiver.hits.map((h) => [h.path, h.headers.host])).toEqual([['/four', `receiver.test:${receiver.port}`], ['/six', `receiver6.test:${receiver.port}`]]);
  });

  it('connects to the address it judged: a DNS answer that changes to the metadata address after the check is never used', async () => {
    const res = await viaDns.request({ url: at('rebind.test', '/first') });
    expect([res.status, res.address]).toEqual([200, '127.0.0.1']);
    expect(receiver.hits.map((h) => [h.path, h.headers.host])).toEqual([['/first', `rebind.test:${receiver.port}`]]);
    expect([dns.count('rebind.test', 'A'), dns.count('rebind.test', 'AAAA')]).toEqual([1, 1]);

    // The name now leads to the metadata address: the next request asks again, once, and is refused.
    const refused = await refusal(viaDns.request({ url: at('rebind.test', '/second') }));
    expect([refused.reason, refused.message]).toEqual(['metadata', expect.stringContaining('rebind.test resolves to 169.254.169.254')]);
    expect([dns.count('rebind.test', 'A'), dns.count('rebind.test', 'AAAA')]).toEqual([2, 2]);
    expect(receiver.hits).toHaveLength(1);
  });

  it('refuses when the first answer is refused, without asking again for a better one', async () => {
    const refused = await refusal(viaDns.request({ url: at('rebind-late.test'), allowPrivate: true }));
    expect(refused.reason).toBe('metadata');
    expect(dns.count('rebind-late.test', 'A')).toBe(1);
    expect(receiver.connections).toBe(0);
  });

  it('refuses localhost through the system resolver as loopback without the test switch', async () => {
    const system = createOutboundClient({ timeoutMs: 2000 });
    const refused = await refusal(system.request({ url: at('localhost'), allowPrivate: true }));
    expect(refused.reason).toBe('loopback');
    expect(refused.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
    expect((await system.check(at('localhost'), false))?.reason).toBe('loopback');
    expect(receiver.connections).toBe(0);
  });

  it.each([['/redirect-away', 'http://169.254.169.254/latest/meta-data'], ['/redirect-here', '/landed']])('follows no redirect (%s)', async (path, location) => {
    const res = await viaDns.request({ url: at('127.0.0.1', path) });
    expect(res.status).toBe(302);
    expect(res.headers.location).toContain(location);
    await sleep(100);
    expect(receiver.hits.map((h) => h.path)).toEqual([path]);
    expect(receiver.connections).toBe(1);
  });

  it('keeps at most maxResponseBytes of an answer and says it was cut', async () => {
    const capped = createOutboundClient({ testOnlyAllowLoopback: true, maxResponseBytes: 64 * 1024 });
    const res = await capped.request({ url: at('127.0.0.1', '/megabyte') });
    expect(res.status).toBe(200);
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.length).toBeLessThanOrEqual(64 * 1024);
    expect(res.body).toMatch(/^x+$/);
    const whole = await capped.request({ url: at('127.0.0.1', '/small') });
    expect([whole.body, whole.truncated]).toEqual(['ok', false]);
  });

  it('keeps at most 256 KiB of an answer by default, and the default deadline is 10 s', async () => {
    expect([OUTBOUND_TIMEOUT_MS, OUTBOUND_MAX_RESPONSE_BYTES]).toEqual([10_000, 256 * 1024]);
    const res = await createOutboundClient({ testOnlyAllowLoopback: true }).request({ url: at('127.0.0.1', '/megabyte') });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBeLessThanOrEqual(256 * 1024);
  });

  it.each(['/silent', '/trickle'])('gives up on a receiver that does not finish answering (%s) with a timeout', async (path) => {
    const client = createOutboundClient({ testOnlyAllowLoopback: true, timeoutMs: 300 });
    const started = performance.now();
    const failed = await failure(client.request({ url: at('127.0.0.1', path) }));
    expect([failed.kind, failed.address]).toEqual(['timeout', '127.0.0.1']);
    expect(failed.message).toContain(`127.0.0.1:${receiver.port}`);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(receiver.hits).toHaveLength(1);
  });

  it('gives one request its own deadline when it asks for one (the AI budget), leaving the client\'s default alone', async () => {
    const client = createOutboundClient({ testOnlyAllowLoopback: true });
    const started = performance.now();
    const failed = await failure(client.request({ url: at('127.0.0.1', '/silent'), timeoutMs: 300 }));
    expect(failed.kind).toBe('timeout');
    expect(failed.message).toMatch(/within 0\.3 s/);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('takes an answer cut off before its promised length as a failure, not as a short body', async () => {
    const failed = await failure(createOutboundClient({ testOnlyAllowLoopback: true }).request({ url: at('127.0.0.1', '/cut-off') }));
    expect([failed.kind, failed.address]).toEqual(['unreachable', '127.0.0.1']);
    expect(failed.message).toMatch(/closed the connection before the answer was complete/);
  });

  // The deadline covers name resolution: a slow DNS server cannot hold a request past it.
  it('gives up within the timeout when the DNS answer is slow', async () => {
    const client = createOutboundClient({ resolve: resolveWith(dns), testOnlyAllowLoopback: true, timeoutMs: 300 });
    const failed = await failure(client.request({ url: at('slow.test') }));
    expect(failed.kind).toBe('timeout');
  });

  it('reports a closed port as unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const failed = await failure(createOutboundClient({ testOnlyAllowLoopback: true }).request({ url: `http://127.0.0.1:${port}/` }));
    expect([failed.kind, failed.address, failed.message]).toEqual(['unreachable', '127.0.0.1', expect.stringContaining('ECONNREFUSED')]);
  });

  it.each(['file:///etc/passwd', 'ftp://127.0.0.1/', 'gopher://127.0.0.1:70/', 'javascript:alert(1)', 'not a url', 'http://user:secret@127.0.0.1/', 'https://token@example.com/'])(
    'refuses %s as a URL it does not send to', async (url) => {
      const sent = url.replace('127.0.0.1/', `127.0.0.1:${receiver.port}/`);
      const refused = await refusal(viaDns.request({ url: sent, allowPrivate: true }));
      expect(refused.reason).toBe('url');
      expect((await viaDns.check(sent, true))?.reason).toBe('url');
      expect(receiver.connections).toBe(0);
    },
  );

  it('delivers method, headers and body bytes as sent', async () => {
    const client = createOutboundClient({ testOnlyAllowLoopback: true, userAgent: 'changeledger-test/9' });
    const body = '{"text":"héllo ✓ 🚀","n":1}';
    const res = await client.request({ method: 'PATCH', url: at('127.0.0.1', '/hook?x=1'), headers: { 'content-type': 'application/json; charset=utf-8', 'x-signature': 'sha256=abc' }, body });
    expect([res.status, res.body, res.headers['x-receiver'], res.address]).toEqual([200, 'ok', 'yes', '127.0.0.1']);
    const [hit] = receiver.hits;
    expect(hit?.method).toBe('PATCH');
    expect(hit?.path).toBe('/hook?x=1');
    expect(hit?.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'x-signature': 'sha256=abc', 'user-agent': 'changeledger-test/9', 'content-length': String(Buffer.byteLength(body)) });
    expect(hit?.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
  });

  it.each(['GET', 'POST', 'PUT', 'DELETE'] as const)('sends %s as asked', async (method) => {
    await viaDns.request({ method, url: at('127.0.0.1') });
    expect(receiver.hits.map((h) => h.method)).toEqual([method]);
  });

  it('posts JSON with postJson, and refuses it like any other request', async () => {
    const res = await postJson(viaDns, at('127.0.0.1', '/chat'), { text: 'deployed ✓' }, false);
    expect(res.status).toBe(200);
    const [hit] = receiver.hits;
    expect([hit?.method, hit?.headers['content-type'], hit?.headers['user-agent'], hit?.body.toString('utf8')])
      .toEqual(['POST', 'application/json', 'changeledger/1', '{"text":"deployed ✓"}']);
    expect((await refusal(postJson(strictViaDns, at('127.0.0.1', '/chat'), {}, true))).reason).toBe('loopback');
    expect(receiver.hits).toHaveLength(1);
  });
});
