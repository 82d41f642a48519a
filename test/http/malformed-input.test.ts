import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import { countRows, createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../support/test-app.js';

type Route = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string };

/**
 * Every route the OpenAPI document lists (so a new route is fuzzed without anyone remembering to),
 * the unlisted operational ones, and methods a route does not have, which must be a clean 404.
 * Left out, because any request to them rightly writes: sign-out, and signing a checkpoint (it takes
 * no input at all).
 */
function routesOf(doc: { paths: Record<string, Record<string, unknown>> }): Route[] {
  const out: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of Object.keys(ops)) {
      const m = method.toUpperCase();
      if ((m === 'GET' || m === 'POST' || m === 'PUT' || m === 'DELETE') && !(m === 'DELETE' && path === '/api/session') && !(m === 'POST' && path === '/api/audit/checkpoints')) out.push({ method: m, url: path });
    }
  }
  return [...out, { method: 'GET', url: '/healthz' }, { method: 'GET', url: '/readyz' }, { method: 'GET', url: '/metrics' }, { method: 'POST', url: '/api/audit' }, { method: 'PUT', url: '/api/tokens/{id}' }];
}

const junkString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', '\u0000', '%00', '../..', "' OR 1=1 --", '1h', '-1', '9'.repeat(40), 'clt_x', '{"a":'));
const junkJson = fc.jsonValue({ maxDepth: 3 });
const tokenLikeBody = fc.record(
  { name: fc.oneof(junkString, fc.integer(), fc.constant(null)), scopes: fc.oneof(fc.array(junkString), junkString, fc.constant(['audit:read', 'nope'])), expiresInDays: fc.oneof(fc.integer(), fc.double(), junkString) },
  { requiredKeys: [] },
);
const body = fc.oneof(
  junkJson.map((v) => ({ raw: JSON.stringify(v), type: 'application/json' })),
  tokenLikeBody.map((v) => ({ raw: JSON.stringify(v), type: 'application/json' })),
  fc.record({ password: junkString, newPassword: junkString, currentPassword: junkString, email: junkString, token: junkString }, { requiredKeys: [] }).map((v) => ({ raw: JSON.stringify(v), type: 'application/json' })),
  junkString.map((s) => ({ raw: s, type: 'application/json' })),
  fc.tuple(junkString, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml', 'application/json; charset=latin1')).map(([raw, type]) => ({ raw, type })),
);
const query = fc.dictionary(
  fc.constantFrom('action', 'actor', 'targetType', 'targetId', 'correlationId', 'since', 'until', 'q', 'cursor', 'limit', 'x'),
  fc.oneof(junkString, fc.integer().map(String), fc.constantFrom('2026-13-45T99:99:99Z', '1h', '0', '501', 'MjAyNi0wMS0wMVQwMDowMDowMC4wMDBafDE')),
);
const headers = fc.dictionary(
  fc.constantFrom('x-request-id', 'x-correlation-id', 'accept', 'x-forwarded-for', 'if-none-match', 'accept-encoding'),
  fc.string({ maxLength: 300 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
);
const idSegment = fc.oneof(fc.stringMatching(/^[A-Za-z0-9]{8}$/), junkString.map((s) => encodeURIComponent(s)));

function url(route: Route, id: string, q: Record<string, string>): string {
  const path = route.url.replace(/\{[a-z]+\}/gi, id || 'x');
  const qs = new URLSearchParams(q).toString();
  return qs ? `${path}?${qs}` : path;
}

describeEachEngine('malformed input never yields a 5xx and never writes', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let secret: string;
  let sdkKey: string;
  let routes: Route[];
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Fuzzed');
    secret = (await createToken(t, owner, ['audit:read', 'changes:read', 'changes:write', 'flags:read', 'flags:write', 'catalogue:read'])).secret;
    sdkKey = (await t.main.inject({ method: 'POST', url: '/api/sdk-keys', headers: owner.headers, payload: { name: 'fuzz', env: 'production' } })).json().secret as string;
    await t.main.inject({ method: 'POST', url: '/api/flags', headers: owner.headers, payload: { key: 'x', type: 'boolean', risk: 'low' } });
    // The checkpoint signing key is made on its first use, by whichever request needs it first.
    expect((await t.main.inject({ url: '/api/audit/checkpoint-key', headers: owner.headers })).statusCode).toBe(200);
    routes = routesOf((await t.main.inject({ url: '/api/openapi.json' })).json());
  });
  afterAll(async () => t.close());

  it('on both listeners, signed in or with a token, with random bodies, queries and headers', async () => {
    const before = await countRows(engine.db());
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.constantFrom<'main' | 'pipeline'>('main', 'pipeline'), body, query, headers, idSegment, fc.constantFrom('none', 'own', 'sdk'),
        async (route, listener, b, q, h, id, who) => {
          // Keep a token under its rate limit: the fuzz is about input, not pace.
          t.clock.advance(2_000);
          const own = listener === 'main' ? owner.headers : { authorization: `Bearer ${secret}` };
          const auth = who === 'none' ? {} : who === 'sdk' ? { 'x-api-key': sdkKey } : own;
          const app = listener === 'main' ? t.main : t.pipeline;
          const res = await app.inject({
            method: route.method,
            url: url(route, id, q),
            headers: { ...h, ...auth, ...(route.method === 'GET' ? {} : { 'content-type': b.type }) },
            ...(route.method === 'GET' ? {} : { payload: b.raw }),
          });
          seen.add(res.statusCode);
          expect(res.statusCode, `${route.method} ${url(route, id, q)} ${b.raw.slice(0, 200)} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            const parsed = res.json() as { error?: unknown };
            expect(typeof parsed.error).toBe('string');
          }
        }),
      { numRuns: 600 },
    );
    expect(await countRows(engine.db())).toEqual(before);
    expect([...seen].some((s) => s >= 400)).toBe(true);
    expect(routes.length).toBeGreaterThan(30);
  }, 120_000);
});
