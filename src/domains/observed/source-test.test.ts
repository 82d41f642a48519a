import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import type { SourceKind } from './observed-types.js';
import { SECRET_VARIABLE } from './source-test.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const run = promisify(execFile);

/**
 * The Test button's promise: the curl line it gives, run by a shell exactly as a person would paste
 * it (with the secret in $CHANGELEDGER_SOURCE_SECRET), reaches the pipeline listener and passes the
 * connection's own authentication; the next Test then says an event arrived.
 */
describeEachEngine('the curl line of a pushed source', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) => t.main.inject({ method, url, headers: owner.headers, ...(payload === undefined ? {} : { payload: payload as Json }) });

  beforeAll(async () => {
    t = await testApp(engine.db());
    await t.pipeline.listen({ host: '127.0.0.1', port: 0 });
    owner = await signedInOwner(t, 'Curl');
  });
  afterAll(() => t.close());

  const kinds: SourceKind[] = ['webhook', 'github', 'gitlab', 'pagerduty', 'cloudevents', 'kubernetes', 'argocd', 'aws', 'azure'];
  it.each(kinds)('%s: the line is accepted with the secret, refused without it, and the next Test says an event arrived', async (kind) => {
    const made = await api('POST', '/api/change-sources', { kind, name: `curl ${kind}`, ...(kind === 'aws' ? { config: { regions: ['eu-west-1'] } } : {}) });
    expect(made.statusCode).toBe(201);
    const { source, secret } = made.json() as { source: Json; secret: string };
    expect(source.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const before = (await api('POST', `/api/change-sources/${source.id}/test`)).json() as { ok: boolean; curl: string };
    expect(before.ok).toBe(false);
    const status = async (value: string) => {
      const { stdout } = await run('bash', ['-c', `${before.curl} -o /dev/null -w '%{http_code}'`], { env: { ...process.env, [SECRET_VARIABLE]: value } });
      return Number(stdout.trim().slice(-3));
    };
    expect(await status('not-the-secret')).toBe(401);
    const ok = await status(secret);
    expect(ok, `${kind}: ${before.curl}`).toBeGreaterThanOrEqual(200);
    expect(ok).toBeLessThan(300);
    const after = (await api('POST', `/api/change-sources/${source.id}/test`)).json() as { ok: boolean; message: string };
    expect(after.ok, after.message).toBe(true);
  });
});
