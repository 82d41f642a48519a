import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeProtobufRequest, OtlpBodyError, parseJsonRequest, parseProtobufRequest, recordsOf } from './otlp-logs.js';

const request = {
  resourceLogs: [{
    resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }, { key: 'host.name', value: { stringValue: 'web-1' } }] },
    scopeLogs: [{
      scope: { name: 'app', version: '1.0' },
      logRecords: [{
        timeUnixNano: '1763632800000000000', observedTimeUnixNano: '1763632800500000000', severityNumber: 17, severityText: 'ERROR',
        body: { kvlistValue: { values: [{ key: 'msg', value: { stringValue: 'boom' } }, { key: 'n', value: { intValue: '9007199254740993' } }] } },
        attributes: [
          { key: 'retry', value: { boolValue: true } }, { key: 'ratio', value: { doubleValue: 0.5 } },
          { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: 2 }] } } },
        ],
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7',
      }],
    }],
  }],
};

describe('OTLP logs: both encodings read to one shape', () => {
  it('reads OTLP/JSON: service.name, times as decimal strings, AnyValues as plain values (an int64 past 2^53 stays a string)', () => {
    expect(parseJsonRequest(JSON.stringify(request))).toEqual([{
      service: 'checkout', timeUnixNano: '1763632800000000000', observedTimeUnixNano: '1763632800500000000', severityNumber: 17, severityText: 'ERROR',
      body: '{"msg":"boom","n":"9007199254740993"}', attributes: { retry: true, ratio: 0.5, tags: ['a', 2] }, traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    }]);
  });

  it('reads the same request in protobuf as in JSON (trace id bytes become hex)', () => {
    const proto = { ...request, resourceLogs: request.resourceLogs.map((rl) => ({ ...rl, scopeLogs: rl.scopeLogs.map((sl) => ({ ...sl, logRecords: sl.logRecords.map((r) => ({ ...r, traceId: Buffer.from(r.traceId, 'hex'), spanId: Buffer.from(r.spanId, 'hex') })) })) })) };
    expect(parseProtobufRequest(encodeProtobufRequest(proto))).toEqual(parseJsonRequest(JSON.stringify(request)));
  });

  it('takes numbers for 64-bit fields and an absent resource (service "")', () => {
    expect(recordsOf({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: 1763632800000000000, body: { stringValue: 'x' } }] }] }] })[0]).toMatchObject({ service: '', timeUnixNano: '1763632800000000000', body: 'x' });
  });

  it('never fails but with a worded OtlpBodyError, whatever JSON or bytes it is given', () => {
    const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ resourceLogs: fc.array(fc.record({ resource: fc.jsonValue({ maxDepth: 3 }), scopeLogs: fc.array(fc.record({ logRecords: fc.array(fc.dictionary(fc.constantFrom('timeUnixNano', 'severityNumber', 'body', 'attributes', 'traceId'), fc.jsonValue({ maxDepth: 3 }))) })) })) }));
    fc.assert(fc.property(anyJson, (v) => {
      try {
        parseJsonRequest(JSON.stringify(v));
      } catch (err) {
        expect(err).toBeInstanceOf(OtlpBodyError);
      }
    }), { numRuns: 300 });
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      try {
        parseProtobufRequest(bytes);
      } catch (err) {
        expect(err).toBeInstanceOf(OtlpBodyError);
      }
    }), { numRuns: 300 });
  });
});
