import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startElasticsearchReplay, type ElasticsearchReplay } from '../../../test/support/elasticsearch-replay.js';
import { describeEachEngine } from '../../../test/support/engines.js';
import { startLokiReplay, type LokiReplay } from '../../../test/support/loki-replay.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { createOutboundClient } from '../../platform/net/outbound.js';
import { evidenceWindow } from './evidence-window.js';
import type { LogsPart, ServiceRef } from './evidence-types.js';
import { collectLogs, combine, MAX_FINGERPRINTS, NO_RECORDS, type SpanLogs } from './log-evidence.js';
import { maskMessage } from './log-fingerprint.js';
import { checkLogSourceConfig, type ElasticsearchConfig, type LogSource, type LokiConfig } from './log-source-config.js';
import { insertLogRecords, type LogRecordRow } from './log-store.js';

const outbound = createOutboundClient({ testOnlyAllowLoopback: true, timeoutMs: 2_000 });
const services: ServiceRef[] = [
  { key: 'svc:checkout', name: 'Checkout', role: 'component' },
  { key: 'svc:payments', name: 'payments', role: 'neighbour' },
];
// Started 10:00, finished 10:30, a 30-minute horizon: the window is 10:00 → 11:00.
const window = evidenceWindow({ startedAt: '2026-11-20T10:00:00.000Z', windowStart: '2026-11-20T10:00:00.000Z', finishedAt: '2026-11-20T10:30:00.000Z', windowEnd: '2026-11-20T10:30:00.000Z', evidenceMinutes: 30 });
const inWindow = (min: number) => new Date(Date.parse('2026-11-20T10:00:00.000Z') + min * 60_000).toISOString();
const inHourBefore = (min: number) => new Date(Date.parse('2026-11-20T09:00:00.000Z') + min * 60_000).toISOString();
const inWeekEarlier = (min: number) => new Date(Date.parse('2026-11-13T10:00:00.000Z') + min * 60_000).toISOString();
const measured = (p: LogsPart) => {
  if (p.status !== 'measured') throw new Error(`not measured: ${p.reason}`);
  return p.value;
};

describe('combine: the logs part from three spans', () => {
  const span = (volume: number, errors: number, fps: Record<string, number>, complete = true): SpanLogs => ({
    volume, errors, complete, fingerprints: new Map(Object.entries(fps).map(([t, count]) => [t, { count, services: ['checkout'], sample: `${t} password=hunter2` }])),
  });
  const ok = (logs: SpanLogs) => ({ ok: true as const, logs });
  const down = { ok: false as const, reason: 'connection refused' };
  const src = { id: 'src_1', kind: 'loki' as const, name: 'Loki' };

  it.each([
    { name: 'new: both baselines measured, neither has it', hb: ok(span(10, 0, {})), we: ok(span(10, 0, {})), counts: { window: 3, hourBefore: 0, weekEarlier: 0 }, isNew: true },
    { name: 'not new: the hour before has it', hb: ok(span(10, 1, { 'timeout after <n> ms': 1 })), we: ok(span(10, 0, {})), counts: { window: 3, hourBefore: 1, weekEarlier: 0 }, isNew: false },
    { name: 'not new: the week earlier was not measured ("—")', hb: ok(span(10, 0, {})), we: down, counts: { window: 3, hourBefore: 0, weekEarlier: null }, isNew: false },
    { name: 'not new: a capped baseline sample that does not show it may still hold it', hb: ok(span(10, 2000, { other: 1000 }, false)), we: ok(span(10, 0, {})), counts: { window: 3, hourBefore: null, weekEarlier: 0 }, isNew: false },
  ])('$name', ({ hb, we, counts, isNew }) => {
    const v = measured(combine(src, ok(span(50, 3, { 'timeout after <n> ms': 3 })), hb, we));
    expect(v.fingerprints).toEqual([{ template: 'timeout after <n> ms', counts, isNew, sample: 'timeout after <n> ms password=[redacted]', services: ['checkout'] }]);
  });

  it('gives volume and errors of each span, null where a baseline was not measured', () => {
    const v = measured(combine(src, ok(span(50, 3, {})), down, ok(span(40, 1, {}))));
    expect(v.volume).toEqual({ window: 50, hourBefore: null, weekEarlier: 40 });
    expect(v.errors).toEqual({ window: 3, hourBefore: null, weekEarlier: 1 });
  });

  it('is "not measured (reason)" when no span holds a single record of the services: a source without their logs, not a quiet change', () => {
    expect(combine(src, ok(span(0, 0, {})), ok(span(0, 0, {})), down)).toEqual({ source: src, status: 'not_measured', reason: NO_RECORDS });
    expect(measured(combine(src, ok(span(0, 0, {})), ok(span(12, 0, {})), down)).volume).toEqual({ window: 0, hourBefore: 12, weekEarlier: null });
  });

  it('is "not measured (reason)" when the window could not be read', () => {
    expect(combine(src, down, down, down)).toEqual({ source: src, status: 'not_measured', reason: 'connection refused' });
  });

  it(`keeps the ${MAX_FINGERPRINTS} most frequent templates of the window, most frequent first`, () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`error ${String.fromCharCode(65 + i)}`, i + 1]));
    const v = measured(combine(src, ok(span(500, 465, many)), ok(span(0, 0, {})), ok(span(0, 0, {}))));
    expect(v.fingerprints).toHaveLength(MAX_FINGERPRINTS);
    expect(v.fingerprints[0]!.counts.window).toBe(30);
    expect(v.fingerprints.at(-1)!.counts.window).toBe(11);
  });
});

