import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { createOutboundClient } from '../../platform/net/outbound.js';
import { freePort } from '../../../test/support/postgres-cluster.js';
import { missingPeers, PEER_TEST_TIMEOUT_MS } from '../../../test/support/peer-process.js';
import { ERRORS, HEALTHY, SLOW, startPrometheusHistory, type PrometheusHistory } from '../../../test/support/prometheus-history.js';
import type { EvidenceWindow, MetricsPart, ServiceRef } from './evidence-types.js';
import type { PrometheusSource } from './evidence-sources-store.js';
import { collectMetrics } from './prometheus-evidence.js';
import { RED_PRESETS } from './red-templates.js';

// Debian's Prometheus with a backfilled past (promtool): the figures collectMetrics reads must be
// the ones the history was written with, for every service at once, in 18 queries.

const skip = missingPeers('prometheus-evidence', ['prometheus']).length > 0;
const outbound = createOutboundClient({ testOnlyAllowLoopback: true });
const MIN = 60_000;

function windowOf(start: Date, minutes: number): EvidenceWindow {
  const s = start.getTime();
  const end = s + minutes * MIN;
  const iso = (t: number) => new Date(t).toISOString();
  return {
    start: iso(s), finish: iso(end - 5 * MIN), end: iso(end), evidenceMinutes: 5,
    hourBefore: { start: iso(s - 60 * MIN), end: iso(s) },
    weekEarlier: { start: iso(s - 7 * 24 * 60 * MIN), end: iso(end - 7 * 24 * 60 * MIN) },
  };
}

const SERVICES: ServiceRef[] = [
  { key: 'svc:checkout', name: 'checkout', role: 'component' },
  { key: 'svc:payments', name: 'Payments', role: 'neighbour' },
  { key: 'svc:cart', name: 'cart', role: 'neighbour' },
  { key: 'svc:ghost', name: 'ghost', role: 'neighbour' },
];

const measured = (p: MetricsPart) => {
  if (p.status !== 'measured') throw new Error(`not measured: ${p.reason}`);
  return p.value;
};

