import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CloudEvent, HTTP, Mode, emitterFor, httpTransport, type Message } from 'cloudevents';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import type { AdapterContext, IntakeRequest } from '../observed-types.js';
import { cdeventsType, cloudeventsIntake, parseCloudEvents, purlName } from './cloudevents.js';

const ctx: AdapterContext = { sourceId: 'src_ce', config: {}, ciNamespaces: [], now: new Date('2026-12-01T12:00:00Z') };
const ARTIFACT = 'pkg:oci/myapp@sha256%3A0b31b1c02ff458ad9b7b81cbdf8f028bd54699fa151f221d1e8de6817db93427';

/** A CDEvent as CDEvents' conformance examples shape it (github:cdevents/spec conformance/service_deployed.json). */
function cdevent(type: string, subject: Record<string, unknown>, id = '271069a8-fc18-44f1-b38f-9d70a1695819') {
  return new CloudEvent({
    specversion: '1.0', id, source: '/event/source/123', type, time: '2026-11-30T14:27:05.315Z',
    data: { context: { version: '0.4.1', id, source: '/event/source/123', type, timestamp: '2026-11-30T14:27:05.315Z' }, subject },
  });
}
const deployed = (content: Record<string, unknown> = { environment: { id: 'production' }, artifactId: ARTIFACT }, type = 'dev.cdevents.service.deployed.0.2.0') =>
  cdevent(type, { id: 'service/myapp', source: '/event/source/123', type: 'service', content });

/** What the intake route hands the adapter for a message: headers as Node lowercases them, the raw bytes, JSON when it is JSON. */
function reqOf(m: Message, extra: Record<string, string> = {}): IntakeRequest {
  const headers = Object.fromEntries(Object.entries({ ...m.headers, ...extra }).map(([k, v]) => [k.toLowerCase(), v]));
  const raw = Buffer.from(typeof m.body === 'string' ? m.body : JSON.stringify(m.body));
  let body: unknown = null;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    body = null;
  }
  return { headers, rawBody: raw, body };
}
const structuredRaw = (obj: unknown, type = 'application/cloudevents+json') => reqOf({ headers: { 'content-type': type }, body: JSON.stringify(obj) });
function refused(r: IntakeRequest): string | undefined {
  try {
    parseCloudEvents(r, ctx);
  } catch (e) {
    if (e instanceof AppError && e.status === 400) return e.field;
    throw e;
  }
  throw new Error('parsed without a 400');
}
const only = (r: IntakeRequest) => {
  const p = parseCloudEvents(r, ctx);
  expect(p.events).toHaveLength(1);
  return p.events[0]!;
};