describeEachEngine('collectLogs from our own OTLP log records', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  const source: LogSource = { id: 'src_otlp', name: 'OTLP intake', kind: 'otlp' };
  const row = (service: string, at: string, body: string, severity: number | null, severityText: string | null = null): LogRecordRow => ({
    service, at, body, severityNumber: severity, severityText, fingerprint: maskMessage(body), attributes: {}, traceId: null,
  });

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Logs evidence');
    other = await signedInOwner(t, 'Someone else');
    const now = new Date().toISOString();
    await insertLogRecords(engine.db(), owner.org.id, [
      // The window: two templates, one of them new; Checkout logs by name, payments by its key; a warning and an info.
      row('checkout', inWindow(5), 'payment 1 declined: card 4242 expired', 17),
      row('CHECKOUT', inWindow(6), 'payment 2 declined: card 1111 expired', 18),
      row('payments', inWindow(7), 'ledger write failed after 250 ms token=abc123secret', 21),
      row('payments', inWindow(8), 'ledger write failed after 300 ms token=def456secret', null, 'ERROR'),
      row('checkout', inWindow(9), 'cart 7 served', 9),
      row('checkout', inWindow(10), 'slow cart 8', 13),
      // Not the blast radius, and the window's edge (11:00 is out).
      row('search', inWindow(5), 'index 3 corrupt', 17),
      row('checkout', inWindow(60), 'payment 3 declined: card 9 expired', 17),
      // The hour before: the declined template already there; the week earlier: only info.
      row('checkout', inHourBefore(30), 'payment 9 declined: card 5 expired', 17),
      row('checkout', inHourBefore(31), 'cart 1 served', 9),
      row('checkout', inWeekEarlier(10), 'cart 2 served', 9),
    ], now);
    await insertLogRecords(engine.db(), other.org.id, [row('checkout', inWindow(5), 'ledger write failed after 1 ms', 17)], now);
  });
  afterAll(async () => t.close());

  it('counts records and error records of the blast radius per span, by name or key and any case, and flags the template no baseline has', async () => {
    const v = measured(await collectLogs({ db: engine.db(), outbound }, source, owner.org.id, services, window));
    expect(v.volume).toEqual({ window: 6, hourBefore: 2, weekEarlier: 1 });
    expect(v.errors).toEqual({ window: 4, hourBefore: 1, weekEarlier: 0 });
    expect(v.fingerprints).toEqual([
      { template: 'ledger write failed after <n> ms token=[redacted]', counts: { window: 2, hourBefore: 0, weekEarlier: 0 }, isNew: true, sample: 'ledger write failed after 300 ms token=[redacted]', services: ['payments'] },
      { template: 'payment <n> declined: card <n> expired', counts: { window: 2, hourBefore: 1, weekEarlier: 0 }, isNew: false, sample: 'payment 2 declined: card 1111 expired', services: ['CHECKOUT', 'checkout'] },
    ]);
  });

  it('is not measured without a service to read, and reads nothing of another organisation', async () => {
    expect(await collectLogs({ db: engine.db(), outbound }, source, owner.org.id, [], window)).toMatchObject({ status: 'not_measured', reason: 'the change has no service to read logs of' });
    const v = measured(await collectLogs({ db: engine.db(), outbound }, source, other.org.id, services, window));
    expect(v.errors.window).toBe(1);
  });
});

