import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient, OUTBOUND_MAX_RESPONSE_BYTES } from '../../platform/net/outbound.js';
import { createPrometheusClient, type PrometheusTarget } from './prometheus-client.js';

// Prometheus' documented HTTP API envelope (https://prometheus.io/docs/prometheus/latest/querying/api/):
// {status: "success", data: {resultType, result}} or {status: "error", errorType, error}. These cases
// are the ones Debian's Prometheus cannot be made to answer on demand (a huge answer, an auth proxy).

type Seen = { method: string; url: string; auth: string | undefined; body: string };

describe('the Prometheus client', () => {
  let server: Server;
  let url = '';
  const seen: Seen[] = [];
  let answer: (req: IncomingMessage) => [number, string] = () => [200, '{}'];
  const client = createPrometheusClient(createOutboundClient({ testOnlyAllowLoopback: true }));
  const target = (auth: PrometheusTarget['auth'] = { kind: 'none' }): PrometheusTarget => ({ url: `${url}/prom/`, auth, allowPrivate: false });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, body: Buffer.concat(chunks).toString() });
        const [status, body] = answer(req);
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('posts the query as a form under the URL\'s path, with the bearer token, and reads NaN as null', async () => {
    answer = () => [200, JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [
      { metric: { job: 'a' }, value: [1700000000, '0.25'] }, { metric: { job: 'b' }, value: [1700000000, 'NaN'] }, { metric: { job: 'c' }, value: [1700000000, '+Inf'] },
    ] } })];
    const a = await client.query(target({ kind: 'bearer', token: 'tok' }), 'sum by (job) (x)', new Date(1_700_000_000_000));
    expect(a).toEqual({ ok: true, value: [{ metric: { job: 'a' }, value: 0.25 }, { metric: { job: 'b' }, value: null }, { metric: { job: 'c' }, value: null }] });
    const s = seen.at(-1)!;
    expect(s).toMatchObject({ method: 'POST', url: '/prom/api/v1/query', auth: 'Bearer tok' });
    expect(Object.fromEntries(new URLSearchParams(s.body))).toEqual({ query: 'sum by (job) (x)', time: '1700000000' });
  });

  it('reads a range answer larger than the outbound client\'s default 256 KiB cap', async () => {
    const result = Array.from({ length: 400 }, (_, i) => ({ metric: { job: `svc-${i}` }, values: Array.from({ length: 61 }, (_, k) => [1700000000 + k * 30, String(k / 7)]) }));
    const body = JSON.stringify({ status: 'success', data: { resultType: 'matrix', result } });
    expect(body.length).toBeGreaterThan(OUTBOUND_MAX_RESPONSE_BYTES);
    answer = () => [200, body];
    const a = await client.queryRange(target({ kind: 'basic', user: 'u', password: 'p' }), 'x', new Date(0), new Date(1800_000), 30);
    expect(a.ok && a.value.length).toBe(400);
    expect(a.ok && a.value[399]!.values[60]).toEqual([1700001800, 60 / 7]);
    expect(seen.at(-1)!.auth).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
  });

  it('words Prometheus\' own error, a refusal of the credentials, and an answer that is not its API', async () => {
    answer = () => [400, JSON.stringify({ status: 'error', errorType: 'bad_data', error: '1:5: parse error: unexpected end of input' })];
    expect(await client.query(target(), 'sum(', new Date())).toEqual({ ok: false, reason: 'Prometheus answered 400: bad_data: 1:5: parse error: unexpected end of input' });
    answer = () => [401, 'Unauthorized'];
    expect(await client.buildInfo(target())).toEqual({ ok: false, reason: 'Prometheus answered 401: check the credentials' });
    answer = () => [200, JSON.stringify({ status: 'success', data: { resultType: 'scalar', result: [0, '1'] } })];
    expect(await client.query(target(), '1', new Date())).toEqual({ ok: false, reason: 'the query answered a scalar, not an instant vector' });
    answer = () => [200, JSON.stringify({ status: 'success', data: { version: '2.42.0', revision: 'abc', branch: 'debian/sid' } })];
    expect(await client.buildInfo(target())).toEqual({ ok: true, value: { version: '2.42.0', revision: 'abc' } });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/prom/api/v1/status/buildinfo' });
  });
});
