import { gzipSync } from 'node:zlib';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as JsonExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor, type LogRecordExporter } from '@opentelemetry/sdk-logs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { LOGS_BODY_LIMIT, LOGS_MAX_INFLATED_BYTES, LOGS_MAX_RECORDS } from './log-intake.js';
import { decodeProtobufResponse, encodeProtobufRequest } from './otlp-logs.js';

type Row = { service: string; at: Date; severity_number: number | null; severity_text: string | null; body: string; fingerprint: string; attributes: Record<string, unknown>; trace_id: string | null };

const ns = (d: Date) => `${BigInt(d.getTime()) * 1_000_000n}`;
const request = (service: string, records: Array<Record<string, unknown>>) => ({
  resourceLogs: [{
    resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
    scopeLogs: [{ scope: { name: 'test' }, logRecords: records }],
  }],
});

describeEachEngine('POST /v1/logs (OTLP/HTTP logs intake)', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: string;
  let alertsOnly: string;
  let url: string;
  const db = () => engine.db();
  const rows = async (service: string) => (await db().query<Row>('SELECT * FROM log_records WHERE org_id = $1 AND service = $2 ORDER BY at, id', [owner.org.id, service])).rows;
  const total = async () => Number((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM log_records WHERE org_id = $1', [owner.org.id])).rows[0]!.n);
  const audits = async () => Number((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events WHERE org_id = $1', [owner.org.id])).rows[0]!.n);
  const post = (payload: string | Buffer, headers: Record<string, string>, secret = token) =>
    t.pipeline.inject({ method: 'POST', url: '/v1/logs', headers: { authorization: `Bearer ${secret}`, ...headers }, payload });
  const json = (body: unknown, extra: Record<string, string> = {}) => post(JSON.stringify(body), { 'content-type': 'application/json', ...extra });

  /** Sends through the real SDK: a LoggerProvider with the service's resource, flushed by a simple processor. */
  async function sendWithSdk(exporter: LogRecordExporter, service: string, emit: (logger: ReturnType<LoggerProvider['getLogger']>) => void) {
    const provider = new LoggerProvider({ resource: resourceFromAttributes({ 'service.name': service }), processors: [new SimpleLogRecordProcessor(exporter)] });
    emit(provider.getLogger('checkout-http', '1.0.0'));
    await provider.forceFlush();
    await provider.shutdown();
  }

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Logs');
    token = (await createToken(t, owner, ['logs:write'], 'otel-collector')).secret;
    alertsOnly = (await createToken(t, owner, ['alerts:write'], 'alertmanager')).secret;
    await t.pipeline.listen({ host: '127.0.0.1', port: 0 });
    const a = t.pipeline.server.address() as { port: number };
    url = `http://127.0.0.1:${a.port}/v1/logs`;
  });
  afterAll(async () => t.close());

  it('stores what the real OpenTelemetry SDK sends as OTLP/JSON with gzip: service, time, severity, body, its fingerprint, attributes, trace id', async () => {
    const before = await audits();
    const exporter = new JsonExporter({ url, headers: { authorization: `Bearer ${token}` }, compression: CompressionAlgorithm.GZIP });
    const at = new Date(Date.now() - 60_000);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await sendWithSdk(exporter, 'checkout', (logger) => {
      const ctx = trace.setSpanContext(context.active(), { traceId, spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED });
      logger.emit({ severityNumber: SeverityNumber.ERROR, severityText: 'ERROR', body: 'payment 8812 failed for order 3f1e2a4b-1c2d-4e5f-8a9b-0c1d2e3f4a5b', attributes: { 'http.status': 502, retry: true }, timestamp: at, context: ctx });
      logger.emit({ severityNumber: SeverityNumber.INFO, severityText: 'INFO', body: 'served /cart in 12 ms', timestamp: at });
    });
    const stored = await rows('checkout');
    expect(stored).toHaveLength(2);
    const [err, info] = [stored.find((r) => r.severity_number === 17)!, stored.find((r) => r.severity_number === 9)!];
    expect(err).toMatchObject({ severity_text: 'ERROR', body: 'payment 8812 failed for order 3f1e2a4b-1c2d-4e5f-8a9b-0c1d2e3f4a5b', fingerprint: 'payment <n> failed for order <uuid>', trace_id: traceId, attributes: { 'http.status': 502, retry: true } });
    expect(new Date(err.at).getTime()).toBe(at.getTime());
    expect(info.fingerprint).toBe('served /cart in <n> ms');
    // Intake is counted, not audited: an SDK exports every second, which would bury the ledger.
    expect(await audits()).toBe(before);
    const metrics = await t.main.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/changeledger_logs_received_total\{encoding="json"\} 2/);
  });

  it('stores what the real SDK sends as OTLP/protobuf (the -proto exporter), with the resource\'s service.name', async () => {
    const exporter = new ProtoExporter({ url, headers: { authorization: `Bearer ${token}` } });
    const at = new Date(Date.now() - 30_000);
    await sendWithSdk(exporter, 'Payments', (logger) => {
      logger.emit({ severityNumber: SeverityNumber.FATAL, body: 'db pool exhausted after 30 s (host 10.0.3.7)', timestamp: at });
      logger.emit({ severityNumber: SeverityNumber.WARN, body: { event: 'slow', ms: 950 }, timestamp: at });
    });
    const stored = await rows('Payments');
    expect(stored.map((r) => [r.severity_number, r.body, r.fingerprint])).toEqual(expect.arrayContaining([
      [21, 'db pool exhausted after 30 s (host 10.0.3.7)', 'db pool exhausted after <n> s (host <ip>)'],
      [13, '{"event":"slow","ms":950}', '{<q>:<q>,<q>:<n>}'],
    ]));
    const metrics = await t.main.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/changeledger_logs_received_total\{encoding="protobuf"\} 2/);
  });

  it('answers partialSuccess in JSON for records too old to keep or stamped ahead, and stores the rest; times fall back to observed, then received', async () => {
    const now = t.clock.now();
    const res = await json(request('search', [
      { timeUnixNano: ns(new Date(now.getTime() - 10 * 86_400_000)), severityNumber: 17, body: { stringValue: 'too old' } },
      { timeUnixNano: ns(new Date(now.getTime() + 2 * 3_600_000)), severityNumber: 17, body: { stringValue: 'from the future' } },
      { observedTimeUnixNano: ns(new Date(now.getTime() - 5_000)), severityNumber: 9, body: { stringValue: 'observed only' } },
      { timeUnixNano: '0', severityText: 'error', body: { stringValue: 'no time at all' } },
    ]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const answer = res.json() as { partialSuccess: { rejectedLogRecords: string; errorMessage: string } };
    expect(answer.partialSuccess.rejectedLogRecords).toBe('2');
    expect(answer.partialSuccess.errorMessage).toMatch(/1 stamped more than 9 days ago.*1 stamped more than 60 minutes ahead/);
    const stored = await rows('search');
    expect(stored.map((r) => [r.body, new Date(r.at).toISOString()])).toEqual([
      ['observed only', new Date(now.getTime() - 5_000).toISOString()],
      ['no time at all', now.toISOString()],
    ]);
  });

  it('answers a protobuf request in protobuf: an empty response on success, partialSuccess when a record is refused', async () => {
    const now = t.clock.now();
    const ok = await post(Buffer.from(encodeProtobufRequest(request('proto-svc', [{ timeUnixNano: ns(now), severityNumber: 17, body: { stringValue: 'boom 1' } }]))), { 'content-type': 'application/x-protobuf' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['content-type']).toBe('application/x-protobuf');
    expect(decodeProtobufResponse(ok.rawPayload)).toEqual({});
    const part = await post(gzipSync(encodeProtobufRequest(request('proto-svc', [{ timeUnixNano: ns(new Date(now.getTime() - 20 * 86_400_000)), body: { stringValue: 'ancient' } }]))), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    expect(part.statusCode).toBe(200);
    expect(decodeProtobufResponse(part.rawPayload)).toEqual({ partialSuccess: { rejectedLogRecords: 1, errorMessage: expect.stringMatching(/more than 9 days ago/) } });
    expect((await rows('proto-svc')).map((r) => r.body)).toEqual(['boom 1']);
  });

  it('refuses a body it cannot read with a 400 naming the problem, and writes nothing', async () => {
    const before = await total();
    const notJson = await post('{"resourceLogs": [', { 'content-type': 'application/json' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ error: expect.stringMatching(/^the body is not JSON/), code: 3 });
    const wrongShape = await json({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: 'yesterday', body: { stringValue: 'x' } }] }] }] });
    expect(wrongShape.statusCode).toBe(400);
    expect(wrongShape.json().error).toBe('resourceLogs[0].scopeLogs[0].logRecords[0].timeUnixNano must be nanoseconds since 1970 as a decimal string');
    const notList = await json({ resourceLogs: { a: 1 } });
    expect(notList.json().error).toBe('resourceLogs must be a list');
    const badGzip = await post('not gzip at all', { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(badGzip.statusCode).toBe(400);
    expect(badGzip.json().error).toBe('the body is not valid gzip');
    const brotli = await post('{}', { 'content-type': 'application/json', 'content-encoding': 'br' });
    expect(brotli.statusCode).toBe(415);
    expect(brotli.json().error).toBe('Content-Encoding br is not supported: send gzip or none');
    const badProto = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff]), { 'content-type': 'application/x-protobuf' });
    expect(badProto.statusCode).toBe(400);
    expect(badProto.headers['content-type']).toBe('application/x-protobuf');
    expect(badProto.rawPayload.toString('latin1')).toMatch(/not an ExportLogsServiceRequest in protobuf/);
    expect(await total()).toBe(before);
  });

  it(`refuses a body over ${LOGS_BODY_LIMIT / 1024 / 1024} MiB on the wire with 413 (also when it inflates past the cap or holds too many records), and a token without logs:write with 403; the main listener does not serve it`, async () => {
    const before = await total();
    const big = JSON.stringify(request('big', [{ body: { stringValue: 'x'.repeat(LOGS_BODY_LIMIT) } }]));
    const tooBig = await post(big, { 'content-type': 'application/json' });
    expect(tooBig.statusCode).toBe(413);
    // A small gzip body that inflates past the cap is refused, not unpacked.
    const bomb = gzipSync(Buffer.alloc(LOGS_MAX_INFLATED_BYTES + 1024, 0x20));
    expect(bomb.length).toBeLessThan(LOGS_BODY_LIMIT);
    const inflated = await post(bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(inflated.statusCode).toBe(413);
    expect(inflated.json().error).toBe(`the body inflates to more than ${LOGS_MAX_INFLATED_BYTES / 1024 / 1024} MiB`);
    const many = await json(request('many', Array.from({ length: LOGS_MAX_RECORDS + 1 }, () => ({ body: { stringValue: 'x' } }))));
    expect(many.statusCode).toBe(413);
    expect(many.json().error).toBe(`more than ${LOGS_MAX_RECORDS} log records in one request: send smaller batches`);
    const forbidden = await json(request('x', [{ body: { stringValue: 'y' } }]), { authorization: `Bearer ${alertsOnly}` });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toMatch(/logs:write/);
    const noToken = await t.pipeline.inject({ method: 'POST', url: '/v1/logs', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(noToken.statusCode).toBe(401);
    const main = await t.main.inject({ method: 'POST', url: '/v1/logs', headers: { ...owner.headers, 'content-type': 'application/json' }, payload: '{}' });
    expect(main.statusCode).toBe(404);
    expect(await total()).toBe(before);
  });
});