describe('collectLogs from Loki (a loopback replay of its documented API)', () => {
  let loki: LokiReplay;
  const source = (url: string, config: Partial<LokiConfig> = {}): LogSource => ({
    id: 'src_loki', name: 'Loki EU', kind: 'loki', url, auth: { kind: 'bearer', token: 'loki-token' }, allowPrivate: false,
    config: checkLogSourceConfig('loki', config) as LokiConfig,
  });
  beforeAll(async () => {
    loki = await startLokiReplay();
    loki.push(
      { at: inWindow(5), labels: { service_name: 'checkout', env: 'prod' }, level: 'error', line: 'upstream 10.0.0.7:8443 reset after 31 ms' },
      { at: inWindow(6), labels: { service_name: 'Checkout', env: 'prod' }, level: 'error', line: 'upstream 10.0.0.9:8443 reset after 12 ms' },
      { at: inWindow(7), labels: { service_name: 'payments', env: 'prod' }, level: 'info', line: 'ok' },
      { at: inWindow(8), labels: { service_name: 'payments', env: 'staging' }, level: 'error', line: 'staging noise 1' },
      { at: inWeekEarlier(8), labels: { service_name: 'payments', env: 'prod' }, level: 'info', line: 'ok' },
      { at: inHourBefore(8), labels: { service_name: 'payments', env: 'prod' }, level: 'info', line: 'ok' },
    );
  });
  afterAll(async () => loki.close());

  it('sends count_over_time over each span and the error lines, with the source\'s selector and token, and masks the lines into templates', async () => {
    loki.requests.length = 0;
    const v = measured(await collectLogs({ db: null as never, outbound }, source(loki.url, { selector: 'env="prod"' }), 'org', services, window));
    expect(v.volume).toEqual({ window: 3, hourBefore: 1, weekEarlier: 1 });
    expect(v.errors).toEqual({ window: 2, hourBefore: 0, weekEarlier: 0 });
    expect(v.fingerprints).toEqual([{ template: 'upstream <ip> reset after <n> ms', counts: { window: 2, hourBefore: 0, weekEarlier: 0 }, isNew: true, sample: 'upstream 10.0.0.9:8443 reset after 12 ms', services: ['Checkout', 'checkout'] }]);
    const selector = '{service_name=~"(?i)(checkout|payments)", env="prod"}';
    const queries = loki.requests.map((r) => [r.path, r.params.query]);
    expect(queries).toContainEqual(['/loki/api/v1/query', `sum(count_over_time(${selector} [3600s]))`]);
    expect(queries).toContainEqual(['/loki/api/v1/query', `sum(count_over_time(${selector} | detected_level=~"error|fatal|critical" [3600s]))`]);
    expect(queries).toContainEqual(['/loki/api/v1/query_range', `${selector} | detected_level=~"error|fatal|critical"`]);
    const windowInstant = loki.requests.find((r) => r.path === '/loki/api/v1/query')!;
    expect(windowInstant.params.time).toBe(String(Date.parse(window.end) / 1000));
    expect(loki.requests.filter((r) => r.path === '/loki/api/v1/query_range').map((r) => r.params.limit)).toEqual(['1000', '1000', '1000']);
    expect(new Set(loki.requests.map((r) => r.authorization))).toEqual(new Set(['Bearer loki-token']));
  });

  it('is "not measured (reason)" with Loki\'s own words when it answers an error, and when nothing listens', async () => {
    loki.fail(500, 'too many outstanding requests');
    expect(await collectLogs({ db: null as never, outbound }, source(loki.url), 'org', services, window)).toEqual({
      source: { id: 'src_loki', kind: 'loki', name: 'Loki EU' }, status: 'not_measured', reason: 'Loki answered 500: too many outstanding requests',
    });
    loki.fail(null);
    const closed = await startLokiReplay();
    const url = closed.url;
    await closed.close();
    expect(await collectLogs({ db: null as never, outbound }, source(url), 'org', services, window)).toMatchObject({ status: 'not_measured', reason: 'connection refused' });
  });
});