describe('CloudEvents and CDEvents, read through the cloudevents SDK', () => {
  it('structured mode (the SDK\'s HTTP.structured): service.deployed is a deploy of the artifact\'s service in its environment', () => {
    const e = only(reqOf(HTTP.structured(deployed())));
    expect(e).toMatchObject({
      eventId: '/event/source/123#271069a8-fc18-44f1-b38f-9d70a1695819', kind: 'deploy', action: 'deployed', outcome: 'succeeded',
      serviceHint: 'myapp', location: { environment: 'production' }, resource: 'service/myapp', occurredAt: '2026-11-30T14:27:05.315Z',
      principal: { kind: 'unknown', name: '/event/source/123' }, changeRef: null, title: `myapp deployed to production (${ARTIFACT})`,
    });
    expect(JSON.parse(e.diff!)).toEqual({ environment: { id: 'production' }, artifactId: ARTIFACT });
  });

  it('binary mode (the SDK\'s HTTP.binary) reads the same event, with the same dedupe key', () => {
    const s = only(reqOf(HTTP.structured(deployed())));
    const b = only(reqOf(HTTP.binary(deployed())));
    expect(b).toEqual(s);
  });

  it('upgraded and rolledback are deploys; a rollback is recorded as the finished operation it reports', () => {
    expect(only(reqOf(HTTP.binary(deployed(undefined, 'dev.cdevents.service.upgraded.0.2.0'))))).toMatchObject({ kind: 'deploy', action: 'upgraded' });
    const r = only(reqOf(HTTP.binary(deployed(undefined, 'dev.cdevents.service.rolledback.0.2.0'))));
    expect(r).toMatchObject({ kind: 'deploy', action: 'rolledback', outcome: 'succeeded', title: `myapp rolled back in production (${ARTIFACT})` });
  });

  it('removed names no artifact: the service is the subject id\'s last part', () => {
    const e = only(reqOf(HTTP.structured(deployed({ environment: { id: 'staging' } }, 'dev.cdevents.service.removed.0.3.0'))));
    expect(e).toMatchObject({ kind: 'deploy', action: 'removed', serviceHint: 'myapp', title: 'myapp removed from staging' });
  });

  it('environment.modified is a change of that environment', () => {
    const ev = cdevent('dev.cdevents.environment.modified.0.3.0-draft', { id: 'env-42', type: 'environment', content: { name: 'testEnv', url: 'https://example.org/testEnv' } });
    expect(only(reqOf(HTTP.structured(ev)))).toMatchObject({ kind: 'change', action: 'modified', location: { environment: 'testEnv' }, outcome: null, serviceHint: null, title: 'Environment testEnv modified' });
  });

  it('every other type is counted as ignored, not refused', () => {
    for (const type of ['dev.cdevents.pipelinerun.finished.0.2.0', 'dev.cdevents.service.published.0.3.0', 'dev.cdevents.environment.created.0.3.0', 'com.github.push', 'dev.cdevents.service.deployed', 'dev.cdevents.service.constructor.0.1.0', 'dev.cdevents.service.tostring.0.1.0']) {
      expect(parseCloudEvents(reqOf(HTTP.structured(deployed(undefined, type))), ctx)).toEqual({ events: [], ignored: 1, noise: 0, rejected: [] });
    }
    expect(cdeventsType('dev.cdevents.service.deployed.0.3.0')).toEqual({ subject: 'service', predicate: 'deployed' });
  });

  it('the time is the event\'s; else the CDEvent context\'s timestamp; else when it arrived', () => {
    const json = JSON.parse(HTTP.structured(deployed()).body as string) as Record<string, unknown>;
    delete json.time;
    expect(only(structuredRaw(json)).occurredAt).toBe('2026-11-30T14:27:05.315Z');
    delete (json.data as { context: Record<string, unknown> }).context.timestamp;
    expect(only(structuredRaw(json)).occurredAt).toBe('2026-12-01T12:00:00.000Z');
  });

  it('batch mode records the good events and reports the bad one; an unknown type in it is ignored', () => {
    const good = deployed().toJSON();
    const noId = { ...deployed().toJSON(), id: undefined };
    const other = { ...deployed(undefined, 'com.example.other').toJSON(), id: 'x2' };
    const p = parseCloudEvents(structuredRaw([good, noId, other, 'nope'], 'application/cloudevents-batch+json'), ctx);
    expect(p.events.map((e) => e.eventId)).toEqual(['/event/source/123#271069a8-fc18-44f1-b38f-9d70a1695819']);
    expect(p.ignored).toBe(1);
    expect(p.rejected).toEqual([
      { index: 1, field: '1.id', message: 'Item 2 › ID is required' },
      { index: 3, field: '3', message: expect.stringContaining('must be a CloudEvent') },
    ]);
  });

  it.each(['specversion', 'id', 'source', 'type'])('structured mode without %s is a 400 naming it', (attr) => {
    const json = deployed().toJSON() as Record<string, unknown>;
    delete json[attr];
    expect(refused(structuredRaw(json))).toBe(attr);
  });

  it.each(['ce-specversion', 'ce-id', 'ce-source', 'ce-type'])('binary mode without the %s header is a 400 naming it', (name) => {
    const m = HTTP.binary(deployed());
    const headers = { ...m.headers };
    delete headers[name];
    expect(refused(reqOf({ headers, body: m.body }))).toBe(name);
  });

  it.each([
    [structuredRaw({ ...deployed().toJSON(), specversion: '0.3' }), 'specversion'],
    [reqOf({ headers: { 'content-type': 'application/json' }, body: '{"a":1}' }), 'ce-specversion'],
    [structuredRaw({ not: 'a list' }, 'application/cloudevents-batch+json'), 'body'],
    [{ headers: { 'content-type': 'application/cloudevents+json' }, rawBody: Buffer.from('{"specversion":'), body: null }, 'body'],
    [reqOf({ headers: { ...HTTP.binary(deployed()).headers }, body: '{"context":' }), 'data'],
    [reqOf(HTTP.structured(cdevent('dev.cdevents.service.deployed.0.2.0', undefined as unknown as Record<string, unknown>))), 'data.subject'],
    [reqOf(HTTP.structured(deployed({ artifactId: ARTIFACT }))), 'data.subject.content.environment.id'],
    [reqOf(HTTP.structured(deployed({ environment: { id: 'prod' } }))), 'data.subject.content.artifactId'],
    [reqOf(HTTP.structured(deployed(undefined).cloneWith({ data: 'just text' }))), 'data'],
  ])('a malformed CloudEvent or CDEvent is a 400 naming the field (%#)', (r, field) => {
    expect(refused(r)).toBe(field);
  });

  it('reads the package name of a purl', () => {
    expect(purlName(ARTIFACT)).toBe('myapp');
    expect(purlName('pkg:golang/mygit.com/myorg/myapp@234fd47e07d1004f0aed9c')).toBe('myapp');
    expect(purlName('six-1.14.0-py2.py3-none-any.whl')).toBeNull();
  });

  it('reads what the SDK\'s own emitter sends over HTTP, in both modes, with the connection secret as a bearer', async () => {
    const got: IntakeRequest[] = [];
    const server = createServer((rq: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      rq.on('data', (c: Buffer) => chunks.push(c));
      rq.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        let body: unknown = null;
        try { body = JSON.parse(rawBody.toString('utf8')); } catch { body = null; }
        got.push({ headers: rq.headers, rawBody, body });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/changes/cloudevents/src_ce`;
      for (const mode of [Mode.BINARY, Mode.STRUCTURED]) {
        // The SDK's emitter takes transport options (the bearer) per emit.
        await emitterFor(httpTransport(url), { binding: HTTP, mode })(deployed(), { headers: { authorization: 'Bearer ce-secret' } });
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(got).toHaveLength(2);
    for (const r of got) {
      expect(await cloudeventsIntake.authenticate(r, 'ce-secret')).toBe(true);
      expect(await cloudeventsIntake.authenticate(r, 'other')).toBe(false);
      expect(only(r)).toMatchObject({ eventId: '/event/source/123#271069a8-fc18-44f1-b38f-9d70a1695819', kind: 'deploy', serviceHint: 'myapp' });
    }
    expect(got[0]!.headers['ce-id']).toBe('271069a8-fc18-44f1-b38f-9d70a1695819');
    expect(got[1]!.headers['content-type']).toMatch(/^application\/cloudevents\+json/);
  });

  it('any JSON in any mode is recorded, ignored, reported or refused with a 400 naming a field, never another error', () => {
    const any = fc.jsonValue();
    const attr = fc.oneof(any, fc.constantFrom('1.0', 'x', 'dev.cdevents.service.deployed.0.2.0', 'dev.cdevents.environment.modified.0.3.0'));
    const event = fc.record({ specversion: attr, id: attr, source: attr, type: attr, time: attr, data: fc.oneof(any, fc.record({ subject: fc.oneof(any, fc.record({ id: any, content: any }, { requiredKeys: [] })) }, { requiredKeys: [] })) }, { requiredKeys: [] });
    const type = fc.constantFrom('application/cloudevents+json', 'application/cloudevents-batch+json', 'application/json', 'text/plain');
    fc.assert(fc.property(fc.oneof(event, fc.array(event), any), type, (body, contentType) => {
      const r = structuredRaw(body, contentType);
      try {
        const p = parseCloudEvents(r, ctx);
        expect(p.events.length + p.ignored + p.rejected.length).toBeGreaterThanOrEqual(contentType.includes('batch') ? 0 : 1);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect([(e as AppError).status, typeof (e as AppError).field]).toEqual([400, 'string']);
      }
    }));
  });
});
