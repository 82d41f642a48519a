import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, OutboundRefused, postJson } from './outbound.js';

describe('the outbound client', () => {
  let server: Server;
  let url = '';
  const received: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(body);
        if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
        else if (req.url === '/big') res.end('x'.repeat(200_000));
        else res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it.each([
    ['127.0.0.1', true], ['10.1.2.3', true], ['172.20.0.1', true], ['192.168.1.1', true], ['169.254.169.254', true], ['100.64.0.1', true],
    ['::1', true], ['fd00::1', true], ['fe80::1', true], ['::ffff:127.0.0.1', true], ['8.8.8.8', false], ['2606:4700::1111', false],
  ])('judges %s private: %s', (addr, priv) => {
    expect(isPrivateAddress(addr)).toBe(priv);
  });

  it('refuses loopback and names that resolve to it unless the operator allows private addresses', async () => {
    await expect(postJson(`${url}/hook`, { text: 'x' }, { allowPrivate: false })).rejects.toBeInstanceOf(OutboundRefused);
    await expect(postJson(url.replace('127.0.0.1', 'localhost'), { text: 'x' }, { allowPrivate: false })).rejects.toThrow(/private or local address/);
    await expect(postJson('file:///etc/passwd', {}, { allowPrivate: true })).rejects.toThrow(/only http and https/);
    const ok = await postJson(`${url}/hook`, { text: 'hello' }, { allowPrivate: true });
    expect(ok).toEqual({ status: 200, body: 'ok' });
    expect(received).toContain('{"text":"hello"}');
  });

  it('follows no redirect and reads at most 64 KiB of an answer', async () => {
    expect((await postJson(`${url}/redirect`, {}, { allowPrivate: true })).status).toBe(302);
    const big = await postJson(`${url}/big`, {}, { allowPrivate: true });
    expect(big.body.length).toBeLessThanOrEqual(64 * 1024);
  });
});