describe.each(['otel', 'classic'] as const)('collectMetrics from Debian\'s Prometheus with a backfilled history (%s templates)', (shape) => {
  let h: PrometheusHistory;
  // The window ended five minutes ago: all of it is backfilled, so every figure is exact.
  const start = new Date(Math.floor((Date.now() - 25 * MIN) / MIN) * MIN);
  const w = windowOf(start, 20);
  let source: PrometheusSource;

  beforeAll(async () => {
    if (skip) return;
    h = await startPrometheusHistory({
      shape, windowStart: start, windowMinutes: 20,
      services: {
        checkout: { weekEarlier: SLOW, hourBefore: HEALTHY, window: ERRORS },
        payments: { weekEarlier: HEALTHY, hourBefore: HEALTHY, window: HEALTHY },
        // OpenTelemetry's job is <service.namespace>/<service.name>; the catalogue's name is the last part.
        'shop/cart': { weekEarlier: { rate: 4, errorRatio: 0, p95: 0.08 }, hourBefore: { rate: 2, errorRatio: 0.05, p95: 0.3 }, window: SLOW },
        // Someone else's service: in Prometheus, not in the blast radius.
        other: { weekEarlier: HEALTHY, hourBefore: HEALTHY },
      },
    });
    source = { id: 'evs_1', name: 'Main Prometheus', kind: 'prometheus', url: h.url, auth: { kind: 'none' }, allowPrivate: false };
  }, PEER_TEST_TIMEOUT_MS);
  afterAll(async () => h?.stop(), PEER_TEST_TIMEOUT_MS);

  it.skipIf(skip)('reads each service\'s rate, error ratio and p95 in the window, the hour before and the week earlier as backfilled, in 18 queries', async () => {
    const v = measured(await collectMetrics({ outbound }, source, SERVICES, w, RED_PRESETS[shape]));
    expect(v.templates).toBe(shape);
    expect(v.queries).toBe(18);
    const [checkout, payments, cart] = v.services;
    expect(checkout!.rate.window).toBeCloseTo(10, 6);
    expect(checkout!.errorRatio.window).toBeCloseTo(0.25, 6);
    expect(checkout!.errorRatio.hourBefore).toBeCloseTo(0.01, 6);
    expect(checkout!.errorRatio.weekEarlier).toBeCloseTo(0.01, 6);
    expect(checkout!.p95.weekEarlier).toBeCloseTo(1.5, 6);
    expect(checkout!.p95.hourBefore).toBeCloseTo(0.2, 6);
    // "Payments" in the catalogue is `job="payments"` in Prometheus: names match case-insensitively.
    expect(payments!.rate).toEqual({ window: expect.closeTo(10, 6), hourBefore: expect.closeTo(10, 6), weekEarlier: expect.closeTo(10, 6) });
    expect(cart!.rate.hourBefore).toBeCloseTo(2, 6);
    expect(cart!.rate.weekEarlier).toBeCloseTo(4, 6);
    // A service that answered no 5xx at all has an error ratio of 0, not "not measured".
    expect(cart!.errorRatio.weekEarlier).toBe(0);
    expect(cart!.p95.window).toBeCloseTo(1.5, 6);
    expect(cart!.p95.weekEarlier).toBeCloseTo(0.08, 6);
  }, PEER_TEST_TIMEOUT_MS);

  it.skipIf(skip)('answers null ("—"), never 0, for a service no series names, and leaves out services outside the blast radius', async () => {
    const v = measured(await collectMetrics({ outbound }, source, SERVICES, w, RED_PRESETS[shape]));
    expect(v.services.map((s) => s.name)).toEqual(['checkout', 'Payments', 'cart', 'ghost']);
    const ghost = v.services[3]!;
    for (const sig of ['rate', 'errorRatio', 'p95'] as const) expect(ghost[sig]).toEqual({ window: null, hourBefore: null, weekEarlier: null });
    expect(ghost.series!.rate.window.values.every((x) => x === null)).toBe(true);
  }, PEER_TEST_TIMEOUT_MS);

  it.skipIf(skip)('draws each service\'s sparklines: the window and the week earlier on the window\'s steps, the hour before on its own', async () => {
    const v = measured(await collectMetrics({ outbound }, source, SERVICES, w, RED_PRESETS[shape]));
    const s = v.services[0]!.series!;
    expect(s.errorRatio.window.start).toBe(w.start);
    expect(s.errorRatio.weekEarlier.start).toBe(w.start);
    expect(s.errorRatio.hourBefore.start).toBe(w.hourBefore.start);
    expect(s.errorRatio.window.stepSeconds).toBe(20);
    expect(s.errorRatio.window.values).toHaveLength(61);
    // Past the first two minutes (the sparkline's rate looks two minutes back), the window reads 25 % errors throughout.
    const inside = s.errorRatio.window.values.slice(7);
    expect(inside.every((x) => x !== null && Math.abs(x - 0.25) < 1e-6)).toBe(true);
    expect(s.p95.weekEarlier.values.slice(7).every((x) => x !== null && Math.abs(x - 1.5) < 1e-6)).toBe(true);
    expect(s.rate.hourBefore.values.slice(7).every((x) => x !== null && Math.abs(x - 10) < 1e-6)).toBe(true);
  }, PEER_TEST_TIMEOUT_MS);

  it.skipIf(skip)('follows a per-service override of the label value (catalogue attrs.prometheus.label)', async () => {
    const services: ServiceRef[] = [{ key: 'svc:billing', name: 'billing', role: 'component' }];
    const v = measured(await collectMetrics({ outbound }, source, services, w, { ...RED_PRESETS[shape], perService: { 'svc:billing': { label: 'payments' } } }));
    expect(v.services[0]!.rate.window).toBeCloseTo(10, 6);
  }, PEER_TEST_TIMEOUT_MS);

  it.skipIf(skip)('runs a service\'s own queries (catalogue attrs.prometheus) beside the shared 18', async () => {
    const count = shape === 'otel' ? 'http_server_request_duration_seconds_count' : 'http_requests_total';
    const own = {
      rate: `sum(rate(${count}{job="other"}[$range] $offset)) * 2`,
      errorRatio: `sum(rate(${count}{job="other"}[$range] $offset)) * 0`,
      p95: `sum(rate(${count}{job="other"}[$range] $offset)) / 100`,
    };
    const v = measured(await collectMetrics({ outbound }, source, SERVICES.slice(0, 1).concat({ key: 'svc:legacy', name: 'legacy', role: 'neighbour' }), w,
      { ...RED_PRESETS[shape], perService: { 'svc:legacy': { queries: own } } }));
    expect(v.templates).toBe('custom');
    expect(v.queries).toBe(36);
    expect(v.services[1]!.rate.hourBefore).toBeCloseTo(20, 6);
    expect(v.services[1]!.p95.weekEarlier).toBeCloseTo(0.1, 6);
    expect(v.services[0]!.rate.window).toBeCloseTo(10, 6);
  }, PEER_TEST_TIMEOUT_MS);

  it.skipIf(skip)('says which query Prometheus refused, as the reason the part was not measured', async () => {
    const bad = { ...RED_PRESETS[shape], name: 'custom' as const, queries: { ...RED_PRESETS[shape].queries, p95: 'sum by ($by) (rate(x[$range] $offset)' } };
    const p = await collectMetrics({ outbound }, source, SERVICES, w, bad);
    expect(p).toMatchObject({ status: 'not_measured', source: { id: 'evs_1', kind: 'prometheus', name: 'Main Prometheus' } });
    expect(p.status === 'not_measured' && p.reason).toMatch(/^p95 latency, the window: Prometheus answered 400: bad_data: .*parse error/);
  }, PEER_TEST_TIMEOUT_MS);
});

describe('collectMetrics when Prometheus cannot answer', () => {
  const w = windowOf(new Date(Date.now() - 30 * MIN), 20);
  const src = (url: string): PrometheusSource => ({ id: 'evs_2', name: 'Gone', kind: 'prometheus', url, auth: { kind: 'none' }, allowPrivate: false });

  it('makes the part "not measured (connection refused)" for a Prometheus nobody listens on, never an error', async () => {
    const port = await freePort();
    const p = await collectMetrics({ outbound }, src(`http://127.0.0.1:${port}`), SERVICES, w, RED_PRESETS.otel);
    expect(p).toEqual({ source: { id: 'evs_2', kind: 'prometheus', name: 'Gone' }, status: 'not_measured', reason: 'request rate, the window: connection refused' });
  });

  it('refuses an address the outbound guard never allows (cloud metadata), with the guard\'s words', async () => {
    const p = await collectMetrics({ outbound }, src('http://169.254.169.254'), SERVICES, w, RED_PRESETS.otel);
    expect(p.status).toBe('not_measured');
    expect(p.status === 'not_measured' && p.reason).toMatch(/metadata/);
  });

  it('says so when the URL answers something that is not Prometheus\' API', async () => {
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Grafana</html>'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const p = await collectMetrics({ outbound }, src(`http://127.0.0.1:${(server.address() as { port: number }).port}`), SERVICES, w, RED_PRESETS.otel);
      expect(p).toMatchObject({ status: 'not_measured', reason: 'request rate, the window: the answer is not Prometheus\' API JSON: is this the Prometheus URL?' });
    } finally {
      server.close();
    }
  });
});
