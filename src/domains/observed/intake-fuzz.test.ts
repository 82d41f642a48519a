import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { addChangeSource } from '../../../test/support/observed-intake.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import type { SourceKind } from './observed-types.js';
import { PATH_KINDS } from './observed-intake-routes.js';

/**
 * Every intake path, authenticated as its sender would be, with random bodies and content types:
 * a client's mistake is a 4xx, never a 5xx, whatever the adapter behind it makes of the body.
 */
const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.string(),
  fc.constantFrom('', '{', '[]', 'null', '{"kind":"EventList","items":[{}]}', '{"kind":"EventList","items":[null,1,"x"]}', '{"records":[{}]}', '[{"detail-type":"AWS API Call via CloudTrail","detail":{}}]',
    '{"specversion":"1.0"}', '{"id":"x","title":"t","occurredAt":"not a time"}', '{"changes":[{},{"id":1}]}', '{"app":{},"event":"sync-succeeded"}', '{"routing_key":"x","payload":{}}', '{"value":[{}]}',
    '{"ref":"refs/heads/main","repository":{},"commits":[null]}', '{"object_kind":"push","project":null}', '{"title":"\\u0000","id":"\\u0000"}'),
  fc.record({ id: fc.string(), title: fc.string(), kind: fc.string(), occurredAt: fc.string(), environment: fc.string() }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
);
const type = fc.constantFrom('application/json', 'application/cloudevents+json', 'application/cloudevents-batch+json', 'text/plain', 'application/octet-stream');
const extra = fc.dictionary(fc.constantFrom('x-github-event', 'x-gitlab-event', 'ce-specversion', 'ce-type', 'ce-source', 'ce-id', 'x-github-delivery'), fc.string({ maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s)));

describeEachEngine('the intake paths never answer 5xx to a sender\'s junk', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const sources: Partial<Record<SourceKind, { id: string; secret: string }>> = {};
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Intake fuzz');
    for (const k of [...PATH_KINDS, 'pagerduty'] as const) sources[k] = await addChangeSource(t, owner.org.id, k);
  });
  afterAll(async () => t.close());

  it('with random bodies, content types and event headers on every kind\'s path', async () => {
    const seen = new Set<number>();
    await fc.assert(fc.asyncProperty(fc.constantFrom(...PATH_KINDS, 'pagerduty' as const), junk, type, extra, async (kind, body, contentType, headers) => {
      const s = sources[kind]!;
      const auth: Record<string, string> = kind === 'github'
        ? { 'x-hub-signature-256': `sha256=${createHmac('sha256', s.secret).update(body).digest('hex')}`, 'x-github-event': headers['x-github-event'] ?? 'push' }
        : kind === 'gitlab' ? { 'x-gitlab-token': s.secret } : { authorization: `Bearer ${s.secret}` };
      const payload = kind === 'pagerduty' && body.startsWith('{"') ? body.replace('{', `{"routing_key":${JSON.stringify(s.secret)},`) : body;
      const url = kind === 'pagerduty' ? '/v2/change/enqueue' : `/v1/changes/${kind}/${s.id}`;
      const r = await t.pipeline.inject({ method: 'POST', url, payload: kind === 'github' ? body : payload, headers: { ...headers, ...auth, 'content-type': contentType } });
      seen.add(r.statusCode);
      expect(r.statusCode, `${kind} ${contentType} ${body.slice(0, 200)} → ${r.body.slice(0, 300)}`).toBeLessThan(500);
    }), { numRuns: 300 });
    // The property reached past the authentication: some bodies were read, some refused.
    expect([...seen].some((s) => s === 400)).toBe(true);
    expect([...seen].some((s) => s === 200 || s === 202)).toBe(true);
  });
});
