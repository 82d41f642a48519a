import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

// Whatever arrives at the intake routes, the answer is never a 5xx, and a refusal writes nothing.

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('', '4', 'firing', 'resolved', '0001-01-01T00:00:00Z', '2026-03-01T10:00:00Z', '2026-02-30T25:61:00Z', 'null'));
const labels = fc.oneof(fc.dictionary(text, text, { maxKeys: 4 }), fc.anything(), fc.constant({}));
const time = fc.oneof(text, fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.integer(), fc.constant(null));
const alert = fc.record({
  status: fc.oneof(fc.constantFrom('firing', 'resolved'), text, fc.anything()),
  labels, annotations: fc.oneof(labels, fc.constant(undefined)), startsAt: time, endsAt: fc.oneof(time, fc.constant(undefined)),
  generatorURL: fc.oneof(text, fc.constant(undefined)), fingerprint: fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 16, maxLength: 16 }), text, fc.constant(undefined)),
}, { requiredKeys: [] });
const webhook = fc.oneof(
  fc.record({ version: fc.oneof(fc.constant('4'), text, fc.anything()), alerts: fc.oneof(fc.array(alert, { maxLength: 4 }), fc.anything()), externalURL: fc.oneof(text, fc.constant(undefined)), receiver: fc.oneof(text, fc.constant(undefined)) }, { requiredKeys: [] }),
  fc.anything(),
);
const postable = fc.oneof(fc.array(alert, { maxLength: 4 }), fc.anything());

describeEachEngine('alert intake under random bodies', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const rows = async () => {
    const r = await engine.db().query<{ a: number; t: number; e: number }>(
      'SELECT (SELECT count(*)::int FROM alerts) AS a, (SELECT count(*)::int FROM alert_transitions) AS t, (SELECT count(*)::int FROM audit_events WHERE org_id = $1) AS e', [owner.org.id]);
    return r.rows[0]!;
  };
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Fuzz');
  });
  afterAll(async () => t.close());

  it.each([['/api/alerts/alertmanager', webhook], ['/api/v2/alerts', postable]] as const)('%s never answers 5xx, and writes nothing when it refuses', async (url, body) => {
    await fc.assert(fc.asyncProperty(body, async (payload) => {
      const before = await rows();
      const res = await t.main.inject({ method: 'POST', url, headers: { ...owner.headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload ?? null) });
      expect(res.statusCode, res.body).toBeLessThan(500);
      if (res.statusCode !== 200) {
        expect(res.statusCode, res.body).toBe(400);
        expect((res.json() as { error: string }).error.length).toBeGreaterThan(0);
        expect(await rows()).toEqual(before);
      }
    }), { numRuns: 150, seed: 13 });
  });
});
