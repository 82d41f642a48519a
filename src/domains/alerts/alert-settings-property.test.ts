import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

// Whatever a client sends to the alert settings, the answer is never a 5xx, and a refusal writes nothing.

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', 'http://10.0.0.1:9093', 'http://169.254.169.254/', 'https://hooks.slack.example/x', 'ops@acme.dev', 'x@', 'R0UT1NGKEY0123456789abcdefABCDEF', 'service', 'asset', 'pod', 'host', 'nul\u0000inside'),
);
const value = fc.oneof(text, fc.anything(), fc.array(text, { maxLength: 3 }), fc.constant(null));
const destination = fc.record({
  kind: fc.oneof(fc.constantFrom('webhook', 'email', 'slack', 'pagerduty'), text), name: value, enabled: fc.oneof(fc.boolean(), value),
  url: value, to: fc.oneof(fc.array(text, { maxLength: 3 }), value), routingKey: value, eventsUrl: value,
}, { requiredKeys: [] });
const rule = fc.record({ labels: fc.oneof(fc.array(text, { maxLength: 3 }), value), as: fc.oneof(fc.constantFrom('service', 'source', 'pod', 'asset'), text), kinds: fc.oneof(fc.array(text, { maxLength: 2 }), value) }, { requiredKeys: [] });
const settings = fc.record({ holdMode: fc.oneof(fc.constantFrom('relay', 'silence'), text), labelMapping: fc.oneof(fc.array(fc.oneof(rule, fc.anything()), { maxLength: 4 }), value) }, { requiredKeys: [] });
const alertmanager = fc.record({
  name: value, url: value,
  auth: fc.oneof(fc.record({ kind: fc.constantFrom('none', 'bearer', 'basic', 'digest'), token: value, username: value, password: value }, { requiredKeys: ['kind'] }), value),
}, { requiredKeys: [] });

describeEachEngine('alert settings under random bodies', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const rows = async () => {
    const r = await engine.db().query<{ s: number; a: number; d: number; e: number }>(
      `SELECT (SELECT count(*)::int FROM alert_settings) AS s, (SELECT count(*)::int FROM alertmanagers) AS a,
              (SELECT count(*)::int FROM alert_destinations) AS d, (SELECT count(*)::int FROM audit_events WHERE org_id = $1) AS e`, [owner.org.id]);
    return r.rows[0]!;
  };
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Fuzz settings');
  });
  afterAll(async () => t.close());

  it.each([
    ['POST', '/api/alert-destinations', destination],
    ['PUT', '/api/alert-settings', settings],
    ['POST', '/api/alertmanagers', alertmanager],
  ] as const)('%s %s never answers 5xx, and writes nothing when it refuses', async (method, url, body) => {
    await fc.assert(fc.asyncProperty(body, async (payload) => {
      const before = await rows();
      const res = await t.main.inject({ method, url, headers: { ...owner.headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
      expect(res.statusCode, res.body).toBeLessThan(500);
      if (res.statusCode >= 400) {
        expect([400, 409], res.body).toContain(res.statusCode);
        expect((res.json() as { error: string }).error.length).toBeGreaterThan(0);
        expect(await rows()).toEqual(before);
      }
    }), { numRuns: 150, seed: 17 });
  });
});