describe('collectLogs from Elasticsearch / OpenSearch (a loopback replay of their documented API)', () => {
  let es: ElasticsearchReplay;
  const source = (url: string, config: Partial<ElasticsearchConfig> = {}): LogSource => ({
    id: 'src_es', name: 'Elastic', kind: 'elasticsearch', url, auth: { kind: 'basic', user: 'reader', password: 's3cret' }, allowPrivate: false,
    config: checkLogSourceConfig('elasticsearch', config) as ElasticsearchConfig,
  });
  beforeAll(async () => {
    es = await startElasticsearchReplay();
    es.index('logs-app-default',
      { '@timestamp': inWindow(1), service: { name: 'checkout' }, log: { level: 'ERROR' }, message: 'user 3f1e2a4b-1c2d-4e5f-8a9b-0c1d2e3f4a5b not found' },
      { '@timestamp': inWindow(2), service: { name: 'payments' }, log: { level: 'error' }, message: 'user 9a1e2a4b-1c2d-4e5f-8a9b-0c1d2e3f4a5b not found' },
      { '@timestamp': inWindow(3), service: { name: 'payments' }, log: { level: 'info' }, message: 'fine' },
      { '@timestamp': inWindow(4), service: { name: 'search' }, log: { level: 'error' }, message: 'not ours' },
      { '@timestamp': inHourBefore(4), service: { name: 'checkout' }, log: { level: 'error' }, message: 'user 11111111-1c2d-4e5f-8a9b-0c1d2e3f4a5b not found' },
      { '@timestamp': inWeekEarlier(4), 'service.name': 'Checkout', 'log.level': 'info', message: 'fine' },
    );
    es.index('metrics-other', { '@timestamp': inWindow(1), service: { name: 'checkout' }, log: { level: 'error' }, message: 'not a log index' });
  });
  afterAll(async () => es.close());

  it('counts with _count, reads error records with _search (total tracked, newest first, two fields), over the ECS fields and the index pattern', async () => {
    es.requests.length = 0;
    const v = measured(await collectLogs({ db: null as never, outbound }, source(es.url), 'org', services, window));
    expect(v.volume).toEqual({ window: 3, hourBefore: 1, weekEarlier: 1 });
    expect(v.errors).toEqual({ window: 2, hourBefore: 1, weekEarlier: 0 });
    expect(v.fingerprints).toEqual([{ template: 'user <uuid> not found', counts: { window: 2, hourBefore: 1, weekEarlier: 0 }, isNew: false, sample: 'user 9a1e2a4b-1c2d-4e5f-8a9b-0c1d2e3f4a5b not found', services: ['checkout', 'payments'] }]);
    const search = es.requests.find((r) => r.path === '/logs-*/_search')!;
    expect(search.body).toMatchObject({ size: 1000, track_total_hits: true, sort: [{ '@timestamp': { order: 'desc' } }], _source: ['message', 'service.name'] });
    expect(JSON.stringify(search.body)).toContain('"log.level":{"value":"error","case_insensitive":true}');
    expect(es.requests.filter((r) => r.path === '/logs-*/_count')).toHaveLength(3);
    expect(new Set(es.requests.map((r) => r.authorization))).toEqual(new Set([`Basic ${Buffer.from('reader:s3cret').toString('base64')}`]));
  });

  it('is "not measured (reason)" with the engine\'s reason when it refuses', async () => {
    es.fail(503, 'search_phase_execution_exception', 'all shards failed');
    expect(await collectLogs({ db: null as never, outbound }, source(es.url), 'org', services, window)).toMatchObject({ status: 'not_measured', reason: 'Elasticsearch answered 503: all shards failed' });
    es.fail(null);
  });
});
