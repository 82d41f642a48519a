import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

// Whatever a client sends as the AI provider, the answer is never a 5xx, and a refusal writes nothing.

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '   ', 'https://api.openai.com/v1', 'http://10.0.0.7:11434/v1', 'http://169.254.169.254/', 'ftp://x', 'gpt-4o-mini', 'sk-abc', 'sk a b', 'nul\u0000inside', 'x'.repeat(2100)),
);
const value = fc.oneof(text, fc.anything(), fc.constant(null));
const provider = fc.record({ kind: fc.oneof(fc.constantFrom('openai', 'anthropic'), text), url: value, model: value, key: value }, { requiredKeys: [] });

describeEachEngine('the AI provider under random bodies', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const rows = async () => {
    const r = await engine.db().query<{ p: number; e: number }>(
      'SELECT (SELECT count(*)::int FROM ai_providers WHERE org_id = $1) AS p, (SELECT count(*)::int FROM audit_events WHERE org_id = $1) AS e', [owner.org.id],
    );
    return r.rows[0]!;
  };
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Fuzz AI provider');
  });
  afterAll(async () => t.close());

  it('PUT /api/ai-provider never answers 5xx, and writes nothing when it refuses', async () => {
    await fc.assert(fc.asyncProperty(provider, async (payload) => {
      const before = await rows();
      const res = await t.main.inject({ method: 'PUT', url: '/api/ai-provider', headers: { ...owner.headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
      expect(res.statusCode, res.body).toBeLessThan(500);
      if (res.statusCode >= 400) {
        expect(res.statusCode, res.body).toBe(400);
        expect((res.json() as { error: string }).error.length).toBeGreaterThan(0);
        expect(await rows()).toEqual(before);
      } else expect(res.body).not.toMatch(/"key"/);
    }), { numRuns: 150, seed: 29 });
  });
});
