import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../../test/support/engines.js';
import { addChangeSource } from '../../../../test/support/observed-intake.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../../test/support/test-app.js';

/**
 * The real CloudTrail and Azure Activity Log payloads of ../shared through the real intake with the
 * reference rule on: every write is classed, refusals are denied attempts (never judged, a case
 * each), people's and unknown writes are flagged, and a deploy role can be authorized by its ARN.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const REAL = join(ROOT, '..', 'shared', 'fixtures', 'real');
const hasShared = existsSync(REAL);
if (!hasShared) console.warn(`cloud unauthorized: SKIPPING the real CloudTrail and Activity Log payload tests: ${REAL} is absent`);
const load = (dir: string, f: string) => JSON.parse(readFileSync(join(REAL, dir, f), 'utf8')) as Json;

describeEachEngine('the reference rule on real cloud audit payloads', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  const post = (kind: string, id: string, secret: string, body: unknown) => t.pipeline.inject({
    method: 'POST', url: `/v1/changes/${kind}/${id}`, payload: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
  });
  const rows = async (sourceId: string) => (await t.services.db.query<Json>('SELECT * FROM observed_changes WHERE source_id = $1 ORDER BY occurred_at, event_id', [sourceId])).rows;

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Cloud rule');
    const put = await t.main.inject({ method: 'PUT', url: '/api/unmanaged-settings', headers: owner.headers, payload: { referenceRule: true, authorizedPrincipals: ['arn:aws:iam::*:role/stratus-*'] } });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => t.close());

  describe.skipIf(!hasShared)('real payloads', () => {
    it('CloudTrail: AccessDenied and UnauthorizedOperation are denied attempts, never judged; writes are classed and judged', async () => {
      const src = await addChangeSource(t, owner.org.id, 'aws', { config: { regions: ['us-east-1'] } });
      for (const f of readdirSync(join(REAL, 'aws-cloudtrail')).filter((x) => x.endsWith('.json'))) {
        const v = load('aws-cloudtrail', f);
        // A lone record goes in Records[], as a trail's S3 object or a batch holds it (one trimmed test case lacks its eventID and is reported).
        const r = await post('aws', src.id, src.secret, 'detail-type' in v ? v : { Records: [v] });
        expect(r.statusCode, `${f}: ${r.body}`).toBeLessThan(300);
      }
      const all = await rows(src.id);
      const denied = all.filter((r) => r.denied);
      expect(denied.map((r) => r.error_code).sort()).toEqual(['AccessDenied', 'AccessDenied', 'Client.UnauthorizedOperation']);
      for (const r of denied) expect([r.title, r.authorized, r.case_id === null]).toEqual([r.title, null, false]);
      for (const r of all) expect(r.principal_class, r.title).not.toBeNull();
      for (const r of all.filter((x) => !x.denied && x.principal_class !== 'system')) expect(r.authorized, r.title).not.toBeNull();
      // Every judged write either names what vouched for it or says nothing did.
      for (const r of all.filter((x) => x.authorized !== null)) expect(r.authorized_reason, r.title).toMatch(r.authorized ? /authorized principal/ : /^no reference found/);
      expect(all.some((r) => r.authorized === false)).toBe(true);
    });

    it('Azure: the 403s are denied attempts with a case; the role assignment by a person is flagged and drafts its az revert', async () => {
      const src = await addChangeSource(t, owner.org.id, 'azure');
      for (const f of readdirSync(join(REAL, 'azure-activity-log')).filter((x) => x.startsWith('panther-'))) {
        const r = await post('azure', src.id, src.secret, { records: [load('azure-activity-log', f)] });
        expect(r.statusCode, `${f}: ${r.body}`).toBeLessThan(300);
      }
      const all = await rows(src.id);
      const denied = all.filter((r) => r.denied);
      expect(denied).toHaveLength(2);
      for (const r of denied) expect(r).toMatchObject({ authorized: null, revert: null });
      const role = all.find((r) => r.action === 'Microsoft.Authorization/roleAssignments/write')!;
      expect(role.principal_class).not.toBeNull();
      if (role.principal_class !== 'system') expect(role.authorized).toBe(false);
      expect(role.revert).toMatchObject({ tool: 'az' });
      expect(role.revert.command).toMatch(/^az role assignment delete --ids /);
      const cases = (await t.main.inject({ method: 'GET', url: '/api/cases?kind=denied_access', headers: owner.headers })).json() as { cases: Json[] };
      expect(cases.cases.length).toBeGreaterThan(0);
    });
  });
});
